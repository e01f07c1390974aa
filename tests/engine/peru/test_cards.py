"""5.0 Events: at least one test per card side (P1-P36) and per Propaganda card (P37-P40)."""

from __future__ import annotations

from engine.scenarios.peru import ops, ops_gov, ops_sp, propaganda, sa_gov, sa_sp
from engine.scenarios.peru.state import piece_totals

from .conftest import card_game, event, position_event, put

GOV, SP = "government", "shining_path"


def lima(**kw):
    def prep(st):
        st["s"]["lima"].update(kw)
    return prep


def test_p1_top_removes_lima_terror_and_shifts_toward_support():
    g = event("P1", "top", GOV, lima(ter=2, sup=1))
    assert g.space("lima")["ter"] == 1 and g.space("lima")["sup"] == 2


def test_p1_bottom_free_terror_in_lima_places_two_markers():
    g = event("P1", "bottom")
    g.do(SP, "op:terror", "space:lima")
    assert g.space("lima")["ter"] == 2 and g.space("lima")["sup"] == 1
    assert g.state["res"][SP] == 10


def test_p2_top_capability_lima_operations_cost_two():
    g = event("P2", "top")
    assert g.state["caps"]["P2"] == "top"
    assert ops.sp_cost(g.state, {}, "lima", 1) == 2 and ops.sp_cost(g.state, {}, "junin", 1) == 1


def test_p2_bottom_capability_lima_operations_free():
    g = event("P2", "bottom")
    assert ops.sp_cost(g.state, {}, "lima", 1) == 0


def test_p3_top_shifts_lima_only_with_terror():
    assert event("P3", "top", GOV, lima(ter=1, sup=0)).space("lima")["sup"] == 1
    assert event("P3", "top", GOV, lima(ter=0, sup=0)).space("lima")["sup"] == 0


def test_p3_bottom_terror_in_lima_with_adjacent_guerrilla():
    g = event("P3", "bottom")
    g.do(SP, "space:junin")
    assert g.space("junin")["Ga"] == 1 and g.space("junin")["Gu"] == 0
    assert g.space("lima")["ter"] == 1 and g.space("lima")["sup"] == 1 and g.space("lima")["Gu"] == 1


def test_p4_top_two_free_limited_operations_for_government():
    g = event("P4", "top", GOV)
    g.do(GOV, "op:train", "space:lima", "place:T", "done")
    assert g.state["res"][GOV] == 20 and g.space("lima")["T"] == 8
    assert g.seat() == GOV and "skip" in g.choices()
    g.do(GOV, "skip")


def test_p4_bottom_places_two_guerrillas_in_lima_or_adjacent_locs():
    g = event("P4", "bottom")
    assert "space:loc_arequipa_cusco" not in g.choices()
    g.do(SP, "space:lima", "space:loc_lima_piura")
    assert g.space("lima")["Gu"] == 2 and g.space("loc_lima_piura")["Gu"] == 1


def test_p5_top_removes_active_and_activates_underground_in_lima():
    g = event("P5", "top", GOV, lima(Gu=2, Ga=1))
    assert g.space("lima")["Ga"] == 2 and g.space("lima")["Gu"] == 0


def test_p5_bottom_two_free_terrors_in_lima():
    g = event("P5", "bottom", SP, lima(Gu=2))
    g.do(SP, "op:terror", "space:lima", "op:terror", "space:lima")
    assert g.space("lima")["ter"] == 2 and g.space("lima")["sup"] == 0


def test_p6_top_capability_adds_one_to_investigate():
    g = event("P6", "top")
    assert sa_gov.investigate_bonus(g.state) == 1


def test_p6_bottom_capability_investigate_costs_two():
    g = event("P6", "bottom")
    fr = {"k": "sa", "seat": GOV, "sa": "investigate", "sel": [], "ph": "main", "where": None}
    sa_gov._inv_start(g.state, fr, [])
    assert g.state["res"][GOV] == 18


def test_p7_top_investigate_roll_when_police_and_active_guerrilla():
    g = event("P7", "top", GOV, lima(Ga=1), script={"hunt": [2]})
    g.do(GOV, "yes")
    assert g.state["hunt"] == 1


def test_p7_bottom_hunt_one_left():
    g = event("P7", "bottom", SP, lambda st: st.update(hunt=2))
    assert g.state["hunt"] == 1


def test_p8_top_two_police_for_two_hunt_steps():
    g = event("P8", "top", GOV)
    g.do(GOV, "yes")
    assert g.state["hunt"] == 2 and g.space("lima")["P"] == 2


