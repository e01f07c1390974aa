"""6.0 Propaganda Rounds and 7.0 Victory."""

from __future__ import annotations

from .conftest import BD, RULES, P, auto, clear, ids, new, pc, play, put

IX = BD.index


def to_prop(prep, deck=(1, "P", 2), **opts):
    st = clear(new(list(deck), **opts))
    prep(st)
    for _ in range(4):
        play(st, "pass")
    return st


def finish_round(st):
    auto(st)


def test_6_1_victory_check_ends_game_for_government():
    def prep(st):
        for i in range(BD.n):
            if BD.pop[i] > 0:
                st["sup"][i] = 2
    st = to_prop(prep)
    r = RULES.result(st)
    assert r["winner"] == "govt" and r["victory_check"] and r["margins"]["govt"] == 80 - 60


def test_7_2_cartels_need_bases_and_resources():
    st = clear(new([1, "P"]))
    st["res"][3] = 50
    for s in ("huila", "cesar", "antioquia", "santander", "arauca", "meta_east"):
        put(st, s, car_base=2)
    assert P.margins(st)[3] == min(12 - 10, 50 - 40)


def test_7_1_ties_go_to_cartels_then_auc_then_farc():
    from engine.scenarios.andean_abyss.victory import finish_game
    st = clear(new([1, 2]))
    st["res"][3] = 30
    facts = []
    finish_game(st, facts, "test")
    m = st["over"]["margins"]
    assert st["over"]["ranking"][0] == max(m, key=lambda k: (m[k], {"cartels": 3, "auc": 2, "farc": 1, "govt": 0}[k]))


def test_6_2_sabotage_where_guerrillas_exceed_cubes_or_next_to_farc_city():
    def prep(st):
        put(st, "loc_bogota_neiva", farc_u=2, police=1)
        put(st, "pasto", farc_u=1)                 # FARC Controls Pasto
        put(st, "loc_cali_ibague", auc_u=1, police=1)
    st = to_prop(prep)
    assert st["sab"][IX["loc_bogota_neiva"]] == 1
    assert st["sab"][IX["loc_cali_pasto"]] == 1 and st["sab"][IX["loc_neiva_pasto"]] == 1
    assert st["sab"][IX["loc_cali_ibague"]] == 0


def test_6_3_resources_samper_blocks_aid_and_cartels_triple():
    def prep(st):
        put(st, "huila", farc_base=2)
        put(st, "cesar", auc_base=1)
        put(st, "putumayo", car_base=2)
    st = to_prop(prep)
    assert st["res"][0] == 40 + 3 + 30          # Pass +3, Econ 30, no Aid under Samper
    assert st["res"][1] == 10 + 1 + 2
    assert st["res"][2] == 10 + 1 + 1
    assert st["res"][3] == 10 + 1 + 6


def test_6_3_1_pastrana_adds_aid():
    st = to_prop(lambda st: st.__setitem__("pres", 1))
    assert st["res"][0] == 40 + 3 + 30 + 9


def test_6_3_3_drug_profits_base_or_six_resources():
    def prep(st):
        put(st, "huila", farc_u=1)
        st["ship"].append([IX["huila"], 1])
    st = to_prop(prep)
    assert st["stack"][-1]["k"] == "drugs" and set(ids(st)) >= {"base", "res"}
    play(st, "base")
    assert pc(st, "huila")["farc_base"] == 1 and not st["ship"]


def test_6_4_1_civic_action_costs_3_per_level():
    def prep(st):
        put(st, "cali", troops=1, police=1)
    st = to_prop(prep)
    assert st["stack"][-1]["k"] == "civic"
    res = st["res"][0]
    play(st, "space:cali", "space:cali")
    assert st["sup"][IX["cali"]] == 2 and st["res"][0] == res - 6


def test_6_4_2_agitation_costs_1_per_level():
    def prep(st):
        put(st, "cali", farc_u=2)
    st = to_prop(prep)
    assert st["stack"][-1]["k"] == "agitate"
    res = st["res"][1]
    play(st, "space:cali", "space:cali")
    assert st["sup"][IX["cali"]] == -2 and st["res"][1] == res - 2


def test_6_4_3_election_pastrana_places_farc_zone():
    def prep(st):
        put(st, "huila", farc_u=3, police=1)
    st = to_prop(prep)
    finish_round(st)
    assert st["pres"] == 1 and st["zones"] == [IX["huila"]]
    assert P.cubes(st["pc"][IX["huila"]]) == 0


def test_6_4_3_uribe_removes_zones():
    def prep(st):
        st["pres"] = 1
        st["zones"].append(IX["huila"])
    st = to_prop(prep)
    finish_round(st)
    assert st["pres"] == 2 and st["zones"] == []


def test_6_4_5_elite_backing_free_rally():
    def prep(st):
        put(st, "cesar", auc_u=1)
        st["pres"] = 2
    st = to_prop(prep)
    assert st["stack"][-1]["k"] == "elite" and "space:cesar" in ids(st)
    play(st, "space:cesar", "place")
    assert pc(st, "cesar")["auc_u"] == 2 and st["res"][2] == 10 + 1


