"""Issue 17, deliver 3: the road not taken - each key decision replayed with at least 3
alternatives, N bot games each, deterministic for a given report."""

from __future__ import annotations

import engine
from facilitation.reports.builder.report import build_report
from facilitation.reports.builder.whatif import key_decisions, strip_svg, whatifs_for

from .test_figures import bot_game


def _states(rules, b, seqs):
    state = rules.setup(seed=b["session"]["seed"], options={})
    out = {}
    for e in b["events"]:
        if e["seq"] in seqs:
            out[e["seq"]] = rules.copy(state)
        if e["kind"] == "decision":
            rules.apply_inplace(state, e["seat"], e["payload"]["choice"])
    return out


def _whatifs(scenario="peru", decisions=2, rollouts=3, seed=3):
    rules = engine.load(scenario)
    b = bot_game(scenario, seed)
    model = build_report(b)
    seqs = {q for m in key_decisions(model, decisions) for q in range(m.row.first_seq, m.row.last_seq + 1)}
    states = _states(rules, b, seqs)
    return model, whatifs_for(model, rules, lambda q: rules.copy(states[q]) if q in states else None,
                              decisions=decisions, rollouts=rollouts, seed=seed)


def test_each_key_decision_is_played_on_with_three_alternatives_n_times():
    model, ws = _whatifs()
    assert len(ws) == 2
    for w in ws:
        assert w.options[0].actual and sum(o.actual for o in w.options) == 1
        # the chosen option and at least 3 alternatives (all of them when the game offered fewer)
        assert len(w.options) == min(4, w.legal) and w.legal >= 2
        assert len({o.choice_id for o in w.options}) == len(w.options)
        assert all(o.n == 3 for o in w.options), "the report says how many games stand behind each figure"
        assert w.actual_margin == model.bundle["result"]["margins"][w.seat]
        assert all(-10 <= m <= 10 for o in w.options for m in o.margins)  # Peru: Political Will - 10
        svg = strip_svg(w)
        assert svg.startswith("<svg") and svg.count("<circle") == sum(o.n for o in w.options)


def test_the_road_not_taken_is_deterministic_for_a_given_report():
    _, one = _whatifs(decisions=1, rollouts=4)
    _, two = _whatifs(decisions=1, rollouts=4)
    assert [[o.margins for o in w.options] for w in one] == [[o.margins for o in w.options] for w in two]
