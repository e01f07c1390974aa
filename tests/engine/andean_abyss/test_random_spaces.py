"""8.2 Random City or Department table and 8.3 Random LoCs (engine/scenarios/andean_abyss/
random_spaces.py), checked against every roll the Playbook's 1-player example publishes."""

from __future__ import annotations

import pytest

from engine.core import rng as R
from engine.scenarios.andean_abyss import random_spaces as RS
from engine.scenarios.andean_abyss.np_base import rnd

from .conftest import BD, new

IDX = BD.index


def table(rolls, cands, tags=None):
    rec = R.new_rng(1, {"space": list(rolls)})
    got, info = RS.random_city_or_department(rec, {IDX[c] for c in cands})
    assert "script" not in rec           # the three dice came from the script
    return BD.ids[got], info


def non_loc(*exclude):
    return {BD.ids[i] for i in range(BD.n) if not BD.is_loc[i] and i not in BD.foreign} - set(exclude)


def test_8_2_table_covers_every_city_and_department_once_in_27_boxes():
    flat = [i for box in RS.BOXES for i in box]
    assert len(RS.BOXES) == 27 and len(flat) == len(set(flat)) == 27 + 2
    assert set(flat) == {i for i in range(BD.n) if not BD.is_loc[i]}
    # Panama and Ecuador share a box with Choco / Narino and come first in it (8.2, 3rd bullet)
    assert (IDX["ecuador"], IDX["narino"]) in RS.BOXES and (IDX["panama"], IDX["choco"]) in RS.BOXES


@pytest.mark.parametrize("dice,space", [
    ((2, 4, 2), "medellin"),     # Playbook para 3
    ((1, 3, 2), "medellin"),     # para 14
    ((6, 3, 6), "huila"),        # para 3
    ((6, 4, 5), "huila"),        # para 14
    ((4, 3, 6), "meta_east"),    # para 5
    ((1, 4, 5), "santander"),    # para 5
    ((5, 3, 2), "meta_west"),    # para 6
    ((4, 1, 2), "atlantico"),    # para 6
    ((6, 1, 3), "putumayo"),     # para 11
    ((3, 6, 2), "vichada"),      # para 14
    ((6, 6, 6), "choco"),        # para 16
])
def test_8_2_published_rolls_name_the_published_space(dice, space):
    got, info = table(dice, non_loc())
    assert got == space and info["dice"] == list(dice) and info["passed"] == []


def test_8_2_walk_down_the_column_and_from_choco_to_cali():
    # para 3: 6,3,6 Huila (no Cartels Base) on to Pasto, Ecuador, Narino, Choco, Cali, Ibague,
    # Antioquia, Medellin (a candidate, already chosen), then on to Meta East
    got, info = table((6, 3, 6), {"medellin", "neiva", "meta_east", "meta_west", "guaviare"})
    assert got == "medellin"
    assert [p for p in info["passed"]] == ["Huila", "Pasto", "Ecuador/Nariño", "Panamá/Chocó", "Cali", "Ibagué",
                                           "Antioquia"]
    got, _ = table((2, 4, 2), {"neiva", "meta_east", "meta_west", "guaviare"})
    assert got == "meta_east"
    # para 11: 6,1,3 Putumayo (full) -> Guaviare -> Meta West -> Neiva -> Huila
    got, info = table((6, 1, 3), {"huila", "cali", "santander"})
    assert got == "huila" and info["passed"] == ["Putumayo", "Guaviare", "Meta West", "Neiva"]
    # para 14: 1,3,2 Medellin -> Bucaramanga -> Santander; 3,6,2 Vichada eventually Putumayo
    assert table((1, 3, 2), {"santander", "huila", "putumayo"})[0] == "santander"
    assert table((3, 6, 2), {"putumayo"})[0] == "putumayo"
    # para 6: 4,1,2 Atlantico (Support: no FARC Rally) -> Cesar
    assert table((4, 1, 2), non_loc("atlantico"))[0] == "cesar"
    # para 16: 6,6,6 Choco, not a candidate, on to Antioquia before Santander and Huila
    assert table((6, 6, 6), {"antioquia", "santander", "huila"})[0] == "antioquia"


def test_8_2_air_bridge_rolls_of_the_example():
    """Para 5 (card 61 shaded): Departments without Cartels pieces and with room for a Base."""
    open_depts = {"vichada", "atlantico", "cesar", "arauca", "guainia", "vaupes", "amazonas", "narino", "choco",
                  "huila"}
    assert table((4, 3, 6), open_depts)[0] == "vichada"
    assert table((1, 4, 5), open_depts - {"vichada"})[0] == "atlantico"
    assert table((1, 2, 1), open_depts - {"vichada", "atlantico"})[0] == "cesar"


