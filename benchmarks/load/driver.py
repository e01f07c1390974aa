"""Load driver: a classroom of teams and instructors against a running CoinLab (loopback only).

Every team behaves like the play page's JavaScript (facilitation/web/static/web/js/play.js):
it polls its live region ``GET /sessions/<id>/play/live/?seat=S`` with ``If-None-Match``
``data-poll-ms`` = 1500 ms after the previous answer, and when it is its turn it decides
after a think time (classroom pace, ``--think`` seconds, uniform) with the page's htmx
``POST /sessions/<id>/play/choose/?seat=S`` (choice, seq, idempotency key). Every
instructor polls the live console ``GET /console/live/`` every 2000 ms (``console.html``).

    .venv/bin/python benchmarks/load/driver.py --base http://127.0.0.1:8100 \
        --people var/load/people.json --duration 300 --out var/load/result.json

Bounded: ``--duration`` seconds and at most ``--max-requests`` requests in all; the base
URL must be a loopback address. Prints p50/p95/p99, throughput and errors per kind, and
CPU/memory of the server processes (``--server-pid``: gunicorn master; PostgreSQL
backends of ``--db-name``; redis-server).
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import multiprocessing
import os
import random
import re
import statistics
import time
import uuid
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import psutil

POLL_MS = 1500
CONSOLE_MS = 2000
CSRF = "LoadTestCsrfToken0123456789abcde"  # 32 letters and digits: a valid CSRF cookie

RE_ETAG = re.compile(r'data-etag="([^"]*)"')
RE_SEQ = re.compile(r'name="seq" value="(\d+)"')
RE_CHOICE = re.compile(r'data-choice="([^"]+)"')


class Stats:
    def __init__(self):
        self.rows: dict[str, list[float]] = defaultdict(list)
        # the latencies of each answer status apart (a poll's 304 against its 200 with a region);
        # their lengths are the counts per status
        self.by_status: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        self.errors: dict[str, list[str]] = defaultdict(list)
        self.count = 0

    def add(self, kind: str, ms: float, status: int, note: str = ""):
        self.rows[kind].append(ms)
        self.by_status[kind][status].append(ms)
        self.count += 1
        if status == 0 or (status >= 400 and status != 409):
            if len(self.errors[kind]) < 20:
                self.errors[kind].append(f"{status} {note}"[:300])


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))
    return s[k]


class Run:
    def __init__(self, args):
        self.args = args
        self.stats = Stats()
        self.deadline = 0.0
        self.stop = False
        self.log_offset = 0
        self.journal: list[dict] = []

    def over(self) -> bool:
        return self.stop or time.monotonic() >= self.deadline or self.stats.count >= self.args.max_requests

    async def request(self, client, kind, method, url, **kw):
        """One request; returns (status, headers, text) or None on a transport error. The body is
        read (and un-gzipped, as a browser does) before the clock stops."""
        t0 = time.perf_counter()
        try:
            async with client.request(method, url, allow_redirects=False, **kw) as resp:
                text = await resp.text()
                ms = (time.perf_counter() - t0) * 1000
                status, headers = resp.status, resp.headers
        except (TimeoutError, aiohttp.ClientError) as exc:
            ms = (time.perf_counter() - t0) * 1000
            self.stats.add(kind, ms, 0, f"{type(exc).__name__}: {exc}")
            return None
        if time.monotonic() >= self.warm_until:
            self.stats.add(kind, ms, status, "" if status < 400 else text[:200])
        return status, headers, text

    @staticmethod
    def client(cookies: dict) -> aiohttp.ClientSession:
        """A browser of its own: one keep-alive connection pool, its cookies, gzip accepted
        (aiohttp's C parser and zlib: the driver's own CPU per request stays small, so its
        event loop adds little to the latencies it measures)."""
        jar = aiohttp.CookieJar(unsafe=True)  # cookies of an IP-address host (127.0.0.1)
        jar.update_cookies(cookies)
        return aiohttp.ClientSession(cookie_jar=jar, timeout=aiohttp.ClientTimeout(total=30),
                                     connector=aiohttp.TCPConnector(limit=4, force_close=False))

    async def team(self, t: dict, base: str):
        rnd = random.Random(f"{t['session']}:{t['seat']}")
        cookies = {"sessionid": t["cookie"], "csrftoken": CSRF}
        live = f"{base}/sessions/{t['session']}/play/live/?seat={t['seat']}"
        f"{base}/sessions/{t['session']}/play/choose/?seat={t['seat']}"
        f"{base}/api/sessions/{t['session']}/seats/{t['seat']}/submit/"
        n_decisions = 0
        async with self.client(cookies) as client:
            await asyncio.sleep(rnd.random() * POLL_MS / 1000)
            etag = ""
            decide_at = None
            html = ""
            while not self.over():
                headers = {"X-Requested-With": "fetch"}
                if etag:
                    headers["If-None-Match"] = etag
                resp = await self.request(client, "poll", "GET", live, headers=headers)
                if resp is not None and resp[0] == 200:
                    etag = resp[1].get("ETag", "")
                    html = resp[2]
                    decide_at = None
                yours = 'data-turn-cue="yours"' in html
                if yours and decide_at is None:
                    decide_at = time.monotonic() + rnd.uniform(*self.args.think)
                if yours and decide_at is not None and time.monotonic() >= decide_at and not self.over():
                    choices = RE_CHOICE.findall(html)
                    seq = RE_SEQ.search(html)
                    if choices and seq:
                        n_decisions += 1
                        via = self.args.submit if self.args.submit != "both" else ("api", "page")[n_decisions % 2]
                        resp = await self.decide(client, t, via, int(seq.group(1)), rnd.choice(choices), base)
                        if via == "api":
                            decide_at = None
                            resp = None  # the next poll fetches the new live region, as for the other teams
                        if resp is not None and resp[0] == 200:
                            html = resp[2]
                            m = RE_ETAG.search(html)
                            etag = f"{m.group(1)}" if m else ""
                            etag = resp[1].get("ETag", etag)
                            decide_at = None
                await asyncio.sleep(POLL_MS / 1000)

    async def decide(self, client, t: dict, via: str, seq: int, choice: str, base: str):
        """One decision, through the page's form or the API, with one idempotency key. Where the
        answer is lost on the way (no answer, or the proxy's 502/503/504: a web node went away
        mid-request) the decision is sent again with the same key, as a client that keeps its
        key until answered does (at most ``--retries`` times). Every attempt goes to the journal
        (``--journal``), which ``ramp.py --check`` compares with the event log."""
        key = uuid.uuid4().hex
        entry = {"session": t["session"], "seat": t["seat"], "key": key, "via": via, "seq": seq,
                 "choice": choice, "attempts": []}
        resp = None
        for attempt in range(1 + self.args.retries):
            if attempt:
                await asyncio.sleep(0.5)
            sent = time.time()
            if via == "page":
                form = {"seat": t["seat"], "seq": str(seq), "key": key, "choice": choice,
                        "rationale": "load test", "decision_ms": "5000"}
                resp = await self.request(client, "submit_page", "POST",
                                          f"{base}/sessions/{t['session']}/play/choose/?seat={t['seat']}",
                                          data=form, headers={"HX-Request": "true", "X-CSRFToken": CSRF,
                                                              "Referer": base + "/"})
            else:
                body = {"seq": seq, "idempotency_key": key, "choice": choice, "rationale": "load test",
                        "decision_ms": 5000}
                resp = await self.request(client, "submit_api", "POST",
                                          f"{base}/api/sessions/{t['session']}/seats/{t['seat']}/submit/",
                                          json=body, headers={"X-CSRFToken": CSRF, "Accept": "application/json"})
            status = resp[0] if resp is not None else 0
            row = {"t": round(sent, 3), "status": status,
                   "node": (resp[1].get("X-Upstream", "") if resp is not None else "")}
            if via == "api" and resp is not None and status == 200:
                try:
                    answer = json.loads(resp[2])
                    row["events"], row["replayed"] = answer.get("events"), answer.get("replayed")
                except ValueError:
                    pass
            entry["attempts"].append(row)
            if status not in (0, 502, 503, 504):
                break
        self.journal.append(entry)
        return resp

    async def instructor(self, i: dict, base: str, k: int):
        cookies = {"sessionid": i["cookie"], "csrftoken": CSRF}
        async with self.client(cookies) as client:
            await asyncio.sleep((k % 20) * CONSOLE_MS / 20000)
            etag = ""
            while not self.over():
                headers = {"X-Requested-With": "fetch"}
                if etag:
                    headers["If-None-Match"] = etag
                resp = await self.request(client, "console", "GET", f"{base}/console/live/", headers=headers)
                if resp is not None and resp[0] == 200:
                    etag = resp[1].get("ETag", "")
                await asyncio.sleep(CONSOLE_MS / 1000)

    async def main(self, people: dict):
        a = self.args
        self.started = time.monotonic()
        self.warm_until = self.started + a.warmup
        self.deadline = self.warm_until + a.duration
        tasks = [self.team(t, a.base) for t in people["teams"]]
        tasks += [self.instructor(i, a.base, k) for k, i in enumerate(people["instructors"])]
        tasks.append(self.mark_log())
        await asyncio.gather(*tasks)

    async def mark_log(self):
        """Where the proxy's log stands when the warm-up ends (it flushes every second)."""
        log = Path(self.args.access_log) if self.args.access_log else None
        await asyncio.sleep(self.args.warmup)
        self.log_offset = log.stat().st_size if log and log.exists() else 0


