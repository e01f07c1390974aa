"""5.0 Events: one test per card side (named card_NN_side), on crafted positions.

Each case: the executing Faction, a position, explicit choices (the rest resolved with
``np:act``, the Non-player choice rules) and a check comparing before/after.
"""

from __future__ import annotations

import copy

import pytest

from .conftest import BD, P, auto, clear, conserved, ids, new, pc, play, put

IX = BD.index


def sup(st, s):
    return st["sup"][IX[s]]


def run_event(card, side, f, prep, choices=(), seed=1, **opts):
    st = clear(new([card, 1 if card != 1 else 2], seed=seed, **opts))
    prep(st)
    st["sop"]["cand"] = [f]
    st["sop"]["i"] = 0
    assert st["stack"][-1]["k"] == "elig"
    st["stack"][-1]["f"] = f
    st["seq"] += 1
    before = copy.deepcopy(st)
    cid = "event" if BD.cards[card].get("single") else f"event:{side}"
    play(st, cid, *choices)
    auto(st)
    assert conserved(st)
    return before, st


G, F, A, C = 0, 1, 2, 3
N = lambda st: None  # noqa: E731


def total_cartels_g(st):
    return P.count_on_map(st, 9) + P.count_on_map(st, 10)


CASES = {
    (1, "u"): (G, N, (), lambda b, a: a["caps"]["1"] == "u"),
    (1, "s"): (F, N, (), lambda b, a: a["caps"]["1"] == "s"),
    (2, "u"): (G, N, (), lambda b, a: a["caps"]["2"] == "u"),
    (2, "s"): (F, N, (), lambda b, a: a["caps"]["2"] == "s"),
    (3, "u"): (G, N, (), lambda b, a: a["caps"]["3"] == "u"),
    (3, "s"): (F, N, (), lambda b, a: a["caps"]["3"] == "s"),
    (4, "u"): (G, N, (), lambda b, a: a["res"][0] - b["res"][0] in range(12, 19)),
    (4, "s"): (F, N, (), lambda b, a: sum(a["sab"]) == 3 and all(a["sab"][i] for i in BD.locs if BD.econ[i] == 3)),
    # 8.3: the table dice 3,1,5 reach Cucuta, the die 1 its first 3-Econ pipeline (Arauca-Cucuta)
    (5, "u"): (G, lambda st: (put(st, "loc_arauca_cucuta", farc_u=1),
                              st["rng"].__setitem__("script", {"space": [3, 1, 5] * 6, "loc": [1] * 6})), (),
               lambda b, a: P.count_on_map(a, 1) == 6 and pc(a, "loc_arauca_cucuta").get("farc_a") == 1),
    (5, "s"): (F, lambda st: put(st, "cucuta", sup=2), ("space:cucuta",), lambda b, a: sup(a, "cucuta") == 0),
    (6, "u"): (G, lambda st: (st["sab"].__setitem__(IX["loc_arauca_cucuta"], 1), put(st, "arauca", sup=-1)), (),
               lambda b, a: sup(a, "arauca") == 1),
    (6, "s"): (F, lambda st: put(st, "santander", sup=2), ("space:loc_arauca_cucuta", "space:santander"),
               lambda b, a: a["sab"][IX["loc_arauca_cucuta"]] == 1 and sup(a, "santander") == 1),
    (7, "u"): (G, N, (), lambda b, a: a["caps"]["7"] == "u"),
    (7, "s"): (A, N, (), lambda b, a: a["caps"]["7"] == "s"),
    (8, "u"): (G, lambda st: put(st, "guaviare", farc_a=2, auc_a=1), (),
               lambda b, a: pc(a, "guaviare") == {}),
    (8, "s"): (A, N, (), lambda b, a: a["res"][0] == b["res"][0] - 9),
    (9, "u"): (G, N, (), lambda b, a: a["caps"]["9"] == "u"),
    (9, "s"): (A, N, (), lambda b, a: a["caps"]["9"] == "s"),
    (10, "u"): (G, N, (), lambda b, a: a["caps"]["10"] == "u"),
    (10, "s"): (A, N, (), lambda b, a: a["caps"]["10"] == "s"),
    (11, "u"): (G, N, (), lambda b, a: a["caps"]["11"] == "u"),
    (11, "s"): (A, N, (), lambda b, a: a["caps"]["11"] == "s"),
    (12, "u"): (G, N, (), lambda b, a: a["res"][0] == b["res"][0] + 9 and a["aid"] == 19),
    (12, "s"): (A, N, (), lambda b, a: 12 in a["mom"]),
    (13, "u"): (G, N, (), lambda b, a: a["caps"]["13"] == "u"),
    (13, "s"): (C, N, (), lambda b, a: a["caps"]["13"] == "s"),
    (14, "u"): (G, N, ("space:huila",), lambda b, a: pc(a, "huila") == {"gbase": 1, "troops": 3}),
    (14, "s"): (C, lambda st: put(st, "huila", gbase=1, police=2), (),
                lambda b, a: pc(a, "huila") == {"police": 1}),
    (15, "u"): (G, N, (), lambda b, a: a["res"][0] - b["res"][0] in (4, 8, 12, 16, 20, 24)),
    (15, "s"): (C, lambda st: put(st, "cali", sup=1), ("space:cali",), lambda b, a: sup(a, "cali") == -1),
    (16, "u"): (G, lambda st: put(st, "huila", farc_u=2), (),
                lambda b, a: a["res"][1] == b["res"][1] + 5 and a["res"][0] == b["res"][0] + 15),
    (16, "s"): (C, N, (), lambda b, a: a["res"][0] == b["res"][0] - 10),
    (17, "u"): (G, N, (), lambda b, a: a["res"][0] == b["res"][0] + 9 and a["aid"] == 15),
    (17, "s"): (C, N, (), lambda b, a: 17 in a["mom"]),
    (18, "u"): (G, N, (), lambda b, a: a["res"][0] == b["res"][0] + 9 and a["aid"] == 29),
    (18, "s"): (C, N, (), lambda b, a: a["res"][0] == b["res"][0] - 6 and 3 <= a["aid"] <= 8),
    (19, "u"): (F, lambda st: put(st, "cali", farc_u=1, sup=1), ("terror",),
                lambda b, a: sup(a, "cali") == 0 and a["ter"][IX["cali"]] == 1 and a["res"][1] == b["res"][1]),
    (20, "u"): (G, lambda st: put(st, "huila", farc_u=2), (),
                lambda b, a: pc(a, "huila").get("farc_u", 0) < 2),
    (20, "s"): (F, lambda st: put(st, "huila", farc_a=2), (),
                lambda b, a: P.count_on_map(a, 3) >= 1),
    (21, "u"): (G, lambda st: put(st, "huila", farc_base=1), (),
                lambda b, a: a["res"][1] == 4 and P.count_on_map(a, 5) == 0),
    (21, "s"): (F, N, ("space:huila",), lambda b, a: a["res"][1] == 16 and pc(a, "huila") == {"farc_base": 1}),
    (22, "u"): (G, lambda st: put(st, "cali", sup=-2), (), lambda b, a: sup(a, "cali") == 0),
    (22, "s"): (F, N, (), lambda b, a: 22 in a["mom"]),
    (23, "u"): (G, lambda st: put(st, "huila", farc_u=2, car_base=1, auc_u=1), ("space:huila",),
                lambda b, a: pc(a, "huila") == {"farc_a": 2, "auc_a": 1}),
    (23, "s"): (F, lambda st: put(st, "bogota", troops=4), (),
                lambda b, a: pc(a, "bogota") == {"troops": 1} and set(a["inel_next"]) == set()
                and not a["elig"][0] and not a["elig"][1]),
    (24, "u"): (G, N, ("space:cali",), lambda b, a: sup(a, "cali") == 2 and not a["elig"][1]),
    (24, "s"): (F, lambda st: (put(st, "huila", troops=3, farc_u=1), put(st, "cali", sup=2)), (),
                lambda b, a: pc(a, "huila") == {"troops": 1, "farc_u": 1} and sup(a, "cali") == 0),
    (25, "u"): (G, lambda st: put(st, "huila", farc_u=2, farc_base=1), (),
                lambda b, a: pc(a, "huila") == {}),
    (25, "s"): (F, N, ("space:cesar", "place:cesar:farc_base", "place:cesar:farc_base", "place:cesar:farc_underground"),
                lambda b, a: pc(a, "cesar") == {"farc_base": 2, "farc_u": 1}),
    (26, "u"): (G, lambda st: put(st, "huila", car_u=3, farc_u=1), (),
                lambda b, a: pc(a, "huila").get("car_a") == 3),
    (26, "s"): (F, lambda st: put(st, "huila", car_base=1, farc_u=1), (),
                lambda b, a: a["res"][1] == 16 and a["res"][3] == 4),
    (27, "u"): (G, lambda st: put(st, "guaviare", farc_a=3), (),
                lambda b, a: pc(a, "guaviare") == {}),
    (27, "s"): (F, N, (), lambda b, a: 27 in a["mom"]),
    (28, "u"): (G, lambda st: put(st, "arauca", farc_u=2, farc_base=1), (),
                lambda b, a: pc(a, "arauca") == {}),
    (28, "s"): (F, N, ("space:arauca",),
                lambda b, a: pc(a, "arauca") == {"farc_base": 1} and a["sab"][IX["loc_arauca_cucuta"]] == 1
                and a["sab"][IX["loc_ayacucho_cucuta"]] == 1),
    (29, "u"): (G, lambda st: put(st, "cali", troops=2, farc_u=2), (),
                lambda b, a: pc(a, "cali") == {"troops": 2}),
    (29, "s"): (F, lambda st: put(st, "cali", troops=2, police=2, auc_u=1), ("faction:auc",),
                lambda b, a: pc(a, "cali") == {"auc_u": 3}),
    (30, "u"): (G, lambda st: (st["zones"].append(IX["meta_west"]), put(st, "meta_west", farc_base=1)), (),
                lambda b, a: a["zones"] == [] and pc(a, "meta_west") == {}),
    (30, "s"): (F, lambda st: put(st, "huila", farc_u=3, troops=2), (),
                lambda b, a: a["zones"] == [IX["huila"]] and pc(a, "huila") == {"farc_u": 3, "farc_base": 1}),
    (31, "u"): (G, lambda st: (put(st, "cali"), put(st, "medellin")), ("space:cali", "space:medellin", "space:huila"),
                lambda b, a: sup(a, "cali") == 1 and sup(a, "medellin") == 1 and sup(a, "huila") == 1),
    (31, "s"): (F, lambda st: put(st, "cali", sup=-1), (), lambda b, a: sup(a, "cali") == -2),
    (32, "u"): (G, lambda st: put(st, "cali", sup=-1), ("space:cali", "space:huila"),
                lambda b, a: sup(a, "cali") == 1 and sup(a, "huila") == 1),
    (32, "s"): (F, N, (), lambda b, a: a["res"][1] == 22),
    (33, "u"): (G, lambda st: put(st, "narino", farc_u=2, farc_base=1), (),
                lambda b, a: pc(a, "narino") == {}),
    (33, "s"): (F, N, ("place:ecuador:farc_base", "place:ecuador:farc_base"),
                lambda b, a: "ecuador" in a["foreign"] and pc(a, "ecuador") == {"farc_base": 2}),
    (34, "u"): (G, N, ("faction:cartels",), lambda b, a: a["res"][3] == 5),
    (34, "s"): (F, N, ("faction:auc", "space:vichada"), lambda b, a: pc(a, "vichada") == {"auc_base": 1, "auc_u": 2}),
    (35, "u"): (G, lambda st: put(st, "putumayo", car_base=2), (),
                lambda b, a: pc(a, "putumayo") == {"police": 2} and a["aid"] == 12),
    (35, "s"): (F, lambda st: put(st, "putumayo", car_base=1), (), lambda b, a: sup(a, "putumayo") == -2),
    (36, "u"): (F, lambda st: put(st, "huila", farc_u=2), (),
                lambda b, a: a["zones"] == [IX["huila"]] and pc(a, "huila")["farc_base"] == 1
                and sum(1 for j in BD.adj_all[IX["huila"]] if a["sup"][j] == 1) == 2 and a["elig"][1]),
    (37, "u"): (A, lambda st: put(st, "huila", troops=2, auc_u=2, farc_a=2, farc_base=1), ("assault",),
                lambda b, a: pc(a, "huila").get("farc_a", 0) == 0),
    (37, "s"): (A, lambda st: (put(st, "huila", auc_u=2), put(st, "antioquia", troops=1)), (),
                lambda b, a: P.count_on_map(a, 6) + P.count_on_map(a, 7) >= 2),
    (38, "u"): (A, lambda st: put(st, "cali", troops=1, auc_a=3), (), lambda b, a: pc(a, "cali") == {"troops": 1}),
    (38, "s"): (A, lambda st: put(st, "cali", troops=1, auc_a=3), (), lambda b, a: pc(a, "cali") == {"troops": 1, "auc_u": 3}),
    (39, "u"): (A, N, (), lambda b, a: P.count_on_map(a, 1) == 6 and all(
        a["pc"][i][1] <= 1 for i in range(BD.n)) and all(a["pc"][i][1] == 0 for i in BD.cities)),
    (39, "s"): (A, lambda st: put(st, "huila", police=2), (), lambda b, a: pc(a, "huila") == {"police": 1, "auc_u": 1}),
    (40, "u"): (A, lambda st: put(st, "huila", auc_u=3), (), lambda b, a: pc(a, "huila") == {"police": 3}),
    (40, "s"): (A, lambda st: put(st, "huila", auc_u=1, troops=2, police=1), (),
                lambda b, a: P.cubes(a["pc"][IX["huila"]]) == 0 and sum(P.fpieces(a["pc"][i], 2) for i in BD.cities) == 2),
    (41, "u"): (A, lambda st: put(st, "huila", auc_u=2, auc_base=1), (),
                lambda b, a: pc(a, "huila") == {} and a["res"][2] == 4),
    (41, "s"): (A, lambda st: (put(st, "huila", auc_u=1, car_u=1), put(st, "cali", auc_u=1, car_base=1)), (),
                lambda b, a: a["res"][2] == 16),
    (42, "u"): (A, N, ("space:cali", "space:medellin"), lambda b, a: sup(a, "cali") == 1 and a["res"][0] == 43),
    (42, "s"): (A, N, (), lambda b, a: 42 in a["mom"] and a["m42"] == [2]),
    (43, "u"): (A, lambda st: put(st, "huila", troops=1, farc_base=2), (),
                lambda b, a: a["ter"][IX["huila"]] == 2 and pc(a, "huila") == {"troops": 1}),
    (43, "s"): (A, lambda st: put(st, "huila", troops=1), (), lambda b, a: a["ter"][IX["huila"]] == 2 and a["aid"] == 0),
    (44, "u"): (A, N, ("space:cali",), lambda b, a: sup(a, "cali") == 2 and a["res"][0] == 43),
    (44, "s"): (A, lambda st: put(st, "cali", sup=2), (), lambda b, a: sup(a, "cali") == 0 and a["res"][0] == 37),
    (45, "u"): (A, lambda st: (put(st, "cali", police=1), st["ter"].__setitem__(IX["cali"], 1)), (),
                lambda b, a: sup(a, "cali") == 1),
    (45, "s"): (A, lambda st: put(st, "huila", auc_u=1), (),
                lambda b, a: a["aid"] == 8 and 34 <= a["res"][0] <= 39),
    (46, "u"): (A, lambda st: put(st, "cali", auc_a=1, police=2, sup=2), ("faction:auc",),
                lambda b, a: a["ter"][IX["cali"]] == 2 and pc(a, "cali") == {"auc_a": 1} and abs(sup(a, "cali")) == 1),
    (47, "u"): (A, lambda st: put(st, "cali", police=2, auc_u=2), (), lambda b, a: pc(a, "cali") == {"police": 2}),
    (47, "s"): (A, lambda st: put(st, "cucuta", sup=2), (),
                lambda b, a: P.guerrillas(a["pc"][IX["cucuta"]], 2) == 2 and sup(a, "cucuta") == 1 and a["aid"] == 6),
    (48, "u"): (A, lambda st: put(st, "cucuta", sup=-2), (), lambda b, a: sup(a, "cucuta") == 0),
    (48, "s"): (A, lambda st: (put(st, "cali", sup=1), put(st, "medellin", sup=1)), ("space:cali", "space:medellin"),
                lambda b, a: sup(a, "cali") == 0 and sup(a, "medellin") == 0),
    (49, "u"): (A, N, (), lambda b, a: a["oop"][6] == 3 and a["av"][6] == 15),
    (49, "s"): (A, N, ("space:huila",), lambda b, a: pc(a, "huila") == {"auc_base": 1, "auc_u": 1}),
    (50, "u"): (A, N, ("space:huila", "space:cesar", "space:arauca"), lambda b, a: P.count_on_map(a, 1) == 3),
    (50, "s"): (A, lambda st: put(st, "cali", police=2), ("alt:replace",), lambda b, a: pc(a, "cali") == {"auc_u": 2}),
    (51, "u"): (A, N, (), lambda b, a: a["res"][0] == 52),
    (51, "s"): (A, lambda st: put(st, "bogota", farc_u=1), (),
                lambda b, a: sum(a["sab"]) == 3 and a["sab"][IX["loc_bogota_neiva"]] == 1),
    (52, "u"): (A, N, ("space:cali", "space:huila"), lambda b, a: sup(a, "cali") == 1 and sup(a, "huila") == 1),
    (52, "s"): (A, lambda st: put(st, "huila", auc_u=1, auc_base=1), (),
                lambda b, a: pc(a, "huila") == {"auc_u": 1, "auc_base": 2} and a["res"][2] == 12),
    (53, "u"): (A, lambda st: put(st, "huila", auc_a=2), ("faction:auc", "from:huila:auc_active", "space:cesar",
                                                 "from:huila:auc_active", "space:cesar"),
                lambda b, a: pc(a, "cesar") == {"auc_u": 2} and pc(a, "huila") == {}),
    (54, "u"): (A, lambda st: put(st, "huila", farc_u=2), (), lambda b, a: P.guerrillas(a["pc"][IX["huila"]], 1) == 0),
    (55, "u"): (C, lambda st: (put(st, "huila", car_u=6), st["ship"].append([IX["huila"], 3])), (),
                lambda b, a: pc(a, "huila") == {"car_u": 1} and not a["ship"] and a["aid"] == 12),
    (55, "s"): (C, lambda st: put(st, "cali", car_u=1, sup=2), (), lambda b, a: sup(a, "cali") == 1),
    (56, "u"): (C, lambda st: st["res"].__setitem__(3, 20), (), lambda b, a: a["res"][3] == 5 and a["res"][0] == 55),
    (56, "s"): (C, lambda st: put(st, "cali", car_u=2), ("space:cali", "space:medellin"),
                lambda b, a: a["res"][3] == 14 and pc(a, "medellin") == {"car_base": 1}),
    (57, "u"): (C, lambda st: put(st, "huila", car_u=3), (), lambda b, a: pc(a, "huila") == {"police": 3}),
    (57, "s"): (C, lambda st: (put(st, "cali", police=1), put(st, "huila", police=1)), (),
                lambda b, a: pc(a, "cali") == {"car_base": 1} and pc(a, "huila") == {"car_base": 1}),
    (58, "u"): (C, lambda st: put(st, "huila", car_u=3, car_base=1), (),
                lambda b, a: pc(a, "huila") == {"car_base": 1} and a["res"][3] == 4),
    (58, "s"): (C, lambda st: put(st, "cali", police=2), (), lambda b, a: pc(a, "cali").get("police", 0) < 2),
    (59, "u"): (C, lambda st: put(st, "cali", troops=2, car_u=2), (), lambda b, a: pc(a, "cali") == {"troops": 2}),
    (59, "s"): (C, lambda st: put(st, "cali", car_a=2), (), lambda b, a: P.count_on_map(a, 10) == 0),
    (60, "u"): (C, lambda st: put(st, "huila", car_u=2, car_base=2), ("alt:dept",),
                lambda b, a: pc(a, "huila") == {} and a["res"][0] == 46),
    (60, "s"): (C, lambda st: put(st, "bogota", police=2), ("space:cali", "space:medellin", "space:bogota",
                                                              "rm:police", "rm:police"),
                lambda b, a: pc(a, "bogota") == {} and a["res"][3] == 10),
    (61, "u"): (C, lambda st: put(st, "cali", car_u=1, car_base=1), (),
                lambda b, a: pc(a, "cali") == {} and a["res"][3] == 4),
    (61, "s"): (C, N, (), lambda b, a: P.count_on_map(a, 11) == 3),
    (62, "u"): (C, lambda st: put(st, "vaupes", car_base=2, farc_u=1), (), lambda b, a: pc(a, "vaupes") == {}),
    (62, "s"): (C, N, (), lambda b, a: all(pc(a, s) == {"car_base": 1} for s in ("guainia", "vaupes", "amazonas"))),
    (63, "u"): (C, lambda st: put(st, "cali", car_u=3, sup=2), (),
                lambda b, a: pc(a, "cali") == {"car_a": 1} and sup(a, "cali") == 1 and not a["elig"][3]),
    (64, "u"): (C, lambda st: put(st, "putumayo", farc_u=1, car_base=1), (),
                lambda b, a: a["ship"] == [[IX["putumayo"], 1], [IX["putumayo"], 1]]),
    (64, "s"): (C, lambda st: (put(st, "cali", car_base=1), put(st, "putumayo", car_base=2)), (),
                lambda b, a: a["res"][3] == 14),
    (65, "u"): (C, lambda st: put(st, "huila", farc_u=1), ("space:huila", "alt:ship+", "alt:base+", "place:huila:cartels_base"),
                lambda b, a: a["ship"] == [[IX["huila"], 1]] and pc(a, "huila")["car_base"] == 1),
    (66, "u"): (C, lambda st: put(st, "putumayo", car_base=2, car_u=1), (),
                lambda b, a: P.count_on_map(a, 11) == 0),
    (66, "s"): (C, lambda st: put(st, "putumayo", car_base=1), (), lambda b, a: pc(a, "putumayo") == {"car_base": 2}),
    (67, "u"): (C, lambda st: st["res"].__setitem__(3, 30), (), lambda b, a: a["res"][3] == 10),
    (67, "s"): (C, N, (), lambda b, a: 67 in a["mom"]),
    (68, "u"): (C, lambda st: put(st, "cartagena", car_u=1, car_base=1), ("alt:pieces",),
                lambda b, a: pc(a, "cartagena") == {}),
    (68, "s"): (C, lambda st: put(st, "cartagena", car_u=2, car_base=1), (), lambda b, a: a["res"][3] == 16),
    (69, "u"): (C, lambda st: put(st, "cali", car_u=2), ("space:cali", "space:huila", "op:terror", "space:huila", "done"),
                lambda b, a: pc(a, "huila") == {"car_u": 1, "car_a": 1} and a["ter"][IX["huila"]] == 1),
    (70, "u"): (C, lambda st: put(st, "huila", farc_u=1), (), lambda b, a: a["res"][0] == 40 + 54),
    (70, "s"): (C, lambda st: put(st, "guaviare", car_u=1), ("faction:cartels",),
                lambda b, a: a["ter"][IX["guaviare"]] == 1 and a["res"][3] == 13),
    (71, "u"): (C, lambda st: put(st, "choco", farc_u=1), (), lambda b, a: pc(a, "choco") == {} and a["res"][1] == 5),
    (71, "s"): (C, N, (),
                lambda b, a: "panama" in a["foreign"] and pc(a, "panama") == {"car_base": 2}),
    (72, "u"): (C, lambda st: put(st, "cali", car_u=2), (), lambda b, a: pc(a, "cali") in ({"farc_u": 2},)),
    (72, "s"): (C, lambda st: put(st, "putumayo", car_base=1), (), lambda b, a: pc(a, "putumayo")["car_u"] == 12),
}


