"""Benchmark of the AAR's "road not taken" section: 5 key decisions, each played on from just
before it with the chosen option and 3 alternatives, N bot games per option.

    .venv/bin/python benchmarks/aar_whatif_bench.py [--scenario peru|andean_abyss|tears_of_tyranny|all]
        [--seed 3] [--decisions 5] [--rollouts 8] [--json]

Plays one complete game (the log a session would hold; see aar_bench.full_game_bundle), builds
the report model, then times ``whatif.whatifs_for`` alone (the states before each decision are
replayed from the seed first and not timed, as the site loads them from its snapshots). Budget
(issue 17): under 20 s for Peru, under 60 s for Andean Abyss and Tears of Tyranny, on the
project's 2-core machine. Prints the rollouts behind each figure and a digest of the margins,
which must be the same on every run (determinism).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

BUDGET_S = {"peru": 20, "andean_abyss": 60, "tears_of_tyranny": 60}


def states_before(rules, bundle: dict, seqs: set[int]) -> dict[int, object]:
    """The state just before each event in ``seqs``, replayed from the seed."""
    state = rules.setup(seed=bundle["session"]["seed"], options={})
    out = {}
    for e in bundle["events"]:
        if e["seq"] in seqs:
            out[e["seq"]] = rules.copy(state)
        if e["kind"] in ("decision", "bot") and e.get("seat"):
            rules.apply_inplace(state, e["seat"], e["payload"]["choice"])
    return out


def run(scenario: str, seed: int, decisions: int, rollouts: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
    from aar_bench import full_game_bundle

    import engine
    from facilitation.reports.builder.report import build_report
    from facilitation.reports.builder.whatif import key_decisions, whatifs_for

    rules = engine.load(scenario)
    bundle = full_game_bundle(scenario, seed)
    model = build_report(bundle)
    seqs = {q for m in key_decisions(model, decisions) for q in range(m.row.first_seq, m.row.last_seq + 1)}
    states = states_before(rules, bundle, seqs)
    t0 = time.perf_counter()
    c0 = time.process_time()
    ws = whatifs_for(model, rules, lambda seq: rules.copy(states[seq]) if seq in states else None,
                     decisions=decisions, rollouts=rollouts, seed=seed)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    digest = hashlib.sha256(json.dumps([[o.margins for o in w.options] for w in ws]).encode()).hexdigest()[:12]
    return {
        "scenario": scenario, "seed": seed, "decisions": len(ws), "options": sum(len(w.options) for w in ws),
        "rollouts_per_option": rollouts, "games": sum(o.n for w in ws for o in w.options),
        "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "budget_s": BUDGET_S[scenario],
        "met": wall < BUDGET_S[scenario], "digest": digest, "load": os.getloadavg()[0],
        "figures": [{"seq": w.seq, "team": w.team, "actual": w.actual_margin,
                     "options": [(o.label[:40], o.n, o.mean) for o in w.options]} for w in ws],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", default="all")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--decisions", type=int, default=5)
    ap.add_argument("--rollouts", type=int, default=8)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
    django.setup()
    scenarios = ["peru", "andean_abyss", "tears_of_tyranny"] if a.scenario == "all" else [a.scenario]
    for sc in scenarios:
        r = run(sc, a.seed, a.decisions, a.rollouts)
        if a.json:
            print(json.dumps(r))
            continue
        print(f"{sc}: {r['decisions']} decisions, {r['options']} options x {r['rollouts_per_option']} rollouts = "
              f"{r['games']} games in {r['wall_s']} s wall ({r['cpu_s']} s CPU; budget {r['budget_s']} s: "
              f"{'met' if r['met'] else 'NOT met'}); load {r['load']:.2f}; digest {r['digest']}")
        for f in r["figures"]:
            print(f"  event {f['seq']} {f['team']}: actual {f['actual']}; "
                  + "; ".join(f"{lab}: n={n} mean={mean}" for lab, n, mean in f["options"]))


if __name__ == "__main__":
    main()
