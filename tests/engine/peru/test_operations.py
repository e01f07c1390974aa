"""3.0 Operations, 4.0 Special Activities and 2.3 Initiative Track, one test (at least) each."""

from __future__ import annotations

from .conftest import RULES, card_game, position_game, put

GOV, SP = "government", "shining_path"


def gov(prep=None, script=None, card="P7"):
    g = card_game(card, GOV, prep, script)
    return g


def sp(prep=None, script=None, card="P7"):
    return card_game(card, SP, prep, script)


# ---------------------------------------------------------------- 2.3 Initiative Track

def test_2_3_2_second_eligible_cannot_take_the_first_box():
    g = sp()
    g.do(SP, "box:op_sa", "pass")
    assert sorted(g.choices()) == ["box:event", "box:limited_op"]


def test_2_3_3_pass_gives_government_two_and_shining_path_one():
    g = sp()
    g.do(SP, "box:event", "pass")
    g.do(GOV, "box:op_sa", "pass")
    assert g.state["res"] == {GOV: 20, SP: 11}


def test_2_3_4_limited_operation_is_one_space_without_special_activity():
    g = sp()
    g.do(SP, "box:limited_op", "op:rally", "space:loreto", "rally:1")
    # one space, no Special Activity: the Limited Operation ends by itself (no "done" needed)
    assert g.seat() == GOV and g.choices() == ["box:event", "box:op_sa"]
    assert g.space("loreto")["Gu"] == 1


def test_2_3_5_leftmost_cylinder_becomes_first_eligible():
    g = sp()
    g.do(SP, "box:op_sa", "pass")
    g.do(GOV, "box:event", "pass")
    assert g.state["elig"] == [GOV, SP]


# ---------------------------------------------------------------- 3.2 Government

def test_3_2_1_train_places_up_to_six_cubes_in_lima_then_civic_action():
    g = gov(lambda st: st["s"]["piura"].update(sup=0))
    g.do(GOV, "box:op_sa", "op:train", "space:lima", *["place:T"] * 6)
    assert g.space("lima")["T"] == 13 and g.state["res"][GOV] == 18
    assert "place:T" not in g.choices()
    g.do(GOV, "civic:piura", "civic:shift")
    assert "civic:shift" not in g.choices()
    g.do(GOV, "done", "done")
    assert g.space("piura")["sup"] == 1 and g.state["res"][GOV] == 16


def test_3_2_1_civic_action_removes_terror_before_shifting():
    g = gov(lambda st: st["s"]["piura"].update(sup=0, ter=1))
    g.do(GOV, "box:op_sa", "op:train", "civic:piura")
    assert "civic:shift" not in g.choices()
    g.do(GOV, "civic:terror", "civic:shift", "done", "done")
    assert g.space("piura")["ter"] == 0 and g.space("piura")["sup"] == 1 and g.state["res"][GOV] == 16


def test_3_2_2_patrol_moves_cubes_activates_on_locs_and_assaults_one_loc():
    g = gov(lambda st: st["s"]["loc_lima_piura"].update(Gu=2))
    g.do(GOV, "box:op_sa", "op:patrol")
    assert g.state["res"][GOV] == 18
    g.do(GOV, "from:lima", "cube:P", "to:loc_lima_piura", "from:lima", "cube:T", "to:loc_lima_piura", "done")
    assert g.space("loc_lima_piura")["Ga"] == 2
    g.do(GOV, "assault:loc_lima_piura")
    assert g.space("loc_lima_piura")["Ga"] == 0 and g.state["res"][GOV] == 18


def test_3_2_2_patrol_cube_stops_where_shining_path_pieces_are():
    g = gov(lambda st: st["s"]["loc_lima_ucayali"].update(Gu=1))
    g.do(GOV, "box:op_sa", "op:patrol", "from:lima", "cube:T")
    dests = g.choices()
    assert "to:loc_lima_ucayali" in dests and "to:loc_arequipa_cusco" in dests


