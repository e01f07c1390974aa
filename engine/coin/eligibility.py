"""Initiative Track order (Guerrilla Generation 2.3.5).

Boxes are listed left to right; after both factions act, the faction whose cylinder is
furthest left becomes 1st Eligible. (Andean Abyss uses the classic eligible/ineligible
cylinders instead; it can keep its own module next to this one.)
"""

from __future__ import annotations


def next_order(boxes_left_to_right: list[str], placed: dict[str, str], current: list[str]) -> list[str]:
    """New [1st, 2nd] order from ``placed`` (faction -> box)."""
    pos = {b: i for i, b in enumerate(boxes_left_to_right)}
    if len(placed) < len(current):
        return list(current)
    return sorted(current, key=lambda f: (pos[placed[f]], current.index(f)))
