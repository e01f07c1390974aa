"""Positions (contract v2): setup from a described position, export, JSON Schema, refusals that
name the bad field, and the rulebook's example of play started from a position."""

from __future__ import annotations

import copy
import random

import jsonschema
import pytest

from engine.core.contract import PositionError
from engine.scenarios.peru.state import piece_totals

from .conftest import EXAMPLE_DECK, EXAMPLE_DICE, RULES, Game
from .test_example_of_play import test_8_0_example_of_play_full_replay

GOV, SP = "government", "shining_path"


def _boundary_positions(seed: int, limit: int = 40) -> list:
    rng = random.Random(seed)
    st = RULES.setup(seed)
    out = []
    while len(out) < limit:
        p = RULES.prompt(st)
        if p is None:
            break
        pos = RULES.position(st)
        if pos["turn"]["phase"] != "in_progress":
            out.append((st, pos))
        st, _ = RULES.apply(st, p.seats[0], rng.choice(p.choices).id)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_position_round_trips_and_matches_its_schema(seed):
    validator = jsonschema.Draft202012Validator(RULES.position_schema())
    found = _boundary_positions(seed)
    assert len(found) > 10
    for st, pos in found:
        validator.validate(pos)
        again = RULES.setup(seed + 100, {"position": pos})
        assert RULES.position(again) == pos
        # the same board, prompt and conserved pieces as the original state
        assert again["s"] == st["s"] and again["avail"] == st["avail"]
        assert piece_totals(again) == piece_totals(st)
        a, b = RULES.prompt(again).to_dict(), RULES.prompt(st).to_dict()
        a.pop("turn"), b.pop("turn")            # the undo scope counts decisions since the start
        assert a == b


def test_an_empty_position_is_an_empty_board_with_the_setup_tracks():
    st = RULES.setup(1, {"position": {}})
    assert all(sp[k] == 0 for sp in st["s"].values() for k in ("T", "P", "Gu", "B", "D"))
    assert (st["pw"], st["res"], st["hunt"]) == (13, {GOV: 20, SP: 10}, 0)
    assert st["avail"] == {"T": 16, "P": 20, "R": 10, "G": 20, "B": 4}
    assert RULES.prompt(st).kind == "box"       # the first card is revealed (2.2)


@pytest.mark.parametrize("pos,field", [
    ({"spaces": {"atlantis": {}}}, "position.spaces.atlantis"),
    ({"spaces": {"lima": {"troops": -1}}}, "position.spaces.lima.troops"),
    ({"spaces": {"lima": {"troops": "many"}}}, "position.spaces.lima.troops"),
    ({"spaces": {"lima": {"tanks": 1}}}, "position.spaces.lima.tanks"),
    ({"spaces": {"lima": {"support": "delighted"}}}, "position.spaces.lima.support"),
    ({"spaces": {"loc_lima_piura": {"terror": 1}}}, "position.spaces.loc_lima_piura.terror"),
    ({"spaces": {"lima": {"sabotage": True}}}, "position.spaces.lima.sabotage"),
    ({"spaces": {"junin": {"bases": 2, "directives_base": True}}}, "position.spaces.junin.bases"),
    ({"spaces": {"lima": {"troops": 17}}}, "position.spaces"),
    ({"tracks": {"political_will": 21}}, "position.tracks.political_will"),
    ({"tracks": {"morale": 3}}, "position.tracks.morale"),
    ({"tracks": {"hunt": 4}}, "position.tracks.hunt"),
    ({"capabilities": {"P1": "top"}}, "position.capabilities.P1"),
    ({"president": "P40"}, "position.president"),
    ({"eligibility": {"first": "cartels"}}, "position.eligibility.first"),
    ({"eligibility": {"first": GOV, "second": GOV}}, "position.eligibility.second"),
    ({"current_card": "P99"}, "position.current_card"),
    ({"deck": ["P3", "P3"]}, "position.deck[1]"),
    ({"turn": {"phase": "lunch"}}, "position.turn.phase"),
    ({"current_card": "P3", "turn": {"phase": "card", "boxes": {GOV: "event"}}}, "position.turn.boxes.government"),
    ({"held": {"P23": 1}}, "position.held.P23"),
    ({"weather": "rain"}, "position.weather"),
])
def test_bad_positions_are_refused_naming_the_field(pos, field):
    with pytest.raises(PositionError) as e:
        RULES.setup(1, {"position": pos})
    assert e.value.field == field, str(e.value)


def _example_position() -> dict:
    """The rulebook's example of play (8.0): the setup of 2.1, the Directives Base in Junin, the
    example's first seven cards on top, the Shining Path 1st Eligible."""
    g = Game(options={"deck_top": EXAMPLE_DECK}, swap="junin")
    pos = RULES.position(g.state)
    assert pos["spaces"]["junin"]["directives_base"] and pos["current_card"] == "P36"
    return pos


def test_8_0_example_of_play_from_a_position():
    pos = _example_position()
    g = Game(options={"position": copy.deepcopy(pos), "script": EXAMPLE_DICE})
    assert RULES.position(g.state) == pos
    test_8_0_example_of_play_full_replay(g)     # every checkpoint, Political Will 9 at the end
    assert g.state["pw"] == 9
