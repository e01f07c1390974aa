"""The PDF's card-by-card log and appendix rows (``.log-print .lr``): their line breaks are
newlines in a ``white-space: pre-line`` paragraph, not ``<br>`` elements (WeasyPrint gave each of
those a box and a generated newline: docs/benchmarks.md, AAR build), and a newline in a value (a
team's rationale) stays a space, as it was with ``<br>``."""

from __future__ import annotations

import re
import subprocess

from facilitation.reports import rendering
from facilitation.reports.builder.report import build_report
from facilitation.reports.templatetags.reports_tags import pdf_lines

from .test_builder import peru_bundle


def test_pdf_lines_turns_the_templates_breaks_into_newlines_and_a_values_newlines_into_spaces():
    assert pdf_lines("<p>Sweep<br>Clear\nJunin\r\nfirst<br><i>a\rb</i></p>") == (
        "<p>Sweep\nClear Junin first\n<i>a b</i></p>")


def _rows(html: str) -> list[str]:
    blocks = re.findall(r'<div class="small log-print[^"]*">(.*?)</div>', html, flags=re.S)
    assert len(blocks) == 2  # the card-by-card log and the appendix
    return [p for b in blocks for p in re.findall(r'<p class="lr[^"]*">(.*?)</p>', b, flags=re.S)]


def test_the_pdfs_log_rows_break_lines_with_newlines_and_keep_a_rationales_newline_a_space():
    bundle = peru_bundle()
    bundle["events"][2]["rationale"] = "Clear Junin\nthen hold Lima"
    model = build_report(bundle)
    html = rendering.render_html(model, mode="pdf")
    rows = _rows(html)
    assert len(rows) >= 2 + len(model.card_lines) + len(model.analysis.rows)
    assert all("<br" not in r for r in rows)
    sweep = next(r for r in rows if "Clear Junin" in r)
    assert "Clear Junin then hold Lima" in sweep
    assert len(sweep.split("\n")) >= 3  # who, what, the rationale: one line each
    assert "<br>" in rendering.render_html(model, mode="html")  # the HTML's table keeps its markup
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=rendering.html_to_pdf(html),
                          capture_output=True, check=True).stdout.decode()
    appendix = text[text.index("Appendix: full decision log"):]
    assert "Clear Junin then hold Lima" in appendix  # on one line, as it was
    line = next(ln for ln in appendix.splitlines() if "Clear Junin then hold Lima" in ln)
    assert "Government" not in line and "Sweep" not in line  # the rationale's own line
