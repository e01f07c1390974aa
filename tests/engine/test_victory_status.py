"""Victory progress (Rules.victory, issue #19 deliver 1: the victory panel): each game's
conditions agree with the rulebook and with the game's own victory checks."""

import pytest

import engine
from engine.core.victory import AT_LEAST, LESS_THAN, MORE_THAN, Condition


def test_distance_counts_the_steps_still_needed():
    assert Condition("a", "win", "x", "x", 50, 60, MORE_THAN, "7.2").distance == 11
    assert Condition("a", "win", "x", "x", 13, 10, LESS_THAN, "7.0.2").distance == 4
    assert Condition("a", "win", "x", "x", 18, 18, AT_LEAST, "7.0.1").distance == 0


@pytest.mark.parametrize(("will", "met"), [
    (2, {("shining_path", "7.0.1"), ("shining_path", "7.0.2")}),
    (3, {("shining_path", "7.0.2")}),
    (10, set()),  # exactly 10 at the end: a tie (7.0.2)
    (11, {("government", "7.0.2")}),
    (18, {("government", "7.0.1"), ("government", "7.0.2")}),
])
def test_peru_political_will_decides(will, met):
    rules = engine.load("peru")
    state = rules.setup(1, {})
    rules.adjust(state, "political_will", will)
    assert {(c.side, c.rule) for c in rules.victory(state) if c.met} == met


def test_andean_abyss_conditions_agree_with_the_victory_margins():
    rules = engine.load("andean_abyss")
    state = rules.setup(4, {**rules.options_for_bots("nonplayer")})
    from engine.bots.base import make_bot

    bots = {s: make_bot(rules, "nonplayer", s, 4) for s in rules.seat_ids()}
    checked = 0
    while rules.prompt(state) is not None and checked < 400:
        m = rules.metrics(state)
        by = {}
        for c in rules.victory(state):
            by.setdefault(c.side, []).append(c.met)
        for seat in ("govt", "farc", "auc", "cartels"):
            assert all(by[seat]) == (m[f"{seat}_margin"] > 0), (seat, m)
        p = rules.prompt(state)
        rules.apply_inplace(state, p.seats[0], bots[p.seats[0]].choose(state, p).choice_id)
        checked += 1
    assert checked > 50


def test_tears_of_tyranny_one_players_condition_per_influence_level_and_the_end_agrees():
    rules = engine.load("tears_of_tyranny")
    for seed in (1, 2):
        state = rules.setup(seed, {"players": 2})
        active = [c for c in rules.victory(state) if c.side == "players" and c.active]
        assert len(active) == 1 and "level 1" in str(active[0].name)
    # at the end of a lost game by total tyranny, its condition is met
    from engine.bots.base import make_bot

    state = rules.setup(1, {"players": 1})
    bots = {s: make_bot(rules, "random", s, 1) for s in rules.seat_ids()}
    while rules.prompt(state) is not None:
        p = rules.prompt(state)
        rules.apply_inplace(state, p.seats[0], bots[p.seats[0]].choose(state, p).choice_id)
    result = rules.result(state)
    conds = {str(c.name): c for c in rules.victory(state)}
    total = next(c for n, c in conds.items() if n.startswith("Total tyranny"))
    if "total tyranny" in str(result.get("reason", "")):
        assert total.met
    else:
        assert result["winner"] in ("players", "adversary")
