"""The flow of play: a stack of frames, each kind declared once (a states table).

A state keeps ``state["stack"]``: a list of plain dict frames, the top one last. Every frame
has a kind ``"k"``. A game declares one :class:`FrameKind` per kind of pending step, and that
declaration is the one place where the step is defined:

- a *decision* kind has ``ask(state, frame) -> Ask`` (the prompt: who decides, the question,
  the legal choices) and ``act(state, frame, choice_id, facts)`` (how a choice applies). The
  prompt a player reads and the legality check are the same code: ``Rules.apply`` accepts
  exactly the choices ``ask`` lists;
- an *automatic* kind has ``auto(state, frame, facts)`` (reveal a card, score a phase): it
  does its work and pops itself or pushes other frames;
- a decision kind may also have an ``auto`` entry step, for frames that sometimes need no
  decision (a forced pick, a phase that ends, a parent resumed after its child finished): it
  runs each time the frame comes on top and returns True when it moved play on (popped,
  pushed, changed the frame), or False when the frame now waits for its decision. Returning
  False it must change nothing that a second call would change again (it runs again after an
  answer that leaves the frame waiting).

Nesting is pushing: an Event that grants a free Operation pushes an operation frame, the
operation may push a Special Activity frame; when each finishes it pops itself and control
returns to the frame below. A decision frame with no legal choice left is popped (a fact
records it), so play never gets stuck.

Causes (contract v2). The flow stamps the cause of every fact it sees produced, unless the
fact already carries one (a die roll's ``cause_die``, an event effect's ``cause_event``):

- facts of an automatic frame get ``cause_rule(kind.rule, step=kind.title)`` (or what
  ``kind.cause(state, frame)`` returns, for kinds whose steps differ, e.g. the phases of a
  Propaganda round; with ``cause_after=True`` it is asked after the step ran, for a step whose
  cause is what it revealed, e.g. the event card it drew);
- facts of a decision get ``cause_decision(seat, choice_id)`` (the game's
  ``Rules.apply_unchecked`` passes the deciding seat to :meth:`Flow.act`).

Hooks (Andean Abyss's sequence of play and Non-players). ``Flow(idle=...)`` is called when the
stack is empty (the sequence of play deals the next card), ``Flow(done=...)`` stops the loop
(game over), and a decision frame that ``Flow(auto_ok=...)`` accepts is answered by
``Flow(pick=...)`` at once (a Non-player's section-8 policy picks among exactly the choices
``ask`` lists). Facts of an automatic kind without a rule or a cause keep no cause from the flow
(the decision that led there attributes them). ``Flow(stamp=...)`` says how a cause is given to
a step's facts (default :func:`engine.core.contract.attribute`: to the facts that have none; a
game whose facts carry free-text reasons may keep them inside the structured cause).

A sequence of play on the protocol (Tears of Tyranny's adversary phase and phase changes, issue
16.9): a stack of its own holding automatic frames, one kind per step of the rulebook with its
rule and title; ``idle`` pushes the frame of the next phase change when that stack is empty, and
``done`` stops the loop as soon as a player must decide (a question on another of the game's
stacks, a player's turn begun). A step that must ask before it acts (and reads the answer)
raises its question and returns without popping: it runs again, still on top, when play
resumes; a step that asks about its consequences pops itself first. The game's own sequence of
play is then one loop: settle its stacks in the rulebook's order.

Named stacks (Tears of Tyranny: cooperative and simultaneous). A game with several stacks
gives ``Flow(stack=...)``, a function naming the stack a call works on:
``stack(state, at) -> list``; every protocol method then takes ``at`` (the seat whose stack it
is, or who answers a team-wide question), and the kinds' functions get it after the state:
``ask(state, at, frame)``, ``act(state, at, frame, choice_id, facts)``, ``auto(state, at, frame,
facts)``, ``cause(state, at, frame)``. Without ``stack`` the one stack is ``state["stack"]`` and
the functions take no ``at`` (Peru, Andean Abyss). :meth:`Flow.answer` applies a choice without
settling, for a game whose own sequence of play settles its stacks in a fixed order afterwards.

``engine.coin.flow`` re-exports this module for code written before it moved here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.contract import Choice, attribute, cause_decision, cause_rule, fact
from engine.core.messages import msg


@dataclass(slots=True)
class Ask:
    """A decision frame's prompt: ``seat`` decides ``text`` (a message) under ``rule``."""

    seat: str
    text: Any
    rule: str
    choices: list[Choice]
    context: dict = field(default_factory=dict)


@dataclass(slots=True)
class FrameKind:
    """One row of the states table (see the module docstring)."""

    name: str
    ask: Callable[[dict, dict], Ask] | None = None
    act: Callable[[dict, dict, str, list], None] | None = None
    auto: Callable[[dict, dict, list], None] | None = None
    never_empty: bool = False   # its prompt always offers a choice (e.g. "done"): skip the check
    # what an automatic kind's facts are caused by: a rule number and a message naming the step,
    # or ``cause(state, frame) -> cause dict`` computed before the step runs
    rule: str = ""
    title: Any = None
    cause: Callable[[dict, dict], dict] | None = None
    cause_after: bool = False      # ``cause`` is asked after the step ran (it names what the step revealed)
    static_cause: dict | None = None   # set from rule/title (one shared dict: facts never mutate a cause)

    def __post_init__(self) -> None:
        if self.auto is not None and self.cause is None and self.rule:
            self.static_cause = cause_rule(self.rule, step=self.title)


