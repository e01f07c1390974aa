"""3.0 Operations and 4.0 Special Activities, including the rulebook's worked examples."""

from __future__ import annotations

import pytest

from .conftest import BD, RULES, clear, conserved, ids, new, pc, play, put

GOVT_FIRST = [1, 2]     # card 1: G F A C
FARC_FIRST = [19, 20]   # card 19: F G A C
AUC_FIRST = [37, 38]    # card 37: A G F C
CARTELS_FIRST = [55, 56]  # card 55: C G F A


def blank(deck, **opts):
    return clear(new(deck, **opts))


# ---------------------------------------------------------------- 3.2.1 Train
def test_3_2_1_train_places_cubes_in_city_then_base():
    st = blank(GOVT_FIRST)
    put(st, "bogota", troops=2, police=1)
    play(st, "op:train", "space:bogota", "mix:3-3")
    assert pc(st, "bogota") == {"troops": 5, "police": 4}
    assert st["res"][0] == 37
    play(st, "done", "base:bogota", "piece:troops", "piece:troops", "piece:police")
    assert pc(st, "bogota") == {"troops": 3, "police": 3, "gbase": 1}
    assert conserved(st)


def test_3_2_1_train_civic_action_shifts_support():
    st = blank(GOVT_FIRST)
    put(st, "cali", troops=1, police=1)
    play(st, "op:train", "space:cali", "mix:0-0", "done", "civic:cali", "space:cali", "space:cali")
    assert st["sup"][BD.index["cali"]] == 2
    assert st["res"][0] == 40 - 3 - 6


def test_3_2_1_train_needs_base_to_place_in_department():
    st = blank(GOVT_FIRST)
    put(st, "huila", troops=1)
    play(st, "op:train", "space:huila")
    assert pc(st, "huila") == {"troops": 1}
    assert "done" in ids(st)


# ---------------------------------------------------------------- 3.2.2 Patrol
def test_3_2_2_patrol_moves_activates_and_assaults_on_a_loc():
    st = blank(GOVT_FIRST)
    put(st, "bogota", troops=2, police=1)
    put(st, "loc_bogota_neiva", farc_u=2)
    play(st, "op:patrol", "from:bogota", "piece:troops", "space:loc_bogota_neiva")
    play(st, "from:bogota", "piece:troops", "space:loc_bogota_neiva", "done")
    assert pc(st, "loc_bogota_neiva") == {"troops": 2, "farc_a": 2}
    play(st, "space:loc_bogota_neiva")
    assert pc(st, "loc_bogota_neiva") == {"troops": 2}
    assert st["res"][0] == 37


def test_3_2_2_patrol_stops_on_entering_guerrillas():
    st = blank(GOVT_FIRST)
    put(st, "bucaramanga", police=1)
    put(st, "loc_ayacucho_cucuta", farc_u=1)
    play(st, "op:patrol", "from:bucaramanga")
    assert "space:cucuta" not in ids(st) and "space:loc_ayacucho_cucuta" in ids(st)


# ---------------------------------------------------------------- 3.2.3 Sweep
def test_3_2_3_example_sweep_into_cesar_sources():
    """Rulebook 3.2.3 example: Troops from Cúcuta, Bucaramanga and Sincelejo via the LoCs, and from
    Santa Marta, the 3 adjacent Departments and the 4 LoCs, may enter Cesar."""
    st = blank(GOVT_FIRST)
    srcs = ["cucuta", "bucaramanga", "sincelejo", "santa_marta", "atlantico", "antioquia", "santander",
            "loc_ayacucho_santa_marta", "loc_ayacucho_bucaramanga", "loc_ayacucho_sincelejo", "loc_ayacucho_cucuta"]
    for s in srcs:
        put(st, s, troops=1)
    put(st, "medellin", troops=1)
    put(st, "cesar", farc_u=2)
    play(st, "op:sweep", "space:cesar")
    offered = {c[5:] for c in ids(st) if c.startswith("from:")}
    assert offered == set(srcs)
    for s in srcs[:3]:
        play(st, f"from:{s}")
    play(st, "done")
    assert pc(st, "cesar") == {"troops": 3, "farc_a": 2}


def test_3_2_3_sweep_blocked_through_loc_with_guerrillas():
    st = blank(GOVT_FIRST)
    put(st, "cucuta", troops=1)
    put(st, "loc_ayacucho_cucuta", auc_u=1)
    play(st, "op:sweep", "space:cesar")
    assert "from:cucuta" not in ids(st)


