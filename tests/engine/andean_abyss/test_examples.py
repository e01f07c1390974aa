"""The rulebook's worked examples not covered elsewhere (named after their rule)."""

from __future__ import annotations

from .conftest import BD, RULES, auto, clear, ids, new, pc, play, put

CARTELS_FIRST = [55, 56]
FARC_FIRST = [19, 20]
GOVT_FIRST = [1, 2]


def test_1_4_1_example_assault_three_troops_in_forest_removes_three():
    st = clear(new(GOVT_FIRST))
    put(st, "guaviare", troops=3, farc_a=2, auc_a=2)
    play(st, "op:assault", "space:guaviare", "target:farc", "target:auc", "target:farc")
    assert pc(st, "guaviare") == {"troops": 3, "auc_a": 1}


def test_2_3_6_example_cartels_march_then_ship_for_free_rally():
    st = clear(new(CARTELS_FIRST))
    put(st, "huila", car_u=2)
    put(st, "putumayo", car_base=1)
    st["ship"].append([BD.index["huila"], 3])
    play(st, "op:march", "from:huila", "space:antioquia", "u:1", "done")
    res = st["res"][3]
    play(st, "ship:rally", "space:putumayo", "many:2")
    assert st["res"][3] == res and pc(st, "putumayo") == {"car_base": 1, "car_u": 2}
    assert st["ship"] == []


def test_4_1_example_farc_at_zero_resources_extorts_then_pays():
    st = clear(new(FARC_FIRST))
    st["res"][1] = 0
    put(st, "huila", farc_u=3)
    assert "op:rally" in ids(st)
    play(st, "op:rally", "sa:extort", "space:huila", "space:huila", "place")
    assert st["res"][1] == 0 and pc(st, "huila") == {"farc_u": 3, "farc_a": 1}


def test_5_1_2_example_former_military_assaults_farc_despite_senado_y_camara():
    st = clear(new([37, 38]))
    st["mom"].append(42)
    st["m42"] = [1]
    put(st, "huila", troops=4, farc_a=2)
    play(st, "event:unshaded", "assault")
    auto(st)
    assert pc(st, "huila") == {"troops": 4}


def test_6_4_4_example_zona_de_convivencia_government_chooses_among_ties():
    st = clear(new([36, 37]))
    put(st, "huila", farc_u=2)
    put(st, "cesar", farc_u=2)
    put(st, "antioquia", farc_u=1)
    play(st, "event")
    p = RULES.prompt(st)
    assert p.seats == ("govt",) and {c.id for c in p.choices} == {"space:huila", "space:cesar"}
    play(st, "space:cesar")
    assert st["zones"] == [BD.index["cesar"]] and pc(st, "cesar")["farc_base"] == 1


def test_8_9_example_solo_government_stalemate():
    from engine.scenarios.andean_abyss.victory import finish_game
    st = clear(new(GOVT_FIRST, players=1, solo="govt"))
    for i in range(BD.n):
        if BD.pop[i]:
            st["sup"][i] = 1
    st["sup"][BD.index["bogota"]] = 2
    st["sup"][BD.index["cali"]] = 2
    st["sup"][BD.index["medellin"]] = 2
    put(st, "huila", auc_base=1, farc_base=2)
    st["sup"][BD.index["huila"]] = 1
    st["sup"][BD.index["bucaramanga"]] = 2
    st["sup"][BD.index["ibague"]] = 2
    st["sup"][BD.index["santa_marta"]] = 2
    st["sup"][BD.index["santander"]] = 2
    st["sup"][BD.index["huila"]] = 0
    st["sup"][BD.index["cartagena"]] = 2
    from engine.scenarios.andean_abyss import pieces as P
    assert P.total_support(st) == 61
    finish_game(st, [], "final")
    r = st["over"]
    assert r["margins"]["govt"] == 1 and r["margins"]["auc"] == -1
    assert r["solo_margin"] == 2 and r["solo_result"] == "Stalemate"
