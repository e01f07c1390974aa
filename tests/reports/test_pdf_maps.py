"""The PDF's map snapshots: JPEG pictures of the one board renderer's SVG, drawn by kaleido's
Chromium (``rendering.maps_to_jpeg``), so that WeasyPrint does not draw the SVG itself
(docs/benchmarks.md, AAR build). The HTML keeps the SVG."""

from __future__ import annotations

import io
import re
import subprocess

import pytest
from PIL import Image

from facilitation.reports import rendering
from facilitation.reports.builder.report import build_report
from facilitation.reports.pdf_fetcher import PICTURE_SCHEME, RefusedURL, ReportURLFetcher

from .test_builder import peru_bundle


@pytest.fixture(scope="module")
def model(kaleido_server):
    r = build_report(peru_bundle())
    rendering.rasterize_maps(r)
    return r


def test_each_map_becomes_a_jpeg_of_its_svg_with_the_same_proportions(model):
    assert len(model.snapshots) == 2
    for s in model.snapshots:
        pic = Image.open(io.BytesIO(s["jpeg"]))
        assert pic.format == "JPEG"
        w, h = (float(x) for x in re.search(r'<svg\b[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"',
                                            s["svg"]).groups())
        assert pic.width == rendering.MAP_PICTURE_WIDTH * rendering.MAP_PICTURE_SCALE
        assert abs(pic.width / pic.height - w / h) < 0.01


def test_the_pictures_show_the_map_not_a_blank_frame(model):
    for s in model.snapshots:
        pic = Image.open(io.BytesIO(s["jpeg"])).convert("RGB").resize((200, 200))
        raw = pic.tobytes()
        pixels = [tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)]
        drawn = sum(1 for p in pixels if min(p) < 235) / len(pixels)
        assert drawn > 0.1, f"only {drawn:.0%} of the picture of {s['title']} is drawn"  # Peru's: 19 %
        assert len({(r // 32, g // 32, b // 32) for r, g, b in pixels}) >= 6  # terrain, pieces, text


def test_the_pdf_shows_the_jpegs_and_the_html_the_svg(model):
    pdf_html = rendering.render_html(model, mode="pdf")
    assert pdf_html.count('src="aar-picture:map-') == len(model.snapshots)  # read from memory, not data: URIs
    images = subprocess.run(["pdfimages", "-list", "-"], input=rendering.render_pdf(model), capture_output=True,
                            check=True).stdout.decode().splitlines()[2:]
    assert len([line for line in images if line.split()[8] == "jpeg"]) == len(model.snapshots)
    html = rendering.render_html(model, mode="html")
    assert "aar-picture:" not in html
    assert html.count('class="changed"') >= 1  # the second map's ringed space, drawn inline


def test_the_fetcher_hands_out_only_the_pictures_it_was_given():
    fetcher = ReportURLFetcher({"map-0.jpg": (b"\xff\xd8 picture", "image/jpeg")})
    assert fetcher.fetch(PICTURE_SCHEME + "map-0.jpg").read() == b"\xff\xd8 picture"
    for url in (PICTURE_SCHEME + "map-1.jpg", PICTURE_SCHEME + "../../etc/passwd", "file:///etc/passwd"):
        with pytest.raises(RefusedURL):
            fetcher.fetch(url)


def test_a_failed_export_is_a_chart_render_error(monkeypatch):
    """kaleido answering anything but a JPEG is the transient error the task retries."""
    monkeypatch.setattr(rendering, "_export", lambda figs, opts, progress=None: [b"<svg/>"] * len(figs))
    r = build_report(peru_bundle())
    with pytest.raises(rendering.ChartRenderError):
        rendering.render_pdf(r)


def test_the_pdf_shows_each_exported_chart_as_a_jpeg_and_the_html_its_svg(kaleido_server):
    """The charts too reach the PDF as JPEG pictures drawn by kaleido (``rendering.rasterize_charts``),
    read from memory, with their titles as the pictures' text alternative; the HTML keeps the SVG."""
    r = build_report(peru_bundle())
    for c, svg in zip(r.all_charts, rendering.figures_to_svg([c.figure for c in r.all_charts]), strict=True):
        c.svg = svg
    pdf = rendering.render_pdf(r)
    assert r.all_charts and all(Image.open(io.BytesIO(c.jpeg)).format == "JPEG" for c in r.all_charts)
    pic = Image.open(io.BytesIO(r.all_charts[0].jpeg))
    assert pic.width == r.all_charts[0].figure["layout"]["width"] * rendering.CHART_PICTURE_SCALE
    pdf_html = rendering.render_html(r, mode="pdf")
    assert pdf_html.count('src="aar-picture:figure-') == len(r.all_charts)
    assert "data:image/svg+xml" not in pdf_html
    for c in r.all_charts:
        assert f'alt="{c.title}"' in pdf_html or "&" in c.title
    images = subprocess.run(["pdfimages", "-list", "-"], input=pdf, capture_output=True,
                            check=True).stdout.decode().splitlines()[2:]
    assert len([line for line in images if line.split()[8] == "jpeg"]) == len(r.snapshots) + len(r.all_charts)
    html = rendering.render_html(r, mode="html")
    assert "aar-picture:" not in html and html.count("<svg") >= len(r.all_charts)
