"""Issue 14 item 5: user text in the PDF's CSS cannot break out of its string, and WeasyPrint
reads only ``data:`` URIs and the report's own static files (never the network, never the
rest of the disk)."""

from __future__ import annotations

import http.server
import threading

import pytest
import tinycss2

from facilitation.reports import pdf_fetcher
from facilitation.reports.rendering import html_to_pdf
from facilitation.reports.templatetags.reports_tags import css_string

BREAKS = ["\n", "\r", "\f", "\r\n", "\x0b", "\x85", "\u2028", "\u2029", "\x00"]


@pytest.mark.parametrize("brk", BREAKS)
def test_css_string_keeps_every_line_break_inside_the_string(brk):
    title = f'Lab{brk}"; }} @import url(http://attacker.invalid/x.css); p {{ content: "'
    decl = tinycss2.parse_one_declaration(f'content: "{css_string(title)}"')
    tokens = [t for t in decl.value if t.type != "whitespace"]
    assert [t.type for t in tokens] == ["string"], tokens
    expected = title.replace("\x00", "\ufffd")  # CSS reads NUL as U+FFFD
    if brk == "\r\n":
        expected = title
    assert tokens[0].value == expected


def test_css_string_never_closes_the_style_element():
    out = css_string("</style><script>alert(1)</script>")
    assert "<" not in out and ">" not in out


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 - http.server's name
        _Recorder.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.end_headers()
        self.wfile.write(b"body { color: red }")

    def log_message(self, *args):
        pass


@pytest.fixture
def attacker():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    _Recorder.hits = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_pdf_reads_nothing_from_the_network_or_the_disk(attacker, tmp_path):
    secret = tmp_path / "secret.css"
    secret.write_text("body { color: blue }")
    html = (f'<html><head><link rel="stylesheet" href="{attacker}/sheet.css">'
            f'<style>@import url("{attacker}/import.css"); @import url("{secret.as_uri()}");</style></head>'
            f'<body><img src="{attacker}/pixel.png"><img src="../../../../../../etc/passwd">'
            '<img src="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=">'
            '<p>report</p></body></html>')
    pdf = html_to_pdf(html)
    assert pdf.startswith(b"%PDF")
    assert _Recorder.hits == [], "WeasyPrint fetched the attacker's URLs"


def test_the_fetcher_serves_only_data_uris_and_the_reports_static_files(tmp_path):
    fetcher = pdf_fetcher.ReportURLFetcher()
    css = pdf_fetcher.STATIC_DIR / "aar-report.css"
    assert fetcher.fetch(css.as_uri()).read().startswith(css.read_bytes()[:50])
    assert fetcher.fetch("/static/reports/aar-report.css").read().startswith(css.read_bytes()[:50])
    assert fetcher.fetch("data:text/plain;base64,aGk=").read() == b"hi"
    for url in ("http://127.0.0.1:9/x.css", "https://example.org/", "ftp://example.org/x",
                "file:///etc/passwd", (tmp_path / "x.css").as_uri(),
                pdf_fetcher.STATIC_DIR.as_uri() + "/../../../settings.py", "/static/reports/../../models.py",
                "/static/web/css/coinlab.css", "file://attacker.invalid/share/x.css"):
        with pytest.raises(pdf_fetcher.RefusedURL):
            fetcher.fetch(url)
