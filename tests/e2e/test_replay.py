"""Replay autoplay without reloading (issue #19.5): the position advances in place at the chosen
speed, the page keeps its scroll, the address follows the position (a deep link), the jump list
follows the card in play, and the result is shown at the end."""

from __future__ import annotations

import re

import pytest

import engine
from facilitation import services
from facilitation.models import ROLE_INSTRUCTOR
from tests.conftest import make_user

from .conftest import LAPTOP
from .test_accessibility import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_autoplay_advances_in_place_to_the_result(new_context, live_server):
    inst = make_user("ines", ROLE_INSTRUCTOR)
    course = services.course_create(user=inst, title="COIN 101")
    seats = dict(zip(engine.load("peru").seat_ids(), ["A", "B"], strict=True))
    done = services.session_create(course=course, user=inst, title="Finished", scenario_key="peru", seed=3,
                                   teams=["A", "B"], seats=seats)
    services.session_start(session=done, user=inst)
    services.session_autoplay(session=done, user=inst)
    done.refresh_from_db()
    last = done.head_seq
    ctx = new_context(viewport=LAPTOP)
    _login(ctx, inst, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{done.pk}/replay/?seq={last - 4}")
    assert page.locator(".outcome").count() == 0
    page.select_option("#vcr-speed", "2500")
    page.click("#vcr-auto")
    assert page.get_attribute("#vcr-auto", "data-playing") == "true"
    assert "Stop" in page.inner_text("#vcr-auto")
    # the reader scrolls down to the log while it plays (clicking scrolled the button into view)
    page.evaluate("window.__noReload = 1; window.scrollTo(0, 250)")
    y = page.evaluate("window.scrollY")
    assert y == 250
    page.select_option("#vcr-speed", "500")
    page.evaluate("window.scrollTo(0, 250)")
    page.wait_for_function(f"() => document.getElementById('replay-stage').dataset.seq === '{last}'", timeout=15_000)
    assert page.evaluate("window.__noReload") == 1, "the page was reloaded"
    assert page.evaluate("window.scrollY") == y, "the page jumped"
    assert re.search(rf"seq={last}\b", page.url)
    assert page.inner_text("#vcr-pos").endswith(f"{last} of {last}") or str(last) in page.inner_text("#vcr-pos")
    page.wait_for_selector("#vcr-auto[data-playing=false]")
    assert "Autoplay" in page.inner_text("#vcr-auto")
    outcome = page.inner_text(".outcome")
    winner = engine.load("peru").seats[[s.id for s in engine.load("peru").seats].index(done.result["winner"])].title
    assert winner in outcome
    card = page.eval_on_selector("#jump-card", "e => e.value")
    assert card and int(card) <= last
    # a deep link opens that position
    page.goto(f"/sessions/{done.pk}/replay/?seq=2")
    assert page.get_attribute("#replay-stage", "data-seq") == "2"
