"""Tears of Tyranny: how many decisions a game asks of the players (issue 16.7).

    .venv/bin/python benchmarks/tears_of_tyranny_decisions.py [--games 5] [--players 4] [--seed 1]
        [--scenario standard] [--no-plans]

Plays complete games with the heuristic bots. A *decision* is one submission by a seat, as the
log records it: a single choice, or (by default) a seat's whole plan for its part of the player
window or the long-term phase (``engine.core.plan``: a list of choices validated and undone
together, ending at the first card draw or die roll, after which the seat plans again; offered where
``rules.plan_phase`` says so, as on the play page). Prompts with a single legal choice other than ``done`` are applied by the engine without asking (issue 16.7).
``--no-plans`` submits every choice on its own (the click count). Prints one JSON line per game
and a summary: decisions in all, for the busiest seat, choices inside them, turns.
"""

from __future__ import annotations

import argparse
import collections
import json

import engine
from engine.bots.base import make_bot
from engine.core.plan import apply_plan, draft_plan


def play(players: int, seed: int, scenario: str, plans: bool) -> dict:
    rules = engine.load("tears_of_tyranny")
    state = rules.setup(seed=seed, options={"players": players, "scenario": scenario})
    bots = {s: make_bot(rules, "heuristic", s, seed) for s in rules.seat_ids()}
    decisions: collections.Counter = collections.Counter()
    choices = 0
    while True:
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[0]
        bot = bots[seat]
        scope = rules.plan_phase(state) if plans else None
        if scope is not None:

            def stop(draft, _p, _seat, scope=scope):
                return rules.plan_phase(draft) != scope

            ids = draft_plan(rules, state, seat, lambda s, q, bot=bot: bot.choose(s, q).choice_id, stop)
            state, _facts = apply_plan(rules, state, seat, ids)
            choices += len(ids)
        else:
            rules.apply_inplace(state, seat, bot.choose(state, p).choice_id)
            choices += 1
        decisions[seat] += 1
    res = rules.result(state)
    return {"players": players, "seed": seed, "scenario": scenario, "plans": plans,
            "decisions": sum(decisions.values()), "busiest_seat": max(decisions.values()),
            "per_seat": dict(decisions), "choices": choices, "turns": state["turn"],
            "winner": res and res.get("winner")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenario", default="standard")
    ap.add_argument("--no-plans", action="store_true")
    a = ap.parse_args()
    rows = []
    for g in range(a.games):
        r = play(a.players, a.seed + g, a.scenario, not a.no_plans)
        rows.append(r)
        print(json.dumps(r), flush=True)
    n = len(rows)
    print(json.dumps({"summary": True, "games": n, "players": a.players, "plans": not a.no_plans,
                      "decisions_mean": round(sum(r["decisions"] for r in rows) / n, 1),
                      "decisions_max": max(r["decisions"] for r in rows),
                      "busiest_seat_max": max(r["busiest_seat"] for r in rows),
                      "choices_mean": round(sum(r["choices"] for r in rows) / n, 1),
                      "turns_mean": round(sum(r["turns"] for r in rows) / n, 1)}))


if __name__ == "__main__":
    main()