def test_p8_bottom_guerrilla_from_lima_moves_hunt_left():
    g = event("P8", "bottom", SP, lambda st: st.update(hunt=2))
    g.do(SP, "rm:lima:Gu")
    assert g.state["hunt"] == 1 and g.space("lima")["Gu"] == 0


def test_p9_top_paper_trail_rolls_when_regular_base_removed():
    g = event("P9", "top", GOV, script={"hunt": [6]})
    st = g.state
    st["s"]["ayacucho"].update(T=6, Gu=0, Ga=0)
    ops_gov.assault_space(st, {}, "ayacucho", [])
    assert st["s"]["ayacucho"]["B"] == 0 and st["hunt"] == 1


def test_p9_bottom_capability_directives_special_activity():
    g = event("P9", "bottom")
    assert g.state["caps"] == {"P9": "bottom"}


def test_p10_top_investigate_with_plus_two():
    g = event("P10", "top", GOV, script={"hunt": [1]})
    g.do(GOV, "yes")
    assert g.state["hunt"] == 1
    g.do(GOV, "done")


def test_p10_bottom_guerrilla_from_lima_moves_hunt_left():
    g = event("P10", "bottom", SP, lambda st: st.update(hunt=3))
    g.do(SP, "rm:lima:Gu")
    assert g.state["hunt"] == 2


def test_p11_top_activates_rondas_and_sets_neutral():
    g = event("P11", "top", GOV, lambda st: st["s"]["amazonas"].update(Ru=2, sup=-1))
    g.do(GOV, "space:amazonas")
    assert g.space("amazonas")["Ra"] == 2 and g.space("amazonas")["sup"] == 0


def test_p11_bottom_removes_rondas_and_political_will():
    g = position_event("P11", "bottom", SP, lambda pos: put(pos, "amazonas", Ru=2))  # 2 Rondas from the box
    assert g.state["avail"]["R"] == 8 and g.space("amazonas")["Ru"] == 2
    g.do(SP, "space:amazonas")
    assert g.space("amazonas")["Ru"] == 0 and g.state["pw"] == 12 and g.state["avail"]["R"] == 10


def test_p12_top_reprisal_places_rondas_instead_of_removing():
    g = event("P12", "top", GOV)
    g.state["s"]["ayacucho"]["Ru"] = 1
    g.state["avail"]["R"] -= 1
    sa_gov._rep_rondas(g.state, "ayacucho", [])
    assert g.space("ayacucho")["Ru"] == 2


def test_p12_bottom_organize_places_underground_rondas_with_terror():
    def prep(st):
        st["s"]["ayacucho"].update(T=4, Gu=0, ter=1, sup=-1)
    g = event("P12", "bottom", GOV, prep)
    fr = {"k": "sa", "seat": GOV, "sa": "organize", "sel": [], "ph": "main", "where": None}
    g.state["stack"].append(fr)
    g.do(GOV, "space:ayacucho", "org:place")
    assert g.space("ayacucho")["Ru"] == 1 and g.space("ayacucho")["Ra"] == 0


def test_p13_top_agitate_also_places_rondas():
    g = event("P13", "top")
    fr = {"k": "agitate", "n": {}}
    propaganda._agitate_act(g.state, fr, "agitate:ayacucho", [])
    assert g.space("ayacucho")["Ru"] == 1


def test_p13_bottom_organize_cannot_select_opposition():
    g = event("P13", "bottom", SP, lambda st: st["s"]["ayacucho"].update(T=4, Gu=0, sup=-1))
    assert sa_gov.organize_spaces(g.state, {"sel": [], "where": None}) == []


def test_p14_top_removing_directives_base_advances_hunt():
    g = event("P14", "top", GOV)
    g.do(GOV, "space:junin")
    assert g.state["hunt"] == 1 and g.state["d_home"] and g.state["avail"]["B"] == 2


def test_p14_bottom_two_free_limited_operations_in_departments():
    g = event("P14", "bottom")
    g.do(SP, "op:rally")
    assert "space:lima" not in g.choices()
    g.do(SP, "space:loreto", "rally:1", "skip")
    assert g.space("loreto")["Gu"] == 1 and g.state["res"][SP] == 10


def test_p15_top_removes_guerrillas_and_terror_from_lima():
    g = event("P15", "top", GOV, lima(Gu=2, ter=1))
    g.do(GOV, "rm:lima:Gu", "rm:lima:Gu")
    assert g.space("lima")["Gu"] == 0 and g.space("lima")["ter"] == 0


