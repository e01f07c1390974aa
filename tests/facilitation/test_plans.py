"""A seat's whole player-window plan as one decision (issue 16.7; facilitation/plans.py).

Tears of Tyranny, rule 3: in the player window (phases 1-2) each player refits (3.A), gains
resources (3.B), manages forces (3.C) and selects capabilities (3.D) in the order of its choosing.
A plan submits those steps together: logged as ONE decision (its choice ids in the payload),
replayed with ``engine.core.plan.apply_plan`` (``verify``), undone as one, refused whole with a
400 naming the failing step, never applied twice, and never past a card drawn (the draw is a
plan's last step; what it drew stays the seat's own).
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from engine.core.plan import draft_plan
from facilitation import eventlog, plans, selectors, services
from facilitation.errors import Conflict, ValidationFailed
from facilitation.models import SessionEvent
from tests.conftest import TOT_SEATS

pytestmark = pytest.mark.django_db

SEAT = "liberators"


def _now(session):
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    return rules, state


def _past_headquarters(session, users):
    """2.C: every seat places its headquarters (single decisions; plans are not offered there)."""
    for seat in TOT_SEATS:
        rules, state = _now(session)
        p = rules.prompt(state)
        services.choice_submit(session=session, user=users[seat], seat=seat, choice=p.choices_for(seat)[0].id,
                               seq=session.head_seq)
    rules, state = _now(session)
    assert state["phase"] == "window" and rules.plan_phase(state) == "t1:window"
    return rules, state


def _quiet_plan(rules, state, seat=SEAT, steps=5):
    """The first ``steps`` steps of a window that draw no card (no gain capability): refit, its
    options, resources; undoable like any decision of the seat's own turn."""
    def choose(_s, p):
        return next(c.id for c in p.choices_for(seat) if not any(w in c.id for w in ("gain", "reclaim", "deck:")))

    n = []
    return draft_plan(rules, state, seat, choose, stop=lambda *_: (n.append(1), len(n) >= steps)[1])


def _events(session):
    return SessionEvent.objects.filter(session=session).count()


def test_a_plan_is_logged_as_one_decision_and_replays(tot):
    session, users = tot
    rules, before = _past_headquarters(session, users)
    ids = _quiet_plan(rules, before)
    assert len(ids) >= 3 and ids[0] == "step:refit"
    n = _events(session)
    out = plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=ids, seq=session.head_seq,
                            rationale="refit first, then resources")
    assert out["replayed"] is False and out["steps"] == len(ids) and out["events"] == [n + 1]
    ev = SessionEvent.objects.get(session=session, seq=out["events"][0])
    assert ev.kind == "decision" and ev.seat == SEAT and ev.payload["plan"] == ids
    assert ev.payload["prompt_kind"] == "plan" and len(ev.payload["steps"]) == len(ids)
    assert ev.rationale == "refit first, then resources"
    # the same state as the steps clicked one by one (rule 3: the same decisions, fewer submissions)
    stepwise = rules.copy(before)
    for cid in ids:
        rules.apply_inplace(stepwise, SEAT, cid)
    _rules, after = _now(session)
    assert eventlog.jsonable(rules.serialize(after)) == eventlog.jsonable(rules.serialize(stepwise))
    rep = eventlog.verify(session)
    assert rep.ok, rep.errors


def test_an_illegal_step_refuses_the_whole_plan_and_changes_nothing(tot, client):
    session, users = tot
    rules, before = _past_headquarters(session, users)
    ids = _quiet_plan(rules, before)
    head, n, state = session.head_seq, _events(session), session.state
    with pytest.raises(ValidationFailed) as e:
        plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=ids[:2] + ["recruit:nowhere"] + ids[2:],
                          seq=session.head_seq, idempotency_key="k-bad")
    assert e.value.code == "illegal_plan" and e.value.extra["step"] == 3
    assert "Step 3 of the plan" in e.value.message and "recruit:nowhere" in e.value.message
    session.refresh_from_db()
    assert (session.head_seq, _events(session), session.state) == (head, n, state)
    # the key of a refused request is not spent: the corrected plan goes through with it
    out = plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=ids, seq=session.head_seq,
                            idempotency_key="k-bad")
    assert out["replayed"] is False


