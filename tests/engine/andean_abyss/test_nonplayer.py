"""8.0 Non-player flowcharts: crafted positions where each branch must fire."""

from __future__ import annotations

import pytest

from engine.scenarios.andean_abyss.np_bot import NonPlayerBot
from engine.scenarios.andean_abyss.np_turn import np_decide

from .conftest import BD, RULES, P, clear, conserved, new, pc, play, put

G, F, A, C = 0, 1, 2, 3


def position(deck, f, nonplayers=("govt", "farc", "auc", "cartels"), **kw):
    st = clear(new(deck, players=4, nonplayers=list(nonplayers), **kw))
    st["sop"]["cand"] = [f]
    st["stack"][-1]["f"] = f
    st["seq"] += 1
    return st


def scarce(st, slot, keep):
    """Leave only ``keep`` of a piece kind Available (the rest out of play)."""
    extra = st["av"][slot] - keep
    st["av"][slot] -= extra
    st["oop"][slot] += extra
    st["seq"] += 1


def decide(st):
    return np_decide(st, st["stack"][-1])


def test_8_1_nonplayer_seat_only_offers_np_act_and_logs_branch():
    st = position([6, 20], G)
    assert [c.id for c in RULES.prompt(st).choices] == ["np:act"]
    facts = play(st, "np:act")
    assert any(f["type"] == "np" and f["rule"] for f in facts)
    assert conserved(st)


def test_8_8_1_government_passes_for_capability_next():
    st = position([6, 1], G)
    kind, _, _, reasons = decide(st)
    assert kind == "pass" and reasons[0][1] == "8.8.1"


def test_8_8_2_government_takes_helpful_unshaded_event():
    st = position([12, 20], G)
    kind, side, _, _ = decide(st)
    assert (kind, side) == ("event", "unshaded")


def test_8_1_ineffective_event_means_operations():
    st = position([6, 20], G)
    kind, op, _, reasons = decide(st)
    assert kind == "op" and "no effect" in str(reasons[0][0])


def test_8_8_3_government_assaults_four_guerrillas():
    st = position([6, 20], G)
    put(st, "cali", troops=4, farc_a=4)
    kind, op, _, reasons = decide(st)
    assert (kind, op) == ("op", "assault") and reasons[-1][1] == "8.8.3"


def test_8_8_4_government_trains_with_pieces_available():
    st = position([6, 20], G)
    kind, op, _, reasons = decide(st)
    assert (kind, op) == ("op", "train") and reasons[-1][1] == "8.8.4"


def _few_govt_pieces(st):
    scarce(st, 0, 3)
    scarce(st, 1, 3)
    scarce(st, 2, 0)


def test_8_8_5_government_patrols_threatened_locs():
    st = position([6, 20], G)
    _few_govt_pieces(st)
    put(st, "bogota", troops=3, police=3, sup=2)
    put(st, "loc_bogota_neiva", farc_u=1)
    kind, op, _, reasons = decide(st)
    assert (kind, op) == ("op", "patrol") and reasons[-1][1] == "8.8.5"


def test_8_8_6_government_sweeps_otherwise():
    st = position([6, 20], G)
    _few_govt_pieces(st)
    put(st, "bogota", troops=3, police=3, sup=2)
    put(st, "huila", farc_u=2)
    kind, op, _, reasons = decide(st)
    assert (kind, op) == ("op", "sweep") and reasons[-1][1] == "8.8.6"


def test_8_1_insurgent_leftmost_takes_event():
    st = position([21, 20], F)   # FGAC, FARC leftmost: shaded Raúl Reyes
    kind, side, _, _ = decide(st)
    assert (kind, side) == ("event", "shaded")


def test_8_1_insurgent_not_leftmost_operates():
    st = position([4, 20], F)    # GFCA: FARC not leftmost
    kind, _, _, _ = decide(st)
    assert kind == "op"


def test_8_1_zero_resources_insurgent_passes():
    st = position([4, 20], F)
    st["res"][F] = 0
    kind, _, _, reasons = decide(st)
    assert kind == "pass" and reasons[-1][1] == "8.1"


@pytest.mark.parametrize("f,prep,op,rule", [
    (C, lambda st: None, "rally", "8.5.1"),
    (C, lambda st: (scarce(st, 9, 3), scarce(st, 11, 0), put(st, "huila", car_u=2), put(st, "cali", car_u=1)),
     "march", "8.5.2"),
    (C, lambda st: (scarce(st, 9, 2), scarce(st, 11, 2), put(st, "cali", car_u=1),
                    st["ship"].extend([BD.index["cali"], 3] for _ in range(4))), "terror", "8.5.3"),
    (A, lambda st: None, "rally", "8.6.1"),
    (A, lambda st: (scarce(st, 6, 2), scarce(st, 8, 0), put(st, "huila", farc_base=1), put(st, "cali", auc_u=1)),
     "march", "8.6.2"),
    (A, lambda st: (scarce(st, 6, 4), scarce(st, 8, 0), put(st, "huila", farc_base=1, auc_a=1),
                    put(st, "cali", auc_a=3, police=1)), "attack", "8.6.3"),
    (A, lambda st: (scarce(st, 6, 2), scarce(st, 8, 0), put(st, "huila", farc_base=1, auc_u=1)), "terror", "8.6.4"),
    (F, lambda st: None, "rally", "8.7.1"),
    (F, lambda st: (scarce(st, 3, 2), scarce(st, 5, 0), put(st, "huila", farc_u=2, sup=-2)), "march", "8.7.2"),
    (F, lambda st: (scarce(st, 3, 2), scarce(st, 5, 0), put(st, "bogota", sup=2, farc_u=1, police=1),
                    st["res"].__setitem__(F, 50)), "attack", "8.7.3"),
    (F, lambda st: (scarce(st, 3, 2), scarce(st, 5, 0), put(st, "bogota", sup=2, farc_u=1)), "terror", "8.7.4"),
])
def test_8_insurgent_flowchart_branches(f, prep, op, rule):
    st = position([4, 20], f)   # GFCA: no Insurgent is leftmost, so Operations
    prep(st)
    kind, got, _, reasons = decide(st)
    assert (kind, got) == ("op", op) and reasons[-1][1] == rule


def test_8_7_5_nonplayer_farc_agitates_to_the_maximum():
    st = clear(new([1, "P", 2], nonplayers=["farc"], players=4))
    put(st, "cali", farc_u=3)
    st["pres"] = 2
    st["sop"]["cand"] = [0, 2, 3]
    st["seq"] += 1
    play(st, "pass", "pass", "pass")
    bots = {s: NonPlayerBot(RULES, s, 1) for s in RULES.seat_ids()}
    for _ in range(50):
        p = RULES.prompt(st)
        if p is None or (p.kind == "elig" and st["cur"] == 2):
            break
        RULES.apply_inplace(st, p.seats[0], bots[p.seats[0]].choose(st, p).choice_id)
    assert st["sup"][BD.index["cali"]] == -2 and st["res"][1] == 10 + 0 - 2


def test_8_nonplayer_bot_on_player_seat_answers_legal_choices():
    st = new([6, 20])
    bot = NonPlayerBot(RULES, "govt", 1)
    d = bot.choose(st, RULES.prompt(st))
    assert d.choice_id in [c.id for c in RULES.prompt(st).choices] and "8." in d.reason


