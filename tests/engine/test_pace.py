"""Session length estimates (issue #18 deliver 1): engine/core/pace.py."""

import engine
from engine.core.contract import ChoiceKind
from engine.core.pace import (
    DEFAULT_SECONDS,
    UNKNOWN_KIND_SECONDS,
    TimeModel,
    estimate,
    game_decisions,
    game_minutes,
)


def test_sequential_decisions_add_up_and_simultaneous_ones_overlap():
    model = TimeModel()
    op = DEFAULT_SECONDS[ChoiceKind.OPERATION]
    done = DEFAULT_SECONDS[ChoiceKind.DONE]
    # Two seats taking turns: every decision stops the table, so the times add up.
    seq = [(("a",), "a", ChoiceKind.OPERATION), (("b",), "b", ChoiceKind.OPERATION), (("a",), "a", ChoiceKind.DONE)]
    assert game_minutes(seq, model) * 60 == op + op + done
    # Two seats answering one simultaneous prompt each: their clocks run side by side.
    sim = [(("a", "b"), "a", ChoiceKind.OPERATION), (("a", "b"), "b", ChoiceKind.DONE),
           (("a", "b"), "a", ChoiceKind.DONE)]
    assert game_minutes(sim, model) * 60 == op + done
    # ...and the next single-seat prompt waits for the slower seat.
    assert game_minutes(sim + [(("b",), "b", ChoiceKind.DONE)], model) * 60 == op + done + done


def test_a_choice_of_unknown_kind_costs_the_documented_default():
    assert game_minutes([(("a",), "a", "")], TimeModel()) * 60 == UNKNOWN_KIND_SECONDS


def test_the_estimate_counts_every_decision_of_bot_games_and_gives_a_spread():
    rules = engine.load("peru")
    games = [game_decisions(rules, seed) for seed in (1, 2, 3)]
    out = estimate(rules, decisions=games)
    assert out["games"] == 3
    assert out["decisions"]["mean"] == round(sum(map(len, games)) / 3, 1)
    assert abs(sum(out["decisions_per_seat"].values()) - out["decisions"]["mean"]) <= 0.15  # each rounded to 0.1
    m = out["minutes"]
    assert 0 < m["p10"] <= m["p50"] <= m["p90"]
    assert m["p10"] <= m["mean"] <= m["p90"]
    # Deterministic in its arguments: the same seeds give the same figures.
    assert estimate(rules, games=3, seed=1) == out


def test_logged_decision_times_scale_the_model():
    rules = engine.load("peru")
    games = [game_decisions(rules, seed) for seed in (1, 2)]
    base = estimate(rules, decisions=games)
    base_mean = base["minutes"]["mean"] * 60 / base["decisions"]["mean"]  # sequential game: seconds a decision
    slow = estimate(rules, decisions=games, model=TimeModel.observed(2 * base_mean, 40))
    assert slow["model"] == "logged sessions" and slow["observed_decisions"] == 40
    assert abs(slow["minutes"]["mean"] - 2 * base["minutes"]["mean"]) <= 0.2
    # No logged decision: the documented default.
    assert TimeModel.observed(0, 0).source == "default"
