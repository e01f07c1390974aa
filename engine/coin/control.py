"""1.7 Control: a faction Controls a space when its counted pieces outnumber all others'.

Works for two factions (Peru) and for four (Andean Abyss: Government vs. all others combined
and FARC vs. all others combined). Which pieces count (e.g. only Active Rondas) is the
scenario's business: pass the counts.
"""

from __future__ import annotations

from collections.abc import Mapping


def controller(counts: Mapping[str, int]) -> str:
    """The faction whose pieces outnumber all other factions' combined, or "" (Uncontrolled)."""
    total = sum(counts.values())
    for faction, n in counts.items():
        if n > total - n:
            return faction
    return ""


def two_sided(a: int, b: int, fa: str, fb: str) -> str:
    """The two-faction case of :func:`controller` without building a dict (hot path)."""
    return fa if a > b else fb if b > a else ""