def test_p15_bottom_guerrilla_then_terror_in_lima():
    g = event("P15", "bottom")
    assert g.space("lima")["Gu"] == 2
    g.do(SP, "op:terror", "space:lima", "op:terror", "space:lima")
    assert g.space("lima")["ter"] == 2


def test_p16_removes_a_piece_in_amazonas_and_huanuco_and_shifts_to_neutral():
    g = event("P16", "top", GOV, lambda st: st["s"]["amazonas"].update(Gu=1, sup=-1))
    g.do(GOV, "rm:amazonas:Gu", "rm:huanuco:P")
    assert g.space("amazonas")["Gu"] == 0 and g.space("amazonas")["sup"] == 0 and g.space("huanuco")["P"] == 0


def test_p17_top_attack_costs_a_guerrilla():
    g = event("P17", "top", GOV)
    ops_sp.attack_post(g.state, "ayacucho", {"p17": True}, [], [])
    assert g.space("ayacucho")["Gu"] == 2


def test_p17_bottom_evade_two_spaces():
    g = event("P17", "bottom")
    assert sa_sp.evade_max(g.state) == 2


def test_p18_two_free_limited_operations_in_ayacucho_with_one_special_activity():
    g = event("P18", "top", GOV, script={"hunt": [1]})
    g.do(GOV, "op:sweep", "space:ayacucho", *["move:lima"] * 4, "done")
    assert "sa:investigate" in g.choices()
    g.do(GOV, "sa:investigate", "done")
    assert g.space("ayacucho")["Ga"] == 3 and g.state["res"][GOV] == 20
    g.do(GOV, "op:assault", "space:ayacucho")
    assert not any(c.startswith("sa:") for c in g.choices())
    assert g.seat() == SP  # the second Limited Operation ended by itself: no Special Activity left
    assert g.space("ayacucho")["Ga"] == 1


def test_p19_top_removes_active_guerrillas_and_raises_will():
    g = event("P19", "top", GOV, lambda st: st["s"]["ayacucho"].update(Gu=0, Ga=3))
    g.do(GOV, "space:ayacucho")
    # +1 from the card, +1 because Shining Path loses Control of Ayacucho (1.7)
    assert g.space("ayacucho")["Ga"] == 0 and g.state["pw"] == 15


def test_p19_bottom_free_ambush_adds_two_guerrillas():
    g = event("P19", "bottom")
    g.do(SP, "space:ayacucho", "kill:P", "kill:P")
    sp = g.space("ayacucho")
    assert (sp["P"], sp["Gu"], sp["Ga"]) == (1, 4, 1)


def test_p20_free_march_then_attack_with_one_special_activity():
    g = event("P20", "top")
    g.do(SP, "space:huanuco", "move:junin:u", "done", "done")
    g.do(SP, "space:huanuco", "sa:ambush", "kill:P")
    sp = g.space("huanuco")
    assert sp["P"] == 0 and sp["Gu"] == 1 and sp["Ga"] == 1 and g.state["res"][SP] == 10


def test_p21_top_more_support_than_opposition_raises_will():
    assert event("P21", "top", GOV).state["pw"] == 14


def test_p21_bottom_free_terror_in_up_to_two_spaces():
    g = event("P21", "bottom")
    g.do(SP, "op:terror", "space:junin", "space:cusco")
    assert g.choices() == ["done"]
    g.do(SP, "done")
    assert g.space("junin")["ter"] == 1 and g.space("cusco")["ter"] == 1


def test_p22_top_assault_holds_guerrillas_until_reset():
    g = event("P22", "top", GOV, lambda st: st["s"]["ayacucho"].update(T=6, Gu=0, Ga=3))
    g.do(GOV, "op:assault", "space:ayacucho")
    assert g.state["held"]["P22"] == 3 and g.state["avail"]["G"] == 14
    propaganda.reset(g.state, [])
    assert g.state["held"]["P22"] == 0 and g.state["avail"]["G"] == 17


def test_p22_bottom_massacre_lowers_will_and_shifts_lima():
    g = event("P22", "bottom")
    assert g.state["pw"] == 11 and g.space("lima")["sup"] == 1


def test_p23_top_resources_and_police_only_train():
    g = event("P23", "top", GOV, lambda st: st["res"].update(government=5))
    assert g.state["res"][GOV] == 13
    g.do(GOV, "space:lima")
    assert "place:T" not in g.choices()


def test_p23_bottom_drug_money():
    g = event("P23", "bottom", SP, lambda st: st["s"]["amazonas"].update(Gu=1))
    assert g.state["res"][SP] == 12


