"""Rules.adjust for Peru: the facilitator's override of a track (Political Will, both
Resources, the Hunt Track), bounded like the tracks themselves (1.8, 1.10, 6.7)."""

from __future__ import annotations

import pytest

from engine.core.contract import IllegalChoice
from engine.scenarios.peru.state import piece_totals

from .conftest import RULES, Game


@pytest.mark.parametrize("track,key,value", [
    ("political_will", ("pw",), 14),
    ("government_resources", ("res", "government"), 0),
    ("shining_path_resources", ("res", "shining_path"), 20),
    ("hunt_track", ("hunt",), 2),
])
def test_adjust_sets_each_track_with_a_facilitator_fact(track, key, value):
    g = Game(swap="junin")
    facts = RULES.adjust(g.state, track, value)
    got = g.state
    for k in key:
        got = got[k]
    assert got == value
    assert RULES.metrics(g.state)[track] == value
    assert [f for f in facts if f.get("track") == track and f["cause"]["kind"] == "facilitator"
                and str(f.get("why")) == "facilitator override"
            and f.get("value") == value]
    # the game goes on: a legal prompt is still there and JSON round trip holds
    assert RULES.prompt(g.state) is not None
    assert RULES.dumps(RULES.loads(RULES.dumps(g.state))) == RULES.dumps(g.state)


def test_adjust_accepts_aliases_and_integer_strings():
    g = Game(swap="junin")
    RULES.adjust(g.state, "pw", "7")
    assert g.state["pw"] == 7
    RULES.adjust(g.state, "Hunt", 1)
    assert g.state["hunt"] == 1


@pytest.mark.parametrize("track,value,code", [
    ("no_such_track", 3, "unknown_track"),
    ("political_will", 21, "out_of_range"),
    ("political_will", -1, "out_of_range"),
    ("government_resources", 25, "out_of_range"),
    ("shining_path_resources", "many", "bad_value"),
    ("hunt_track", 5, "out_of_range"),
    ("political_will", True, "bad_value"),
    ("political_will", 3.5, "bad_value"),
])
def test_adjust_refuses_unknown_tracks_and_out_of_range_values_leaving_the_state_alone(track, value, code):
    g = Game(swap="junin")
    before = RULES.dumps(g.state)
    with pytest.raises(IllegalChoice) as exc:
        RULES.adjust(g.state, track, value)
    assert exc.value.code == code and exc.value.message
    assert RULES.dumps(g.state) == before


def test_adjust_hunt_track_into_captured_captures_guzman_6_7_2():
    g = Game(swap="junin")
    totals = piece_totals(g.state)
    pw = g.state["pw"]
    facts = RULES.adjust(g.state, "hunt_track", 4)
    assert g.state["captured"] and g.state["hunt"] == 4
    assert any(f.get("track") == "political_will" and str(f.get("why")) == "Guzman captured" and f["delta"] == 5
               for f in facts)
    assert g.state["pw"] >= pw + 5  # plus any Shining Path Control lost by the halved Guerrillas
    assert any(f["type"] == "capture" for f in facts)
    assert piece_totals(g.state) == totals
    with pytest.raises(IllegalChoice):
        RULES.adjust(g.state, "hunt_track", 1)


def test_adjust_is_deterministic_and_replays():
    a, b = Game(swap="junin"), Game(swap="junin")
    fa = RULES.adjust(a.state, "political_will", 3)
    fb = RULES.adjust(b.state, "political_will", 3)
    assert fa == fb and RULES.dumps(a.state) == RULES.dumps(b.state)


def test_adjust_refuses_once_the_game_is_over():
    g = Game(swap="junin")
    g.play_random(5)
    before = RULES.dumps(g.state)
    with pytest.raises(IllegalChoice) as exc:
        RULES.adjust(g.state, "political_will", 10)
    assert exc.value.code == "game_over" and RULES.dumps(g.state) == before
