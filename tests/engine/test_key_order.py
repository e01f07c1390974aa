"""A game's answer to a choice must not depend on the order of the keys in its serialized
state. The platform stores the state in a PostgreSQL jsonb column, which gives object keys
back in its own order (shorter keys first), and replays rebuild states in sorted-key order;
an engine that walks a dict in insertion order would log facts that a replay does not
reproduce (found in Peru's March, 3.3.2: Guerrillas activated per origin in the order moved).

For every game, random legal play: at each step the same choice is applied to the state
rebuilt with sorted keys and with jsonb's key order, and the facts and the next state must be
the same."""

from __future__ import annotations

import functools
import json
import random

import pytest

import engine

GAMES = ("peru", "andean_abyss", "tears_of_tyranny")


@functools.cache
def _jsonb_key(k: str) -> tuple[int, bytes]:
    """jsonb's order of object keys: shorter (in bytes) first, then bytewise. A state has a few
    hundred distinct keys, met millions of times in this test: each is worked out once."""
    b = k.encode()
    return len(b), b


def _jsonb_order(x):
    if isinstance(x, dict):
        return {k: _jsonb_order(x[k]) for k in sorted(x, key=_jsonb_key)}
    if isinstance(x, list):
        return [_jsonb_order(v) for v in x]
    return x


def _dump(x) -> str:
    return json.dumps(x, sort_keys=True, default=str)


@pytest.mark.parametrize("key", GAMES)
def test_facts_do_not_depend_on_the_key_order_of_the_saved_state(key, random_move):
    rules = engine.load(key)
    steps = 0
    for seed in range(8):
        state = rules.setup(seed=seed, options={})
        # the saved state, as JSON with sorted keys (as json.dumps gives it: no default, so a value
        # that does not serialize fails here)
        saved = json.dumps(rules.serialize(state), sort_keys=True)
        rng = random.Random(seed)
        for _ in range(250):
            move = random_move(rules, state, rng)
            if move is None:
                break
            seat, cid = move
            # the saved state read back in sorted-key order, and in jsonb's order (_jsonb_order
            # builds new dicts and lists: the two states share nothing mutable)
            data = json.loads(saved)
            jsonb = _jsonb_order(data)
            a, b = rules.deserialize(data), rules.deserialize(jsonb)
            fa, fb = rules.apply_inplace(a, seat, cid), rules.apply_inplace(b, seat, cid)
            assert _dump(fa) == _dump(fb), (key, seed, steps, cid)
            saved = json.dumps(rules.serialize(a), sort_keys=True)  # the next step's saved state
            assert saved == json.dumps(rules.serialize(b), sort_keys=True), (key, seed, steps, cid)
            state = a
            steps += 1
    assert steps > 500
