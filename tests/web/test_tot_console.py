"""Instructor console for Tears of Tyranny (issue #6): in the simultaneous phases each team's row
shows the step that team is at (its own decision kind and rule, Prompt.kind_for/rule_for), or
"done" once the team has closed its part."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from facilitation import selectors, services
from facilitation.rendering.regions import seat_steps
from tests.conftest import TOT_SEATS

pytestmark = pytest.mark.django_db

SEATS = TOT_SEATS


@pytest.fixture
def tot(tot_four):
    return tot_four.session, tot_four.users, tot_four.teacher


def _steps(client, teacher) -> dict[str, str]:
    client.force_login(teacher)
    html = client.get(reverse("web:console")).content.decode()
    return {m.group(1): m.group(2).strip() for m in
            re.finditer(r'<td class="seat-step" data-seat="([a-z_]+)">([^<]*)</td>', html)}


def _first(session, seat):
    rules, state = selectors.session_state(session)
    return rules.prompt(state).choices_for(seat)[0].id


def _submit(session, users, seat, choice):
    session.refresh_from_db()
    services.choice_submit(session=session, user=users[seat], seat=seat, choice=choice, seq=session.head_seq)


def test_console_shows_each_teams_step_and_done(client, tot):
    session, users, teacher = tot
    assert _steps(client, teacher) == {s: "Headquarters (2.C)" for s in SEATS}
    # one team places its HQ: it is done with the set-up, the others still choose
    _submit(session, users, "advisors", _first(session, "advisors"))
    session.refresh_from_db()
    steps = _steps(client, teacher)
    assert steps["advisors"] == "done"
    assert all(steps[s] == "Headquarters (2.C)" for s in SEATS if s != "advisors")
    for s in SEATS:
        if s != "advisors":
            _submit(session, users, s, _first(session, s))
    session.refresh_from_db()
    # turn 1's player window: every team picks its own next step (3); the Partisans may first
    # place a rolled presence (3.A)
    steps = _steps(client, teacher)
    assert set(steps) == set(SEATS)
    assert steps["liberators"] == "Choosing a step (3)"
    # a team that opens its refit is shown at the refit, the others are not moved
    _submit(session, users, "liberators", "step:refit")
    session.refresh_from_db()
    rules, state = selectors.session_state(session)
    p = rules.prompt(state)
    steps = _steps(client, teacher)
    assert steps["liberators"] == "Refit (3.A)"
    assert steps["advisors"] == "Choosing a step (3)"
    for s in SEATS:
        assert steps[s].endswith(f"({p.rule_for(s)})")


def test_seat_steps_uses_each_seats_own_kind_and_rule():
    from engine.core.contract import Choice, Prompt
    ch = [Choice("a", "A", {})]
    p = Prompt(("x", "y"), "t", "3", ch, kind="refit", seat_choices={"x": ch, "y": ch},
               seat_kind={"x": "refit", "y": "force_management"}, seat_rule={"x": "3.A", "y": "3.C"})
    assert seat_steps(p) == {"x": "Refit (3.A)", "y": "Force management (3.C)"}
    single = Prompt(("x",), "t", "3.3", ch, kind="event")
    assert seat_steps(single) == {} and seat_steps(None) == {}
