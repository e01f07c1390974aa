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

Step-driven kinds (used by Andean Abyss). A kind may instead declare
``prompt(state, frame) -> (text, rule, [Choice])`` and
``step(state, frame, facts, choice_id_or_None)``: the flow calls ``step(..., None)`` whenever
the frame is on top and not waiting (on entry and when a child frame has finished); the step
then pops the frame, pushes a child or marks the frame waiting (:func:`wait`). A waiting frame
that carries ``"auto"`` (a policy name) is answered by ``Flow.pick`` when ``Flow.auto_ok``
allows it (e.g. only for Non-player factions). ``Flow(idle=...)`` is called when the stack is
empty (the sequence of play deals the next card) and ``Flow(done=...)`` stops the loop (game
over). Both protocols can live in one Flow.
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
    # step-driven kinds (see the module docstring)
    prompt: Callable[[dict, dict], tuple] | None = None
    step: Callable[[dict, dict, list, str | None], None] | None = None


class Flow:
    def __init__(self, kinds: list[FrameKind], max_auto: int = 10_000, *,
                 idle: Callable[[dict, list], None] | None = None,
                 done: Callable[[dict], bool] | None = None,
                 auto_ok: Callable[[dict, dict], bool] | None = None,
                 pick: Callable[[dict, dict], str] | None = None):
        self.kinds = {k.name: k for k in kinds}
        self.max_auto = max_auto
        self.idle = idle
        self.done = done
        self.auto_ok = auto_ok
        self.pick = pick

    def add(self, kind: FrameKind) -> FrameKind:
        """Register one more frame kind (scenario modules declare their kinds one by one)."""
        self.kinds[kind.name] = kind
        return kind

    def run(self, state: dict, facts: list) -> None:
        """Drive step-driven frames (and ``idle``) until a decision is needed or ``done``.

        Unlike :meth:`settle` there is no step cap: every step either waits, pops, pushes or
        advances the frame's own phase, and the sequence of play ends the game."""
        kinds = self.kinds
        done, idle, auto_ok, pick = self.done, self.idle, self.auto_ok, self.pick
        while not (done is not None and done(state)):
            stack = state["stack"]
            if not stack:
                if idle is None:
                    return
                idle(state, facts)
                continue
            fr = stack[-1]
            kind = kinds[fr["k"]]
            if kind.step is None:
                if kind.auto is not None:
                    kind.auto(state, fr, facts)
                    continue
                return
            if fr.get("w"):
                if fr.get("auto") and pick is not None and (auto_ok is None or auto_ok(state, fr)):
                    cid = pick(state, fr)
                    fr["w"] = 0
                    kind.step(state, fr, facts, cid)
                    continue
                return
            kind.step(state, fr, facts, None)

    def answer(self, state: dict, choice_id: str, facts: list) -> None:
        """Apply a choice to the waiting step-driven frame on top, then :meth:`run`."""
        fr = state["stack"][-1]
        fr["w"] = 0
        self.kinds[fr["k"]].step(state, fr, facts, choice_id)
        self.run(state, facts)

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


def pop_same(state: dict, frame: dict) -> None:
    """Remove exactly ``frame`` (by identity: two frames may compare equal as dicts)."""
    st = state["stack"]
    if st and st[-1] is frame:
        st.pop()
        return
    for i in range(len(st) - 1, -1, -1):
        if st[i] is frame:
            del st[i]
            return


def wait(frame: dict) -> None:
    """A step-driven frame waits for a choice."""
    frame["w"] = 1
