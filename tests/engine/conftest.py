"""Shared by the engine tests that walk random legal play."""

from __future__ import annotations

import pytest


def _random_move(rules, state, rng) -> tuple[str, str] | None:
    """(seat, choice id) of a random legal move of the first seat asked, or None at the end."""
    p = rules.prompt(state)
    if p is None:
        return None
    seat = p.seats[0]
    choices = p.choices_for(seat)
    return (seat, rng.choice(choices).id) if choices else None


@pytest.fixture
def random_move():
    """``random_move(rules, state, rng)`` -> (seat, choice id), or None when the game is over."""
    return _random_move
