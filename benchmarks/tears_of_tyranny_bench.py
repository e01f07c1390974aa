"""Tears of Tyranny engine speed: complete games/s and choices/s (random-legal bots).

    .venv/bin/python benchmarks/tears_of_tyranny_bench.py [--games 40] [--players 1 2 3 4] [--bots random]
    .venv/bin/python benchmarks/compare_commits.py --base <commit> --bench tears_of_tyranny_bench.py \
        --rounds 2 -- --games 10 --players 1 4      # side by side with an earlier commit, in one run

Plays complete games through the public contract (``prompt`` -> bot -> ``apply_inplace``, the
path ``coinlab simulate`` uses, which validates every choice against the prompt) on one core and
prints one JSON line per player count. Record the figures in docs/benchmarks.md, section
"Tears of Tyranny engine".
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import engine
from engine.core.simulate import play_game


def bench(players: int, games: int, bots: str, seed: int = 1) -> dict:
    rules = engine.load("tears_of_tyranny")
    t0 = time.perf_counter()
    c0 = time.process_time()
    choices = cards = 0
    for g in range(games):
        r = play_game(rules, seed=seed + g, bots=bots, options={"players": players})
        choices += r["choices"]
        cards += r["cards"]
    dt = time.perf_counter() - t0
    cpu = max(time.process_time() - c0, 1e-9)
    return {"players": players, "bots": bots, "games": games, "seconds": round(dt, 2), "cpu_seconds": round(cpu, 2),
            "choices_per_cpu_s": round(choices / cpu, 1), "games_per_cpu_s": round(games / cpu, 2),
            "games_per_s": round(games / dt, 2), "choices_per_s": round(choices / dt, 1),
            "cards_per_s": round(cards / dt, 1), "choices_per_game": round(choices / games, 1),
            "python": platform.python_version()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--bots", default="random")
    ap.add_argument("--json", action="store_true",
                    help="one JSON object, figures keyed p<players>_<figure> (benchmarks/compare_commits.py)")
    a = ap.parse_args()
    if a.json:
        out = {}
        for n in a.players:
            out.update({f"p{n}_{k}": v for k, v in bench(n, a.games, a.bots).items()
                        if isinstance(v, (int, float)) and k != "players"})
        print(json.dumps(out), flush=True)
        return
    for n in a.players:
        print(json.dumps(bench(n, a.games, a.bots)), flush=True)


if __name__ == "__main__":
    main()
