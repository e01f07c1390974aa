"""1.6 Support and Opposition: five levels, -2 (Active Opposition) .. +2 (Active Support).

A shift moves one level toward a target; "set" places a level outright. Spaces that can
never hold Support or Opposition (0 Population, LoCs) are treated as Neutral by callers.
"""

from __future__ import annotations

ACTIVE_SUPPORT, PASSIVE_SUPPORT, NEUTRAL, PASSIVE_OPPOSITION, ACTIVE_OPPOSITION = 2, 1, 0, -1, -2

NAMES = {2: "Active Support", 1: "Passive Support", 0: "Neutral", -1: "Passive Opposition",
         -2: "Active Opposition"}
KEYS = {2: "active_support", 1: "passive_support", 0: "neutral", -1: "passive_opposition",
        -2: "active_opposition"}
FROM_KEY = {v: k for k, v in KEYS.items()}


def shifted(level: int, target: int, steps: int = 1) -> int:
    """``level`` moved up to ``steps`` levels toward ``target``."""
    for _ in range(steps):
        if level < target:
            level += 1
        elif level > target:
            level -= 1
    return level


def is_support(level: int) -> bool:
    return level > 0


def is_opposition(level: int) -> bool:
    return level < 0