def test_undo_takes_the_whole_plan_back(tot):
    session, users = tot
    rules, before = _past_headquarters(session, users)
    ids = _quiet_plan(rules, before)
    out = plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=ids, seq=session.head_seq)
    session.refresh_from_db()
    undone = services.choice_undo(session=session, user=users[SEAT], seat=SEAT, seq=session.head_seq)
    assert undone["undone"] == out["events"][0]
    _rules, back = _now(session)
    assert eventlog.jsonable(rules.serialize(back)) == eventlog.jsonable(rules.serialize(before))
    undo = SessionEvent.objects.get(session=session, seq=undone["seq"])
    assert undo.payload["choice"] == ids[0] and undo.payload["undone_seq"] == out["events"][0]
    rep = eventlog.verify(session)
    assert rep.ok, rep.errors
    # nothing more of the seat's to undo in this turn: the plan went back whole, not step by step
    with pytest.raises(Conflict):
        services.choice_undo(session=session, user=users[SEAT], seat=SEAT, seq=session.head_seq)


def test_a_repeated_submission_is_applied_once(tot):
    session, users = tot
    rules, before = _past_headquarters(session, users)
    ids = _quiet_plan(rules, before)
    seq = session.head_seq
    first = plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=ids, seq=seq, idempotency_key="p-1")
    n = _events(session)
    again = plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=ids, seq=seq, idempotency_key="p-1")
    assert again["replayed"] is True and again["events"] == first["events"] and _events(session) == n
    # the same key for another request is refused; without a key the old seq is stale
    with pytest.raises(Conflict) as e:
        plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=ids[:2], seq=seq, idempotency_key="p-1")
    assert e.value.code == "idempotency_key_reused"
    with pytest.raises(Conflict) as e:
        plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=ids, seq=seq)
    assert e.value.code == "stale_seq" and _events(session) == n
    assert SessionEvent.objects.filter(session=session, kind="decision", seat=SEAT).count() == 2  # hq + plan


def test_plans_are_offered_in_the_window_only_and_to_the_seats_own_team(tot):
    session, users = tot
    with pytest.raises(Conflict) as e:  # 2.C headquarters: one question, no plan
        plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=["skip"], seq=session.head_seq)
    assert e.value.code == "plans_not_offered"
    assert selectors.seat_prompt(session, SEAT)["plan"] is False
    rules, before = _past_headquarters(session, users)
    assert selectors.seat_prompt(session, SEAT)["plan"] is True
    with pytest.raises(Exception) as e:
        plans.plan_submit(session=session, user=users["advisors"], seat=SEAT, plan=_quiet_plan(rules, before),
                          seq=session.head_seq)
    assert getattr(e.value, "status", None) == 403
    for bad in ([], "step:refit", [1], ["x" * 2000]):
        with pytest.raises(ValidationFailed):
            plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=bad, seq=session.head_seq)


def _draw_plan(rules, state):
    """Refit with "gain capability" (3.A): the plan ends at the deck drawn (a card revealed)."""
    p = rules.prompt(state)
    assert "step:refit" in [c.id for c in p.choices_for(SEAT)]
    draft = rules.copy(state)
    rules.apply_inplace(draft, SEAT, "step:refit")
    gain = next(c.id for c in rules.prompt(draft).choices_for(SEAT) if c.id == "refit:gain")
    rules.apply_inplace(draft, SEAT, gain)
    deck = next(c.id for c in rules.prompt(draft).choices_for(SEAT) if c.id.startswith("deck:"))
    facts = rules.apply_inplace(draft, SEAT, deck)
    assert any(f.get("barrier") for f in facts)
    return ["step:refit", gain, deck], draft