def _make(card, side):
    f, prep, choices, check = CASES[(card, side)]

    def test():
        before, after = run_event(card, "unshaded" if side == "u" else "shaded", f, prep, choices)
        assert check(before, after)
    test.__name__ = f"test_card_{card:02d}_{'unshaded' if side == 'u' else 'shaded'}"
    test.__doc__ = f"Card {card} {BD.cards[card]['title']} ({'unshaded' if side == 'u' else 'shaded'})."
    return test


for (_c, _s) in CASES:
    _t = _make(_c, _s)
    globals()[_t.__name__] = _t


def test_every_card_side_has_a_test():
    for n, c in BD.cards.items():
        assert (n, "u") in CASES, n
        if not c.get("single"):
            assert (n, "s") in CASES, n


@pytest.mark.parametrize("card,side,execf,inel", [(23, "shaded", C, [G, F, C]), (24, "unshaded", G, [G, F]),
                                                    (63, "unshaded", F, [F, C])])
def test_5_eligibility_effects_of_cards_23_24_63(card, side, execf, inel):
    """Cards 23, 24, 63: named Factions are Ineligible through the next card (plus the executor)."""
    _, st = run_event(card, side, execf, lambda st: put(st, "bogota", troops=3))
    assert st["cur"] != card
    assert sorted(g for g in range(4) if not st["elig"][g]) == sorted(inel)


