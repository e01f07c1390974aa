"""Eligible / Ineligible cylinders (COIN series classic Sequence of Play, e.g. Andean Abyss 2.3).

Factions whose cylinder is Eligible act in the left-to-right order of the card's faction
symbols; up to two execute; executing an Operation or Event makes a Faction Ineligible for
the next card (2.3.7), Passing keeps it Eligible, and Events may override either way. The
Peru game uses the initiative track instead (:mod:`engine.coin.eligibility`).

Faction ids are whatever the scenario uses (strings or ints).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

# What the 2nd Eligible Faction may do after the 1st executed ... (2.3.4)
SECOND_OPTIONS = {
    "op": ("limited_op",),
    "op_sa": ("limited_op", "event"),
    "event": ("op",),
}


def eligible_order(card_order: Iterable[Hashable], eligible: Mapping) -> list:
    """The Eligible Factions in the card's left-to-right order (2.3.2)."""
    return [f for f in card_order if eligible.get(f)]


def adjust(factions: Iterable[Hashable], executed: Iterable[Hashable], stay_eligible: Iterable[Hashable] = (),
           ineligible_next: Iterable[Hashable] = ()) -> dict:
    """2.3.7: the new Eligible flags after a card."""
    executed, stay, forced = set(executed), set(stay_eligible), set(ineligible_next)
    return {f: (f not in executed or f in stay) and f not in forced for f in factions}
