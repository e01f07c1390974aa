"""2.1 Setup, 6.0 Propaganda Round, 6.7 Hunt Track, 7.0 Victory, hidden information,
determinism, metrics and the board data."""

from __future__ import annotations

import json

import pytest

import engine
from engine.core.contract import IllegalChoice, facts_for_seat
from engine.scenarios.peru import propaganda
from engine.scenarios.peru.state import capture, hunt_shift, piece_totals

from .conftest import RULES, Game, card_game

GOV, SP = "government", "shining_path"


def test_2_1_setup_figures():
    st = RULES.setup(5)
    assert (st["pw"], st["res"][GOV], st["res"][SP], st["hunt"]) == (13, 20, 10, 0)
    assert st["avail"] == {"T": 6, "P": 0, "R": 10, "G": 14, "B": 1}
    assert piece_totals(st) == {"T": 16, "P": 20, "R": 10, "G": 20, "B": 4, "D": 1}
    assert [s for s, sp in st["s"].items() if sp["ctl"] == "G"] == [
        "lima", "piura", "amazonas", "ancash", "huanuco", "arequipa", "puno"]
    assert [s for s, sp in st["s"].items() if sp["ctl"] == "S"] == ["ayacucho"]
    assert st["president"] == "P37" and st["elig"] == [SP, GOV] and st["caps"] == {}
    p = RULES.prompt(st)
    assert p.seats == (SP,) and sorted(c.id for c in p.choices) == ["swap:ayacucho", "swap:cusco", "swap:junin"]


def test_2_1_setup_directives_swap_holds_a_regular_base():
    g = Game(swap="cusco")
    assert g.space("cusco")["D"] == 1 and g.space("cusco")["B"] == 0 and g.state["dbox"] == 1


def test_2_1_deck_three_campaigns_with_propaganda_in_bottom_three():
    for seed in range(20):
        st = RULES.setup(seed)
        deck = st["deck"]
        assert len(deck) == 27 and len(set(deck)) == 27 and "P37" not in deck
        assert deck.index("P38") in (6, 7, 8) and deck.index("P39") in (15, 16, 17)
        assert deck.index("P40") in (24, 25, 26)


def test_2_1_fixed_deck_top_builds_rest_like_the_example():
    st = RULES.setup(1, {"deck_top": ["P36", "P9", "P8", "P12", "P33", "P18", "P38"]})
    deck = st["deck"]
    assert len(deck) == 25 and deck.index("P39") in (13, 14, 15) and deck.index("P40") in (22, 23, 24)


def test_2_1_unknown_option_is_rejected():
    with pytest.raises(ValueError):
        RULES.setup(1, {"nonsense": 1})


def test_6_1_1_dircote_and_6_2_political_will_terms():
    g = Game(swap="junin")
    terms = propaganda.political_will_terms(g.state)
    assert terms == {"andean": -3, "bases": -1, "terror": 0, "lima_support": 2, "emergency_zones": 0}


def test_6_1_3_rondas_react_activates_shifts_and_removes_guerrillas():
    g = Game(options={"script": {"rondas": [1]}}, swap="junin")
    g.state["s"]["puno"].update(Ru=2, Gu=2, sup=-1)
    g.state["avail"]["R"] -= 2
    g.state["avail"]["G"] -= 2
    propaganda.rondas_react(g.state, [])
    p = g.space("puno")
    assert p["Ra"] == 2 and p["sup"] == 0 and p["Gu"] == 1


def test_6_3_resources_earnings_and_sabotage():
    g = Game(swap="junin")
    st = g.state
    st["res"] = {GOV: 0, SP: 0}
    st["s"]["loc_lima_piura"]["Gu"] = 1
    st["avail"]["G"] -= 1
    propaganda.resources_phase(st, [])
    assert st["s"]["loc_lima_piura"]["sab"] == 1
    assert st["res"][GOV] == 4 + 6 + 6        # Lima + Coastal Control, 3 LoCs unsabotaged
    assert st["res"][SP] == 1 + 3              # Ayacucho Control + 3 Bases


