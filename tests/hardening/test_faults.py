"""Fault tests with real services (docs/operations.md, "Failures").

* Redis stopped during play: play goes on; report requests fail clearly (503) and
  work again once Redis is back; no 500s.
* PostgreSQL restarted during play: in-flight submissions land once or fail cleanly
  (503 ``database_unavailable`` or a broken connection, retried with the same
  idempotency key); no partial events; the log replays to the cached state.
* A web process killed (SIGKILL) mid-request, twice, each time while a submission is inside its
  transaction: no half-written event; the cut submission lands once when it is retried.

The fourth fault, a Celery worker killed mid-report, is tests/reports/test_worker_integration.py.
Redis and PostgreSQL are private servers of the test (free loopback ports); the
machine's shared services are never stopped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import psutil
import psycopg
import pytest
from django.db import connection

from facilitation import eventlog
from facilitation.models import ClassSession, SessionEvent, SubmissionKey
from facilitation.reports.models import AARReport
from tests.conftest import ROOT, VENV_BIN, create_peru_game, free_port, stop_process, wait_for_port
from tests.hardening.conftest import http, wait_until
from tests.hardening.faults import Traffic, check_answers, check_log
from tests.hardening.helpers import cookie_headers, login_cookie, play_one, post_form, token_for

pytestmark = pytest.mark.integration


def _need_postgres():
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")


# ---- Redis ---------------------------------------------------------------------------------------


def test_redis_stopped_during_play(people, subprocess_env, web_processes, start_celery_worker, private_redis,
                                   tmp_path):
    _need_postgres()
    subprocess_env["REDIS_URL"] = private_redis.url
    subprocess_env["COINLAB_MEDIA_ROOT"] = str(tmp_path / "media")
    game = create_peru_game(people, seed=51)
    sid = game.session.pk
    servers = web_processes(2)
    start_celery_worker(REDIS_URL=private_redis.url)
    tokens = {game.seat_a: token_for(people.student_a), game.seat_b: token_for(people.student_b)}
    student_page = cookie_headers(login_cookie(people.student_a))
    inst = cookie_headers(login_cookie(people.instructor))

    def play(n: int) -> int:
        made = 0
        for i in range(n * 4):
            seat = (game.seat_a, game.seat_b)[i % 2]
            status, body = play_one(servers[i % 2], sid, seat, tokens[seat], pick=i)
            if status == -1:
                continue
            assert status == 200, (status, body)
            made += 1
            if made >= n:
                break
        return made

    assert play(6) == 6
    private_redis.stop()
    t0 = time.monotonic()
    # Play continues: decisions, prompts, the play page's polling, the session list.
    assert play(8) == 8
    for server in servers:
        status, _ = http("GET", f"{server}/sessions/{sid}/play/live/?seat={game.seat_a}", headers=student_page)
        assert status == 200
        status, body = http("GET", f"{server}/api/sessions/", token=tokens[game.seat_a])
        assert status == 200, body
    assert time.monotonic() - t0 < 60, "requests should not hang while Redis is down"
    # Report requests fail clearly, and store nothing.
    for server in servers:
        status, text = post_form(f"{server}/reports/sessions/{sid}/", {}, inst)
        assert status == 503, (status, text[:300])
        assert "not reachable" in text
    assert not AARReport.objects.filter(session_id=sid).exists()

    private_redis.start()
    assert play(2) == 2
    status, text = post_form(f"{servers[0]}/reports/sessions/{sid}/", {}, inst)
    assert status == 302, (status, text[:300])
    report = AARReport.objects.get(session_id=sid)
    wait_until(lambda: AARReport.objects.get(pk=report.pk).status in ("done", "failed"), timeout=180, every=1,
               what="the report built after Redis came back")
    report.refresh_from_db()
    assert report.status == "done", report.error
    rep = eventlog.verify(ClassSession.objects.get(pk=sid))
    assert rep.ok, rep.errors


# ---- PostgreSQL ------------------------------------------------------------------------------------


def _tool(env: dict, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "tests.hardening.game_tool", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _gunicorn(env: dict, log_path, workers: int = 1, threads: int = 4) -> tuple[subprocess.Popen, str]:
    port = free_port()
    log = open(log_path, "w")  # noqa: SIM115 - closed by the caller's cleanup via the process ending
    proc = subprocess.Popen([str(VENV_BIN / "gunicorn"), "coinlab.wsgi:application", "--bind", f"127.0.0.1:{port}",
                             "--workers", str(workers), "--threads", str(threads), "--timeout", "30"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    wait_for_port(port, proc)
    return proc, f"http://127.0.0.1:{port}"


def test_postgres_restarted_during_play(private_postgres, private_redis, tmp_path):
    env = {**os.environ, "DATABASE_URL": private_postgres.url, "REDIS_URL": private_redis.url,
           "PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "coinlab.settings", "COINLAB_SECURE_COOKIES": "0"}
    out = subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    game = _tool(env, "make")
    proc, server = _gunicorn(env, tmp_path / "web.log")
    try:
        traffic = Traffic(servers=[server], session=game["session"], teams=[tuple(t) for t in game["teams"]])
        threads = traffic.run(max_requests=400, seconds=150)
        wait_until(lambda: traffic.total_accepted() >= 5, timeout=60, what="play before the restart")
        private_postgres.restart()
        before = traffic.total_accepted()
        wait_until(lambda: traffic.total_accepted() >= before + 6, timeout=90, what="play after the restart")
        traffic.stop.set()
        for t in threads:
            t.join(timeout=30)
        counts = check_answers(traffic)
        disrupted = sum(n for s, n in counts.items() if s in (0, 503))
        print(f"postgres restart: answers by status {counts}, accepted {traffic.total_accepted()}")
        assert disrupted >= 1, f"the restart should have hit some requests: {counts}"
        state = _tool(env, "inspect", str(game["session"]))
        assert state["verify_ok"], state["verify_errors"]
        check_log(traffic, state["decisions"], state["keys"])
    finally:
        stop_process(proc)


# ---- a web process killed mid-request ------------------------------------------------------------------
#
# The kill must land while a request is inside the worker, or the test proves nothing: a kill at a
# random moment may fall between two requests (then no request is cut; a connection waiting in the
# listen backlog is served by the next worker). So the test holds the session row lock itself
# until a submission waits for it inside its transaction, then kills the worker: that submission
# is cut mid-transaction every time. And it waits for the master to start a *new* worker (the
# killed one stays its child until reaped) before it kills again.


@contextmanager
def _session_row_locked(database_url: str, session_id: int):
    """Hold the session row lock (as a submission does) on a connection of the test's own."""
    with psycopg.connect(database_url) as conn:
        conn.execute(f"SELECT 1 FROM {ClassSession._meta.db_table} WHERE id = %s FOR UPDATE", [session_id])
        yield conn
        conn.rollback()


