"""A poll that left before a decision and answers after the decision's own answer must not put
the previous position back on the page (play.js drops it). Seen as a flaky browser test: the
page showed the old question for a moment, and a click on one of its choices found nothing."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import Group

from facilitation import services
from facilitation.models import ROLE_INSTRUCTOR

from .test_classroom import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _seq(page) -> int:
    return int(page.locator("[data-seq]").get_attribute("data-seq"))


def test_a_poll_answer_older_than_the_decisions_answer_is_dropped(new_context, live_server, django_user_model):
    teacher = django_user_model.objects.create_user("teacher", password="teach-pass-1")
    teacher.groups.add(Group.objects.get_or_create(name=ROLE_INSTRUCTOR)[0])
    course = services.course_create(user=teacher, title="COIN 101")
    session = services.session_create(course=course, user=teacher, title="Race", scenario_key="peru", seed=7,
                                      teams=["Andes", "Sierra"], options={},
                                      seats={"government": "Andes", "shining_path": "Sierra"})
    for name, team in (("ana", "Andes"), ("bruno", "Sierra")):
        student = django_user_model.objects.create_user(name, password=f"{name}-secret-9")
        services.team_member_add(team=session.teams.get(name=team), user=teacher, member=student)
    services.session_start(session=session, user=teacher)

    page = new_context().new_page()
    login(page, "bruno", "bruno-secret-9")
    page.goto(f"/sessions/{session.pk}/play/?seat=shining_path")
    page.wait_for_selector("[data-turn-cue=yours]")
    before = _seq(page)

    held = []

    def hold(route):
        """Keep the next poll's answer: the page's current (old) region, asked without its ETag
        so that it comes back as a 200 with the whole region."""
        if held:
            route.continue_()
            return
        headers = {k: v for k, v in route.request.headers.items() if k.lower() != "if-none-match"}
        held.append((route, route.fetch(headers=headers)))

    page.route("**/play/live/**", hold)
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(100)  # the page polls every 1.5 s
    assert held, "the page did not poll"

    cid = page.locator(".choices button").first.get_attribute("data-choice")
    with page.expect_response(lambda r: "/play/choose/" in r.url) as resp:
        page.click(f".choices button[data-choice='{cid}']")
    assert resp.value.status == 200
    page.locator(f"[data-seq]:not([data-seq='{before}'])").wait_for(state="attached")
    after = _seq(page)
    assert after > before

    route, old = held[0]
    assert old.status == 200 and f'data-seq="{before}"' in old.text()
    route.fulfill(response=old)  # the old answer arrives now, after the decision's
    page.wait_for_timeout(700)
    assert _seq(page) == after, "an older poll answer replaced the decision's newer region"
    assert page.evaluate("window.__coinlabStalePolls") == 1


def test_a_decisions_answer_overtaken_by_a_newer_poll_is_dropped(new_context, live_server, django_user_model):
    """The other way round: the decision's own answer (the region just after it) arrives after a
    poll has shown a newer position (here an instructor's note logged meanwhile)."""
    teacher = django_user_model.objects.create_user("teacher", password="teach-pass-1")
    teacher.groups.add(Group.objects.get_or_create(name=ROLE_INSTRUCTOR)[0])
    course = services.course_create(user=teacher, title="COIN 101")
    session = services.session_create(course=course, user=teacher, title="Race", scenario_key="peru", seed=7,
                                      teams=["Andes", "Sierra"], options={},
                                      seats={"government": "Andes", "shining_path": "Sierra"})
    student = django_user_model.objects.create_user("bruno", password="bruno-secret-9")
    services.team_member_add(team=session.teams.get(name="Sierra"), user=teacher, member=student)
    services.session_start(session=session, user=teacher)

    page = new_context().new_page()
    login(page, "bruno", "bruno-secret-9")
    page.goto(f"/sessions/{session.pk}/play/?seat=shining_path")
    page.wait_for_selector("[data-turn-cue=yours]")
    before = _seq(page)

    held = []
    page.route("**/play/choose/**", lambda route: held.append((route, route.fetch())))
    page.locator(".choices button").first.click()
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the decision was not sent"
    route, answer = held[0]
    assert answer.status == 200
    session.refresh_from_db()
    decided = session.head_seq
    assert decided > before
    services.facilitator_note(session=session, user=teacher, text="Mind the hills")
    session.refresh_from_db()
    newest = session.head_seq
    assert newest > decided
    page.locator(f"[data-seq='{newest}']").wait_for(state="attached")  # a poll showed it
    route.fulfill(response=answer)  # the decision's answer (seq `decided`) arrives only now
    page.wait_for_timeout(700)
    assert _seq(page) == newest, "the decision's older answer replaced the newer region"
    assert page.evaluate("window.__coinlabStaleAnswers") == 1