def test_card_36_executor_stays_eligible():
    _, st = run_event(36, "unshaded", C, lambda st: put(st, "huila", farc_u=1))
    assert st["elig"][C]


def test_5_1_card_naming_a_player_faction_to_act_asks_that_seat_even_for_a_non_player_executor():
    """Card 23 shaded executed by a Non-player FARC: the (player) Government picks its 3 Troops."""
    from engine.scenarios.andean_abyss.events import start_event
    from engine.scenarios.andean_abyss.sequence import run

    from .conftest import RULES
    st = clear(new([23, 1], nonplayers=["farc"]))
    put(st, "bogota", troops=2)
    put(st, "cali", troops=2)
    facts = []
    start_event(st, 1, 23, "shaded", facts, auto="np")
    run(st, facts)
    p = RULES.prompt(st)
    assert p.seats == ("govt",) and "np:act" not in [c.id for c in p.choices]
    while RULES.prompt(st).kind == p.kind:
        chs = [c.id for c in RULES.prompt(st).choices]
        play(st, next((c for c in chs if "cali" in c), chs[0]))
    assert pc(st, "bogota") == {"troops": 1} and pc(st, "cali") == {}


def _event(st, f, card, side):
    from engine.scenarios.andean_abyss.events import start_event
    from engine.scenarios.andean_abyss.sequence import run
    facts = []
    start_event(st, f, card, side, facts)
    run(st, facts)