def test_8_1_insurgent_discord_government_player_decides():
    st = clear(new([4, 20], players=2, spare="nonplayer"))
    assert st["np"] == [2, 3]
    put(st, "bogota", troops=2)
    put(st, "cali", car_u=1)
    play(st, "op:train", "space:bogota", "mix:0-0", "sa:airlift", "space:bogota", "space:cali", "n:1", "done",
         "done", "pass")
    p = RULES.prompt(st)
    assert p.seats == ("cartels",) and [c.id for c in p.choices] == ["np:act"]
    facts = play(st, "np:act")
    assert any("Insurgent Discord" in str(f["text"]) for f in facts)
    p = RULES.prompt(st)
    assert p.seats == ("govt",) and "discord:ops" in [c.id for c in p.choices]
    play(st, "discord:ops")
    assert st["cur"] == 20 and not st["elig"][3] and st["elig"][1]


def test_8_1_1_example_cartels_march_impossible_rally_instead():
    """8.1.1 example: Cartels are to March but their Guerrillas are spread 1 per Base space."""
    st = position([4, 20], C)
    scarce(st, 9, 3)
    scarce(st, 11, 2)
    put(st, "huila", car_u=1, car_base=1)
    put(st, "cesar", car_u=1, car_base=1)
    kind, op, _, reasons = decide(st)
    assert (kind, op) == ("op", "rally") and reasons[-1][1] == "8.1.1"


def test_8_1_example_narco_subs_without_coastal_cartels_means_operations():
    st = position([68, 20], C)
    put(st, "huila", car_u=2)
    kind, _, _, reasons = decide(st)
    assert kind == "op" and "no effect" in str(reasons[0][0])


def test_8_1_2_example_march_moves_only_3_underground_into_support():
    st = position([4, 20], F, nonplayers=())
    put(st, "huila", farc_u=4, farc_a=2)
    put(st, "bogota", sup=2)
    from engine.scenarios.andean_abyss.operation import start_op
    start_op(st, F, "march", lim=False, free=True, facts=[])
    st["seq"] += 1
    bot = NonPlayerBot(RULES, "farc", 1)
    play(st, "from:huila", "space:bogota")
    cid = bot.choose(st, RULES.prompt(st)).choice_id
    assert cid == "u:3"
    play(st, cid)
    assert [c.id for c in RULES.prompt(st).choices if c.id.startswith("a:")][0] == "a:0"


def test_8_8_7_eradicate_against_player_cartels_with_8_bases():
    st = position([6, 20], G, nonplayers=("govt",))
    put(st, "cali", troops=4, farc_a=4)
    for s in ("huila", "cesar", "antioquia", "santander"):
        put(st, s, car_base=2)
    facts = play(st, "np:act")
    sas = [f["sa"] for f in facts if f["type"] == "sa"]
    assert sas == ["eradicate"]
    assert any(f["type"] == "np" and f["rule"] == "8.8.3" for f in facts)


def test_8_8_7_air_strike_before_assault_otherwise():
    st = position([6, 20], G)
    put(st, "cali", troops=4, farc_a=4)
    put(st, "guaviare", auc_a=1)
    facts = play(st, "np:act")
    assert [f["sa"] for f in facts if f["type"] == "sa"] == ["airstrike"]
    assert "auc_a" not in pc(st, "guaviare")


def test_8_4_2_playbook_nonplayer_farc_sucumbios_places_both_bases_in_ecuador():
    st = position([33, 20], F)
    put(st, "narino", farc_u=1)
    facts = play(st, "np:act")
    assert any(f["type"] == "event" for f in facts)
    assert pc(st, "ecuador") == {"farc_base": 2}


# ---------------------------------------------------------------- 8.8.7 Air Lift destinations
def _airlift_pick(st, op, src):
    from engine.scenarios.andean_abyss.np_govt_sa import pol_airlift
    from engine.scenarios.andean_abyss.sa_govt import AirLift
    st["stack"].append({"k": "op", "f": 0, "op": op, "sel": [], "free": False, "lim": False})
    fr = {"k": "airlift", "f": 0, "opi": len(st["stack"]) - 1, "ph": "b", "src": BD.index[src], "auto": "np"}
    st["stack"].append(fr)
    ids = [c.id for c in AirLift.prompt(st, fr)[2]]
    return pol_airlift(st, fr, None, ids)


def test_8_8_7_air_lift_origin_has_most_troops_above_control():
    from engine.scenarios.andean_abyss.np_govt_sa import pol_airlift
    st = clear(new([1, 2]))
    put(st, "bogota", troops=6, police=2)
    put(st, "cali", troops=8, farc_u=6)     # more Troops, but needed to keep Control
    fr = {"k": "airlift", "f": 0, "ph": "a", "auto": "np"}
    assert pol_airlift(st, fr, None, ["space:cali", "space:bogota"]) == "space:bogota"


def test_8_8_7_air_lift_for_assault_goes_where_cubes_are_short():
    st = clear(new([1, 2]))
    put(st, "bogota", troops=6, police=2)
    put(st, "huila", troops=1, farc_a=3)
    put(st, "cali", police=2)
    assert _airlift_pick(st, "assault", "bogota") == "space:huila"


def test_8_8_7_air_lift_for_sweep_without_short_space_goes_to_police_without_troops():
    st = clear(new([1, 2]))
    put(st, "bogota", troops=6, police=2)
    put(st, "cali", police=2)
    assert _airlift_pick(st, "sweep", "bogota") == "space:cali"


def test_8_8_7_air_lift_for_train_enables_civic_action():
    st = clear(new([1, 2]))
    put(st, "bogota", troops=6, police=2)
    put(st, "medellin", police=1, sup=-1)
    put(st, "cali", police=1, sup=1)
    assert _airlift_pick(st, "train", "bogota") == "space:medellin"   # the larger shift


def test_8_8_7_air_lift_for_patrol_enables_a_base():
    st = clear(new([1, 2]))
    put(st, "bogota", troops=6, police=2)
    put(st, "huila", troops=3, farc_u=1)
    assert _airlift_pick(st, "patrol", "bogota") == "space:huila"


# ---------------------------------------------------------------- 8.8.9 Police Redeploy
def _police_plan(st):
    from engine.scenarios.andean_abyss.np_propaganda import pol_redeploy
    from engine.scenarios.andean_abyss.redeploy import Redeploy
    fr = {"k": "redeploy", "f": 0, "ph": "from", "auto": "np"}
    fr["tdest"] = Redeploy.dests(st, True)
    fr["pdest"] = Redeploy.dests(st, False)
    ids = [c.id for c in Redeploy.prompt(st, fr)[2]]
    first = pol_redeploy(st, fr, None, ids)
    return first, fr.get("np_dest")


def test_8_8_9_police_redeploy_matches_auc_or_cartels_guerrillas_first():
    st = clear(new([1, 2]))
    put(st, "bogota", police=4, troops=2)
    put(st, "cali", troops=4, car_u=2)
    first, dest = _police_plan(st)
    assert first == "police:bogota" and dest == BD.index["cali"]


def test_8_8_9_police_redeploy_never_takes_the_last_police_of_a_city():
    st = clear(new([1, 2]))
    put(st, "bogota", police=1, troops=2)
    put(st, "cali", troops=4, car_u=2)
    first, _ = _police_plan(st)
    assert first == "done"


def test_8_8_9_police_redeploy_to_econ_3_loc():
    st = clear(new([1, 2]))
    for c in BD.cities:
        put(st, BD.ids[c], police=1)
    put(st, "bogota", police=3)
    first, dest = _police_plan(st)
    assert first == "police:bogota" and BD.is_loc[dest] and BD.econ[dest] == 3


def test_8_8_4_non_player_train_builds_a_base_only_in_a_department():
    from engine.scenarios.andean_abyss.np_govt_ops import pol_trainx
    st = clear(new([1, 2]))
    st["res"][0] = 10
    put(st, "cartagena", troops=3, police=3)
    put(st, "huila", troops=3, police=2)
    put(st, "cesar", troops=3, police=2)
    ids = ["base:cartagena", "base:huila", "base:cesar", "done"]
    assert pol_trainx(st, {"k": "trainx", "f": 0}, None, ids) == "base:huila"   # Pop 2 beats Pop 1
    assert pol_trainx(st, {"k": "trainx", "f": 0}, None, ["base:cartagena", "done"]) == "done"


