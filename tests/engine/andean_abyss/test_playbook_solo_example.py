"""Replay of the Playbook's "1-Player Example of Play" (Playbook pp. 17-21) up to the end of its
first Propaganda Round, through the public engine API.

The example is a solitaire game (Government player against three Non-players). The Non-players'
decisions there come from the section-8 charts and the three-dice random space chart; here every
Faction is a player seat and the script gives each published decision directly, so the test
checks the player rules (Operations, Special Activities, Events, Propaganda) against the
published figures, not the Non-player charts (paragraphs 11-14 too, below; the charts themselves
are replayed for paragraphs 11-19 in test_playbook_solo_nonplayers.py). Facts encoded in our own words; see
docs/rules-notes/andean-abyss.md ("Playbook tutorial replay").

Deck (from the example's preset list): 57, 21, 39, 26, 61, 37, 8, 42, 27, Propaganda, 51, 33,
63, 38, 46, 6, 54, 70, Propaganda; the rest of the deck only has to hold the last 2 Propaganda
cards of a full game.
"""

from __future__ import annotations

import pytest

from .test_playbook_example import RULES, go, res, space

DECK = [57, 21, 39, 26, 61, 37, 8, 42, 27, "P", 51, 33, 63, 38, 46, 6, 54, 70, "P", 1, 2, "P", 3, 4, "P"]


def new_game() -> dict:
    return RULES.setup(1, {"deck": DECK})


def expect(st, kind, seat, card=None):
    p = RULES.prompt(st)
    assert p is not None and p.kind == kind and p.seats == (seat,), (p and (p.kind, p.seats, p.text))
    if card is not None:
        assert p.context["card"] == card


def c1_op_millennium(st):
    """Cartels shaded: a Police in Medellin and in Neiva becomes a Cartels Base. Govt (2nd,
    Op + SA) Trains Medellin 3+3, Cali 3+3, Neiva 4+2, Santander 2+4, Civic Action twice in Cali,
    and Air Lifts 3 Troops from Cali to Guaviare (3.2.1, 4.2.1)."""
    expect(st, "elig", "cartels", 57)
    go(st, "event:shaded", "space:medellin", "alt:base", "space:neiva", "alt:base")
    expect(st, "elig", "govt", 57)
    go(st, "op:train", "space:medellin", "mix:3-3", "space:cali", "mix:3-3", "space:neiva", "mix:4-2",
       "space:santander", "mix:2-4", "sa:airlift", "space:cali", "space:guaviare", "n:3", "done",
       "civic:cali", "space:cali", "space:cali")


def c2_raul_reyes(st):
    """FARC shaded: Base in Santander, +6. AUC Rally (Santander, Huila, Antioquia 3) and Extort
    in Antioquia and Atlantico (3.3.1, 4.4.1)."""
    expect(st, "elig", "farc", 21)
    go(st, "event:shaded", "space:santander")
    expect(st, "elig", "auc", 21)
    go(st, "op:rally", "space:santander", "place", "space:huila", "place", "space:antioquia", "many:3",
       "sa:extort", "space:antioquia", "space:atlantico", "done")


def c3_soldados_campesinos(st):
    """Govt unshaded: 1 Police in each of 6 Departments. Cartels Rally Medellin 4, Meta East 2,
    Meta West 2; no Special Activity."""
    expect(st, "elig", "govt", 39)
    go(st, "event:unshaded", "space:choco", "space:narino", "space:putumayo", "space:guaviare",
       "space:meta_east", "space:cesar")
    expect(st, "elig", "cartels", 39)
    go(st, "op:rally", "space:medellin", "many:4", "space:meta_east", "many:2", "space:meta_west", "many:2", "done")


def c4_gramaje(st):
    """FARC shaded: the Cartels pay their last 7 Resources. AUC Rally: a Base for 2 Guerrillas in
    Antioquia (the Active one goes), 1 each in Santander and Huila; Extort in Antioquia."""
    expect(st, "elig", "farc", 26)
    go(st, "event:shaded")
    expect(st, "elig", "auc", 26)
    go(st, "op:rally", "space:antioquia", "base", "space:santander", "place", "space:huila", "place",
       "sa:extort", "space:antioquia", "done")


