"""Peru engine benchmark: complete random games/s, choices/s including prompt generation,
replay choices/s (apply_unchecked of a recorded game), and state copy cost.

Times are CPU seconds of this process (``time.process_time``), so that figures stay
comparable when other jobs share the machine; the load average is printed alongside.

    .venv/bin/python benchmarks/peru_bench.py [--games 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import time

import engine
from engine.bots.base import RandomBot


def record(rules, seed):
    state = rules.setup(seed)
    bots = {s: RandomBot(rules, s, seed) for s in rules.seat_ids()}
    log = []
    while True:
        p = rules.prompt(state)
        if p is None:
            return log
        seat = p.seats[0]
        cid = bots[seat].choose(state, p).choice_id
        rules.apply_unchecked(state, seat, cid)
        log.append((seat, cid))


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    rules = engine.load("peru")

    w0 = time.perf_counter()
    # 1. complete random games: prompt (legal choices) + bot + apply_unchecked per choice
    t0 = time.process_time()
    logs = [record(rules, a.seed + g) for g in range(a.games)]
    t_play = time.process_time() - t0
    w_play = time.perf_counter() - w0
    n = sum(len(x) for x in logs)

    # 2. the same with full validation (apply_inplace re-checks the prompt)
    t0 = time.process_time()
    for g, log in enumerate(logs[: max(1, a.games // 4)]):
        st = rules.setup(a.seed + g)
        for seat, cid in log:
            rules.apply_inplace(st, seat, cid)
    n_val = sum(len(x) for x in logs[: max(1, a.games // 4)])
    t_val = time.process_time() - t0

    # 3. replay: apply_unchecked of the recorded choices
    t0 = time.process_time()
    w0 = time.perf_counter()
    for g, log in enumerate(logs):
        st = rules.setup(a.seed + g)
        for seat, cid in log:
            rules.apply_unchecked(st, seat, cid)
    t_rep = time.process_time() - t0
    w_rep = time.perf_counter() - w0

    # 4. copy cost
    st = rules.setup(a.seed)
    t0 = time.process_time()
    for _ in range(20000):
        rules.copy(st)
    t_copy = (time.process_time() - t0) / 20000
    t0 = time.process_time()
    for _ in range(2000):
        rules.loads(rules.dumps(st))
    t_json = (time.process_time() - t0) / 2000

    out = {
        "load_average_1min": round(os.getloadavg()[0], 2),
        "games": a.games, "choices": n, "choices_per_game": round(n / a.games, 1),
        "games_per_s": round(a.games / t_play, 2),
        "choices_per_s_with_prompts": round(n / t_play),
        "choices_per_s_validated_apply": round(n_val / t_val),
        "replay_choices_per_s": round(n / t_rep),
        "wall_clock_choices_per_s_with_prompts": round(n / w_play),
        "wall_clock_replay_choices_per_s": round(n / w_rep),
        "copy_us": round(t_copy * 1e6, 1), "json_round_trip_us": round(t_json * 1e6, 1),
    }
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return out


if __name__ == "__main__":
    main()
