"""A real Celery worker is killed in the middle of a build; after a restart the
report completes (acks_late + a short Redis visibility timeout).

Needs the services the test runner provides: PostgreSQL (DATABASE_URL) and
Redis (REDIS_URL). Without them the test fails, saying so; it never skips.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from .helpers import TEAM_GOV, TEAM_SP, play_peru_game

WORKER = Path(__file__).with_name("aar_worker.py")
ROOT = Path(__file__).resolve().parents[2]


def _db_url() -> str:
    db = settings.DATABASES["default"]
    assert db["ENGINE"].endswith("postgresql"), "this test needs PostgreSQL: run it with DATABASE_URL set"
    auth = db.get("USER") or ""
    if db.get("PASSWORD"):
        auth += f":{db['PASSWORD']}"
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def _start_worker(log_path: Path, queue: str, **extra_env) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": _db_url(), "PYTHONPATH": str(ROOT),
           "AAR_TEST_VISIBILITY_TIMEOUT": "3", "AAR_TEST_QUEUE": queue, **extra_env}
    log = open(log_path, "ab")  # noqa: SIM115 - closed with the process
    return subprocess.Popen([sys.executable, str(WORKER)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def _session_pids(sid: int) -> list[int]:
    out = subprocess.run(["ps", "-eo", "pid=,sid="], capture_output=True, text=True, check=True).stdout
    return [int(p) for p, s in (line.split() for line in out.splitlines() if line.strip()) if int(s) == sid]


def _kill_all(proc: subprocess.Popen, sig=signal.SIGKILL) -> None:
    """Kill the worker, its pool processes and their browsers (one process session)."""
    for pid in _session_pids(proc.pid):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def _wait(report, predicate, timeout: float, what: str):
    """Wait until ``predicate(report)``; fail when the build has made no progress (its status,
    progress and stage unchanged) for ``timeout`` seconds.

    A stalled build, not a slow one, is the failure: on a machine shared with other test runs
    (load average 20 on 2 cores) drawing the charts alone took more than a minute, and a fixed
    deadline failed a build that was still advancing ("Drawing charts (3/6)"). The test's own
    time limit (pytest-timeout) still bounds the whole wait."""
    seen = None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        report.refresh_from_db()
        if predicate(report):
            return report
        now = (report.status, report.progress, report.stage)
        if now != seen:
            seen, deadline = now, time.monotonic() + timeout
        time.sleep(0.1)
    raise AssertionError(f"no progress for {timeout}s waiting for {what}: status={report.status} "
                         f"progress={report.progress} stage={report.stage!r} error={report.error!r}")


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_report_completes_after_its_worker_is_killed_mid_build(fresh_people, tmp_path, monkeypatch):
    people = fresh_people
    assert os.environ.get("REDIS_URL"), "this test needs Redis: run it with REDIS_URL set"
    from coinlab.celery import app
    from facilitation.reports import services
    from facilitation.reports.models import AARReport
    from facilitation.reports.tasks import build_aar_report

    assert not app.conf.task_always_eager
    assert app.conf.broker_url.startswith("redis://"), "this test needs the Redis broker (REDIS_URL)"
    session = play_peru_game(instructor=people["instructor"],
                             students=[people["student_a"], people["student_b"]], title="Worker crash lab")
    # A queue of this test's own, so no other worker (another test's, another run's) takes
    # the build and nothing else in the broker is touched.
    queue = f"aar-test-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setattr(build_aar_report, "delay",
                        lambda *args: build_aar_report.apply_async(args=args, queue=queue))

    first = _start_worker(tmp_path / "worker1.log", queue, AAR_TEST_SLOW_PDF="4")
    second = None
    try:
        report = services.report_request(session, user=people["instructor"])
        assert report.status == AARReport.Status.QUEUED
        report = _wait(report, lambda r: r.status == AARReport.Status.RUNNING and r.progress >= 72, 60,
                       "the first worker to reach the PDF step")
        _kill_all(first)
        time.sleep(0.5)
        report.refresh_from_db()
        assert report.status == AARReport.Status.RUNNING, "the build finished before the worker was killed"
        assert not report.pdf
        second = _start_worker(tmp_path / "worker2.log", queue)
        report = _wait(report, lambda r: r.is_finished, 90, "the restarted worker to finish the report")
        assert report.status == AARReport.Status.DONE, report.error
        assert report.attempts >= 2
        assert AARReport.objects.filter(session=session).count() == 1
        assert Path(report.pdf.name).name == f"{report.file_stem()}.pdf"  # overwritten, not copied
        text = subprocess.run(["pdftotext", report.pdf.path, "-"], capture_output=True, text=True,
                              check=True).stdout
        assert TEAM_GOV in text and TEAM_SP in text
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                _kill_all(proc, signal.SIGTERM)
        for proc in (first, second):
            if proc is not None:
                _kill_all(proc)
        logs = "".join((tmp_path / f"worker{i}.log").read_text(errors="replace")[-3000:]
                       for i in (1, 2) if (tmp_path / f"worker{i}.log").exists())
        print(logs)
