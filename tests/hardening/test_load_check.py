"""The load harness's decision check (benchmarks/load/ramp.py ``check_decisions``, issue 20): what
the driver sent and had acknowledged, compared with the event log. The check is what the
multi-node run's "decisions lost 0, applied twice 0" rests on, so it must see a lost decision,
a decision applied without its key, an acknowledgement pointing at another seat's event and a
rejected decision that was applied anyway."""

from __future__ import annotations

import importlib.util
import json
import uuid

import pytest
from django.db import connection

from facilitation import eventlog, selectors, services
from facilitation.models import ClassSession
from tests.conftest import ROOT, create_peru_game

pytestmark = pytest.mark.integration


def _ramp():
    spec = importlib.util.spec_from_file_location("load_ramp", ROOT / "benchmarks" / "load" / "ramp.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _decide(game, key: str) -> dict:
    """One team decision through the services, as the driver's would land; its journal entry."""
    game.session.refresh_from_db()
    rules, state = selectors.session_state(game.session)
    p = rules.prompt(state)
    seat = p.seats[0]
    choice = p.choices_for(seat)[0].id
    seq = game.session.head_seq
    out = services.choice_submit(session=game.session, user=game.owner(seat), seat=seat, choice=choice, seq=seq,
                                 idempotency_key=key)
    return {"session": game.session.pk, "seat": seat, "key": key, "via": "api", "seq": seq, "choice": choice,
            "attempts": [{"t": 0.0, "status": 200, "node": "", "events": out["events"], "replayed": out["replayed"]}]}


def test_decision_check_sees_lost_twice_and_wrong(people, subprocess_env):
    if connection.vendor != "postgresql":
        pytest.fail("the load harness's check reads PostgreSQL")
    check = _ramp().check_decisions
    game = create_peru_game(people, seed=11)
    journal = [_decide(game, uuid.uuid4().hex) for _ in range(3)]
    env = {"DATABASE_URL": subprocess_env["DATABASE_URL"]}

    ok = check(journal, env, None, None)
    assert (ok["sent"], ok["acknowledged"], ok["lost"], ok["applied_twice"], ok["wrong_event"]) == (3, 3, 0, 0, 0), ok

    # acknowledged, but no trace in the log: lost
    lost = [*journal, {**journal[0], "key": uuid.uuid4().hex}]
    assert check(lost, env, None, None)["lost"] == 1

    # a 409 whose key is in the log anyway: rejected but applied
    rejected = [*journal[1:], {**journal[0], "attempts": [{"t": 0.0, "status": 409, "node": ""}]}]
    assert check(rejected, env, None, None)["rejected_but_applied"] == 1

    # a decision in the log with no key of its own (a second application of a sent decision)
    game.session.refresh_from_db()
    rules, state = selectors.session_state(game.session)
    p = rules.prompt(state)
    seat = p.seats[0]
    c = p.choices_for(seat)[0]
    from django.db import transaction

    with transaction.atomic():
        session = ClassSession.objects.select_for_update().get(pk=game.session.pk)
        rules, state = selectors.session_state(session)
        facts = rules.apply_unchecked(state, seat, c.id)
        eventlog.append(session, kind="decision", seat=seat, actor=game.owner(seat), payload={"choice": c.id},
                        facts=facts, metrics={}, state_after=state, rules=rules)
    twice = check(journal, env, None, None)
    assert twice["applied_twice"] == 1 and twice["sessions_events_ne_keys"], twice

    # an acknowledgement naming another seat's or choice's event
    wrong = [*journal[:2], {**journal[2], "choice": "not-" + journal[2]["choice"]}]
    assert check(wrong, env, None, None)["wrong_event"] == 1


def test_the_ramp_table_gives_a_polls_p95_by_answer():
    """The step table splits the polls' p95 into the 304s (nothing new) and the 200s (a region):
    from the driver's result as it is in memory (number keys) and as read back from its JSON file
    (string keys)."""
    ramp = _ramp()
    poll = {"p50_ms": 2.0, "p95_ms": 9.0, "p99_ms": 30.0, "requests": 1100, "errors": 0,
            "by_status": {200: {"requests": 100, "p50_ms": 12.0, "p95_ms": 41.5, "p99_ms": 60.0},
                          304: {"requests": 1000, "p50_ms": 1.5, "p95_ms": 4.25, "p99_ms": 8.0}}}
    step = {"sessions": 40, "teams": 132, "instructors": 10, "duration_s": 45, "kinds": {"poll": poll},
            "games": {"peru": 14, "andean_abyss": 13, "tears_of_tyranny": 13}, "resources": {}, "broken": []}
    for s in (step, json.loads(json.dumps(step))):
        row = ramp.table([s], []).splitlines()[2]
        assert "| 304: 4.2 (1,000); 200: 41.5 (100) |" in row, row
    assert ramp.poll_split({"p95_ms": 1.0}) == "-"
