"""Schemathesis against the project's own OpenAPI schema (/api/schema/), in process (WSGI).

Every generated case is sent once per role: instructor, another course's instructor,
two students (one per team), a reviewer, and anonymous (token authentication). Path
ids are mapped half of the time onto real objects (the live session, a finished one,
a scheduled one, their course and teams, real seat keys) so the fuzzer gets past 404.
Expected: no 5xx, ever; every API error is JSON ``{"error", "detail"}``.

CI size: ``COINLAB_FUZZ_EXAMPLES`` fuzzed examples per operation (default 6: about 220 cases,
1,330 calls).
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

from tests.conftest import ROLES, create_peru_game, play_moves

EXAMPLES = int(os.environ.get("COINLAB_FUZZ_EXAMPLES", "6"))
# CI: the fuzzing phase only; the long run adds the schema's examples and the coverage phase.
PHASES = os.environ.get("COINLAB_FUZZ_PHASES", "fuzzing").split(",")
COUNTS = os.environ.get("COINLAB_FUZZ_COUNTS", "")  # a file to add this run's figures to
# "all": every case is sent as each of the six roles; "rotate": each case as one role, in turn.
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


@pytest.fixture
def world(people, in_process_requests):
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from facilitation import services

    live = create_peru_game(people, seed=3, title="Fuzz live")
    play_moves(live, 2)
    done = create_peru_game(people, seed=4, title="Fuzz finished")
    play_moves(done, 1)
    services.session_end(session=done.session, user=people.instructor, reason="fuzz")
    sched = create_peru_game(people, seed=5, title="Fuzz scheduled", start=False)
    tokens = {}
    for role in ROLES:
        user = people.get(role)
        tokens[role] = Token.objects.get_or_create(user=user)[0].key if user else None
    get_user_model().objects.create_user("fuzz_target")
    games = [live, done, sched]
    return {
        "tokens": tokens,
        "session_id": [g.session.pk for g in games],
        "course_id": [g.course.pk for g in games],
        "team_id": [t.pk for g in games for t in (g.team_a, g.team_b)],
        "seat_key": [live.seat_a, live.seat_b],
        "username": ["student_a", "student_b", "fuzz_target"],
    }


def _map_ids(case, world) -> None:
    params = case.path_parameters or {}
    for name, value in list(params.items()):
        real = world.get(name)
        if not real:
            continue
        h = value if isinstance(value, int) else sum(map(ord, str(value)))
        if h % 2 == 0:
            params[name] = real[(h // 2) % len(real)]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_never_answers_a_server_error(case, world):
    from django.test import override_settings

    _map_ids(case, world)
    STATS["cases"] += 1
    with override_settings(COINLAB_RATE_LIMITS=False):
        roles = ROLES if ROLE_MODE == "all" else [ROLES[STATS["cases"] % len(ROLES)]]
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
