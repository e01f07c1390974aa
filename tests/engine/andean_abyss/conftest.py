"""Helpers for Andean Abyss rule tests: crafted positions and choice sequences."""

from __future__ import annotations

import pytest

import engine
from engine.scenarios.andean_abyss import pieces as P
from engine.scenarios.andean_abyss.board import BOARD as BD
from engine.scenarios.andean_abyss.board import INV_SLOT, PIECE_KEYS

RULES = engine.load("andean_abyss")

# short keys for crafted positions
KEY = {"troops": 0, "police": 1, "gbase": 2, "farc_u": 3, "farc_a": 4, "farc_base": 5, "auc_u": 6, "auc_a": 7,
       "auc_base": 8, "car_u": 9, "car_a": 10, "car_base": 11}


def new(deck=None, seed=1, **options):
    """A game whose deck starts with ``deck`` (card numbers, 'P' for Propaganda)."""
    opts = dict(options)
    if deck is not None:
        opts["deck"] = list(deck) + [c for c in range(1, 73) if c not in deck][:6]
    return RULES.setup(seed, opts)


def clear(st):
    """Remove every piece, marker and Support level (a blank map)."""
    for i in range(BD.n):
        for k in range(12):
            n = st["pc"][i][k]
            if n:
                st["pc"][i][k] = 0
                st["av"][k - 1 if k in (4, 7, 10) else k] += n
        st["sup"][i] = 0
        st["ter"][i] = 0
        st["sab"][i] = 0
    st["zones"] = []
    st["ship"] = []
    st["seq"] += 1
    return st


def put(st, sid, **pieces):
    i = BD.index[sid]
    for k, n in pieces.items():
        if k == "sup":
            st["sup"][i] = n
            continue
        slot = KEY[k]
        avail = slot - 1 if slot in (4, 7, 10) else slot
        assert st["av"][avail] >= n, f"not enough {k} available"
        st["av"][avail] -= n
        st["pc"][i][slot] += n
    st["seq"] += 1
    return st


def pc(st, sid):
    """Pieces in a space as {short key: n}."""
    inv = {v: k for k, v in KEY.items()}
    return {inv[k]: n for k, n in enumerate(st["pc"][BD.index[sid]]) if n}


def ids(st):
    p = RULES.prompt(st)
    return [c.id for c in p.choices] if p else []


def play(st, *choices):
    """Apply choices in order, each by the seat the prompt names; returns all facts."""
    facts = []
    for cid in choices:
        p = RULES.prompt(st)
        assert p is not None, f"game over before {cid}"
        assert cid in [c.id for c in p.choices], f"{cid} not in {[c.id for c in p.choices]} ({p.text})"
        facts += RULES.apply_inplace(st, p.seats[0], cid)
    return facts


def auto(st, stop=("elig",), limit=300):
    """Answer prompts with the section-8 choices (NonPlayerBot) until a prompt of a kind in
    ``stop`` (or the end of the game)."""
    from engine.scenarios.andean_abyss.np_bot import NonPlayerBot
    for _ in range(limit):
        p = RULES.prompt(st)
        if p is None or p.kind in stop:
            return st
        seat = p.seats[0]
        cid = NonPlayerBot(RULES, seat, 1).choose(st, p).choice_id
        RULES.apply_inplace(st, seat, cid)
    raise AssertionError("no end of automatic resolution")


def conserved(st):
    """1.4.1: pieces on the map + Available + out of play = inventory, per kind."""
    for slot in INV_SLOT.values():
        on_map = sum(p[slot] for p in st["pc"])
        if slot in (3, 6, 9):
            on_map += sum(p[slot + 1] for p in st["pc"])
        if on_map + st["av"][slot] + st["oop"][slot] != BD.inventory[slot]:
            return False
    return True


@pytest.fixture
def rules():
    return RULES


__all__ = ["RULES", "BD", "P", "PIECE_KEYS", "new", "clear", "put", "pc", "ids", "play", "conserved", "auto"]
