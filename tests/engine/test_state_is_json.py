"""``Rules.state_is_json``: a game that sets it promises that its state is plain JSON data and
that ``serialize``/``deserialize`` are only copies of it, key order included. The platform then
takes a freshly decoded JSON value as the state and encodes the state itself (issue #8), so the
promise is checked on random legal play: the serialized state, the state rebuilt from its JSON
text and the state itself are the same value with the same keys in the same order."""

from __future__ import annotations

import json
import random

import pytest

import engine

GAMES = ("peru", "andean_abyss", "tears_of_tyranny")


def _ordered(x) -> str:
    return json.dumps(x)  # keys in the order the dicts hold them


def _canonical(x) -> str:
    return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def test_tears_of_tyranny_declares_a_json_state():
    assert engine.load("tears_of_tyranny").state_is_json is True


@pytest.mark.parametrize("key", [k for k in GAMES if engine.load(k).state_is_json])
def test_a_json_state_is_its_own_serialization(key, random_move):
    rules = engine.load(key)
    steps = 0
    for seed in range(4):
        state = rules.setup(seed=seed, options={})
        rng = random.Random(seed)
        for _ in range(150):
            data = rules.serialize(state)
            assert _ordered(data) == _ordered(state), (key, seed, steps)
            assert _canonical(state) == _canonical(data), (key, seed, steps)
            decoded = json.loads(_canonical(state))
            rebuilt = rules.deserialize(decoded)
            assert _ordered(rebuilt) == _ordered(decoded), (key, seed, steps)
            move = random_move(rules, state, rng)
            if move is None:
                break
            seat, cid = move
            # the next step is the same whether played on the state or on its decoded JSON form
            fa = rules.apply_inplace(state, seat, cid)
            fb = rules.apply_inplace(decoded, seat, cid)
            assert _canonical(fa) == _canonical(fb) and _canonical(state) == _canonical(decoded), (key, seed, steps)
            steps += 1
    assert steps > 200


def test_a_tears_of_tyranny_copy_with_a_message_label_is_the_json_round_trip_without_its_text(monkeypatch):
    """``TearsOfTyranny.copy`` gives what ``json.loads(json.dumps(state))`` gives (its frames in
    the same key order), without the text when the state is plain data. A frame's label may be a message
    (``engine.core.messages.Msg``, a dict subclass): it is copied as the plain dict JSON makes of
    it, and does not send the whole frames through the round trip (issue 20: the bots copy the
    state about 15,000 times a game, the play page's previews once per choice)."""
    from engine.core.messages import Msg, msg
    from engine.scenarios.tears_of_tyranny import game

    rules = engine.load("tears_of_tyranny")
    state = rules.setup(seed=3, options={"players": 4})
    seat = state["seats"][0]
    state["frames"].setdefault(seat, []).append({"k": "effect", "ops": [], "i": 0, "label": msg("Roadside Charge"),
                                                 "moved": 0, "tile": None, "src": "c01"})
    assert type(state["frames"][seat][-1]["label"]) is Msg
    expected = json.loads(json.dumps(state))
    monkeypatch.setattr(game.json, "dumps", lambda *a, **k: pytest.fail("the copy took the JSON round trip"))
    copy = rules.copy(state)
    monkeypatch.undo()  # (the json module's own dumps: the comparisons below use it)
    assert _canonical(copy) == _canonical(expected)
    assert _ordered(copy["frames"]) == _ordered(expected["frames"])
    assert type(copy["frames"][seat][-1]["label"]) is dict
    # a tuple is not JSON: that part still takes the round trip, and comes back a list
    state["frames"][seat][-1]["ops"] = ("x", 1)
    assert rules.copy(state)["frames"][seat][-1]["ops"] == ["x", 1]
