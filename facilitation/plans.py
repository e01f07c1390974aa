"""Plans: a seat's whole part of a phase submitted as one decision (issue 16.7).

The engine side is :mod:`engine.core.plan`: a plan is a list of ordinary choice ids of one seat,
applied on a copy of the state and accepted or refused whole; it must end at the first step that
reveals a card or a die. Here the platform:

* **drafts** a plan (:func:`plan_draft`): the steps a seat has picked so far are applied to a copy
  of the head state (nothing is logged or stored) and the seat's next question on that copy is
  returned, until the plan is complete (a step revealed information, the seat is no longer asked,
  or the stretch of play ``rules.plan_phase`` names has ended). After a revealing step nothing of
  the copy is shown: what it revealed is seen only once the plan is submitted;
* **submits** a plan (:func:`plan_submit`) as ONE ``decision`` event whose payload holds the
  choice ids (``payload["plan"]``), the label of each step, the rationale; with the same checks
  as a single decision (``services.choice_submit``): the idempotency key (a repeat answers the
  first answer and applies nothing), the seat's owner, the session live, the seq (rebased in a
  simultaneous phase as a single decision is), the rationale, then legality of every step. A
  refused plan is a 400 ``illegal_plan`` naming the failing step, and nothing is stored;
* replays it with :func:`engine.core.plan.apply_plan` (``eventlog.transition``), so
  ``verify_session`` checks it like any decision, and undo (``services.choice_undo``) takes the
  whole group back at once, being one event.

A plan's payload is secret (read by other seats as "a secret decision") when any of its steps
is, or when any of its facts is hidden from some seat (``selectors._redact_payload``).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from engine import IllegalChoice
from engine.core.messages import msg, msg_n
from engine.core.plan import apply_plan
from engine.core.rng import ScriptedValueError
from facilitation import eventlog, selectors
from facilitation.errors import Conflict, ValidationFailed
from facilitation.models import ClassSession, SubmissionKey
from facilitation.services.bots import _metrics, _run_bots
from facilitation.services.moves import (
    _MOVE_FIELDS,
    _check_seat_owner,
    _require_live,
    open_move,
    request_signature,
)

#: the most steps one plan may hold (a seat's whole player window is about 20)
MAX_PLAN_STEPS = 200
MAX_CHOICE_ID = 1000


def _check_steps(steps: Any, *, field: str = "plan", allow_empty: bool = False) -> list[str]:
    if not isinstance(steps, (list, tuple)) or (not steps and not allow_empty):
        raise ValidationFailed(msg("{field} must be a non-empty list of choice ids.", field=field), code="malformed")
    if len(steps) > MAX_PLAN_STEPS:
        raise ValidationFailed(msg("A plan holds at most {n} steps.", n=MAX_PLAN_STEPS), code="malformed")
    for cid in steps:
        if not isinstance(cid, str) or not cid or len(cid) > MAX_CHOICE_ID or "\x00" in cid:
            raise ValidationFailed(msg("Every step of {field} must be a choice id (a non-empty string).",
                                       field=field), code="malformed")
    return list(steps)


def _refusal(exc: IllegalChoice) -> ValidationFailed:
    """The 400 answer to a refused plan, naming the failing step in the reader's language."""
    step = getattr(exc, "step", None)
    if step is None:  # not a plan step's refusal (e.g. the game is over)
        return ValidationFailed(exc.message, code=exc.code)
    if getattr(exc, "reason", None) is None:
        text = msg("Step {step} of the plan ({choice}) reveals information (a card or a die): the plan must "
                   "end there; decide what follows after seeing it.", step=step, choice=exc.choice_id)
    else:
        text = msg("Step {step} of the plan ({choice}) is not legal at that point: {reason}",
                   step=step, choice=exc.choice_id, reason=exc.reason)
    return ValidationFailed(text, code="illegal_plan", step=step)


def _revealed(facts: list) -> bool:
    return any(isinstance(f, dict) and f.get("barrier") for f in facts)


def _step_payload(chosen: list) -> tuple[list[Any], bool]:
    """(labels of the steps, whether any step is secret)."""
    return [c.label for c in chosen], any(bool((c.payload or {}).get("secret")) for c in chosen)


def plan_label(labels: list[Any]) -> Any:
    """The plan as one line of the log: ``Plan of 3 steps: a, b, c``."""
    return msg_n("Plan of {count} step: {steps}", "Plan of {count} steps: {steps}", len(labels), steps=labels)


