"""Schemathesis against the project's own OpenAPI schema (/api/schema/), in process (WSGI).

Targets: a live, a finished and a scheduled session of each game (Peru with two teams, Andean
Abyss with two teams and Non-player AUC and Cartels seats, Tears of Tyranny with four teams),
each in its own course. Every generated case is sent once per role (or, with
``COINLAB_FUZZ_ROLES=rotate``, as one role in turn): the courses' instructor, another course's
instructor, a student on each team (``student_a``/``student_b``: the first two teams of every
game, ``student_c``/``student_d``: the other two Tears of Tyranny teams), the courses' reviewer,
and anonymous (token authentication). Path ids are mapped half of the time onto real objects
(those nine sessions, their courses and teams, users; a seat key then mostly names a seat of
the chosen session) so the fuzzer gets past 404.
Expected: no 5xx, ever; every API error is JSON ``{"error", "detail"}``.

CI size: ``COINLAB_FUZZ_EXAMPLES`` fuzzed examples per operation (default 6: about 220 cases,
each as the eight roles).
The long run is ``benchmarks/fuzz_api.py`` (>= 5,000 cases; figures in docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from tests.conftest import create_peru_game, make_people, make_user

EXAMPLES = int(os.environ.get("COINLAB_FUZZ_EXAMPLES", "6"))
# CI: the fuzzing phase only; the long run adds the schema's examples and the coverage phase.
PHASES = os.environ.get("COINLAB_FUZZ_PHASES", "fuzzing").split(",")
COUNTS = os.environ.get("COINLAB_FUZZ_COUNTS", "")  # a file to add this run's figures to
# "all": every case is sent as each of the eight roles; "rotate": each case as one role, in turn.
ROLE_MODE = os.environ.get("COINLAB_FUZZ_ROLES", "all")

CONFIG = SchemathesisConfig.from_dict({"phases": {
    name: {"enabled": name in PHASES} for name in ("examples", "coverage", "fuzzing", "stateful")}})
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=CONFIG)

pytestmark = pytest.mark.django_db(transaction=False)

STATS = {"cases": 0, "calls": 0, "server_errors": 0, "by_status": {}}


@pytest.fixture
def in_process_requests():
    """Requests through the WSGI handler keep the test's database connection (as Django's test client does)."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


# The six roles of tests.conftest plus a student on each of the two other Tears of Tyranny teams.
FUZZ_ROLES = ["instructor", "other_instructor", "student_a", "student_b", "student_c", "student_d", "reviewer",
              None]
TOT_SEATS = ("liberators", "advisors", "partisans", "comrades")


def _create_game(people, extra, scenario, *, seed, title, start=True):
    """A session of ``scenario`` in its own course (reviewer granted): Peru with two teams, Andean
    Abyss with two teams and Non-player AUC and Cartels, Tears of Tyranny with four teams.
    Returns (session, {seat: owner})."""
    from facilitation import services

    if scenario == "peru":
        g = create_peru_game(people, seed=seed, title=title, start=start)
        return g.session, {g.seat_a: people.student_a, g.seat_b: people.student_b}
    course = services.course_create(user=people.instructor, title=f"{scenario} course")
    services.course_reviewer_grant(course=course, user=people.instructor, reviewer=people.reviewer)
    if scenario == "andean_abyss":
        seats, options = {"govt": "Team A", "farc": "Team B"}, {"players": 2, "spare": "nonplayer"}
        members = [people.student_a, people.student_b]
    else:
        seats, options = {s: f"Team {s}" for s in TOT_SEATS}, {}
        members = [people.student_a, people.student_b, extra["student_c"], extra["student_d"]]
    teams = list(dict.fromkeys(seats.values()))
    session = services.session_create(course=course, user=people.instructor, title=title, scenario_key=scenario,
                                      seed=seed, options=options, teams=teams, seats=seats)
    by_name = {t.name: t for t in session.teams.all()}
    owners = {}
    for (seat, team), member in zip(seats.items(), members, strict=True):
        services.team_member_add(team=by_name[team], user=people.instructor, member=member)
        owners[seat] = member
    if start:
        session = services.session_start(session=session, user=people.instructor)
    session.refresh_from_db()
    return session, owners