def test_card_55_unshaded_executor_chooses_which_2_shipments():
    from .conftest import RULES, ids
    st = clear(new([55, 1]))
    for s_ in ("huila", "cesar", "cali"):
        put(st, s_, car_u=1)
        st["ship"].append([BD.index[s_], 3])
    _event(st, 0, 55, "unshaded")
    assert RULES.prompt(st).kind == "c55ship"
    assert set(ids(st)) == {"ship:huila:cartels", "ship:cesar:cartels", "ship:cali:cartels"}
    play(st, "ship:cali:cartels", "ship:huila:cartels")
    assert st["ship"] == [[BD.index["cesar"], 3]]


def test_card_40_shaded_executor_sends_each_cube_to_a_city():
    from .conftest import RULES
    st = clear(new([40, 1]))
    put(st, "cesar", auc_u=1, troops=1, police=1)
    _event(st, 2, 40, "shaded")
    if RULES.prompt(st).kind == "evpick":
        play(st, "space:cesar")
    assert RULES.prompt(st).kind == "c40cube"
    play(st, "space:cali", "space:medellin")
    assert pc(st, "cali") == {"troops": 1} and pc(st, "medellin") == {"police": 1}


def test_card_72_unshaded_executor_picks_farc_or_auc_for_each_replacement():
    from .conftest import RULES
    st = clear(new([72, 1]))
    put(st, "huila", car_u=2)
    _event(st, 0, 72, "unshaded")
    while RULES.prompt(st).kind == "evpick":
        play(st, "space:huila" if "space:huila" in [c.id for c in RULES.prompt(st).choices] else "done")
    assert RULES.prompt(st).kind == "c72rep"
    play(st, "faction:auc", "faction:farc")
    assert pc(st, "huila") == {"farc_u": 1, "auc_u": 1}