def test_p24_top_police_count_as_troops_in_one_emergency_zone():
    g = event("P24", "top", GOV)
    assert ops_gov.sinchis_possible(g.state, {}, "ayacucho")
    assert ops_gov.assault_capacity(g.state, {}, "ayacucho", True) == 1  # 3 Police as Troops, Highland: 1 per 2
    assert ops_gov.assault_capacity(g.state, {}, "ayacucho") == 0


def test_p24_bottom_sweep_in_emergency_zone_with_police_shifts_opposition():
    g = event("P24", "bottom", GOV, lambda st: st["s"]["ayacucho"].update(sup=-1))
    ops_gov._sweep_finish(g.state, {"sel": ["ayacucho"]}, [])
    assert g.space("ayacucho")["sup"] == -2


def test_p25_top_remove_up_to_two_guerrillas():
    g = event("P25", "top", GOV)
    g.do(GOV, "rm:ayacucho:Gu", "rm:lima:Gu")
    assert g.space("ayacucho")["Gu"] == 2 and g.space("lima")["Gu"] == 0


def test_p25_bottom_guerrilla_at_each_base():
    g = event("P25", "bottom")
    assert g.state["avail"]["G"] == 11
    assert g.space("junin")["Gu"] == 2 and g.space("cusco")["Gu"] == 2 and g.space("ayacucho")["Gu"] == 4


def test_p26_top_four_troops_and_a_free_limited_operation():
    g = event("P26", "top", GOV)
    g.do(GOV, "space:puno")
    assert g.choices() == ["n:4", "n:3", "n:2", "n:1", "n:0"]
    g.do(GOV, "n:4")
    assert g.space("puno")["T"] == 4 and g.state["avail"]["T"] == 2
    g.do(GOV, "skip")


def test_p26_bottom_troops_held_until_reset_then_lima():
    g = event("P26", "bottom")
    g.do(SP, "from:available", "from:piura", "from:available")
    assert g.state["held"]["P26"] == 3 and piece_totals(g.state) == g.totals
    propaganda.reset(g.state, [])
    assert g.space("lima")["T"] == 10 and g.state["held"]["P26"] == 0


def test_p27_top_resources_and_clear_sabotage():
    def prep(st):
        st["res"]["government"] = 10
        st["s"]["loc_lima_piura"]["sab"] = 1
    g = event("P27", "top", GOV, prep)
    assert g.state["res"][GOV] == 14 and g.space("loc_lima_piura")["sab"] == 0


def test_p27_bottom_resources_lost_and_two_sabotage():
    g = event("P27", "bottom")
    g.do(SP, "space:loc_lima_piura", "space:loc_lima_arequipa")
    assert g.state["res"][GOV] == 14
    assert g.space("loc_lima_piura")["sab"] == 1 and g.space("loc_lima_arequipa")["sab"] == 1


def test_p28_mass_graves_executor_chooses_direction():
    g = event("P28", "top", GOV, lambda st: st["s"]["ayacucho"].update(ter=1))
    g.do(GOV, "pw:up")
    assert g.state["pw"] == 14


def test_p29_top_emergency_zone_then_guerrilla_from_each():
    g = event("P29", "top", GOV)
    g.do(GOV, "space:puno")
    assert g.space("puno")["ez"] == 1 and g.space("ayacucho")["Gu"] == 2


def test_p29_bottom_shift_emergency_zone_and_add_guerrilla():
    g = event("P29", "bottom", SP, lambda st: st["s"]["ayacucho"].update(sup=-1))
    g.do(SP, "space:ayacucho")
    assert g.space("ayacucho")["sup"] == -2 and g.space("ayacucho")["Gu"] == 4


def test_p30_top_resources_and_troops_to_lima():
    g = event("P30", "top", GOV, lambda st: st["res"].update(government=10))
    assert g.state["res"][GOV] == 14 and g.space("lima")["T"] == 13 and g.state["avail"]["T"] == 0


def test_p30_bottom_two_departments_with_troops_toward_opposition():
    g = event("P30", "bottom")
    g.do(SP, "space:piura", "space:ancash")
    assert g.space("piura")["sup"] == 1 and g.space("ancash")["sup"] == 1


def test_p31_top_civic_action_two_levels_in_emergency_zone():
    g = event("P31", "top", GOV)
    assert ops_gov.civic_max_shifts(g.state, "ayacucho") == 2 and ops_gov.civic_max_shifts(g.state, "lima") == 1