def test_8_5_1_cartels_without_available_guerrillas_move_3_into_a_bare_base_space():
    from engine.scenarios.andean_abyss.np_insurgent import pol_rallysp, pol_regroup
    from engine.scenarios.andean_abyss.ops_insurgent import RallySp, Regroup
    st = clear(new([1, 2], nonplayers=["cartels"]))
    put(st, "huila", car_base=1)
    put(st, "cesar", car_u=st["av"][9] - 2)     # every other Guerrilla sits in Cesar (no Base)
    put(st, "guaviare", car_u=2, car_base=1)
    assert st["av"][9] == 0
    fr = {"k": "rallysp", "f": 3, "i": BD.index["huila"], "auto": "np"}
    ids = [c.id for c in RallySp.prompt(st, fr)[2]]
    assert pol_rallysp(st, fr, None, ids) == "regroup"
    rg = {"k": "regroup", "f": 3, "i": BD.index["huila"], "auto": "np", "n": 0}
    picks = []
    for _ in range(4):
        c = pol_regroup(st, rg, None, [c.id for c in Regroup.prompt(st, rg)[2]])
        picks.append(c)
        if c == "done":
            break
        st["pc"][BD.index["cesar"]][9] -= 1
        st["pc"][BD.index["huila"]][9] += 1
        rg["n"] += 1
    assert picks == ["from:cesar"] * 3 + ["done"]    # up to 3, never from a Base space


def test_8_6_2_auc_march_second_bullet_moves_largest_group_closer_to_a_farc_base():
    from engine.scenarios.andean_abyss.np_farc import farc_distance
    from engine.scenarios.andean_abyss.np_march import march_step, pol_marchgrp
    from engine.scenarios.andean_abyss.operation import Op
    from engine.scenarios.andean_abyss.ops_insurgent import MarchGrp
    st = clear(new([37, 38], nonplayers=["auc"]))
    put(st, "guainia", farc_base=1, farc_u=1, auc_u=1)   # FARC Base already shadowed by AUC
    put(st, "bogota", auc_u=3)
    put(st, "cesar", auc_u=1)
    st["stack"].append({"k": "op", "f": 2, "op": "march", "lim": False, "free": False, "sa": None, "sa_ok": True,
                        "sel": [], "ph": "sel", "auto": "np", "terror_n": 0, "moved": {}, "dest": None, "nsp": 0,
                        "plan": {"max": 3}})
    op = st["stack"][-1]
    ids = [c.id for c in Op.prompt(st, op)[2]]
    c = march_step(st, op, ids)
    assert c == "from:bogota" and op["np_closer"] == 1
    dist = farc_distance(st)
    g = {"k": "marchgrp", "f": 2, "src": BD.index["bogota"], "opi": len(st["stack"]) - 1, "dst": None, "nu": None,
         "auto": "np"}
    st["stack"].append(g)
    dst = pol_marchgrp(st, g, None, [c.id for c in MarchGrp.prompt(st, g)[2]])
    assert dist[BD.index[dst[6:]]] < dist[BD.index["bogota"]]


def test_8_7_2_farc_march_last_bullet_one_more_space_next_to_the_largest_group():
    from engine.scenarios.andean_abyss.np_march import march_step
    from engine.scenarios.andean_abyss.operation import Op
    st = clear(new([19, 20], nonplayers=["farc"]))
    put(st, "huila", farc_u=4, sup=-2)                 # Active Opposition origin
    for j in P.adj(st, BD.index["huila"]):             # no first/second-bullet target next to it
        if not BD.is_loc[j]:
            st["sup"][j] = -1
    st["stack"].append({"k": "op", "f": 1, "op": "march", "lim": False, "free": False, "sa": None, "sa_ok": True,
                        "sel": [], "ph": "sel", "auto": "np", "terror_n": 0, "moved": {}, "dest": None, "nsp": 0,
                        "plan": {"max": 3}})
    op = st["stack"][-1]
    for j in P.adj(st, BD.index["huila"]):
        if BD.is_loc[j]:
            st["sab"][j] = 1                            # LoCs already Sabotaged: no LoC bullet
    ids = [c.id for c in Op.prompt(st, op)[2]]
    assert march_step(st, op, ids) == "from:huila" and op["np_final"] == 1
    src, dst, bullet = op["np_next"]
    assert src == BD.index["huila"] and bullet == 3
    assert BD.pop[dst] >= 1 and dst in P.adj(st, BD.index["huila"])


def test_8_8_4_non_player_train_civic_action_for_the_largest_shift_without_terror():
    from engine.scenarios.andean_abyss.np_govt_ops import pol_trainx
    st = clear(new([1, 2]))
    st["res"][0] = 30
    put(st, "cali", troops=2, police=2, sup=1)
    put(st, "medellin", troops=2, police=2, sup=-1)
    put(st, "bogota", troops=2, police=2, sup=-2)
    st["ter"][BD.index["bogota"]] = 1                  # Terror: not chosen
    ids = ["civic:cali", "civic:medellin", "civic:bogota", "done"]
    assert pol_trainx(st, {"k": "trainx", "f": 0}, None, ids) == "civic:medellin"
    st["res"][0] = 17                                  # would drop below 15
    assert pol_trainx(st, {"k": "trainx", "f": 0}, None, ids) == "done"


def test_8_8_3_assault_priority_bases_then_control_then_shipments_then_last_piece():
    from engine.scenarios.andean_abyss.np_priorities import rank_space
    st = clear(new([1, 2]))
    put(st, "arauca", troops=3, farc_a=1, farc_base=1, auc_u=2)   # removes a Base (Grassland)
    put(st, "cali", troops=3, farc_a=3, auc_u=1)                  # AUC stays: no Control, no last piece
    put(st, "medellin", troops=2, farc_a=2)                       # gains Control, last piece
    put(st, "meta_east", troops=2, car_a=1, car_u=1)
    st["ship"].append([BD.index["meta_east"], 3])
    r = {s: rank_space(st, 0, "assault", BD.index[s]) for s in ("arauca", "cali", "medellin", "meta_east")}
    assert r["arauca"] > r["medellin"] > r["cali"]
    assert r["arauca"][0] == 1 and r["medellin"][1] == BD.pop[BD.index["medellin"]] and r["medellin"][3] == 1
    assert r["meta_east"][0] == 0 and r["meta_east"][2] == 0    # the Underground holder keeps the Shipment


# ---------------------------------------------------------------- 8.8.5 Patrol movement
def _patrol_frame(st):
    from engine.scenarios.andean_abyss.operation import Op
    st["stack"].append({"k": "op", "f": 0, "op": "patrol", "lim": False, "free": True, "sa": None, "sa_ok": False,
                        "sel": [], "ph": "sel", "auto": "np", "terror_n": 0, "moved": {}, "dest": None})
    op = st["stack"][-1]
    return op, [c.id for c in Op.prompt(st, op)[2]]


def test_8_8_5_patrol_first_matches_guerrillas_on_locs_police_first_keeping_the_last():
    from engine.scenarios.andean_abyss.np_govt_ops import patrol_plan
    st = clear(new([1, 2]))
    put(st, "bogota", police=2, troops=3)
    put(st, "loc_bogota_neiva", farc_u=2)
    op, ids = _patrol_frame(st)
    assert patrol_plan(st, op, ids) == (BD.index["bogota"], 1, BD.index["loc_bogota_neiva"])
    st["pc"][BD.index["bogota"]][1] -= 1                # the last Police must stay: Troops next
    st["pc"][BD.index["loc_bogota_neiva"]][1] += 1
    op, ids = _patrol_frame(st)
    assert patrol_plan(st, op, ids) == (BD.index["bogota"], 0, BD.index["loc_bogota_neiva"])