def _decide(session, owners, n):
    """The human seats make ``n`` decisions through the services (pass/done when offered, else the first)."""
    from facilitation import selectors, services

    for _ in range(n):
        session.refresh_from_db()
        if session.status != "live":
            return
        rules, state = selectors.session_state(session)
        p = rules.prompt(state)
        seat = next((s for s in (p.seats if p else ()) if s in owners), None)
        if seat is None:
            return
        ids = [c.id for c in p.choices_for(seat)]
        cid = "pass" if "pass" in ids else ("done" if "done" in ids else ids[0])
        services.choice_submit(session=session, user=owners[seat], seat=seat, choice=cid, seq=session.head_seq,
                               rationale="fuzz")


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker):
    """The world, built once for the module's tests (one per API operation) instead of once per test.

    It is built inside a transaction that stays open for the whole module and is rolled back at its
    end: each test's own transaction (pytest-django's, ``transaction=False``) is a savepoint inside
    it, so whatever a fuzzed request changes is undone after that test, as before, and no test sees
    another's changes. (pytest-django leaves the connection open between such tests for this.)
    """
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            data = _build_world()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    yield data
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture
def world(shared_world, in_process_requests):
    """The module's world, with an empty cache: the session versions and access lists cached in Redis
    by an earlier test's requests belong to rows its rollback undid (this worker's own Redis database)."""
    from django.core.cache import cache

    cache.clear()
    return shared_world


def _build_world():
    """Live, finished and scheduled sessions of each of the three games, and a token per role."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from facilitation import services

    people = make_people()
    extra = {name: make_user(name, "student") for name in ("student_c", "student_d")}
    sessions = []  # (session, its seat keys)
    for i, scenario in enumerate(("peru", "andean_abyss", "tears_of_tyranny")):
        live, owners = _create_game(people, extra, scenario, seed=3 + i, title=f"Fuzz live {scenario}")
        _decide(live, owners, 2)
        done, done_owners = _create_game(people, extra, scenario, seed=13 + i, title=f"Fuzz finished {scenario}")
        _decide(done, done_owners, 1)
        services.session_end(session=done, user=people.instructor, reason="fuzz")
        sched, _ = _create_game(people, extra, scenario, seed=23 + i, title=f"Fuzz scheduled {scenario}",
                                start=False)
        for s in (live, done, sched):
            s.refresh_from_db()
            sessions.append((s, sorted(s.seats.values_list("seat_key", flat=True))))
    assert [s.status for s, _ in sessions] == ["live", "finished", "scheduled"] * 3
    tokens = {}
    for role in FUZZ_ROLES:
        user = extra.get(role) or people.get(role)
        tokens[role] = Token.objects.get_or_create(user=user)[0].key if user else None
    get_user_model().objects.create_user("fuzz_target")
    return {
        "tokens": tokens,
        "sessions": sessions,
        "session_id": [s.pk for s, _ in sessions],
        "course_id": sorted({s.course_id for s, _ in sessions}),
        "team_id": [t.pk for s, _ in sessions for t in s.teams.order_by("id")],
        "seat_key": sorted({k for _, keys in sessions for k in keys}),
        "username": ["student_a", "student_b", "student_c", "student_d", "fuzz_target"],
    }


def _map_ids(case, world) -> None:
    """Half of the time a path id becomes a real one; a seat key then mostly belongs to that session."""
    params = case.path_parameters or {}
    session_seats = None
    for name, value in list(params.items()):
        real = world.get(name)
        if not real:
            continue
        h = value if isinstance(value, int) else sum(map(ord, str(value)))
        if h % 2 == 0:
            params[name] = real[(h // 2) % len(real)]
            if name == "session_id":
                session_seats = world["sessions"][(h // 2) % len(real)][1]
    if session_seats and "seat_key" in params:
        h = sum(map(ord, str(params["seat_key"])))
        if h % 4 != 3:
            params["seat_key"] = session_seats[h % len(session_seats)]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_never_answers_a_server_error(case, world):
    from django.test import override_settings

    _map_ids(case, world)
    STATS["cases"] += 1
    with override_settings(COINLAB_RATE_LIMITS=False):
        roles = FUZZ_ROLES if ROLE_MODE == "all" else [FUZZ_ROLES[STATS["cases"] % len(FUZZ_ROLES)]]
        for role in roles:
            token = world["tokens"][role]
            headers = {"Authorization": f"Token {token}"} if token else {}
            resp = case.call(headers=headers)
            STATS["calls"] += 1
            STATS["by_status"][resp.status_code] = STATS["by_status"].get(resp.status_code, 0) + 1
            if resp.status_code >= 500:
                STATS["server_errors"] += 1
            assert resp.status_code < 500, (role, case.method, case.formatted_path, case.path_parameters,
                                            case.query, case.body, resp.text[:500])
            if resp.status_code >= 400 and "json" in (resp.headers.get("Content-Type") or [""])[0]:
                body = resp.json()
                assert "error" in body and "detail" in body, (role, case.method, case.formatted_path, body)


def teardown_module(module):
    if COUNTS:
        p = Path(COUNTS)
        old = json.loads(p.read_text()) if p.exists() else {"cases": 0, "calls": 0, "server_errors": 0,
                                                           "by_status": {}}
        for k in ("cases", "calls", "server_errors"):
            old[k] += STATS[k]
        for code, n in STATS["by_status"].items():
            old["by_status"][str(code)] = old["by_status"].get(str(code), 0) + n
        p.write_text(json.dumps(old, indent=1))
