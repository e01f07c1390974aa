"""Capabilities (COIN 5.3): an executed Capability Event stays in effect for the game.

A state keeps ``state["caps"]``: card id -> the side in effect ("top"/"bottom", i.e.
unshaded/shaded). Momentum-style effects that end at the next Propaganda can use another
key with :func:`clear`.
"""

from __future__ import annotations

from engine.core.contract import fact


def side(state: dict, card: str, key: str = "caps") -> str | None:
    """The side of ``card`` in effect, or None."""
    return state[key].get(card)


def put(state: dict, card: str, which: str, facts: list, key: str = "caps") -> None:
    state[key][card] = which
    facts.append(fact("capability", f"Capability {card} ({which}) is in effect for the rest of the game (5.3).",
                      card=card, side=which))


def clear(state: dict, key: str, facts: list) -> None:
    if state.get(key):
        facts.append(fact("capability", f"Lasting effects ended: {', '.join(sorted(state[key]))}.",
                          cards=sorted(state[key])))
        state[key] = {}