def test_3_2_3_sweep_forest_activates_one_per_two_cubes():
    st = blank(GOVT_FIRST)
    put(st, "guaviare", troops=3, farc_u=3)
    play(st, "op:sweep", "space:guaviare", "done")
    assert pc(st, "guaviare") == {"troops": 3, "farc_u": 2, "farc_a": 1}


# ---------------------------------------------------------------- 3.2.4 Assault
def test_3_2_4_example_assault_in_mountain_halves_troops():
    st = blank(GOVT_FIRST)
    put(st, "huila", troops=5, farc_a=3, farc_base=1)
    play(st, "op:assault", "space:huila")
    assert pc(st, "huila") == {"troops": 5, "farc_a": 1, "farc_base": 1}


def test_3_2_4_assault_city_counts_police_and_bases_last():
    st = blank(GOVT_FIRST)
    put(st, "cali", troops=1, police=2, car_a=1, car_base=1, auc_u=1)
    play(st, "op:assault", "space:cali")
    assert pc(st, "cali") == {"troops": 1, "police": 2, "auc_u": 1}


def test_3_2_5_drug_bust_adds_aid():
    st = blank(GOVT_FIRST)
    put(st, "cali", troops=2, car_a=1)
    st["ship"].append([BD.index["cali"], 3])
    play(st, "op:assault", "space:cali")
    assert st["aid"] == 15 and not st["ship"]


# ---------------------------------------------------------------- 3.3.1 Rally
def test_3_3_1_rally_places_up_to_pop_plus_bases():
    st = blank(FARC_FIRST)
    put(st, "huila", farc_base=1)
    play(st, "op:rally", "space:huila")
    assert "many:3" in ids(st) and "many:4" not in ids(st)
    play(st, "many:3")
    assert pc(st, "huila") == {"farc_u": 3, "farc_base": 1}


def test_3_3_1_farc_may_not_rally_in_support():
    st = blank(FARC_FIRST)
    put(st, "bogota", sup=1)
    play(st, "op:rally")
    assert "space:bogota" not in ids(st) and "space:cali" in ids(st)


def test_3_3_1_rally_replaces_two_guerrillas_with_base():
    st = blank(AUC_FIRST)
    put(st, "cesar", auc_u=1, auc_a=1)
    play(st, "op:rally", "space:cesar", "base")
    assert pc(st, "cesar") == {"auc_base": 1}


# ---------------------------------------------------------------- 3.3.2 March
def test_3_3_2_example_march_into_santander_activates_two():
    """Rulebook 3.3.2 example: 2 Underground FARC Guerrillas from Meta East into Santander
    (Passive Support, 1 Police, 1 Troops): 4 > 3, both flip Active."""
    st = blank(FARC_FIRST)
    put(st, "meta_east", farc_u=2)
    put(st, "santander", sup=1, police=1, troops=1)
    play(st, "op:march", "from:meta_east", "space:santander", "u:2")
    assert pc(st, "santander") == {"troops": 1, "police": 1, "farc_a": 2}
    assert st["res"][1] == 9


def test_3_3_2_march_stays_underground_when_not_exposed():
    st = blank(FARC_FIRST)
    put(st, "meta_east", farc_u=2)
    put(st, "santander", police=1, troops=1)
    play(st, "op:march", "from:meta_east", "space:santander", "u:2")
    assert pc(st, "santander")["farc_u"] == 2


def test_3_3_2_auc_march_counts_farc_guerrillas_and_opposition():
    st = blank(AUC_FIRST)
    put(st, "meta_east", auc_u=2)
    put(st, "arauca", sup=-1, farc_u=2)
    play(st, "op:march", "from:meta_east", "space:arauca", "u:2")
    assert pc(st, "arauca")["auc_a"] == 2


# ---------------------------------------------------------------- 3.3.3 Attack
def test_3_3_3_attack_success_and_captured_goods():
    st = blank(FARC_FIRST, script={"die": [1]})
    put(st, "huila", farc_a=2, troops=2)
    play(st, "op:attack", "space:huila")
    play(st, "target:troops", "target:troops")
    assert pc(st, "huila") == {"farc_a": 2, "farc_u": 1}


def test_3_3_3_attack_failure():
    st = blank(FARC_FIRST, script={"die": [6]})
    put(st, "huila", farc_a=2, troops=2)
    play(st, "op:attack", "space:huila")
    assert pc(st, "huila") == {"farc_a": 2, "troops": 2}


