"""API fuzzing benchmark: schemathesis against /api/schema/ with every role, >= 5,000 cases.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/coinlab_fuzz REDIS_URL=redis://127.0.0.1:6379/11 \\
        .venv/bin/python benchmarks/fuzz_api.py --examples 140 --phases fuzzing --roles rotate

Runs tests/fuzz/test_api_fuzz.py and tests/fuzz/test_form_fuzz.py (the HTML forms of every role,
and every option of every game at scheduling, editing, start and play; ``--examples`` examples
per form and per option too). API targets: a live, a finished and a scheduled session of each of
Peru, Andean Abyss with Non-player seats and Tears of Tyranny with four teams) with the chosen
phases (the schema's examples, coverage and fuzzing; ``--examples`` fuzzed examples per
operation), each case sent as eight roles (instructor, another instructor, a student on each
of four teams, reviewer, anonymous) or, with ``--roles rotate``, as one of them in turn, and prints the
number of cases, calls, server errors and answers by status. Exit status 1 on any
server error. Figures: docs/benchmarks.md, "API fuzzing".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=100, help="fuzzed examples per operation")
    ap.add_argument("--phases", default="examples,coverage,fuzzing")
    ap.add_argument("--roles", choices=["all", "rotate"], default="all",
                    help="each case as every role, or as one role in turn (eight times faster)")
    ap.add_argument("--api-only", action="store_true", help="leave out the HTML forms and the game options")
    args = ap.parse_args()
    counts = Path(tempfile.mkdtemp(prefix="coinlab-fuzz-")) / "counts.json"
    env = {**os.environ, "COINLAB_FUZZ_EXAMPLES": str(args.examples), "COINLAB_FUZZ_PHASES": args.phases,
           "COINLAB_FUZZ_COUNTS": str(counts),
           "COINLAB_FUZZ_ROLES": args.roles}
    t0 = time.monotonic()
    rc = subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/fuzz/test_api_fuzz.py",
                          *([] if args.api_only else ["tests/fuzz/test_form_fuzz.py"])], cwd=ROOT, env=env)
    wall = time.monotonic() - t0
    data = json.loads(counts.read_text()) if counts.exists() else {}
    data.update(examples_per_operation=args.examples, phases=args.phases, roles=args.roles, seconds=round(wall, 1),
                pytest_rc=rc)
    print(json.dumps(data, indent=1))
    return 0 if rc == 0 and data.get("server_errors") == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