def c5_air_bridge(st):
    """Cartels shaded: Bases in Vichada, Atlantico and Cesar (no Resources needed); Govt passes."""
    expect(st, "elig", "cartels", 61)
    go(st, "event:shaded", "space:vichada", "space:atlantico", "space:cesar")
    expect(st, "elig", "govt", 61)
    go(st, "pass")


def c6_former_military(st):
    """AUC shaded: free March Huila -> Meta West, free Ambush there (2 FARC Guerrillas). Govt
    passes. FARC Rally (Choco, Arauca, Meta East, Meta West, Guaviare 2 each, Huila 3, Cesar 1)
    with Extort in Choco, Huila and Arauca."""
    expect(st, "elig", "auc", 37)
    go(st, "event:shaded", "from:huila", "space:meta_west", "u:1", "done", "space:meta_west",
       "target:farc_underground", "target:farc_underground")
    expect(st, "elig", "govt", 37)
    go(st, "pass")
    expect(st, "elig", "farc", 37)
    go(st, "op:rally", "space:choco", "many:2", "space:arauca", "many:2", "space:meta_east", "many:2",
       "space:meta_west", "many:2", "space:guaviare", "many:2", "space:huila", "many:3", "space:cesar", "place",
       "sa:extort", "space:choco", "space:huila", "space:arauca", "done")


def c7_fuerza_aerea(st):
    """Govt unshaded: 3 free Air Strikes on the exposed Cartels Bases in Cesar, Atlantico and
    Guaviare (4.2.2); the Cartels, at 0 Resources, pass."""
    expect(st, "elig", "govt", 8)
    go(st, "event:unshaded", "sa:airstrike", "space:cesar", "sa:airstrike", "space:atlantico", "target:cartels",
       "sa:airstrike", "space:guaviare")
    expect(st, "elig", "cartels", 8)
    assert [c.id for c in RULES.prompt(st).choices] == ["pass", "op:march"]  # 0 Resources: only LoC March
    go(st, "pass")


def c8_senado_camara(st):
    """AUC shaded (Momentum, protects the AUC); Cartels Rally a Base in Medellin for 2 Guerrillas."""
    expect(st, "elig", "auc", 42)
    go(st, "event:shaded")
    expect(st, "elig", "cartels", 42)
    go(st, "op:rally", "space:medellin", "base", "done")


def c9_misil_antiaereo(st):
    """FARC shaded (Momentum). Govt Sweeps Guaviare (3 Troops from Bogota), Narino (1 from
    Cali) and Choco (1 from Cali, 3 from Medellin), then Eradicates Vichada - the only space
    without Guerrillas - which places a FARC Guerrilla (4.2.3, card 27 shaded)."""
    expect(st, "elig", "farc", 27)
    go(st, "event:shaded")
    expect(st, "elig", "govt", 27)
    go(st, "op:sweep", "space:guaviare", *["from:bogota"] * 3, "done", "space:narino", "from:cali", "done",
       "space:choco", "from:cali", *["from:medellin"] * 3, "done")
    assert [c.id for c in RULES.prompt(st).choices if c.id == "sa:eradicate"]
    go(st, "sa:eradicate")
    assert [c.id for c in RULES.prompt(st).choices] == ["space:vichada"]
    go(st, "space:vichada", "done")


def c10_propaganda(st):
    """Civic Action 4 shifts each in Choco, Narino, Guaviare; Agitation twice in Huila; Elite
    Backing: 4 AUC Guerrillas in Antioquia; Redeploy: 1 Troops each to Medellin and Cali, the
    other 9 to Bogota; 2 Police each Cali -> Narino, Medellin -> Choco, Santander -> Guaviare."""
    expect(st, "civic", "govt")
    go(st, *["space:choco"] * 4, *["space:narino"] * 4, *["space:guaviare"] * 4)
    expect(st, "agitate", "farc")
    go(st, "space:huila", "space:huila")
    expect(st, "elite", "auc")
    go(st, "space:antioquia", "many:4")
    dests = ["space:medellin", "space:cali"] + ["space:bogota"] * 9
    for d in dests:
        p = RULES.prompt(st)
        assert p.kind == "redeploy" and "move the Troops in" in str(p.text), p.text
        go(st, d)
    go(st, "police:cali", "space:narino", "police:cali", "space:narino", "police:medellin", "space:choco",
       "police:medellin", "space:choco", "police:santander", "space:guaviare", "police:santander", "space:guaviare",
       "done")