def _waiting_for(conn) -> int:
    """How many other connections wait for a lock this connection holds.

    Read from ``pg_locks`` (the lock manager, read afresh by every call), not from
    ``pg_stat_activity``: that view is a snapshot kept until the end of the asking transaction,
    and ``conn`` asks inside the transaction that holds the lock, so a submission on a database
    connection opened after the first check (a new gunicorn thread's, a reconnect's) never
    appeared in it, and the test waited 60 s for a waiter that was there (issue 20: "a submission
    waiting for the session row lock not reached after 60s" in 1 of 3 whole runs;
    ``test_the_lock_probe_sees_a_waiter_that_connected_after_the_first_look`` reproduces it)."""
    row = conn.execute("SELECT count(*) FROM pg_locks "
                       "WHERE NOT granted AND pg_backend_pid() = ANY(pg_blocking_pids(pid))").fetchone()
    return row[0]


def test_the_lock_probe_sees_a_waiter_that_connected_after_the_first_look(people, subprocess_env):
    """The probe of ``test_web_process_killed_mid_request``: it looks once while nobody waits,
    then a connection opened afterwards waits for the row; the next look must count it (with
    ``pg_stat_activity`` it stayed 0: that view's rows are fixed at the transaction's first look)."""
    _need_postgres()
    game = create_peru_game(people, seed=61)
    url = subprocess_env["DATABASE_URL"]
    with _session_row_locked(url, game.session.pk) as holder:
        assert _waiting_for(holder) == 0
        with psycopg.connect(url) as waiter:
            waiter.execute("SET lock_timeout = '20s'")
            t = threading.Thread(target=lambda: waiter.execute(
                f"SELECT 1 FROM {ClassSession._meta.db_table} WHERE id = %s FOR UPDATE", [game.session.pk]))
            t.start()
            try:
                assert wait_until(lambda: _waiting_for(holder), timeout=15, every=0.05,
                                  what="the waiter counted") == 1
            finally:
                holder.rollback()   # releases the row: the waiter gets it and ends
                t.join(timeout=20)
            waiter.rollback()


