"""A team submits its whole player window as one plan in the browser (issue 16.7; Playwright on
Debian's Chromium).

Tears of Tyranny, the Liberators played by a student team, the other seats by bots. After the
headquarters (2.C), the play page offers the plan form; the student picks the window's steps
(rule 3: refit 3.A, resources 3.B, force management 3.C) by keyboard on the draft, hears each
change announced and finds focus on the next question, submits the plan with a rationale, and the
log holds ONE decision with the plan's choice ids; undo takes the plan back whole. A forged step
is refused with an alert naming it. axe-core (WCAG 2.1 A/AA) finds nothing on the plan form, in
English at laptop size and in Spanish at projector size. Screenshots: test-artifacts/e2e/plan-*.png.
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from facilitation import eventlog, selectors, services
from facilitation.models import ROLE_INSTRUCTOR, ROLE_STUDENT, SessionEvent
from tests.conftest import make_user

from .conftest import LAPTOP, PROJECTOR
from .test_accessibility import WCAG_AA, _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEAT = "liberators"


def _world():
    inst = make_user("ines", ROLE_INSTRUCTOR)
    student = make_user("lena", ROLE_STUDENT)
    course = services.course_create(user=inst, title="IW 3")
    seats = {SEAT: "Team Lima", "advisors": "bot:heuristic", "partisans": "bot:heuristic", "comrades": "bot:heuristic"}
    session = services.session_create(course=course, user=inst, title="ToT plan", scenario_key="tears_of_tyranny",
                                      seed=3, teams=["Team Lima"], seats=seats)
    services.team_member_add(team=session.teams.get(), user=inst, member=student)
    return services.session_start(session=session, user=inst), student


def _axe(page) -> list[str]:
    page.wait_for_load_state("networkidle")
    res = Axe().run(page, options=WCAG_AA)
    return [f"{v['id']}: {v['help']} -> {[n['target'] for n in v['nodes'][:3]]}" for v in res.response["violations"]]


def _quiet(ids: list[str]) -> str:
    """A step that draws no card (the plan then goes on): not "gain capability", not a deck."""
    return next(i for i in ids if not any(w in i for w in ("gain", "reclaim", "deck:", "done")))


def test_a_team_submits_its_window_as_one_plan_by_keyboard(new_context, live_server, shoot):
    session, student = _world()
    ctx = new_context(viewport=LAPTOP)
    _login(ctx, student, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{session.pk}/play/?seat={SEAT}")
    # 2.C: the headquarters, a single decision (no plan offered yet)
    assert page.locator(".plan-link").count() == 0
    page.locator(".choices button").first.click()
    page.locator(".plan-link a").wait_for()
    session.refresh_from_db()
    before_seq = session.head_seq
    rules, before = selectors.session_state(session)
    page.locator(".plan-link a").click()
    page.wait_for_url(re.compile(r"/play/plan/"))
    assert page.locator("h1").inner_text().startswith("Plan your part of the phase")
    assert page.locator("fieldset.plan-next legend").inner_text().startswith("Step 1:")
    assert not _axe(page), _axe(page)

    picked = []
    for n in range(1, 5):
        ids = page.locator("fieldset.plan-next button").evaluate_all("els => els.map(e => e.value)")
        cid = "step:refit" if n == 1 else _quiet(ids)
        page.locator(f'fieldset.plan-next button[value="{cid}"]').focus()
        page.keyboard.press("Enter")  # by keyboard: htmx redraws the form alone
        picked.append(cid)
        page.locator("ol.plan-steps > li").nth(n - 1).wait_for()
        page.wait_for_function("() => document.activeElement && document.activeElement.id === 'plan-next-legend'")
        page.wait_for_function("n => document.getElementById('plan-announce').textContent.includes(n + ' step')", arg=n)
        assert page.locator("fieldset.plan-next legend").inner_text().startswith(f"Step {n + 1}:")
    assert re.search(r"/play/plan/\?.*step=", page.url)  # the draft is in the address: reload keeps it
    session.refresh_from_db()
    assert session.head_seq == before_seq  # drafting stored nothing
    shoot(page, "plan-1-draft")
    assert not _axe(page), _axe(page)
    page.get_by_label(re.compile("Why this plan")).fill("Resources before the cards.")
    page.locator("#plan-submit").click()
    page.wait_for_url(re.compile(r"/play/\?seat="))
    assert "Your plan of 4 steps was recorded as one decision." in page.locator(".messages").inner_text()
    ev = SessionEvent.objects.filter(session=session, kind="decision", seat=SEAT).order_by("-seq").first()
    assert ev.payload["plan"] == picked and ev.rationale == "Resources before the cards."
    shoot(page, "plan-2-played")
    # undo takes the whole plan back
    page.locator("#undo-button").click()
    page.wait_for_function("() => !document.getElementById('undo-button')")
    session.refresh_from_db()
    _rules, back = selectors.session_state(session)
    assert eventlog.jsonable(rules.serialize(back)) == eventlog.jsonable(rules.serialize(before))
    assert eventlog.verify(session).ok

    # a forged step: refused in an alert naming it, the focus on the alert
    page.goto(f"/sessions/{session.pk}/play/plan/?seat={SEAT}&step=step:refit&step=refit:not-a-thing")
    alert = page.get_by_role("alert")
    assert "Step 2 of the plan" in alert.inner_text()
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'plan-error'")
    assert page.locator("ol.plan-steps > li").count() == 1
    assert not _axe(page), _axe(page)


def test_the_plan_form_in_spanish_at_projector_size(new_context, live_server, shoot):
    session, student = _world()
    services.choice_submit(session=session, user=student, seat=SEAT, seq=session.head_seq,
                           choice=selectors.seat_prompt(session, SEAT)["prompt"]["choices"][0]["id"])
    ctx = new_context(viewport=PROJECTOR, locale="es-ES")
    _login(ctx, student, live_server.url)
    page = ctx.new_page()
    page.goto(f"/sessions/{session.pk}/play/plan/?seat={SEAT}&step=step:refit")
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.locator("#plan-h").inner_text() == "Su plan"
    assert page.locator("fieldset.plan-next legend").inner_text().startswith("Paso 2:")
    assert "Enviar el plan (1 paso) como una sola decisión" in page.locator("#plan-submit").inner_text()
    shoot(page, "plan-3-es-projector")
    assert not _axe(page), _axe(page)
