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
    return st


def p11_pipeline_repairs(st):
    """AUC (leftmost) executes the shaded Event: the three 3-Econ pipelines are Sabotaged (8.3
    highest Econ first). Cartels Rally: 2 Guerrillas at the unprotected Base in Neiva (8.5.1 3rd
    bullet), then 1 Department where Cultivate could place a Base: 6,1,3 -> Putumayo (full),
    Guaviare (too many Police), Meta West (full), Neiva (a City), Huila; Cultivate there."""
    expect(st, "elig", "auc", 51)
    npact(st, "auc")
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


STEPS_NP = [p11_pipeline_repairs, p12_sucumbios, p13_narco_war, p14_ncc]
CHECKS_NP = [k11, k12, k13, k14]


@pytest.mark.parametrize("k", range(len(STEPS_NP)), ids=[s.__name__ for s in STEPS_NP])
def test_playbook_solo_example_nonplayers(k):
    st = after_10()
    for step in STEPS_NP[:k + 1]:
        step(st)
    CHECKS_NP[k](st)