def test_card_72_shaded_executor_spreads_cartels_guerrillas():
    from .conftest import RULES
    st = clear(new([72, 1]))
    put(st, "huila", car_base=1)
    put(st, "cesar", car_base=1)
    n = st["av"][9]
    _event(st, 3, 72, "shaded")
    assert RULES.prompt(st).kind == "c72place"
    for _ in range(n):
        play(st, "space:cesar")
    assert pc(st, "cesar") == {"car_u": n, "car_base": 1} and pc(st, "huila") == {"car_base": 1}


def test_card_54_executor_chooses_remove_or_replace_and_whose_replacement():
    from .conftest import RULES, ids
    st = clear(new([54, 1]))
    put(st, "huila", farc_u=2)
    _event(st, 2, 54, "unshaded")
    assert set(ids(st)) == {"alt:replace", "alt:remove"}
    play(st, "alt:replace", "anywhere:huila:farc_underground")
    assert RULES.prompt(st).kind == "reppick" and set(ids(st)) == {"faction:auc", "faction:cartels"}
    play(st, "faction:cartels", "done")
    assert pc(st, "huila") == {"farc_u": 1, "car_u": 1}
    st = clear(new([54, 1]))
    put(st, "huila", farc_u=2)
    _event(st, 2, 54, "unshaded")
    play(st, "alt:remove", "anywhere:huila:farc_underground", "anywhere:huila:farc_underground")
    assert pc(st, "huila") == {}


