"""The flow of play as a stack of frames (STYLE.md: "Flow as a stack of frames").

A state keeps ``state["stack"]``: a list of plain dict frames, the top one last. Every frame
has a kind ``"k"``. A scenario registers one :class:`FrameKind` per kind:

- ``auto(state, frame, facts)`` for frames that need no decision (reveal a card, score a
  phase): it does its work and pops itself or pushes other frames;
- otherwise ``ask(state, frame) -> Ask`` lists the legal choices (the one source of
  legality) and ``act(state, frame, choice_id, facts)`` applies one of them.

An Event that grants a free Operation simply pushes an operation frame; the operation may
push a Special Activity frame; when each finishes it pops itself and control returns to
the frame below. A frame that has no legal choice left is popped (a fact records it), so
play can never get stuck.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.contract import Choice, fact


@dataclass(slots=True)
class Ask:
    seat: str
    text: str
    rule: str
    choices: list[Choice]
    context: dict = field(default_factory=dict)


@dataclass(slots=True)
class FrameKind:
    name: str
    ask: Callable[[dict, dict], Ask] | None = None
    act: Callable[[dict, dict, str, list], None] | None = None
    auto: Callable[[dict, dict, list], None] | None = None
    never_empty: bool = False   # its prompt always offers a choice (e.g. "done"): skip the check


class Flow:
    def __init__(self, kinds: list[FrameKind], max_auto: int = 10_000):
        self.kinds = {k.name: k for k in kinds}
        self.max_auto = max_auto

    def top(self, state: dict) -> dict | None:
        st = state["stack"]
        return st[-1] if st else None

    def settle(self, state: dict, facts: list) -> None:
        """Run automatic frames until a decision is needed or the stack is empty."""
        for _ in range(self.max_auto):
            st = state["stack"]
            if not st:
                return
            fr = st[-1]
            kind = self.kinds[fr["k"]]
            if kind.auto is not None:
                kind.auto(state, fr, facts)
                continue
            if kind.never_empty:
                return
            a = kind.ask(state, fr)
            if a.choices:
                return
            # nothing legal left in this frame: it ends here
            st.pop()
            facts.append(fact("note", f"{a.text}: nothing further is possible.", rule=a.rule))
        raise RuntimeError("flow did not settle (automatic frames loop)")

    def ask(self, state: dict) -> Ask | None:
        fr = self.top(state)
        if fr is None:
            return None
        return self.kinds[fr["k"]].ask(state, fr)

    def act(self, state: dict, choice_id: str, facts: list) -> None:
        fr = state["stack"][-1]
        self.kinds[fr["k"]].act(state, fr, choice_id, facts)
        self.settle(state, facts)


def pop(state: dict, frame: dict) -> None:
    """Remove ``frame`` (normally the top one) from the stack."""
    st = state["stack"]
    if st and st[-1] is frame:
        st.pop()
    else:
        st.remove(frame)


def push(state: dict, frame: dict[str, Any]) -> dict:
    state["stack"].append(frame)
    return frame