# ---------------------------------------------------------------- 3.3.4 Terror
def test_3_3_4_farc_terror_shifts_toward_opposition():
    st = blank(FARC_FIRST)
    put(st, "cali", farc_u=1, sup=1)
    play(st, "op:terror", "space:cali")
    assert st["sup"][BD.index["cali"]] == 0 and st["ter"][BD.index["cali"]] == 1
    assert pc(st, "cali") == {"farc_a": 1}


def test_3_3_4_terror_on_loc_sabotages_for_free():
    st = blank(FARC_FIRST)
    put(st, "loc_bogota_neiva", farc_u=1)
    play(st, "op:terror", "space:loc_bogota_neiva")
    assert st["sab"][BD.index["loc_bogota_neiva"]] == 1 and st["res"][1] == 10


def test_3_3_4_auc_terror_cuts_aid():
    st = blank(AUC_FIRST)
    put(st, "cali", auc_u=1, sup=-2)
    put(st, "medellin", auc_u=1, sup=1)
    play(st, "op:terror", "space:cali", "space:medellin", "done")
    assert st["sup"][BD.index["cali"]] == -1 and st["sup"][BD.index["medellin"]] == 0
    assert st["aid"] == 4


# ---------------------------------------------------------------- 4.2 Government SAs
def test_4_2_1_air_lift_moves_up_to_3_troops():
    st = blank(GOVT_FIRST)
    put(st, "bogota", troops=5)
    put(st, "huila", farc_a=1)
    play(st, "op:assault", "sa:airlift", "space:bogota", "space:huila")
    assert "n:3" in ids(st) and "n:4" not in ids(st)
    play(st, "n:2", "space:huila")
    assert pc(st, "huila") == {"troops": 2}


def test_4_2_2_air_strike_removes_active_guerrilla_not_in_city():
    st = blank(GOVT_FIRST)
    put(st, "guaviare", farc_a=1, farc_base=1)
    put(st, "cali", farc_a=1)
    put(st, "bogota", troops=1)
    play(st, "op:patrol", "sa:airstrike")
    assert "space:cali" not in ids(st)
    play(st, "space:guaviare")
    assert pc(st, "guaviare") == {"farc_base": 1}


def test_4_2_3_eradicate_adds_aid_removes_bases_and_shifts():
    st = blank(GOVT_FIRST)
    put(st, "putumayo", car_base=2, car_u=1, sup=0)
    play(st, "op:train", "sa:eradicate", "space:putumayo", "space:putumayo")
    assert st["aid"] == 13 and pc(st, "putumayo") == {"car_u": 1}
    assert st["sup"][BD.index["putumayo"]] == -1


# ---------------------------------------------------------------- 4.3-4.4 Insurgent SAs
def test_4_3_1_extort_needs_control_and_underground():
    st = blank(FARC_FIRST)
    put(st, "huila", farc_u=2)
    put(st, "cali", farc_u=1, troops=1)
    play(st, "op:rally", "sa:extort")
    assert "space:huila" in ids(st) and "space:cali" not in ids(st)
    play(st, "space:huila")
    assert st["res"][1] == 11 and pc(st, "huila") == {"farc_u": 1, "farc_a": 1}
    play(st, "space:huila", "place", "done")
    assert pc(st, "huila") == {"farc_u": 2, "farc_a": 1}


def test_4_3_2_ambush_succeeds_without_roll():
    st = blank(FARC_FIRST, script={"die": [6]})
    put(st, "huila", farc_u=1, troops=2)
    play(st, "op:attack", "space:huila", "ambush", "target:troops", "target:troops")
    assert pc(st, "huila") == {"farc_a": 1, "farc_u": 1}
    assert st["sop"]["first"]["did"] == "opsa"


def test_4_3_3_kidnap_takes_die_roll_from_government():
    st = blank(FARC_FIRST, script={"die": [4]})
    put(st, "cali", farc_u=2)
    play(st, "op:terror", "space:cali", "sa:kidnap", "space:cali")
    assert st["res"][1] == 9 + 4 and st["res"][0] == 36


def test_4_4_2_assassinate_removes_even_a_base():
    st = blank(AUC_FIRST)
    put(st, "huila", auc_u=2, farc_u=1, farc_base=1)
    play(st, "op:terror", "space:huila", "sa:assassinate", "space:huila", "target:farc_base")
    assert pc(st, "huila") == {"auc_u": 1, "auc_a": 1, "farc_u": 1}


