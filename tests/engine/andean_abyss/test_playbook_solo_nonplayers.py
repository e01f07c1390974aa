"""Playbook 1-player example of play, paragraphs 11-19, with the Non-player bot.

test_playbook_solo_example.py replays paragraphs 1-10 with all four Factions as player seats.
From paragraph 11 on, FARC, AUC and Cartels are made Non-players, as they are in the published
solitaire game (the Government stays the player), and each Non-player turn is answered with
``np:act``: the section-8 flowcharts decide, and the dice the example publishes for the Random
City or Department table (8.2) are scripted (``space`` tag, red / yellow / green). Every
published outcome is asserted; where our flowcharts and the example part, the test says which
reading is followed (docs/rules-notes/andean-abyss.md, "Playbook 1-player example").

Switching the three Insurgents to Non-players sets ``st["np"]``, the list ``setup`` fills from
the ``players`` / ``nonplayers`` options: the example's first 10 paragraphs need player seats to
give the published choices, so the switch happens between paragraphs 10 and 11.
"""

from __future__ import annotations

import pytest

from .conftest import BD
from .test_playbook_example import go, res, space
from .test_playbook_solo_example import RULES, STEPS, expect, new_game


def npact(st, seat, dice=()):
    """Let the Non-player ``seat`` act (np:act) with the published table dice; every die must be
    used by the flowchart, so a pick made without the table (or an extra one) fails the test."""
    if dice:
        st["rng"].setdefault("script", {})["space"] = list(dice)
    p = RULES.prompt(st)
    assert p.seats == (seat,) and [c.id for c in p.choices] == ["np:act"], (p.seats, p.text)
    facts = RULES.apply_inplace(st, seat, "np:act")
    assert not st["rng"].get("script", {}).get("space"), "published dice left unused"
    return facts


def table_walks(facts):
    """The Random City or Department walks a Non-player turn reports (8.2 facts)."""
    return [(f["dice"], f["passed"], f["space"]) for f in facts if f.get("branch") == "random space" and "passed" in f]


def after_10():
    st = new_game()
    for step in STEPS:
        step(st)
    st["np"] = [1, 2, 3]        # the solitaire game: Government player, three Non-players
    st["seq"] += 1
    return st


def p11_pipeline_repairs(st):
    """AUC (leftmost) executes the shaded Event: the three 3-Econ pipelines are Sabotaged (8.3
    highest Econ first). Cartels Rally: 2 Guerrillas at the unprotected Base in Neiva (8.5.1 3rd
    bullet), then 1 Department where Cultivate could place a Base: 6,1,3 -> Putumayo (full),
    Guaviare (too many Police), Meta West (full), Neiva (a City), Huila; Cultivate there."""
    expect(st, "elig", "auc", 51)
    f = npact(st, "auc")
    assert not [x for x in f if x.get("branch") == "random space"]    # all three taken: no dice (8.3)
    f = npact(st, "cartels", (6, 1, 3))
    assert table_walks(f) == [([6, 1, 3], ["Putumayo", "Guaviare", "Meta West", "Neiva"], "huila")]


def p12_sucumbios(st):
    """FARC puts both Available Bases into Ecuador (8.4.2); the Government player passes."""
    expect(st, "elig", "farc", 33)
    npact(st, "farc")
    go(st, "pass")


def p13_narco_war(st):
    """Cartels Operate (Non-players never take Narco-War): Rally replaces Neiva's 2 Guerrillas
    with a Base, then a random Department (the example gives no dice; 3,1,1 names Atlantico)
    receives a Guerrilla and Cultivates a Base. The Government then plays the Event."""
    expect(st, "elig", "cartels", 63)
    npact(st, "cartels", (3, 1, 1))
    go(st, "event")


