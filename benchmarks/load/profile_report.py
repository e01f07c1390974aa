"""Sum the web processes' request profiles of a load run (``ramp.py --profile DIR``) per request
kind and print where the time goes.

    .venv/bin/python benchmarks/load/profile_report.py DIR [--top 25] [--sort tottime|cumulative]
"""

from __future__ import annotations

import argparse
import pstats
from collections import defaultdict
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--sort", default="tottime", choices=["tottime", "cumulative"])
    ap.add_argument("--kind", action="append", help="only these kinds (poll, submit_api, submit_page, console, other)")
    args = ap.parse_args()
    files = defaultdict(list)
    for f in sorted(Path(args.dir).glob("*.prof")):
        files[f.name.split("-", 1)[0]].append(str(f))
    for kind, paths in sorted(files.items()):
        if args.kind and kind not in args.kind:
            continue
        stats = pstats.Stats(*paths)
        calls = sum(v[0] for k, v in stats.stats.items() if k[2] == "__call__" and "wsgi" in k[0])
        print(f"==== {kind}: {len(paths)} profiles, {stats.total_tt:.2f} s profiled, WSGI calls {calls}")
        stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