def test_6_5_redeploy_troops_must_leave_locs_and_ez_placement():
    g = Game(swap="junin")
    st = g.state
    st["s"]["loc_lima_piura"]["T"] = 2
    st["avail"]["T"] -= 2
    st["stack"].append({"k": "redeploy", "ph": "troops"})
    assert all(c.startswith("move:loc_lima_piura:") for c in g.choices())
    g.do(GOV, "move:loc_lima_piura:lima", "move:loc_lima_piura:piura", "done")
    assert g.space("lima")["T"] == 8 and g.space("piura")["T"] == 2


def test_6_5_2_emergency_zone_removed_with_control_support_and_no_sp():
    g = Game(swap="junin")
    st = g.state
    st["s"]["ayacucho"].update(Gu=0, B=0, sup=1, ctl="G")
    st["avail"]["G"] += 3
    st["avail"]["B"] += 1
    propaganda.emergency_zones(st, [])
    assert st["s"]["ayacucho"]["ez"] == 0


def test_6_6_reset_clears_markers_and_flips_guerrillas():
    g = Game(swap="junin")
    st = g.state
    st["s"]["lima"].update(ter=3, Ga=1, Gu=0)
    st["s"]["loc_lima_piura"]["sab"] = 1
    propaganda.reset(st, [])
    assert st["s"]["lima"]["ter"] == 0 and st["s"]["lima"]["Gu"] == 1 and st["s"]["loc_lima_piura"]["sab"] == 0


def test_6_2_5_early_victory_shining_path():
    g = Game(swap="junin")
    st = g.state
    st["pw"] = 3
    facts: list = []
    propaganda.political_will_phase(st, {"final": False}, facts)
    assert RULES.prompt(st) is None and RULES.result(st)["winner"] == SP


def test_7_0_2_final_victory_tie_at_ten():
    g = Game(swap="junin")
    g.state["pw"] = 10
    propaganda.final_victory(g.state, [], "test")
    r = RULES.result(g.state)
    assert r["tie"] and r["winner"] is None


def test_6_7_2_capture_guzman():
    g = Game(swap="junin")
    st = g.state
    st["hunt"] = 3
    hunt_shift(st, 1, [], "test")
    # +5 for the capture, +1 as Ayacucho (3 Guerrillas -> 2) leaves Shining Path Control
    assert st["captured"] and st["pw"] == 19
    assert st["s"]["ayacucho"]["Gu"] == 2 and st["s"]["junin"]["D"] == 0 and st["s"]["junin"]["B"] == 1
    assert piece_totals(st)["B"] == 4 and st["dbox"] == 0
    hunt_shift(st, -1, [], "ignored after capture")
    assert st["hunt"] == 4


def test_6_7_2_capture_when_directives_base_off_map():
    g = Game(swap="junin")
    st = g.state
    st["s"]["junin"]["D"] = 0
    st["d_home"] = True
    st["dbox"] = 0
    st["avail"]["B"] += 1
    capture(st, [])
    assert st["captured"] and piece_totals(st)["B"] == 4


def test_hidden_directives_base_never_in_government_view_or_facts():
    g = Game(swap="cusco")
    v = RULES.view(g.state, GOV)
    text = json.dumps(v)
    assert v["directives_base"] is None and "directives_base\": true" not in text
    assert RULES.view(g.state, SP)["directives_base"] == "cusco"
    gov_facts = facts_for_seat(g.facts, GOV)
    assert not any("cusco" in json.dumps(f).lower() for f in gov_facts)
    assert "deck" not in v and "rng" not in v and "deck" not in RULES.view(g.state, SP)


def test_only_current_card_face_up_and_illegal_choice_rejected():
    g = Game(swap="junin")
    v = RULES.view(g.state, None)
    assert v["current_card"] == g.state["played"][-1] and v["deck_count"] == 26
    before = RULES.dumps(g.state)
    with pytest.raises(IllegalChoice):
        RULES.apply(g.state, GOV, "box:event")
    with pytest.raises(IllegalChoice):
        RULES.apply(g.state, SP, "op:rally")
    assert RULES.dumps(g.state) == before


