"""What the report and network browser tests open: people who log in with a password,
a finished Peru game with its after-action review built, and a Peru game still live.

Built through the real services (the report by ``services.report_build`` in this
process, charts drawn by kaleido on Debian's Chromium: a test that builds a world asks for
the run's ``kaleido_server``, as a report worker keeps one), inside the test's database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.reports.helpers import make_user, play_peru_game

from .conftest import wait_quiet

PASSWORD = "aar-e2e-pass-7"


@dataclass
class AARWorld:
    instructor: object
    reviewer: object
    student_a: object
    student_b: object
    finished: object
    live: object
    report: object


def build_world() -> AARWorld:
    from facilitation.models import ROLE_INSTRUCTOR, ROLE_REVIEWER, ROLE_STUDENT
    from facilitation.reports import services

    people = {"instructor": make_user("ines", role=ROLE_INSTRUCTOR),
              "reviewer": make_user("rita", role=ROLE_REVIEWER),
              "student_a": make_user("sam", role=ROLE_STUDENT),
              "student_b": make_user("sol", role=ROLE_STUDENT)}
    for u in people.values():
        u.set_password(PASSWORD)
        u.save(update_fields=["password"])
    students = [people["student_a"], people["student_b"]]
    finished = play_peru_game(instructor=people["instructor"], students=students, reviewer=people["reviewer"],
                              title="Peru lab")
    live = play_peru_game(instructor=people["instructor"], students=students, reviewer=people["reviewer"],
                          title="Peru lab 2", seed=12, human_moves=4, finish=False, note=False)
    report = services.report_request(finished, user=people["instructor"], enqueue=False)
    report = services.report_build(report.pk)
    assert report.status == "done", report.error
    return AARWorld(finished=finished, live=live, report=report, **people)


#: the rows of the world :func:`shared_world` built first in this process (Django's JSON serialization)
_SNAPSHOT: dict = {}
#: what the snapshot leaves out: made again by ``post_migrate`` after every flush (rows of the world
#: point at them by natural key), and the browsers' logins
_NOT_SNAPSHOT = ["contenttypes", "auth.permission", "sessions"]


def shared_world() -> AARWorld:
    """:func:`build_world` once per test process; a later test gets the same rows back.

    The world is read-only to the tests that use it, but every browser test's database is flushed
    after it (``transaction=True``: the live server reads it from other connections), and a build
    takes 6-15 s (two PDFs typeset by WeasyPrint, the charts drawn by kaleido). The first call
    builds it and keeps its rows (``dumpdata``); a later call, on the flushed database, saves those
    rows again with their primary keys (raw saves, as ``loaddata`` does, without moving the
    sequences back: the keys were handed out by them, so no later row can take one). The report's
    files stay where the build wrote them (a flush removes rows, not files)."""
    import io

    from django.contrib.auth import get_user_model
    from django.core import serializers
    from django.core.management import call_command
    from django.db import connection, transaction

    from facilitation.models import ClassSession
    from facilitation.reports.models import AARReport

    if "rows" not in _SNAPSHOT:
        world = build_world()
        out = io.StringIO()
        call_command("dumpdata", exclude=_NOT_SNAPSHOT, natural_foreign=True, stdout=out)
        _SNAPSHOT["rows"] = out.getvalue()
        _SNAPSHOT["keys"] = {name: getattr(world, name).pk for name in AARWorld.__dataclass_fields__}
        return world
    with transaction.atomic(), connection.constraint_checks_disabled():
        objects = list(serializers.deserialize("json", _SNAPSHOT["rows"], handle_forward_references=True))
        for obj in objects:
            obj.save()
        for obj in objects:
            if obj.deferred_fields:
                obj.save_deferred_fields()
    connection.check_constraints()
    keys, users = _SNAPSHOT["keys"], get_user_model().objects
    return AARWorld(**{name: users.get(pk=keys[name]) for name in ("instructor", "reviewer", "student_a", "student_b")},
                    finished=ClassSession.objects.get(pk=keys["finished"]),
                    live=ClassSession.objects.get(pk=keys["live"]), report=AARReport.objects.get(pk=keys["report"]))


def login(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))


def login_cookie(ctx, username: str, base_url: str) -> None:
    """Log ``username`` in to browser context ``ctx`` with a session made by Django's test client:
    no login page opened, filled in and sent, and no redirect to the home page, for every person
    (the login page itself is opened by the tests' anonymous visitor)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": base_url}])


# Every Content-Security-Policy violation of a page, as the page itself sees it (the
# listener is added by Playwright before any page script runs, outside the page's policy).
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at "
                              + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


class PageWatch:
    """Collects a page's CSP violations (console "Refused to ..." messages and
    ``securitypolicyviolation`` events) and script errors."""

    def __init__(self, page):
        self.page = page
        self.console: list[str] = []
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _console(self, msg) -> None:
        text = msg.text
        if "Refused to" in text or "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.console.append(text)

    def problems(self) -> list[str]:
        events = self.page.evaluate("window.__cspViolations || []")
        return [*self.console, *events, *(f"script error: {e}" for e in self.errors)]

    def assert_clean(self, where: str) -> None:
        found = self.problems()
        assert not found, f"{where}: {found}"


def drain(page) -> None:
    """Let the page dispatch what it has queued (``securitypolicyviolation`` events are fired from a
    task, console messages reach Playwright after it): a 50 ms timer of the page's own, queued last."""
    page.evaluate("() => new Promise(r => setTimeout(r, 50))")


def settle(page, *, timeout_ms: float = 15_000, idle_timeout_ms: float = 60_000) -> None:
    """Wait until a page just opened has run its scripts and, if it polls, has had a poll answered.

    Events rather than a fixed pause: nothing in flight (``wait_quiet``: what the scripts fetch when
    the page opens, e.g. the API docs' schema, the scheduling page's estimate; no request of the
    browser context out for 100 ms and htmx idle), then, on a live page (a ``[data-poll-url]``
    region: the play page every 1.5 s, the console and the watch page every 2 s), one poll of that
    region answered and its answer swapped in (``play.js`` counts them in
    ``window.__coinlabPollsAnswered``; a 304 counts, a failed fetch does not), then the page's queued
    events (``drain``). (A fixed pause was either longer than needed or, on the watch page, shorter
    than its polling interval, so its poll was never checked; Playwright's "networkidle" waited
    500 ms of silence after every page.)
    """
    # a minute: the scheduling page fetches its session-length estimate on load, six bot-played
    # games the first time (cached afterwards: 0.4 s of CPU, 3.5 s at load average 20 on 2 cores),
    # and a settle must not fail a page that is slow rather than broken
    wait_quiet(page, timeout_ms=idle_timeout_ms)
    if page.locator("[data-poll-url]").count():
        page.wait_for_function("() => window.__coinlabPollsAnswered >= 1", timeout=timeout_ms)
    drain(page)
