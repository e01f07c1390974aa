"""Player decisions the rulebook leaves open are prompts to the deciding seat (rules notes
"Who chooses"), and forced outcomes happen at once."""

from __future__ import annotations

from engine.scenarios.peru import propaganda
from engine.scenarios.peru.state import capture

from .conftest import available, card_game, event, position_event, position_game, put

GOV, SP = "government", "shining_path"


def test_6_1_3_rondas_react_government_chooses_which_guerrilla_goes():
    def prep(st):
        st["s"]["cusco"].update(Ra=2, Gu=1, Ga=1, B=0)
    g = card_game("P7", SP, prep, script={"rondas": [6] * 10})
    facts = []
    propaganda.rondas_react(g.state, facts)
    assert g.seat() == GOV and sorted(g.choices()) == ["remove:Ga", "remove:Gu"]
    assert g.rules.prompt(g.state).rule == "6.1.3"
    g.do(GOV, "remove:Gu")
    sp = g.space("cusco")
    assert sp["Gu"] == 0 and sp["Ga"] == 1 and sp["Ra"] == 2


def test_6_1_3_rondas_react_removal_is_automatic_when_there_is_no_choice():
    def prep(st):
        st["s"]["cusco"].update(Ra=4, Gu=0, Ga=3, B=0)
    g = card_game("P7", SP, prep, script={"rondas": [6] * 10})
    propaganda.rondas_react(g.state, [])
    assert g.space("cusco")["Ga"] == 1
    assert not any(f["k"] == "gpick" for f in g.state["stack"])


def test_6_7_2_capture_government_chooses_the_half_removed_where_it_matters():
    def prep(st):
        st["s"]["cusco"].update(Gu=2, Ga=1)
        st["s"]["ayacucho"].update(Gu=0, Ga=2)
    g = card_game("P7", SP, prep)
    facts = []
    capture(g.state, facts)
    assert g.space("ayacucho")["Ga"] == 1          # only Active ones: no choice, done at once
    assert g.seat() == GOV and sorted(g.choices()) == ["remove:Ga", "remove:Gu"]
    assert str(g.rules.prompt(g.state).text).startswith("Guzman captured")
    g.do(GOV, "remove:Ga")
    assert g.space("cusco")["Gu"] == 2 and g.space("cusco")["Ga"] == 0


def test_3_3_3_attack_removes_two_when_it_can_3_1_maximum_extent():
    """"up to two" with 3.1 "affected to the maximum extent possible": no early stop while a
    Government piece is left; the Shining Path still picks which pieces."""
    def prep(st):
        st["s"]["lima"].update(Gu=3)
    g = card_game("P7", SP, prep, script={"attack": [3]})
    g.do(SP, "box:limited_op", "op:attack", "space:lima")
    assert g.choices() == ["kill:P"]            # Police before Troops, no "done" yet
    g.do(SP, "kill:P", "kill:P")
    assert g.space("lima")["P"] == 2 and g.space("lima")["T"] == 7
    assert g.seat() == GOV  # the Limited Attack ended by itself


def test_3_3_3_attack_may_remove_underground_rondas_before_police():
    def prep(st):
        st["s"]["puno"].update(Gu=2, Ru=1)
    g = card_game("P7", SP, prep, script={"attack": [2]})
    g.do(SP, "box:limited_op", "op:attack", "space:puno")
    assert set(g.choices()) == {"kill:P", "kill:Ru"}
    g.do(SP, "kill:Ru", "kill:P")
    assert g.space("puno")["P"] == 0 and g.space("puno")["Ru"] == 0 and g.space("puno")["sup"] == 1


def test_p29_top_executing_side_chooses_the_guerrilla_in_each_emergency_zone():
    def prep(st):
        st["s"]["ayacucho"].update(Gu=1, Ga=1)
    g = event("P29", "top", GOV, prep)
    g.do(GOV, "space:cusco")
    assert g.seat() == GOV and sorted(g.choices()) == ["remove:Ga", "remove:Gu"]
    g.do(GOV, "remove:Gu")
    assert g.space("ayacucho")["Gu"] == 0 and g.space("ayacucho")["Ga"] == 1
    assert g.space("cusco")["Gu"] == 0 and g.space("cusco")["ez"] == 1


