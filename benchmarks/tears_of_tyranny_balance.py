"""Tears of Tyranny balance runs: win rates of random and heuristic bots per player count.

    .venv/bin/python benchmarks/tears_of_tyranny_balance.py --games 40 --players 1 2 3 4 --bots random heuristic

Each game is ``engine.core.simulate.play_game`` with the given bots in every seat and seeds
1..N, so the figures are reproducible and match ``coinlab simulate tears_of_tyranny --seed 1
--games N --bots B --players P``. Two worker processes by default.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from multiprocessing import Pool


def _one(args):
    import engine
    from engine.core.simulate import play_game

    seed, bots, players, extra = args
    rules = engine.load("tears_of_tyranny")
    r = play_game(rules, seed=seed, bots=bots, options={"players": players, **extra})
    res = r["result"]
    # "level 4: ..." -> "level 4"; a scenario panel's own end keeps its name:
    # "scenario: the offensive culminates: ..." -> "scenario: the offensive culminates"
    reason = ":".join(res["reason"].split(":")[:2 if res["reason"].startswith("scenario:") else 1])
    return res["winner"], reason, res["turn"], res["margin"]["influence_cards_earned"], r["choices"]


def run(games: int, players: int, bots: str, extra: dict, procs: int = 2) -> dict:
    jobs = [(seed, bots, players, extra) for seed in range(1, games + 1)]
    with Pool(procs) as pool:
        out = pool.map(_one, jobs)
    wins = sum(1 for w, *_ in out if w == "players")
    return {"players": players, "bots": bots, "games": games, "wins": wins, "win_rate": round(wins / games, 3),
            "reasons": dict(Counter(r for _, r, *_ in out)),
            "mean_turns": round(sum(t for _, _, t, *_ in out) / games, 1),
            "mean_influence_cards": round(sum(k for _, _, _, k, _ in out) / games, 1),
            "mean_choices": round(sum(c for *_, c in out) / games, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--bots", nargs="+", default=["random", "heuristic"])
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--procs", type=int, default=2)
    a = ap.parse_args()
    extra = {}
    for kv in a.option:
        k, v = kv.split("=", 1)
        try:
            extra[k] = json.loads(v)
        except json.JSONDecodeError:
            extra[k] = v
    for bots in a.bots:
        for n in a.players:
            print(json.dumps(run(a.games, n, bots, extra, a.procs)), flush=True)


if __name__ == "__main__":
    main()