def p14_ncc(st):
    """AUC: the Event would do nothing (all AUC Guerrillas Underground), so Ops: Terror (8.6.4)
    in 1 FARC-Base space (1,3,2: Medellin, Bucaramanga, Santander), 1 with FARC pieces (6,4,5:
    Huila), 1 other (3,6,2: Vichada ... Putumayo); Assassinate the FARC Bases in Santander and
    Huila. FARC (2nd, not Limited as a Non-player, 8.1): Rally - Bases in Huila and Arauca,
    Guerrillas in Meta West and Meta East, 1 random space (4,4,1: Arauca and Meta East already
    Rallied, Bogota with Support, so Vichada); then Extort (8.7.1 "Then")."""
    expect(st, "elig", "auc", 38)
    f = npact(st, "auc", (1, 3, 2, 6, 4, 5, 3, 6, 2))
    assert table_walks(f) == [([1, 3, 2], ["Medellín", "Bucaramanga"], "santander"), ([6, 4, 5], [], "huila"),
                              ([3, 6, 2], ["Vichada", "Guainía", "Vaupés", "Amazonas"], "putumayo")]
    k14_auc(st)
    f = npact(st, "farc", (4, 4, 1))
    assert table_walks(f) == [([4, 4, 1], ["Arauca", "Bogotá", "Meta East"], "vichada")]


def p15_limpieza(st):
    """Cartels (1st, not leftmost): March impossible (1 Guerrilla per Base space), so Rally
    (8.1.1 'if none'): flip Underground in 3 of the 4 spaces with Active Guerrillas, a Base and
    cubes - Medellin, Cali, Meta East (the example's dice are not given: 1,3,1 / 1,1,1 / 3,3,6
    name them). Cultivate is impossible. The 1st-edition example then ends the Cartels turn;
    the 2nd-edition 8.5.1 sends the Cartels on to Process (2 Shipments), so this turn is given
    as the published player choices (test_8_5_1_limpieza_nonplayer_cartels_process_instead shows
    what the flowchart does). Government: Limited Assault in Neiva removes 2 Cartels Bases."""
    expect(st, "elig", "cartels", 46)
    st["np"] = [1, 2]
    st["seq"] += 1
    go(st, "op:rally", "space:medellin", "regroup", "done", "space:cali", "regroup", "done", "space:meta_east",
       "regroup", "done", "done")
    st["np"] = [1, 2, 3]
    st["seq"] += 1
    go(st, "op:assault", "space:neiva", "done")


def p16_oil_spill(st):
    """FARC (1st, not leftmost): Attack (more Resources than the Government, 8.7.3) everywhere
    with 3+ Guerrillas, plus 1 space for the Ambush: 2,3,3 -> Bucaramanga, Santander. Attack
    rolls per space: Meta East 2, Meta West 2, Guaviare 4, Choco 6 (the engine's order); Ambush
    in Santander, the Attack space with the fewest FARC Guerrillas. AUC (2nd) executes the
    shaded Event: 8.3 - 3-Econ pipelines all Sabotaged, random City 6,6,3 -> Narino, Choco, Cali
    (no 2-Econ LoC) -> Ibague; then the Department shift 6,6,6 -> Choco, Cali, Ibague ->
    Antioquia (all three candidates have Population 2, 8.4.3)."""
    expect(st, "elig", "farc", 6)
    st["rng"].setdefault("script", {})["die"] = [2, 2, 4, 6]
    f = npact(st, "farc", (2, 3, 3))
    assert table_walks(f) == [([2, 3, 3], ["Bucaramanga"], "santander")]
    assert any(x["type"] == "sa" and "Ambush in Santander" in str(x["text"]) for x in f)
    k16_farc(st)
    f = npact(st, "auc", (6, 6, 3, 6, 6, 6))
    loc = [x for x in f if x.get("rule") == "8.3"]
    assert loc and loc[0]["city"] == "ibague" and loc[0]["space"] == "loc_bogota_bucaramanga_ibague"
    assert table_walks(f) == [([6, 6, 6], ["Panamá/Chocó", "Cali", "Ibagué"], "antioquia")]