def test_card_66_shaded_executor_picks_forest_departments_when_bases_run_short():
    from .conftest import RULES, ids
    st = clear(new([66, 1]))
    forest = [i for i in range(BD.n) if BD.forest[i] and BD.is_dept[i] and BD.ids[i] not in ("ecuador", "panama")]
    a, b, c = (BD.ids[i] for i in forest[:3])
    for sid in (a, b, c):
        put(st, sid, car_base=1)
    st["oop"][11] += st["av"][11] - 1            # only 1 Base left Available
    st["av"][11] = 1
    _event(st, 3, 66, "shaded")
    assert RULES.prompt(st).kind == "c66pick" and set(ids(st)) == {f"space:{a}", f"space:{b}", f"space:{c}"}
    play(st, f"space:{b}")
    assert pc(st, b)["car_base"] == 2 and pc(st, a)["car_base"] == 1 and st["av"][11] == 0


def test_1_4_1_event_placement_may_take_own_pieces_off_the_map_when_none_are_available():
    from .conftest import RULES, ids
    st = clear(new([21, 1]))
    sps = ["huila", "cesar", "antioquia", "santander", "arauca", "meta_east", "guaviare", "putumayo", "narino"]
    for s_ in sps:
        put(st, s_, farc_u=1, farc_base=1)
    assert st["av"][5] == 0
    _event(st, 1, 21, "shaded")
    play(st, "space:bogota")
    assert RULES.prompt(st).kind == "evpiece" and "take:narino:farc_base" in ids(st)
    play(st, "take:narino:farc_base", "place:bogota:farc_base")
    assert pc(st, "bogota") == {"farc_base": 1} and pc(st, "narino") == {"farc_u": 1} and conserved(st)