class Sampler(multiprocessing.Process):
    """CPU and memory of the server side, once a second. A process of its own: walking the
    process table takes tens of milliseconds, which in a thread of the driver would hold the
    interpreter lock and delay the event loop, adding to the latencies measured."""

    def __init__(self, server_pids: list[int], worker_pids: list[int], db_name: str, start_after: float,
                 redis_port: int | None = None, extra: dict[str, list[int]] | None = None):
        super().__init__(daemon=True)
        self.server_pids, self.worker_pids = server_pids or [], worker_pids or []
        self.redis_port, self.extra = redis_port, extra or {}
        self.db_name, self.start_after = db_name, start_after
        self.driver_pid = os.getpid()
        self.samples: list[dict] = []
        self.halt = multiprocessing.Event()
        self.results = multiprocessing.Queue()
        self.cache: dict[int, psutil.Process] = {}

    def collect(self) -> list[dict]:
        """Stop sampling and return the samples (call from the driver)."""
        self.halt.set()
        samples = self.results.get(timeout=30)
        self.join(timeout=10)
        return samples

    def procs(self) -> dict[str, list[psutil.Process]]:
        groups = {"gunicorn": [], "nginx": [], "celery": [], "postgres": [], "redis": [],
                  "driver": [psutil.Process(self.driver_pid)]}
        for pid in [*self.server_pids, *self.worker_pids]:
            try:
                master = psutil.Process(pid)
                group = ("celery" if pid in self.worker_pids else "nginx" if "nginx" in master.name() else "gunicorn")
                groups[group] += [master, *master.children(recursive=True)]
            except psutil.NoSuchProcess:
                pass
        for name, pids in self.extra.items():  # --group NAME=PID: a process and its children
            groups.setdefault(name, [])
            for pid in pids:
                try:
                    master = psutil.Process(pid)
                    groups[name] += [master, *master.children(recursive=True)]
                except psutil.NoSuchProcess:
                    pass
        for p in psutil.process_iter(["name", "cmdline"]):
            try:
                cmd = " ".join(p.info["cmdline"] or [])
                if p.info["name"] in ("postgres",) and f" {self.db_name} " in f" {cmd} ":
                    groups["postgres"].append(p)
                elif (p.info["name"] or "").startswith("redis-server") and (
                        self.redis_port is None or f":{self.redis_port}" in cmd):
                    groups["redis"].append(p)
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                pass
        return groups

    def run(self):
        try:  # spare CPU only: the sampling never competes with the server or the driver's loop
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except (AttributeError, OSError):
            os.nice(10)
        while not self.halt.is_set():
            groups = self.procs()
            row = {"t": time.monotonic(), "wall": time.time(), "machine_cpu": psutil.cpu_percent(None), "load1": os.getloadavg()[0]}
            for name, plist in groups.items():
                cpu = rss = 0.0
                for p in plist:
                    proc = self.cache.setdefault(p.pid, p)
                    try:
                        cpu += proc.cpu_percent(None)
                        rss += proc.memory_info().rss
                    except (psutil.NoSuchProcess, psutil.AccessDenied):
                        pass
                row[f"{name}_cpu"] = cpu
                row[f"{name}_rss_mb"] = rss / 2**20
            if row["t"] >= self.start_after:
                self.samples.append(row)
            self.halt.wait(1.0)
        self.results.put(self.samples)