def test_4_4_2_assassinate_stops_after_three_spaces_even_when_a_fourth_qualifies():
    """4.4.2: Assassinate "in any of up to 3 spaces selected for AUC Terror": with four Terror
    spaces that qualify, the fourth is not offered once three have been used (only Done is)."""
    st = blank(AUC_FIRST)
    spaces = ("huila", "guaviare", "putumayo", "narino")
    for s in spaces:
        put(st, s, auc_u=2, farc_u=1)
    play(st, "op:terror", *(f"space:{s}" for s in spaces), "sa:assassinate")
    assert {f"space:{s}" for s in spaces} <= set(ids(st))
    for s in spaces[:3]:
        play(st, f"space:{s}", "target:farc_underground")
    assert ids(st) == ["done"]
    assert pc(st, "narino")["farc_u"] == 1


# ---------------------------------------------------------------- 4.5 Cartels SAs
def test_4_5_1_cultivate_places_base_in_rally_department():
    st = blank(CARTELS_FIRST)
    put(st, "huila", car_u=1)
    play(st, "op:rally", "space:huila", "place", "sa:cultivate", "space:huila", "place")
    assert pc(st, "huila") == {"car_u": 2, "car_base": 1}


def test_4_5_2_process_places_shipments():
    st = blank(CARTELS_FIRST)
    put(st, "putumayo", car_u=1, car_base=1)
    play(st, "op:rally", "space:putumayo", "place", "sa:process", "ship", "ship:putumayo:cartels", "done")
    assert st["ship"] == [[BD.index["putumayo"], 3]]


def test_4_5_2_process_removes_bases_for_resources():
    st = blank(CARTELS_FIRST)
    put(st, "putumayo", car_base=2)
    play(st, "op:rally", "space:putumayo", "place", "sa:process", "bases", "space:putumayo", "done")
    assert st["res"][3] == 10 - 1 + 3 and pc(st, "putumayo") == {"car_base": 1, "car_u": 1}


def test_4_5_4_bribe_removes_two_cubes_for_3_resources():
    st = blank(CARTELS_FIRST)
    put(st, "cali", police=2, troops=1, car_u=1)
    play(st, "op:terror", "space:cali", "sa:bribe", "space:cali", "rm:police", "rm:troops")
    assert pc(st, "cali") == {"police": 1, "car_a": 1}
    assert st["res"][3] == 10 - 1 - 3


# ---------------------------------------------------------------- 2.3.5 / 2.3.6
def test_2_3_5_limited_operation_for_second_eligible():
    st = blank(GOVT_FIRST)
    put(st, "cali", troops=1, farc_u=1)
    put(st, "huila", farc_u=1)
    play(st, "op:train", "space:bogota", "mix:1-1", "done", "done")
    assert all(not c.startswith("event") for c in ids(st))
    play(st, "op:rally", "space:huila", "place")
    assert "space:cali" not in ids(st)  # 1 space only


def test_2_3_6_ship_gives_a_free_limited_operation():
    st = blank(CARTELS_FIRST)
    put(st, "putumayo", car_u=1, car_base=1)
    put(st, "huila", car_u=1)
    st["ship"].append([BD.index["putumayo"], 3])
    play(st, "op:rally", "space:putumayo", "place", "done")
    assert "ship:terror" in ids(st)
    play(st, "ship:terror", "space:huila", "done")
    assert not st["ship"] and st["ter"][BD.index["huila"]] == 1
    assert st["res"][3] == 9


@pytest.mark.parametrize("op", ["sweep", "march"])
def test_2_3_9_final_event_card_forbids_sweep_and_march(op):
    st = blank([1, "P"], scenario="quick")
    st["props_done"] = 1
    st["seq"] += 1
    put(st, "meta_east", farc_u=1)
    assert f"op:{op}" not in ids(st)
    ops = [c for c in RULES.prompt(st).choices if c.id.startswith("op:")]
    assert ops and all(c.payload["limited"] for c in ops)


def test_3_2_2_patrol_government_chooses_whose_guerrillas_activate():
    st = blank(GOVT_FIRST)
    put(st, "bogota", police=2)
    put(st, "loc_bogota_neiva", farc_u=1, auc_u=1)
    play(st, "op:patrol", "from:bogota", "space:loc_bogota_neiva", "done")
    assert set(ids(st)) >= {"target:farc", "target:auc"}
    play(st, "target:auc")
    assert pc(st, "loc_bogota_neiva") == {"police": 1, "farc_u": 1, "auc_a": 1}
    assert "space:loc_bogota_neiva" in ids(st)  # then the free Assault