def _live_workers(master: subprocess.Popen) -> list[psutil.Process]:
    out = []
    for child in psutil.Process(master.pid).children():
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                out.append(child)
        except psutil.NoSuchProcess:
            pass
    return out


def test_web_process_killed_mid_request(people, subprocess_env, tmp_path):
    _need_postgres()
    game = create_peru_game(people, seed=61)
    sid = game.session.pk
    proc, server = _gunicorn(subprocess_env, tmp_path / "web.log", workers=1, threads=4)
    traffic = None
    try:
        teams = [(game.seat_a, token_for(people.student_a)), (game.seat_b, token_for(people.student_b))]
        traffic = Traffic(servers=[server], session=sid, teams=teams)
        # the teams play until the test stops them (traffic.stop below), not for a budget: with
        # 400 requests a team and 150 s, the traffic could end before the second kill on a slow
        # machine (a 16-minute suite run at a412d1e), and then no submission came to wait for the
        # held row lock ("a submission waiting for the session row lock not reached after 60s";
        # the cause is inferred from the budget, not reproduced)
        threads = traffic.run(max_requests=10**9, seconds=900)
        kills = 0
        for _ in range(2):
            before = traffic.total_accepted()
            wait_until(lambda before=before: traffic.total_accepted() >= before + 4, timeout=60,
                       what="play between kills")
            (worker,) = _live_workers(proc)
            with _session_row_locked(subprocess_env["DATABASE_URL"], sid) as holder:
                wait_until(lambda holder=holder: _waiting_for(holder), timeout=60, every=0.05,
                           what="a submission waiting for the session row lock")
                worker.kill()
                worker.wait(timeout=30)
            kills += 1
            wait_until(lambda worker=worker: [w for w in _live_workers(proc) if w.pid != worker.pid], timeout=30,
                       what="gunicorn starts a new worker")
        before = traffic.total_accepted()
        wait_until(lambda: traffic.total_accepted() >= before + 4, timeout=60, what="play after the kills")
        traffic.stop.set()
        for t in threads:
            t.join(timeout=30)
        counts = check_answers(traffic)
        cut = [a for a in traffic.answers if a["kind"] == "submit" and a["status"] == 0]
        print(f"web worker killed x{kills}: answers by status {counts}, accepted {traffic.total_accepted()}, "
              f"submissions cut {len(cut)}")
        assert len(cut) >= kills, f"each kill cuts the submission waiting in its transaction: {counts}"
        session = ClassSession.objects.get(pk=sid)
        rep = eventlog.verify(session)
        assert rep.ok, rep.errors
        decisions = dict(SessionEvent.objects.filter(session=session, kind="decision")
                         .values_list("seq", "payload__choice"))
        keys = {k.key: {"request": k.request, "response": k.response}
                for k in SubmissionKey.objects.filter(session=session)}
        check_log(traffic, decisions, keys)
        assert {a["key"] for a in cut} <= set(keys), "a cut submission lands once its retry is answered"
    finally:
        if traffic is not None:
            traffic.stop.set()
        stop_process(proc)
