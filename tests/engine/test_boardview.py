"""The typed board view of every game (issue 13.4): named values, JSON round trip, geometry
without overlaps, and nothing a seat may not see."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest

import engine
from engine.core.boardview import BoardMap, BoardView, PieceState, SpaceShape, Support, overlap
from engine.core.messages import is_msg

GAMES = ("peru", "andean_abyss", "tears_of_tyranny")


def _played(rules, seed: int, steps: int):
    """A position after ``steps`` random legal choices (seeded)."""
    state = rules.setup(seed=seed, options={})
    rnd = random.Random(seed)
    for _ in range(steps):
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[0]
        choice = rnd.choice(p.choices_for(seat))
        state, _ = rules.apply(state, seat, choice.id)
    return state


@pytest.mark.parametrize("game", GAMES)
def test_board_map_is_typed_and_consistent(game):
    m = engine.load(game).board_map()
    assert isinstance(m, BoardMap) and m.game == game
    ids = {s.id for s in m.spaces}
    factions = {f.id for f in m.factions}
    assert len(ids) == len(m.spaces) >= 17
    for s in m.spaces:
        assert is_msg(s.name) and s.label
        assert isinstance(s.shape, SpaceShape)
        assert set(s.adjacent) <= ids | {"ecuador", "panama"}, s.id
        x0, y0, x1, y1 = s.bounds()
        assert 0 <= x0 and 0 <= y0 and x1 <= m.width and y1 <= m.height, f"{s.id} leaves the drawing"
    for p in m.piece_types:
        assert p.owner in factions | {""}, p
        assert is_msg(p.name) and len(p.letter) == 1
    json.dumps(m.to_dict())


@pytest.mark.parametrize("game", GAMES)
def test_no_two_spaces_of_the_map_overlap(game):
    m = engine.load(game).board_map()
    assert [(a.id, b.id) for a, b in itertools.combinations(m.spaces, 2) if overlap(a, b)] == []


def test_the_overlap_check_can_fail():
    m = engine.load("peru").board_map()
    lima = m.space("lima")
    moved = dataclasses.replace(m.space("junin"), x=lima.x + 30, y=lima.y)
    assert overlap(lima, moved)
    hexes = engine.load("tears_of_tyranny").board_map().spaces
    h0 = hexes[0]
    assert overlap(h0, dataclasses.replace(hexes[1], x=h0.x + h0.r, y=h0.y))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("steps", [0, 60])
def test_board_view_names_what_it_holds(game, steps):
    rules = engine.load(game)
    state = _played(rules, seed=3, steps=steps)
    m = rules.board_map()
    factions = {f.id for f in m.factions}
    types = {p.id: p for p in m.piece_types}
    geometry = {s.id for s in m.spaces}
    for seat in [None, *rules.active_seats(state)]:
        bv = rules.board_view(state, seat)
        assert isinstance(bv, BoardView) and bv.seat == seat
        assert {s.id for s in bv.spaces} <= geometry
        for sp in bv.spaces:
            assert sp.control is None or sp.control in factions
            assert sp.support is None or isinstance(sp.support, Support)
            for p in sp.pieces:
                assert p.type in types, p
                assert p.owner in factions | {""}
                assert p.count > 0 and isinstance(p.state, PieceState)
                if types[p.type].owner:
                    assert p.owner == types[p.type].owner
            for mk in sp.markers:
                assert is_msg(mk.name) and mk.count > 0
        for t in bv.tracks:
            assert is_msg(t.name) and isinstance(t.value, int | float)
        data = bv.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert BoardView.from_dict(json.loads(json.dumps(data))) == bv
    assert rules.board_view(state, None).piece_count > 0


def test_peru_setup_pieces_match_the_view():
    """2.1 setup: Lima holds 7 Troops and 4 Police under Government Control, Active Support."""
    rules = engine.load("peru")
    state = rules.setup(seed=1, options={})
    lima = rules.board_view(state, None).space("lima")
    counts = {(p.type, p.state): p.count for p in lima.pieces}
    view = rules.view(state, None)["spaces"]["lima"]
    assert counts[("troops", PieceState.NONE)] == view["troops"]
    assert counts[("police", PieceState.NONE)] == view["police"]
    assert lima.control == "government" and lima.support == Support.from_level(view["support"])


def test_peru_directives_base_is_hidden_from_the_government():
    """1.5: the Government does not know which Shining Path Base is the Directives Base."""
    rules = engine.load("peru")
    state = rules.setup(seed=1, options={})
    state["s"]["ayacucho"]["D"] = 1
    state["d_home"] = False
    state["d_revealed"] = False
    gov = rules.board_view(state, "government")
    sp = rules.board_view(state, "shining_path")
    assert [m.id for m in sp.space("ayacucho").markers if m.id == "directives_base"] == ["directives_base"]
    assert all(m.id != "directives_base" for s in gov.spaces for m in s.markers)
    assert "Directives Base" not in json.dumps(gov.to_dict())
    # the Base itself is on the map for both: only its identity is secret
    assert gov.space("ayacucho").pieces == sp.space("ayacucho").pieces


def test_andean_abyss_control_and_support_are_named():
    """Setup (2.1): Bogota under Government Control at Active Support; Choco FARC-controlled in
    Active Opposition."""
    rules = engine.load("andean_abyss")
    bv = rules.board_view(rules.setup(seed=1, options={}), None)
    assert bv.space("bogota").control == "govt" and bv.space("bogota").support == Support.ACTIVE_SUPPORT
    assert bv.space("choco").control == "farc" and bv.space("choco").support == Support.ACTIVE_OPPOSITION
    loc = next(s for s in bv.spaces if s.id.startswith("loc_"))
    assert loc.support is None


def test_tears_of_tyranny_hands_stay_out_of_the_board_view():
    """Only counts of other players' hands reach a seat (the board view holds no card ids of hands)."""
    rules = engine.load("tears_of_tyranny")
    state = rules.setup(seed=1, options={})
    text = json.dumps(rules.board_view(state, "liberators").to_dict())
    for seat, pl in rules.view(state, None)["players"].items():
        for card in pl["hand"]:
            assert f'"{card}"' not in text, (seat, card)
