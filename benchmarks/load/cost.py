"""CPU cost per request kind, in process (no network, no other clients): the load test's
database after a run (``benchmarks/load/run.sh``), the same Django settings.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/coinlab_load REDIS_URL=redis://127.0.0.1:6379/12 \\
        .venv/bin/python benchmarks/load/cost.py --people var/load/people.json --n 100

Prints, per kind, the median wall and CPU (``time.process_time``) milliseconds and the
number of SQL queries (requests as a browser sends them, accepting gzip): what each request costs a web process, whatever else the machine
is running. Shared machines make the driver's latencies noisy; these are the floor.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

GZIP = "gzip, deflate"
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--people", default="var/load/people.json")
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--by-game", action="store_true", help="one row per request kind and game (a mixed classroom)")
    ap.add_argument("--profile", help="write a cProfile (CPU time) of each kind's requests to this folder")
    ap.add_argument("--callgrind", metavar="OUT", help="running under valgrind --tool=callgrind "
                    "--callgrind-out-file=OUT: count each request's instructions (millions, noise-free) "
                    "instead of its CPU time")
    ap.add_argument("--json", help="append the figures (per kind: n, CPU ms p50 and mean, queries) as one JSON line")
    args = ap.parse_args()
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    try:  # issue #8's pre-draw task, as the "live" worker runs it: every seat's region and the
        # session's console section (absent in older code, when measuring "before")
        from facilitation.tasks import live_predraw as predraw
    except ImportError:
        predraw = None
    people = json.loads(Path(args.people).read_text())
    rows: dict[str, list[tuple[float, float, int]]] = {}
    sizes: list[tuple[int, str]] = []

    game_of = {t["session"]: t.get("game", people.get("scenario", "")) for t in people["teams"]}
    current: dict = {"game": ""}
    profiles: dict[str, cProfile.Profile] = {}
    dumps = {"n": 0}

    def measure(kind, fn):
        if args.by_game and current["game"] and not kind.startswith("console"):
            kind = f"{current['game']}: {kind}"
        prof = profiles.setdefault(kind, cProfile.Profile(time.process_time)) if args.profile else None
        with CaptureQueriesContext(connection) as q:
            if args.callgrind:
                subprocess.run(["callgrind_control", "-z", str(os.getpid())], check=True, capture_output=True)
            w, c = time.perf_counter(), time.process_time()
            if prof:
                prof.enable()
            resp = fn()
            if prof:
                prof.disable()
            c, w = time.process_time() - c, time.perf_counter() - w
            if args.callgrind:  # the instructions since the zeroing, in millions, in place of CPU ms
                subprocess.run(["callgrind_control", "-d", str(os.getpid())], check=True, capture_output=True)
                dumps["n"] += 1
                text = Path(f"{args.callgrind}.{dumps['n']}").read_text()
                c = int(re.search(r"^totals: (\d+)", text, re.M).group(1)) / 1e9  # shown x1000: millions
        rows.setdefault(kind, []).append((w * 1000, c * 1000, len(q.captured_queries)))
        if "move" in current:
            current["move"] += c * 1000
        return resp

    # One request handler (middleware chain) for every client, loaded before measuring, as in
    # a web process: a test Client loads its own on its first request (WhiteNoise then scans
    # the static folders), which would be counted in that request's cost.
    warm = Client()
    warm.get("/")

    def client_for(cookie: str) -> Client:
        c = Client()
        c.handler = warm.handler
        c.cookies["sessionid"] = cookie
        return c

    clients = {}
    for t in people["teams"]:
        clients[(t["session"], t["seat"])] = client_for(t["cookie"])
    # Every team's browser has polled before (its seats are remembered for the fast path, as
    # in a running classroom); the regions those polls drew are then dropped from the cache.
    for t in people["teams"]:
        clients[(t["session"], t["seat"])].get(f"/sessions/{t['session']}/play/live/?seat={t['seat']}")
    from django.core.cache import cache

    raw = cache._cache.get_client(write=True) if hasattr(cache, "_cache") else None
    if raw is not None:
        for pattern in ("*fragz:*", "*fragdraw:*"):
            for k in raw.scan_iter(pattern):
                raw.delete(k)
    done = 0
    per_game: dict[str, int] = {}
    for t in people["teams"]:
        game = game_of[t["session"]]
        if (per_game.get(game, 0) if args.by_game else done) >= args.n:
            continue
        current["game"] = game
        c = clients[(t["session"], t["seat"])]
        url = f"/sessions/{t['session']}/play/live/?seat={t['seat']}"
        # as a browser asks: gzip accepted (the region is sent compressed where the server does)
        r = measure("poll 200 (live region)", lambda: c.get(url, HTTP_ACCEPT_ENCODING=GZIP))  # noqa: B023
        tag = r["ETag"]
        for _ in range(3):
            measure("poll 304", lambda: c.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_ENCODING=GZIP))  # noqa: B023
        # a team mate's browser (or a second tab) on the same seat and position: no ETag yet
        mate = client_for(t["cookie"])
        measure("poll 200, same seat and version again", lambda: mate.get(url, HTTP_ACCEPT_ENCODING=GZIP))  # noqa: B023
        body = r.content
        sizes.append((len(body), r.get("Content-Encoding", "")))
        html = (gzip.decompress(body) if r.get("Content-Encoding") == "gzip" else body).decode()
        if 'data-turn-cue="yours"' in html:
            choices = re.findall(r'data-choice="([^"]+)"', html)
            seq = re.search(r'name="seq" value="(\d+)"', html).group(1)
            sid, seat = t["session"], t["seat"]
            # the CPU one move costs the server, every process: the decision, the pre-draw and
            # each seat's first poll of the new version
            current["move"] = 0.0
            if done % 2:
                measure("submit (page, htmx, re-renders the region)", functools.partial(
                    c.post, f"/sessions/{sid}/play/choose/?seat={seat}",
                    {"seat": seat, "seq": seq, "choice": choices[0], "key": uuid.uuid4().hex},
                    HTTP_HX_REQUEST="true"))
            else:
                measure("submit (API)", functools.partial(
                    c.post, f"/api/sessions/{sid}/seats/{seat}/submit/",
                    {"seq": int(seq), "choice": choices[0], "idempotency_key": uuid.uuid4().hex},
                    content_type="application/json"))
            done += 1
            per_game[game] = per_game.get(game, 0) + 1
            # what the "live" queue's worker does after the move (facilitation.tasks.live_predraw),
            # then every seat's page polling with its old ETag: served from the drawn region
            if predraw is not None:
                measure("pre-draw task, all seats (worker, not web)", functools.partial(predraw, sid))
                for other in [x for x in people["teams"] if x["session"] == sid]:
                    oc = clients[(sid, other["seat"])]
                    measure("poll 200 after a move, pre-drawn", functools.partial(
                        oc.get, f"/sessions/{sid}/play/live/?seat={other['seat']}", HTTP_IF_NONE_MATCH='W/"0"',
                        HTTP_ACCEPT_ENCODING=GZIP))
            move_kind = f"{game}: one move, every process (CPU)" if args.by_game else "one move, every process (CPU)"
            rows.setdefault(move_kind, []).append((0.0, current.pop("move"), 0))
    current["game"] = ""
    for i in people["instructors"]:
        c = client_for(i["cookie"])
        r = measure("console 200, first poll", lambda: c.get("/console/live/"))  # noqa: B023
        measure("console 304", lambda: c.get("/console/live/", HTTP_IF_NONE_MATCH=r["ETag"]))  # noqa: B023
        # the steady state: a poll after the sessions moved and the pre-draw task drew their
        # sections (as here: a second tab, whose ETag is not current)
        measure("console 200, sections pre-drawn", lambda: c.get("/console/live/", HTTP_IF_NONE_MATCH='W/"x"'))  # noqa: B023
    if sizes:
        print(f"live region as sent: median {statistics.median(n for n, _ in sizes) / 1024:.1f} KiB "
              f"({sizes[0][1] or 'not compressed'})")
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
        for kind, prof in profiles.items():
            prof.dump_stats(str(Path(args.profile) / (re.sub(r"[^a-z0-9]+", "_", kind.lower()).strip("_") + ".prof")))
    if args.json:
        with open(args.json, "a") as f:
            f.write(json.dumps({k: {"n": len(v), "cpu_p50": statistics.median(x[1] for x in v),
                                    "cpu_mean": statistics.fmean(x[1] for x in v),
                                    "queries": statistics.median(x[2] for x in v)} for k, v in rows.items()}) + "\n")
    print(f"{'kind':60} {'n':>4} {'wall p50':>9} {'CPU p50':>8} {'CPU mean':>9} {'queries':>8}")
    for kind, v in rows.items():
        print(f"{kind:60} {len(v):4d} {statistics.median(x[0] for x in v):9.1f} "
              f"{statistics.median(x[1] for x in v):8.1f} {statistics.fmean(x[1] for x in v):9.1f} "
              f"{statistics.median(x[2] for x in v):8.0f}")


if __name__ == "__main__":
    main()
