"""The facilitator's actions on a running session, each a logged ``facilitator`` event: pause,
resume, end, note, override (undo the last move, adjust a track), direct a Non-player."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from engine import IllegalChoice
from engine.core.messages import msg
from facilitation import eventlog, receipts
from facilitation.errors import Conflict, ValidationFailed
from facilitation.models import (
    ClassSession,
    SessionEvent,
)
from facilitation.services.accounts import _require_course_instructor
from facilitation.services.bots import _announce_finished, _metrics, _run_bots, _seat_title
from facilitation.services.locking import _lock, _state
from facilitation.services.text import clean_text
from facilitation.services.undo import _undo_fact, _undo_visibility

Status = ClassSession.Status


def _facilitator_event(session: ClassSession, user, action: str, **payload) -> SessionEvent:
    rules = eventlog.rules_for(session)
    state = _state(session, rules) if session.state is not None else None
    metrics = _metrics(rules, state) if state is not None else {}
    text = payload.pop("fact_text", "")
    return eventlog.append(session, kind="facilitator", actor=user, payload={"action": action, **payload},
                           facts=[engine.fact("facilitator", text)] if text else [], metrics=metrics,
                           state_after=state, rules=rules)


@transaction.atomic
def session_pause(*, session: ClassSession, user, reason: str = "") -> ClassSession:
    _require_course_instructor(user, session.course)
    reason = clean_text(reason, field="reason")
    session = _lock(session.pk)
    if session.status != Status.LIVE:
        raise Conflict(f"Only a live session can be paused (it is {session.status}).", code="not_live")
    session.status = Status.PAUSED
    _facilitator_event(session, user, "pause", reason=reason, fact_text="The facilitator pauses the game.")
    session.save()
    receipts.publish(session, "pause")
    return session


@transaction.atomic
def session_resume(*, session: ClassSession, user) -> ClassSession:
    _require_course_instructor(user, session.course)
    session = _lock(session.pk)
    if session.status != Status.PAUSED:
        raise Conflict(f"Only a paused session can be resumed (it is {session.status}).", code="not_paused")
    session.status = Status.LIVE
    _facilitator_event(session, user, "resume", fact_text="The facilitator resumes the game.")
    _run_bots(session)
    session.save()
    receipts.publish(session, "resume")
    return session


@transaction.atomic
def session_end(*, session: ClassSession, user, reason: str = "") -> ClassSession:
    """End the session now (the game may be unfinished: ``result`` then stays as the engine says)."""
    _require_course_instructor(user, session.course)
    reason = clean_text(reason, field="reason")
    session = _lock(session.pk)
    if session.status == Status.FINISHED:
        raise Conflict("The session is already finished.", code="session_finished")
    if session.status == Status.SCHEDULED:
        raise Conflict("The session has not started.", code="session_not_started")
    rules = eventlog.rules_for(session)
    state = _state(session, rules)
    session.status = Status.FINISHED
    session.finished_at = timezone.now()
    session.result = eventlog.jsonable(rules.result(state))
    _facilitator_event(session, user, "end", reason=reason, fact_text="The facilitator ends the session.")
    session.save()
    _announce_finished(session)
    receipts.publish(session, "end")
    return session


@transaction.atomic
def facilitator_note(*, session: ClassSession, user, text: str) -> SessionEvent:
    _require_course_instructor(user, session.course)
    text = clean_text(text, field="text")
    if not text:
        raise ValidationFailed("A note needs some text.", code="text_required")
    session = _lock(session.pk)
    if session.status == Status.SCHEDULED:
        raise Conflict("Notes are logged once the session has started.", code="session_not_started")
    ev = _facilitator_event(session, user, "note", text=text)
    session.save()
    return ev


@transaction.atomic
def facilitator_override(*, session: ClassSession, user, action: str, reason: str,
                         track: str | None = None, value: Any = None) -> SessionEvent:
    """An adjudicated change to the game, logged with its reason.

    ``undo_last``: take back the last decision or bot move, whoever made it (even
    past revealed randomness: it is the facilitator's call and it is logged).
    ``adjust``: set a track to a value through ``Rules.adjust`` (replayed from the log).
    """
    _require_course_instructor(user, session.course)
    reason = clean_text(reason, field="reason")
    if not reason:
        raise ValidationFailed("An override needs a reason (it goes into the log and the AAR).",
                               code="reason_required")
    session = _lock(session.pk)
    if session.status not in (Status.LIVE, Status.PAUSED):
        raise Conflict(f"Overrides apply to a running session (it is {session.status}).", code="not_running")
    rules = eventlog.rules_for(session)
    if action == "undo_last":
        parents = dict(SessionEvent.objects.filter(session=session).values_list("seq", "parent_seq"))
        kinds = dict(SessionEvent.objects.filter(session=session).values_list("seq", "kind"))
        cur = session.head_seq
        while cur > 0 and kinds[cur] not in ("decision", "bot"):
            cur = parents[cur]
        if cur == 0:
            raise Conflict("There is no decision to undo.", code="nothing_to_undo")
        target = SessionEvent.objects.get(session=session, seq=cur)
        back_state = eventlog.load_state(session, target.parent_seq, rules)
        ev = eventlog.append(session, kind="facilitator", actor=user, parent_seq=target.parent_seq,
                             payload={"action": "undo_last", "reason": reason, "undone_seq": target.seq,
                                      "back_to": target.parent_seq, "label": target.payload.get("label", ""),
                                      **_undo_visibility(target)},
                             facts=[_undo_fact(target, "override",
                                               msg("The facilitator takes back {seat}'s '{choice}': {reason}",
                                                   seat=_seat_title(rules, target.seat),
                                                   choice=target.payload.get("label") or "", reason=reason),
                                               msg("The facilitator takes back a secret decision of {seat}.",
                                                   seat=_seat_title(rules, target.seat)))],
                             metrics=_metrics(rules, back_state), state_after=back_state, rules=rules)
    elif action == "adjust":
        if not isinstance(track, str) or not track:
            raise ValidationFailed("An adjustment names a track.", code="malformed")
        state = _state(session, rules)
        try:
            facts = eventlog.adjustment_facts(rules, state, track, value, reason)
        except IllegalChoice as exc:
            raise ValidationFailed(exc.message, code=exc.code) from None
        ev = eventlog.append(session, kind="facilitator", actor=user,
                             payload={"action": "adjust", "reason": reason, "track": track, "value": value},
                             facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
    else:
        raise ValidationFailed(f"Unknown override {action!r} (known: undo_last, adjust).", code="unknown_action")
    if session.status == Status.LIVE:
        _run_bots(session, rules)
    session.save()
    return ev


@transaction.atomic
def facilitator_direct(*, session: ClassSession, user, seat: str, choice: str, reason: str) -> SessionEvent:
    """Direct a bot-run seat (an Andean Abyss Non-player, section 8) to take ``choice``, a legal
    decision of its own, instead of its procedure's (issue 15). Logged as a ``facilitator``
    event with the reason; the log replays it through ``Rules.apply_directed``. What follows
    is again the seat's own: the bots go on when the session is live.

    A Non-player's decision waits only while the game is paused (bots act at once otherwise):
    pause, take back its move with ``undo_last`` if it already acted, direct, resume.
    """
    _require_course_instructor(user, session.course)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed("Directing a Non-player needs a reason (it goes into the log and the AAR).",
                               code="reason_required")
    if not isinstance(seat, str) or not seat or not isinstance(choice, str) or not choice:
        raise ValidationFailed("Name the seat and the choice to direct it to.", code="malformed")
    session = _lock(session.pk)
    if session.status not in (Status.LIVE, Status.PAUSED):
        raise Conflict(f"Directions apply to a running session (it is {session.status}).", code="not_running")
    rules = eventlog.rules_for(session)
    state = _state(session, rules)
    options = list(rules.directable(state, seat))
    if not options:
        raise Conflict(f"No decision of seat {seat!r} can be directed now (pause the game, and take back "
                       "its move if it already acted).", code="not_directable")
    picked = next((c for c in options if c.id == choice), None)
    if picked is None:
        raise ValidationFailed(f"'{choice}' is not a legal decision for {seat} now.", code="unknown_choice")
    p = rules.prompt(state)
    facts = rules.apply_directed(state, seat, choice, reason)
    ev = eventlog.append(session, kind="facilitator", actor=user, seat=seat,
                         payload={"action": "direct", "seat": seat, "choice": choice, "label": picked.label,
                                  "reason": reason, "prompt": p.text_for(seat) if p else "",
                                  "rule": p.rule_for(seat) if p else ""},
                         facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
    if session.status == Status.LIVE:
        _run_bots(session, rules, state)
    session.save()
    return ev
