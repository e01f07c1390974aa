"""Deterministic random numbers whose whole state lives inside the game state.

The engine never touches ``random`` or ``numpy.random``. A game keeps an RNG
record (a small JSON dict) in its state; every shuffle and die roll goes through
the functions here, so the same seed and the same choices always give the same
game, and a serialised state carries its future randomness with it.

The generator is SplitMix64 (Steele, Lea & Flood 2014): one 64-bit integer of
state, fast in pure Python and good enough for games.

Scripted values: ``options["script"]`` lets a test or a rulebook example force
the next results of a given *tag* (e.g. ``{"die": [3, 5]}``); once the script for
that tag runs out the generator takes over again.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class ScriptedValueError(ValueError):
    """A scripted value (``options["script"]``) the game cannot use where it is drawn."""


def new_rng(seed: int, script: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """A fresh RNG record for ``seed`` (any int), optionally with scripted values."""
    rec: dict[str, Any] = {"s": (int(seed) * 0x2545F4914F6CDD1D + _GOLDEN) & _MASK, "n": 0}
    if script:
        rec["script"] = {str(k): [int(v) for v in vals] for k, vals in script.items()}
    return rec


def next64(rec: dict[str, Any]) -> int:
    """Advance the generator and return the next 64-bit value."""
    s = (rec["s"] + _GOLDEN) & _MASK
    rec["s"] = s
    rec["n"] += 1
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def randbelow(rec: dict[str, Any], n: int) -> int:
    """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    if n == 1:
        return 0
    limit = (_MASK + 1) - ((_MASK + 1) % n)
    while True:
        v = next64(rec)
        if v < limit:
            return v % n


def _scripted(rec: dict[str, Any], tag: str) -> int | None:
    script = rec.get("script")
    if script:
        vals = script.get(tag)
        if vals:
            v = vals.pop(0)
            if not vals:
                del script[tag]
            if not script:
                del rec["script"]
            return v
    return None


def roll(rec: dict[str, Any], sides: int = 6, tag: str = "die") -> int:
    """Roll one die with ``sides`` faces (1..sides); honours a script for ``tag``."""
    forced = _scripted(rec, tag)
    if forced is not None:
        if not 1 <= forced <= sides:
            raise ScriptedValueError(f"scripted {tag} value {forced} outside 1..{sides}")
        return forced
    return randbelow(rec, sides) + 1


def pick_index(rec: dict[str, Any], n: int, tag: str = "pick") -> int:
    """Pick an index in ``[0, n)``; honours a script for ``tag``."""
    forced = _scripted(rec, tag)
    if forced is not None:
        if not 0 <= forced < n:
            raise ScriptedValueError(f"scripted {tag} index {forced} outside 0..{n - 1}")
        return forced
    return randbelow(rec, n)


def choice(rec: dict[str, Any], seq: Sequence[Any], tag: str = "pick") -> Any:
    """One element of a non-empty sequence."""
    if not seq:
        raise ValueError("choice from an empty sequence")
    return seq[pick_index(rec, len(seq), tag)]


def shuffle(rec: dict[str, Any], items: MutableSequence[Any]) -> None:
    """Fisher-Yates shuffle in place."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(rec, i + 1)
        items[i], items[j] = items[j], items[i]


class Rng:
    """Convenience wrapper for code (bots, simulations) that owns its own RNG record."""

    __slots__ = ("rec",)

    def __init__(self, seed: int = 0):
        self.rec = new_rng(seed)

    def randbelow(self, n: int) -> int:
        return randbelow(self.rec, n)

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[randbelow(self.rec, len(seq))]

    def random(self) -> float:
        return next64(self.rec) / float(1 << 64)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        shuffle(self.rec, items)
