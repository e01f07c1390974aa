"""Issue 15 item 4 on the platform: the facilitator directs an Andean Abyss Non-player seat to a
specific legal decision instead of its section-8 flowchart's. The direction is a ``facilitator``
event with its reason, replayed from the log (``eventlog.verify``), offered on the console and
through the API; students cannot direct, a direction needs a reason and a legal choice."""

from __future__ import annotations

import pytest

from facilitation import eventlog, selectors, services
from facilitation.errors import Conflict, NotAllowed, ValidationFailed
from facilitation.models import SessionEvent
from tests.aa_game import aa_session, human_moves


def _waiting_nonplayer(session, people):
    """Play until a Non-player has acted, pause and take its move back: its decision waits."""
    for _ in range(40):
        session.refresh_from_db()
        head = SessionEvent.objects.get(session=session, seq=session.head_seq)
        if head.kind == "bot":
            break
        human_moves(session, people, 1)
    else:
        pytest.fail("no Non-player move to take back")
    services.session_pause(session=session, user=people.instructor, reason="class discussion")
    session.refresh_from_db()
    services.facilitator_override(session=session, user=people.instructor, action="undo_last",
                                  reason="Let us choose for the Non-player")
    session.refresh_from_db()
    d = selectors.session_directable(session)
    assert d is not None and d["seat"] in ("auc", "cartels")
    return d


def test_8_facilitator_directs_a_nonplayer_and_the_log_replays_it(people):
    session = aa_session(people, seed=5)
    d = _waiting_nonplayer(session, people)
    ids = [c["id"] for c in d["choices"]]
    choice = "pass" if "pass" in ids else ids[0]
    ev = services.facilitator_direct(session=session, user=people.instructor, seat=d["seat"], choice=choice,
                                     reason="Show what a Pass gives the Cartels")
    assert ev.kind == "facilitator" and ev.seat == d["seat"]
    assert ev.payload["action"] == "direct" and ev.payload["choice"] == choice
    assert ev.payload["reason"] == "Show what a Pass gives the Cartels"
    assert ev.facts[0]["type"] == "directed"
    assert all(f["cause"] == {"kind": "facilitator", "reason": "Show what a Pass gives the Cartels"}
               for f in ev.facts)
    session.refresh_from_db()
    services.session_resume(session=session, user=people.instructor)
    session.refresh_from_db()
    rep = eventlog.verify(session)
    assert rep.ok, rep.errors
    # the state after the direction is the one the log replays to
    rules = eventlog.rules_for(session)
    replayed = eventlog.load_state(session, ev.seq, rules)
    assert eventlog.jsonable(rules.metrics(replayed)) == ev.metrics


def test_8_direction_needs_an_instructor_a_reason_a_legal_choice_and_a_waiting_nonplayer(people):
    session = aa_session(people, seed=5)
    with pytest.raises(Conflict):       # no Non-player decision waits while the teams play
        services.facilitator_direct(session=session, user=people.instructor, seat="auc", choice="pass",
                                    reason="too early")
    d = _waiting_nonplayer(session, people)
    before = session.head_seq
    with pytest.raises(NotAllowed):
        services.facilitator_direct(session=session, user=people.student_a, seat=d["seat"], choice="pass",
                                    reason="students may not")
    with pytest.raises(ValidationFailed):
        services.facilitator_direct(session=session, user=people.instructor, seat=d["seat"], choice="pass",
                                    reason="  ")
    with pytest.raises(ValidationFailed):
        services.facilitator_direct(session=session, user=people.instructor, seat=d["seat"], choice="op:train",
                                    reason="not a legal choice for an Insurgent")
    with pytest.raises(Conflict):
        services.facilitator_direct(session=session, user=people.instructor, seat="govt", choice="pass",
                                    reason="a team's seat")
    session.refresh_from_db()
    assert session.head_seq == before


def test_8_direction_through_the_api(people, api_for):
    session = aa_session(people, seed=5)
    d = _waiting_nonplayer(session, people)
    url = f"/api/sessions/{session.pk}/directions/"
    assert api_for("student_a").get(url).status_code == 403
    got = api_for("instructor").get(url).json()["directable"]
    assert got["seat"] == d["seat"] and got["choices"][0]["kind"]
    r = api_for("instructor").post(url, {"seat": d["seat"], "choice": "nonsense", "reason": "x"}, format="json")
    assert r.status_code == 400
    r = api_for("instructor").post(url, {"seat": d["seat"], "choice": got["choices"][0]["id"]}, format="json")
    assert r.status_code == 400                                   # the reason is required
    r = api_for("instructor").post(url, {"seat": d["seat"], "choice": got["choices"][0]["id"],
                                         "reason": "the class voted"}, format="json")
    assert r.status_code == 201 and r.json()["payload"]["action"] == "direct"


def test_8_console_offers_the_direction_while_paused(people, client):
    session = aa_session(people, seed=5)
    d = _waiting_nonplayer(session, people)
    client.force_login(people.instructor)
    page = client.get(f"/sessions/{session.pk}/manage/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Direct the Non-player" in html and f'value="{d["choices"][0]["id"]}"' in html
    r = client.post(f"/sessions/{session.pk}/control/direct/",
                    {"seat": d["seat"], "choice": d["choices"][0]["id"], "reason": "console test"})
    assert r.status_code in (302, 303)
    assert SessionEvent.objects.filter(session=session, kind="facilitator", payload__action="direct").exists()
