"""Shared COIN mechanics (engine/coin) and a few Peru corner cases."""

from __future__ import annotations

from engine.coin import control, eligibility, support, tracks
from engine.coin.board import Board, BoardError

from .conftest import card_game, position_game, put

GOV, SP = "government", "shining_path"


def test_coin_1_6_support_shift_one_level_toward_target():
    assert support.shifted(-2, 2) == -1 and support.shifted(1, 0) == 0 and support.shifted(0, 0) == 0
    assert support.shifted(-1, 2, steps=2) == 1


def test_coin_1_7_control_for_two_and_four_factions():
    assert control.controller({"G": 3, "S": 2}) == "G"
    assert control.controller({"G": 2, "S": 2}) == ""
    assert control.controller({"gov": 3, "farc": 1, "auc": 1, "cartels": 1}) == ""
    assert control.controller({"gov": 1, "farc": 4, "auc": 1, "cartels": 1}) == "farc"
    assert control.two_sided(1, 2, "G", "S") == "S"


def test_coin_tracks_are_bounded_and_name_their_cause():
    v = {"pw": 19}
    facts: list = []
    assert tracks.change(v, "pw", 3, "test", facts, "Political Will", track="political_will") == 1
    assert v["pw"] == 20 and facts[0]["track"] == "political_will" and facts[0]["cause"] == "test"


def test_coin_initiative_leftmost_box_first():
    assert eligibility.next_order(["a", "b", "c"], {"x": "c", "y": "a"}, ["x", "y"]) == ["y", "x"]


def test_coin_board_rejects_asymmetric_adjacency():
    try:
        Board([{"id": "a", "name": "A", "kind": "d", "adjacent": ["b"]},
               {"id": "b", "name": "B", "kind": "d", "adjacent": []}])
    except BoardError:
        return
    raise AssertionError("asymmetric adjacency accepted")


def test_3_3_4_terror_asks_government_for_a_rondas_from_the_map_when_box_empty():
    g = position_game("P7", SP, lambda pos: put(pos, "lima", Ru=10))  # every Rondas on the map
    assert g.state["avail"]["R"] == 0
    g.do(SP, "box:op_sa", "op:terror", "space:junin")
    assert g.seat() == GOV and "from:lima" in g.choices()
    g.do(GOV, "from:lima")
    assert g.space("junin")["Ru"] == 1 and g.space("lima")["Ru"] == 9


def test_4_2_1_second_investigate_roll_allowed_after_belaunde():
    g = card_game("P7", GOV, lambda st: st.update(president="P38"), script={"hunt": [1, 6]})
    g.do(GOV, "box:op_sa", "op:train", "sa:investigate")
    assert g.state["hunt"] == 0
    g.do(GOV, "lima:roll")
    assert g.state["hunt"] == 1 and g.space("lima")["P"] == 3


def test_6_1_2_directives_ops_with_p9_special_activity_only_in_directives_spaces():
    from engine.scenarios.peru import propaganda
    g = card_game("P7", SP, lambda st: st["caps"].update(P9="bottom"))
    propaganda.directives(g.state, [])
    assert g.state["d_revealed"]
    g.do(SP, "op:rally", "space:junin", "rally:2")
    assert "sa:govern" in g.choices() or "sa:evade" in g.choices()
    g.do(SP, "sa:evade", "space:junin", "to:huanuco", "done")
    g.do(SP, "op:rally", "space:huanuco", "rally:1")
    assert not any(c.startswith("sa:") for c in g.choices())
    assert not any(f["k"] in ("op", "opmenu") for f in g.state["stack"])  # both Limited Operations ended


def test_2_3_apply_rejects_wrong_seat_and_unknown_choice():
    import pytest

    from engine.core.contract import IllegalChoice
    g = card_game("P7", SP)
    with pytest.raises(IllegalChoice) as e:
        g.rules.apply(g.state, GOV, "box:event")
    assert e.value.code == "not_your_turn"
    with pytest.raises(IllegalChoice) as e:
        g.rules.apply(g.state, SP, "box:nowhere")
    assert e.value.code == "unknown_choice"