STEPS = [c1_op_millennium, c2_raul_reyes, c3_soldados_campesinos, c4_gramaje, c5_air_bridge, c6_former_military,
         c7_fuerza_aerea, c8_senado_camara, c9_misil_antiaereo, c10_propaganda]


def k1(st):
    m = RULES.metrics(st)
    assert m["cartels_bases"] == 8 and m["total_support"] == 56 and res(st)[0] == 22
    assert space(st, "guaviare")["troops"] == 3


def k2(st):
    assert RULES.metrics(st)["opposition_plus_bases"] == 21
    assert res(st)[1:3] == (16, 9)
    assert space(st, "antioquia")["auc_underground"] == 3 and space(st, "antioquia")["auc_active"] == 1


def k3(st):
    for sid in ("choco", "narino", "putumayo", "guaviare", "meta_east", "cesar"):
        assert space(st, sid)["police"] >= 1, sid
    assert res(st)[3] == 7 and space(st, "medellin")["cartels_underground"] == 4


def k4(st):
    assert res(st) == (22, 23, 7, 0)
    assert space(st, "antioquia") == {"auc_underground": 1, "auc_active": 1, "auc_base": 2}


def k5(st):
    m = RULES.metrics(st)
    assert m["cartels_bases"] == 11 and res(st)[0] == 25
    for sid in ("vichada", "atlantico", "cesar"):
        assert space(st, sid)["cartels_base"] == 1


def k6(st):
    assert space(st, "meta_west")["auc_active"] == 1 and space(st, "meta_west")["auc_underground"] == 1
    assert space(st, "huila")["auc_underground"] == 1
    assert res(st)[:2] == (28, 19)
    assert RULES.view(st, None)["available"]["farc_underground"] == 30 - 24  # 13 + 1 rallied, 2 ambushed


def k7(st):
    assert RULES.metrics(st)["cartels_bases"] == 8 and res(st)[3] == 1
    for sid in ("cesar", "atlantico", "guaviare"):
        assert "cartels_base" not in space(st, sid)


def k8(st):
    assert space(st, "medellin")["cartels_base"] == 2 and res(st)[3] == 0
    assert RULES.view(st, None)["momentum"] == [42]


def k9(st):
    # after the card and the automatic Propaganda phases up to Civic Action
    v = RULES.view(st, None)
    assert v["aid"] == 13 and space(st, "vichada") == {"farc_underground": 1}
    assert res(st) == (49, 26, 9, 24)  # 30 Econ (Samper: no Aid); 7 FARC, 2 AUC, 8 Cartels Bases
    ctl = v["control"]
    assert {k for k, c in ctl.items() if c == "farc"} == {"huila", "arauca", "vichada"}
    assert {"choco", "narino", "guaviare", "santander"} <= {k for k, c in ctl.items() if c == "govt"}
    assert all(ctl.get(c) == "govt" for c in ("bogota", "cali", "medellin", "neiva", "pasto", "cucuta"))


def k10(st):
    m = RULES.metrics(st)
    assert (m["total_support"], m["opposition_plus_bases"]) == (62, 19)
    assert res(st) == (13, 24, 9, 24)
    v = RULES.view(st, None)
    assert v["el_presidente"] == "samper"  # Total Support above 60: no Election change (6.4.3)
    assert space(st, "antioquia")["auc_underground"] == 6
    assert space(st, "bogota")["troops"] == 9 and space(st, "narino") == {"police": 3, "farc_underground": 1}
    assert v["momentum"] == [] and all(v["eligible"].values())  # 6.6 Reset
    assert (v["card"], v["next"]) == (51, 33)


CHECKS = [k1, k2, k3, k4, k5, k6, k7, k8, k9, k10]


