"""Contract v2 positions for Andean Abyss: ``setup(seed, {"position": ...})``, ``position(state)``,
``position_schema()`` and :class:`PositionError` naming the bad field (positions.py)."""

from __future__ import annotations

import pytest

from engine.bots.base import RandomBot
from engine.core.contract import PositionError
from engine.scenarios.andean_abyss import pieces as P
from engine.scenarios.andean_abyss.board import BOARD as BD

from .conftest import RULES, pc


def played(seed: int, n: int) -> dict:
    st = RULES.setup(seed, {})
    bots = {s: RandomBot(RULES, s, seed) for s in RULES.seat_ids()}
    for _ in range(n):
        p = RULES.prompt(st)
        if p is None:
            break
        RULES.apply_inplace(st, p.seats[0], bots[p.seats[0]].choose(st, p).choice_id)
    return st


@pytest.mark.parametrize("seed,n", [(1, 0), (2, 150), (3, 400), (4, 900)])
def test_position_round_trips_through_setup(seed, n):
    st = played(seed, n)
    pos = RULES.position(st)
    again = RULES.setup(99, {"position": pos})
    assert RULES.position(again) == pos
    assert again["av"] == st["av"]        # 1.4: Available = inventory - map - Out of Play
    assert RULES.prompt(again) is not None


def test_position_sets_pieces_markers_tracks_and_cards():
    pos = {"spaces": {"cali": {"troops": 4, "police": 1, "govt_base": 1, "support": "passive_support"},
                      "huila": {"farc_underground": 2, "farc_active": 1, "farc_base": 1, "terror": 1,
                                "support": "active_opposition"},
                      "loc_bogota_neiva": {"sabotage": True, "cartels_underground": 1}},
           "resources": {"govt": 12, "farc": 3, "auc": 0, "cartels": 25}, "aid": 4, "el_presidente": "uribe",
           "eligible": {"farc": False}, "farc_zones": ["meta_west"], "shipments": [{"space": "huila", "owner": "farc"}],
           "capabilities": {"1": "shaded"}, "momentum": [17], "foreign": ["ecuador"],
           "card": 23, "next": "P", "deck": [5, 6]}
    st = RULES.setup(1, {"position": pos})
    assert pc(st, "cali") == {"troops": 4, "police": 1, "gbase": 1}
    assert pc(st, "huila") == {"farc_u": 2, "farc_a": 1, "farc_base": 1}
    assert st["sup"][BD.index["huila"]] == -2 and st["ter"][BD.index["huila"]] == 1
    assert st["sab"][BD.index["loc_bogota_neiva"]] == 1
    assert st["res"] == [12, 3, 0, 25] and st["aid"] == 4 and st["pres"] == 2
    assert st["elig"][1] is False and st["zones"] == [BD.index["meta_west"]]
    assert st["ship"] == [[BD.index["huila"], 1]] and st["caps"] == {"1": "s"} and st["mom"] == [17]
    assert P.active_space(st, BD.ecuador) and not P.active_space(st, BD.panama)
    assert st["cur"] == 23 and st["nxt"] >= 73 and st["deck"] == [5, 6]
    assert st["av"][0] == 30 - 4 and P.count_on_map(st, 0) == 4
    p = RULES.prompt(st)
    assert "23" in str(p.text)                      # the card in play is the position's
    assert "farc" not in p.seats               # FARC Ineligible (2.3.1)


@pytest.mark.parametrize("bad,field", [
    ({"spaces": {"nowhere": {}}}, "position.spaces.nowhere"),
    ({"spaces": {"cali": {"troops": "3"}}}, "position.spaces.cali.troops"),
    ({"spaces": {"cali": {"tanks": 3}}}, "position.spaces.cali.tanks"),
    ({"spaces": {"cali": {"troops": 31}}}, "position.spaces.*.troops"),
    ({"spaces": {"loc_bogota_neiva": {"farc_base": 1}}}, "position.spaces.loc_bogota_neiva"),
    ({"spaces": {"cali": {"farc_base": 2, "auc_base": 1}}}, "position.spaces.cali"),
    ({"spaces": {"loc_bogota_neiva": {"support": "active_support"}}}, "position.spaces.loc_bogota_neiva.support"),
    ({"spaces": {"ecuador": {"farc_base": 1}}}, "position.spaces.ecuador"),
    ({"resources": {"farc": 100}}, "position.resources.farc"),
    ({"resources": {"rebels": 1}}, "position.resources.rebels"),
    ({"aid": -1}, "position.aid"),
    ({"el_presidente": "nobody"}, "position.el_presidente"),
    ({"eligible": {"auc": "yes"}}, "position.eligible.auc"),
    ({"farc_zones": ["loc_bogota_neiva"]}, "position.farc_zones.0"),
    ({"shipments": [{"space": "cali", "owner": "farc"}]}, "position.shipments.0.owner"),
    ({"capabilities": {"17": "shaded"}}, "position.capabilities.17"),
    ({"card": 99}, "position.card"),
    ({"weather": "rain"}, "position.weather"),
])
def test_position_error_names_the_field(bad, field):
    with pytest.raises(PositionError) as e:
        RULES.setup(1, {"position": bad})
    assert e.value.field == field


def test_position_schema_lists_every_key_the_setup_accepts():
    sch = RULES.position_schema()
    assert set(sch["properties"]) == set(RULES.position(RULES.setup(1, {})))
    assert set(sch["properties"]["spaces"]["propertyNames"]["enum"]) == set(BD.ids)
