"""2.3 Sequence of Play: eligibility, Faction order, Pass, 1st/2nd options, next card."""

from __future__ import annotations

from .conftest import RULES, auto, clear, ids, new, play, put


def test_2_3_2_faction_order_from_card():
    st = new([19, 20])  # F G A C
    p = RULES.prompt(st)
    assert p.seats == ("farc",) and p.kind == "elig"


def test_2_3_3_pass_gives_resources_and_next_eligible_acts():
    st = new([1, 2])  # G F A C
    play(st, "pass")
    assert st["res"][0] == 43
    assert RULES.prompt(st).seats == ("farc",)
    play(st, "pass")
    assert st["res"][1] == 11
    play(st, "pass", "pass")
    assert st["cur"] == 2 and all(st["elig"])


def test_2_3_4_second_eligible_options_after_op_only():
    st = clear(new([1, 2]))
    put(st, "bogota", troops=1)
    play(st, "op:train", "space:bogota", "mix:1-0", "done", "done")
    ch = ids(st)
    assert "pass" in ch and not any(c.startswith("event") for c in ch)
    assert RULES.prompt(st).choices[1].payload.get("limited") is True


def test_2_3_4_second_eligible_may_take_event_after_op_with_sa():
    st = clear(new([1, 2]))
    put(st, "bogota", troops=3)
    put(st, "huila", farc_a=1)
    play(st, "op:sweep", "sa:airlift", "space:bogota", "space:huila", "n:1", "space:huila", "done", "done")
    assert "event:shaded" in ids(st)


def test_2_3_4_second_eligible_full_op_after_event():
    st = clear(new([1, 2]))
    play(st, "event:unshaded")
    ch = RULES.prompt(st).choices
    assert any(c.id.startswith("op:") and c.payload.get("limited") is False for c in ch)
    assert not any(c.id.startswith("event") for c in ch)


def test_2_3_7_executors_become_ineligible_passers_stay_eligible():
    st = clear(new([1, 2]))
    play(st, "event:unshaded", "pass")          # Govt event, FARC passes
    put(st, "cesar", auc_u=1)
    play(st, "op:terror", "space:cesar", "done")  # AUC 2nd executes
    assert st["cur"] == 2
    assert st["elig"] == [False, True, False, True]
    assert RULES.prompt(st).seats == ("farc",)  # card 2 GFAC: Govt Ineligible, FARC first


def test_2_3_8_next_card_is_visible_deck_is_not():
    st = new([5, 6, 7])
    v = RULES.view(st, "farc")
    assert v["card"] == 5 and v["next"] == 6 and "deck" not in v


def test_2_4_propaganda_round_then_reset():
    st = new([1, "P", 3])
    for _ in range(4):
        play(st, "pass")
    # Propaganda: non-player free decisions may follow; answer them with np:act
    auto(st)
    assert st["props_done"] == 1 and st["cur"] == 3 and all(st["elig"])


def test_6_0_no_two_propaganda_rounds_in_a_row():
    st = new(["P", "P", 3])
    auto(st)
    assert st["props_done"] == 2 and st["cur"] == 3


def test_2_4_1_final_propaganda_ends_game_with_margins():
    st = new([1, "P"], scenario="quick")
    st["props_done"] = 1
    st["skip_victory_once"] = False
    for _ in range(4):
        play(st, "pass")
    auto(st, stop=())
    r = RULES.result(st)
    assert r is not None and set(r["margins"]) == {"govt", "farc", "auc", "cartels"}


def test_1_5_1_two_player_pairing_seats():
    st = new([55, 56], players=2)
    assert st["ctl"] == ["govt", "farc", "govt", "farc"]
    assert RULES.prompt(st).seats == ("farc",)  # Cartels, run by the FARC player
    assert RULES.active_seats(st) == ["govt", "farc"]


def test_8_nonplayer_option_seats_get_np_act_only():
    st = new([55, 56], players=2, spare="nonplayer")
    assert st["np"] == [2, 3]
    assert ids(st) == ["np:act"]
    play(st, "np:act")
    assert RULES.prompt(st).seats == ("govt",)


def test_2_3_7_shared_cylinder_rules_in_engine_coin():
    from engine.coin.cylinders import SECOND_OPTIONS, adjust, eligible_order
    assert eligible_order(["farc", "govt", "auc", "cartels"], {"govt": True, "auc": True}) == ["govt", "auc"]
    assert adjust(["g", "f", "a"], executed=["g", "f"], stay_eligible=["f"], ineligible_next=["a"]) == \
        {"g": False, "f": True, "a": False}
    assert SECOND_OPTIONS["op_sa"] == ("limited_op", "event")


def test_1_5_three_players_third_may_take_cartels():
    st = new([1, 2], players=3, third="cartels")
    assert st["ctl"] == ["govt", "farc", "cartels", "cartels"]
    st = new([1, 2], players=3, third="cartels", spare="nonplayer")
    assert st["np"] == [2]
    st = new([1, 2], players=3)
    assert st["ctl"] == ["govt", "farc", "auc", "auc"]


def test_prompt_turn_scopes_and_private_choices():
    st = clear(new([1, 2]))
    p1 = RULES.prompt(st)
    play(st, "pass")
    p2 = RULES.prompt(st)
    assert p1.turn != p2.turn and p1.turn.endswith(":govt") and p2.turn.endswith(":farc")
    v_other = RULES.view(st, "govt")
    v_own = RULES.view(st, "farc")
    assert v_other["prompt"]["choices"] == [] and v_own["prompt"]["choices"]


def test_every_support_change_names_its_cause():
    st = clear(new([19, 20]))
    put(st, "cali", farc_u=1, sup=1)
    facts = play(st, "op:terror", "space:cali")
    sup = [f for f in facts if f["type"] == "support"]
    assert sup and all(f["cause"] and f["why"] for f in sup)
