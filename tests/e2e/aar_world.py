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


def login(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))


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


def settle(page, *, timeout_ms: float = 15_000, idle_timeout_ms: float = 60_000) -> None:
    """Wait until a page just opened has run its scripts and, if it polls, has had a poll answered.

    Events rather than a fixed pause: Playwright's "networkidle" (no request for 500 ms after the
    load: the scripts have run and fetched what they fetch when the page opens, e.g. the API docs'
    schema), then, on a live page (a ``[data-poll-url]`` region: the play page every 1.5 s, the
    console and the watch page every 2 s), one answered poll of that region and 200 ms for its answer
    to be read and swapped in. (A fixed pause was either longer than needed or, on the watch page, shorter
    than its polling interval, so its poll was never checked; and the scheduling page's estimate,
    fetched on load, was not awaited, so its swapped-in fragment was not checked either.)
    """
    # a minute: the scheduling page fetches its session-length estimate on load, six bot-played
    # games the first time (cached afterwards: 0.4 s of CPU, 3.5 s at load average 20 on 2 cores),
    # and a settle must not fail a page that is slow rather than broken
    page.wait_for_load_state("networkidle", timeout=idle_timeout_ms)
    region = page.locator("[data-poll-url]")
    if region.count():
        url = region.first.get_attribute("data-poll-url")
        # the answer's headers: a 304 (nothing changed since the page was drawn) never reaches
        # "requestfinished" in Chromium (it ends as an aborted request), a 200 is swapped in once read
        with page.expect_response(lambda r: url in r.url, timeout=timeout_ms):
            pass
        page.wait_for_timeout(200)