def test_determinism_same_seed_same_choices_same_states_and_facts():
    def run():
        g = Game(seed=11, swap="ayacucho")
        g.play_random(11)
        return RULES.dumps(g.state)
    assert run() == run()


def test_json_round_trip_and_copy_independence():
    g = Game(swap="junin")
    st2 = RULES.loads(RULES.dumps(g.state))
    assert st2 == g.state
    cp = RULES.copy(g.state)
    cp["s"]["lima"]["T"] = 99
    cp["stack"][-1]["x"] = 1
    assert g.state["s"]["lima"]["T"] == 7 and "x" not in g.state["stack"][-1]


def test_metrics_are_public_numbers():
    g = Game(swap="junin")
    m = RULES.metrics(g.state)
    assert m["political_will"] == 13 and m["bases_on_map"] == 3 and m["emergency_zones"] == 1
    assert m["government_control_population"] == 4 + 6 + 3 and m["shining_path_control_population"] == 1
    assert all(isinstance(v, (int, float)) for v in m.values())


def test_board_and_registry():
    b = RULES.board()
    assert len(b["spaces"]) == 17 and {"x", "y", "adjacent", "population"} <= set(b["spaces"][0])
    assert [s.id for s in RULES.seats] == [GOV, SP]
    assert engine.load("peru") is RULES and "heuristic" in RULES.bot_kinds()
    assert {o.key for o in RULES.options()} == {"deck_top", "deck", "script", "campaigns"}


def test_turn_scope_changes_with_the_acting_seat():
    g = card_game("P7", SP)
    t1 = RULES.prompt(g.state).turn
    g.do(SP, "box:op_sa", "op:rally")
    assert RULES.prompt(g.state).turn == t1
    g.do(SP, "space:loreto", "rally:1", "done")
    assert RULES.prompt(g.state).turn != t1


def test_6_0_propaganda_round_from_the_starting_position():
    """P38 as the very first card: every phase of 6.1-6.6 on the setup position."""
    g = Game(options={"deck_top": ["P38"], "script": {"hunt": [6]}}, swap="junin")
    st = g.state
    assert st["president"] == "P38" and st["hunt"] == 1              # 6.1.1 DIRCOTE: 6 > 1
    assert st["d_revealed"] and RULES.view(st, GOV)["directives_base"] == "junin"   # 6.1.2
    assert g.seat() == SP and "skip" in g.choices()
    g.do(SP, "skip", "skip")
    # 6.2: Andean -3, Bases -1, Lima Support +2, Emergency Zone not Government-controlled 0
    assert st is not g.state and g.state["pw"] == 11
    assert g.state["res"] == {GOV: 20, SP: 14}                       # 6.3: 4+6+8 -> 20; 1 + 3 Bases
    assert g.choices() == ["done"]                                   # 6.4.1 nothing to improve
    g.do(GOV, "done")
    assert g.choices() == ["done"]                                   # 6.4.2 Ayacucho already AO
    g.do(SP, "done")
    g.do(GOV, "done")                                                # 6.5.1 no Troop must move
    assert sorted(g.choices()) == ["done", "ez:cusco", "ez:junin"]   # 6.5.2
    g.do(GOV, "ez:junin", "done")
    assert sorted(g.choices()) == ["swap:ayacucho", "swap:cusco", "swap:junin"]   # 6.5.3
    g.do(SP, "swap:cusco")
    st = g.state
    assert not st["d_revealed"] and st["s"]["cusco"]["D"] == 1 and st["s"]["junin"]["B"] == 1
    assert RULES.view(st, GOV)["directives_base"] is None
    assert st["s"]["junin"]["ez"] == 1 and st["elig"] == [SP, GOV]  # eligibility untouched (2.3.1)
    assert len(st["played"]) == 2 and RULES.prompt(st).kind == "box"   # 6.6 Reset, next card up