def test_a_plan_ends_at_the_card_drawn_and_keeps_the_draw_secret(tot):
    session, users = tot
    rules, before = _past_headquarters(session, users)
    ids, drawn_state = _draw_plan(rules, before)
    drawn = drawn_state["frames"][SEAT][-1]["drawn"]
    keep = f"keep:{drawn[0]}"
    with pytest.raises(ValidationFailed) as e:  # deciding what to keep before seeing the cards
        plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=[*ids, keep], seq=session.head_seq)
    assert e.value.code == "illegal_plan" and e.value.extra["step"] == 3
    # the draft stops there and shows nothing of what the draw revealed
    draft = plans.plan_draft(session=session, user=users[SEAT], seat=SEAT, steps=ids)
    assert draft["complete"] and draft["why"] == "revealed" and draft["prompt"] is None
    assert not any(c in json.dumps(draft) for c in drawn)
    out = plans.plan_submit(session=session, user=users[SEAT], seat=SEAT, plan=ids, seq=session.head_seq)
    ev = SessionEvent.objects.get(session=session, seq=out["events"][0])
    assert any(c in json.dumps(ev.facts) for c in drawn)  # the full record holds the draw
    for other in TOT_SEATS[1:]:
        seen = [e for e in selectors.session_events(session, seat_key=other) if e["seq"] == ev.seq][0]
        assert "plan" not in seen["payload"] and not any(c in json.dumps(seen) for c in drawn), other
    session.refresh_from_db()
    rep = eventlog.verify(session)
    assert rep.ok, rep.errors


def test_the_draft_asks_the_next_step_on_a_copy(tot):
    session, users = tot
    rules, before = _past_headquarters(session, users)
    head, n = session.head_seq, _events(session)
    d0 = plans.plan_draft(session=session, user=users[SEAT], seat=SEAT, steps=[])
    assert d0["steps"] == [] and "step:refit" in [c["id"] for c in d0["prompt"]["choices"]]
    d1 = plans.plan_draft(session=session, user=users[SEAT], seat=SEAT, steps=["step:refit"])
    assert [s["id"] for s in d1["steps"]] == ["step:refit"] and d1["prompt"]["kind"] == "refit"
    with pytest.raises(ValidationFailed) as e:
        plans.plan_draft(session=session, user=users[SEAT], seat=SEAT, steps=["step:refit", "step:refit"])
    assert e.value.extra["step"] == 2
    session.refresh_from_db()
    assert (session.head_seq, _events(session)) == (head, n)


def test_the_api_submits_drafts_and_refuses_plans(tot, client):
    session, users = tot
    rules, before = _past_headquarters(session, users)
    ids = _quiet_plan(rules, before)
    client.force_login(users[SEAT])
    base = f"/api/sessions/{session.pk}/seats/{SEAT}/"
    r = client.post(base + "plan/draft/", {"steps": ids[:1]}, content_type="application/json")
    assert r.status_code == 200 and r.json()["prompt"]["kind"] == "refit"
    r = client.post(base + "plan/", {"plan": [ids[0], "nope"], "seq": session.head_seq},
                    content_type="application/json")
    assert r.status_code == 400 and r.json()["error"] == "illegal_plan" and r.json()["step"] == 2
    assert "Step 2" in r.json()["detail"]
    r = client.post(base + "plan/", {"plan": ids, "seq": session.head_seq, "rationale": "why"},
                    content_type="application/json", HTTP_IDEMPOTENCY_KEY="api-1")
    assert r.status_code == 200 and r.json()["replayed"] is False
    r2 = client.post(base + "plan/", {"plan": ids, "seq": 0}, content_type="application/json",
                     HTTP_IDEMPOTENCY_KEY="api-2")
    assert r2.status_code == 409 and r2.json()["error"] == "stale_seq"
    # another team's seat: 403, nothing stored
    client.force_login(users["advisors"])
    n = _events(session)
    r = client.post(base + "plan/", {"plan": ids, "seq": session.head_seq}, content_type="application/json")
    assert r.status_code == 403 and _events(session) == n
    # Spanish: the refusal names the step in the reader's language
    client.force_login(users[SEAT])
    session.refresh_from_db()
    r = client.post(base + "plan/", {"plan": ["nope"], "seq": session.head_seq}, content_type="application/json",
                    HTTP_ACCEPT_LANGUAGE="es")
    assert r.status_code == 400 and "El paso 1 del plan" in r.json()["detail"]
    assert reverse("api-seat-plan", args=[session.pk, SEAT]) == base + "plan/"