def test_8_8_5_patrol_then_garrisons_cities_then_police_on_3_econ_locs():
    from engine.scenarios.andean_abyss.np_govt_ops import patrol_plan
    st = clear(new([1, 2]))
    for c in BD.cities:
        put(st, BD.ids[c], troops=2, police=1)
    put(st, "bogota", troops=4, police=4)
    op, ids = _patrol_frame(st)
    assert patrol_plan(st, op, ids) is not None
    o, slot, d = patrol_plan(st, op, ids)
    assert o == BD.index["bogota"] and BD.is_loc[d] and BD.econ[d] == 3 and slot == 1


def _cities_at_active_support(st):
    for c in BD.cities:
        st["sup"][c] = 2
    st["seq"] += 1


def test_8_8_4_train_adds_one_space_for_civic_action_when_no_train_space_allows_it():
    # Every City is already at Active Support, so the 3 placement spaces allow no Civic Action;
    # Huila (Troops, Police, Control, Neutral, no Terror) becomes the 1 additional Train space.
    st = position([6, 20], G)
    _cities_at_active_support(st)
    put(st, "huila", troops=2, police=2)
    st["res"][G] = 40
    kind, op, _, _ = decide(st)
    assert (kind, op) == ("op", "train")
    facts = play(st, "np:act")
    assert any(f.get("cause") == "Train in Huila" or "Train in Huila" in str(f["text"]) for f in facts)
    assert st["sup"][BD.index["huila"]] > 0
    assert st["res"][G] >= 15                     # 8.8.8: never below 15


def test_8_8_4_train_base_bullet_selects_the_department_without_civic_action():
    # No Civic Action anywhere (Cities at Active Support, Terror in the Departments): the
    # Government replaces 3 cubes with a Base in the highest-Population Department with 5+ cubes.
    st = position([6, 20], G)
    _cities_at_active_support(st)
    put(st, "antioquia", troops=3, police=2)      # Population 2
    put(st, "cesar", troops=3, police=2)          # Population 1
    for sid in ("antioquia", "cesar"):
        st["ter"][BD.index[sid]] = 1
    st["res"][G] = 40
    play(st, "np:act")
    assert pc(st, "antioquia").get("gbase") == 1
    assert "gbase" not in pc(st, "cesar")


def test_8_8_4_train_special_activity_comes_after_the_placement_spaces():
    from engine.scenarios.andean_abyss.np_govt_ops import train_step
    from engine.scenarios.andean_abyss.operation import Op, start_op
    st = position([6, 20], G)
    st["res"][G] = 40
    put(st, "bogota", troops=4, police=1)
    op = start_op(st, G, "train", lim=False, free=False, facts=[], auto="np")
    op["plan"], op["nsp"] = {"max": 3, "sa": ["mid"]}, 1
    op["sel"] = [BD.index["cali"]]
    ids = [c.id for c in Op.prompt(st, op)[2]]
    assert "sa:airlift" in ids
    assert train_step(st, op, ids).startswith("space:")   # 2nd placement space, not yet the SA


def test_8_8_6_sweep_ranks_all_activated_then_control_then_cities():
    from engine.scenarios.andean_abyss.np_priorities import sweep_rank, sweep_spare
    st = clear(new([1, 2]))
    put(st, "bogota", troops=6, police=3, sup=2)
    assert sweep_spare(st, BD.index["bogota"]) == 6     # keeps 3 cubes in a Support space
    put(st, "huila", farc_u=8)                     # more than the 6 Troops that may come
    put(st, "santander", farc_u=2)                 # all can be Activated
    put(st, "meta_west", auc_a=1)                  # nothing Underground, but Control can be added
    r_huila, r_sant, r_meta = (sweep_rank(st, BD.index[s]) for s in ("huila", "santander", "meta_west"))
    assert r_sant > r_huila and r_sant[0] == 1 and r_huila[0] == 0
    assert r_meta is not None and r_meta[:2] == (0, 1) and r_meta > r_huila
    assert sweep_rank(st, BD.index["cesar"]) is None   # nothing to Activate, no Control to add


def test_8_8_7_air_strike_only_at_a_last_insurgent_piece_else_air_lift():
    from engine.scenarios.andean_abyss.np_govt_sa import airstrike_pick, govt_sa
    st = clear(new([1, 2], nonplayers=["govt", "farc", "auc", "cartels"]))
    put(st, "guaviare", farc_a=2)                  # not the last piece there
    assert airstrike_pick(st) is None
    assert govt_sa(st, ["sa:airstrike", "sa:airlift", "sa:eradicate"]) == "sa:airlift"
    put(st, "meta_east", auc_a=1)                  # Population 1
    put(st, "antioquia", farc_a=1)                 # Population 2: the higher-Population Department
    assert airstrike_pick(st) == (BD.index["antioquia"], F)
    put(st, "loc_bogota_neiva", car_a=1)
    assert airstrike_pick(st) == (BD.index["loc_bogota_neiva"], C)   # a LoC first
    assert govt_sa(st, ["sa:airstrike", "sa:airlift", "sa:eradicate"]) == "sa:airstrike"


def test_8_8_7_air_strike_takes_a_player_auc_base_before_a_player_farc_base():
    from engine.scenarios.andean_abyss.np_govt_sa import airstrike_pick
    st = clear(new([1, 2], nonplayers=["govt", "cartels"]))
    put(st, "loc_bogota_neiva", car_a=1)
    put(st, "huila", farc_base=1, police=1)
    put(st, "cesar", auc_base=1, farc_a=1)
    assert airstrike_pick(st) == (BD.index["cesar"], A)


def test_8_1_2_train_base_replaces_troops_and_police_alternately_keeping_the_last_police():
    from engine.scenarios.andean_abyss.np_govt_ops import pol_basecubes
    st = clear(new([1, 2]))
    put(st, "huila", troops=2, police=1)
    fr = {"k": "basecubes", "f": G, "i": BD.index["huila"], "left": 3}
    assert pol_basecubes(st, fr, None, ["piece:troops", "piece:police"]) == "piece:troops"
    st = clear(new([1, 2]))
    put(st, "huila", troops=1, police=3)
    assert pol_basecubes(st, fr, None, ["piece:troops", "piece:police"]) == "piece:police"


def test_8_4_3_card_46_level_by_executor():
    from engine.scenarios.andean_abyss.np_events import pol_evlevel
    st = clear(new([1, 2]))
    ids = ["level:1", "level:-1"]
    assert pol_evlevel(st, {"k": "evlevel", "f": G, "v": {}}, None, ids) == "level:1"
    assert pol_evlevel(st, {"k": "evlevel", "f": F, "v": {}}, None, ids) == "level:-1"
    st["sup"][BD.index["huila"]] = 2                 # Cartels: greater change is to Passive Opposition
    assert pol_evlevel(st, {"k": "evlevel", "f": C, "v": {"here": BD.index["huila"]}}, None, ids) == "level:-1"


def test_8_1_event_naming_an_insurgent_executor_picks_itself_government_a_player_first():
    from engine.scenarios.andean_abyss.np_events import pol_evfaction
    st = clear(new([1, 2], nonplayers=["govt", "auc", "cartels"]))
    ids = ["faction:farc", "faction:auc", "faction:cartels"]
    assert pol_evfaction(st, {"k": "evfaction", "f": A}, None, ids) == "faction:auc"
    assert pol_evfaction(st, {"k": "evfaction", "f": G}, None, ids) == "faction:farc"   # the player
    st = clear(new([1, 2], nonplayers=["govt", "farc", "auc"]))
    assert pol_evfaction(st, {"k": "evfaction", "f": G}, None, ids) == "faction:cartels"


