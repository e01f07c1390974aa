"""Every page meets WCAG 2.1 A and AA as axe-core checks it (the brief's standard; issue #19.8).

One world: a course with a live session of each game (student teams in the seats, a few bot
moves played), a finished Peru session with its after-action review, a scheduled session.
Each role opens each of its pages in a real Chromium: in English at laptop size and in
Spanish at projector size. axe-core (the copy that the maintained ``axe-playwright-python``
package ships; nothing is downloaded) runs with the WCAG 2.0/2.1 A and AA rules, and the test
fails on any violation, naming the page, the rule and the elements.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.test import Client

import engine
from facilitation import services
from facilitation.models import ROLE_INSTRUCTOR, ROLE_REVIEWER, ROLE_STUDENT
from tests.conftest import make_user

from .conftest import LAPTOP, PROJECTOR, wait_quiet

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# resultTypes: every rule still runs on every element, but only the violations are reported with all
# their elements (the passes, the incomplete and the inapplicable rules with one each: without it axe
# builds a selector and an HTML snippet for every element that passed, and sends them all back)
WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
           "resultTypes": ["violations"]}
#: the copy of axe-core that the ``axe-playwright-python`` package ships (what its ``Axe().run`` injects)
AXE_SOURCE = Axe().axe_script
#: every page is read in English at laptop size and in Spanish at projector size
LOOKS = (("en-US", LAPTOP), ("es-ES", PROJECTOR))


def _world():
    inst = make_user("ines", ROLE_INSTRUCTOR)
    students = [make_user(n, ROLE_STUDENT) for n in ("alma", "beto", "cora", "dani")]
    reviewer = make_user("rafa", ROLE_REVIEWER)
    course = services.course_create(user=inst, title="COIN 101")
    services.course_reviewer_grant(course=course, user=inst, reviewer=reviewer)
    live = {}
    for key, n_teams in (("peru", 2), ("andean_abyss", 2), ("tears_of_tyranny", 4)):
        rules = engine.load(key)
        seat_ids = rules.seat_ids()
        names = [f"Team {i + 1}" for i in range(n_teams)]
        seats = {seat_ids[i]: names[i] for i in range(n_teams)}
        for s in seat_ids[n_teams:]:
            seats[s] = f"bot:{services.default_bot_kind(rules)}"
        session = services.session_create(course=course, user=inst, title=f"{rules.title} live", scenario_key=key,
                                          seed=5, teams=names, seats=seats)
        for team, student in zip(session.teams.order_by("id"), students, strict=False):
            services.team_member_add(team=team, user=inst, member=student)
        services.session_start(session=session, user=inst)
        live[key] = session
    done = services.session_create(course=course, user=inst, title="Peru finished", scenario_key="peru", seed=3,
                                   teams=["Team A", "Team B"], seats=dict(zip(engine.load("peru").seat_ids(),
                                                                              ["Team A", "Team B"], strict=True)))
    services.team_member_add(team=done.teams.order_by("id").first(), user=inst, member=students[0])
    services.session_start(session=done, user=inst)
    services.session_autoplay(session=done, user=inst)
    from facilitation.reports import demo as report_demo

    report = report_demo.build(done)
    scheduled = services.session_create(course=course, user=inst, title="Next week", scenario_key="peru", seed=4,
                                        teams=["Team A", "Team B"])
    for team in scheduled.teams.all():
        services.join_code_create(course=course, user=inst, team=team)
    from facilitation.vignettes import runs as vignette_runs

    run = vignette_runs.vignette_schedule(course=course, user=inst, vignette_id="peru-example-of-play",
                                          seat="shining_path", teams=["Red", "Blue"])
    return {"inst": inst, "students": students, "reviewer": reviewer, "course": course, "live": live,
            "done": done, "report": report, "scheduled": scheduled, "run": run}


def _pages(w) -> dict[str, list[str]]:
    live = w["live"]
    code = w["scheduled"].teams.first().join_codes.first().code
    return {
        "anonymous": ["/", "/accounts/login/", "/join/", f"/join/{code}/",
                      *[f"/games/{key}/glossary/" for key in live]],  # each game's glossary (issue #19)
        "student": ["/", *[f"/sessions/{s.pk}/play/" for s in live.values()], f"/sessions/{w['done'].pk}/replay/?seq=0"],
        "instructor": ["/", "/courses/", f"/courses/{w['course'].pk}/", "/sessions/new/?scenario=peru",
                       f"/courses/{w['course'].pk}/vignettes/", f"/vignettes/runs/{w['run'].pk}/",
                       "/console/", *[f"/sessions/{s.pk}/manage/" for s in live.values()],
                       f"/sessions/{live['andean_abyss'].pk}/watch/", f"/sessions/{w['done'].pk}/replay/?seq=0",
                       f"/sessions/{w['scheduled'].pk}/manage/", "/reports/", f"/reports/sessions/{w['done'].pk}/",
                       f"/reports/{w['report'].pk}/"],
        "reviewer": ["/", "/reports/", f"/reports/sessions/{w['done'].pk}/", f"/reports/{w['report'].pk}/",
                     f"/sessions/{w['done'].pk}/replay/?seq=0"],
    }


def _login(ctx, user, base_url: str) -> None:
    """Log ``user`` in to the browser context with a session made by Django's test client."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": base_url}])


