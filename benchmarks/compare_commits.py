"""Run a game benchmark side by side on the working tree and on an earlier commit, in one run.

The earlier commit's ``engine/`` and ``benchmarks/`` are extracted with ``git archive`` into a
temporary directory; this tree's benchmark script then runs on both engines alternately (base, current, base, current, ...)
in fresh processes so machine load hits both alike, and the median of each figure is reported
with the ratio current / base.

    .venv/bin/python benchmarks/compare_commits.py --base 4362cb9 --bench andean_abyss_bench.py \
        --rounds 3 -- --games 30
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tarfile
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def extract(commit: str, into: pathlib.Path) -> None:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "engine", "benchmarks"],
                          check=True, capture_output=True).stdout
    tar = into / "src.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")


def run(tree: pathlib.Path, bench: str, args: list[str]) -> dict:
    """This tree's benchmark script (the same measurement on both sides) on ``tree``'s engine."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / bench), "--json", *args], env=env, cwd=tree,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("rest", nargs="*")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = pathlib.Path(tmp)
        extract(a.base, base)
        runs: dict[str, list[dict]] = {"base": [], "current": []}
        for _ in range(a.rounds):
            runs["base"].append(run(base, a.bench, a.rest))
            runs["current"].append(run(ROOT, a.bench, a.rest))
    keys = [k for k, v in runs["current"][0].items() if isinstance(v, (int, float))]
    table = {}
    for k in keys:
        b = statistics.median(r[k] for r in runs["base"])
        c = statistics.median(r[k] for r in runs["current"])
        table[k] = {"base": b, "current": c, "ratio": round(c / b, 3) if b else None}
    print(f"{'figure':36} {'base ' + a.base:>16} {'current':>12} {'ratio':>7}")
    for k, v in table.items():
        print(f"{k:36} {v['base']:>16} {v['current']:>12} {v['ratio'] if v['ratio'] is not None else '-':>7}")
    return table


if __name__ == "__main__":
    main()