def test_8_2_foreign_space_first_in_its_box():
    assert table((6, 6, 3), {"ecuador", "narino"})[0] == "ecuador"
    assert table((6, 6, 3), {"narino"})[0] == "narino"
    assert table((6, 6, 5), {"panama", "choco"})[0] == "panama"


def test_8_3_random_loc_highest_econ_then_random_city_then_die():
    # para 16: 2-Econ pipelines; 6,6,3 reaches Cali (no 2-Econ LoC), then Ibague, which has one
    pipes = [i for i in BD.locs if BD.pipeline[i] and BD.econ[i] == 2]
    rec = R.new_rng(1, {"space": [6, 6, 3]})
    got, info = RS.random_loc(rec, pipes + [i for i in BD.locs if BD.econ[i] == 1])
    assert info["city"] == "ibague" and BD.ids[got] == "loc_bogota_bucaramanga_ibague"
    assert "die" not in info       # a single candidate left: no die roll
    # the 8.3 example: Bogota's three 2-Econ LoCs share the die 1-2, 3-4, 5-6
    two = [i for i in BD.adj_all[IDX["bogota"]] if BD.is_loc[i] and BD.econ[i] == 2]
    assert len(two) == 3
    for d, k in ((1, 0), (4, 1), (6, 2)):
        rec = R.new_rng(1, {"space": [3, 3, 3], "loc": [d]})     # the table box of Bogota
        got, info = RS.random_loc(rec, two)
        assert info["city"] == "bogota" and info["die"] == [d] and got == sorted(two)[k]


def test_8_3_equal_chance_rerolls_faces_left_over():
    rec = R.new_rng(1, {"loc": [5, 6, 4]})
    assert RS.equal_chance(rec, 4) == (3, [5, 6, 4])


def test_8_2_nonplayer_pick_uses_the_table_and_reports_dice():
    st = new([6, 20], script={"space": [6, 1, 3]})
    st["stack"][-1]["f"] = 3
    from engine.scenarios.andean_abyss.frames import logging_to
    facts = []
    with logging_to(facts):
        got = rnd(st, ["space:huila", "space:cali", "space:putumayo"])
    assert got == "space:putumayo"
    f = [x for x in facts if x.get("branch") == "random space"]
    assert f and f[0]["dice"] == [6, 1, 3] and f[0]["space"] == "putumayo" and f[0]["rule"] == "8.2"
    assert "red 6, yellow 1, green 3" in str(f[0]["text"])
    # non-space candidates keep the uniform pick (8.2 Play Note)
    assert rnd(st, ["level:1", "level:-1"]) in ("level:1", "level:-1")


def test_8_2_choices_in_one_space_roll_no_table():
    """Candidates that all name one space (e.g. two piece kinds to place there) are not a choice
    of space: no table dice; several choices in the space the table reaches share a pick."""
    st = new([6, 20], script={"space": [6, 6, 3]})
    got = rnd(st, ["place:ecuador:farc_base", "place:ecuador:farc_underground"])
    assert got.startswith("place:ecuador:") and st["rng"]["script"]["space"] == [6, 6, 3]
    got = rnd(st, ["place:ecuador:farc_base", "place:ecuador:farc_underground", "place:huila:farc_base"])
    assert got.startswith("place:ecuador:") and "space" not in st["rng"].get("script", {})


def test_8_2_bot_decision_on_a_player_seat_names_the_dice():
    """NonPlayerBot on a player seat: a pick made with the table says so in its reason."""
    from engine.scenarios.andean_abyss.np_bot import NonPlayerBot

    from .conftest import RULES, clear, play, put
    st = clear(new([4, 20], script={"space": [6, 1, 3]}))
    st["sop"]["cand"] = [3]
    st["stack"][-1]["f"] = 3
    st["seq"] += 1
    for s in ("putumayo", "huila", "cali"):
        put(st, s, car_base=1)
    bot = NonPlayerBot(RULES, "cartels", 1)
    d = bot.choose(st, RULES.prompt(st))          # 8.5.1: Rally (up to 3 spaces)
    assert d.choice_id == "op:rally"
    play(st, "op:rally")
    d = bot.choose(st, RULES.prompt(st))
    assert d.choice_id == "space:putumayo" and "red 6, yellow 1, green 3" in d.reason
