"""The after-action review pages in a real browser (Playwright on Debian's Chromium)
under the site's strict Content-Security-Policy: no violation on any page, the
progress page's script polls, and the Plotly.js charts are drawn (not only the static
SVG copies the report file carries). The downloaded report file works on its own,
opened from disk with every network request refused.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from facilitation.reports.models import AARReport

from .aar_world import CSP_LISTENER, PageWatch, drain, login, settle, shared_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _policy(header: str) -> dict[str, list[str]]:
    return {p.split()[0]: p.split()[1:] for p in header.split(";") if p.strip()}


def _assert_strict(resp, url: str) -> None:
    header = resp.headers.get("content-security-policy", "")
    p = _policy(header)
    assert p.get("default-src") == ["'self'"], (url, header)
    assert p.get("script-src") == ["'self'"], (url, header)
    assert p.get("style-src") == ["'self'"], (url, header)
    assert "'unsafe-eval'" not in header, (url, header)


def _charts_drawn(page, selector: str, expected: int) -> None:
    """Every chart of the page (``expected`` of them) drawn by Plotly.js: its plot class, its
    layered SVG (stacked by plotly-base.css, a static file) and at least one trace each."""
    assert page.locator(selector).count() == expected
    page.wait_for_function("([sel, n]) => document.querySelectorAll(sel + '.js-plotly-plot svg.main-svg').length"
                           " >= n", arg=[selector, expected], timeout=20_000)
    assert page.locator(f"{selector}.js-plotly-plot").count() == expected
    for i in range(expected):
        chart = page.locator(f"{selector}.js-plotly-plot").nth(i)
        assert chart.locator("g.trace path").count() >= 1, i
    assert page.evaluate("getComputedStyle(document.querySelector('svg.main-svg')).position") == "absolute"


def test_aar_pages_keep_the_strict_csp_and_draw_their_charts(new_context, live_server, shoot, kaleido_server):
    world = shared_world()
    ctx = new_context()
    ctx.add_init_script(CSP_LISTENER)
    page = ctx.new_page()
    watch = PageWatch(page)
    login(page, world.instructor.username)
    rid, fid = world.report.pk, world.finished.pk
    pages = [
        "/reports/",
        f"/reports/sessions/{fid}/",
        f"/reports/{rid}/",
        f"/reports/compare/peru/?s={fid}&s={world.live.pk}",
        f"/reports/{rid}/report.html",
    ]
    for url in pages:
        resp = page.goto(url)
        assert resp.status == 200, url
        _assert_strict(resp, url)
        settle(page)  # its scripts ran (what they fetch is in, their queued events fired)
        if url.startswith("/reports/compare/"):
            n = page.locator(".aar-chart").count()
            assert n >= 4
            _charts_drawn(page, ".aar-chart", n)
        if url.endswith("report.html"):
            _charts_drawn(page, ".chart-live", world.report.summary["charts"])
            page.locator(".chart-live").first.scroll_into_view_if_needed()
            shoot(page, "aar-report-strict-csp")
        drain(page)  # what drawing the charts queued
        watch.assert_clean(url)

    # The progress page's script (a static file) polls the status and shows what the worker writes.
    queued = AARReport.objects.create(session=world.finished, seq=world.finished.head_seq - 3)
    resp = page.goto(f"/reports/{queued.pk}/")
    _assert_strict(resp, "progress page")
    assert page.locator("#aar-status").inner_text() == "Queued"
    AARReport.objects.filter(pk=queued.pk).update(status=AARReport.Status.RUNNING, progress=47,
                                                   stage="Drawing charts (2/5)")
    page.wait_for_function("() => document.getElementById('aar-percent').textContent === '47%'",
                           timeout=10_000)
    assert page.locator("#aar-status").inner_text() == "Running"
    assert page.locator("#aar-stage").inner_text() == "Drawing charts (2/5)"
    watch.assert_clean("progress page")


def test_downloaded_report_file_works_offline(new_context, live_server, tmp_path, kaleido_server):
    world = shared_world()
    ctx = new_context()
    page = ctx.new_page()
    login(page, world.instructor.username)
    resp = page.request.get(f"/reports/{world.report.pk}/report.html?download=1")
    assert resp.status == 200
    assert resp.headers["content-disposition"].startswith("attachment")
    body = resp.text()
    assert "data-aar-asset" not in body and "/static/" not in body, "the download must not need the site"
    path = tmp_path / "aar.html"
    path.write_text(body, encoding="utf-8")

    offline = new_context().new_page()
    errors: list[str] = []
    requested: list[str] = []
    offline.on("pageerror", lambda exc: errors.append(str(exc)))

    def refuse(route):
        if urlparse(route.request.url).scheme != "file":
            requested.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    offline.route("**/*", refuse)
    offline.goto(path.as_uri())
    _charts_drawn(offline, ".chart-live", world.report.summary["charts"])
    assert not errors, errors
    assert not requested, f"the offline report asked the network for {requested}"