def p17_deserters(st):
    """Cartels Rally: flip Putumayo, 2 Guerrillas at the bare Base in Meta East, and the one
    Department where Cultivate could then place a Base - Atlantico (the only candidate, so no
    dice), 2 Guerrillas there; Cultivate a 2nd Base there. Government: the Event replaces 2 FARC
    Guerrillas in Guaviare with Cartels Guerrillas."""
    expect(st, "elig", "cartels", 54)
    npact(st, "cartels")
    go(st, "event", "alt:replace", "anywhere:guaviare:farc_active", "faction:cartels",
       "anywhere:guaviare:farc_active", "faction:cartels")


def p18_ayahuasca(st):
    """AUC (1st, not leftmost): Rally in 3 of the 4 FARC-Base spaces where it can (Choco, Huila,
    Ecuador, Guaviare; dice not given: 6,3,6 / 6,6,3 / 6,1,5 name Huila, Ecuador - first in its
    box, 8.2 - and Guaviare), then Extort in Antioquia. FARC (2nd) executes the shaded Event:
    Terror in the 5 Forest Departments with FARC Guerrillas, +15."""
    expect(st, "elig", "auc", 70)
    f = npact(st, "auc", (6, 3, 6, 6, 6, 3, 6, 1, 5))
    assert [w[2] for w in table_walks(f)] == ["huila", "ecuador", "guaviare"]
    npact(st, "farc")


def p19_propaganda(st):
    """Civic Action in Medellin and Cali (a Terror removed and a shift in each); the rest is
    automatic: FARC Agitation (8.7.5), the Election (Pastrana), the FARC Zone in Meta East, and
    Elite Backing places 1 AUC Guerrilla with a FARC Base: 6,1,5 -> Guaviare."""
    expect(st, "civic", "govt")
    st["rng"].setdefault("script", {})["space"] = [6, 1, 5]
    go(st, "space:medellin", "space:medellin", "space:cali", "space:cali", "done")
    assert not st["rng"].get("script", {}).get("space")


def k11(st):
    assert res(st)[3] == 22
    assert space(st, "neiva")["cartels_underground"] == 2
    assert space(st, "huila")["cartels_underground"] == 1 and space(st, "huila")["cartels_base"] == 1
    v = RULES.view(st, None)
    assert sorted(v["sabotage"]) == ["loc_arauca_cucuta", "loc_ayacucho_cucuta",
                                                                  "loc_ayacucho_sincelejo"]


def k12(st):
    assert space(st, "ecuador") == {"farc_base": 2}
    assert RULES.metrics(st)["opposition_plus_bases"] == 21 and res(st)[0] == 16


def k13(st):
    m = RULES.metrics(st)
    assert (m["total_support"], m["opposition_plus_bases"]) == (55, 16) and res(st)[3] == 20
    assert space(st, "neiva")["cartels_base"] == 2 and "cartels_underground" not in space(st, "neiva")
    assert space(st, "atlantico")["cartels_base"] == 1
    # Narco-War: every Cartels Guerrilla left went Active with its Terror
    assert all("cartels_underground" not in space(st, s) for s in ("medellin", "cali", "putumayo", "huila"))


def k14_auc(st):
    m = RULES.metrics(st)
    assert (m["total_support"], m["opposition_plus_bases"], m["aid"]) == (53, 11, 8) and res(st)[2] == 6
    assert "farc_base" not in space(st, "santander") and "farc_base" not in space(st, "huila")


def k14(st):
    assert RULES.metrics(st)["opposition_plus_bases"] == 13
    assert res(st)[1] == 24                      # 24 - 5 for Rally + 5 Extorts
    assert space(st, "arauca")["farc_base"] == 2 and space(st, "huila")["farc_base"] == 1
    assert space(st, "vichada")["farc_underground"] + space(st, "vichada").get("farc_active", 0) == 2


def k15(st):
    assert res(st)[3] == 17 and res(st)[0] == 13
    for s in ("medellin", "cali", "meta_east"):
        assert "cartels_active" not in space(st, s) and space(st, s)["cartels_underground"] == 1, s
    assert space(st, "putumayo")["cartels_active"] == 1
    assert "cartels_base" not in space(st, "neiva")


