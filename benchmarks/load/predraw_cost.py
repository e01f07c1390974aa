"""CPU and garbage-collector cost of the live pre-draw (``facilitation.tasks.live_predraw``) as a
Celery worker process runs it: the worker's process set-up (``worker_process_init``: what
``coinlab/celery.py`` loads and freezes) then the task, in process, for every session of a load
test's classroom (``setup_load.py`` / ``ramp.py``), ``--rounds`` times with the Redis database
flushed before each round (so every seat's region is drawn again).

    PYTHONPATH=<tree> DATABASE_URL=... REDIS_URL=... .venv/bin/python benchmarks/load/predraw_cost.py \\
        --people var/load/ramp/people.json --rounds 3

Prints the first task of the fresh process, the CPU per task and the collector's full passes
(count, total and longest CPU ms). Run it on two trees in turn to compare them.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--people", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    people = json.loads(Path(args.people).read_text())
    sessions = sorted({t["session"] for t in people["teams"]})

    import django
    import redis

    django.setup()
    from celery.signals import worker_init, worker_process_init

    from coinlab.celery import app  # noqa: F401 - the worker's app and its signal handlers

    r = redis.Redis.from_url(os.environ["REDIS_URL"])
    r.flushdb()
    c = time.process_time()
    worker_init.send(sender=None)  # the main process, before it forks its pool
    worker_process_init.send(sender=None)  # each pool process once started
    init_cpu = (time.process_time() - c) * 1000
    from facilitation.tasks import live_predraw

    gen2 = {"n": 0, "ms": 0.0, "max": 0.0}
    started = {}

    def on_gc(phase, info):
        if info["generation"] != 2:
            return
        if phase == "start":
            started["t"] = time.process_time()
        elif "t" in started:
            ms = (time.process_time() - started.pop("t")) * 1000
            gen2["n"] += 1
            gen2["ms"] += ms
            gen2["max"] = max(gen2["max"], ms)

    gc.callbacks.append(on_gc)
    c = time.process_time()
    live_predraw(sessions[0])
    first = (time.process_time() - c) * 1000
    gen2.update(n=0, ms=0.0, max=0.0)
    cpu = []
    for _ in range(args.rounds):
        r.flushdb()
        for sid in sessions:
            c = time.process_time()
            live_predraw(sid)
            cpu.append((time.process_time() - c) * 1000)
    out = {"init_cpu_ms": round(init_cpu, 1), "first_task_cpu_ms": round(first, 1), "tasks": len(cpu),
           "cpu_ms_per_task_mean": round(statistics.fmean(cpu), 2), "cpu_ms_per_task_p50": round(statistics.median(cpu), 2),
           "gen2_collections": gen2["n"], "gen2_ms_total": round(gen2["ms"], 1), "gen2_ms_max": round(gen2["max"], 2),
           "gc_frozen": gc.get_freeze_count()}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