def test_6_4_4_nonplayer_government_zone_where_it_loses_least():
    from engine.scenarios.andean_abyss.np_propaganda import pol_zone
    st = clear(new([1, 2]))
    put(st, "huila", farc_u=2, troops=2)
    put(st, "antioquia", farc_u=2)
    put(st, "narino", farc_u=2)                      # Population 1 beats Antioquia's 2
    ids = ["space:huila", "space:antioquia", "space:narino"]
    assert pol_zone(st, {"k": "zone", "f": G}, None, ids) == "space:narino"


def test_8_8_9_seventh_special_forces_clears_3_econ_sabotage_first():
    from engine.scenarios.andean_abyss.np_propaganda import pol_seventh
    st = clear(new([1, 2]))
    l3 = next(i for i in BD.locs if BD.econ[i] == 3)
    l1 = next(i for i in BD.locs if BD.econ[i] == 1)
    st["sab"][l3] = st["sab"][l1] = 1
    st["ter"][BD.index["cali"]] = 1
    ids = [f"space:{BD.ids[i]}" for i in (l1, BD.index["cali"], l3)] + ["done"]
    assert pol_seventh(st, {"k": "seventh", "f": G}, None, ids) == f"space:{BD.ids[l3]}"
    ids.remove(f"space:{BD.ids[l3]}")
    assert pol_seventh(st, {"k": "seventh", "f": G}, None, ids) == "space:cali"


def test_8_every_nonplayer_fact_names_its_branch_and_random_picks_are_reported():
    st = new(None, seed=3, nonplayers=["govt", "farc", "auc", "cartels"])
    facts = []
    for _ in range(40):
        p = RULES.prompt(st)
        if p is None:
            break
        facts += RULES.apply_inplace(st, p.seats[0], "np:act")
    np_facts = [f for f in facts if f["type"] == "np"]
    assert np_facts and all(f.get("branch") and f.get("rule") for f in np_facts)
    assert any(f["rule"] == "8.2" and f.get("choice") for f in np_facts)


def test_8_1_2_march_example_active_guerrillas_fill_only_the_room_left():
    # 2 Underground and 3 Active FARC Guerrillas into an empty Support space: only 3 move
    # (priority to the Underground), so none is Activated.
    st = position([4, 20], F, nonplayers=())
    put(st, "huila", farc_u=2, farc_a=3)
    put(st, "bogota", sup=2)
    from engine.scenarios.andean_abyss.operation import start_op
    start_op(st, F, "march", lim=False, free=True, facts=[])
    st["seq"] += 1
    bot = NonPlayerBot(RULES, "farc", 1)
    play(st, "from:huila", "space:bogota")
    for expect in ("u:2", "a:1"):
        cid = bot.choose(st, RULES.prompt(st)).choice_id
        assert cid == expect
        play(st, cid)
    assert pc(st, "bogota") == {"farc_u": 2, "farc_a": 1}


def test_8_7_2_march_destination_where_guerrillas_stay_underground_first():
    from engine.scenarios.andean_abyss.np_march import pol_marchgrp
    st = clear(new([1, 2], nonplayers=["farc"]))
    put(st, "meta_west", farc_u=3, sup=-2)
    put(st, "bogota", sup=2, troops=2, police=1)   # Support with 3 cubes: any move Activates
    put(st, "huila", sup=1)                         # Support, no cubes: up to 3 stay Underground
    for j in P.adj(st, BD.index["meta_west"]):
        if BD.is_loc[j]:
            st["sab"][j] = 1                            # no first-bullet LoC
    op = {"k": "op", "f": F, "op": "march", "sel": [], "moved": {}, "moved_a": {}, "lim": False, "free": False,
          "dest": None, "sa": None}
    st["stack"].append(op)
    fr = {"k": "marchgrp", "f": F, "src": BD.index["meta_west"], "opi": len(st["stack"]) - 1, "dst": None,
          "nu": None, "auto": "np"}
    for _ in range(6):
        assert pol_marchgrp(st, fr, None, ["space:bogota", "space:huila"]) == "space:huila"


def test_8_6_2_auc_march_counts_farc_guerrillas_as_cubes():
    from engine.scenarios.andean_abyss.np_priorities import march_room
    st = clear(new([1, 2]))
    put(st, "huila", sup=-1, farc_u=2, police=1)   # AUC into Opposition: FARC count as cubes
    assert march_room(st, A, BD.index["huila"]) == 0
    assert march_room(st, F, BD.index["huila"]) == 99   # FARC into Opposition: never Activated


def test_8_8_6_sweep_moves_troops_in_keeping_3_cubes_in_a_support_space():
    st = position([6, 20], G)
    _few_govt_pieces(st)
    put(st, "bogota", troops=3, police=3, sup=2)
    put(st, "huila", farc_u=2)
    facts = play(st, "np:act")
    assert any(f["type"] == "np" and f["rule"] == "8.8.6" for f in facts)
    assert pc(st, "huila")["troops"] >= 2 and pc(st, "huila")["farc_a"] == 2   # all Activated
    assert pc(st, "bogota").get("troops", 0) + pc(st, "bogota")["police"] >= 3   # never below 3 cubes


def test_8_1_government_that_cannot_afford_an_operation_passes():
    st = position([6, 20], G)
    st["res"][G] = 2
    kind, _, _, reasons = decide(st)
    assert kind == "pass" and reasons[-1][1] == "8.1"


def test_8_7_4_kidnap_on_locs_then_cities_targets_the_government():
    from engine.scenarios.andean_abyss.np_farc import pol_kidnap
    st = clear(new([1, 2]))
    put(st, "cali", farc_u=2)
    put(st, "huila", farc_u=2, car_base=1)
    put(st, "loc_bogota_neiva", farc_u=1)
    st["res"][G], st["res"][C] = 10, 10
    ids = ["space:huila", "space:cali", "space:loc_bogota_neiva", "done"]
    fr = {"k": "kidnap", "f": F, "ph": "a"}
    assert pol_kidnap(st, fr, None, ids) == "space:loc_bogota_neiva"
    assert pol_kidnap(st, fr, None, ids[:2] + ["done"]) == "space:cali"
    st["res"][G] = 0                                  # 8.7.4: skip targets with nothing to take
    assert pol_kidnap(st, fr, None, ids[:2] + ["done"]) == "space:huila"


def test_8_7_4_terror_where_kidnap_could_take_resources_before_other_spaces():
    from engine.scenarios.andean_abyss.np_priorities import rank_space
    st = clear(new([1, 2]))
    put(st, "cali", farc_u=2, police=1, sup=0)       # a City: Kidnap could take Govt Resources
    put(st, "antioquia", farc_u=1, sup=1)            # Support, but no Kidnap target
    put(st, "huila", farc_u=1, sup=-2)               # Active Opposition: never
    st["res"][G] = 5
    assert rank_space(st, F, "terror", BD.index["cali"]) > rank_space(st, F, "terror", BD.index["antioquia"])
    assert rank_space(st, F, "terror", BD.index["huila"]) is None


def test_8_5_1_rally_bullets_in_order_cartels_base_spaces_only_without_guerrillas():
    from engine.scenarios.andean_abyss.np_priorities import rank_space
    st = clear(new([1, 2]))
    put(st, "huila", car_base=1, car_a=2, police=1)  # all Active with a cube: flip first
    put(st, "cesar", car_u=2)                        # 2 Guerrillas: a Base
    put(st, "antioquia", car_base=1)                 # bare Base: place Guerrillas
    put(st, "narino", car_base=1, car_u=1)           # Base with a Guerrilla: not a listed space
    r = {s: rank_space(st, C, "rally", BD.index[s]) for s in ("huila", "cesar", "antioquia", "narino")}
    assert r["huila"] > r["cesar"] > r["antioquia"] > r["narino"]
    assert r["narino"] == (1, 0)                     # only as the 1 "other" space


