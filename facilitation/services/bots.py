"""The game goes on by itself: bot seats play until a team must act, a vignette's run or the
game ends, the decision timer hands a seat's decision to its bot."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engine
from engine.bots.base import make_bot
from engine.core.messages import msg, render
from facilitation import eventlog, receipts
from facilitation.errors import Conflict, ValidationFailed
from facilitation.models import (
    ClassSession,
    Seat,
    SessionEvent,
)
from facilitation.services.locking import _lock, _state
from facilitation.signals import session_finished

Status = ClassSession.Status


def _check_bot_kind(rules, kind: str) -> None:
    known = ["random", *rules.bot_kinds()]
    if kind not in known:
        raise ValidationFailed(f"Unknown bot kind {kind!r} for {rules.key} (known: {', '.join(known)}).",
                               code="unknown_bot")


def default_bot_kind(rules) -> str:
    kinds = rules.bot_kinds()
    for k in ("heuristic", "nonplayer"):
        if k in kinds:
            return k
    return "random"


def _metrics(rules, state) -> dict:
    return rules.metrics(state)


def _vignette_run_over(session: ClassSession, rules, state) -> dict | None:
    """The end of a vignette's short run (issue #18), or None: ``{"cards": N}`` N cards played
    since the start position, ``{"turns": N}`` N turns, ``{"decisions": N}`` the teams' own N
    decisions. Checked where play stops for a human decision, so a run never ends mid-step."""
    if not session.vignette_run_id:
        return None
    run = session.vignette_run
    limit = run.document.get("run") or {}
    if "cards" in limit and rules.cards_played(state) - run.start_cards >= limit["cards"]:
        return {"cards": limit["cards"]}
    if "turns" in limit:
        start = run.document.get("start_turn", 1)
        if rules.metrics(state).get("turn", start) - start >= limit["turns"]:
            return {"turns": limit["turns"]}
    if "decisions" in limit and SessionEvent.objects.filter(
            session=session, kind=SessionEvent.Kind.DECISION).count() >= limit["decisions"]:
        return {"decisions": limit["decisions"]}
    return None


def _finish_vignette(session: ClassSession, rules, state, reached: dict) -> None:
    """A vignette's run is complete: the session ends with the position's measures as its result."""
    metrics = _metrics(rules, state)
    result = {"vignette": session.vignette_run.vignette_id, "run_complete": reached, "winner": None,
              "metrics": metrics}
    session.result = result
    session.status = Status.FINISHED
    session.finished_at = timezone.now()
    eventlog.append(session, kind="system", payload={"action": "vignette_over", "result": result},
                    facts=[engine.fact("vignette_over", engine.msg("The vignette's run is complete."),
                                       cause=engine.cause_rule("vignette"))],
                    metrics=metrics, state_after=state, rules=rules)
    _announce_finished(session)


def _finish_if_over(session: ClassSession, rules, state) -> bool:
    if rules.prompt(state) is not None:
        reached = _vignette_run_over(session, rules, state)
        if reached is None:
            return False
        _finish_vignette(session, rules, state, reached)
        return True
    result = rules.result(state)
    session.result = eventlog.jsonable(result)
    session.status = Status.FINISHED
    session.finished_at = timezone.now()
    eventlog.append(session, kind="system", payload={"action": "game_over", "result": result},
                    facts=[engine.fact("game_over", msg("The game is over."))],
                    metrics=_metrics(rules, state), state_after=state, rules=rules)
    _announce_finished(session)
    receipts.publish(session, "game over")
    return True


def _announce_finished(session: ClassSession) -> None:
    """Once the end is committed, tell the listeners (the final AAR is built: issue #19)."""
    session_id = session.pk
    transaction.on_commit(lambda: session_finished.send(sender=ClassSession, session_id=session_id))


def _run_bots(session: ClassSession, rules=None, state=None, bots: dict[str, str] | None = None) -> list[int]:
    """Play every bot seat that must act now, until a human seat must act or the game ends.

    Each bot decision is logged as a ``bot`` event with the bot's reason. The bot's
    own randomness is seeded from the session seed and the seq, so it is reproducible.
    ``bots``: seat -> bot kind, if the caller has already read the seats under the lock.
    """
    if session.status != Status.LIVE:
        return []
    rules = rules or eventlog.rules_for(session)
    state = state if state is not None else _state(session, rules)
    if bots is None:
        bots = {s.seat_key: s.bot_kind for s in Seat.objects.filter(session=session) if s.bot_kind}
    appended = []
    for _ in range(settings.COINLAB_MAX_BOT_STEPS):
        p = rules.prompt(state)
        if p is None or (session.vignette_run_id and _finish_if_over(session, rules, state)):
            if p is None:
                _finish_if_over(session, rules, state)
            break
        seat = next((s for s in p.seats if s in bots), None)
        if seat is None:
            break
        bot = make_bot(rules, bots[seat], seat, seed=session.bot_seed(seat))
        decision = bot.choose(state, p)
        choice = p.find(seat, decision.choice_id)
        facts = rules.apply_inplace(state, seat, choice.id)
        ev = eventlog.append(session, kind="bot", seat=seat, payload={
            **_decision_payload(p, seat, choice), "bot": bots[seat], **_bot_reason(decision),
        }, facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
        appended.append(ev.seq)
    else:
        raise Conflict("The bots did not reach a human decision.", code="bots_stuck")
    return appended


def _timer_reason(seconds: int, decision) -> dict:
    """The reason of a decision the bot took when the team's timer ran out: in English and as a
    message (the bot's own reason inside), like every bot reason."""
    why = decision.message if decision.message is not None else decision.reason
    message = msg("decision timer expired ({seconds} s); {reason}", seconds=seconds, reason=why)
    return {"reason": render(message), "reason_message": message}


def _bot_reason(decision) -> dict:
    """A bot decision's reason for the event payload: ``reason`` in English and, when the bot
    gives one, ``reason_message``, the same reason as a message (shown in the viewer's language)."""
    out = {"reason": decision.reason}
    if decision.message is not None:
        out["reason_message"] = decision.message
    return out


def _seat_title(rules, seat: str):
    """A seat's title (a message in migrated games) for facts written here; the id if unknown."""
    return next((s.title for s in rules.seats if s.id == seat), seat)


def _decision_payload(p, seat: str, choice) -> dict:
    return {
        "choice": choice.id, "label": choice.label, "choice_payload": choice.payload,
        "prompt": p.text_for(seat), "rule": p.rule_for(seat), "prompt_kind": p.kind_for(seat), "turn": p.turn,
        "secret": bool(p.context.get("secret") or choice.payload.get("secret")),
    }


@transaction.atomic
def seat_timeout_decide(*, session: ClassSession, seat: str, expected_seq: int | None = None) -> list[int]:
    """The decision timer ran out: the seat's bot makes this one decision (a ``bot`` event,
    ``timeout: true``, reason "decision timer expired (N s); <the bot's reason>"), then
    any bot seats that come next play.

    Safe to call from any number of processes polling at once: under the session row
    lock it re-checks that the session is live, the deadline has passed, ``seat`` must
    act, and the log is still at ``expected_seq`` (if given). Returns the new seqs ([]
    when there was nothing to do).
    """
    session = _lock(session.pk)
    if session.status != Status.LIVE or not session.decision_timer_seconds:
        return []
    if expected_seq is not None and expected_seq != session.head_seq:
        return []
    from facilitation.selectors import decision_deadline

    deadline = decision_deadline(session)
    if deadline is None or deadline > timezone.now():
        return []
    rules = eventlog.rules_for(session)
    state = _state(session, rules)
    p = rules.prompt(state)
    if p is None or seat not in p.seats:
        return []
    kind = Seat.objects.filter(session=session, seat_key=seat).values_list("bot_kind", flat=True).first()
    kind = kind or default_bot_kind(rules)
    bot = make_bot(rules, kind, seat, seed=session.bot_seed(seat))
    decision = bot.choose(state, p)
    c = p.find(seat, decision.choice_id)
    facts = rules.apply_inplace(state, seat, c.id)
    ev = eventlog.append(session, kind="bot", seat=seat, payload={
        **_decision_payload(p, seat, c), "bot": kind, "timeout": True,
        **_timer_reason(session.decision_timer_seconds, decision),
    }, facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
    appended = [ev.seq, *_run_bots(session, rules, state)]
    session.save()
    return appended