def test_card_02_capability_sweep_costs_1_and_shaded_limits_to_1_space():
    st = blank(GOVT_FIRST)
    st["caps"]["2"] = "u"
    put(st, "huila", troops=1, farc_u=1)
    put(st, "cesar", troops=1, farc_u=1)
    play(st, "op:sweep", "space:huila", "done")
    assert st["res"][0] == 39 and "space:cesar" in ids(st)
    st2 = blank(GOVT_FIRST)
    st2["caps"]["2"] = "s"
    put(st2, "huila", troops=1, farc_u=1)
    play(st2, "op:sweep", "space:huila", "done")
    assert not any(c.startswith("space:") for c in ids(st2))


def test_card_03_capability_assault_shaded_limits_to_1_space():
    st = blank(GOVT_FIRST)
    st["caps"]["3"] = "s"
    put(st, "cali", troops=1, farc_a=1)
    put(st, "medellin", troops=1, farc_a=1)
    play(st, "op:assault", "space:cali")
    assert not any(c.startswith("space:") for c in ids(st))


def test_card_09_capability_high_mountain_battalions():
    st = blank(GOVT_FIRST)
    st["caps"]["9"] = "u"
    put(st, "huila", troops=2, police=1, farc_a=4)
    play(st, "op:assault", "space:huila")
    assert pc(st, "huila") == {"troops": 2, "police": 1, "farc_a": 1}


def test_card_10_capability_blackhawks_shaded_lifts_one():
    st = blank(GOVT_FIRST)
    st["caps"]["10"] = "s"
    put(st, "bogota", troops=5)
    put(st, "huila", farc_a=1)
    play(st, "op:assault", "sa:airlift", "space:bogota", "space:huila")
    assert [c for c in ids(st) if c.startswith("n:")] == ["n:1"]


def test_card_11_capability_ndsc_shaded_counts_larger_cube_type():
    st = blank(GOVT_FIRST)
    st["caps"]["11"] = "s"
    put(st, "cesar", troops=2, police=1, farc_u=3)
    play(st, "op:sweep", "space:cesar", "done")
    assert pc(st, "cesar")["farc_a"] == 2


def test_card_13_capability_plan_meteoro_shaded_no_patrol_assault():
    st = blank(GOVT_FIRST)
    st["caps"]["13"] = "s"
    put(st, "bogota", troops=2)
    put(st, "loc_bogota_neiva", farc_u=1)
    play(st, "op:patrol", "from:bogota", "space:loc_bogota_neiva", "done")
    assert pc(st, "loc_bogota_neiva") == {"troops": 1, "farc_a": 1}


def test_card_12_momentum_plan_colombia_blocks_patrol_activation():
    st = blank(GOVT_FIRST)
    st["mom"].append(12)
    put(st, "bogota", troops=2)
    put(st, "loc_bogota_neiva", farc_u=1)
    play(st, "op:patrol", "from:bogota", "space:loc_bogota_neiva", "done")
    assert pc(st, "loc_bogota_neiva")["farc_u"] == 1


def test_card_17_momentum_madrid_donors_no_sweep_in_departments():
    st = blank(GOVT_FIRST)
    st["mom"].append(17)
    put(st, "huila", troops=1, farc_u=1)
    play(st, "op:sweep")
    assert "space:huila" not in ids(st) and "space:cali" in ids(st)


def test_card_27_momentum_misil_no_air_strike_where_guerrillas():
    st = blank(GOVT_FIRST)
    st["mom"].append(27)
    put(st, "bogota", troops=1)
    put(st, "guaviare", farc_a=1)
    play(st, "op:patrol")
    assert "sa:airstrike" not in ids(st)


def test_card_67_momentum_mexican_traffickers_4_per_base():
    st = clear(new([1, "P", 2]))
    st["mom"].append(67)
    put(st, "putumayo", car_base=2)
    st["seq"] += 1
    for _ in range(4):
        play(st, "pass")
    assert st["res"][3] == 10 + 1 + 8


def test_1_4_1_player_may_take_own_guerrilla_off_the_map_to_rally():
    st = blank(FARC_FIRST)
    put(st, "huila", farc_u=30)
    play(st, "op:rally", "space:cali")
    assert "place" not in ids(st) and "take:huila" in ids(st)
    play(st, "take:huila", "place")
    assert pc(st, "cali") == {"farc_u": 1} and pc(st, "huila") == {"farc_u": 29}