def test_8_6_1_auc_rally_farc_base_spaces_before_auc_base_spaces():
    from engine.scenarios.andean_abyss.np_priorities import rank_space
    st = clear(new([1, 2]))
    put(st, "huila", farc_base=1)
    put(st, "cesar", auc_base=1)
    assert rank_space(st, A, "rally", BD.index["huila"]) > rank_space(st, A, "rally", BD.index["cesar"])


def test_8_8_8_support_phase_civic_action_to_passive_support_first_never_below_15():
    from engine.scenarios.andean_abyss.np_govt_ops import pol_civic
    st = clear(new([1, 2]))
    st["props_done"], st["props_total"] = 1, 4
    put(st, "cali", sup=1)                           # already Passive Support
    put(st, "medellin", sup=-1)                      # toward Passive Support: first
    st["res"][G] = 30
    ids = ["space:cali", "space:medellin", "done"]
    fr = {"k": "civic", "f": G, "phase": True}
    assert pol_civic(st, fr, None, ids) == "space:medellin"
    st["res"][G] = 17
    assert pol_civic(st, fr, None, ids) == "done"
    st["props_done"] = 4                             # the final Propaganda Round: no floor
    assert pol_civic(st, fr, None, ids) == "space:medellin"


def test_8_5_3_bribe_player_pieces_first_then_government_farc_auc():
    from engine.scenarios.andean_abyss.np_cartels import pol_bribe
    st = clear(new([1, 2], nonplayers=["govt", "auc", "cartels"]))
    st["res"][C] = 10
    put(st, "cali", car_u=1, police=1)               # Non-player Government
    put(st, "huila", car_u=1, farc_u=1)              # player FARC: first
    fr = {"k": "bribe", "f": C, "ph": "a"}
    assert pol_bribe(st, fr, None, ["space:cali", "space:huila", "done"]) == "space:huila"
    st["res"][C] = 2                                 # fewer than 3 Resources: no Bribe
    assert pol_bribe(st, fr, None, ["space:cali", "space:huila", "done"]) == "done"


def test_8_8_8_support_phase_to_passive_support_even_with_terror_before_active_support():
    from engine.scenarios.andean_abyss.np_govt_ops import pol_civic
    st = clear(new([1, 2]))
    st["props_done"], st["props_total"] = 1, 4
    put(st, "bogota", sup=1)                         # Passive -> Active: the second pass
    put(st, "cali", sup=0)
    st["ter"][BD.index["cali"]] = 1                  # Terror, but still toward Passive Support
    put(st, "medellin", sup=-2)                      # the largest Opposition reduction comes first
    st["res"][G] = 40
    fr = {"k": "civic", "f": G, "phase": True}
    ids = ["space:bogota", "space:cali", "space:medellin", "done"]
    assert pol_civic(st, fr, None, ids) == "space:medellin"
    assert pol_civic(st, fr, None, ids[:2] + ["done"]) == "space:cali"


def test_8_6_1_elite_backing_base_first_then_rally_priorities():
    from engine.scenarios.andean_abyss.np_propaganda import pol_elite
    st = clear(new([1, 2]))
    put(st, "cesar", auc_u=2)                        # a Base is possible here
    put(st, "huila", farc_base=1)                    # 8.6.1: FARC Base space
    fr = {"k": "elite", "f": A}
    assert pol_elite(st, fr, None, ["space:huila", "space:cesar", "none"]) == "space:cesar"
    assert pol_elite(st, fr, None, ["space:huila", "space:antioquia", "none"]) == "space:huila"


def test_8_7_3_farc_attack_3_guerrilla_spaces_then_1_city_or_department_before_a_loc():
    from engine.scenarios.andean_abyss.np_priorities import rank_space
    st = clear(new([1, 2]))
    put(st, "huila", farc_a=3, police=1)
    put(st, "cesar", farc_u=1, troops=1)
    put(st, "loc_bogota_neiva", farc_u=1, police=1)
    put(st, "antioquia", farc_a=1, troops=1)         # neither 3 Guerrillas nor Underground
    r = {s: rank_space(st, F, "attack", BD.index[s]) for s in ("huila", "cesar", "loc_bogota_neiva", "antioquia")}
    assert r["huila"] > r["cesar"] > r["loc_bogota_neiva"] and r["antioquia"] is None


def test_8_6_3_auc_attack_most_guerrillas_first_and_ambush_where_fewest():
    from engine.scenarios.andean_abyss.np_insurgent import ambush_here
    from engine.scenarios.andean_abyss.np_priorities import rank_space
    st = clear(new([1, 2]))
    put(st, "huila", auc_u=1, auc_a=3, farc_u=1)
    put(st, "cesar", auc_u=1, farc_u=1)
    assert rank_space(st, A, "attack", BD.index["huila"]) > rank_space(st, A, "attack", BD.index["cesar"])
    op = {"k": "op", "f": A, "op": "attack", "sel": [BD.index["huila"]]}
    st["stack"].append(op)
    opi = len(st["stack"]) - 1
    assert not ambush_here(st, {"k": "attacksp", "f": A, "i": BD.index["huila"], "opi": opi})
    assert ambush_here(st, {"k": "attacksp", "f": A, "i": BD.index["cesar"], "opi": opi})


def test_8_8_9_redeployed_troops_restore_control_of_a_city_with_3_cubes():
    from engine.scenarios.andean_abyss.np_propaganda import pol_redeploy
    st = clear(new([1, 2]))
    put(st, "cali", troops=1, police=2, farc_u=4)    # 3 cubes but no Government Control
    put(st, "medellin", troops=2, police=2)          # fine already
    put(st, "bogota", police=3)                      # fine already (Population 8)
    fr = {"k": "redeploy", "f": G, "ph": "must"}
    assert pol_redeploy(st, fr, None, ["space:bogota", "space:cali", "space:medellin"]) == "space:cali"


def test_8_6_4_assassinate_takes_a_shipment_holder_first_then_farc_government_cartels():
    from engine.scenarios.andean_abyss.np_auc import pol_assassinate
    st = clear(new([1, 2]))
    put(st, "huila", auc_u=2, farc_u=1, police=1, car_u=1)
    fr = {"k": "assassinate", "f": A, "ph": "b", "i": BD.index["huila"]}
    ids = ["target:farc_underground", "target:police", "target:cartels_underground"]
    assert pol_assassinate(st, fr, None, ids) == "target:farc_underground"
    st["ship"].append([BD.index["huila"], 3])        # 8.6.4: remove Guerrillas to take Shipments first
    assert pol_assassinate(st, fr, None, ids) == "target:cartels_underground"


def test_8_5_1_process_puts_shipments_with_underground_cartels_guerrillas_first():
    from engine.scenarios.andean_abyss.np_cartels import pol_process
    st = clear(new([1, 2]))
    put(st, "huila", car_base=1, car_a=1)
    put(st, "cesar", car_base=1, car_u=1)
    fr = {"k": "process", "f": C, "ph": "ship", "n": 0}
    for _ in range(5):
        assert pol_process(st, fr, None, ["ship:huila:cartels", "ship:cesar:cartels", "done"]) == "ship:cesar:cartels"


