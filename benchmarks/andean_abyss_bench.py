"""Andean Abyss engine benchmark (random legal play).

Reports, over complete games played by the random-legal bot in every seat:

1. choices/s including prompt generation (prompt + bot + apply_unchecked per choice),
   and cards played per second (a unit independent of how finely decisions are split);
2. the same with full validation (apply_inplace re-checks every choice against the prompt);
3. replay choices/s (apply_unchecked of the recorded choices from the seed);
4. complete games with the section-8 Non-player flowcharts in every seat.

    .venv/bin/python benchmarks/andean_abyss_bench.py [--games 100] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import engine
from engine.bots.base import RandomBot
from engine.core.simulate import simulate


def record(rules, seed):
    state = rules.setup(seed)
    bots = {s: RandomBot(rules, s, seed) for s in rules.seat_ids()}
    log = []
    while True:
        p = rules.prompt(state)
        if p is None:
            return log, rules.cards_played(state)
        seat = p.seats[0]
        cid = bots[seat].choose(state, p).choice_id
        rules.apply_unchecked(state, seat, cid)
        log.append((seat, cid))


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    rules = engine.load("andean_abyss")

    t0, c0 = time.perf_counter(), time.process_time()
    recs = [record(rules, a.seed + g) for g in range(a.games)]
    t_play, c_play = time.perf_counter() - t0, time.process_time() - c0
    logs = [r[0] for r in recs]
    n = sum(len(x) for x in logs)
    cards = sum(r[1] for r in recs)

    k = max(1, a.games // 4)
    t0 = time.perf_counter()
    for g, log in enumerate(logs[:k]):
        st = rules.setup(a.seed + g)
        for seat, cid in log:
            rules.apply_inplace(st, seat, cid)
    n_val = sum(len(x) for x in logs[:k])
    t_val = time.perf_counter() - t0

    t0, c0 = time.perf_counter(), time.process_time()
    for g, log in enumerate(logs):
        st = rules.setup(a.seed + g)
        for seat, cid in log:
            rules.apply_unchecked(st, seat, cid)
    t_rep, c_rep = time.perf_counter() - t0, time.process_time() - c0

    c0 = time.process_time()
    np_out = simulate(rules, seed=a.seed, games=a.games, bots="nonplayer")
    c_np = time.process_time() - c0

    out = {
        "games": a.games,
        "choices": n,
        "cards": cards,
        "choices_per_s_with_prompts": round(n / t_play),
        "cards_per_s": round(cards / t_play, 1),
        "choices_per_s_validated": round(n_val / t_val),
        "replay_choices_per_s": round(n / t_rep),
        "cpu_choices_per_s_with_prompts": round(n / c_play),
        "cpu_cards_per_s": round(cards / c_play, 1),
        "cpu_replay_choices_per_s": round(n / c_rep),
        "nonplayer_games": np_out["games"],
        "nonplayer_finished": np_out["finished"],
        "nonplayer_cards_per_s": np_out["cards_per_s"],
        "nonplayer_choices_per_s": np_out["choices_per_s"],
        "cpu_nonplayer_cards_per_s": round(np_out["cards"] / c_np, 2),
    }
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        for key, v in out.items():
            print(f"{key}: {v}")
    return out


if __name__ == "__main__":
    main()