def test_p17_top_high_casualties_shining_path_chooses_its_loss():
    def prep(st):
        st["caps"]["P17"] = "top"
        st["s"]["puno"].update(Gu=2, Ru=0)
    g = card_game("P7", SP, prep, script={"attack": [6]})
    g.do(SP, "box:op_sa", "op:attack", "space:puno", "attack:roll")
    # the miss Activated both; one more Underground arrives only on a roll of 1: all Active, no choice
    assert g.space("puno")["Ga"] == 1 and g.space("puno")["Gu"] == 0


def test_p25_bottom_short_of_guerrillas_the_executing_side_chooses_the_bases():
    def edit(pos):  # one Guerrilla left Available, the others in Loreto
        put(pos, "loreto", Gu=available(pos, "G") - 1)
    g = position_event("P25", "bottom", SP, edit)
    assert g.seat() == SP and sorted(g.choices()) == ["space:ayacucho", "space:cusco", "space:junin"]
    cusco = g.space("cusco")["Gu"]
    g.do(SP, "space:cusco")
    assert g.space("cusco")["Gu"] == cusco + 1 and g.state["avail"]["G"] == 0


def test_p25_bottom_places_one_guerrilla_per_base_when_enough_are_available():
    g = event("P25", "bottom", SP)
    assert g.space("junin")["Gu"] == 2 and g.space("cusco")["Gu"] == 2 and g.space("ayacucho")["Gu"] == 4


def test_3_3_1_rally_base_shining_path_chooses_which_two_guerrillas():
    def prep(st):
        st["s"]["loreto"].update(Gu=2, Ga=2)
    g = card_game("P7", SP, prep)
    g.do(SP, "box:limited_op", "op:rally", "space:loreto")
    assert {"rally:base", "rally:base:1u", "rally:base:2u"} <= set(g.choices())
    g.do(SP, "rally:base:2u")
    sp = g.space("loreto")
    assert sp["Gu"] == 0 and sp["Ga"] == 2 and sp["B"] == 1


def test_p35_bottom_short_of_guerrillas_shining_path_picks_the_emergency_zones():
    def edit(pos):
        pos["spaces"]["cusco"]["emergency_zone"] = True
        pos["spaces"]["junin"]["emergency_zone"] = True
        put(pos, "loreto", Gu=available(pos, "G") - 1)
    g = position_event("P35", "bottom", SP, edit)
    g.do(SP, "yes")
    assert sorted(g.choices()) == ["space:ayacucho", "space:cusco", "space:junin"]
    junin = g.space("junin")["Gu"]
    g.do(SP, "space:junin")
    assert g.space("junin")["Gu"] == junin + 1 and g.state["avail"]["G"] == 0
    assert not any(f["k"] == "ev" for f in g.state["stack"])


def test_p34_top_short_of_rondas_the_executing_side_picks_the_spaces():
    def edit(pos):
        put(pos, "junin", Gu=3, P=0)
        put(pos, "cusco", Gu=3, P=0)
        put(pos, "lima", Ru=available(pos, "R") - 1)
    g = position_event("P34", "top", GOV, edit)
    assert g.seat() == GOV and "space:cusco" in g.choices() and "space:junin" in g.choices()
    g.do(GOV, "space:cusco")
    assert g.space("cusco")["Ru"] == 1 and g.space("junin")["Ru"] == 0 and g.state["avail"]["R"] == 0


def test_1_4_1_taking_a_rondas_from_the_map_the_government_picks_active_or_underground():
    def edit(pos):  # every Rondas on the map: none Available
        put(pos, "lima", Ru=5, Ra=5)
    g = position_game("P7", SP, edit)
    assert g.state["avail"]["R"] == 0
    g.do(SP, "box:op_sa", "op:terror", "space:junin")
    assert g.seat() == GOV and {"from:lima", "from:lima:u", "stop"} <= set(g.choices())
    g.do(GOV, "from:lima:u")
    assert g.space("lima")["Ru"] == 4 and g.space("lima")["Ra"] == 5 and g.space("junin")["Ru"] == 1


def test_3_2_1_train_costs_nothing_in_lima_when_no_cube_is_placed():
    g = card_game("P7", GOV)
    res = g.state["res"][GOV]
    g.do(GOV, "box:op_sa", "op:train", "space:lima", "done")
    assert g.state["res"][GOV] == res
    g2 = position_game("P7", GOV, lambda pos: put(pos, "lima", P=2))  # 2 of Lima's 4 Police Available
    assert g2.state["avail"]["P"] == 2
    g2.do(GOV, "box:op_sa", "op:train", "space:lima", "place:P", "done")
    assert g2.state["res"][GOV] == res - 2
