"""Capacity ramp and multi-node run of the load test (issue 20), in one command.

Starts the server side once (nginx, gunicorn, granian, the "live" Celery worker(s), against one
PostgreSQL database and one Redis of ``--pg``/``--redis``), then for each step of ``--steps``
grows the classroom to that many live sessions (``setup_load.py --append``, the three games in
turn with ``--scenario mix``: Peru 2 teams, Andean Abyss and Tears of Tyranny 4 teams each; one
instructor console per 4 sessions) and runs ``driver.py`` for ``--step-seconds``. After each
step it checks the targets and stops at the first step that breaks one (``--no-stop`` runs
every step). It writes one JSON per step, ``ramp.json`` and ``ramp.md`` (the markdown table
for docs/benchmarks.md) in ``--out-dir``.

    # the ramp of issue 20 (a quiet machine; about 3 minutes a step at the defaults)
    .venv/bin/python benchmarks/load/ramp.py --steps 40 80 120 160 200 240 --step-seconds 120

    # two web nodes and two live workers, each a process group of its own; node A hangs
    # (SIGSTOP, 3 s: requests in flight on it) and is killed (SIGKILL to its whole group) 30 s
    # into the measured part; then the decisions the driver
    # sent are compared with the event log (lost 0, applied twice 0) and the sessions whose home
    # was node A must have had decisions applied after the kill, through node B
    .venv/bin/python benchmarks/load/ramp.py --layout nodes --nodes 2 --live-workers 2 \\
        --steps 24 --step-seconds 90 --kill-node-at 30 --think 3 8

Targets (issue 20): poll p95 < 10 ms, decision p95 < 50 ms (API and page), 0 errors; change
them with ``--target-poll-ms``/``--target-decision-ms``. Loopback only; every process it starts
is its own process group and is stopped (by its id) when the command ends.

Layouts: ``split`` (default) is run.sh's: nginx routing live-region polls to a poll pool
(``--poll-server``: granian, ``--poll-workers`` x ``--poll-threads``, or gunicorn's sync workers)
and everything else to an app pool (gunicorn, ``--workers`` x ``--threads``). ``nodes``: ``--nodes`` web nodes, each one gunicorn (``--workers`` x
``--threads``), behind nginx (``nginx-nodes.conf.in``).

``--profile DIR``: each web process writes a cProfile of the requests it served to DIR
(``gunicorn_conf.py``, ``LOAD_PROFILE``), summed and printed per request kind by
``profile_report.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PY = sys.executable


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Stack:
    """The processes of the server side; each one started in a session (process group) of its
    own, so a node is killed whole and the end of the run stops exactly what it started."""

    def __init__(self, args, env: dict, var: Path):
        self.args, self.env, self.var = args, env, var
        self.procs: dict[str, subprocess.Popen] = {}
        self.nodes: dict[str, list[str]] = {}  # node name -> its process names

    def start(self, name: str, cmd: list[str], **kw) -> subprocess.Popen:
        log = open(self.var / f"{name}.log", "wb")  # noqa: SIM115 - kept open by the child
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env={**self.env, **kw.pop("env", {})},
                             start_new_session=True, cwd=ROOT, **kw)
        self.procs[name] = p
        return p

    def gunicorn(self, name: str, port: int, workers: int, threads: int) -> subprocess.Popen:
        return self.start(name, [str(Path(PY).parent / "gunicorn"), "-c", str(HERE / "gunicorn_conf.py"),
                                 "coinlab.wsgi:application", "--bind", f"127.0.0.1:{port}",
                                 "--workers", str(workers), "--threads", str(threads), "--timeout", "60"])

    def granian(self, name: str, port: int, workers: int, threads: int) -> subprocess.Popen:
        # the poll pool of docs/operations.md; coinlab.wsgi warms and freezes each worker
        return self.start(name, [str(Path(PY).parent / "granian"), "--interface", "wsgi", "--host", "127.0.0.1",
                                 "--port", str(port), "--workers", str(workers), "--blocking-threads", str(threads),
                                 "--runtime-threads", "1", "--respawn-failed-workers", "coinlab.wsgi:application"])

    def live_worker(self, name: str) -> subprocess.Popen:
        # SCHED_IDLE as run.sh and docs/operations.md: the pre-draw never takes a core from a web process
        prio = ["chrt", "--idle", "0"] if shutil.which("chrt") else ["nice", "-n", "10"]
        return self.start(name, [*prio, str(Path(PY).parent / "celery"), "-A", "coinlab", "worker", "-Q", "live",
                                 "--pool=prefork", "--concurrency=1", "--without-gossip", "--without-mingle",
                                 "--without-heartbeat", "--loglevel=INFO", "-n", f"{name}-{os.getpid()}@%h"])

    def nginx(self, template: str, **values) -> subprocess.Popen:
        text = (HERE / template).read_text()
        for k, v in {"VAR": str(self.var), **values}.items():
            text = text.replace(f"@{k}@", str(v))
        (self.var / "nginx.conf").write_text(text)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        return self.start("nginx", [nginx, "-c", str(self.var / "nginx.conf"), "-p", str(self.var),
                                    "-g", "daemon off;"])

    def kill_group(self, name: str, sig=signal.SIGKILL) -> None:
        p = self.procs.get(name)
        if p is not None and p.poll() is None:
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass

    def stop(self) -> None:
        for name in self.procs:
            self.kill_group(name, signal.SIGTERM)
        t = time.monotonic() + 10
        for p in self.procs.values():
            try:
                p.wait(max(0.1, t - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        for name in self.procs:  # what is left, and the children of a worker (its pool)
            self.kill_group(name, signal.SIGKILL)
        for p in self.procs.values():
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                pass


def wait_http(url: str, timeout: float = 90) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urlopen(url, timeout=5):
                return
        except OSError as exc:
            if getattr(exc, "code", None):  # an HTTP answer (404, 302...): the server is up
                return
            time.sleep(0.3)
    raise SystemExit(f"no answer from {url} after {timeout} s")


def fmt3(k: dict | None) -> str:
    if not k:
        return "-"
    return f"{k['p50_ms']:.1f} / {k['p95_ms']:.1f} / {k['p99_ms']:.1f}"


def poll_split(k: dict | None) -> str:
    """A poll's p95 by answer: 304 (nothing new) and 200 (a region), with their counts."""
    by = {str(code): v for code, v in ((k or {}).get("by_status") or {}).items()}
    cells = [f"{code}: {by[code]['p95_ms']:.1f} ({by[code]['requests']:,})" for code in ("304", "200") if code in by]
    return "; ".join(cells) or "-"


