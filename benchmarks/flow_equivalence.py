"""Proof that a change of structure changed no ruling: identical digests at every choice.

    .venv/bin/python benchmarks/flow_equivalence.py --out /tmp/after.json [--seeds 20] \
        [--players 1 2 3 4] [--bots random heuristic] [--scenarios all]
    .venv/bin/python benchmarks/flow_equivalence.py --compare /tmp/before.json /tmp/after.json

Plays complete Tears of Tyranny games (every scenario panel, 1-4 players, random and heuristic
bots, ``--seeds`` seeds each) through the public contract and records, at every choice, a
digest of (the state, the whole prompt: every waiting seat's question, rule, kind and legal
choices with their labels, payloads, targets, costs and help, then the facts the choice
produced). Which waiting seat acts is drawn from a seeded generator, so simultaneous windows
are crossed in many orders. Run it on the code before a change (a ``git archive`` copy of the
base commit: ``PYTHONPATH=<copy>``) and after; ``--compare`` names the first choice where two
runs differ (over the games both runs hold). Used for issue 16.9 (Tears of Tyranny's flow moved onto ``engine/core``'s
protocol).

One change of the state's shape is mapped back before hashing, so runs before and after it compare:
the adversary phase's steps (``state["adv"]``) were a queue of ``{"s": step, ...}`` (next step
first) and are now a stack of frames ``{"k": step, ...}`` (next step on top, last). A stack of
frames is hashed as the queue it stands for (reversed, ``k`` read as ``s``), which is one-to-one:
two states hash alike only if they hold the same steps in the same order with the same fields.

``--ignore-causes`` leaves the facts' ``cause`` out of the digest: for a change that re-attributes
facts on purpose, it shows that nothing else (state, prompts, the facts themselves) moved.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
import time

import engine
from engine.bots.base import make_bot


def _default(o):
    if dataclasses.is_dataclass(o):
        return {f.name: getattr(o, f.name) for f in dataclasses.fields(o)}
    if isinstance(o, (set, frozenset, tuple)):
        return sorted(o, key=repr) if isinstance(o, (set, frozenset)) else list(o)
    if hasattr(o, "value"):
        return o.value
    return repr(o)


def _dump(x) -> str:
    return json.dumps(x, sort_keys=True, default=_default, separators=(",", ":"))


def prompt_record(p) -> list:
    if p is None:
        return []
    out = [list(p.seats), p.text, p.rule, p.kind, p.turn, p.context]
    for s in p.seats:
        out.append([s, p.text_for(s), p.rule_for(s), p.kind_for(s),
                    [_default(c) for c in p.choices_for(s)]])
    return out


def state_record(data: dict) -> dict:
    """The serialized state as hashed: the adversary stack as the queue it stands for (module docstring)."""
    adv = data.get("adv")
    if adv and "k" in adv[0]:
        data = {**data, "adv": [{("s" if k == "k" else k): v for k, v in fr.items()} for fr in reversed(adv)]}
    return data


def _uncaused(x):
    """``x`` (facts) without any ``cause`` key, at any depth (a fact's public part has its own)."""
    if isinstance(x, dict):
        return {k: _uncaused(v) for k, v in x.items() if k != "cause"}
    if isinstance(x, list):
        return [_uncaused(v) for v in x]
    return x


def play(rules, scenario: str, players: int, bots: str, seed: int, max_choices: int = 20_000,
         ignore_causes: bool = False) -> dict:
    state = rules.setup(seed=seed, options={"players": players, "scenario": scenario})
    seat_bots = {s: make_bot(rules, bots, s, seed) for s in rules.seat_ids()}
    who = random.Random(seed * 7919 + players)
    digests = []
    run = hashlib.sha256()
    while True:
        p = rules.prompt(state)
        h = hashlib.sha256()
        h.update(_dump(state_record(rules.serialize(state))).encode())
        h.update(_dump(prompt_record(p)).encode())
        if p is None:
            digests.append(h.hexdigest()[:16])
            run.update(h.digest())
            break
        seat = p.seats[who.randrange(len(p.seats))]
        decision = seat_bots[seat].choose(state, p)
        facts = rules.apply_inplace(state, seat, decision.choice_id)
        h.update(_dump([seat, decision.choice_id, _uncaused(facts) if ignore_causes else facts]).encode())
        digests.append(h.hexdigest()[:16])
        run.update(h.digest())
        if len(digests) > max_choices:
            raise RuntimeError(f"{scenario}/{players}/{bots}/{seed}: no end after {max_choices} choices")
    return {"game": f"{scenario}/p{players}/{bots}/s{seed}", "choices": len(digests) - 1, "digest": run.hexdigest(),
            "steps": digests}


def compare(a_path: str, b_path: str) -> int:
    a = {g["game"]: g for g in json.load(open(a_path))["games"]}
    b = {g["game"]: g for g in json.load(open(b_path))["games"]}
    common = [k for k in a if k in b]
    if not common:
        print("no game in common")
        return 1
    bad = 0
    choices = 0
    for k in common:
        choices += a[k]["choices"]
        if a[k]["digest"] != b[k]["digest"]:
            bad += 1
            sa, sb = a[k]["steps"], b[k]["steps"]
            i = next((i for i, (x, y) in enumerate(zip(sa, sb, strict=False)) if x != y), min(len(sa), len(sb)))
            print(f"{k}: first difference at choice {i} (of {len(sa)} / {len(sb)})")
    print(json.dumps({"games_compared": len(common), "only_in_first": len(a) - len(common),
                      "only_in_second": len(b) - len(common), "choices_compared": choices, "games_differing": bad}))
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--bots", nargs="+", default=["random", "heuristic"])
    ap.add_argument("--scenarios", nargs="+", default=["all"])
    ap.add_argument("--compare", nargs=2)
    ap.add_argument("--ignore-causes", action="store_true", help="leave the facts' causes out of the digest")
    a = ap.parse_args(argv)
    if a.compare:
        return compare(*a.compare)
    rules = engine.load("tears_of_tyranny")
    from engine.scenarios.tears_of_tyranny.data import content
    scenarios = sorted(content().scenarios) if a.scenarios == ["all"] else a.scenarios
    games = []
    t0 = time.perf_counter()
    for scen in scenarios:
        for n in a.players:
            for bots in a.bots:
                for seed in range(a.first_seed, a.first_seed + a.seeds):
                    games.append(play(rules, scen, n, bots, seed, ignore_causes=a.ignore_causes))
        print(f"{scen}: {len(games)} games, {sum(g['choices'] for g in games)} choices, "
              f"{time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
        summary = _save(a.out, games)      # after each scenario: a long run that is stopped keeps its part
    print(json.dumps(summary))
    return 0


def _save(out: str | None, games: list) -> dict:
    total = hashlib.sha256("".join(g["digest"] for g in games).encode()).hexdigest()
    summary = {"games": len(games), "choices": sum(g["choices"] for g in games), "digest": total}
    if out:
        with open(out, "w") as f:
            json.dump({**summary, "games": games}, f)
    return summary


if __name__ == "__main__":
    sys.exit(main())
