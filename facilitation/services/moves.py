"""A team's decision: the checks every submission makes first (:func:`open_move`, shared with
``facilitation.plans.plan_submit``), a simultaneous phase's rebased seq, and ``choice_submit``."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from engine import IllegalChoice
from engine.core.rng import ScriptedValueError
from facilitation import eventlog
from facilitation.errors import Conflict, NotAllowed, NotFound, ValidationFailed
from facilitation.models import (
    ClassSession,
    Seat,
    SessionEvent,
    SubmissionKey,
)
from facilitation.services.bots import _decision_payload, _metrics, _run_bots
from facilitation.services.locking import _lock_for_move, _state
from facilitation.services.text import clean_text

Status = ClassSession.Status


MAX_DECISION_MS = 7 * 24 * 3600 * 1000


# What a move changes on the session row (the log's head and cached state; the end of the game
# when the bots that follow finish it): all that a decision's save writes.
_MOVE_FIELDS = ["head_seq", "head_hash", "state", "status", "result", "finished_at", "updated_at"]


def _check_seat_owner(user, session: ClassSession, seat_key: str, seats: dict[str, Seat] | None = None) -> Seat:
    if seats is not None:
        seat = seats.get(seat_key)
        if seat is None:
            raise NotFound(f"This session has no seat {seat_key!r}.", code="unknown_seat")
        if seat.bot_kind:
            raise NotAllowed(f"The {seat_key} seat is played by a bot.", code="not_your_seat")
        if not seat.team_id or not seat.is_member:
            raise NotAllowed(f"Your team does not play the {seat_key} seat.", code="not_your_seat")
        return seat
    seat = Seat.objects.filter(session=session, seat_key=seat_key).select_related("team").first()
    if seat is None:
        raise NotFound(f"This session has no seat {seat_key!r}.", code="unknown_seat")
    if seat.bot_kind:
        raise NotAllowed(f"The {seat_key} seat is played by a bot.", code="not_your_seat")
    if not seat.team_id or not seat.team.members.filter(pk=user.pk).exists():
        raise NotAllowed(f"Your team does not play the {seat_key} seat.", code="not_your_seat")
    return seat


def _require_live(session: ClassSession) -> None:
    if session.status == Status.PAUSED:
        raise Conflict("The session is paused by the facilitator.", code="session_paused")
    if session.status == Status.SCHEDULED:
        raise Conflict("The session has not started yet.", code="session_not_started")
    if session.status == Status.FINISHED:
        raise Conflict("The session is finished.", code="session_finished")


def _check_seq(session: ClassSession, seq: Any) -> None:
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise ValidationFailed("seq must be the integer seq of the prompt you answered.", code="malformed")
    if seq != session.head_seq:
        raise Conflict(f"The game has moved on (your prompt was made at seq {seq}, the log is now at "
                       f"{session.head_seq}). Reload the prompt.", code="stale_seq", current_seq=session.head_seq)


def _decision_ms(session: ClassSession, decision_ms: Any) -> int:
    """The client's measure (ms from the prompt shown to the choice), bounded by the server's clock."""
    if hasattr(session, "head_created_at"):  # read with the lock (``_lock(head_time=True)``)
        last = session.head_created_at
    else:
        last = SessionEvent.objects.filter(session=session, seq=session.head_seq).values_list(
            "created_at", flat=True).first()
    server_ms = int((timezone.now() - last).total_seconds() * 1000) if last else 0
    if decision_ms is None:
        return max(server_ms, 0)
    if isinstance(decision_ms, bool) or not isinstance(decision_ms, int) or not 0 <= decision_ms <= MAX_DECISION_MS:
        raise ValidationFailed("decision_ms must be a whole number of milliseconds (0 or more).", code="malformed")
    return min(decision_ms, max(server_ms, 0) + 2000) if last else decision_ms


# ---- simultaneous phases: a submission is not stale because another seat acted --------------
#
# In a phase where several seats act at once (Tears of Tyranny's player window and phase 4),
# every decision of one team moves the log, and every other team's prompt then carries an
# older ``seq`` until it is read again (a page polls every 1.5 s). Four teams deciding at their
# own pace would see a large share of their submissions refused as stale, although the question
# each of them answered is still exactly the one they are being asked. ``_rebased_seq`` lets
# such a submission through, and only then: every event since its seq is a decision of
# *another* seat within the same prompt turn (no undo, no facilitator action, no decision of
# this seat), and this seat's question (turn, text, rule and the full list of choices) is
# identical at that seq and now. It runs under the session row lock, for the pages and the API
# alike; everything else (seat owner, legality, idempotency key) is checked as before, and
# anything else stays stale (409 ``stale_seq``).

MAX_REBASE_BEHIND = 12  # a prompt this far behind is read again, not rebased


def _question(rules, state, seat: str) -> tuple | None:
    p = rules.prompt(state)
    if p is None or seat not in p.seats:
        return None
    d = p.to_dict(seat)
    return (p.turn, d.get("text"), d.get("rule"), tuple((c["id"], c["label"]) for c in d.get("choices") or []))


def _rebased_seq(session: ClassSession, seat: str, seq: Any) -> Any:
    """The seq to check: ``session.head_seq`` (locked) when ``seat``'s question is unchanged since
    ``seq`` and only other seats have decided in between; otherwise ``seq`` as given."""
    head = session.head_seq
    if isinstance(seq, bool) or not isinstance(seq, int) or seq >= head or head - seq > MAX_REBASE_BEHIND or seq < 0:
        return seq
    between = list(SessionEvent.objects.filter(session=session, seq__gt=seq, seq__lte=head)
                   .values_list("kind", "seat", "payload"))
    if len(between) != head - seq:
        return seq
    rules = eventlog.rules_for(session)
    then = _question(rules, eventlog.load_state(session, seq, rules), seat)
    if then is None:
        return seq
    for kind, other, payload in between:
        if kind not in ("decision", "bot") or other == seat or (payload or {}).get("turn") != then[0]:
            return seq
    now = _question(rules, eventlog.load_state(session, head, rules), seat)
    return head if now == then else seq


@dataclass
class OpenMove:
    """A move's checks passed under the session row lock (:func:`open_move`): the locked session,
    its seats, the decision's thinking time and the rules and state it applies to; or, for a
    repeated idempotency key, the first answer (``replayed``) and nothing else."""

    session: ClassSession
    seats: dict
    replayed: dict | None = None
    ms: int | None = None
    rules: Any = None
    state: Any = None


def open_move(*, session_id: int, user, seat: str, seq: Any, idempotency_key: str, request_sig: dict,
              rationale: str, decision_ms: Any) -> OpenMove:
    """The checks every submission makes first, in order, inside its transaction (a decision,
    ``choice_submit``; a plan, ``facilitation.plans.plan_submit``): the row lock and the key's
    earlier answer (the same key for another request is 409), the seat's owner, the session
    live, ``seq`` (rebased in a simultaneous phase), the rationale if required."""
    session, seats, prior = _lock_for_move(session_id, user, idempotency_key)
    _check_seat_owner(user, session, seat, seats)
    if prior is not None:
        prior_user, prior_request, prior_response = prior
        # a key recorded before the rationale was part of the request has no "rationale"
        if prior_user != user.pk or prior_request != {k: v for k, v in request_sig.items()
                                                      if k in prior_request or k != "rationale"}:
            raise Conflict("This idempotency key was already used for a different request.",
                           code="idempotency_key_reused")
        return OpenMove(session, seats, replayed={**prior_response, "replayed": True})
    _require_live(session)
    _check_seq(session, _rebased_seq(session, seat, seq))
    if session.require_rationale and not rationale:
        raise ValidationFailed("This session asks for a rationale with every decision.", code="rationale_required")
    ms = _decision_ms(session, decision_ms)
    rules = eventlog.rules_for(session)
    return OpenMove(session, seats, ms=ms, rules=rules, state=_state(session, rules))  # a replay's canonical form


def request_signature(idempotency_key, rationale, **request) -> tuple[str, dict]:
    """The checks every submission makes before :func:`open_move` (the key's shape, the rationale
    cleaned) and the signature of the request the key stands for. The rationale is part of it
    (issue 14 item 12): the same key with another rationale is a different request (409), not a
    repeat that drops it."""
    if not isinstance(idempotency_key, str) or len(idempotency_key) > 128 or "\x00" in idempotency_key:
        raise ValidationFailed("idempotency_key must be a string of at most 128 characters.", code="malformed")
    rationale = clean_text(rationale, field="rationale")
    return rationale, {**request, "rationale": hashlib.sha256(rationale.encode()).hexdigest()}


def choice_submit(*, session: ClassSession, user, seat: str, choice: str, seq: int,
                  idempotency_key: str = "", rationale: str = "", decision_ms: int | None = None,
                  outcome: dict | None = None) -> dict:
    """A team's decision. Returns ``{"seq", "events", "status", "replayed"}``.

    ``outcome``: a dict the caller passes to be given, once the move is written, the session row
    as written (``"session"``: its ``state`` the canonical data the column holds, which
    ``selectors.session_state`` decodes as it would the row's). The page's decision draws the
    deciding seat's region from it instead of reading the row again (issue 20). Left empty for a
    repeated key's answer and for a refused decision.

    Checks, in order, under the session row lock: the idempotency key (a repeat
    returns the first answer and applies nothing), the session is live, the
    user's team plays ``seat``, ``seq`` is the head the prompt was made at (else
    409 ``stale_seq``; in a simultaneous phase an older seq whose question is unchanged
    counts as the head, ``_rebased_seq``), the rationale if required, the choice is legal. Then the
    decision is logged and the bot seats that come next play.
    """
    if not isinstance(choice, str) or not choice:
        raise ValidationFailed("choice must be a choice id (a non-empty string).", code="malformed")
    if "\x00" in choice or len(choice) > 1000:
        raise ValidationFailed("choice must be a choice id.", code="malformed")
    rationale, request_sig = request_signature(idempotency_key, rationale, seat=seat, choice=choice, seq=seq)
    try:
        with transaction.atomic():
            move = open_move(session_id=session.pk, user=user, seat=seat, seq=seq, idempotency_key=idempotency_key,
                             request_sig=request_sig, rationale=rationale, decision_ms=decision_ms)
            if move.replayed is not None:
                return move.replayed
            session, seats, ms, rules, state = move.session, move.seats, move.ms, move.rules, move.state
            p = rules.prompt(state)
            try:
                if p is None:
                    raise IllegalChoice("The game is over: no more choices can be made.", code="game_over")
                c = p.find(seat, choice)  # what ``apply_inplace`` checks (on this very prompt)
                facts = rules.apply_unchecked(state, seat, c.id)
            except IllegalChoice as exc:
                raise ValidationFailed(exc.message, code=exc.code) from None
            except ScriptedValueError as exc:  # an old session's scripted value: the facilitator's to fix
                raise Conflict(f"The session's scripted values cannot be used here ({exc}); ask the "
                               "facilitator.", code="bad_script") from None
            eventlog.defer_writes(session)  # written by the flush below
            ev = eventlog.append(session, kind="decision", seat=seat, actor=user,
                                 payload=_decision_payload(p, seat, c), facts=facts,
                                 metrics=_metrics(rules, state), rationale=rationale, decision_ms=ms,
                                 state_after=state, rules=rules)
            bots = {k: v.bot_kind for k, v in seats.items() if v.bot_kind}
            appended = [ev.seq, *_run_bots(session, rules, state, bots)]
            response = {"seq": session.head_seq, "events": appended, "status": str(session.status)}
            # the move's events (and snapshot), the key's answer and the session row: one round trip
            eventlog.flush(session, *([SubmissionKey(session=session, key=idempotency_key, user=user,
                                                     request=request_sig, response=response)]
                                      if idempotency_key else []), update_fields=_MOVE_FIELDS)
        if outcome is not None:  # the row as it now is in the database
            outcome["session"] = session
        return {**response, "replayed": False}
    except IntegrityError:
        # Only reachable if two transactions raced past the row lock (not on PostgreSQL/SQLite).
        raise Conflict("A concurrent submission won; reload the prompt.", code="stale_seq") from None
