"""The play page fits a class's screens (issue #19 deliver 2): at laptop (1366x768) and projector
(1920x1080) sizes, the prompt, the rationale box, the choices with the step's "done" always in
sight, and the latest events are all on the first screen, without scrolling; the rationale box
comes before the choices in the tab order and a missing required rationale is marked and focused."""

from __future__ import annotations

import pytest

from facilitation import selectors, services
from tests.conftest import People, create_peru_game, make_user

from .conftest import LAPTOP, PROJECTOR
from .test_accessibility import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _rally_spaces(game):
    """Shining Path at its Rally's space choices: a long list ending with "done"."""
    sp, user = game.seat_b, game.people.student_b
    for cid in ("swap:junin", "box:op_sa", "op:rally", "space:loreto", "rally:1"):
        game.session.refresh_from_db()
        rules, state = selectors.session_state(game.session)
        p = rules.prompt(state)
        if sp not in p.seats:
            break
        services.choice_submit(session=game.session, user=user, seat=sp, choice=cid, seq=game.session.head_seq,
                               rationale="Setting the scene.")
    game.session.refresh_from_db()
    rules, state = selectors.session_state(game.session)
    ids = [c.id for c in rules.prompt(state).choices_for(sp)]
    assert len(ids) >= 8 and ids[-1] == "done", ids
    return game


def _in_view(page, selector: str) -> bool:
    return page.eval_on_selector(selector, """e => { const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.width > 0; }""")


@pytest.mark.parametrize("viewport", [LAPTOP, PROJECTOR], ids=["laptop", "projector"])
def test_the_decision_and_the_latest_events_fit_the_first_screen(new_context, live_server, viewport, shoot):
    people = People(instructor=make_user("ines", "instructor"), other_instructor=make_user("otto", "instructor"),
                    student_a=make_user("alma", "student"), student_b=make_user("beto", "student"),
                    reviewer=make_user("rafa", "reviewer"))
    game = _rally_spaces(create_peru_game(people, require_rationale=True))
    ctx = new_context(viewport=viewport)
    _login(ctx, people.student_b, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{game.session.pk}/play/")
    page.wait_for_selector("[data-turn-cue=yours]")
    assert page.evaluate("window.scrollY") == 0
    shoot(page, f"layout-peru-rally-{viewport['width']}")
    for sel in ("#prompt-h", "#id_rationale", ".choices li:first-child button", ".choices li.choice-end button"):
        assert _in_view(page, sel), f"{sel} is not on the first screen at {viewport}"
    # the latest event starts on the first screen (at least its first line)
    top = page.eval_on_selector(".play-side .log li:first-child", "e => e.getBoundingClientRect().top")
    assert top + 24 <= viewport["height"], f"the latest event starts at {top}px, below the first screen"
    # the rationale box comes before the choices in the tab order
    order = page.evaluate("""() => { const els = [...document.querySelectorAll('textarea, button, a[href], select, input:not([type=hidden])')];
        return [els.indexOf(document.getElementById('id_rationale')), els.indexOf(document.querySelector('.choices button'))]; }""")
    assert 0 <= order[0] < order[1]
    # a required rationale left empty: nothing is sent, the box is marked invalid and focused
    seq_before = game.session.head_seq
    page.click(".choices li:first-child button")
    page.wait_for_selector("#id_rationale[aria-invalid=true]")
    assert page.evaluate("document.activeElement.id") == "id_rationale"
    assert page.is_visible("#rationale-err")
    game.session.refresh_from_db()
    assert game.session.head_seq == seq_before
    page.fill("#id_rationale", "Grow where the Government is thin.")
    with page.expect_response(lambda r: "/play/choose/" in r.url) as resp:
        page.click(".choices li:first-child button")
    assert resp.value.status == 200
    game.session.refresh_from_db()
    assert game.session.head_seq > seq_before
    assert game.session.events.get(seq=seq_before + 1).rationale == "Grow where the Government is thin."