def _open(page, url: str) -> None:
    """Start loading ``url`` (its answer's headers in): the other language's copy loads meanwhile."""
    resp = page.goto(url, wait_until="commit")
    assert resp is not None and resp.status < 400, f"{url}: HTTP {resp.status if resp else '?'}"


def _start_axe(page) -> None:
    """Once the page has loaded what it fetches on load (the scheduling page's estimates), axe-core
    (in the page since it loaded) is started; its results are awaited by :func:`_violations`, so that the two copies of a
    page (English at laptop size, Spanish at projector size: two browser contexts, two renderer
    processes) are checked side by side."""
    page.wait_for_load_state("load")
    wait_quiet(page)
    # started from a task of its own: evaluate returns at once, and axe-core's synchronous part (its
    # tree of the page, then the rules) runs while the other copy of the page is loaded and started
    page.evaluate("options => { window.__coinlabAxe = new Promise(r => setTimeout(r, 0))"
                  ".then(() => axe.run(document, options)); }", WCAG_AA)


def _violations(page, url: str) -> list[str]:
    results = page.evaluate("() => window.__coinlabAxe")
    out = []
    for v in results["violations"]:
        targets = "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
        out.append(f"{url}: {v['id']} ({v['impact']}) x{len(v['nodes'])}: {v['help']} -> {targets}")
    return out


def test_every_page_of_every_role_has_no_wcag_aa_violation(new_context, live_server, kaleido_server):
    w = _world()  # built once: both languages and sizes read the same pages
    who = {"anonymous": None, "student": w["students"][0], "instructor": w["inst"], "reviewer": w["reviewer"]}
    found: list[str] = []
    for role, urls in _pages(w).items():
        pages = {}
        for locale, viewport in LOOKS:
            ctx = new_context(viewport=viewport, locale=locale)
            # axe-core in every page of the context as it loads (parsed while the other copy loads),
            # not sent over and run once the page is ready
            ctx.add_init_script(AXE_SOURCE)
            if who[role] is not None:
                _login(ctx, who[role], live_server.url)
            pages[locale] = ctx.new_page()
        for url in urls:
            for page in pages.values():
                _open(page, url)
            for page in pages.values():
                _start_axe(page)
            for locale, page in pages.items():
                found += [f"[{locale} {role}] {v}" for v in _violations(page, url)]
        for locale, page in pages.items():
            assert page.evaluate("document.documentElement.lang")[:2] == locale[:2], (role, locale)
            page.context.close()
    assert not found, "axe-core found WCAG 2.1 A/AA violations:\n" + "\n".join(found)