def group_cell(res: dict, name: str) -> str:
    cpu, rss = res.get(f"{name}_cpu"), res.get(f"{name}_rss_mb")
    if not cpu:
        return "-"
    return f"{cpu['mean'] / 100:.2f} ({cpu['max'] / 100:.2f}), {rss['mean']:.0f} MB"


def verdict(step: dict, args) -> list[str]:
    """The targets this step breaks (an empty list: every target met)."""
    broken = []
    kinds = step["kinds"]
    if kinds.get("poll", {}).get("p95_ms", 0) >= args.target_poll_ms:
        broken.append(f"poll p95 {kinds['poll']['p95_ms']} ms")
    for kind, label in (("submit_api", "API decision"), ("submit_page", "page decision")):
        if kinds.get(kind, {}).get("p95_ms", 0) >= args.target_decision_ms:
            broken.append(f"{label} p95 {kinds[kind]['p95_ms']} ms")
    errors = sum(k["errors"] for k in kinds.values())
    if errors:
        broken.append(f"{errors} errors")
    return broken


def table(steps: list[dict], groups: list[str]) -> str:
    head = ["sessions (Peru/AA/ToT)", "teams, consoles", "poll p50 / p95 / p99 ms", "poll p95 ms by answer (count)",
            "API decision p50 / p95 / p99 ms",
            "page decision p50 / p95 / p99 ms", "console p50 / p95 / p99 ms", "requests (req/s), errors",
            "machine CPU mean (max), load avg", *[f"{g}: cores mean (max), RSS" for g in groups], "targets"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in steps:
        k, res = s["kinds"], s.get("resources", {})
        games = s.get("games", {})
        n_req = sum(v["requests"] for v in k.values())
        errors = sum(v["errors"] for v in k.values())
        cpu, load = res.get("machine_cpu", {}), res.get("load1", {})
        cells = [f"{s['sessions']} ({games.get('peru', 0)}/{games.get('andean_abyss', 0)}/{games.get('tears_of_tyranny', 0)})",
                 f"{s['teams']}, {s['instructors']}", fmt3(k.get("poll")), poll_split(k.get("poll")),
                 fmt3(k.get("submit_api")),
                 fmt3(k.get("submit_page")), fmt3(k.get("console")),
                 f"{n_req:,} ({n_req / max(s['duration_s'], 1):.0f}/s), {errors}",
                 f"{cpu.get('mean', 0):.0f} % ({cpu.get('max', 0):.0f} %), {load.get('mean', 0):.1f}",
                 *[group_cell(res, g) for g in groups],
                 "met" if not s["broken"] else "**broken**: " + "; ".join(s["broken"])]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _whole(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}"


def tail_table(steps: list[dict]) -> str:
    """Where each step's poll tail lies, second by second (``driver.timeline``): the seconds whose
    server-side poll p95 is over the target, the share of the polls they hold, and the machine's
    CPU and the decisions answered per second in them against the other seconds."""
    head = ["sessions", "seconds with server poll p95 over target / all", "polls in them",
            "machine CPU mean: those seconds / the others", "decisions per s: those / the others",
            "worst seconds (server poll p95 ms, CPU %)"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in steps:
        t = s.get("timeline")
        if not t:
            continue
        share = t["polls_in_seconds_over"] / t["polls"] if t["polls"] else 0.0
        worst = ", ".join(f"{r['poll_p95_ms']:.0f} ({_whole(r['machine_cpu'])})" for r in t["worst"][:3])
        rows.append(f"| {s['sessions']} | {t['seconds_over']} / {t['seconds']} | {share:.0%} | "
                    f"{_whole(t['cpu_over'])} % / {_whole(t['cpu_rest'])} % | "
                    f"{t['decisions_per_s_over'] or 0:.1f} / {t['decisions_per_s_rest'] or 0:.1f} | {worst} |")
    return "\n".join(rows) + "\n" if len(rows) > 2 else ""


def check_decisions(journal: list[dict], env: dict, kill_at: float | None, killed_node: str | None) -> dict:
    """What the driver sent and had acknowledged against the event log (PostgreSQL, read
    directly). Per key: acknowledged (a 200, maybe after retries) -> exactly one SubmissionKey
    row whose answer's first event is a decision of that seat and choice; rejected (4xx) -> no
    row; unanswered (every attempt cut) -> either (reported). Per session: as many human
    decision events as keys (no decision applied twice, none without its key)."""
    import psycopg

    url = env["DATABASE_URL"]
    sessions = sorted({e["session"] for e in journal})
    with psycopg.connect(url) as conn:
        keys = {}
        for sid, key, _user_id, response in conn.execute(
                "SELECT session_id, key, user_id, response FROM facilitation_submissionkey WHERE session_id = ANY(%s)",
                [sessions]):
            keys[(sid, key)] = response
        events = {}
        for sid, seq, seat, payload, actor in conn.execute(
                "SELECT session_id, seq, seat, payload, actor_id FROM facilitation_sessionevent "
                "WHERE session_id = ANY(%s) AND kind = 'decision'", [sessions]):
            events[(sid, seq)] = (seat, (payload or {}).get("choice"), actor)
    acked = [e for e in journal if e["attempts"][-1]["status"] == 200]
    rejected = [e for e in journal if 400 <= e["attempts"][-1]["status"] < 500]
    unanswered = [e for e in journal if e["attempts"][-1]["status"] in (0, 502, 503, 504)]
    lost, wrong, seen_seq = [], [], {}
    twice = []
    for e in acked:
        resp = keys.get((e["session"], e["key"]))
        if resp is None:
            lost.append(e)
            continue
        first = (resp.get("events") or [None])[0]
        ev = events.get((e["session"], first))
        if ev is None or ev[0] != e["seat"] or ev[1] != e["choice"]:
            wrong.append({"key": e["key"], "event": first, "found": ev})
        if (e["session"], first) in seen_seq:
            twice.append(e["key"])
        seen_seq[(e["session"], first)] = e["key"]
    applied_rejected = [e["key"] for e in rejected if (e["session"], e["key"]) in keys]
    # every team decision of the load test is sent with a key (this step's or an earlier
    # step's): a session holds as many teams' decision events as keys
    per_session_extra = {}
    for sid in sessions:
        n_events = sum(1 for (s, _), v in events.items() if s == sid and v[2] is not None)
        n_keys = sum(1 for (s, _k) in keys if s == sid)
        if n_events != n_keys:
            per_session_extra[sid] = {"decision_events": n_events, "keys": n_keys}
    out = {"sent": len(journal), "acknowledged": len(acked), "rejected_4xx": len(rejected),
           "unanswered": len(unanswered),
           "unanswered_applied": sum(1 for e in unanswered if (e["session"], e["key"]) in keys),
           "retried": sum(1 for e in journal if len(e["attempts"]) > 1),
           "retried_then_acknowledged": sum(1 for e in acked if len(e["attempts"]) > 1),
           "replayed_answers": sum(1 for e in journal for a in e["attempts"] if a.get("replayed")),
           "lost": len(lost), "applied_twice": len(twice) + len(per_session_extra),
           "wrong_event": len(wrong), "rejected_but_applied": len(applied_rejected),
           "sessions_events_ne_keys": per_session_extra, "lost_samples": lost[:3], "wrong_samples": wrong[:3]}
    if kill_at is not None and killed_node:
        home = {}
        for e in journal:
            for a in e["attempts"]:
                if a["t"] < kill_at and a.get("node"):
                    home.setdefault(e["session"], a["node"].split(",")[0].strip())
        on_killed = sorted(s for s, n in home.items() if n == killed_node)
        after = {s: 0 for s in on_killed}
        for e in acked:
            if e["session"] in after and e["attempts"][-1]["t"] >= kill_at:
                after[e["session"]] += 1
        out["killed_node"] = killed_node
        out["sessions_homed_on_killed_node"] = len(on_killed)
        out["of_them_with_decisions_after_the_kill"] = sum(1 for n in after.values() if n)
        out["decisions_after_the_kill_on_their_sessions"] = sum(after.values())
        out["answered_after_the_kill_by"] = sorted({a["node"] for e in acked for a in e["attempts"]
                                                    if a["t"] >= kill_at and a["status"] == 200 and a.get("node")})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, nargs="+", default=[40, 80, 120, 160, 200, 240])
    ap.add_argument("--step-seconds", type=float, default=120)
    ap.add_argument("--warmup", type=float, default=20)
    ap.add_argument("--scenario", default="mix")
    ap.add_argument("--think", type=float, nargs=2, default=(10, 30))
    ap.add_argument("--layout", choices=["split", "nodes"], default="split")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--workers", type=int, default=3, help="gunicorn processes of the app pool (split) or of a node")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--poll-server", choices=["granian", "gunicorn"], default="granian",
                    help="the poll pool's server: granian (docs/operations.md; kept-alive connections from "
                         "nginx) or gunicorn (the layout measured before 2026-12-08)")
    ap.add_argument("--poll-workers", type=int, help="poll-pool processes (default: 2 granian, 4 gunicorn)")
    ap.add_argument("--poll-threads", type=int,
                    help="threads per poll-pool process (default: granian 2 blocking threads; gunicorn 1, its "
                         "sync worker; more: gthread, so a poll that waits for a region being drawn does not "
                         "hold the whole process)")
    ap.add_argument("--live-workers", type=int, default=1, help="Celery 'live' workers, each a process group")
    ap.add_argument("--kill-node-at", type=float, help="seconds into the measured part: SIGKILL node A's group")
    ap.add_argument("--freeze-before-kill", type=float, default=3.0,
                    help="seconds node A is stopped (SIGSTOP) before the kill, so that requests are in "
                         "flight on it when it dies (0: a plain SIGKILL)")
    ap.add_argument("--pg", default=os.environ.get("LOAD_PG", "postgres://postgres@127.0.0.1:5432"))
    ap.add_argument("--db", default="load_ramp")
    ap.add_argument("--redis", default=os.environ.get("LOAD_REDIS", "redis://127.0.0.1:6379/12"),
                    help="the Redis (and database) of the run: it is flushed first")
    ap.add_argument("--port", type=int, default=8100)
    ap.add_argument("--out-dir", default=str(ROOT / "var" / "load" / "ramp"))
    ap.add_argument("--target-poll-ms", type=float, default=10)
    ap.add_argument("--target-decision-ms", type=float, default=50)
    ap.add_argument("--check", action="store_true",
                    help="compare each step's decisions with the event log (always done for --layout nodes)")
    ap.add_argument("--no-stop", action="store_true", help="run every step even after a target broke")
    ap.add_argument("--profile", help="a folder: cProfile of every web process (gunicorn_conf.py, LOAD_PROFILE)")
    ap.add_argument("--pg-stat-statements", action="store_true",
                    help="reset pg_stat_statements before each step and save its top statements after it "
                         "(needs the extension preloaded by the server)")
    args = ap.parse_args()

    var = Path(args.out_dir)
    if var.exists() and any(var.iterdir()):
        if not (var / "people.json").exists() and not (var / "ramp.json").exists():
            raise SystemExit(f"{var} is not an earlier run's folder (no people.json): give an empty or new --out-dir")
        shutil.rmtree(var)
    var.mkdir(parents=True, exist_ok=True)
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        raise SystemExit("nginx is needed (Debian: apt-get install nginx-light)")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": f"{args.pg}/{args.db}", "REDIS_URL": args.redis,
           "SECRET_KEY": "load-test-secret-key-not-for-production-0123456789abcdef",
           "COINLAB_SECURE_COOKIES": "0", "DEBUG": "0", "LOG_LEVEL": "WARNING"}
    env.pop("CELERY_BROKER_URL", None)
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
        env["LOAD_PROFILE"] = str(Path(args.profile).resolve())
    redis_host_port = args.redis.split("//", 1)[1].split("/", 1)[0]
    redis_db = args.redis.rsplit("/", 1)[1] if args.redis.count("/") > 2 else "0"
    rhost, rport = redis_host_port.rsplit(":", 1)
    admin = f"{args.pg}/postgres"
    subprocess.run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {args.db} WITH (FORCE)"], check=True)
    subprocess.run(["psql", admin, "-qc", f"CREATE DATABASE {args.db}"], check=True)
    subprocess.run(["redis-cli", "-h", rhost, "-p", rport, "-n", redis_db, "flushdb"], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([PY, "manage.py", "migrate", "-v0"], check=True, env=env, cwd=ROOT)
    if args.pg_stat_statements:
        subprocess.run(["psql", f"{args.pg}/{args.db}", "-qc", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"],
                       check=True)

    stack = Stack(args, env, var)
    server_pids, groups_arg, worker_pids = [], [], []
    node_addr = {}
    try:
        if args.layout == "split":
            app, poll = free_port(), free_port()
            # each pool's CPU and memory reported apart (columns "app" and "poll")
            groups_arg.append(f"app={stack.gunicorn('gunicorn-app', app, args.workers, args.threads).pid}")
            if args.poll_server == "granian":
                pid = stack.granian("granian-poll", poll, args.poll_workers or 2, args.poll_threads or 2).pid
                keepalive = "keepalive 16;"  # granian keeps the proxy's connections open
            else:
                pid = stack.gunicorn("gunicorn-poll", poll, args.poll_workers or 4, args.poll_threads or 1).pid
                keepalive = ""  # gunicorn's sync workers close each connection
            groups_arg.append(f"poll={pid}")
            server_pids.append(stack.nginx("nginx.conf.in", PORT=args.port, APP_PORT=app, POLL_PORT=poll,
                                           POLL_KEEPALIVE=keepalive).pid)
            waits = [f"http://127.0.0.1:{app}/", f"http://127.0.0.1:{poll}/"]
        else:
            servers, waits = [], []
            for n in range(args.nodes):
                name = f"web-{chr(ord('a') + n)}"
                port = free_port()
                node_addr[name] = f"127.0.0.1:{port}"
                groups_arg.append(f"{name}={stack.gunicorn(name, port, args.workers, args.threads).pid}")
                servers.append(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=30s;")
                waits.append(f"http://127.0.0.1:{port}/")
            server_pids.append(stack.nginx("nginx-nodes.conf.in", PORT=args.port, SERVERS="\n".join(servers)).pid)
        for n in range(args.live_workers):
            name = f"live-{chr(ord('a') + n)}"
            pid = stack.live_worker(name).pid
            if args.live_workers > 1:
                groups_arg.append(f"celery-{chr(ord('a') + n)}={pid}")
            else:
                worker_pids.append(pid)
        for url in [*waits, f"http://127.0.0.1:{args.port}/"]:
            wait_http(url)

        webs = [g.split("=")[0] for g in groups_arg if g.startswith(("web-", "app=", "poll="))]
        groups = webs + ([g.split("=")[0] for g in groups_arg if g.startswith("celery-")] or ["celery"]) + [
            "postgres", "redis", "nginx", "driver"]
        people = var / "people.json"
        steps = []
        for n in args.steps:
            t0 = time.monotonic()
            subprocess.run([PY, str(HERE / "setup_load.py"), "--scenario", args.scenario, "--sessions", str(n),
                            "--append", "--out", str(people)], check=True, env=env, cwd=ROOT,
                           stdout=subprocess.DEVNULL)
            print(f"[ramp] {n} sessions set up in {time.monotonic() - t0:.0f} s", flush=True)
            if args.pg_stat_statements:
                subprocess.run(["psql", f"{args.pg}/{args.db}", "-qc", "SELECT pg_stat_statements_reset()"],
                               check=True, stdout=subprocess.DEVNULL)
            out, journal = var / f"step-{n}.json", var / f"journal-{n}.json"
            cmd = [PY, str(HERE / "driver.py"), "--base", f"http://127.0.0.1:{args.port}", "--people", str(people),
                   "--duration", str(args.step_seconds), "--warmup", str(args.warmup), "--max-requests", "100000000",
                   "--think", *map(str, args.think), "--db-name", args.db, "--redis-port", rport,
                   "--access-log", str(var / "access.log"), "--out", str(out), "--journal", str(journal),
                   "--target-poll-ms", str(args.target_poll_ms), "--server-pid", *map(str, server_pids)]
            if worker_pids:
                cmd += ["--worker-pid", *map(str, worker_pids)]
            for g in groups_arg:
                cmd += ["--group", g]
            driver = subprocess.Popen(cmd, env=env, cwd=ROOT, start_new_session=True)
            kill_wall = None
            try:
                if args.kill_node_at is not None:
                    time.sleep(args.warmup + args.kill_node_at)
                    if driver.poll() is None:
                        kill_wall = time.time()
                        if args.freeze_before_kill:  # it hangs: requests routed to it wait there
                            stack.kill_group("web-a", signal.SIGSTOP)
                            time.sleep(args.freeze_before_kill)
                        stack.kill_group("web-a")
                        print(f"[ramp] node web-a ({node_addr.get('web-a')}) stopped for {args.freeze_before_kill} s, "
                              "then killed (SIGKILL to its group)", flush=True)
                driver.wait()
            finally:
                if driver.poll() is None:
                    os.killpg(driver.pid, signal.SIGTERM)
                    driver.wait(30)
            step = json.loads(out.read_text())
            counts = {}
            for s in json.loads(people.read_text())["sessions"]:
                counts[s["game"]] = counts.get(s["game"], 0) + 1
            step["games"] = counts
            step["broken"] = verdict(step, args)
            if args.kill_node_at is not None:
                step["check"] = check_decisions(json.loads(journal.read_text()), env, kill_wall,
                                                node_addr.get("web-a"))
                step["check"]["kill_at_s"] = args.kill_node_at
            elif args.layout == "nodes" or args.check:
                step["check"] = check_decisions(json.loads(journal.read_text()), env, None, None)
            if "check" in step:
                # every session's log replays from its seed to its cached state (hash chain, facts)
                v = subprocess.run([PY, "manage.py", "verify_session", "--all"], env=env, cwd=ROOT,
                                   capture_output=True, text=True)
                step["check"]["verify_session_all"] = "ok" if v.returncode == 0 else (
                    f"exit {v.returncode}: {(v.stdout + v.stderr)[-500:]}")
                step["check"]["live_tasks_per_worker"] = {
                    f.stem: f.read_text(errors="replace").count("succeeded in") for f in sorted(var.glob("live-*.log"))}
            if args.pg_stat_statements:
                q = ("SELECT calls, round(total_exec_time::numeric, 1) AS total_ms, round(mean_exec_time::numeric, 3) "
                     "AS mean_ms, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 300) FROM pg_stat_statements "
                     f"WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '{args.db}') "
                     "ORDER BY total_exec_time DESC LIMIT 25")
                top = subprocess.run(["psql", f"{args.pg}/{args.db}", "-A", "-F", " | ", "-c", q],
                                     capture_output=True, text=True).stdout
                (var / f"pg_stat_statements-{n}.txt").write_text(top)
            if "check" in step:
                print(json.dumps(step["check"], indent=1), flush=True)
            out.write_text(json.dumps(step, indent=1))
            steps.append(step)
            print(table([step], groups) + tail_table([step]), flush=True)
            if step["broken"] and not args.no_stop:
                print(f"[ramp] stopping: {'; '.join(step['broken'])}", flush=True)
                break
        md = table(steps, groups)
        tails = tail_table(steps)
        if tails:
            md += "\n" + tails
        (var / "ramp.md").write_text(md)
        (var / "ramp.json").write_text(json.dumps({"args": vars(args), "steps": steps}, indent=1))
        print(md)
        if any(s.get("check", {}).get(k) for s in steps for k in ("lost", "applied_twice", "wrong_event",
                                                                   "rejected_but_applied")) or any(
                s.get("check", {}).get("verify_session_all", "ok") != "ok" for s in steps):
            print("[ramp] DECISION CHECK FAILED", flush=True)
            sys.exit(1)
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
