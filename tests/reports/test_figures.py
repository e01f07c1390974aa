"""Issue 17, deliver 5: every figure of the AAR summary checked against the log, per game.

Each test plays a complete bot game with the engine (the log a session would hold), builds
the report model, and recomputes each figure from the raw events independently of the
builder: resources spent and gained fact by fact, the result lines, the final measures,
the card count, the exact card of every chart point, the decisive thresholds on the charts.
"""

from __future__ import annotations

import datetime as dt

import pytest

import engine
from engine.bots.base import make_bot
from facilitation.reports.builder.report import build_report

T0 = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)


def bot_game(scenario: str, seed: int) -> dict:
    rules = engine.load(scenario)
    state = rules.setup(seed=seed, options={})
    bots = {s: make_bot(rules, "random", s, seed) for s in rules.seat_ids()}
    events = [{"seq": 1, "kind": "system", "facts": [{"type": "session", "text": "start"}],
               "metrics": rules.metrics(state), "created_at": T0}]
    while (p := rules.prompt(state)) is not None:
        seat = p.seats[0]
        d = bots[seat].choose(state, p)
        facts = rules.apply_inplace(state, seat, p.find(seat, d.choice_id).id)
        events.append({"seq": len(events) + 1, "kind": "decision", "seat": seat,
                       "payload": {"choice": d.choice_id, "label": d.choice_id}, "facts": facts,
                       "metrics": rules.metrics(state), "decision_ms": 1000,
                       "created_at": T0 + dt.timedelta(seconds=len(events))})
    return {"scenario": {"key": rules.key, "title": rules.title,
                         "seats": [{"id": s.id, "title": s.title, "color": s.color} for s in rules.seats]},
            "session": {"id": 1, "title": "figures", "seed": seed},
            "teams": [{"name": f"Team {s.title}", "seats": [s.id]} for s in rules.seats],
            "events": events, "result": rules.result(state), "board": rules.board()}


# the fact tracks that hold each seat's resources, written out here independently of the specs
# (a track may also be named after the metric itself, as Andean Abyss does since contract v2)
RESOURCE_TRACK = {
    "peru": {"government": ("government_resources", "government_resources"),
             "shining_path": ("shining_path_resources", "shining_path_resources")},
    "andean_abyss": {"govt": ("resources_0", "govt_resources"), "farc": ("resources_1", "farc_resources"),
                     "auc": ("resources_2", "auc_resources"), "cartels": ("resources_3", "cartels_resources")},
    "tears_of_tyranny": {s: ("resources", f"resources_{s}") for s in ("liberators", "advisors", "partisans",
                                                                      "comrades")},
}


def flows_from_log(b: dict, scenario: str, seat: str) -> tuple[int, int]:
    track, metric = RESOURCE_TRACK[scenario][seat]
    spent = gained = 0
    for e in b["events"]:
        # a phase fact's deltas may sum up the step's own facts (Andean Abyss 6.3): count those once
        detailed = any(f.get("type") != "phase" and (f.get("track") in (track, metric)
                                                      or metric in (f.get("deltas") or {})) for f in e["facts"])
        for f in e["facts"]:
            if f.get("type") == "phase" and detailed:
                continue
            if isinstance(f.get("deltas"), dict):  # contract v2: metric -> change
                d = f["deltas"].get(metric)
                if d:
                    spent, gained = (spent - d, gained) if d < 0 else (spent, gained + d)
                continue
            if f.get("track") not in (track, metric) or not f.get("delta"):
                continue
            if scenario == "tears_of_tyranny" and f.get("seat") != seat:
                continue
            if f["delta"] < 0:
                spent -= f["delta"]
            else:
                gained += f["delta"]
    return spent, gained


