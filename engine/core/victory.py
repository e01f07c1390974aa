"""Victory progress: each condition that ends a game, and how far it is from being met.

``Rules.victory(state)`` returns a list of :class:`Condition`: who wins (or loses) by it, what
it is (a message), the measure it reads now, the target, and the rulebook reference. The play
page's victory panel shows them for the student's own side and the others, so a student who
has not read the rulebook sees what wins and how close each side is. Only public quantities
are read (the same as ``metrics``), so every seat may see every condition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: How a measure is compared with its target.
AT_LEAST, MORE_THAN, AT_MOST, LESS_THAN, EQUAL = ">=", ">", "<=", "<", "=="


@dataclass(frozen=True, slots=True)
class Condition:
    """One victory (or defeat) condition and where the game stands against it.

    ``side``     the seat that wins by it, or ``players`` / ``adversary`` in a cooperative game.
    ``outcome``  ``"win"`` or ``"lose"`` (for ``side``), or ``"state"`` for a change of the
                 game's state that is no end in itself (Tears of Tyranny's state of tyranny).
    ``name``     a message: the condition in a sentence ("Total Support above 60").
    ``measure``  a message naming what is measured ("Total Support").
    ``value``    the measure now; ``target`` the threshold; ``compare`` one of the constants.
    ``when``     a message: when it is checked ("at each Propaganda Round"), or None.
    ``rule``     the rulebook reference.
    ``active``   False when the condition does not apply now (another influence level).
    """

    side: str
    outcome: str
    name: Any
    measure: Any
    value: float
    target: float
    compare: str
    rule: str
    when: Any = None
    active: bool = True

    @property
    def met(self) -> bool:
        v, t = self.value, self.target
        return {AT_LEAST: v >= t, MORE_THAN: v > t, AT_MOST: v <= t, LESS_THAN: v < t, EQUAL: v == t}[self.compare]

    @property
    def distance(self) -> float:
        """How far the measure must still move to meet the condition (0 when met)."""
        if self.met:
            return 0
        v, t = self.value, self.target
        if self.compare in (AT_LEAST, MORE_THAN):
            return t - v + (1 if self.compare == MORE_THAN else 0)
        if self.compare in (AT_MOST, LESS_THAN):
            return v - t + (1 if self.compare == LESS_THAN else 0)
        return abs(v - t)

    def to_dict(self) -> dict:
        return {"side": self.side, "outcome": self.outcome, "name": self.name, "measure": self.measure,
                "value": self.value, "target": self.target, "compare": self.compare, "rule": self.rule,
                "when": self.when, "active": self.active, "met": self.met, "distance": self.distance}