def k16_farc(st):
    assert res(st)[1] == 19
    assert space(st, "meta_west").get("auc_underground", 0) == 0 and "auc_underground" not in space(st, "guaviare")
    assert space(st, "meta_east").get("police", 0) == 0 and "cartels_underground" not in space(st, "meta_east")
    assert space(st, "guaviare")["police"] == 2
    s = space(st, "santander")     # Ambush: 2 Underground AUC gone, 1 Active left, a new FARC Guerrilla
    assert s["auc_active"] == 1 and "auc_underground" not in s and s["farc_underground"] == 1


def k16(st):
    assert "loc_bogota_bucaramanga_ibague" in RULES.view(st, None)["sabotage"]
    assert RULES.metrics(st)["opposition_plus_bases"] == 15


def k17(st):
    assert res(st)[3] == 14
    assert space(st, "atlantico")["cartels_base"] == 2 and space(st, "meta_east")["cartels_underground"] == 2
    assert space(st, "guaviare")["cartels_underground"] == 2 and space(st, "guaviare")["farc_active"] == 2
    assert RULES.view(st, None)["control"].get("guaviare") is None     # FARC Control lost


def k18(st):
    for s in ("huila", "ecuador", "guaviare"):
        assert space(st, s)["auc_underground"] >= 1, s
    # the Event, then the automatic Propaganda phases up to Civic Action
    m = RULES.metrics(st)
    assert (m["total_support"], m["opposition_plus_bases"]) == (50, 17)
    assert space(st, "narino") == {"police": 3, "farc_active": 1}
    assert res(st) == (32, 43, 6, 44)      # Resources Phase: 13+19, 34+9, 4+2, 14+30


def k19(st):
    m = RULES.metrics(st)
    assert (m["total_support"], m["opposition_plus_bases"]) == (55, 20)
    assert res(st) == (20, 37, 6, 44)      # the text says FARC 38: 43 - 6 is 37 (rules notes)
    assert RULES.view(st, None)["el_presidente"] == "pastrana" and m["farc_zones"] == 1
    assert space(st, "guaviare")["auc_underground"] == 2
    # "Had this been the final Propaganda Round": Government -5, FARC -5, AUC -7, Cartels 0
    assert [m[f"{k}_margin"] for k in ("govt", "farc", "auc", "cartels")] == [-5, -5, -7, 0]
    expect(st, "redeploy", "govt")         # the example ends here


STEPS_NP = [p11_pipeline_repairs, p12_sucumbios, p13_narco_war, p14_ncc, p15_limpieza, p16_oil_spill,
            p17_deserters, p18_ayahuasca, p19_propaganda]
CHECKS_NP = [k11, k12, k13, k14, k15, k16, k17, k18, k19]


@pytest.mark.parametrize("k", range(len(STEPS_NP)), ids=[s.__name__ for s in STEPS_NP])
def test_playbook_solo_example_nonplayers(k):
    st = after_10()
    for step in STEPS_NP[:k + 1]:
        step(st)
    CHECKS_NP[k](st)


def test_8_5_1_limpieza_nonplayer_cartels_process_instead():
    """Paragraph 15 with the Cartels flowchart: the same 3 Rally spaces by the dice, Cultivate
    impossible (no Rally Department allows a new Base, no Base can move from a 2-Base space to a
    space without one), so 2nd-edition 8.5.1 sends the Cartels to Process: 2 Shipments, each in a
    random space with a Cartels Guerrilla and Base (8.2 table: 1,3,1 Medellin, 1,1,1 Cali)."""
    st = after_10()
    for step in STEPS_NP[:4]:
        step(st)
    f = npact(st, "cartels", (1, 3, 1, 1, 1, 1, 3, 3, 6, 1, 3, 1, 1, 1, 1))
    assert [w[2] for w in table_walks(f)] == ["medellin", "cali", "meta_east", "medellin", "cali"]
    assert not any(x["type"] == "move" for x in f)       # no Base relocated onto a Base (8.5.1)
    assert sorted(x[0] for x in st["ship"]) == sorted(BD.index[s] for s in ("cali", "medellin"))
    assert res(st)[3] == 17
