"""Every page and file under /reports/ gets the site's strict Content-Security-Policy with
style attributes allowed (Plotly's charts and kaleido's SVG copies carry them; no
'unsafe-inline' for scripts or style sheets, no 'unsafe-eval'), and carries nothing
that policy would refuse: no inline script (chart data travels in JSON blocks, which are
not executed), no <style> element, no event-handler attribute. The downloaded report is
one self-contained file."""

from __future__ import annotations

import re
from pathlib import Path

from django.urls import reverse

from coinlab.security import POLICY_WITH_STYLE_ATTRS
from facilitation.reports import assets, plotly_css

EXECUTABLE_INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
STYLE_ELEMENT = re.compile(r"<style\b", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def policy(header: str) -> dict[str, list[str]]:
    return {p.split()[0]: p.split()[1:] for p in header.split(";") if p.strip()}


def assert_strict(resp, url: str) -> None:
    header = resp.get("Content-Security-Policy", "")
    assert header == POLICY_WITH_STYLE_ATTRS, (url, header)
    p = policy(header)
    assert p["default-src"] == ["'self'"] and p["script-src"] == ["'self'"] and p["style-src"] == ["'self'"], url
    assert "'unsafe-eval'" not in header, url
    # 'unsafe-inline' only for style="" attributes (style-src-attr): never for scripts or style sheets
    assert [d for d, v in p.items() if "'unsafe-inline'" in v] == ["style-src-attr"], (url, header)


def assert_nothing_inline(html: str, url: str) -> None:
    assert not EXECUTABLE_INLINE_SCRIPT.search(html), f"inline script on {url}"
    assert not STYLE_ELEMENT.search(html), f"<style> element on {url}"
    assert not HANDLER.search(html), f"inline event handler on {url}"
    assert "javascript:" not in html, url


def test_every_report_page_and_file_has_the_strict_policy(built, finished_peru, live_peru, people, client):
    client.force_login(people["instructor"])
    pages = {
        "list": reverse("reports:index"),
        "session": reverse("reports:session", args=[finished_peru.pk]),
        "progress": reverse("reports:detail", args=[built.pk]),
        "compare": reverse("reports:compare", args=["peru"]) + f"?s={finished_peru.pk}&s={live_peru.pk}",
        "report": reverse("reports:html", args=[built.pk]),
    }
    others = {
        "status": reverse("reports:status", args=[built.pk]),
        "download": reverse("reports:html", args=[built.pk]) + "?download=1",
        "pdf": reverse("reports:pdf", args=[built.pk]),
        "csv": reverse("reports:export", args=[finished_peru.pk, "csv"]),
        "json": reverse("reports:export", args=[finished_peru.pk, "json"]),
        "missing": reverse("reports:detail", args=[999999]),
    }
    for name, url in {**pages, **others}.items():
        resp = client.get(url)
        assert resp.status_code == (404 if name == "missing" else 200), (name, resp.status_code)
        assert_strict(resp, url)
        if name in pages:
            html = b"".join(resp.streaming_content).decode() if resp.streaming else resp.content.decode()
            assert_nothing_inline(html, url)
    # the page a user who may not read reports gets
    client.force_login(people["outsider"])
    resp = client.get(pages["progress"])
    assert resp.status_code == 403
    assert_strict(resp, "forbidden")
    assert_nothing_inline(resp.content.decode(), "forbidden")


def test_charts_data_is_json_and_scripts_are_static_files(built):
    html = Path(built.html.path).read_text()
    assert_nothing_inline(html, "the stored report file")
    n = built.summary["charts"]
    assert len(re.findall(r'<script id="aar-figure-\d+" type="application/json">', html)) == n
    for path in assets.ASSETS:
        assert f'data-aar-asset="{path}"' in html, path
    # Plotly.js finds its style sheets already linked and inserts no <style> of its own
    assert 'id="plotly.js-style-global" class="no-inline-styles"' in html
    assert f'id="{plotly_css.MAPLIBRE_STYLE_ID}"' in html


def test_the_download_is_one_file_that_needs_no_site(built, people, client):
    client.force_login(people["reviewer"])
    resp = client.get(reverse("reports:html", args=[built.pk]) + "?download=1")
    assert resp["Content-Disposition"] == f'attachment; filename="{built.file_stem()}.html"'
    assert resp["Cache-Control"] == "private, no-store"
    html = resp.content.decode()
    assert "data-aar-asset" not in html and not re.search(r'(src|href)="/static/', html)
    assert assets.asset_text("reports/plotly.min.js") in html
    assert assets.asset_text("reports/aar-charts.js") in html
    assert '<style id="plotly.js-style-global" class="no-inline-styles">' in html
    assert len(re.findall(r'<script id="aar-figure-\d+" type="application/json">', html)) == built.summary["charts"]
    # the served file is untouched: still linking the static files
    served = b"".join(client.get(reverse("reports:html", args=[built.pk])).streaming_content).decode()
    assert "data-aar-asset" in served and assets.asset_text("reports/aar-charts.js") not in served


def test_standalone_inlines_only_report_assets():
    page = ('<link rel="stylesheet" href="/static/reports/aar-report.css" data-aar-asset="reports/aar-report.css">'
            '<script src="/static/x.js" data-aar-asset="../../settings.py"></script>')
    out = assets.standalone(page)
    assert out.startswith("<style>\n" + assets.asset_text("reports/aar-report.css"))
    assert out.endswith('<script src="/static/x.js" data-aar-asset="../../settings.py"></script>')


def test_plotly_style_sheets_are_generated_from_the_served_plotly_js():
    js = plotly_css.PLOTLY_JS.read_text(encoding="utf-8")
    for name, text in plotly_css.generated_files(js).items():
        assert (plotly_css.PLOTLY_JS.parent / name).read_text(encoding="utf-8") == text, (
            f"{name} is out of date: run python -m facilitation.reports.plotly_css")
    assert plotly_css.maplibre_css(js)[0] == plotly_css.MAPLIBRE_STYLE_ID
    base = plotly_css.plotly_css(js)
    assert ".js-plotly-plot .plotly .main-svg {position:absolute;" in base


def test_report_templates_carry_no_inline_script_style_or_handler():
    root = Path(__file__).resolve().parents[2] / "templates" / "reports"
    for path in root.glob("*.html"):
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), f"inline <script> in {path}"
        assert not HANDLER.search(text), f"inline handler in {path}"
        if path.name != "report.html":  # report.html: a <style> in its PDF mode only (WeasyPrint, no browser)
            assert not STYLE_ELEMENT.search(text), f"<style> in {path}"
    report = (root / "report.html").read_text()
    # the <style> is in the PDF modes only (the full PDF and the summary PDF: WeasyPrint, no browser)
    assert report.count("<style") == 1 and '{% if mode != "html" %}<style>' in report