def plan_draft(*, session: ClassSession, user, seat: str, steps: Any) -> dict:
    """The seat's draft plan: ``{"seq", "steps": [{"id", "label"}], "complete", "why", "prompt"}``.

    Nothing is stored. ``steps`` are applied to a copy of the head state exactly as
    :func:`plan_submit` would apply them (an illegal step is a 400 naming it); ``prompt`` is the
    seat's next question on the copy (its own choices only), or None when the draft is
    ``complete``: ``why`` is ``"revealed"`` (the last step draws a card or rolls a die: nothing of
    what it revealed is returned), ``"not_asked"`` (the seat has nothing more to decide now) or
    ``"phase_over"`` (the stretch of play the plan covers ended)."""
    steps = _check_steps(steps, field="steps", allow_empty=True)
    _check_seat_owner(user, session, seat)
    _require_live(session)
    rules, state = selectors.session_state(session)
    p = rules.prompt(state)
    scope = rules.plan_phase(state)
    if p is None or seat not in p.seats:
        raise Conflict(msg("It is not your turn to decide."), code="not_your_turn")
    if scope is None:
        raise Conflict(msg("Plans are not offered at this point of the game: decide step by step."),
                       code="plans_not_offered")
    chosen: list = []
    per_step: list = []
    draft = state
    if steps:
        try:
            draft, _facts = apply_plan(rules, state, seat, steps, chosen, per_step)
        except IllegalChoice as exc:
            raise _refusal(exc) from None
    out = {"seq": session.head_seq, "seat": seat,
           "steps": [{"id": c.id, "label": c.label} for c in chosen],
           "complete": False, "why": "", "prompt": None}
    if per_step and _revealed(per_step[-1]):
        out.update(complete=True, why="revealed")
        return out
    nxt = rules.prompt(draft)
    if nxt is None or seat not in nxt.seats or not nxt.choices_for(seat):
        out.update(complete=True, why="not_asked")
    elif rules.plan_phase(draft) != scope:
        out.update(complete=True, why="phase_over")
    else:
        out["prompt"] = nxt.to_dict(seat)
    return out


def plan_submit(*, session: ClassSession, user, seat: str, plan: Any, seq: int, idempotency_key: str = "",
                rationale: str = "", decision_ms: int | None = None) -> dict:
    """A seat's plan as one decision. Returns ``{"seq", "events", "status", "replayed", "steps"}``.

    Checks in the order of ``services.choice_submit``; every step must be legal when it comes
    (``apply_plan``), else 400 ``illegal_plan`` naming the step and nothing is stored."""
    plan = _check_steps(plan)
    rationale, request_sig = request_signature(idempotency_key, rationale, seat=seat, plan=plan, seq=seq)
    try:
        with transaction.atomic():
            move = open_move(session_id=session.pk, user=user, seat=seat, seq=seq, idempotency_key=idempotency_key,
                             request_sig=request_sig, rationale=rationale, decision_ms=decision_ms)
            if move.replayed is not None:
                return move.replayed
            session, seats, ms, rules, state = move.session, move.seats, move.ms, move.rules, move.state
            p = rules.prompt(state)
            if p is None:
                raise ValidationFailed("The game is over: no more choices can be made.", code="game_over")
            if seat not in p.seats:
                raise Conflict(msg("It is not your turn to decide."), code="not_your_turn")
            if rules.plan_phase(state) is None:
                raise Conflict(msg("Plans are not offered at this point of the game: decide step by step."),
                               code="plans_not_offered")
            chosen: list = []
            try:
                new, facts = apply_plan(rules, state, seat, plan, chosen)
            except IllegalChoice as exc:
                raise _refusal(exc) from None
            except ScriptedValueError as exc:
                raise Conflict(f"The session's scripted values cannot be used here ({exc}); ask the "
                               "facilitator.", code="bad_script") from None
            labels, secret = _step_payload(chosen)
            payload = {
                "plan": plan, "choice": plan[0], "label": plan_label(labels), "steps": labels,
                "choice_payload": {}, "prompt": p.text_for(seat), "rule": p.rule_for(seat),
                "prompt_kind": "plan", "turn": p.turn,
                "secret": bool(secret or p.context.get("secret")),
            }
            eventlog.defer_writes(session)
            ev = eventlog.append(session, kind="decision", seat=seat, actor=user, payload=payload, facts=facts,
                                 metrics=_metrics(rules, new), rationale=rationale, decision_ms=ms,
                                 state_after=new, rules=rules)
            bots = {k: v.bot_kind for k, v in seats.items() if v.bot_kind}
            appended = [ev.seq, *_run_bots(session, rules, new, bots)]
            response = {"seq": session.head_seq, "events": appended, "status": str(session.status),
                        "steps": len(plan)}
            eventlog.flush(session, *([SubmissionKey(session=session, key=idempotency_key, user=user,
                                                     request=request_sig, response=response)]
                                      if idempotency_key else []), update_fields=_MOVE_FIELDS)
            return {**response, "replayed": False}
    except IntegrityError:
        raise Conflict("A concurrent submission won; reload the prompt.", code="stale_seq") from None
