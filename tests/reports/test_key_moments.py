"""Issue 17, deliver 1: key moments ranked by their effect on the outcome, credited to their cause."""

from __future__ import annotations

from facilitation.reports.builder.report import build_report

from .test_builder import ev, peru_bundle


def _with_propaganda_after_a_click(cause_v2: bool = False):
    """Blue's Train (+1 Will) ends the card; the Propaganda Round runs in the same event and its
    Political Will Phase (6.2) drops Will by 5: an automatic step, not Blue's decision."""
    b = peru_bundle()
    e7 = b["events"][6]
    pw_fact = {"type": "track", "text": "Political Will -5 (Political Will Phase)", "track": "political_will",
               "delta": -5, "value": 2}
    if cause_v2:
        pw_fact["cause"] = {"kind": "rule", "rule": "6.2", "step": "Political Will Phase"}
    e7["facts"] = [{"type": "track", "text": "Political Will +1 (Train in Lima)", "track": "political_will",
                    "delta": 1, "value": 7},
                   {"type": "phase", "text": "Political Will Phase (6.2).", "phase": "6.2"}, pw_fact]
    e7["rationale"] = "Train to hold Lima"
    e7["metrics"] = {**e7["metrics"], "political_will": 2}
    for e in b["events"][7:]:
        e["metrics"] = {**e["metrics"], "political_will": 2}
    return b


def test_an_automatic_step_after_a_click_is_not_the_teams_decision():
    for v2 in (False, True):
        an = build_report(_with_propaganda_after_a_click(v2)).analysis
        top = max(an.key_moments, key=lambda k: k.score)
        assert top.category == "rule", top.summary
        assert top.delta == -5 and (top.before, top.after) == (7, 2)
        assert top.rationale == [] and "Train to hold Lima" not in top.summary
        assert "Blue" not in top.who and "Political Will Phase" in top.summary
        # the Government margin (Will - 10) is what ranks it
        ch = next(c for c in top.changes if c.side == "government")
        assert (ch.before, ch.after) == (-3, -8)
        # Blue's own Train is a decision with its rationale, and did not move Will
        blue = [k for k in an.key_moments if k.category == "decision" and k.row.team == "Blue"]
        assert all(k.row.first_seq != 7 or k.delta == 1 for k in blue)
        assert any(m.category == "decision" and m.row.first_seq == 7 and m.deltas == {"political_will": 1}
                   for m in an.moments)


def test_a_bot_decision_carries_the_bots_own_reason_and_no_rationale():
    b = peru_bundle()
    b["events"][4]["payload"]["reason"] = "Terror where Will falls most (8.4.1)"
    an = build_report(b).analysis
    k = next(k for k in an.key_moments if k.row.first_seq == 5)
    assert k.category == "bot" and k.bot_reason == "Terror where Will falls most (8.4.1)" and not k.rationale


def test_decisive_changes_always_qualify_even_when_small():
    b = peru_bundle()
    b["events"][-1]["metrics"]["guzman_captured"] = 0
    m = dict(b["events"][-1]["metrics"])
    b["events"].append(ev(10, "system", facts=[{"type": "capture", "text": "Guzman captured"}],
                          metrics={**m, "guzman_captured": 1}, t=50))
    b["events"].append(ev(11, "decision", "government", "op:sweep", "Sweep",
                          facts=[{"type": "control", "text": "Lima is now controlled by Government.",
                                  "space": "lima", "control": "government"}], metrics=m, t=60))
    b["board"]["spaces"][0]["population"] = 4
    an = build_report(b, max_key_moments=1).analysis
    decisive = {d for k in an.key_moments for d in k.decisive}
    assert "Guzman captured" in decisive and "control of Lima changes" in decisive


def test_tears_of_tyranny_ranks_distance_to_tyranny_and_flags_the_switch():
    b = peru_bundle()
    b["scenario"] = {"key": "tears_of_tyranny", "title": "Tears of Tyranny"}
    base = {"turn": 1, "influence_earned": 0, "influence_level": 1, "influence_cards_earned": 0,
            "tyranny_on_map": 8, "tyranny_threshold": 10, "tyranny_state": 0}
    b["events"] = [
        ev(1, "system", facts=[{"type": "session", "text": "start"}], metrics=base),
        ev(2, "decision", "government", "x", "Recruit", metrics={**base, "influence_earned": 1}, t=1),
        ev(3, "system", facts=[{"type": "phase", "text": "Adversary phase (turn 1)."}],
           metrics={**base, "influence_earned": 1, "tyranny_on_map": 10, "tyranny_state": 1}, t=2),
    ]
    b["outcome_params"] = {"influence_markers": [4, 7]}
    an = build_report(b).analysis
    k = next(k for k in an.key_moments if k.row.first_seq == 3)
    assert k.category == "rule" and any("tyranny" in d for d in k.decisive)
    assert next(c for c in k.changes if c.key == "to_tyranny").after == 0
    # the influence markers of the set-up give the distance to the next level: 5 cards at level 1
    from facilitation.reports.builder.specs import TEARS_OF_TYRANNY

    nxt = next(ms for ms in TEARS_OF_TYRANNY.measures if ms.key == "to_next_level")
    assert nxt.value(base, b["outcome_params"]) == 5 and nxt.value(base, {}) is None


def test_summary_judges_each_intent_against_the_measures_it_names():
    from facilitation.reports.builder.summary import check_intent

    b = peru_bundle()  # Political Will 10 -> 6 (Terror) -> 7 (Train); Shining Path wins
    b["teams"][0]["intents"] = [{"text": "Keep Political Will above 8 and win the war", "seq": 1}]
    b["teams"][1]["intents"] = [{"text": "Drive Will below 7", "seq": 1}]
    r = build_report(b)
    blue, red = r.summary["intents"]
    (c,) = blue.checks
    assert (c.metric, c.target, c.achieved) == ("political_will", "above 8", False)
    assert c.detail.startswith("lowest value 6 (card 1, event 5)")
    assert blue.won is False and blue.verdict == "Not achieved."
    assert red.checks[0].achieved is True and red.won is True and red.verdict == "Achieved."
    assert 3 <= len(r.summary["turning_points"]) <= 5 or len(r.analysis.key_moments) < 3
    named = check_intent("T", "Hold Lima and build trust", r.analysis, None)
    assert not named.checks and "names no measure" in named.verdict
    trend = check_intent("T", "Watch Government Resources", r.analysis, None)
    assert trend.checks[0].achieved is None and trend.checks[0].detail.startswith("from 20 to 25")


def test_prompts_credit_the_real_cause():
    r = build_report(_with_propaganda_after_a_click())
    top = max(r.analysis.key_moments, key=lambda k: k.score)
    happened = next(p for p in r.prompts if p["stage"].startswith("2."))["questions"]
    line = next(q for q in happened if q.startswith(f"K{top.number}:"))
    assert "No team decided this: it was an automatic rule step" in line and "Blue, walk us" not in line
    improve = next(p for p in r.prompts if p["stage"].startswith("5."))["questions"]
    blue = next(q for q in improve if q.startswith("Blue"))
    assert f"K{top.number} " not in blue  # the Political Will Phase is not put to Blue as its own decision
