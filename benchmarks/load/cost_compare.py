"""CPU cost per request kind (``cost.py``), side by side on two commits in one run (issue 20).

Each commit is extracted with ``git archive`` into a folder of its own; this tree's ``cost.py``
(the same measurement on both sides) is copied into each and runs there, in a fresh process,
alternately (base, head, base, head, ...), each time on a fresh copy of the same classroom (a
PostgreSQL database made from ``--template``, created once with ``setup_load.py --scenario mix``)
and an emptied Redis database, so both sides see the same positions and the machine's load hits
both alike. CPU time (``time.process_time``), not wall time: other work on a shared machine
does not count, but it still slows the CPU a process gets (caches, the core's other thread):
``--callgrind`` counts instructions instead (valgrind), which no other work changes. Prints the median of each kind's per-run median CPU ms and the ratio head/base.

    .venv/bin/python benchmarks/load/cost_compare.py --base b8ce099 --head HEAD --rounds 3 \\
        --pg postgres://postgres@127.0.0.1:5432 --db coinlab_cost --redis redis://127.0.0.1:6379/6 -- --n 8
    # instruction counts (noise-free; one round)
    .venv/bin/python benchmarks/load/cost_compare.py --base b8ce099 --rounds 1 --callgrind -- --n 3

The classroom: ``--sessions`` mixed sessions (default 24: 8 of each game), made in the template
database ``<db>_tpl`` if it does not exist (``--fresh-template`` makes it again).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def extract(commit: str, into: Path) -> None:
    into.mkdir(parents=True)
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=data, check=True)
    shutil.copy(HERE / "cost.py", into / "benchmarks" / "load" / "cost.py")  # the same measurement


def psql(pg: str, *sql: str) -> None:
    cmd = ["psql", "-q", f"{pg}/postgres"]
    for s in sql:
        cmd += ["-c", s]
    subprocess.run(cmd, check=True, capture_output=True)


def exists(pg: str, db: str) -> bool:
    out = subprocess.run(["psql", "-tA", f"{pg}/postgres", "-c", f"SELECT 1 FROM pg_database WHERE datname = '{db}'"],
                         check=True, capture_output=True, text=True).stdout
    return out.strip() == "1"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--head", default="HEAD")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    ap.add_argument("--db", default="coinlab_cost")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/6")
    ap.add_argument("--sessions", type=int, default=24)
    ap.add_argument("--fresh-template", action="store_true")
    ap.add_argument("--callgrind", action="store_true",
                    help="count instructions under valgrind (callgrind) instead of CPU time: noise-free, "
                    "so one round is enough; about fifty times slower")
    ap.add_argument("--out", help="write the JSON of every run here")
    ap.add_argument("cost_args", nargs="*", help="after --: arguments of cost.py (e.g. --n 8)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cost-compare-"))
    trees = {"base": work / "base", "head": work / "head"}
    extract(args.base, trees["base"])
    extract(args.head, trees["head"])
    tpl = f"{args.db}_tpl"
    env = dict(os.environ, DATABASE_URL=f"{args.pg}/{args.db}", REDIS_URL=args.redis,
               SECRET_KEY="cost-compare-secret-key-0123456789", COINLAB_RATE_LIMITS="0")
    people = work / "people.json"
    if args.fresh_template or not exists(args.pg, tpl):
        psql(args.pg, f"DROP DATABASE IF EXISTS {tpl} WITH (FORCE)", f"CREATE DATABASE {tpl}")
        tenv = dict(env, DATABASE_URL=f"{args.pg}/{tpl}", PYTHONPATH=str(trees["base"]))
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=trees["base"], env=tenv, check=True)
        subprocess.run([sys.executable, "benchmarks/load/setup_load.py", "--scenario", "mix", "--sessions",
                        str(args.sessions), "--out", str(ROOT / "var" / "load" / f"{tpl}.json")],
                       cwd=trees["base"], env=tenv, check=True, capture_output=True)
    shutil.copy(ROOT / "var" / "load" / f"{tpl}.json", people)
    import redis

    runs: dict[str, list[dict]] = {"base": [], "head": []}
    for r in range(args.rounds):
        for side in ("base", "head"):
            psql(args.pg, f"DROP DATABASE IF EXISTS {args.db} WITH (FORCE)", f"CREATE DATABASE {args.db} TEMPLATE {tpl}")
            redis.Redis.from_url(args.redis).flushdb()
            out = work / f"{side}-{r}.json"
            cmd = [sys.executable, "benchmarks/load/cost.py", "--people", str(people), "--by-game",
                   "--json", str(out), *args.cost_args]
            if args.callgrind:
                cg = work / f"callgrind-{side}-{r}.out"
                cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", *cmd, "--callgrind", str(cg)]
            subprocess.run(cmd,
                           cwd=trees[side], env=dict(env, PYTHONPATH=str(trees[side])), check=True,
                           capture_output=True)
            runs[side].append(json.loads(out.read_text().splitlines()[-1]))
            print(f"round {r + 1} {side} done", file=sys.stderr)
    if args.out:
        Path(args.out).write_text(json.dumps(runs, indent=1))
    kinds = list(dict.fromkeys(k for side in runs.values() for run in side for k in run))
    unit = "million instructions" if args.callgrind else "CPU ms"
    print(f"| kind | base {args.base} {unit} p50 (queries) | head {args.head} {unit} p50 (queries) | head / base |")
    print("|---|---|---|---|")
    for k in kinds:
        cells = []
        med = {}
        for side in ("base", "head"):
            vals = [run[k]["cpu_p50"] for run in runs[side] if k in run]
            qs = [run[k]["queries"] for run in runs[side] if k in run]
            if vals:
                med[side] = statistics.median(vals)
                cells.append(f"{' / '.join(f'{v:.1f}' for v in vals)} ({statistics.median(qs):.0f})")
            else:
                cells.append("-")
        ratio = f"{med['head'] / med['base']:.2f}" if len(med) == 2 and med["base"] else "-"
        print(f"| {k} | {cells[0]} | {cells[1]} | {ratio} |")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
