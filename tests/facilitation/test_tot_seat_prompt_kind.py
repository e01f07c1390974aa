"""Tears of Tyranny, simultaneous player window (rulebook 3: "Players execute their actions
simultaneously each phase"): each seat stands at its own step, so the decision log and the play
page carry that seat's own prompt kind and rule (``Prompt.kind_for`` / ``Prompt.rule_for``), not
the first waiting seat's.

Browser finding: the Comrades answering "which deck do you draw from?" (3.A gain capability) were
logged as ``refit`` and read "Rule 3.A-3.D, phase 2" on their page while the Liberators were still
refitting.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from facilitation import selectors, services
from facilitation.models import SessionEvent
from tests.conftest import TOT_SEATS

pytestmark = pytest.mark.django_db

SEATS = TOT_SEATS


def _prompt(session):
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    return state, rules.prompt(state)


def _submit(session, users, seat, choice):
    session.refresh_from_db()
    return services.choice_submit(session=session, user=users[seat], seat=seat, choice=choice, seq=session.head_seq)


def _last_decision(session, seat):
    return SessionEvent.objects.filter(session=session, seat=seat, kind="decision").order_by("-seq").first()


def test_logged_decisions_and_the_page_carry_the_seats_own_kind_and_rule(client, tot):
    session, users = tot
    for seat in SEATS:  # 2.C headquarters
        _state, p = _prompt(session)
        _submit(session, users, seat, p.choices_for(seat)[0].id)
        ev = _last_decision(session, seat)
        assert (ev.payload["prompt_kind"], ev.payload["rule"]) == ("hq", "2.C")
    # rule 3: each seat picks its steps in the order of its choosing (the step menu, kind "steps")
    _state, p = _prompt(session)
    _submit(session, users, "comrades", "step:refit")
    ev = _last_decision(session, "comrades")
    assert (ev.payload["prompt_kind"], ev.payload["rule"]) == ("steps", "3")
    # the Comrades refit with "gain capability" (3.A) while the Liberators have not refitted yet
    _state, p = _prompt(session)
    gain = next(c.id for c in p.choices_for("comrades") if "gain" in c.id)
    _submit(session, users, "comrades", gain)
    ev = _last_decision(session, "comrades")
    assert (ev.payload["prompt_kind"], ev.payload["rule"]) == ("refit", "3.A")
    state, p = _prompt(session)
    assert p.seats[0] == "liberators" and state["frames"]["comrades"][-1]["k"] == "deck"
    # the page: the Comrades read their own rule, the Liberators theirs
    client.force_login(users["comrades"])
    html = client.get(reverse("web:play", args=[session.pk]) + "?seat=comrades").content.decode()
    assert "(rule 3.A)<" in html and "3.A-3.D, phase 2" not in html
    data = selectors.seat_prompt(session, "comrades")
    assert (data["prompt"]["kind"], data["prompt"]["rule"]) == ("deck", "3.A")
    # the "which deck" answer is logged as a deck decision of 3.A, not as the Liberators' refit
    _submit(session, users, "comrades", "deck:major")
    ev = _last_decision(session, "comrades")
    assert ev.payload["prompt_kind"] == "deck" and ev.payload["rule"] == "3.A", ev.payload
    # ... and the keep question after it as "keep"
    state, p = _prompt(session)
    keep = next(c.id for c in p.choices_for("comrades") if c.id.startswith("keep:"))
    _submit(session, users, "comrades", keep)
    ev = _last_decision(session, "comrades")
    assert ev.payload["prompt_kind"] == "keep" and ev.payload["rule"] == "3.A", ev.payload
    # the seat still at the step menu keeps its own kind and rule, then its refit is a 3.A refit
    _state, p = _prompt(session)
    assert p.kind_for("liberators") == "steps" and p.rule_for("liberators") == "3"
    _submit(session, users, "liberators", "step:refit")
    ev = _last_decision(session, "liberators")
    assert (ev.payload["prompt_kind"], ev.payload["rule"]) == ("steps", "3")
    _state, p = _prompt(session)
    _submit(session, users, "liberators", p.choices_for("liberators")[0].id)
    ev = _last_decision(session, "liberators")
    assert (ev.payload["prompt_kind"], ev.payload["rule"]) == ("refit", "3.A")
