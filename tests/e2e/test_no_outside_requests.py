"""No page asks any host but the site itself for anything: no CDN, font service,
analytics or map tiles. Every request of a real browser (Playwright on Debian's
Chromium) across the main pages, as each role sees them, goes through ``page.route``;
the URL of any request to another host is recorded (and refused), and the list must
stay empty.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from .aar_world import build_world, login, settle

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LOCAL_ONLY_SCHEMES = ("data", "blob", "about")


class Recorder:
    """Routes every request of a page: the site's own go through, others are recorded and refused."""

    def __init__(self, page, site: str):
        self.site = urlparse(site).netloc
        self.outside: list[str] = []
        self.local = 0
        page.route("**/*", self._route)
        # page.route sees every HTTP(S) request; WebSockets and anything the route missed are seen here.
        page.on("request", self._seen)
        page.on("websocket", lambda ws: self._check(ws.url))

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


def test_main_pages_request_nothing_from_other_hosts(new_context, live_server, kaleido_server):
    world = build_world()
    fid, lid, rid = world.finished.pk, world.live.pk, world.report.pk
    seen: dict[str, Recorder] = {}

    # anonymous: the login page (and the join page a student reaches first)
    page = new_context().new_page()
    seen["anonymous"] = rec = Recorder(page, live_server.url)
    visit(page, "/accounts/login/")
    visit(page, "/join/")

    # the instructor: home, live console, session management, watch, replay, reports, an AAR
    page = new_context().new_page()
    seen["instructor"] = rec = Recorder(page, live_server.url)
    login(page, world.instructor.username)
    for url in ("/", "/console/", f"/sessions/{lid}/manage/", f"/sessions/{lid}/watch/",
                f"/sessions/{fid}/replay/?seq=0", f"/sessions/{fid}/replay/?seq=40", "/reports/",
                f"/reports/sessions/{fid}/", f"/reports/{rid}/", f"/reports/compare/peru/?s={fid}&s={lid}",
                f"/reports/{rid}/report.html", "/api/docs/"):
        visit(page, url)
        if url.endswith("report.html"):
            page.wait_for_selector(".chart-live.js-plotly-plot")  # Plotly.js (local) drew the charts

    # a student: their team's play page of the live session, then the finished game's replay
    page = new_context().new_page()
    seen["student"] = rec = Recorder(page, live_server.url)
    login(page, world.student_a.username)
    visit(page, f"/sessions/{lid}/play/")
    visit(page, f"/sessions/{fid}/replay/?seq=0")

    # a reviewer: watches the live session, reads the finished one's reports
    page = new_context().new_page()
    seen["reviewer"] = rec = Recorder(page, live_server.url)
    login(page, world.reviewer.username)
    for url in ("/", f"/sessions/{lid}/watch/", "/reports/", f"/reports/{rid}/", f"/reports/{rid}/report.html"):
        visit(page, url)

    for who, rec in seen.items():
        assert rec.local > 5, f"{who}: the recorder saw no traffic: is page.route working?"
        assert rec.outside == [], f"{who} asked other hosts for {rec.outside}"
