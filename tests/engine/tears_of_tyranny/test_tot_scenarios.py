"""5 (A-55): the scenario panels' own victory and defeat conditions."""

from __future__ import annotations

import pytest

from engine.core.simulate import play_game

from .conftest import blank


def _end_turn(rules, st):
    facts: list = []
    rules._end_turn(st, facts)
    return facts


def test_5_every_panel_has_background_adjustments_and_victory_text(C):
    for sc in C.scenarios.values():
        assert sc["background"] and sc["victory_conditions"] and isinstance(sc["victory"], list)
    assert all(C.scenarios[k]["victory"] for k in ("blitz", "frozen_conflict", "popular_spring"))
    assert C.scenarios["standard"]["victory"] == []


def test_5_blitz_sponsors_withdraw_when_level_2_is_not_reached_by_turn_10(rules):
    st = blank(rules, scenario="blitz")
    st["turn"] = 9
    _end_turn(rules, st)
    assert st["result"] is None
    st["turn"] = 10
    facts = _end_turn(rules, st)
    assert st["result"]["winner"] == "adversary" and "sponsors withdraw" in st["result"]["reason"]
    assert rules.prompt(st) is None and any(f["type"] == "end" for f in facts)
    st = blank(rules, scenario="blitz")
    st["turn"] = 10
    st["inf"]["level"] = 2
    _end_turn(rules, st)
    assert st["result"] is None


def test_5_frozen_conflict_thaw_wins_with_no_tyranny_at_level_2(rules):
    st = blank(rules, scenario="frozen_conflict")
    st["tiles"][st["order"][-1]]["u"] = [["garrison", 0]]
    st["inf"]["level"] = 2
    st["tiles"][st["order"][0]]["tyr"] = 1
    _end_turn(rules, st)
    assert st["result"] is None
    st["tiles"][st["order"][0]]["tyr"] = 0
    st["tyr_gone"] += 1
    _end_turn(rules, st)
    assert st["result"]["winner"] == "players" and "thaw" in st["result"]["reason"]


def test_5_frozen_conflict_thaw_needs_level_2(rules):
    st = blank(rules, scenario="frozen_conflict")
    _end_turn(rules, st)
    assert st["result"] is None


def test_5_popular_spring_collapses_after_3_civilians_killed_per_player(rules):
    st = blank(rules, players=2, scenario="popular_spring")
    st["stats"]["civilians_killed"] = 5
    rules._check_end(st, [])
    assert st["result"] is None
    st["stats"]["civilians_killed"] = 6
    rules._check_end(st, [])
    assert st["result"]["winner"] == "adversary" and "collapses" in st["result"]["reason"]


def test_5_popular_spring_wins_with_a_blue_majority_at_level_2(rules):
    st = blank(rules, scenario="popular_spring")
    tid = st["order"][0]
    st["tiles"][tid].update({"blue": 4, "red": 2})
    st["inf"]["level"] = 2
    _end_turn(rules, st)
    assert st["result"]["winner"] == "players" and "spring holds" in st["result"]["reason"]
    st = blank(rules, scenario="popular_spring")
    st["tiles"][tid].update({"blue": 3, "red": 2})
    st["inf"]["level"] = 2
    _end_turn(rules, st)
    assert st["result"] is None


def test_5_rulebook_defeat_wins_ties_with_a_scenario_victory(rules):
    st = blank(rules, scenario="popular_spring")
    st["tiles"][st["order"][0]].update({"blue": 4, "red": 0})
    st["inf"]["level"] = 2
    st["tyr_pool"] = 0
    rules._check_end(st, [])
    assert "total tyranny" in st["result"]["reason"]


def test_5_standard_panel_adds_no_condition(rules):
    st = blank(rules)
    st["turn"] = 9
    st["stats"]["civilians_killed"] = 40
    _end_turn(rules, st)
    assert st["result"] is None


@pytest.mark.parametrize("scenario", ["blitz", "frozen_conflict", "popular_spring"])
def test_5_scenario_games_complete(rules, scenario):
    r = play_game(rules, seed=3, bots="random", options={"players": 2, "scenario": scenario})
    assert r["result"] is not None and r["result"]["winner"] in ("players", "adversary")
