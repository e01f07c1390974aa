"""Decision groups ("plans"): a seat's sequence of choices submitted, validated and undone together.

Issue 16.7. The engine stays a finite-choice contract: a plan is nothing but a list of choice ids,
each of which must be one of the legal choices the seat is offered at the moment it is applied,
exactly as if the seat had clicked them one by one. What a plan adds:

* **validated together**: the whole list is applied to a copy of the state; if any step is not
  legal (or the seat stops being asked, or the game ends) the plan is refused with
  :class:`~engine.core.contract.IllegalChoice` (``code="illegal_plan"``, naming the step) and the
  given state is untouched; otherwise the copy is the new state;
* **one decision**: the platform logs the plan as one decision (its choice ids in the payload) and
  replays it with :func:`apply_plan`, so undo removes the whole group at once;
* **no plan across revealed information**: a step whose facts reveal randomness or hidden
  information (a ``barrier`` fact: a card drawn, a die rolled) must be the plan's last step, since
  what comes after it is decided by what it revealed. A longer plan is refused.

:func:`draft_plan` builds a plan by asking a chooser (a bot, or a page replaying a player's
clicks on a draft) step by step on a copy, stopping at a barrier, when ``seat`` is no longer asked,
or when ``stop`` says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.contract import Choice, IllegalChoice, Rules

State = Any


def apply_plan(rules: Rules, state: State, seat: str, choice_ids: list[str],
               chosen: list[Choice] | None = None, step_facts: list[list[dict]] | None = None,
               ) -> tuple[State, list[dict]]:
    """Apply ``choice_ids`` for ``seat`` as one decision group: (new state, facts), or
    :class:`IllegalChoice` with the given state untouched. ``chosen``, if given, receives the
    :class:`Choice` of each step as it was offered (its label, for the log); ``step_facts`` the
    facts of each step (whether the last one revealed information)."""
    if not isinstance(choice_ids, (list, tuple)) or not choice_ids:
        raise IllegalChoice("A plan is a non-empty list of choice ids.", code="illegal_plan")
    new = rules.copy(state)
    facts: list[dict] = []
    for i, cid in enumerate(choice_ids):
        try:
            c = rules.validate(new, seat, cid)
        except IllegalChoice as e:
            raise _refused(f"Step {i + 1} of the plan ({cid!r}) is not legal then: {e.message}",
                           i, cid, e.message) from e
        if chosen is not None:
            chosen.append(c)
        got = rules.apply_unchecked(new, seat, cid)
        facts.extend(got)
        if step_facts is not None:
            step_facts.append(got)
        if i < len(choice_ids) - 1 and any(f.get("barrier") for f in got):
            raise _refused(f"Step {i + 1} of the plan ({cid!r}) reveals information (a card or a die): "
                           "the plan must end there; decide what follows after seeing it.", i, cid, None)
    return new, facts


def _refused(text: str, index: int, cid: str, reason: Any) -> IllegalChoice:
    """The refusal of a whole plan, naming its step: ``step`` (1-based), ``choice_id``, and
    ``reason`` (why that step is not legal then; None: it reveals information and is not last)."""
    err = IllegalChoice(text, code="illegal_plan")
    err.step, err.choice_id, err.reason = index + 1, cid, reason
    return err


def draft_plan(rules: Rules, state: State, seat: str, choose: Callable[[State, Any], str],
               stop: Callable[[State, Any, str], bool] | None = None, limit: int = 200) -> list[str]:
    """The plan ``choose(state, prompt) -> choice id`` would submit for ``seat`` from ``state``:
    asked step by step on a copy until a step reveals information (it is then the last), ``seat``
    is no longer asked, the game ends, or ``stop(state, prompt, seat)`` is true before a step."""
    draft = rules.copy(state)
    out: list[str] = []
    for _ in range(limit):
        p = rules.prompt(draft)
        if p is None or seat not in p.seats or not p.choices_for(seat):
            break
        if out and stop is not None and stop(draft, p, seat):
            break
        cid = choose(draft, p)
        out.append(cid)
        got = rules.apply_unchecked(draft, seat, cid)
        if any(f.get("barrier") for f in got):
            break
    return out
