"""A vignette run's AAR (issue #18 deliver 4): the vignette's discussion questions open the
discussion prompts, followed by what every finished team of the run chose at the same
decisions; a team still playing is never reported."""

from __future__ import annotations

import pytest

import engine
from engine.bots.base import make_bot
from facilitation import selectors, services
from facilitation.models import ClassSession
from facilitation.reports import rendering
from facilitation.reports.builder.report import build_report
from facilitation.reports.selectors import report_bundle
from facilitation.vignettes import library
from facilitation.vignettes import runs as vignette_runs

pytestmark = pytest.mark.django_db


def _play(session, user, seat, rationale):
    rules = engine.load(session.scenario_key)
    bot = make_bot(rules, "heuristic", seat, 3)
    for _ in range(300):
        session.refresh_from_db()
        if session.status == ClassSession.Status.FINISHED:
            return
        rules, state = selectors.session_state(session)
        services.choice_submit(session=session, user=user, seat=seat, choice=bot.choose(state, rules.prompt(state)).choice_id,
                               seq=session.head_seq, rationale=rationale)
    raise AssertionError("the run did not end")


def test_vignette_questions_and_the_other_teams_choices_in_the_aar(people):
    course = services.course_create(user=people.instructor, title="COIN 101")
    run = vignette_runs.vignette_schedule(course=course, user=people.instructor, vignette_id="peru-example-reprisal",
                                          seat="government", teams=["Red", "Blue", "Green"])
    red, blue, green = run.sessions.order_by("id")
    for s, who in ((red, people.student_a), (blue, people.student_b)):
        services.team_member_add(team=s.teams.get(), user=people.instructor, member=who)
        services.session_start(session=s, user=people.instructor)
    services.session_start(session=green, user=people.instructor)
    _play(red, people.student_a, "government", "strike while they are exposed")
    _play(blue, people.student_b, "government", "hold the cities")

    model = build_report(report_bundle(red, red.head_seq, with_snapshots=False, with_comparison=False))
    first = model.prompts[0]
    v = library()["peru-example-reprisal"]
    assert first["stage"] == "Vignette" and v.title in first["subtitle"] and v.objective in first["subtitle"]
    assert first["questions"][:len(v.questions)] == list(v.questions)
    compared = first["questions"][len(v.questions):]
    assert compared and "Red (this session) chose" in compared[0] and "Blue chose" in compared[0]
    assert "strike while they are exposed" in compared[0] and "hold the cities" in compared[0]
    assert "Green" not in " ".join(compared)  # still playing: never reported
    html = rendering.render_html(model, mode="summary")
    assert v.questions[0] in html
    # The same in the comparison page for the instructor.
    from django.test import Client
    from django.urls import reverse

    c = Client()
    c.force_login(people.instructor)
    page = c.get(reverse("web:vignette_run", args=[run.pk])).content.decode()
    assert v.questions[0] in page and "strike while they are exposed" in page


def test_a_session_outside_a_vignette_has_no_vignette_prompts(people):
    from tests.conftest import create_peru_game

    game = create_peru_game(people)
    model = build_report(report_bundle(game.session, game.session.head_seq, with_snapshots=False,
                                       with_comparison=False))
    assert not any(p.get("vignette") for p in model.prompts)
    assert model.prompts[0]["stage"].startswith("1.")