def test_3_2_3_sweep_moves_adjacent_troops_and_activates_per_cube():
    g = gov(lambda st: st["s"]["junin"].update(Gu=3))
    g.do(GOV, "box:op_sa", "op:sweep", "space:junin", "move:lima", "done", "done")
    sp_ = g.space("junin")
    assert sp_["T"] == 1 and sp_["Ga"] == 3 and g.state["res"][GOV] == 18


def test_3_2_3_sweep_in_jungle_activates_one_per_two_cubes():
    g = gov(lambda st: st["s"]["loreto"].update(Gu=3, P=3))
    g.do(GOV, "box:op_sa", "op:sweep", "space:loreto", "done", "done")
    assert g.space("loreto")["Ga"] == 1


def test_3_2_4_assault_highland_one_per_two_troops_bases_last():
    g = gov(lambda st: st["s"]["ayacucho"].update(T=4, Gu=1, Ga=2))
    g.do(GOV, "box:op_sa", "op:assault", "space:ayacucho", "done")
    sp_ = g.space("ayacucho")
    assert sp_["Ga"] == 0 and sp_["Gu"] == 1 and sp_["B"] == 1


def test_3_2_4_assault_removing_directives_base_advances_hunt():
    g = gov(lambda st: st["s"]["junin"].update(T=4, Gu=0))
    g.do(GOV, "box:op_sa", "op:assault", "space:junin", "done")
    assert g.space("junin")["D"] == 0 and g.state["hunt"] == 1 and g.state["d_home"]


# ---------------------------------------------------------------- 3.3 Shining Path

def test_3_3_1_rally_places_up_to_population_plus_bases():
    g = sp()
    g.do(SP, "box:op_sa", "op:rally", "space:ayacucho")
    assert "rally:2" in g.choices() and "rally:3" not in g.choices()
    g.do(SP, "rally:2", "done")
    assert g.space("ayacucho")["Gu"] == 5 and g.state["res"][SP] == 9


def test_3_3_1_rally_replaces_two_guerrillas_with_a_base():
    g = sp(lambda st: st["s"]["loreto"].update(Gu=2))
    g.do(SP, "box:op_sa", "op:rally", "space:loreto", "rally:base", "done")
    assert g.space("loreto")["B"] == 1 and g.space("loreto")["Gu"] == 0 and g.state["avail"]["B"] == 0


def test_3_3_1_rally_cannot_select_departments_at_support_but_lima_yes():
    g = sp()
    g.do(SP, "box:op_sa", "op:rally")
    assert "space:piura" not in g.choices() and "space:lima" in g.choices()


def test_1_4_1_rally_may_take_guerrillas_from_the_map_when_none_available():
    g = position_game("P7", SP, lambda pos: put(pos, "loreto", Gu=14))  # no Guerrilla left Available
    assert g.state["avail"]["G"] == 0
    g.do(SP, "box:op_sa", "op:rally", "space:ucayali", "rally:1", "from:loreto", "done")
    assert g.space("ucayali")["Gu"] == 1 and g.space("loreto")["Gu"] == 13


def test_3_3_2_march_activates_when_entering_support_with_more_than_three():
    g = sp(lambda st: st["s"]["junin"].update(Gu=2))
    g.do(SP, "box:op_sa", "op:march", "space:lima", "move:junin:u", "move:junin:u", "done", "done")
    assert g.space("lima")["Ga"] == 2 and g.space("lima")["Gu"] == 1 and g.state["res"][SP] == 9


def test_3_3_2_march_onto_loc_is_free_and_stays_underground_when_few():
    g = sp()
    g.do(SP, "box:op_sa", "op:march", "space:loc_lima_ucayali", "move:junin:u", "done", "done")
    assert g.space("loc_lima_ucayali")["Gu"] == 1 and g.state["res"][SP] == 10


def test_3_3_3_attack_roll_removes_police_before_troops():
    g = sp(lambda st: st["s"]["lima"].update(Gu=3), script={"attack": [3]})
    g.do(SP, "box:limited_op", "op:attack", "space:lima")
    assert "kill:T" not in g.choices()
    g.do(SP, "kill:P", "kill:P")
    assert g.space("lima")["P"] == 2 and g.space("lima")["Ga"] == 3


