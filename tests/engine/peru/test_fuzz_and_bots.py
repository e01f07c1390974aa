"""Random complete games through the fuzz script, and the heuristic bots."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from engine.core.simulate import simulate

from .conftest import RULES

ROOT = Path(__file__).resolve().parents[3]


def _fuzz():
    spec = importlib.util.spec_from_file_location("peru_fuzz", ROOT / "benchmarks" / "peru_fuzz.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_fuzz_30_random_games_finish_with_invariants():
    assert _fuzz().main(["--games", "30", "--seed", "500"]) == 0


def test_heuristic_bots_finish_games():
    out = simulate(RULES, seed=3, games=2, bots="heuristic")
    assert out["finished"] == 2


def test_simulate_random_is_deterministic():
    a = simulate(RULES, seed=9, games=2, bots="random")
    b = simulate(RULES, seed=9, games=2, bots="random")
    assert a["results"] == b["results"]
