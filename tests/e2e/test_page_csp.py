"""The site's pages in a real browser (Playwright on Debian's Chromium) under the strict
Content-Security-Policy they are sent with: no 'unsafe-inline' at all outside /reports/ and
/admin/ (``style-src-attr 'none'``: not even a style attribute). Every page of every role,
for each of the three games, is opened, left to run its scripts and poll, and must show no
CSP violation and no script error; the play pages are also clicked (a board space, a
choice's details) so that the swapped-in regions are checked too.

The demo data (facilitation/demo.py) gives a live, a finished and a scheduled session of
each game, with student teams in the live ones (alice, bob, carol, dave).
"""

from __future__ import annotations

import pytest

from facilitation import demo

from .aar_world import CSP_LISTENER, PageWatch, drain, login_cookie, settle
from .conftest import wait_quiet

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _policy(header: str) -> dict[str, list[str]]:
    return {p.split()[0]: p.split()[1:] for p in header.split(";") if p.strip()}


class Browser:
    """One person's browser context: every page opened is checked for its header and violations.

    ``open`` checks a page before the next one replaces it. ``open_tab`` opens a live page in a tab of
    its own, checked by ``check_tabs`` once its first poll is answered: the tabs' first polls (1.5-2 s
    after each page opened) run side by side instead of one after the other."""

    def __init__(self, new_context, username: str | None, site: str):
        self.ctx = new_context()
        self.ctx.add_init_script(CSP_LISTENER)
        self.page = self.ctx.new_page()
        self.watch = PageWatch(self.page)
        self.visited: list[str] = []
        self.tabs: list[tuple[str, object, PageWatch]] = []
        if username:
            login_cookie(self.ctx, username, site)

    @staticmethod
    def load(page, url: str) -> None:
        resp = page.goto(url)
        assert resp is not None and resp.status == 200, (url, resp and resp.status)
        header = resp.headers.get("content-security-policy", "")
        p = _policy(header)
        assert "'unsafe-inline'" not in header and p.get("style-src-attr") == ["'none'"], (url, header)
        assert p.get("script-src") == ["'self'"] and p.get("style-src") == ["'self'"], (url, header)
        wait_quiet(page, timeout_ms=60_000)  # as settle's: the scheduling page's estimates may be played

    def open(self, url: str) -> None:
        self.load(self.page, url)
        settle(self.page)  # its scripts ran; a live page (console, watch, play) polled once
        self.visited.append(url)
        self.watch.assert_clean(url)

    def open_tab(self, url: str):
        page = self.ctx.new_page()
        self.tabs.append((url, page, PageWatch(page)))
        self.load(page, url)
        return page

    def check_tabs(self) -> None:
        for url, page, watch in self.tabs:
            assert page.locator("[data-poll-url]").count(), f"{url} is not a live page"
            settle(page)  # its first poll answered and swapped in
            self.visited.append(url)
            watch.assert_clean(url)


def test_every_page_of_every_game_runs_under_the_strict_policy(new_context, live_server, monkeypatch):
    monkeypatch.setattr(demo, "build_demo_reports", lambda sessions: [])  # /reports/ is not under test here
    data = demo.demo_load(password=demo.PASSWORD)  # the loopback password (serve_embedded on 127.0.0.1)
    games = {g["scenario"]: g for g in data["games"]}
    assert set(games) == {"peru", "andean_abyss", "tears_of_tyranny"}

    teacher = Browser(new_context, "instructor", live_server.url)
    teacher.open("/")
    teacher.open_tab("/console/")
    teacher.open("/sessions/new/")
    teacher.open("/api/docs/")
    for g in games.values():
        live, fin, nxt = g["live"].pk, g["finished"].pk, g["upcoming"].pk
        teacher.open(f"/sessions/{live}/manage/")
        teacher.open(f"/sessions/{nxt}/manage/")
        teacher.open_tab(f"/sessions/{live}/watch/")
        teacher.open(f"/sessions/{fin}/replay/?seq=0")
        teacher.open(f"/sessions/{fin}/replay/?seq={max(1, g['finished'].head_seq // 2)}")
    teacher.check_tabs()

    players = []
    for key, g in games.items():
        live = g["live"].pk
        for team, members in g["members"].items():
            student = Browser(new_context, members[0], live_server.url)
            student.open("/")
            page = student.open_tab(f"/sessions/{live}/play/")
            space = page.locator("[data-space]").first
            if space.count():
                space.dispatch_event("click")  # the board's space details (drawn by play.js as it is clicked)
                drain(page)
            summary = page.locator("details > summary").first
            if summary.count():
                summary.dispatch_event("click")
                drain(page)
            players.append((key, team, student, page))
    for key, team, student, page in players:  # their first polls ran side by side
        student.check_tabs()
        assert page.locator("svg").count() >= 1, f"{key}: no board drawn for {team}"

    anonymous = Browser(new_context, None, live_server.url)
    anonymous.open("/accounts/login/")
    anonymous.open("/join/")