def test_8_5_2_cartels_march_all_adjacent_groups_into_one_destination():
    st = position([4, 20], C)
    put(st, "huila", car_u=2, car_base=1)            # leaves 1 with its Base
    put(st, "cali", car_u=2)
    put(st, "ibague", car_u=2)
    scarce(st, 9, 3)
    scarce(st, 11, 0)
    kind, op, _, _ = decide(st)
    assert (kind, op) == ("op", "march")
    before = [P.guerrillas(st["pc"][i], C) for i in range(BD.n)]
    play(st, "np:act")
    gained = [i for i in range(BD.n) if P.guerrillas(st["pc"][i], C) > before[i]]
    assert len(gained) == 1                          # a single destination
    assert P.guerrillas(st["pc"][BD.index["huila"]], C) == 1 or gained == [BD.index["huila"]]


# Playbook p. 26, "What if a Non-Player Faction Cannot Execute its Assigned Operation?": 8.1.1's
# "if none" arrow leads *up one box* on the chart (Terror -> Attack -> March -> Rally), and an
# impossible Rally means Pass. The engine used to restart at the top of the chart (Rally first).

def test_8_1_1_farc_terror_impossible_goes_up_to_attack_not_rally():
    st = position([4, 20], F)
    scarce(st, 3, 5)                                       # fewer than 9 Guerrillas Available
    put(st, "santander", farc_a=3, police=1, sup=1)        # FARC strength in a Support space: no March
    st["res"][1], st["res"][0] = 5, 10                     # not more than the Government: Terror
    kind, op, _, reasons = decide(st)                      # ... but no Underground Guerrilla anywhere
    assert (kind, op) == ("op", "attack") and reasons[-1][1] == "8.1.1"


def test_8_1_1_auc_attack_impossible_goes_up_to_march_not_rally():
    st = position([4, 20], A)
    scarce(st, 6, 5)                                       # fewer than 6 Guerrillas Available
    put(st, "huila", farc_base=1, auc_a=1)                 # half the FARC-Base spaces hold AUC: no March
    put(st, "santander", farc_base=1)
    put(st, "antioquia", auc_a=2)                          # no Underground AUC anywhere: Attack impossible
    kind, op, _, reasons = decide(st)
    assert (kind, op) == ("op", "march") and reasons[-1][1] == "8.1.1"


def test_8_1_1_cartels_rally_impossible_passes_even_if_terror_is_possible():
    st = position([4, 20], C)
    for i in range(BD.n):
        if BD.is_dept[i] and BD.pop[i] > 0:
            put(st, BD.ids[i], police=1)                   # no Department where Cultivate could follow
    put(st, "cali", car_u=1)                               # a Terror would be possible in Cali
    kind, _, _, reasons = decide(st)
    assert kind == "pass" and reasons[-1][1] == "8.1.1"


def test_8_8_4_able_to_buy_civic_action_counts_the_cubes_the_train_places():
    """8.8.4: "able to buy Civic Action" is judged as the Train's 3rd bullet judges it, after the
    Train has placed its cubes: Cali (Government Control by 2 Police, no Troops) becomes a Civic
    Action space once Troops join the Police, so with fewer than 10 pieces Available the
    Government Trains (it used to go on to Sweep); here it Trains in Medellin (Control), Air Lifts
    those Troops to Cali (8.8.7: to enable Civic Action) and buys Cali up to Active Support."""
    from .conftest import auto
    st = position([6, 20], G)
    scarce(st, 0, 4)
    scarce(st, 1, 4)
    put(st, "cali", police=2)
    put(st, "bogota", troops=1)
    put(st, "meta_east", farc_u=1)
    assert st["av"][0] + st["av"][1] + st["av"][2] < 10
    kind, op, _, reasons = decide(st)
    assert (kind, op) == ("op", "train") and reasons[-1][1] == "8.8.4"
    play(st, "np:act")
    auto(st)
    assert st["sup"][BD.index["cali"]] == 2 and pc(st, "cali")["troops"] >= 1


def test_8_5_3_cartels_terror_levels_only_spaces_of_one_level_are_equal():
    """8.5.3 ranks Terror spaces by Support, then Opposition, then Neutral and says nothing of
    Population: two Support spaces are equal candidates for the 8.2 table (the engine used to
    prefer the larger Population)."""
    from engine.scenarios.andean_abyss.np_priorities import rank_space
    st = position([4, 20], C)
    for sid, lvl in (("bogota", 2), ("santa_marta", 1), ("cali", -1), ("neiva", 0)):
        put(st, sid, car_u=1, sup=lvl)
    r = {sid: rank_space(st, C, "terror", BD.index[sid]) for sid in ("bogota", "santa_marta", "cali", "neiva")}
    assert r["bogota"] == r["santa_marta"] > r["cali"] > r["neiva"]


def test_8_5_1_cartels_rally_base_needs_two_guerrillas_without_shipments():
    """8.5.1 2nd bullet (and 8.7.1's for FARC): replace 2 Guerrillas "without Shipments" by a Base."""
    from engine.scenarios.andean_abyss.np_priorities import rank_space
    st = position([4, 20], C)
    put(st, "huila", car_u=2, farc_u=2)
    put(st, "cesar", car_u=3, farc_u=3)
    st["ship"] = [[BD.index["huila"], 3], [BD.index["cesar"], 3], [BD.index["huila"], 1], [BD.index["cesar"], 1]]
    for f in (C, F):
        assert rank_space(st, f, "rally", BD.index["huila"]) != (4, 0)
        assert rank_space(st, f, "rally", BD.index["cesar"]) == (4, 0)


def test_8_5_1_cultivate_relocates_from_a_random_two_base_space_by_the_8_2_table():
    """8.5.1 Cultivate relocation "from a space with 2 Cartels Bases": among several such spaces the
    8.2 table picks (it used to be the first in map order). Dice 5,3,5 reach Huila."""
    from engine.scenarios.andean_abyss.np_cartels import pol_cultivate
    st = position([4, 20], C, script={"space": [5, 3, 5]})
    put(st, "cesar", car_base=2)
    put(st, "huila", car_base=2)
    assert pol_cultivate(st, {"ph": "from"}, [], ["from:cesar", "from:huila"]) == "from:huila"


def test_8_6_3_auc_attacks_for_shipments_farc_or_government_never_cartels_alone():
    """8.6.3: the AUC targets Shipments, then FARC, then Government; a space whose only enemies are
    Cartels without a Shipment is no Attack space, and the Cartels are not among its targets."""
    from engine.scenarios.andean_abyss.np_priorities import ATTACK_ORDER, rank_space
    st = position([4, 20], A)
    put(st, "huila", auc_a=3, car_u=2)
    put(st, "cesar", auc_a=3, car_u=2)
    put(st, "arauca", auc_a=3, farc_u=1)
    st["ship"] = [[BD.index["cesar"], 3]]
    assert rank_space(st, A, "attack", BD.index["huila"]) is None
    assert rank_space(st, A, "attack", BD.index["cesar"]) is not None
    assert rank_space(st, A, "attack", BD.index["arauca"]) is not None
    assert 3 not in ATTACK_ORDER[A]


def test_8_5_3_bribe_equal_spaces_by_the_8_2_table():
    """8.5.3 Bribe: a player's pieces first, then Government, FARC, AUC; spaces equal on that by
    the 8.2 table (it used to be map order). Dice 1,1,1 reach Cali before Bogota."""
    from engine.scenarios.andean_abyss.np_cartels import pol_bribe
    st = position([4, 20], C, script={"space": [1, 1, 1]})
    put(st, "bogota", car_u=1, police=1)
    put(st, "cali", car_u=1, police=1)
    put(st, "medellin", car_u=1, farc_u=1)
    st["res"][3] = 10
    assert pol_bribe(st, {"ph": "a"}, [], ["space:bogota", "space:cali", "space:medellin"]) == "space:cali"