KINDS = ((re.compile(r"^GET /sessions/\d+/play/live/$"), "poll"),
         (re.compile(r"^POST /sessions/\d+/play/choose/$"), "submit_page"),
         (re.compile(r"^POST /api/sessions/\d+/seats/[^/]+/submit/$"), "submit_api"),
         (re.compile(r"^GET /console/live/$"), "console"))


def server_side(path: str, start: int, seconds: dict | None = None) -> dict:
    """Upstream response times per kind from the proxy's log (the lines written during the
    measured part of the run): what the web processes took, without the client's share.
    ``seconds``: filled with each kind's upstream times per wall-clock second (the log line's
    last field, nginx's ``$msec``, when the log format has it), for :func:`timeline`."""
    rows: dict[str, list[float]] = defaultdict(list)
    with open(path, encoding="utf-8", errors="replace") as f:
        f.seek(start)
        for line in f:
            parts = line.split()
            if len(parts) < 5 or parts[4] == "-":
                continue
            for pattern, kind in KINDS:
                if pattern.match(f"{parts[1]} {parts[2]}"):
                    try:
                        ms = float(parts[4].split(",")[-1]) * 1000
                    except ValueError:
                        break
                    rows[kind].append(ms)
                    if seconds is not None and len(parts) >= 6:
                        try:
                            second = int(float(parts[-1]))
                        except ValueError:
                            break
                        seconds.setdefault(second, defaultdict(list))[kind].append(ms)
                    break
    return {kind: {"requests": len(v), "p50_ms": round(pct(v, 50), 1), "p95_ms": round(pct(v, 95), 1),
                   "p99_ms": round(pct(v, 99), 1)} for kind, v in sorted(rows.items())}