class Flow:
    def __init__(self, kinds: list[FrameKind], max_auto: int = 10_000, *,
                 idle: Callable[[dict, list], None] | None = None,
                 done: Callable[[dict], bool] | None = None,
                 auto_ok: Callable[[dict, dict], bool] | None = None,
                 pick: Callable[[dict, dict], str] | None = None,
                 stack: Callable[[dict, Any], list] | None = None,
                 stamp: Callable[[list, dict, int], Any] = attribute):
        self.kinds = {k.name: k for k in kinds}
        self.stamp = stamp
        self.stack = stack
        self._at_kinds: dict = {}    # at -> the kinds with ``at`` bound (named stacks only)
        self.max_auto = max_auto
        self.idle = idle
        self.done = done
        self.auto_ok = auto_ok
        self.pick = pick

    def add(self, kind: FrameKind) -> FrameKind:
        """Register one more frame kind (scenario modules declare their kinds one by one)."""
        self.kinds[kind.name] = kind
        self._at_kinds.clear()
        return kind

    def _kinds(self, at: Any) -> dict:
        """The kinds table for stack ``at``: as declared for a single stack; for named stacks,
        each kind's functions with ``at`` bound (built once per name)."""
        if self.stack is None:
            return self.kinds
        got = self._at_kinds.get(at)
        if got is None:
            got = self._at_kinds[at] = {name: _bind(k, at) for name, k in self.kinds.items()}
        return got

    def _stack(self, state: dict, at: Any) -> list:
        return state["stack"] if self.stack is None else self.stack(state, at)

    # ---------------------------------------------------------------- ask/act/auto protocol
    def top(self, state: dict, at: Any = None) -> dict | None:
        st = self._stack(state, at)
        return st[-1] if st else None

    def ask(self, state: dict, at: Any = None) -> Ask | None:
        """The prompt of the decision frame on top (None: nothing to decide, game over)."""
        fr = self.top(state, at)
        if fr is None:
            return None
        return self._kinds(at)[fr["k"]].ask(state, fr)

    def answer(self, state: dict, choice_id: str, facts: list, seat: str | None = None,
               logged_id: str | None = None, at: Any = None) -> None:
        """Apply ``choice_id`` to the frame on top, without settling. With ``seat``, the facts
        the choice produced get ``cause_decision(seat, logged_id or choice_id)`` (``logged_id``:
        the id without a secret part, for choices whose id names hidden information)."""
        fr = self._stack(state, at)[-1]
        start = len(facts)
        self._kinds(at)[fr["k"]].act(state, fr, choice_id, facts)
        if seat is not None and len(facts) > start:
            attribute(facts, cause_decision(seat, logged_id or choice_id), start)

    def act(self, state: dict, choice_id: str, facts: list, seat: str | None = None,
            logged_id: str | None = None, at: Any = None) -> None:
        """:meth:`answer` ``choice_id``, then :meth:`settle`."""
        self.answer(state, choice_id, facts, seat, logged_id, at)
        self.settle(state, facts, at)

    def settle(self, state: dict, facts: list, at: Any = None) -> None:
        """Run automatic steps until a decision is needed, the stack is empty or ``done``.

        With ``idle`` an empty stack calls it (the sequence of play deals the next card); a
        decision frame that ``auto_ok`` accepts is answered by ``pick`` (a Non-player)."""
        kinds = self._kinds(at)
        done, idle, auto_ok, pick, stamp = self.done, self.idle, self.auto_ok, self.pick, self.stamp
        named = self.stack
        steps = 0
        while not (done is not None and done(state)):
            st = state["stack"] if named is None else named(state, at)
            if not st:
                if idle is None:
                    return
                idle(state, facts)
                steps = 0
                continue
            fr = st[-1]
            kind = kinds[fr["k"]]
            steps += 1
            if steps > self.max_auto:
                raise RuntimeError("flow did not settle (automatic frames loop)")
            if kind.auto is not None:
                if kind.ask is None:
                    start = len(facts)
                    if kind.cause_after:
                        kind.auto(state, fr, facts)
                        cause = kind.cause(state, fr) if len(facts) > start else None
                    else:
                        cause = kind.static_cause if kind.cause is None else kind.cause(state, fr)
                        kind.auto(state, fr, facts)
                    if cause is not None and len(facts) > start:
                        stamp(facts, cause, start)
                    continue
                if kind.auto(state, fr, facts):
                    continue
            if pick is not None and (auto_ok is None or auto_ok(state, fr)):
                kind.act(state, fr, pick(state, fr), facts)
                steps = 0
                continue
            if kind.never_empty:
                return
            a = kind.ask(state, fr)
            if a.choices:
                return
            # nothing legal left in this frame: it ends here
            st.pop()
            facts.append(fact("note", msg("{step}: nothing further is possible.", step=a.text), rule=a.rule,
                              cause=cause_rule(a.rule, step=a.text)))


def _bind(kind: FrameKind, at: Any) -> FrameKind:
    """``kind`` with ``at`` passed to its functions after the state (named stacks)."""
    def b(fn):
        return None if fn is None else (lambda state, *rest: fn(state, at, *rest))
    return FrameKind(kind.name, ask=b(kind.ask), act=b(kind.act), auto=b(kind.auto), never_empty=kind.never_empty,
                     rule=kind.rule, title=kind.title, cause=b(kind.cause), cause_after=kind.cause_after)


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
