"""Every AAR chart has a text alternative (issue #19 item 8): its data as a table under the
chart, reachable by keyboard, one row per card with each line's value at the end of that card,
checked against the log; the decision-time box plot as counts and medians per team."""

from __future__ import annotations

import re
import statistics

import pytest

from facilitation.reports import rendering
from facilitation.reports.builder.charts import data_table
from facilitation.reports.builder.report import build_report

from .test_figures import bot_game


@pytest.mark.parametrize("scenario", ["peru", "andean_abyss", "tears_of_tyranny"])
def test_each_chart_has_a_table_of_its_data(scenario):
    b = bot_game(scenario, 4)
    model = build_report(b)
    assert model.all_charts
    for chart in model.all_charts:
        t = data_table(chart.figure)
        assert t is not None, chart.key
        if t["kind"] == "lines":
            assert t["rows"] and len(t["columns"]) >= 1 and all(len(r["values"]) == len(t["columns"]) for r in t["rows"])
            xs = [r["x"] for r in t["rows"]]
            assert xs == sorted(set(xs)) and all(isinstance(x, int) for x in xs)
    # the last row holds each plotted metric's value at the end of the game, from the log
    final = b["events"][-1]["metrics"]
    checked = 0
    for chart in model.charts:
        t = data_table(chart.figure)
        for metric, value in zip(chart.series, t["rows"][-1]["values"], strict=False):
            if metric in final:
                assert value == final[metric], (chart.key, metric)
                checked += 1
    assert checked >= 3


def test_the_decision_time_table_counts_each_teams_decisions():
    b = bot_game("peru", 4)
    model = build_report(b)
    t = data_table(model.decision_time_chart.figure)
    assert t["kind"] == "box"
    for row in t["rows"]:
        seats = {"Team Government": "government", "Team Shining Path": "shining_path"}[row["x"]]
        times = [e["decision_ms"] / 1000 for e in b["events"] if e.get("seat") == seats and e["kind"] == "decision"]
        assert row["values"] == [len(times), round(statistics.median(times), 1), min(times), max(times)]


def test_the_tables_are_in_the_html_report_folded_and_focusable():
    model = build_report(bot_game("peru", 4))
    html = rendering.render_html(model, mode="html")
    n = len(model.all_charts)
    assert len(re.findall(r'<details class="chart-data">', html)) == n
    assert len(re.findall(r'<div class="table-scroll" role="region" tabindex="0" aria-label="Data of figure', html)) == n
    assert "Figure 1 as a table" in html and '<th scope="col">Card</th>' in html
    # the PDF has the charts as images with their captions, not the tables
    assert '<details class="chart-data">' not in rendering.render_html(model, mode="pdf")
