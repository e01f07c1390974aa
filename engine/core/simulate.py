"""Headless full games with bots in every seat (``coinlab simulate``)."""

from __future__ import annotations

import time
from typing import Any

from engine.bots.base import make_bot
from engine.core.contract import Rules


class StuckGame(RuntimeError):
    pass


def play_game(rules: Rules, seed: int, bots: str = "random", options: dict | None = None,
              max_choices: int = 200_000) -> dict[str, Any]:
    """Play one complete game; returns counts and the result. Deterministic in its arguments."""
    state = rules.setup(seed=seed, options={**rules.options_for_bots(bots), **(options or {})})
    seat_bots = {s: make_bot(rules, bots, s, seed) for s in rules.seat_ids()}
    choices = 0
    while True:
        p = rules.prompt(state)
        if p is None:
            break
        for seat in p.seats:
            if not p.choices_for(seat):
                raise StuckGame(f"seed {seed}: seat {seat} has no legal choice at {p.kind_for(seat)} ({p.rule_for(seat)})")
        seat = p.seats[0]
        decision = seat_bots[seat].choose(state, p)
        rules.apply_inplace(state, seat, decision.choice_id)
        choices += 1
        if choices > max_choices:
            raise StuckGame(f"seed {seed}: no end after {max_choices} choices")
    return {"seed": seed, "choices": choices, "cards": rules.cards_played(state),
            "result": rules.result(state)}


def simulate(rules: Rules, seed: int = 1, games: int = 1, bots: str = "random",
             options: dict | None = None) -> dict[str, Any]:
    results = []
    total_choices = 0
    total_cards = 0
    finished = 0
    t0 = time.perf_counter()
    for g in range(games):
        r = play_game(rules, seed + g, bots, options)
        total_choices += r["choices"]
        total_cards += r["cards"]
        if r["result"] is not None:
            finished += 1
        results.append(r)
    dt = max(time.perf_counter() - t0, 1e-9)
    return {
        "scenario": rules.key,
        "games": games,
        "finished": finished,
        "choices": total_choices,
        "cards": total_cards,
        "seconds": round(dt, 3),
        "choices_per_s": round(total_choices / dt, 1),
        "cards_per_s": round(total_cards / dt, 2),
        "results": results,
    }
