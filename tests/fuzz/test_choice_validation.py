"""Hypothesis: the engines' choice validation, reached through the services and the API,
with arbitrary choice ids, arbitrary and stale seqs, other teams' seats and malformed
bodies. Every game of the platform is tried.

Invariant after every attempt: either the decision was legal (the seat's team acts,
``seq`` is the head, the id is one of the seat's listed choices) and exactly one
decision was appended, or it was refused with a typed error and nothing at all was
stored. The log always replays to the cached state.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from facilitation import eventlog, selectors, services
from facilitation.errors import ServiceError
from facilitation.models import ClassSession, SessionEvent, SubmissionKey
from tests.conftest import make_user

SCENARIOS = ["peru", "andean_abyss", "tears_of_tyranny"]

ids = st.one_of(st.text(max_size=40), st.from_regex(r"[a-z_]{1,12}:[a-z0-9_]{0,12}", fullmatch=True),
                st.sampled_from(["pass", "done", "op:rally", "space:lima", "", " ", "\x00", "../../etc"]))


def _game(scenario: str):
    rules = engine.load(scenario)
    inst = make_user(f"inst-{scenario}", "instructor")
    course = services.course_create(user=inst, title=scenario)
    seats = rules.seat_ids()
    names = [f"T{i}" for i in range(len(seats))]
    session = services.session_create(course=course, user=inst, title=scenario, scenario_key=scenario, seed=11,
                                      teams=names, seats=dict(zip(seats, names, strict=True)))
    owners = {}
    for team, seat in zip(session.teams.order_by("id"), seats, strict=True):
        u = make_user(f"{scenario}-{seat}", "student")
        services.team_member_add(team=team, user=inst, member=u)
        owners[seat] = u
    services.session_start(session=session, user=inst)
    return session, owners


@pytest.mark.parametrize("scenario", SCENARIOS)
@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_submissions_are_applied_exactly_when_legal(scenario, data, db):
    key = f"game-{scenario}"
    cache = test_submissions_are_applied_exactly_when_legal.__dict__.setdefault("games", {})
    if key not in cache or not ClassSession.objects.filter(pk=cache[key][0].pk).exists():
        cache[key] = _game(scenario)
    session, owners = cache[key]
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    p = rules.prompt(state)
    acting = set(p.seats) if p else set()
    # The same draws whatever the game's position (Hypothesis needs a fixed shape); indices are
    # taken modulo the lists of the moment.
    seats = sorted(owners)
    seat = seats[data.draw(st.integers(0, 99), label="seat") % len(seats)]
    users = [owners[seat], *owners.values()]
    user = users[data.draw(st.integers(0, 99), label="user") % len(users)]
    legal = [c.id for c in p.choices_for(seat)] if p and seat in acting else []
    others = [c.id for s in acting for c in p.choices_for(s)] if p else []
    kind = data.draw(st.integers(0, 2), label="kind")
    pick = data.draw(st.integers(0, 10**6), label="pick")
    arbitrary = data.draw(ids, label="arbitrary id")
    pool = legal if kind == 1 else others if kind == 2 else []
    choice = pool[pick % len(pool)] if pool else arbitrary
    head = session.head_seq
    offset = data.draw(st.one_of(st.just(0), st.integers(-3, 3), st.integers()), label="seq offset")
    seq = head + offset if abs(offset) < 10 else offset
    events_before = SessionEvent.objects.filter(session=session).count()
    keys_before = SubmissionKey.objects.filter(session=session).count()
    should_apply = (user == owners[seat] and seat in acting and seq == head and choice in legal
                    and session.status == ClassSession.Status.LIVE)
    try:
        out = services.choice_submit(session=session, user=user, seat=seat, choice=choice, seq=seq,
                                     idempotency_key=data.draw(st.sampled_from(["", "k"]), label="key") + str(head))
    except ServiceError as exc:
        assert not should_apply, f"a legal decision was refused: {exc.code} {exc.message}"
        assert exc.status in (400, 403, 404, 409), exc.status
        session.refresh_from_db()
        assert session.head_seq == head
        assert SessionEvent.objects.filter(session=session).count() == events_before
        assert SubmissionKey.objects.filter(session=session).count() == keys_before
    else:
        assert should_apply or out.get("replayed"), f"an illegal decision was applied: {seat} {choice!r} {seq}"
        if not out.get("replayed"):
            ev = SessionEvent.objects.get(session=session, seq=head + 1)
            assert ev.kind == "decision" and ev.seat == seat and ev.payload["choice"] == choice
    if data.draw(st.integers(0, 9), label="verify") == 0:
        assert eventlog.verify(ClassSession.objects.get(pk=session.pk)).ok


json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                                     st.text(max_size=20)),
                           lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                   st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                           max_leaves=6)


@settings(max_examples=50, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(json_values, st.fixed_dictionaries(
    {}, optional={"choice": json_values, "seq": json_values, "idempotency_key": json_values,
                  "rationale": json_values, "decision_ms": json_values})))
def test_submit_api_refuses_malformed_bodies_and_stores_nothing(peru_session, api_for, body):
    game = peru_session
    session = ClassSession.objects.get(pk=game.session.pk)
    head = session.head_seq
    rules, state = selectors.session_state(session)
    p = rules.prompt(state)
    seat = p.seats[0]
    client = api_for("student_a" if seat == game.seat_a else "student_b")
    resp = client.post(f"/api/sessions/{session.pk}/seats/{seat}/submit/", body, format="json")
    legal = {c.id for c in p.choices_for(seat)}
    ok = (isinstance(body, dict) and isinstance(body.get("choice"), str) and body["choice"] in legal
          and type(body.get("seq")) is int
          and body.get("seq") == head)
    if resp.status_code == 200:
        assert ok or resp.json().get("replayed"), body
    else:
        assert resp.status_code in (400, 409, 415), (resp.status_code, resp.content[:300])
        err = resp.json()
        assert err["error"] and err["detail"]
        assert ClassSession.objects.get(pk=session.pk).head_seq == head