def test_6_5_1_redeploy_moves_troops_off_locs():
    def prep(st):
        put(st, "loc_bogota_neiva", troops=2)
        put(st, "bogota", police=1)
    st = to_prop(prep)
    auto(st, stop=("redeploy",))
    assert ids(st)[:1] == ["space:bogota"]
    play(st, "space:bogota", "space:bogota", "done")
    assert pc(st, "bogota")["troops"] == 2


def test_6_6_reset_flips_underground_and_clears_markers():
    def prep(st):
        put(st, "huila", farc_a=2)
        st["ter"][IX["huila"]] = 1
        st["mom"].append(17)
    st = to_prop(prep)
    finish_round(st)
    assert pc(st, "huila") == {"farc_u": 2} and sum(st["ter"]) == 0 and st["mom"] == []


def test_6_5_2_troops_in_a_city_without_govt_control_may_redeploy():
    def prep(st):
        put(st, "cali", troops=1, farc_u=3)       # Cali: FARC Controlled, Troops may still leave
        put(st, "bogota", troops=3)
    st = to_prop(prep, deck=(1, "P", 2, 3))
    while st["stack"] and st["stack"][-1]["k"] != "redeploy":
        p = RULES.prompt(st)
        play(st, "done" if "done" in [c.id for c in p.choices] else p.choices[0].id)
    assert "troops:cali" in ids(st)
    play(st, "troops:cali", "space:bogota", "done")
    assert pc(st, "bogota")["troops"] == 4 and "troops" not in pc(st, "cali")


def test_6_4_4_government_chooses_where_zone_cubes_redeploy():
    def prep(st):
        put(st, "huila", farc_u=3, police=1, troops=1)
        put(st, "bogota", troops=2, police=1)
        put(st, "cali", troops=2, police=1)
        put(st, "neiva", police=1)
    st = to_prop(prep)
    while st["stack"] and st["stack"][-1]["k"] != "zoneout":
        p = RULES.prompt(st)
        play(st, "done" if "done" in [c.id for c in p.choices] else p.choices[0].id)
    p = RULES.prompt(st)
    assert p.seats == ("govt",) and p.rule == "6.4.4"
    assert {"space:bogota", "space:cali"} <= set(ids(st)) and "space:huila" not in ids(st)
    play(st, "space:cali")            # the Troops cube
    assert "space:loc_bogota_neiva" in ids(st)   # Police may go to a LoC
    play(st, "space:loc_bogota_neiva")
    assert st["zones"] == [IX["huila"]] and P.cubes(st["pc"][IX["huila"]]) == 0
    assert pc(st, "cali")["troops"] == 3 and pc(st, "loc_bogota_neiva")["police"] == 1


def test_7_1_several_nonplayers_pass_the_check_highest_margin_wins():
    """7.1: when the Government (+2) and the Cartels (+5) both pass a victory check in a game of
    Non-players only, the Cartels rank 1st and win (the winner used to be the first passing
    Non-player in Faction order, the Government)."""
    from engine.scenarios.andean_abyss.victory import finish_game
    st = clear(new([1, 2], nonplayers=["govt", "farc", "auc", "cartels"]))
    for i in sorted((i for i in range(BD.n) if BD.pop[i]), key=lambda i: -BD.pop[i]):
        if P.total_support(st) + 2 * BD.pop[i] <= 62:
            st["sup"][i] = 2
    st["res"][3] = 45
    for s in ("huila", "cesar", "antioquia", "santander", "arauca", "meta_east", "guaviare"):
        put(st, s, car_base=2)
    put(st, "putumayo", car_base=1)
    m = P.margins(st)
    assert m[0] > 0 and m[3] > m[0]
    finish_game(st, [], "victory check (7.2)", winner_check=True)
    assert st["over"]["winner"] == "cartels" == st["over"]["ranking"][0]
    assert st["over"]["players_lose"]


def test_7_1_tie_between_nonplayers_goes_to_cartels_then_auc_then_farc():
    """7.1 tie order also between two Non-players: an equal margin goes to the AUC before the
    Government."""
    from engine.scenarios.andean_abyss.victory import finish_game
    st = clear(new([1, 2], nonplayers=["govt", "farc", "auc", "cartels"]))
    for i in sorted((i for i in range(BD.n) if BD.pop[i]), key=lambda i: -BD.pop[i]):
        if P.total_support(st) + 2 * BD.pop[i] <= 60:
            st["sup"][i] = 2
    for i in (i for i in range(BD.n) if BD.pop[i] == 1 and not st["sup"][i]):
        if P.total_support(st) < 60:
            st["sup"][i] = 1
    finish_game(st, [], "test")
    m = st["over"]["margins"]
    assert m["govt"] == 0 == m["auc"]
    assert st["over"]["ranking"][:2] == ["auc", "govt"]