def test_3_3_3_attack_roll_of_one_adds_a_guerrilla_and_rondas_loss_shifts_support():
    g = sp(lambda st: st["s"]["puno"].update(Gu=1, Ru=1, sup=-1), script={"attack": [1]})
    g.do(SP, "box:limited_op", "op:attack", "space:puno", "kill:Ru", "kill:P")
    sp_ = g.space("puno")
    assert sp_["Ru"] == 0 and sp_["P"] == 0 and sp_["Gu"] == 1 and sp_["Ga"] == 1 and sp_["sup"] == 0


def test_3_3_3_attack_misses_when_roll_exceeds_guerrillas():
    g = sp(script={"attack": [6]})
    g.do(SP, "box:limited_op", "op:attack", "space:junin")
    assert g.space("junin")["P"] == 2 and g.space("junin")["Ga"] == 1


def test_3_3_4_terror_marker_shift_and_rondas_backlash():
    g = sp()
    g.do(SP, "box:op_sa", "op:terror", "space:junin", "space:lima")
    assert g.state["res"][SP] == 9
    j = g.space("junin")
    assert j["ter"] == 1 and j["sup"] == -2 and j["Ru"] == 1 and j["Ga"] == 1
    assert g.space("lima")["sup"] == 1 and g.space("lima")["Ru"] == 0


def test_3_3_4_terror_on_loc_places_sabotage():
    g = sp(lambda st: st["s"]["loc_lima_piura"].update(Gu=1))
    g.do(SP, "box:op_sa", "op:terror", "space:loc_lima_piura", "done")
    assert g.space("loc_lima_piura")["sab"] == 1 and g.state["res"][SP] == 10


# ---------------------------------------------------------------- 4.2 Government Special Activities

def test_4_2_1_investigate_rolls_against_next_box_and_may_use_lima_police():
    g = gov(script={"hunt": [2]})
    g.do(GOV, "box:op_sa", "op:train", "sa:investigate")
    assert g.state["hunt"] == 1
    g.do(GOV, "lima:activate")
    assert g.space("lima")["Ga"] == 1 and g.space("lima")["P"] == 3


def test_4_2_1_investigate_fails_when_roll_not_greater():
    g = gov(script={"hunt": [1]})
    g.do(GOV, "box:op_sa", "op:train", "sa:investigate")
    assert g.state["hunt"] == 0


def test_4_2_2_reprisal_terror_shift_relocate_and_halve_rondas():
    g = gov(lambda st: st["s"]["ayacucho"].update(T=2, Ru=1, Ra=2))
    g.do(GOV, "box:op_sa", "op:sweep", "sa:reprisal", "space:ayacucho", "to:junin")
    a = g.space("ayacucho")
    assert a["ter"] == 1 and a["sup"] == -1 and a["Gu"] == 2 and g.space("junin")["Gu"] == 2
    assert a["Ru"] == 2 and a["Ra"] == 0


def test_4_2_3_organize_places_active_rondas_with_government_control():
    g = gov(lambda st: st["s"]["ayacucho"].update(Gu=0, sup=-1))
    g.do(GOV, "box:op_sa", "op:train", "sa:organize", "space:ayacucho", "org:place")
    assert g.space("ayacucho")["Ra"] == 1 and g.state["avail"]["R"] == 9


def test_4_2_3_organize_not_in_active_opposition():
    g = gov(lambda st: st["s"]["ayacucho"].update(Gu=0))
    g.do(GOV, "box:op_sa", "op:train")
    assert "sa:organize" not in g.choices()


# ---------------------------------------------------------------- 4.3 Shining Path Special Activities

def test_4_3_1_govern_highland_resources_and_shift_or_jungle_one():
    g = sp(lambda st: st["s"]["loreto"].update(Gu=1))
    g.do(SP, "box:op_sa", "op:rally", "sa:govern", "space:ayacucho", "govern:res", "space:loreto")
    assert g.state["res"][SP] == 13 and g.space("ayacucho")["sup"] == -1
    assert g.space("ayacucho")["Ga"] == 1 and g.space("loreto")["Ga"] == 1