@pytest.mark.parametrize("scenario,seed", [("peru", 3), ("andean_abyss", 3), ("tears_of_tyranny", 3)])
def test_every_summary_figure_matches_the_log(scenario, seed):
    b = bot_game(scenario, seed)
    r = build_report(b)
    an = r.analysis
    events = b["events"]
    first, last = events[0]["metrics"], events[-1]["metrics"]

    # resources spent / gained: counted fact by fact, never netted within a row
    for t in an.team_summaries:
        seat = next(x["seats"][0] for x in b["teams"] if x["name"] == t["team"])
        spent, gained = flows_from_log(b, scenario, seat)
        (label, r_spent), = t["resources_spent"].items()
        assert t["resources_gained"][label] == gained, (t["team"], t["resources_gained"], gained)
        assert r_spent == spent, (t["team"], r_spent, spent)
        metric = RESOURCE_TRACK[scenario][seat][1]
        assert gained - spent == last[metric] - first[metric], "the facts account for the whole change"

    # final measures and the result
    assert an.final_metrics == last
    for label, value in r.final_metrics:
        metric = next(m for m in last if an.labels.get(m) == label)
        assert value == str(last[metric])
    res = b["result"]
    lines = dict(r.cover["result_lines"])
    for k, v in (res.get("margins") or {}).items():
        title = next(s["title"] for s in b["scenario"]["seats"] if s["id"] == k)
        assert lines[f"Victory margin: {title}"] == str(v)
    if scenario == "tears_of_tyranny":  # the score and the tyranny pool are read from the result
        assert any(k.startswith("Score") and v == str(res["margin"]["score"]) for k, v in lines.items())
        assert lines["Tyranny tokens left in the pool"] == str(res["margin"]["tyranny_pool_left"])
        assert res["margin"]["tyranny_pool_left"] == last["tyranny_pool"]
        score = last["influence_cards_earned"] * 10 + last["influence_earned"] - 5 * last["tyranny_on_map"]
        assert res["margin"]["score"] == score
    # cards (turns) and decisions
    card_metric = "turn" if scenario == "tears_of_tyranny" else None
    if card_metric:
        assert r.cover["cards"] == last[card_metric]
    elif scenario == "peru":
        assert r.cover["cards"] == last["cards_played"]
    else:
        # the first card is face up from the set-up (2.3.1); each later one is a "card" fact
        assert r.cover["cards"] == 1 + sum(1 for e in events for f in e["facts"] if f.get("type") == "card")
    assert r.cover["decisions"] == len(events) - 1

    # every chart point's tooltip names the exact card of its event, and lines run to the end
    card_of = {s.seq: s.card for s in an.steps}
    for c in r.charts:
        for tr in c.figure["data"]:
            for card, seq in tr.get("customdata") or []:
                assert card == card_of[seq]
            if tr.get("customdata"):
                assert tr["x"][-1] == an.steps[-1].x
                assert "customdata[0]" in tr["hovertemplate"] and ":.0f" not in tr["hovertemplate"]


def _lines(chart) -> set:
    return {s["y0"] for s in chart.figure["layout"]["shapes"] if s["type"] == "line" and s.get("yref") == "y"}


def test_the_thresholds_that_decide_each_game_are_drawn():
    peru = build_report(bot_game("peru", 4))
    assert 10 in _lines(peru.charts[0])                       # 7.0.2: final victory at 10 Political Will
    aa = build_report(bot_game("andean_abyss", 4))
    by_key = {c.key: c for c in aa.charts}
    assert 60 in _lines(by_key["total_support"]) and 25 in _lines(by_key["opposition_bases"])
    assert {10, 40} <= _lines(by_key["cartels"])              # 7.2 Cartels: Bases > 10 and Resources > 40
    tot = build_report(bot_game("tears_of_tyranny", 4))
    tyr = next(c for c in tot.charts if c.key == "tyranny")
    assert any(tr.get("name") == "Freedom/tyranny threshold" for tr in tyr.figure["data"])


def test_a_card_10_event_shows_as_card_10():
    r = build_report(bot_game("peru", 3))
    card_of = {s.seq: s.card for s in r.analysis.steps}
    late_in_card_10 = 0
    for c in r.charts:
        for tr in c.figure["data"]:
            for (card, seq), x in zip(tr.get("customdata") or [], tr["x"] if tr.get("customdata") else [],
                                      strict=True):
                assert card == card_of[seq]
                if card_of[seq] == 10 and x > 10.5:
                    late_in_card_10 += 1
                    assert card == 10 and round(x) == 11  # rounding x would have said card 11
    assert late_in_card_10


def test_tears_of_tyranny_level_row_is_not_called_an_influence_level():
    from facilitation.reports.builder.report import _result_lines

    headline, lines = _result_lines({"winner": "players", "reason": "level 4: every influence card has been played",
                                     "influence_level": 3, "margin": {"score": 41}}, {})
    assert "Influence Level 3" in headline and "level 4:" not in headline
    assert "victory condition 4" in headline


@pytest.mark.parametrize("scenario", ["peru", "andean_abyss", "tears_of_tyranny"])
def test_the_summary_pdf_has_at_most_four_pages(scenario):
    import re
    import subprocess

    from facilitation.reports import rendering

    r = build_report(bot_game(scenario, 3))
    pdf = rendering.render_pdf(r, summary_only=True)
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert 1 <= int(re.search(r"Pages:\s+(\d+)", info).group(1)) <= 4
