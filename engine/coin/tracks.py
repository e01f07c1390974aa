"""Bounded tracks (1.8, 1.10): values stay within [lo, hi]; every change is a fact.

The fact carries ``track``, ``delta`` (the change actually made after clamping),
``value`` (the new value) and ``cause`` so an AAR can name the cause of every move.
"""

from __future__ import annotations

from engine.core.contract import fact


def clamp(v: int, lo: int = 0, hi: int = 20) -> int:
    return lo if v < lo else hi if v > hi else v


def change(values: dict, key: str, delta: int, cause: str, facts: list, title: str,
           lo: int = 0, hi: int = 20, track: str | None = None, **extra) -> int:
    """Add ``delta`` to ``values[key]`` within bounds; append a track fact (named ``track``,
    by default ``key``: use the metric's name); return the real delta."""
    old = values[key]
    new = clamp(old + delta, lo, hi)
    values[key] = new
    real = new - old
    if delta:
        sign = "+" if real >= 0 else ""
        facts.append(fact("track", f"{title} {sign}{real} to {new} ({cause})", track=track or key,
                          delta=real, value=new, cause=cause, **extra))
    return real
