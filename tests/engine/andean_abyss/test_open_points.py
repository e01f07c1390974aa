"""Open rules points of issue #7: 2.3.6 Ship with another Faction's Shipment, card 63 under
Non-player play, and the eligibility effects of cards 23, 24, 36 and 63."""

from __future__ import annotations

from .conftest import BD, RULES, clear, ids, new, pc, play, put

CARTELS_FIRST = [55, 56]  # card 55: C G F A


def blank(deck, **opts):
    return clear(new(deck, **opts))


def _rally_then_ship_offer(st):
    put(st, "putumayo", car_u=1, car_base=1)
    put(st, "huila", car_u=1, farc_u=1)
    st["ship"].append([BD.index["huila"], 1])            # held by the FARC Guerrilla: FARC owns it
    play(st, "op:rally", "space:putumayo", "place", "done")


def test_2_3_6_ship_another_players_shipment_needs_its_owner_to_remove_it():
    st = blank(CARTELS_FIRST)
    _rally_then_ship_offer(st)
    assert "ship:terror" in ids(st)
    play(st, "ship:terror")
    # 4.5.3: the Shipment is FARC's, so the Cartels may only ask FARC to remove it
    assert set(ids(st)) == {"ask:farc", "noship"}
    play(st, "ask:farc")
    p = RULES.prompt(st)
    assert p.seats == ("farc",) and set(ids(st)) == {"ship:huila:farc", "refuse"}
    play(st, "ship:huila:farc", "space:huila", "done")
    assert not st["ship"] and st["ter"][BD.index["huila"]] == 1
    assert pc(st, "huila")["car_a"] == 1                 # the Cartels made the free Terror


def test_2_3_6_owner_refusing_means_no_free_operation():
    st = blank(CARTELS_FIRST)
    _rally_then_ship_offer(st)
    play(st, "ship:terror", "ask:farc", "refuse")
    assert st["ship"] == [[BD.index["huila"], 1]]
    assert RULES.prompt(st).kind == "elig"               # the Cartels' turn is over


def test_2_3_6_nonplayer_never_removes_its_shipment_for_another_faction():
    st = blank(CARTELS_FIRST, nonplayers=["farc"])
    _rally_then_ship_offer(st)
    assert RULES.prompt(st).kind == "elig"               # nothing to Ship with (8.1.2)
    assert st["ship"] == [[BD.index["huila"], 1]]


def _card(st):
    return st["cur"]


def _finish_steps(st):
    """Answer the Event's own steps (first legal choice) until the next Eligible Faction's turn."""
    for _ in range(20):
        p = RULES.prompt(st)
        if p is None or p.kind == "elig":
            return
        play(st, p.choices[0].id)
    raise AssertionError("Event steps did not end")


def _pass_until_next_card(st):
    card = _card(st)
    for _ in range(8):
        if _card(st) != card:
            return
        play(st, "pass")
    raise AssertionError("card did not end")


def test_2_3_7_card_63_cartels_who_passed_are_still_ineligible_for_the_next_card():
    st = blank([63, 20, 21])
    put(st, "huila", car_u=3)
    play(st, "pass")                                     # the Cartels (leftmost) Pass (2.3.3) ...
    play(st, "event")                                    # ... then FARC executes Narco-War
    assert pc(st, "huila") == {"car_a": 1}               # all but 1 removed, Terror with the last
    assert st["ter"][BD.index["huila"]] == 1
    _pass_until_next_card(st)
    assert _card(st) == 20 and st["elig"][3] is False    # Ineligible through card 20 (2.3.7)
    _pass_until_next_card(st)
    assert _card(st) == 21 and st["elig"][3] is True     # and Eligible again after it


def test_2_3_7_card_23_shaded_marks_government_and_farc_at_the_end_of_the_card():
    # FGCA: FARC executes the shaded text; the Government (2nd Eligible) still acts on this card,
    # since eligibility changes at 2.3.7; the Cartels and AUC stay Eligible.
    st = blank([23, 1, 2])
    put(st, "bogota", troops=3)
    play(st, "event:shaded")
    _finish_steps(st)                                    # the Government picks its 3 Troops
    assert pc(st, "bogota").get("troops", 0) == 0
    assert RULES.prompt(st).seats == ("govt",)
    _pass_until_next_card(st)
    assert st["elig"] == [False, False, True, True]


def test_2_3_7_card_24_unshaded_farc_ineligible_even_though_it_passed():
    st = blank([24, 1, 2])                               # FGCA: FARC Passes, Government executes
    play(st, "pass", "event:unshaded")
    _finish_steps(st)
    _pass_until_next_card(st)
    assert st["elig"][1] is False and st["elig"][0] is False


def test_2_3_7_card_36_nonplayer_executor_stays_eligible():
    from engine.scenarios.andean_abyss.np_turn import np_decide
    st = blank([36, 1, 2], nonplayers=["govt", "farc", "auc", "cartels"])
    put(st, "huila", farc_u=2)                           # a Mountain Department for the Zone
    kind, _, _, _ = np_decide(st, st["stack"][-1])       # FARC leftmost: 8.1 takes the Event
    assert kind == "event"
    for _ in range(6):
        if _card(st) != 36:
            break
        play(st, "np:act")
    assert _card(st) == 1 and st["zones"]                # the Event happened and the card ended
    assert st["elig"][1] is True                         # FARC executed it yet stays Eligible


def test_8_1_card_63_nonplayers_take_operations_and_pass_without_resources():
    from engine.scenarios.andean_abyss.np_turn import np_decide
    st = blank([63, 1], nonplayers=["govt", "farc", "auc", "cartels"])
    put(st, "huila", car_u=3, police=1)
    kind, op, _, _ = np_decide(st, st["stack"][-1])      # Cartels leftmost, yet Operations
    assert kind == "op"
    st["res"][3] = 0
    kind, _, _, reasons = np_decide(st, st["stack"][-1])
    assert kind == "pass" and reasons[-1][1] == "8.1"    # never the Event instead


def test_8_1_making_a_player_ineligible_counts_only_if_it_would_be_eligible():
    from engine.scenarios.andean_abyss.np_turn import newly_ineligible
    st = blank([23, 1])
    after = {"inel_next": [0, 1]}
    assert newly_ineligible(st, 1, after) == {0}         # the executing FARC is Ineligible anyway
    st["sop"]["executed"].append(0)                      # the Government already acted
    assert newly_ineligible(st, 1, after) == set()
