"""The pure AAR builder: from a plain bundle to the report model (no database)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import engine
from engine.core.boardview import (
    BoardMap,
    BoardView,
    FactionInfo,
    PieceStack,
    SpaceGeometry,
    SpaceShape,
    SpaceView,
)
from engine.core.messages import msg
from facilitation.rendering.boardsvg import map_svg
from facilitation.reports.builder.report import build_report

T0 = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)


def ev(seq, kind, seat=None, choice=None, label=None, facts=(), metrics=None, rationale="", ms=None, t=0):
    payload = {"choice": choice, "label": label} if choice else {}
    return {"seq": seq, "kind": kind, "seat": seat, "payload": payload, "facts": list(facts),
            "metrics": metrics or {}, "rationale": rationale, "decision_ms": ms,
            "created_at": (T0 + dt.timedelta(seconds=t)).isoformat()}


def peru_bundle():
    m = {"political_will": 10, "government_resources": 20, "shining_path_resources": 8, "hunt_track": 0,
         "government_control_population": 4, "shining_path_control_population": 2}

    def after(**changes):
        m.update(changes)
        return dict(m)

    events = [
        ev(1, "system", facts=[{"type": "session", "text": "Peru: the session starts."}], metrics=dict(m)),
        ev(2, "system", facts=[{"type": "card", "text": "Card 1 revealed"}], metrics=dict(m), t=5),
        ev(3, "decision", "government", "op:sweep", "Sweep", metrics=after(), rationale="Clear Junin", ms=4000,
           t=10),
        ev(4, "decision", "government", "space:junin", "Junin", metrics=after(government_resources=17), ms=2000,
           t=12),
        ev(5, "bot", "shining_path", "op:terror", "Terror",
           facts=[{"type": "track", "text": "Political Will -4 (Terror in Lima)", "track": "political_will",
                   "delta": -4, "value": 6, "cause": "Terror in Lima"}],
           metrics=after(political_will=6, shining_path_resources=7), t=15),
        ev(6, "system", facts=[{"type": "card", "text": "Card 2 revealed"}], metrics=dict(m), t=20),
        ev(7, "decision", "government", "op:train", "Train", metrics=after(political_will=7), ms=9000, t=30),
        ev(8, "facilitator", facts=[{"type": "note", "text": "note"}], metrics=dict(m), t=31),
        ev(9, "system", facts=[{"type": "card", "text": "Propaganda card revealed"},
                               {"type": "propaganda", "text": "Propaganda Round"}],
           metrics=after(government_resources=25), t=40),
    ]
    return {
        "scenario": {"key": "peru", "title": "Peru", "seats": [
            {"id": "government", "title": "Government", "color": "#1565c0"},
            {"id": "shining_path", "title": "Shining Path", "color": "#c62828"}]},
        "course": {"title": "COIN 101", "instructors": ["Dr Ines"]},
        "session": {"id": 4, "title": "Tuesday lab", "seed": 7},
        "teams": [{"name": "Blue", "seats": ["government"], "members": ["Ann"],
                   "intents": [{"text": "Hold Lima", "seq": 1}]},
                  {"name": "Red", "seats": ["shining_path"], "members": ["Cy"]}],
        "seats": [{"id": "shining_path", "team": "Red", "controller": "bot (random)"}],
        "events": events,
        "notes": [{"seq": 8, "text": "Ask about Lima", "author": "Dr Ines"}],
        "bookmarks": [{"seq": 5, "label": "The Terror"}],
        "result": {"winner": "shining_path", "margins": {"government": -3, "shining_path": 2}},
        "board": {"spaces": [{"id": "lima", "name": "Lima", "x": 0, "y": 0},
                             {"id": "junin", "name": "Junin", "x": 2, "y": 1}],
                  "adjacency": [["lima", "junin"]]},
        "snapshots": _peru_snapshots(),
    }


def _peru_snapshots():
    """Board views at the start (seq 0), at the Propaganda Round (seq 9, 3 more Troops in Lima)
    and at the end of the log (seq 9 too: one map)."""
    rules = engine.load("peru")
    start = rules.board_view(rules.setup(seed=7, options={}), None)
    lima = start.space("lima")
    more = dataclasses.replace(lima, pieces=(PieceStack("troops", "government", 3),) + lima.pieces)
    later = dataclasses.replace(start, spaces=tuple(more if s.id == "lima" else s for s in start.spaces))
    return {0: start.to_dict(), 9: later.to_dict()}


def test_cards_come_from_card_facts_and_phases_from_propaganda_facts():
    r = build_report(peru_bundle())
    an = r.analysis
    assert an.cards == 3
    assert [s.card for s in an.steps] == [0, 1, 1, 1, 1, 2, 2, 2, 3]
    assert [(p["number"], p["seq"], p["card"]) for p in an.phases] == [(1, 9, 3)]


def test_decision_log_groups_a_seats_run_and_sums_its_deltas():
    an = build_report(peru_bundle()).analysis
    row = next(r for r in an.rows if r.first_seq == 3)
    assert (row.last_seq, row.team, row.text) == (4, "Blue", "Sweep \u2192 Junin")
    assert row.rationales == ["Clear Junin"]
    assert dict(row.deltas) == {"government_resources": -3}
    assert row.decision_ms == 6000
    terror = next(r for r in an.rows if r.first_seq == 5)
    assert dict(terror.deltas) == {"political_will": -4, "shining_path_resources": -1}


def test_key_moment_is_the_largest_swing_with_its_causing_decision():
    an = build_report(peru_bundle()).analysis
    first = max(an.key_moments, key=lambda k: k.score)
    assert first.metric == "political_will"
    assert (first.delta, first.before, first.after) == (-4, 10, 6)
    assert first.row.first_seq == 5 and first.row.seat == "shining_path"
    assert "Terror" in first.summary and "cause: Terror in Lima" in first.summary


def test_team_summaries_count_operations_spending_and_decision_times():
    an = build_report(peru_bundle()).analysis
    blue = next(t for t in an.team_summaries if t["team"] == "Blue")
    assert dict(blue["operations"]) == {"Sweep": 1, "Train": 1}
    assert blue["resources_spent"] == {"Government Resources": 3}
    assert blue["decision_time"]["median_s"] == 4.0
    assert blue["decision_time"]["max_s"] == 9.0
    red = next(t for t in an.team_summaries if t["team"] == "Red")
    assert red["decision_time"]["bot_decisions"] == 1


def test_peru_charts_follow_the_spec_with_victory_bands():
    r = build_report(peru_bundle())
    assert [c.key for c in r.charts] == ["political_will", "resources", "hunt", "control"]
    pw = r.charts[0].figure
    bands = [(s["y0"], s["y1"]) for s in pw["layout"]["shapes"] if s["type"] == "rect"]
    assert bands == [(0, 2), (18, 20)]
    assert pw["data"][0]["y"][-1] == 7
    assert pw["layout"]["xaxis"]["title"]["text"] == "Card"
    assert any(a["text"] == "P1" for a in pw["layout"]["annotations"])
    assert r.decision_time_chart is not None


def test_unknown_scenario_plots_every_numeric_metric():
    b = peru_bundle()
    b["scenario"] = {"key": "mystery", "title": "Mystery"}
    for e in b["events"]:
        e["metrics"] = {"alpha": e["seq"], "beta": 2 * e["seq"], "label": "x"}
    r = build_report(b)
    assert sorted(c.key for c in r.charts) == ["alpha", "beta"]
    assert r.analysis.key_moments


def test_cover_prompts_notes_and_snapshots():
    r = build_report(peru_bundle())
    assert r.cover["result_headline"].startswith("Winner: Shining Path")
    assert ("Victory margin: Government", "-3") in r.cover["result_lines"]
    assert [p["stage"][:2] for p in r.prompts] == ["1.", "2.", "3.", "4.", "5."]
    assert "Hold Lima" in r.prompts[0]["questions"][0]
    assert r.notes[0]["text"] == "Ask about Lima" and r.bookmarks[0]["label"] == "The Terror"
    # the start and the Propaganda Round (the last event, so also the end): two maps
    assert [s["kind"] for s in r.snapshots] == ["start", "phase"]
    assert all("<svg" in s["svg"] and "Lima" in s["svg"] for s in r.snapshots)
    # what changed since the start is ringed and said in words
    assert r.snapshots[1]["changes"] == [{"space": "Lima", "what": "+3 Troops"}]
    assert 'class="changed"' in r.snapshots[1]["svg"] and 'class="changed"' not in r.snapshots[0]["svg"]


def test_svg_map_escapes_names_and_counts_stacks():
    spaces = (SpaceGeometry("a", msg("A & B"), "A & B", "city", SpaceShape.BOX, 100, 100, 50),
              SpaceGeometry("b", msg("<C>"), "<C>", "department", SpaceShape.CIRCLE, 300, 100, 50))
    m = BoardMap("t", 400, 200, (FactionInfo("gov", msg("Gov & Co"), "#0072B2", "G&C"),),
                 engine.load("peru").board_map().piece_types, spaces)
    v = BoardView("t", None, (SpaceView("a", (PieceStack("troops", "gov", 2),)), SpaceView("b")))
    svg = map_svg(m, v)
    assert "A &amp; B" in svg and "&lt;C&gt;" in svg and "2T" in svg and "<C>" not in svg


def test_undone_decisions_stay_in_the_log_but_are_not_key_moments_or_operations():
    b = peru_bundle()
    # Blue plays Train (+1 Will) and takes it back at once
    e7 = b["events"][6]
    b["events"].insert(7, ev(8, "undo", "government", facts=[{"type": "undo", "text": "takes back Train"}],
                             metrics={**e7["metrics"], "political_will": 6}, t=30))
    b["events"][7]["payload"] = {"undone_seq": 7, "back_to": 6, "choice": "op:train", "label": "Train"}
    for i, e in enumerate(b["events"][8:], start=9):
        e["seq"] = i
        e["metrics"]["political_will"] = 6
    r = build_report(b)
    rows = {row.first_seq: row for row in r.analysis.rows}
    assert rows[7].undone and not rows[3].undone
    assert rows[8].kind == "undo" and "Takes back 'Train'" in rows[8].text
    assert all(not k.row.undone and k.row.kind != "undo" for k in r.analysis.key_moments)
    blue = next(t for t in r.analysis.team_summaries if t["team"] == "Blue")
    assert dict(blue["operations"]) == {"Sweep": 1}


def test_andean_abyss_rounds_start_with_the_victory_phase_not_a_skipped_round():
    b = peru_bundle()
    b["scenario"] = {"key": "andean_abyss", "title": "Andean Abyss"}
    for e in b["events"]:
        e["metrics"] = {"total_support": 30 + e["seq"], "aid": 9}
    b["events"][5]["facts"] = [{"type": "card", "text": "Propaganda card revealed (1 of 4)"},
                               {"type": "propaganda", "text": "Two Propaganda cards in a row: no Propaganda Round (6.0)"}]
    b["events"][8]["facts"] = [{"type": "card", "text": "Propaganda card revealed (2 of 4)"},
                               {"type": "propaganda", "text": "Victory Phase (6.1): nobody wins"}]
    r = build_report(b)
    assert [p["seq"] for p in r.analysis.phases] == [9]
    assert [c.key for c in r.charts] == ["total_support", "aid"]
    assert any(s.get("y0") == 60 for s in r.charts[0].figure["layout"]["shapes"])


def test_chart_helper_builds_series_and_titles_the_axis():
    from facilitation.reports.builder.specs import ANDEAN_ABYSS, PERU, TEARS_OF_TYRANNY, Series, chart

    c = chart("k", "Things", ("One", "a", "#111111"), ("Sum", ("a", "b"), "#222222", "dot"))
    assert c.yaxis == "Things"
    assert c.series == (Series("One", ("a",), "#111111"), Series("Sum", ("a", "b"), "#222222", "dot"))
    assert chart("k", "T", yaxis="Y", series_prefix="p_").yaxis == "Y"
    # every scenario's charts keep their keys, axis titles and summed series
    assert [c.key for c in PERU.charts] == ["political_will", "resources", "hunt", "control"]
    assert PERU.charts[3].yaxis == "Population" and PERU.charts[0].y_range == (0, 20)
    assert [c.yaxis for c in ANDEAN_ABYSS.charts] == ["Total Support", "Opposition + Bases", "Bases", "Count", "Aid"]
    total = TEARS_OF_TYRANNY.charts[1].series[1]
    assert total.metrics == ("tyranny_on_map", "tyranny_pool", "tyranny_removed") and total.dash == "dash"