def test_8_8_7_eradicate_not_in_an_assault_space_then_smallest_population_then_opposition():
    """8.8.7 Eradicate: the most Cartels Bases removed, but never in a Department selected for the
    accompanying Assault; equal ones by the smallest Population, then Opposition (it used to take
    the most Bases anywhere, then the first in map order)."""
    from engine.scenarios.andean_abyss.np_govt_sa import govt_sa, pol_eradicate
    st = position([4, 20], G)
    put(st, "huila", car_base=2)
    put(st, "cesar", car_base=1, sup=1)
    put(st, "putumayo", car_base=1, sup=-1)
    st["stack"].append({"k": "op", "f": G, "op": "assault", "sel": [BD.index["huila"]], "plan": {"max": 3}})
    fr = {"k": "eradicate", "f": G, "ph": "a", "opi": len(st["stack"]) - 1}
    ids = ["space:huila", "space:cesar", "space:putumayo"]
    assert pol_eradicate(st, fr, [], ids) == "space:putumayo"
    st["pc"][BD.index["cesar"]][11] = st["pc"][BD.index["putumayo"]][11] = 0
    assert govt_sa(st, ["sa:eradicate"], st["stack"][-1]) is None    # only Huila, the Assault space


def test_8_8_5_patrol_assault_equal_locs_by_8_3_highest_econ():
    """8.8.5: the Patrol's LoC Assault where it removes the most Insurgents; equal LoCs go by 8.3
    (highest Econ first), not by the order offered."""
    from engine.scenarios.andean_abyss.np_policy import pol_op
    st = position([4, 20], G)
    put(st, "loc_cali_pasto", troops=1, farc_a=1)
    put(st, "loc_arauca_cucuta", troops=1, farc_a=1)
    fr = {"k": "op", "f": G, "op": "patrol", "ph": "patrol_assault", "sel": [], "plan": {"max": 99, "sa": []}}
    assert pol_op(st, fr, [], ["space:loc_cali_pasto", "space:loc_arauca_cucuta", "none"]) == "space:loc_arauca_cucuta"


def test_8_7_4_kidnap_equal_locs_by_8_3():
    """8.7.4 Kidnap: LoCs first, then Cities, then Departments with Cartels Bases; among LoCs 8.3
    decides (highest Econ first), not the order offered."""
    from engine.scenarios.andean_abyss.np_farc import pol_kidnap
    st = position([4, 20], F)
    ids = ["space:bogota", "space:loc_cali_pasto", "space:loc_arauca_cucuta"]
    assert pol_kidnap(st, {"ph": "a"}, [], ids) == "space:loc_arauca_cucuta"


def test_8_6_2_auc_march_one_destination_with_every_adjacent_group():
    """8.6.2 first bullet: 1 City or Department with a FARC piece (a FARC Base if possible) and no
    AUC Guerrilla, entered by all adjacent AUC Guerrillas; groups used to pick destinations one by
    one (here Cesar, with only a FARC Guerrilla, was as likely as Santander with the FARC Base)."""
    from .conftest import auto
    st = position([4, 20], A, nonplayers=("govt", "farc", "auc", "cartels"))
    scarce(st, 6, 5)
    put(st, "santander", farc_base=1)
    put(st, "cesar", farc_u=1)
    put(st, "antioquia", auc_u=2)
    put(st, "bucaramanga", auc_u=2)
    kind, op, _, _ = decide(st)
    assert (kind, op) == ("op", "march")
    play(st, "np:act")
    auto(st)
    assert pc(st, "santander").get("auc_u", 0) + pc(st, "santander").get("auc_a", 0) == 4
    assert not pc(st, "cesar").get("auc_u") and not pc(st, "cesar").get("auc_a")


def test_8_7_4_farc_terror_kidnap_space_at_active_opposition_is_selected():
    """8.7.4 second bullet ("other spaces where Kidnap could take Resources or Shipments") names no
    Support level: a City at Active Opposition where Kidnap could take Government Resources is a
    Terror space (the engine applied the last bullet's "not in Active Opposition" to it)."""
    from .conftest import auto
    st = position([4, 20], F)
    scarce(st, 3, 5)
    put(st, "loc_cali_pasto", farc_u=1)          # an Underground FARC Guerrilla on a LoC: no March
    put(st, "cali", farc_u=1, sup=-2)
    st["res"][1], st["res"][0] = 5, 10
    from engine.scenarios.andean_abyss.np_priorities import rank_space
    kind, op, _, _ = decide(st)
    assert (kind, op) == ("op", "terror")
    assert rank_space(st, F, "terror", BD.index["cali"])[0] == 2
    play(st, "np:act")
    auto(st)
    assert st["ter"][BD.index["cali"]] == 1 and st["sab"][BD.index["loc_cali_pasto"]] == 1


def test_8_7_4_farc_terror_kidnap_bullet_stops_at_3_such_spaces():
    """8.7.4: Kidnap spaces "until there are 3 such spaces (including LoCs)": with 3 already
    selected, a 0-Population Department where Kidnap could take the Cartels' Resources is no longer
    a Terror space (it is no space of the last bullet either)."""
    from engine.scenarios.andean_abyss.np_policy import pol_op
    st = position([4, 20], F)
    for sid in ("cali", "medellin", "bogota"):
        put(st, sid, farc_u=1)
    put(st, "vichada", farc_u=1, car_base=1)
    st["res"][3] = 5
    fr = {"k": "op", "f": F, "op": "terror", "ph": "spaces", "sa": None, "nsp": 3,
          "sel": [BD.index[s] for s in ("cali", "medellin", "bogota")], "plan": {"max": 99, "sa": []}}
    assert pol_op(st, fr, [], ["space:vichada", "done"]) == "done"
    fr["sel"] = fr["sel"][:2]
    assert pol_op(st, fr, [], ["space:vichada", "done"]) == "space:vichada"


def test_8_7_1_farc_extort_loc_lowest_econ_then_8_3():
    """8.7.1 Extort "on 1 LoC ..., lowest Economic value first": equal LoCs by 8.3 (a random City
    next to a candidate: dice 1,1,1 reach Cali, next to Cali-Pasto), not the order offered."""
    from engine.scenarios.andean_abyss.np_insurgent import pol_extort
    st = position([4, 20], F, script={"space": [1, 1, 1]})
    ids = ["space:loc_cartagena_santa_marta", "space:loc_cali_pasto", "space:loc_bogota_neiva", "done"]
    assert pol_extort(st, {"f": F, "done": []}, [], ids) == "space:loc_cali_pasto"


def test_8_7_5_agitation_short_of_resources_ties_by_8_2():
    """8.7.5: with too few Resources to Agitate everywhere, fewest Terror, then Support, then the
    highest Population, then randomly (8.2: dice 3,3,1 reach Arauca), not the order offered."""
    from engine.scenarios.andean_abyss.np_propaganda import pol_agitate
    st = position([4, 20], F, script={"space": [3, 3, 1]})
    st["res"][1] = 1
    assert pol_agitate(st, {}, [], ["space:cesar", "space:arauca", "done"]) == "space:arauca"
    st["res"][1] = 10                      # enough for both: no dice, the order changes nothing
    assert pol_agitate(st, {}, [], ["space:cesar", "space:arauca", "done"]) in ("space:cesar", "space:arauca")


def test_8_6_2_auc_closer_step_among_equal_spaces_by_8_2():
    """8.6.2 second bullet: "to a space closer to a FARC piece" - equally close spaces are picked by
    the 8.2 table (dice 3,3,5: Meta East), not by Population or map order."""
    from engine.scenarios.andean_abyss.np_auc import auc_closer_cands, auc_closer_dest
    st = position([4, 20], A, script={"space": [3, 3, 5]})
    put(st, "vichada", farc_base=1)
    assert sorted(BD.ids[j] for j in auc_closer_cands(st, BD.index["santander"])) == ["arauca", "meta_east"]
    assert BD.ids[auc_closer_dest(st, BD.index["santander"])] == "meta_east"
