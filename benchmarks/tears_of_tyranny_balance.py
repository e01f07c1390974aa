"""Tears of Tyranny balance runs: win rates of random and heuristic bots per player count.

    .venv/bin/python benchmarks/tears_of_tyranny_balance.py --games 40 --players 1 2 3 4 --bots random heuristic
    .venv/bin/python benchmarks/tears_of_tyranny_balance.py --games 100 --bots heuristic \
        --scenarios standard blitz frozen_conflict popular_spring --out benchmarks/results/tot_balance.jsonl

Each row prints the win rate with its 95 % Wilson score interval; ``--out`` appends one JSON line
per game (scenario, players, bots, seed, winner, reason, turns, influence cards, choices) so every
figure can be checked seed by seed. Each game is ``engine.core.simulate.play_game`` with the given bots in every seat and seeds
1..N, so the figures are reproducible and match ``coinlab simulate tears_of_tyranny --seed 1
--games N --bots B --players P``. Two worker processes by default.
"""

from __future__ import annotations

import argparse
import json
import math
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
    text = str(res["reason"])  # a message (contract v2); str() renders it in English
    reason = ":".join(text.split(":")[:2 if text.startswith("scenario:") else 1])
    return res["winner"], reason, res["turn"], res["margin"]["influence_cards_earned"], r["choices"]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def run(games: int, players: int, bots: str, extra: dict, procs: int = 2, out_file: str | None = None) -> dict:
    jobs = [(seed, bots, players, extra) for seed in range(1, games + 1)]
    out = []
    with Pool(procs) as pool:
        # one line per game as it ends (in seed order), so a long run can be followed and its
        # finished games are kept if it is stopped
        for seed, (w, reason, turn, cards, choices) in zip(range(1, games + 1), pool.imap(_one, jobs), strict=True):
            out.append((w, reason, turn, cards, choices))
            if out_file:
                with open(out_file, "a") as fh:
                    fh.write(json.dumps({"scenario": extra.get("scenario", "standard"), "players": players, "bots": bots,
                                         "seed": seed, "winner": w, "reason": reason, "turns": turn,
                                         "influence_cards": cards, "choices": choices}) + "\n")
    wins = sum(1 for w, *_ in out if w == "players")
    lo, hi = wilson(wins, games)
    return {"scenario": extra.get("scenario", "standard"), "players": players, "bots": bots, "games": games,
            "wins": wins, "win_rate": round(wins / games, 3), "ci95": [round(lo, 3), round(hi, 3)],
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
    ap.add_argument("--scenarios", nargs="+", default=None, help="scenario ids (default: the --option one, or standard)")
    ap.add_argument("--out", default=None, help="append one JSON line per game to this file")
    a = ap.parse_args()
    extra = {}
    for kv in a.option:
        k, v = kv.split("=", 1)
        try:
            extra[k] = json.loads(v)
        except json.JSONDecodeError:
            extra[k] = v
    for scen in a.scenarios or [extra.get("scenario", "standard")]:
        for bots in a.bots:
            for n in a.players:
                print(json.dumps(run(a.games, n, bots, {**extra, "scenario": scen}, a.procs, a.out)), flush=True)


if __name__ == "__main__":
    main()
