"""Shared fixtures for the Django side of the test suite.

People and a real Peru game:

* ``people``: instructor (teaches the course), other_instructor (teaches another
  course), student_a / student_b (team A / team B), reviewer (granted the course);
* ``peru_session``: a started Peru session, team A on the first seat, team B on
  the second (no bots), as a :class:`PeruGame` (``.session``, ``.course``,
  ``.team_a``, ``.team_b``, ``.seat_a``, ``.seat_b``, ``.people``);
* ``api_for``: ``api_for("student_a")`` is an API client logged in as that person
  (``api_for(None)``: anonymous);
* ``play_moves(session, n)``: the humans of a session make ``n`` legal decisions
  through the services (deterministic choices).

Real processes (for integration tests; use them with ``transactional_db`` so the
subprocess sees committed rows):

* ``subprocess_env``: the environment a subprocess needs to reach the *test*
  database and the test Redis;
* ``celery_worker``: one real ``celery -A coinlab worker`` subprocess for the module;
  ``start_celery_worker(**env)`` starts more (stopped at the end of the test);
* ``web_processes(n)``: ``n`` gunicorn processes on loopback ports (see
  tests/facilitation/test_concurrency.py).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


# ---- parallel runs (pytest-xdist) ------------------------------------------------------
# Every xdist worker has its own PostgreSQL test database (pytest-django adds the worker id
# to its name), so its own ids: session 7 of one worker is not session 7 of the other. The
# Redis entries keyed by those ids (session versions, seats, drawn regions) and the Celery
# queues must be the worker's own as well, or one worker's tests read or consume another's:
# each worker uses its own Redis database, counting down from the one REDIS_URL names
# (gw0: 15, gw1: 14, ...). Subprocesses (Celery workers, gunicorn) inherit the rewritten URL.
# Settings were read before this module (pytest-django sets Django up first), but no cache
# connection nor Celery connection exists yet, so the settings and the Celery app are
# pointed at the worker's database here.


def _worker_redis_url(url: str, worker: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    index = int(worker.removeprefix("gw"))
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    if index > base:
        raise RuntimeError(f"too many xdist workers for {url}: worker {worker} would need Redis database {base - index}")
    return urlunsplit(parts._replace(path=f"/{base - index}"))


def _isolate_xdist_worker() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("REDIS_URL", "").strip()
    if not worker or not url or os.environ.get("COINLAB_TEST_REDIS_ISOLATED") == worker:
        return
    own = _worker_redis_url(url, worker)
    os.environ["REDIS_URL"] = own
    os.environ["COINLAB_TEST_REDIS_ISOLATED"] = worker
    from django.conf import settings

    if not settings.configured:
        return
    if settings.CACHES["default"].get("LOCATION") == url:
        settings.CACHES["default"]["LOCATION"] = own
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        if getattr(settings, name, None) == url:
            setattr(settings, name, own)
    from coinlab.celery import app

    if app.conf.broker_url == url:
        app.conf.broker_url = own
    if app.conf.result_backend == url:
        app.conf.result_backend = own


_isolate_xdist_worker()
# Sessions that end in a test do not queue their final after-action review (a real worker of a
# later test would build it); tests/reports/test_final_report.py turns it on where it is tested.
os.environ.setdefault("COINLAB_FINAL_AAR", "0")


def _final_aar_setting() -> None:
    from django.conf import settings

    if settings.configured:
        settings.COINLAB_FINAL_AAR = os.environ["COINLAB_FINAL_AAR"] not in ("0", "false", "no", "")


_final_aar_setting()


# ---- the road not taken, once ---------------------------------------------------------------
# Every after-action review build plays "the road not taken" (facilitation/reports/builder/whatif.py)
# for its 5 key decisions with 8 bot games each: about 14 s of CPU of a 20 s build (2026-11-27,
# Peru's 263-event test game), in every report any test builds (tests/reports builds one per
# module, tests/reports/test_report_files.py six, the browser tests' worlds several). Only
# tests/reports/test_whatif.py (whatifs_for with its own counts) and tests/reports/test_reports.py
# (the report of its module's world: AAR_WHATIFS there, at the site's 5 x 8) check what the
# what-ifs find; everywhere else a report needs the section, not its numbers: the tests build
# with one key decision and one game each, so the section is still drawn, translated and served
# (as tests/e2e/test_spanish_pages.py already did). Subprocesses (Celery workers, gunicorn) read
# the same variables.
os.environ.setdefault("COINLAB_AAR_WHATIF_DECISIONS", "1")
os.environ.setdefault("COINLAB_AAR_WHATIF_ROLLOUTS", "1")


def _whatif_settings() -> None:
    from django.conf import settings

    if settings.configured:
        settings.COINLAB_AAR_WHATIF_DECISIONS = int(os.environ["COINLAB_AAR_WHATIF_DECISIONS"])
        settings.COINLAB_AAR_WHATIF_ROLLOUTS = int(os.environ["COINLAB_AAR_WHATIF_ROLLOUTS"])


_whatif_settings()


# ---- password hashes cheap to make ----------------------------------------------------------
# The site hashes passwords with PBKDF2-SHA256 at Django's 1,000,000 iterations: about 0.2 s of
# CPU for every account made with a password and every login (a refused one too), in the test
# process and in the live server it runs. The tests check who may log in, never how long a hash
# takes, so the test process hashes with the same algorithm at 1,000 iterations. A PBKDF2 hash
# names its iteration count ("pbkdf2_sha256$1000$salt$hash"), so the site's own hasher, in a
# gunicorn or Celery subprocess, checks these hashes unchanged (and upgrades one on a login, as it
# would an old hash); what the subprocesses hash keeps the full count.


def _cheap_password_hashes() -> None:
    from django.conf import settings
    from django.contrib.auth import hashers

    if not settings.configured:
        return
    mine = "tests.cheap_hasher.CheapPBKDF2PasswordHasher"
    rest = [h for h in settings.PASSWORD_HASHERS if not h.endswith(".CheapPBKDF2PasswordHasher")]
    settings.PASSWORD_HASHERS = [mine, *rest]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()


_cheap_password_hashes()


# ---- the longest files first ----------------------------------------------------------------
# scripts/test gives each xdist worker whole files (--dist loadfile). By default pytest-xdist
# queues the files with the most tests first, which puts the single-test browser and process
# tests, the longest of all, at the very end: the run then waits minutes for one of them while
# the other worker has nothing left to do. So the files measured slowest go first, the longest
# one first, and scripts/test keeps this order (--no-loadscope-reorder); the short files fill the
# gaps after them, in the usual order. Measured: --durations of full runs on 2026-11-27 (the
# morning's runs, and the lead's baseline at 0486f31, stopped after its first 291 tests, which
# are these files), plus tests/fuzz/test_api_fuzz.py, whose 39 tests all run since node ids are
# unique (_unique_node_ids), and tests/e2e/test_accessibility.py (97 s) and tests/e2e/test_report_csp.py
# (24 s), two of the ten slowest of the clean-clone run of 90ff1e2 that were missing here (one of
# them queued last could keep one worker busy alone for its whole length). Refresh the list from a
# full run's --durations=0 when it no longer matches: benchmarks/suite_balance.py sums it per file and
# simulates the two workers' queues for this order and for a proposed one.
SLOWEST_FILES = (
    "tests/e2e/test_tot_four_teams.py",
    "tests/e2e/test_accessibility.py",
    "tests/e2e/test_page_csp.py",
    "tests/hardening/test_scale_out.py",
    "tests/facilitation/test_embedded.py",
    "tests/fuzz/test_api_fuzz.py",
    "tests/reports/test_report_files.py",
    "tests/engine/tears_of_tyranny/test_tot_hidden_information.py",
    "tests/hardening/test_faults.py",
    "tests/engine/tears_of_tyranny/test_tot_state_machine.py",
    "tests/engine/test_key_order.py",
    "tests/facilitation/test_demo.py",
    "tests/e2e/test_no_outside_requests.py",
    "tests/e2e/test_classroom.py",
    "tests/reports/test_report_csp.py",
    "tests/reports/test_worker_integration.py",
    "tests/e2e/test_report_csp.py",
)


def _unique_node_ids(items) -> None:
    """Give every item a node id of its own, and refuse a run where two items share one.

    pytest-xdist hands tests to its workers by node id: with ``--dist loadfile`` it keeps the
    tests of a file in a dict keyed by node id, so items that share one run once and the others
    are silently dropped (no "deselected", no "skipped": the run just reports fewer passed). Under
    pytest 9 every item of schemathesis's ``schema.parametrize()`` (one per API operation) has the
    node id of the bare function, because pytest builds it from ``originalname``, which
    schemathesis sets to the function's name: the 39 operations of tests/fuzz/test_api_fuzz.py
    were one test under xdist (1,590 of 1,628 items ran). Such an item gets its full name (with the
    operation, e.g. ``test_api_never_answers_a_server_error[GET /api/courses/]``) as its node id.
    """
    from collections import Counter

    for item in items:
        if item.nodeid.rsplit("::", 1)[-1] != item.name:
            # Node.nodeid is str(Node._id), built as pytest builds a parametrized item's id (there
            # is no public setter)
            base, _, params = item.name.partition("[")
            item._id = item.parent.id.child(base).with_params(params.removesuffix("]") if params else None)
    dupes = sorted(nodeid for nodeid, n in Counter(item.nodeid for item in items).items() if n > 1)
    if dupes:
        raise pytest.UsageError(f"{len(dupes)} node ids name more than one test (pytest-xdist would run only "
                                f"one of each): {dupes[:5]}")


_RUN = {}


def pytest_sessionstart(session):
    _RUN["session"] = session


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Count what ran against what was collected, and fail a complete run that lost a test.

    Printed as "tests: N collected, N deselected, N to run, N reported" (benchmarks/suite_runs.sh
    reads it; under xdist the workers deselect, so the controller counts what they kept). A test that is collected but never reported (neither passed, failed, skipped nor
    errored: see _unique_node_ids) turns a green run red instead of shrinking the passed count
    unnoticed. Not checked in an xdist worker, nor with --collect-only, nor when the run stopped
    early (-x, --maxfail, --stepwise, Ctrl-C, an internal error)."""
    session = _RUN.get("session")
    if session is None or hasattr(config, "workerinput") or config.option.collectonly:
        return
    deselected = len(terminalreporter.stats.get("deselected", []))
    expected = session.testscollected  # what is left after deselection (-k, -m, --lf)
    reported = {r.nodeid for key, reps in terminalreporter.stats.items() if key != "deselected"
                for r in reps if isinstance(r, pytest.TestReport)}
    terminalreporter.write_line(f"tests: {expected + deselected} collected, {deselected} deselected, "
                                f"{expected} to run, {len(reported)} reported")
    complete = (exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED) and not config.option.maxfail
                and not session.shouldstop and not session.shouldfail)
    if complete and len(reported) != expected:
        terminalreporter.write_line(f"{expected - len(reported)} collected tests were never run", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_collection_modifyitems(config, items):
    _unique_node_ids(items)
    rank = {path: i for i, path in enumerate(SLOWEST_FILES)}
    # a stable sort: the other files, and the tests of every file, keep their order
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen | None = None, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listening on 127.0.0.1:{port} after {timeout}s")


def stop_process(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=timeout)


# ---- people and games -------------------------------------------------------------------


def make_user(username: str, role: str | None = None):
    from django.contrib.auth import get_user_model

    from facilitation import services

    # No password: API tests authenticate directly (or with tokens), and hashing a
    # password costs ~0.3 s per user.
    u = get_user_model().objects.create_user(username, password=None)
    if role:
        services.user_add_role(user=u, role=role)
    return u


@dataclass
class People:
    instructor: object
    other_instructor: object
    student_a: object
    student_b: object
    reviewer: object

    def get(self, role: str | None):
        return None if role is None else getattr(self, role)


@dataclass
class PeruGame:
    session: object
    course: object
    team_a: object
    team_b: object
    seat_a: str
    seat_b: str
    people: People

    def owner(self, seat: str):
        return self.people.student_a if seat == self.seat_a else self.people.student_b


ROLES = ["instructor", "other_instructor", "student_a", "student_b", "reviewer", None]


@pytest.fixture
def people(db) -> People:
    return make_people()


def make_people() -> People:
    """The ``people`` of a test (also for a module's shared data: tests/fuzz/test_api_fuzz.py)."""
    p = People(instructor=make_user("instructor1", "instructor"),
               other_instructor=make_user("instructor2", "instructor"),
               student_a=make_user("student_a", "student"), student_b=make_user("student_b", "student"),
               reviewer=make_user("reviewer1", "reviewer"))
    from facilitation import services

    services.course_create(user=p.other_instructor, title="Someone else's course")
    return p


def create_peru_game(people: People, *, seed: int = 7, title: str = "Peru lab", start: bool = True,
                     **session_kwargs) -> PeruGame:
    import engine
    from facilitation import services

    rules = engine.load("peru")
    seat_a, seat_b = rules.seat_ids()[:2]
    course = services.course_create(user=people.instructor, title="COIN 101")
    services.course_reviewer_grant(course=course, user=people.instructor, reviewer=people.reviewer)
    session = services.session_create(course=course, user=people.instructor, title=title, scenario_key="peru",
                                      seed=seed, teams=["Team A", "Team B"],
                                      seats={seat_a: "Team A", seat_b: "Team B"}, **session_kwargs)
    team_a, team_b = session.teams.order_by("id")
    services.team_member_add(team=team_a, user=people.instructor, member=people.student_a)
    services.team_member_add(team=team_b, user=people.instructor, member=people.student_b)
    if start:
        session = services.session_start(session=session, user=people.instructor)
    session.refresh_from_db()
    return PeruGame(session=session, course=course, team_a=team_a, team_b=team_b, seat_a=seat_a,
                    seat_b=seat_b, people=people)


@pytest.fixture
def peru_session(people) -> PeruGame:
    return create_peru_game(people)


def play_moves(game: PeruGame, n: int, *, pick: int = 0, rng=None) -> list[int]:
    """The teams make ``n`` decisions through the services (choice index ``pick`` mod the choices,
    or ``rng.choice`` of them when a ``random.Random`` is given)."""
    from facilitation import selectors, services

    seqs = []
    for i in range(n):
        game.session.refresh_from_db()
        if game.session.status != "live":
            break
        rules, state = selectors.session_state(game.session)
        p = rules.prompt(state)
        seat = p.seats[0]
        choices = p.choices_for(seat)
        c = rng.choice(choices) if rng is not None else choices[(pick + i) % len(choices)]
        out = services.choice_submit(session=game.session, user=game.owner(seat), seat=seat, choice=c.id,
                                     seq=game.session.head_seq, rationale=f"move {i}")
        seqs.append(out["seq"])
    game.session.refresh_from_db()
    return seqs


TOT_SEATS = ("liberators", "advisors", "partisans", "comrades")


@dataclass
class TotGame:
    """A started Tears of Tyranny session, one team (of one student) on each of the four seats."""

    session: object
    users: dict  # seat -> the student playing it (password "pw-student-1")
    teacher: object  # its instructor (password "pw-teacher-1")


@pytest.fixture
def tot_four(django_user_model) -> TotGame:
    from django.contrib.auth.models import Group

    from facilitation import services
    from facilitation.models import ROLE_INSTRUCTOR

    teacher = django_user_model.objects.create_user("tot-teacher", password="pw-teacher-1")
    teacher.groups.add(Group.objects.get_or_create(name=ROLE_INSTRUCTOR)[0])
    course = services.course_create(user=teacher, title="IW 3")
    session = services.session_create(course=course, user=teacher, title="ToT four", scenario_key="tears_of_tyranny",
                                      seed=3, teams=[f"T-{s}" for s in TOT_SEATS],
                                      seats={s: f"T-{s}" for s in TOT_SEATS})
    users = {}
    for team in session.teams.all():
        seat = team.name[2:]
        users[seat] = django_user_model.objects.create_user(f"u-{seat}", password="pw-student-1")
        services.team_member_add(team=team, user=teacher, member=users[seat])
    return TotGame(session=services.session_start(session=session, user=teacher), users=users, teacher=teacher)


@pytest.fixture
def tot(tot_four):
    """``tot_four`` as (session, users)."""
    return tot_four.session, tot_four.users


@pytest.fixture
def api_for(people):
    from rest_framework.test import APIClient

    def make(role: str | None):
        client = APIClient()
        user = people.get(role)
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


# ---- real processes -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def kaleido_server():
    """One warm kaleido server (its Chromium) for the whole run, as in a report worker process. A
    report built without it starts a Chromium of its own for its charts and another for its maps'
    pictures; tests that build reports (tests/reports, the browser tests' worlds) share this one."""
    from facilitation.reports import rendering

    rendering.kaleido_start()
    yield
    rendering.kaleido_stop()


@pytest.fixture
def subprocess_env(transactional_db):
    """Environment for a subprocess that must use this test run's database and Redis."""
    from django.db import connection

    env = dict(os.environ)
    s = connection.settings_dict
    if s["ENGINE"].endswith("postgresql"):
        user = s.get("USER") or "postgres"
        pw = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
        host = s.get("HOST") or "127.0.0.1"
        port = s.get("PORT") or 5432
        env["DATABASE_URL"] = f"postgres://{user}{pw}@{host}:{port}/{s['NAME']}"
    else:
        env["DATABASE_URL"] = f"sqlite:///{s['NAME']}"
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env["DJANGO_SETTINGS_MODULE"] = "coinlab.settings"
    env["COINLAB_SECURE_COOKIES"] = "0"
    return env


@pytest.fixture
def start_celery_worker(subprocess_env, tmp_path):
    """``start_celery_worker(concurrency, queues="live", **extra_env)`` -> Popen of a real worker
    (stopped after the test); ``queues``: its ``-Q`` (default: every queue)."""
    procs = []

    def start(concurrency: int = 1, queues: str = "", **extra_env):
        env = {**subprocess_env, **{k: str(v) for k, v in extra_env.items()}}
        if not env.get("REDIS_URL") and not env.get("CELERY_BROKER_URL"):
            raise RuntimeError("a real worker needs REDIS_URL (the test runner sets it)")
        if not procs:
            # the "pace" queue holds the length estimates that browser tests of the scheduling
            # page asked for (facilitation.tasks.pace_games, seconds of bot play each): no test
            # waits for them, and a test's worker must not spend its one process on them
            from coinlab.celery import app as celery_app

            with celery_app.connection_for_write() as conn:
                conn.default_channel.queue_purge("pace")
        log = open(tmp_path / f"celery-{len(procs)}.log", "w")
        proc = subprocess.Popen(
            [str(VENV_BIN / "celery"), "-A", "coinlab", "worker", "--pool=prefork",
             f"--concurrency={concurrency}", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "--loglevel=INFO", "-n", f"test-{os.getpid()}-{len(procs)}@%h", *(["-Q", queues] if queues else [])],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        procs.append((proc, log))
        _wait_worker_ready(tmp_path / f"celery-{len(procs) - 1}.log", proc)
        return proc

    yield start
    for proc, log in procs:
        stop_process(proc)
        log.close()


def _wait_worker_ready(log_path: Path, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"celery worker exited ({proc.returncode}):\n{log_path.read_text()}")
        if "ready." in log_path.read_text():
            return
        time.sleep(0.1)
    raise TimeoutError(f"celery worker not ready after {timeout}s:\n{log_path.read_text()}")


@pytest.fixture
def celery_worker(start_celery_worker):
    """One real Celery worker (prefork, concurrency 1) on the test database and Redis."""
    return start_celery_worker()


@pytest.fixture
def web_processes(subprocess_env, tmp_path):
    """``web_processes(n)`` -> list of base URLs of ``n`` gunicorn processes (stopped after the test);
    ``web_processes(n, server="granian")``: granian processes, as the live-region poll pool runs
    (docs/operations.md)."""
    procs = []

    def start(n: int = 2, threads: int = 4, server: str = "gunicorn") -> list[str]:
        urls = []
        for _ in range(n):
            port = free_port()
            log = open(tmp_path / f"web-{len(procs)}.log", "w")
            if server == "granian":
                cmd = [str(VENV_BIN / "granian"), "--interface", "wsgi", "--host", "127.0.0.1", "--port", str(port),
                       "--workers", "1", "--blocking-threads", str(threads), "--runtime-threads", "1",
                       "--respawn-failed-workers", "coinlab.wsgi:application"]  # as docs/operations.md
            else:
                cmd = [str(VENV_BIN / "gunicorn"), "coinlab.wsgi:application", "--bind", f"127.0.0.1:{port}",
                       "--workers", "1", "--threads", str(threads), "--timeout", "60"]
            proc = subprocess.Popen(cmd, cwd=ROOT, env=subprocess_env, stdout=log, stderr=subprocess.STDOUT)
            procs.append((proc, log))
            urls.append((port, proc))
        out = []
        for port, proc in urls:
            wait_for_port(port, proc)
            out.append(f"http://127.0.0.1:{port}")
        return out

    yield start
    for proc, log in procs:
        stop_process(proc)
        log.close()


@pytest.fixture(autouse=True)
def _english_until_asked():
    """Every test starts in the site's default language. Django's LocaleMiddleware leaves the
    language of the last request active in the thread, so a test that asked for a page in
    Spanish would otherwise make the next test on the same worker render in Spanish."""
    from django.conf import settings
    from django.utils import translation

    if settings.configured:
        translation.activate(settings.LANGUAGE_CODE)
    yield
    if settings.configured:
        translation.deactivate()
