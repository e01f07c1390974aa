"""The console's status badges are small readable chips, not large pale circles (issue #19):
measured in Chromium at both screen sizes, with a session title long enough to wrap, for
every status the console shows; a bot's seat says which kind of bot plays it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from facilitation import services
from facilitation.models import ROLE_INSTRUCTOR
from tests.conftest import make_user

from .conftest import LAPTOP, PROJECTOR

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_console_badges_are_compact_chips(new_context, live_server):
    inst = make_user("ines", ROLE_INSTRUCTOR)
    course = services.course_create(user=inst, title="COIN 101")
    long_title = "Period 3, the long Andean Abyss session with four teams and a title that wraps"
    for title, start in ((long_title, True), ("Next week", False)):
        s = services.session_create(course=course, user=inst, title=title, scenario_key="andean_abyss", seed=5,
                                    teams=["Blue"], seats={"govt": "Blue", "farc": "bot:nonplayer",
                                                           "auc": "bot:random", "cartels": "bot:nonplayer"})
        if start:
            services.session_start(session=s, user=inst)
    client = Client()
    client.force_login(inst)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    for viewport in (LAPTOP, PROJECTOR):
        ctx = new_context(viewport=viewport)
        ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}])
        page = ctx.new_page()
        page.goto(f"{live_server.url}/console/")
        badges = page.locator(".console .badge")
        assert badges.count() == 2
        for i in range(badges.count()):
            b = badges.nth(i)
            box = b.bounding_box()
            size = float(b.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
            assert box["height"] <= 2.2 * size, (viewport, box, size)  # one line of text, never stretched
            assert box["width"] > box["height"], (viewport, box)  # a chip, not a circle
            assert b.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
        assert "Non-player (rules section 8)" in page.content() and "random legal moves" in page.content()
        ctx.close()
