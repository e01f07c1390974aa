"""The classroom variant ``campaigns`` (issue 18, docs/rules-notes/peru.md): a deck of fewer of
the three 9-card piles of 2.1 Deck Preparation, the last pile always ending with the final
Propaganda card (2.4.2), so the game ends with the final victory check of 7.0.2 after that
card's Political Will phase (6.2.6)."""

from __future__ import annotations

import pytest

from engine.scenarios.peru.state import SetupError

from .conftest import RULES, Game

FINAL = "P40"


@pytest.mark.parametrize("campaigns, propaganda", [(1, ["P40"]), (2, ["P38", "P40"]), (3, ["P38", "P39", "P40"])])
def test_2_1_deck_of_n_piles_each_ending_with_its_propaganda_card(campaigns, propaganda):
    for seed in range(15):
        deck = RULES.setup(seed, {"campaigns": campaigns})["deck"]
        # 2.1: piles of 9 (8 Events + 1 Propaganda card), no card twice, E37 stays in the box.
        assert len(deck) == 9 * campaigns and len(set(deck)) == len(deck) and "P37" not in deck
        assert [c for c in deck if c in ("P38", "P39", "P40")] == propaganda
        for pile, card in enumerate(propaganda):
            # 2.1: the Propaganda card is shuffled into the bottom 3 cards of its pile.
            assert deck.index(card) in (9 * pile + 6, 9 * pile + 7, 9 * pile + 8)


def test_the_default_deck_is_the_rulebook_deck():
    for seed in range(5):
        assert RULES.setup(seed)["deck"] == RULES.setup(seed, {"campaigns": 3})["deck"]


def test_campaigns_keep_a_fixed_deck_top():
    deck = RULES.setup(1, {"campaigns": 2, "deck_top": ["P36", "P9", "P8", "P12", "P33", "P18", "P38"]})["deck"]
    assert deck[:7] == ["P36", "P9", "P8", "P12", "P33", "P18", "P38"]
    assert len(deck) == 16 and deck.index(FINAL) in (13, 14, 15) and "P39" not in deck


@pytest.mark.parametrize("bad", [0, 4, "2", True, 1.5])
def test_campaigns_out_of_range_are_refused_with_the_field(bad):
    with pytest.raises(SetupError) as e:
        RULES.setup(1, {"campaigns": bad})
    assert e.value.field == "campaigns"


def test_campaigns_do_not_combine_with_a_whole_deck_order():
    with pytest.raises(SetupError):
        RULES.setup(1, {"campaigns": 1, "deck": ["P1", "P40"]})


def test_7_0_2_one_campaign_ends_with_the_final_victory_check_after_the_last_propaganda_round():
    finals = 0
    for seed in range(8):
        g = Game(seed=seed, options={"campaigns": 1})
        deck = list(g.state["deck"])
        g.play_random(seed)
        over = g.state["over"]
        assert over is not None and len(g.state["played"]) <= 9
        if "7.0.2" in over["reason"]["msg"]:
            finals += 1
            # 6.2.6: the final card is the last one played, its Political Will phase the last phase.
            # The cards under it in the bottom 3 of the pile stay unplayed, as in the full game.
            assert g.state["played"] == deck[:deck.index(FINAL) + 1]
            assert "6.2.6" in over["reason"]["args"]["why"]["msg"]
            pw = over["political_will"]
            assert over["winner"] == ("shining_path" if pw < 10 else "government" if pw > 10 else None)
        else:
            # An early victory (6.2.5, 7.0.1) stops the game before the final card.
            assert FINAL not in g.state["played"][:-1]
    assert finals >= 1