def test_card_57_shaded_player_executor_chooses_base_or_guerrilla():
    """Card 57 shaded (cards.md: 'an Available Cartels piece (Guerrilla or Base)'): a player
    executor is asked in each space where both fit, and gets the piece it names."""
    st = clear(new([57, 1]))
    put(st, "cali", police=1)
    put(st, "huila", police=1)
    put(st, "bogota", police=1)     # a third candidate: the second space is not forced
    st["sop"]["cand"] = [C]
    st["sop"]["i"] = 0
    st["stack"][-1]["f"] = C
    st["seq"] += 1
    play(st, "event:shaded", "space:cali")
    assert ids(st) == ["alt:base", "alt:guerrilla"]
    play(st, "alt:guerrilla", "space:huila", "alt:base")
    assert pc(st, "cali") == {"car_u": 1} and pc(st, "huila") == {"car_base": 1}


def test_card_57_shaded_no_question_when_only_a_guerrilla_fits():
    """1.4.2: a space already holding 2 Bases takes only a Guerrilla; no question is asked."""
    st = clear(new([57, 1]))
    put(st, "cali", police=1, gbase=1, farc_base=1)
    put(st, "huila", police=1)
    put(st, "bogota", police=1)
    st["sop"]["cand"] = [C]
    st["sop"]["i"] = 0
    st["stack"][-1]["f"] = C
    st["seq"] += 1
    play(st, "event:shaded", "space:cali")
    assert "alt:base" not in ids(st) and "space:huila" in ids(st)
    assert pc(st, "cali") == {"gbase": 1, "farc_base": 1, "car_u": 1}
