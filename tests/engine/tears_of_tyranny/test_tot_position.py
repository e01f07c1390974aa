"""Contract v2 positions: setup(seed, {"position": ...}), position(state), position_schema(),
PositionError naming the bad field."""

from __future__ import annotations

import pytest

from engine.bots.base import make_bot
from engine.core.contract import PositionError


def _midgame(rules, players=3, seed=5, moves=300):
    st = rules.setup(seed, {"players": players})
    bots = {s: make_bot(rules, "heuristic", s, seed) for s in rules.seat_ids()}
    for _ in range(moves):
        p = rules.prompt(st)
        seat = p.seats[0]
        rules.apply_inplace(st, seat, bots[seat].choose(st, p).choice_id)
    return st


def test_a_described_position_round_trips_and_plays_to_the_end(rules):
    st = _midgame(rules)
    pos = rules.position(st)
    assert pos["turn"] >= 2 and pos["tiles"]
    st2 = rules.setup(5, {"players": 3, "position": pos})
    assert rules.position(st2) == pos
    p = rules.prompt(st2)
    assert st2["phase"] == "window" and set(p.seats) == set(st2["seats"])
    bots = {s: make_bot(rules, "heuristic", s, 5) for s in rules.seat_ids()}
    for _ in range(5000):
        p = rules.prompt(st2)
        if p is None:
            break
        seat = p.seats[0]
        rules.apply_inplace(st2, seat, bots[seat].choose(st2, p).choice_id)
    assert rules.result(st2) is not None


def test_the_schema_documents_every_field(rules):
    sch = rules.position_schema()
    assert set(sch["properties"]) == {"turn", "tiles", "seats", "influence_earned", "tyranny_pool", "boxes"}
    pos = rules.position(_midgame(rules, moves=120))
    assert set(pos) <= set(sch["properties"])


@pytest.mark.parametrize("bad,field", [
    ({"turn": 0}, "position.turn"),
    ({"turn": 2, "tiles": {"s99t9": {}}}, "position.tiles.s99t9"),
    ({"turn": 2, "tiles": {"s01t0": {"cells": -1}}}, "position.tiles.s01t0.cells"),
    ({"turn": 2, "tiles": {"s01t0": {"cells": "two"}}}, "position.tiles.s01t0.cells"),
    ({"turn": 2, "tiles": {"s01t0": {"tyranny": 1, "presence": {"liberators": 1}}}}, "position.tiles.s01t0.presence"),
    ({"turn": 2, "tiles": {"s01t0": {"bases": ["liberators"]}}}, "position.tiles.s01t0.bases"),
    ({"turn": 2, "tiles": {"s01t0": {"guerrillas": {"comrades": 1}}}}, "position.tiles.s01t0.guerrillas.comrades"),
    ({"turn": 2, "seats": {"liberators": {"hand": ["nope"]}}}, "position.seats.liberators.hand"),
    ({"turn": 2, "seats": {"liberators": {"open": {"plays": 99}}}}, "position.seats.liberators.open.plays"),
    ({"turn": 2, "boxes": {"develop": "X"}}, "position.boxes.develop"),
    ({"turn": 2, "weather": "rain"}, "position.weather"),
])
def test_a_bad_position_names_the_field(rules, bad, field):
    with pytest.raises(PositionError) as e:
        rules.setup(1, {"players": 2, "position": bad})
    assert e.value.field == field


def test_the_catalog_lists_every_authored_name_and_text_as_a_message(rules, C):
    """Contract v2: data-file texts reach the translation catalogs through Rules.catalog()."""
    from engine.core.messages import is_msg, templates

    cat = rules.catalog()
    found = set(templates(cat))
    assert {C.tiles[t]["name"] for t in C.tile_ids} <= found
    assert {c["title"] for c in C.cards.values()} | {c["text"] for c in C.cards.values()} <= found
    assert {e["title"] for e in C.events.values()} <= found
    assert all(is_msg(x["name"]) for x in cat["names"])