def test_p31_bottom_assault_in_emergency_zone_shifts_opposition():
    g = event("P31", "bottom", GOV, lambda st: st["s"]["ayacucho"].update(T=6, Gu=0, Ga=1, sup=-1))
    ops_gov.assault_space(g.state, {}, "ayacucho", [])
    assert g.space("ayacucho")["sup"] == -2


def test_p32_top_investigate_and_political_will():
    g = event("P32", "top", GOV, script={"hunt": [6]})
    g.do(GOV, "yes")
    assert g.state["hunt"] == 1 and g.state["pw"] == 15


def test_p32_bottom_free_limited_operation_then_evade():
    g = event("P32", "bottom")
    g.do(SP, "op:terror", "space:junin")
    assert g.state["stack"][-1]["sa"] == "evade"
    g.do(SP, "space:cusco", "to:puno", "done")
    assert g.space("puno")["Gu"] == 1


def test_p33_autogolpe_succeeds_when_roll_below_emergency_zones():
    g = event("P33", "top", GOV, lambda st: st["s"]["junin"].update(ez=1), script={"event": [1]})
    assert g.state["pw"] == 11
    assert all(g.space(h)["ez"] for h in ("amazonas", "huanuco", "junin", "ayacucho", "cusco", "puno"))


def test_p33_autogolpe_fails_on_high_roll():
    g = event("P33", "top", GOV, script={"event": [6]})
    assert g.state["pw"] == 13 and g.space("puno")["ez"] == 0


def test_p34_top_rondas_in_highland_under_sp_control():
    g = event("P34", "top", GOV)
    assert g.space("ayacucho")["Ru"] == 1 and g.space("junin")["Ru"] == 0


def test_p34_bottom_resources_per_sp_controlled_space():
    assert event("P34", "bottom").state["res"][SP] == 11


def test_p35_top_add_or_remove_emergency_zone():
    g = event("P35", "top", GOV)
    g.do(GOV, "space:ayacucho")
    assert g.space("ayacucho")["ez"] == 0


def test_p35_bottom_guerrilla_in_each_emergency_zone():
    g = event("P35", "bottom")
    g.do(SP, "yes")
    assert g.space("ayacucho")["Gu"] == 4


def test_p36_top_remove_two_guerrillas_in_highland_space():
    g = event("P36", "top", GOV)
    g.do(GOV, "space:ayacucho", "rm:ayacucho:Gu", "rm:ayacucho:Gu")
    assert g.space("ayacucho")["Gu"] == 1


def test_p36_bottom_two_free_limited_operations_in_one_highland_space():
    g = event("P36", "bottom")
    g.do(SP, "space:junin", "op:rally", "space:junin", "rally:2", "skip")
    assert g.space("junin")["Gu"] == 3 and g.state["res"][SP] == 10


def test_p37_belaunde_forbids_second_investigate_roll():
    g = event("P7", "bottom")
    fr = {"k": "sa", "seat": GOV, "sa": "investigate", "sel": [], "ph": "lima", "where": None}
    ids = [c.id for c in sa_gov._inv_ask(g.state, fr)[1]]
    assert "lima:roll" not in ids and "lima:activate" in ids


def test_p38_garcia_reprisal_one_space():
    g = event("P7", "bottom")
    g.state["president"] = "P38"
    assert sa_gov.reprisal_max(g.state) == 1


def test_p39_fujimori_organize_two_spaces():
    g = event("P7", "bottom")
    g.state["president"] = "P39"
    assert sa_gov.organize_max(g.state) == 2


def test_p40_final_propaganda_ends_the_game_after_political_will():
    g = event("P7", "bottom")
    st = g.state
    st["stack"] = [{"k": "next"}]
    st["deck"] = ["P40"]
    st["s"]["junin"]["D"] = 0
    st["s"]["junin"]["B"] = 1
    facts: list = []
    from engine.scenarios.peru.rules import FLOW
    FLOW.settle(st, facts)
    assert g.rules.prompt(st) is None
    r = g.rules.result(st)
    assert r["winner"] in (GOV, SP, None) and "7.0.2" in str(r["reason"]) or "6.2.5" in str(r["reason"])
    assert not any(f.get("phase") == "6.3" for f in facts)


def test_p24_top_assault_asks_for_the_sinchis_emergency_zone():
    def prep(st):
        st["caps"]["P24"] = "top"
        st["s"]["ayacucho"].update(Gu=0, Ga=2)
    g = card_game("P7", GOV, prep)
    g.do(GOV, "box:op_sa", "op:assault", "space:ayacucho", "sinchi:yes")
    assert g.space("ayacucho")["Ga"] == 1
    g.do(GOV, "done")