def timeline(seconds: dict, samples: list[dict], poll_target_ms: float) -> dict:
    """The measured part second by second: the polls' and decisions' upstream p95 (the proxy's
    log), the decisions answered and the machine's CPU (the sampler's reading of that second).
    Says how much of the polls' tail falls in the seconds whose poll p95 is over
    ``poll_target_ms``, and how busy the machine and the decisions were in those seconds
    against the others: whether the tail is spread out or comes in bursts of saturation."""
    cpu_at = {int(s["wall"]): s["machine_cpu"] for s in samples if "wall" in s}
    rows = []
    for second in sorted(seconds):
        kinds = seconds[second]
        polls = kinds.get("poll", [])
        decisions = kinds.get("submit_page", []) + kinds.get("submit_api", [])
        rows.append({"second": second, "polls": len(polls),
                     "poll_p95_ms": round(pct(polls, 95), 1) if polls else None,
                     "decisions": len(decisions),
                     "decision_p95_ms": round(pct(decisions, 95), 1) if decisions else None,
                     "machine_cpu": cpu_at.get(second)})
    # the first and last seconds are partial (the log's window starts and ends inside them)
    full = rows[1:-1] if len(rows) > 2 else rows
    over, rest = [], []
    for r in full:
        (over if r["poll_p95_ms"] is not None and r["poll_p95_ms"] > poll_target_ms else rest).append(r)

    def mean(rs: list[dict], key: str) -> float | None:
        vals = [r[key] for r in rs if r[key] is not None]
        return round(statistics.fmean(vals), 1) if vals else None

    return {"seconds": len(full), "poll_target_ms": poll_target_ms, "seconds_over": len(over),
            "polls_in_seconds_over": sum(r["polls"] for r in over), "polls": sum(r["polls"] for r in full),
            "cpu_over": mean(over, "machine_cpu"), "cpu_rest": mean(rest, "machine_cpu"),
            "decisions_per_s_over": mean(over, "decisions"), "decisions_per_s_rest": mean(rest, "decisions"),
            "worst": sorted(full, key=lambda r: -(r["poll_p95_ms"] or 0))[:5], "rows": rows}


