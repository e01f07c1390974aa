"""ARCHITECTURE.md, "The engine contract": a state is a JSON document.

A web process or Celery worker loads a saved state it did not create and asks
for its prompt. Nothing may depend on what else the process has done before
(registries filled lazily, caches warmed by play): a fresh interpreter must
give exactly the same prompts for the same serialised states.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.bots.base import RandomBot

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys
import engine
rules = engine.load(sys.argv[1])
out = []
for text in json.load(open(sys.argv[2])):
    p = rules.prompt(rules.deserialize(json.loads(text)))
    out.append(None if p is None else [list(p.seats), sorted(c.id for s in p.seats for c in p.choices_for(s))])
print(json.dumps(out))
"""


def _sample_states(key: str, every: int = 7, limit: int = 150):
    rules = engine.load(key)
    texts, expected = [], []
    for seed in (1, 2):
        state = rules.setup(seed=seed, options={})
        bots = {s: RandomBot(rules, s, seed) for s in rules.seat_ids()}
        n = 0
        while len(texts) < limit:
            p = rules.prompt(state)
            if n % every == 0 or p is None:
                texts.append(json.dumps(rules.serialize(state)))
                expected.append(None if p is None else
                                [list(p.seats), sorted(c.id for s in p.seats for c in p.choices_for(s))])
            if p is None:
                break
            seat = p.seats[0]
            rules.apply_inplace(state, seat, bots[seat].choose(state, p).choice_id)
            n += 1
    return texts, expected


@pytest.mark.parametrize("key", ["peru", "andean_abyss", "tears_of_tyranny"])
def test_a_fresh_process_gives_the_same_prompts_for_saved_states(key, tmp_path):
    texts, expected = _sample_states(key)
    assert len(texts) > 20
    f = tmp_path / "states.json"
    f.write_text(json.dumps(texts))
    run = subprocess.run([sys.executable, "-c", CHILD, key, str(f)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout) == expected
