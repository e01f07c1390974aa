"""A team takes back its own last decision within its turn; an undo is as secret as what it
undoes (shared with the facilitator's ``undo_last``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

import engine
from engine.core.messages import msg
from facilitation import eventlog
from facilitation.errors import Conflict
from facilitation.models import (
    ClassSession,
    SessionEvent,
)
from facilitation.services.bots import _metrics, _seat_title
from facilitation.services.locking import _lock, _state
from facilitation.services.moves import _check_seat_owner, _check_seq, _require_live

Status = ClassSession.Status


def _undo_secret(target: SessionEvent) -> bool:
    """Whether some seat may not see what ``target`` chose: it was marked secret, or some of
    its facts are hidden from some seat (e.g. where the Directives Base went)."""
    return bool((target.payload or {}).get("secret")) or any(
        isinstance(f, dict) and f.get("visible_to") is not None for f in target.facts or [])


def _undo_visibility(target: SessionEvent) -> dict:
    """The payload keys that make an undo as secret as what it undoes (issue 14 item 2): only
    the seat that decided (and the full record) reads the undone choice's id and label."""
    return {"secret": True, "visible_to": [target.seat]} if _undo_secret(target) else {}


def _undo_fact(target: SessionEvent, type_: str, text: Any, public_text: Any) -> dict:
    """The undo's fact: ``text`` names the undone choice; for a secret one, only the deciding
    seat reads it and every other seat reads ``public_text`` (engine.fact_for_seat)."""
    if not _undo_secret(target):
        return engine.fact(type_, text)
    return engine.fact(type_, text, visible_to=[target.seat], public=engine.fact(type_, public_text))


def _undo_target(session: ClassSession, rules, seat: str) -> SessionEvent:
    """The seat's last decision on the current path, if undoing it stays within its own turn."""
    parents = dict(SessionEvent.objects.filter(session=session).values_list("seq", "parent_seq"))
    path = []
    cur = session.head_seq
    while cur > 0:
        path.append(cur)
        cur = parents[cur]
    # path: head back to the first event. Walk back over no-op events to the last decision.
    events = {e.seq: e for e in SessionEvent.objects.filter(session=session, seq__in=path[:200])}
    for s in path[:200]:
        e = events[s]
        if any(f.get("barrier") for f in e.facts or []):
            break
        if e.kind == "decision" and e.seat == seat:
            return e
        if e.kind in ("decision", "bot") or (e.kind == "facilitator" and e.payload.get("action") == "adjust"):
            break
        if e.kind == "system" and e.payload.get("action") in ("start", "game_over"):
            break
    raise Conflict("There is nothing of yours to undo in this turn (undo never goes back past another "
                   "seat's move or revealed cards and dice).", code="nothing_to_undo")


@transaction.atomic
def choice_undo(*, session: ClassSession, user, seat: str, seq: int) -> dict:
    """Take back the seat's last decision, within its own turn, never past revealed randomness."""
    session = _lock(session.pk)
    _check_seat_owner(user, session, seat)
    _require_live(session)
    _check_seq(session, seq)
    rules = eventlog.rules_for(session)
    state = _state(session, rules)
    p = rules.prompt(state)
    if p is None or seat not in p.seats:
        raise Conflict("You can only undo during your own turn.", code="not_your_turn")
    target = _undo_target(session, rules, seat)
    if (target.payload.get("turn") or "") != (p.turn or ""):
        raise Conflict("That decision belongs to an earlier turn and can no longer be undone.",
                       code="turn_over")
    back_state = eventlog.load_state(session, target.parent_seq, rules)
    ev = eventlog.append(session, kind="undo", seat=seat, actor=user, parent_seq=target.parent_seq,
                         payload={"undone_seq": target.seq, "back_to": target.parent_seq,
                                  "choice": target.payload.get("choice"), "label": target.payload.get("label"),
                                  **_undo_visibility(target)},
                         facts=[_undo_fact(target, "undo",
                                           msg("{seat} takes back: {choice}", seat=_seat_title(rules, seat),
                                               choice=target.payload.get("label") or ""),
                                           msg("{seat} takes back a secret decision.", seat=_seat_title(rules, seat)))],
                         metrics=_metrics(rules, back_state), state_after=back_state, rules=rules)
    session.save()
    return {"seq": session.head_seq, "events": [ev.seq], "status": session.status, "undone": target.seq}