def test_4_3_2_evade_moves_hides_and_rolls_hunt_left():
    g = sp(lambda st: st.update(hunt=2), script={"hunt": [3]})
    g.state["s"]["ayacucho"].update(Gu=1, Ga=2)
    g.do(SP, "box:op_sa", "op:rally", "sa:evade", "space:ayacucho", "g:a", "to:cusco", "hunt:u")
    assert g.state["hunt"] == 1 and g.space("cusco")["Gu"] == 2 and g.space("lima")["Gu"] == 0


def test_4_3_3_ambush_sure_hit_activating_one_guerrilla():
    g = sp()
    g.do(SP, "box:op_sa", "op:attack", "space:ayacucho", "sa:ambush", "kill:P", "kill:P")
    a = g.space("ayacucho")
    assert a["P"] == 1 and a["Ga"] == 1 and a["Gu"] == 3


def test_1_7_political_will_follows_shining_path_control():
    g = sp()
    g.do(SP, "box:op_sa", "op:rally", "space:junin", "rally:2")
    assert g.space("junin")["ctl"] == "S" and g.state["pw"] == 12


def test_1_4_1_rally_base_taken_from_the_map_when_none_available():
    def edit(pos):  # the last Available Base in Loreto
        put(pos, "loreto", Gu=2, B=1)
    g = position_game("P7", SP, edit)
    assert g.state["avail"]["B"] == 0
    g.do(SP, "box:op_sa", "op:rally", "space:madre_de_dios")
    assert "rally:base" not in g.choices()
    g.do(SP, "rally:1", "done")
    g2 = position_game("P7", SP, lambda pos: (edit(pos), put(pos, "ucayali", Gu=2)))
    g2.do(SP, "box:op_sa", "op:rally", "space:ucayali", "rally:base", "from:loreto", "done")
    assert g2.space("ucayali")["B"] == 1 and g2.space("loreto")["B"] == 0 and g2.space("ucayali")["Gu"] == 0


# ---------------------------------------------------------------- issue 19: Train with no cube Available

def test_1_4_1_train_offers_to_take_a_police_from_the_map_not_to_place_one_when_none_is_available():
    """3.2.1 places Available cubes; 1.4.1 (Important!) lets an Operation take a cube from
    elsewhere on the map when none is Available. The choice must say so, not "Place a Police"."""
    from engine.core.messages import render
    g = card_game("P7", GOV)
    assert g.state["avail"]["P"] == 0 and g.space("piura")["P"] == 2
    g.do(GOV, "box:op_sa", "op:train", "space:lima")
    ch = {c.id: c for c in RULES.prompt(g.state).choices}
    assert render(ch["place:T"].label) == "Place a Troop in Lima"
    assert "Place a Police" not in render(ch["place:P"].label)
    assert render(ch["place:P"].label).startswith("Take a Police from elsewhere on the map")
    assert "1.4.1" in ch["place:P"].rule and ch["place:P"].cost == {GOV: 2}


def test_1_4_1_place_no_more_is_not_counted_as_a_placed_cube():
    """Choosing a Police none is Available of leads to where it is taken from, with no "Place no
    more" that would count a cube never placed: 6 cubes counted are 6 cubes in Lima (3.2.1)."""
    g = card_game("P7", GOV)
    lima = g.space("lima")["T"] + g.space("lima")["P"]
    g.do(GOV, "box:op_sa", "op:train", "space:lima", "place:P")
    assert g.seat() == GOV and "stop" not in g.choices() and "from:piura" in g.choices()
    g.do(GOV, "from:piura")
    assert g.space("piura")["P"] == 1 and g.space("lima")["P"] == 5
    assert "(1 placed)" in str(RULES.prompt(g.state).text)
    g.do(GOV, *["place:T"] * 5)
    assert "place:T" not in g.choices() and "place:P" not in g.choices()
    assert g.space("lima")["T"] + g.space("lima")["P"] == lima + 6
