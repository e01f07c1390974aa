"""CPU and garbage-collector cost of the polls as a web process serves them: the WSGI
application of ``coinlab.wsgi`` (what gunicorn loads: its ``gc.freeze()`` included), called in
process with the requests of a load test's classroom (``setup_load.py`` / ``ramp.py``), no
network. Read-only: live-region polls (each seat's first poll a 200, then 304s with its ETag)
and instructors' console polls.

    PYTHONPATH=<tree> DATABASE_URL=... REDIS_URL=... .venv/bin/python benchmarks/load/wsgi_cost.py \\
        --people var/load/ramp/people.json --rounds 20

Prints the first request of the fresh process (what a new or restarted web process makes its
first client wait), then per kind the CPU per request, and the collector's full (generation 2)
passes: how many, their total and longest time. Run it on two trees (``git archive``) in turn,
in fresh processes, with the Redis database flushed before each (``--flush``), to compare them.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--people", required=True)
    ap.add_argument("--rounds", type=int, default=20, help="polls per seat (the first a 200, then 304s)")
    ap.add_argument("--flush", action="store_true", help="flush the Redis database of REDIS_URL first")
    ap.add_argument("--json", help="append the result as one JSON line to this file")
    args = ap.parse_args()
    if args.flush:
        import redis

        redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    people = json.loads(Path(args.people).read_text())

    t_load = time.process_time()
    from coinlab.wsgi import application  # as gunicorn imports it

    load_cpu = time.process_time() - t_load
    gen2 = {"n": 0, "ms": 0.0, "max": 0.0}
    started = {}

    def on_gc(phase, info):
        if info["generation"] != 2:
            return
        if phase == "start":
            started["t"] = time.process_time()
        elif "t" in started:
            ms = (time.process_time() - started.pop("t")) * 1000  # CPU: a shared machine stretches wall time
            gen2["n"] += 1
            gen2["ms"] += ms
            gen2["max"] = max(gen2["max"], ms)

    gc.callbacks.append(on_gc)

    def call(path: str, query: str, cookie: str, etag: str = "") -> tuple[str, dict]:
        env = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "8100", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
               "HTTP_HOST": "127.0.0.1:8100", "HTTP_COOKIE": f"sessionid={cookie}",
               "HTTP_X_REQUESTED_WITH": "fetch", "HTTP_ACCEPT_ENCODING": "gzip",
               "wsgi.input": io.BytesIO(b""), "wsgi.errors": sys.stderr, "wsgi.url_scheme": "http",
               "wsgi.version": (1, 0), "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False}
        if etag:
            env["HTTP_IF_NONE_MATCH"] = etag
        got = {}

        def start_response(status, headers, exc_info=None):
            got["status"], got["headers"] = status, dict(headers)

        body = application(env, start_response)
        for _ in body:
            pass
        if hasattr(body, "close"):
            body.close()
        return got["status"].split()[0], got["headers"]

    teams = people["teams"]
    rows: dict[str, list[float]] = {}

    def timed(kind, *a):
        c, w = time.process_time(), time.perf_counter()
        status, headers = call(*a)
        rows.setdefault(f"{kind} {status}", []).append((time.process_time() - c) * 1000)
        return status, headers, (time.perf_counter() - w) * 1000

    t0 = teams[0]
    c0 = time.process_time()
    status, _, first_wall = timed("first request", f"/sessions/{t0['session']}/play/live/", f"seat={t0['seat']}",
                                  t0["cookie"])
    first_cpu = (time.process_time() - c0) * 1000
    rows.pop(f"first request {status}")
    gen2.update(n=0, ms=0.0, max=0.0)
    tags = {}
    c_all = time.process_time()
    for r in range(args.rounds):
        for t in teams:
            key = (t["session"], t["seat"])
            _, headers, _ = timed("poll", f"/sessions/{t['session']}/play/live/", f"seat={t['seat']}", t["cookie"],
                                  tags.get(key, ""))
            tags[key] = headers.get("ETag", tags.get(key, ""))
        if r % 2 == 0:
            for i in people["instructors"]:
                timed("console", "/console/live/", "", i["cookie"])
    total = (time.process_time() - c_all) * 1000
    n = sum(len(v) for v in rows.values())
    out = {"load_cpu_s": round(load_cpu, 2), "first_request_cpu_ms": round(first_cpu, 1),
           "first_request_wall_ms": round(first_wall, 1), "requests": n, "cpu_ms_per_request": round(total / n, 3),
           "gen2_collections": gen2["n"], "gen2_ms_total": round(gen2["ms"], 1), "gen2_ms_max": round(gen2["max"], 2),
           "gc_frozen": gc.get_freeze_count(),
           "kinds": {k: {"n": len(v), "cpu_ms_p50": round(statistics.median(v), 3),
                         "cpu_ms_mean": round(statistics.fmean(v), 3),
                         "cpu_ms_p99": round(sorted(v)[int(0.99 * (len(v) - 1))], 3)} for k, v in sorted(rows.items())}}
    print(json.dumps(out))
    if args.json:
        with open(args.json, "a") as f:
            f.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
