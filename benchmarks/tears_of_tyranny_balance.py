"""Tears of Tyranny balance runs: win rates of random and heuristic bots per player count.

    .venv/bin/python benchmarks/tears_of_tyranny_balance.py --games 40 --players 1 2 3 4 --bots random heuristic
    .venv/bin/python benchmarks/tears_of_tyranny_balance.py --games 100 --bots heuristic \
        --scenarios standard blitz frozen_conflict popular_spring --out benchmarks/results/tot_balance.jsonl

Each row prints the win rate with its 95 % Wilson score interval; ``--out`` appends one JSON line
per game (scenario, players, bots, seed, winner, reason, turns, influence cards, choices, and the
row's starting-condition knobs) so every figure can be checked seed by seed.

Tuning (issue 16.11): ``--by-players '{"start_resources_bonus": 1}'`` plays the rows with that
``by_players`` entry in place of the scenario's own (data/scenarios.json is not touched), and
``--first-seed S`` plays seeds S..S+N-1, so a long row can be run in pieces; ``--summary FILE``
prints each row's figures from a per-seed file instead of playing. Each game is ``engine.core.simulate.play_game`` with the given bots in every seat and seeds
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

    seed, bots, players, extra, knobs = args
    rules = engine.load("tears_of_tyranny")
    if knobs is not None:
        # tuning: this process's scenario panel gets the knobs for this player count
        from engine.scenarios.tears_of_tyranny.data import content
        content().scenarios[extra["scenario"]]["by_players"][str(players)] = knobs
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


def row_knobs(scenario: str, players: int) -> dict:
    from engine.scenarios.tears_of_tyranny.data import content
    return content().scenarios[scenario].get("by_players", {}).get(str(players), {})


def run(games: int, players: int, bots: str, extra: dict, procs: int = 2, out_file: str | None = None,
        knobs: dict | None = None, first_seed: int = 1) -> dict:
    seeds = range(first_seed, first_seed + games)
    jobs = [(seed, bots, players, extra, knobs) for seed in seeds]
    used = knobs if knobs is not None else row_knobs(extra.get("scenario", "standard"), players)
    out = []
    with Pool(procs) as pool:
        # one line per game as it ends (in seed order), so a long run can be followed and its
        # finished games are kept if it is stopped
        for seed, (w, reason, turn, cards, choices) in zip(seeds, pool.imap(_one, jobs), strict=True):
            out.append((w, reason, turn, cards, choices))
            if out_file:
                with open(out_file, "a") as fh:
                    fh.write(json.dumps({"scenario": extra.get("scenario", "standard"), "players": players, "bots": bots,
                                         "seed": seed, "winner": w, "reason": reason, "turns": turn,
                                         "influence_cards": cards, "choices": choices, "knobs": used}) + "\n")
    return summarize(extra.get("scenario", "standard"), players, bots, out, used)


def summarize(scenario: str, players: int, bots: str, out: list, knobs: dict) -> dict:
    games = len(out)
    wins = sum(1 for w, *_ in out if w == "players")
    lo, hi = wilson(wins, games)
    return {"scenario": scenario, "players": players, "bots": bots, "knobs": knobs, "games": games,
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
    ap.add_argument("--by-players", default=None, metavar="JSON",
                    help="tuning: this by_players entry (a JSON object) in place of the scenario's own")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--summary", default=None, metavar="FILE",
                    help="print each row's figures from this per-seed file (last line per seed wins)")
    a = ap.parse_args()
    if a.summary:
        rows: dict = {}
        for line in open(a.summary):
            d = json.loads(line)
            rows.setdefault((d["scenario"], d["players"], d["bots"]), {})[d["seed"]] = d
        for (scen, n, bots), by_seed in rows.items():
            games = [by_seed[s] for s in sorted(by_seed)]
            out = [(d["winner"], d["reason"], d["turns"], d["influence_cards"], d["choices"]) for d in games]
            print(json.dumps(summarize(scen, n, bots, out, games[-1].get("knobs"))), flush=True)
        return
    knobs = json.loads(a.by_players) if a.by_players is not None else None
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
                print(json.dumps(run(a.games, n, bots, {**extra, "scenario": scen}, a.procs, a.out, knobs, a.first_seed)), flush=True)


if __name__ == "__main__":
    main()
