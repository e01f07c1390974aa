"""Instructions of the worker's pre-draw (``facilitation.tasks.live_predraw``: every team seat's
region and the console section) of the first ``--sessions`` sessions of each game in the
database, counted by valgrind's callgrind (noise-free, whatever else the machine runs): each
drawn once to warm the process, then once counted, the cache emptied before each. Run it in
each tree to compare (the same database: it only reads it):

    cd <tree> && PYTHONPATH=$PWD DATABASE_URL=... REDIS_URL=... valgrind --tool=callgrind \\
        --callgrind-out-file=/tmp/pd.out .venv/bin/python benchmarks/load/predraw_instructions.py /tmp/pd.out

Prints per game the millions of instructions of each session's pre-draw and their median.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", help="the --callgrind-out-file given to valgrind")
    ap.add_argument("--sessions", type=int, default=3)
    args = ap.parse_args()
    import django

    django.setup()
    from django.core.cache import cache

    from facilitation import eventlog, tasks
    from facilitation.models import ClassSession

    dumps = [0]

    def count(fn) -> float:
        subprocess.run(["callgrind_control", "-z", str(os.getpid())], check=True, capture_output=True)
        fn()
        subprocess.run(["callgrind_control", "-d", str(os.getpid())], check=True, capture_output=True)
        dumps[0] += 1
        text = Path(f"{args.out}.{dumps[0]}").read_text()
        return int(re.search(r"^totals: (\d+)", text, re.M).group(1)) / 1e6

    games: dict[str, list] = {}
    for s in ClassSession.objects.order_by("id"):
        games.setdefault(eventlog.rules_for(s).key, []).append(s)
    for key, sessions in games.items():
        counts = []
        for s in sessions[:args.sessions]:
            cache.clear()
            tasks.live_predraw(s.pk)  # warm: the game's first drawing in this process
            cache.clear()
            gc.collect()
            counts.append(count(lambda s=s: tasks.live_predraw(s.pk)))
        print(f"{key}: pre-draw, millions of instructions {[round(c, 1) for c in counts]}, "
              f"median {statistics.median(counts):.1f}", flush=True)


if __name__ == "__main__":
    main()