@pytest.mark.parametrize("k", range(len(STEPS)), ids=[s.__name__ for s in STEPS])
def test_playbook_solo_example_step(k):
    st = new_game()
    for step in STEPS[:k + 1]:
        step(st)
    CHECKS[k](st)


# Paragraphs 11-14 with player seats (the player rules on the published decisions). The
# Non-player charts for paragraphs 11-19, with the published dice, are replayed in
# test_playbook_solo_nonplayers.py; from paragraph 14's FARC turn on a player seat cannot follow
# the example, since a player's Operation after the AUC's would be Limited (2.3.5) and a
# Non-player's is not (8.1).

def c11_pipeline_repairs(st):
    """AUC shaded: the three 3-Econ pipelines (next to FARC Guerrillas) are Sabotaged. Cartels
    Rally: 2 Guerrillas at the Base in Neiva, 1 in Huila, and Cultivate a Base there (4.5.1)."""
    expect(st, "elig", "auc", 51)
    go(st, "event:shaded", "space:loc_arauca_cucuta", "space:loc_ayacucho_sincelejo", "space:loc_ayacucho_cucuta")
    expect(st, "elig", "cartels", 51)
    go(st, "op:rally", "space:neiva", "many:2", "space:huila", "place", "sa:cultivate", "space:huila", "place",
       "done")


def c12_sucumbios(st):
    """FARC shaded: Ecuador becomes a space (1.3.5) and takes 2 FARC Bases; the Government passes."""
    expect(st, "elig", "farc", 33)
    go(st, "event:shaded", "place:ecuador:farc_base", "place:ecuador:farc_base")
    expect(st, "elig", "govt", 33)
    go(st, "pass")


def c13_narco_war(st):
    """Cartels Rally: a Base for Neiva's 2 Guerrillas, a Guerrilla in Atlantico and Cultivate a
    Base there. The Government executes Narco-War (1 Cartels Guerrilla per space, Terror)."""
    expect(st, "elig", "cartels", 63)
    go(st, "op:rally", "space:neiva", "base", "space:atlantico", "place", "sa:cultivate", "space:atlantico", "place",
       "done")
    expect(st, "elig", "govt", 63)
    go(st, "event")


def c14_auc_terror(st):
    """AUC Terror in Santander, Huila and Putumayo with Assassinate of the FARC Bases in
    Santander and Huila (3.3.4: AUC Terror shifts toward Neutral and cuts Aid by 5, 4.3.2)."""
    expect(st, "elig", "auc", 38)
    go(st, "op:terror", "space:santander", "space:huila", "space:putumayo", "sa:assassinate", "space:santander",
       "target:farc_base", "space:huila", "target:farc_base", "done", "done")


def k11(st):
    assert res(st) == (13, 24, 9, 22)
    assert space(st, "huila")["cartels_base"] == 1 and space(st, "neiva")["cartels_underground"] == 2
    assert len(RULES.view(st, None)["sabotage"]) == 3


def k12(st):
    assert space(st, "ecuador") == {"farc_base": 2} and res(st)[0] == 16
    assert RULES.metrics(st)["opposition_plus_bases"] == 21


def k13(st):
    m = RULES.metrics(st)
    assert (m["total_support"], m["opposition_plus_bases"], res(st)[3]) == (55, 16, 20)


def k14(st):
    m = RULES.metrics(st)
    assert (m["total_support"], m["opposition_plus_bases"], m["aid"], res(st)[2]) == (53, 11, 8, 6)
    expect(st, "elig", "farc", 38)
    p = RULES.prompt(st)
    assert "op:rally" in [c.id for c in p.choices]       # a player FARC could only Rally Limited here


LATE = [c11_pipeline_repairs, c12_sucumbios, c13_narco_war, c14_auc_terror]
LATE_CHECKS = [k11, k12, k13, k14]


@pytest.mark.parametrize("k", range(len(LATE)), ids=[s.__name__ for s in LATE])
def test_playbook_solo_example_late_player_seats(k):
    st = new_game()
    for step in STEPS + LATE[:k + 1]:
        step(st)
    LATE_CHECKS[k](st)