def test_4_3_3_kidnap_may_pick_a_space_that_will_be_selected_for_terror():
    st = blank(FARC_FIRST, script={"die": [2]})
    put(st, "cali", farc_u=2, sup=1)
    put(st, "huila", farc_u=1)
    play(st, "op:terror", "space:huila", "sa:kidnap", "space:cali")
    assert st["ter"][BD.index["cali"]] == 1 and st["res"][1] == 10 - 2 + 2 and st["res"][0] == 38


def test_1_5_2_transfer_resources_during_own_operation():
    st = blank(CARTELS_FIRST)
    put(st, "cali", car_u=1)
    play(st, "op:terror", "space:cali", "give", "to:auc", "n:4")
    assert st["res"][3] == 10 - 1 - 4 and st["res"][2] == 14
    st2 = blank(CARTELS_FIRST, players=3)          # AUC runs the Cartels: no transfer between them
    put(st2, "cali", car_u=1)
    play(st2, "op:terror", "space:cali", "give")
    assert "to:auc" not in ids(st2) and "to:farc" in ids(st2)


def test_card_13_unshaded_patrol_assaults_every_loc_government_chooses_targets():
    st = blank(GOVT_FIRST)
    st["caps"]["13"] = "u"
    put(st, "bogota", police=1)
    put(st, "loc_bogota_neiva", police=1, farc_a=1, auc_a=1)
    put(st, "loc_cali_ibague", troops=1, car_a=1)
    play(st, "op:patrol", "done")
    p = RULES.prompt(st)
    assert p.kind == "assaultsp" and p.seats == ("govt",)
    assert set(ids(st)) == {"target:farc", "target:auc"}
    play(st, "target:auc")
    assert pc(st, "loc_bogota_neiva") == {"police": 1, "farc_a": 1}
    assert pc(st, "loc_cali_ibague") == {"troops": 1}


def test_2_3_6_ship_owner_picks_which_shipment():
    st = blank(CARTELS_FIRST)
    put(st, "putumayo", car_u=1, car_base=1)
    put(st, "huila", car_u=1)
    st["ship"].append([BD.index["putumayo"], 3])
    st["ship"].append([BD.index["huila"], 3])
    play(st, "op:rally", "space:putumayo", "place", "done", "ship:terror")
    assert set(ids(st)) == {"ship:putumayo:cartels", "ship:huila:cartels"}
    play(st, "ship:huila:cartels", "space:huila", "done")
    assert st["ship"] == [[BD.index["putumayo"], 3]]


def test_4_3_3_kidnap_roll_of_6_auc_seat_picks_its_piece():
    from .conftest import RULES
    st = blank(FARC_FIRST, script={"die": [6]})
    put(st, "cali", farc_u=2)
    play(st, "op:terror", "space:cali", "sa:kidnap", "space:cali")
    p = RULES.prompt(st)
    assert p.seats == ("auc",) and set(ids(st)) == {"piece:auc_underground", "piece:auc_base"}
    play(st, "piece:auc_base")
    assert pc(st, "cali").get("auc_base") == 1 and st["res"][1] == 9 + 6


def test_1_4_1_train_may_take_own_cubes_off_the_map_when_none_are_available():
    st = blank(GOVT_FIRST)
    put(st, "cali", police=st["av"][1])
    put(st, "medellin", troops=st["av"][0])
    assert st["av"][0] == st["av"][1] == 0
    play(st, "op:train", "space:bogota")
    assert "take:cali:police" in ids(st) and "take:medellin:troops" in ids(st)
    play(st, "take:cali:police", "take:cali:police", "mix:0-2")
    assert pc(st, "bogota") == {"police": 2} and conserved(st)


def test_1_5_2_transfer_to_the_executing_faction_is_decided_by_the_giver():
    from .conftest import RULES
    st = blank(CARTELS_FIRST)
    put(st, "cali", car_u=1)
    play(st, "op:terror", "space:cali", "ask:govt")
    p = RULES.prompt(st)
    assert p.seats == ("govt",) and "n:5" in ids(st)
    play(st, "n:5")
    assert st["res"][0] == 40 - 5 and st["res"][3] == 10 - 1 + 5
    assert "ask:govt" not in ids(st)                # asked once per Operation
    st2 = blank(CARTELS_FIRST, players=3)          # AUC runs the Cartels: no transfer between them
    put(st2, "cali", car_u=1)
    play(st2, "op:terror", "space:cali")
    assert "ask:auc" not in ids(st2) and "ask:farc" in ids(st2)
