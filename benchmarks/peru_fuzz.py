"""Fuzz the Peru engine: N complete random games, checking invariants after every choice.

    .venv/bin/python benchmarks/peru_fuzz.py --games 10000 [--seed 0]

Exit status 1 on the first failure (the seed and step are printed to reproduce it).
Invariants: a legal choice exists until the game ends; piece totals are conserved; no
negative counts; at most 2 Bases per space; tracks within 0-20; Control markers match the
pieces (outside the Redeploy step); the game ends.
"""

from __future__ import annotations

import argparse
import sys
import time

import engine
from engine.bots.base import RandomBot
from engine.scenarios.peru.state import control_of, piece_totals


def check(state: dict, totals: dict) -> None:
    assert piece_totals(state) == totals, (piece_totals(state), totals)
    for k, v in state["avail"].items():
        assert v >= 0, ("available", k, v)
    for sid, sp in state["s"].items():
        for k in ("T", "P", "Ru", "Ra", "Gu", "Ga", "B", "D", "ter", "sab"):
            assert sp[k] >= 0, (sid, k)
        assert sp["B"] + sp["D"] <= 2, (sid, "stacking")
        if not any(f["k"] == "redeploy" for f in state["stack"]):
            assert sp["ctl"] == control_of(sp, sid), (sid, "control")
    assert 0 <= state["pw"] <= 20 and all(0 <= v <= 20 for v in state["res"].values())


def play(rules, seed: int, max_choices: int = 50_000) -> int:
    state = rules.setup(seed)
    totals = piece_totals(state)
    bots = {s: RandomBot(rules, s, seed) for s in rules.seat_ids()}
    n = 0
    while True:
        p = rules.prompt(state)
        if p is None:
            assert rules.result(state) is not None
            return n
        seat = p.seats[0]
        assert p.choices, f"no legal choice at {p.kind}: {p.text}"
        rules.apply_inplace(state, seat, bots[seat].choose(state, p).choice_id)
        n += 1
        check(state, totals)
        assert n < max_choices, "game does not end"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    rules = engine.load("peru")
    t0 = time.perf_counter()
    total = 0
    for seed in range(a.seed, a.seed + a.games):
        try:
            total += play(rules, seed)
        except Exception as exc:  # report and fail
            print(f"FAIL seed={seed}: {exc!r}")
            return 1
    dt = time.perf_counter() - t0
    print(f"ok: {a.games} games, {total} choices, {dt:.1f}s ({a.games / dt:.1f} games/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
