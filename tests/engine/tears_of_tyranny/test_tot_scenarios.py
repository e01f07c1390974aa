"""5 (A-55): the scenario panels' own victory and defeat conditions."""

from __future__ import annotations

import pytest

from engine.core.messages import render
from engine.core.simulate import play_game
from engine.scenarios.tears_of_tyranny import board as B

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


def _run_out_of_terrain_cards(rules, st):
    """Close the window with an empty terrain deck: the deploy step finds nothing to draw (A-18)."""
    st["tiles"][st["order"][0]]["u"] = [["garrison", 0]]
    st["decks"]["terrain"] = []
    st["frames"] = {s: [] for s in st["seats"]}
    st["tyr_pool"] = 40
    facts: list = []
    rules._advance(st, facts)
    while st["result"] is None:
        p = rules.prompt(st)
        facts += rules.apply_inplace(st, p.seats[0], p.choices_for(p.seats[0])[0].id)
    return facts


def test_5_blitz_offensive_culminates_players_win_at_level_2_when_the_deck_runs_out(rules):
    """Blitz panel: the moment the core game is lost on time (4, A-18) is a victory at level 2+."""
    st = blank(rules, players=2, scenario="blitz")
    assert len(st["decks"]["terrain"]) == 11, "12-card advanced deck (2.B) minus the initial deploy"
    st["inf"]["level"] = 2
    facts = _run_out_of_terrain_cards(rules, st)
    assert st["result"]["winner"] == "players" and "offensive culminates" in render(st["result"]["reason"])
    assert rules.prompt(st) is None and any(f["type"] == "end" for f in facts)


def test_5_blitz_below_level_2_the_deck_running_out_still_loses(rules):
    st = blank(rules, players=2, scenario="blitz")
    _run_out_of_terrain_cards(rules, st)
    assert st["result"]["winner"] == "adversary" and "terrain deck is exhausted" in render(st["result"]["reason"])
    assert rules.prompt(st) is None


def test_5_blitz_keeps_the_rulebook_clock_and_adds_starting_resources(rules, C):
    st = rules.setup(1, {"players": 2, "scenario": "blitz"})
    bonus = C.scenarios["blitz"]["by_players"].get("2", {}).get("start_resources_bonus", 0)
    assert st["opts"]["terrain_deck"] == "advanced" and len(st["decks"]["terrain"]) == 12
    assert all(st["pl"][s]["res"] == C.panels[s]["start_resources"] + 2 + bonus for s in st["seats"])
    # no turn deadline: a turn-10 end at level 1 does not end the game
    st = blank(rules, scenario="blitz")
    st["turn"] = 10
    _end_turn(rules, st)
    assert st["result"] is None


def test_5_standard_panel_running_out_of_cards_is_a_defeat_even_at_level_3(rules):
    st = blank(rules, players=2)
    st["inf"]["level"] = 3
    _run_out_of_terrain_cards(rules, st)
    assert st["result"]["winner"] == "adversary"


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
    assert st["result"]["winner"] == "players" and "thaw" in render(st["result"]["reason"])


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
    assert st["result"]["winner"] == "adversary" and "collapses" in render(st["result"]["reason"])


def test_5_popular_spring_wins_with_a_blue_majority_at_level_2(rules):
    st = blank(rules, scenario="popular_spring")
    tid = st["order"][0]
    st["tiles"][tid].update({"blue": 4, "red": 2})
    st["inf"]["level"] = 2
    _end_turn(rules, st)
    assert st["result"]["winner"] == "players" and "spring holds" in render(st["result"]["reason"])
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
    assert "total tyranny" in render(st["result"]["reason"])


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


# ---- issue 16.11: starting conditions per player count (balance knobs) --------------------------

def _units(st, kind):
    return sum(1 for t in st["tiles"].values() for u in t["u"] if u[0] == kind)


def test_16_11_every_scenario_sets_starting_conditions_only_through_known_knobs(C):
    """Only the tiles' starting pieces (2.C), the panels' starting resources (1.E.i) and a scenario
    panel's own adjustments (5: its tyranny pool, as Popular Spring's) move."""
    known = {"start_resources_bonus", "extra_start_cells", "start_tyranny", "start_influence",
             "tyranny_pool_per_player"}
    for sc in C.scenarios.values():
        assert set(sc["by_players"]) <= {"1", "2", "3", "4"}
        for n, knobs in sc["by_players"].items():
            assert set(knobs) <= known, (sc["id"], n, knobs)
            assert knobs.get("start_tyranny", 0) <= int(n), "A-07: at most one starting token per quadrant"
            assert 4 <= knobs.get("tyranny_pool_per_player", 5) <= 5, "a panel's pool: Popular Spring's 4 or the core 5"
        if sc["by_players"]:
            assert "Starting conditions by player count" in sc["victory_conditions"], "the players are told"


@pytest.mark.parametrize("scenario", ["standard", "blitz", "frozen_conflict", "popular_spring"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_16_11_player_count_knobs_apply_to_that_count_only(rules, C, scenario, players):
    sc = C.scenarios[scenario]
    adj = {**sc["rules_adjustments"], **sc["by_players"].get(str(players), {})}
    st = rules.setup(5, {"players": players, "scenario": scenario})
    bonus = adj.get("start_resources_bonus", 0)
    assert all(st["pl"][s]["res"] == C.panels[s]["start_resources"] + bonus for s in st["seats"])
    printed_cells = sum(C.tiles[t]["start"]["cells"] for t in st["tiles"])
    assert _units(st, "cell") == printed_cells + players * adj.get("extra_start_cells", 0)
    on_map = sum(t["tyr"] for t in st["tiles"].values())
    assert on_map == adj.get("start_tyranny", 0)
    pool = adj.get("tyranny_pool_per_player", 5)
    assert st["tyr_pool"] + on_map == pool * players, "2: five tokens per player unless the panel says otherwise"
    assert B.threshold(st) == B.scaled_threshold(players, pool), "3.D, scaled with the pool (issue 16.3)"
    assert st["inf"]["earned"] == adj.get("start_influence", 0)


def test_16_11_a_starting_tyranny_token_lies_on_the_strongest_tile_of_the_last_quadrants(rules, C):
    by_players = C.scenarios["standard"]["by_players"]
    saved = by_players.get("3")
    by_players["3"] = {"start_tyranny": 2}
    try:
        st = rules.setup(1, {"players": 3})
    finally:
        if saved is None:
            del by_players["3"]
        else:
            by_players["3"] = saved
    held = {C.tiles[t]["quadrant"]: t for t, x in st["tiles"].items() if x["tyr"]}
    assert sorted(held) == [2, 3], "one token in each of the last two quadrants, none in quadrant 1"
    for q, tid in held.items():
        def strength(t):
            return sum({"cell": 1, "outpost": 2, "garrison": 3}[u[0]] for u in st["tiles"][t]["u"])
        assert strength(tid) == max(strength(t) for t in st["tiles"] if C.tiles[t]["quadrant"] == q)
    assert st["tyr_pool"] == 15 - 2