def check_loopback(url: str) -> None:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return
    if not ipaddress.ip_address(host).is_loopback:
        raise SystemExit(f"refusing a non-loopback target: {url}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="http://127.0.0.1:8100")
    ap.add_argument("--people", default="var/load/people.json")
    ap.add_argument("--duration", type=float, default=300)
    ap.add_argument("--warmup", type=float, default=20)
    ap.add_argument("--max-requests", type=int, default=200_000)
    ap.add_argument("--think", type=float, nargs=2, default=(5.0, 15.0))
    ap.add_argument("--submit", choices=["page", "api", "both"], default="both",
                    help="decisions through the page's htmx form, the JSON API, or alternately")
    ap.add_argument("--server-pid", type=int, nargs="*", default=[],
                    help="gunicorn masters and nginx (their processes' CPU and memory are sampled)")
    ap.add_argument("--worker-pid", type=int, nargs="*", default=[], help="Celery worker(s) of the live queue")
    ap.add_argument("--access-log", help="nginx log in the 'timing' format of nginx.conf.in: server-side times")
    ap.add_argument("--db-name", default="coinlab_load")
    ap.add_argument("--redis-port", type=int, help="sample only the redis-server listening on this port")
    ap.add_argument("--group", action="append", default=[], metavar="NAME=PID[,PID]",
                    help="a process group of its own (a web node, a worker): the processes and their children")
    ap.add_argument("--retries", type=int, default=5,
                    help="times a decision whose answer was lost (no answer, 502/503/504) is sent again, same key")
    ap.add_argument("--journal", help="write every decision sent (key, attempts, answers) here, as JSON")
    ap.add_argument("--out", default="var/load/result.json")
    ap.add_argument("--target-poll-ms", type=float, default=10,
                    help="the timeline counts the seconds whose server-side poll p95 is over this")
    args = ap.parse_args()
    check_loopback(args.base)
    people = json.loads(Path(args.people).read_text())
    run = Run(args)
    extra = {}
    for g in args.group:
        name, _, pids = g.partition("=")
        extra.setdefault(name, []).extend(int(x) for x in pids.split(",") if x)
    sampler = Sampler(args.server_pid, args.worker_pid, args.db_name, time.monotonic() + args.warmup,
                      redis_port=args.redis_port, extra=extra)
    sampler.start()
    t0 = time.monotonic()
    asyncio.run(run.main(people))
    samples = sampler.collect()
    wall = time.monotonic() - t0 - args.warmup
    out = {"teams": len(people["teams"]), "sessions": len({t["session"] for t in people["teams"]}),
           "instructors": len(people["instructors"]), "scenario": people.get("scenario"),
           "duration_s": round(wall, 1), "think_s": list(args.think), "submit": args.submit, "kinds": {}}
    for kind, rows in sorted(run.stats.rows.items()):
        st = {code: len(v) for code, v in run.stats.by_status[kind].items()}
        # 409 is the game's answer to a decision made against a position that moved on (another
        # seat of a simultaneous phase decided first): a conflict the page reloads from, not an error.
        errors = sum(n for code, n in st.items() if code == 0 or (code >= 400 and code != 409))
        out["kinds"][kind] = {
            "requests": len(rows), "per_s": round(len(rows) / wall, 1),
            "p50_ms": round(pct(rows, 50), 1), "p95_ms": round(pct(rows, 95), 1), "p99_ms": round(pct(rows, 99), 1),
            "mean_ms": round(statistics.fmean(rows), 1) if rows else None, "max_ms": round(max(rows), 1) if rows else None,
            "status": dict(sorted(st.items())), "errors": errors, "conflicts_409": st.get(409, 0),
            "error_rate": round(errors / len(rows), 5) if rows else 0.0, "error_samples": run.stats.errors[kind][:5],
            "by_status": {code: {"requests": len(v), "p50_ms": round(pct(v, 50), 1), "p95_ms": round(pct(v, 95), 1),
                                 "p99_ms": round(pct(v, 99), 1)}
                          for code, v in sorted(run.stats.by_status[kind].items())},
        }
    if args.access_log:
        time.sleep(2.5)  # the proxy writes its log buffer out every second
        seconds: dict = {}
        out["server_side"] = server_side(args.access_log, run.log_offset, seconds)
        if seconds:
            out["timeline"] = timeline(seconds, samples or [], args.target_poll_ms)
    if samples:
        keys = [k for k in samples[0] if k not in ("t", "wall")]
        out["resources"] = {k: {"mean": round(statistics.fmean(s[k] for s in samples), 1),
                                "max": round(max(s[k] for s in samples), 1)} for k in keys}
    retried = [e for e in run.journal if len(e["attempts"]) > 1]
    out["decisions"] = {"sent": len(run.journal), "retried": len(retried),
                        "answered_200": sum(1 for e in run.journal if e["attempts"][-1]["status"] == 200),
                        "unanswered": sum(1 for e in run.journal if e["attempts"][-1]["status"] in (0, 502, 503, 504))}
    if args.journal:
        Path(args.journal).write_text(json.dumps(run.journal))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1))
    print(f"{out['sessions']} sessions, {out['teams']} teams, {out['instructors']} instructors, "
          f"{out['duration_s']} s measured")
    print(f"{'kind':8} {'requests':>9} {'req/s':>7} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>8}  errors  status")
    for kind, k in out["kinds"].items():
        print(f"{kind:8} {k['requests']:9d} {k['per_s']:7.1f} {k['p50_ms']:7.1f} {k['p95_ms']:7.1f} "
              f"{k['p99_ms']:7.1f} {k['max_ms']:8.1f}  {k['errors']:6d}  {k['status']}")
    for kind, k in out["kinds"].items():
        if len(k["by_status"]) > 1:
            print(f"  {kind} by answer: " + "; ".join(f"{code}: {v['requests']} p50 {v['p50_ms']} p95 {v['p95_ms']} "
                                                      f"p99 {v['p99_ms']}" for code, v in k["by_status"].items()))
    for kind, k in (out.get("server_side") or {}).items():
        print(f"  proxy->upstream {kind:12} {k['requests']:7d}  p50 {k['p50_ms']:6.1f}  p95 {k['p95_ms']:6.1f}  "
              f"p99 {k['p99_ms']:6.1f} ms")
    t = out.get("timeline")
    if t:
        print(f"  seconds with server poll p95 over {t['poll_target_ms']:g} ms: {t['seconds_over']} of {t['seconds']}, "
              f"holding {t['polls_in_seconds_over']} of {t['polls']} polls; machine CPU {t['cpu_over']} % in them, "
              f"{t['cpu_rest']} % in the others; decisions per s {t['decisions_per_s_over']} / {t['decisions_per_s_rest']}")
    for name, v in (out.get("resources") or {}).items():
        print(f"  {name:18} mean {v['mean']:8.1f}  max {v['max']:8.1f}")
    for kind, k in out["kinds"].items():
        for e in k["error_samples"]:
            print(f"  error {kind}: {e}")


if __name__ == "__main__":
    main()
