"""No page asks any host but the site itself for anything: no CDN, font service,
analytics or map tiles. Every request of a real browser (Playwright on Debian's
Chromium) across the main pages, as each role sees them, goes through ``BrowserContext.route``;
the URL of any request to another host is recorded (and refused), and the list must
stay empty.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from .aar_world import login_cookie, settle, shared_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LOCAL_ONLY_SCHEMES = ("data", "blob", "about")


class Recorder:
    """Routes every request of a browser context (all its pages): the site's own go through, others are
    recorded and refused."""

    def __init__(self, ctx, site: str):
        self.site = urlparse(site).netloc
        self.outside: list[str] = []
        self.local = 0
        ctx.route("**/*", self._route)
        # ctx.route sees every HTTP(S) request; WebSockets and anything the route missed are seen here.
        ctx.on("request", self._seen)
        ctx.on("page", lambda page: page.on("websocket", lambda ws: self._check(ws.url)))

    def _is_local(self, url: str) -> bool:
        u = urlparse(url)
        return u.scheme in LOCAL_ONLY_SCHEMES or (u.scheme in ("http", "https", "ws", "wss") and u.netloc == self.site)

    def _check(self, url: str) -> None:
        if not self._is_local(url) and url not in self.outside:
            self.outside.append(url)

    def _seen(self, request) -> None:
        self._check(request.url)

    def _route(self, route) -> None:
        url = route.request.url
        if self._is_local(url):
            self.local += 1
            route.continue_()
        else:
            self._check(url)
            route.abort()


def visit(page, url: str) -> None:
    """Open ``url`` and stay until its scripts have run and its live region (if any) has polled."""
    resp = page.goto(url)
    assert resp is not None and resp.status == 200, (url, resp and resp.status)
    settle(page)


def open_live(page, url: str):
    """Open live page ``url`` in a tab of its own: its first poll is awaited later (``settle``), side by
    side with the other live pages' instead of one 1.5-2 s poll after another."""
    tab = page.context.new_page()
    resp = tab.goto(url)
    assert resp is not None and resp.status == 200, (url, resp and resp.status)
    assert tab.locator("[data-poll-url]").count(), f"{url} is not a live page"
    return tab


def test_main_pages_request_nothing_from_other_hosts(new_context, live_server, kaleido_server):
    world = shared_world()
    fid, lid, rid = world.finished.pk, world.live.pk, world.report.pk
    seen: dict[str, Recorder] = {}

    # anonymous: the login page (and the join page a student reaches first)
    ctx = new_context()
    seen["anonymous"] = Recorder(ctx, live_server.url)
    page = ctx.new_page()
    visit(page, "/accounts/login/")
    visit(page, "/join/")

    # the instructor: home, live console, session management, watch, replay, reports, an AAR
    live_tabs = []
    ctx = new_context()
    seen["instructor"] = Recorder(ctx, live_server.url)
    login_cookie(ctx, world.instructor.username, live_server.url)
    page = ctx.new_page()
    live_tabs += [open_live(page, "/console/"), open_live(page, f"/sessions/{lid}/watch/")]
    for url in ("/", f"/sessions/{lid}/manage/", f"/sessions/{fid}/replay/?seq=0",
                f"/sessions/{fid}/replay/?seq=40", "/reports/", f"/reports/sessions/{fid}/", f"/reports/{rid}/", f"/reports/compare/peru/?s={fid}&s={lid}",
                f"/reports/{rid}/report.html", "/api/docs/"):
        visit(page, url)
        if url.endswith("report.html"):
            page.wait_for_selector(".chart-live.js-plotly-plot")  # Plotly.js (local) drew the charts

    # a student: home, their team's play page of the live session, then the finished game's replay
    ctx = new_context()
    seen["student"] = Recorder(ctx, live_server.url)
    login_cookie(ctx, world.student_a.username, live_server.url)
    page = ctx.new_page()
    visit(page, "/")  # their home page (where the login form sent them)
    live_tabs.append(open_live(page, f"/sessions/{lid}/play/"))
    visit(page, f"/sessions/{fid}/replay/?seq=0")

    # a reviewer: watches the live session, reads the finished one's reports
    ctx = new_context()
    seen["reviewer"] = Recorder(ctx, live_server.url)
    login_cookie(ctx, world.reviewer.username, live_server.url)
    page = ctx.new_page()
    live_tabs.append(open_live(page, f"/sessions/{lid}/watch/"))
    for url in ("/", "/reports/", f"/reports/{rid}/", f"/reports/{rid}/report.html"):
        visit(page, url)
    for tab in live_tabs:  # each live page's first poll, run side by side
        settle(tab)

    for who, rec in seen.items():
        assert rec.local > 5, f"{who}: the recorder saw no traffic: is ctx.route working?"
        assert rec.outside == [], f"{who} asked other hosts for {rec.outside}"
