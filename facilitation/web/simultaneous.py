"""Simultaneous phases in the browser: a team's page is not stale because another team acted.

In a phase where several seats act at once (Tears of Tyranny's player window and phase 4),
every decision of one team moves the log, and every other team's page then carries an older
``seq`` until its next poll (up to 1.5 s). Four teams deciding at their own pace would see a
large share of their clicks refused as stale, although the question each of them answered is
still exactly the one they are being asked.

``rebase`` lets such a submission through, and only then: every event since the page's seq is
a decision of *another* seat within the same prompt turn (no undo, no facilitator action, no
decision of this seat), and this seat's question (text, rule and the full list of choices) is
identical at the page's seq and now. The service still checks everything else (seat owner,
legality, idempotency key, concurrent submissions under the session lock); anything else
stays stale and is refused as before.
"""

from __future__ import annotations

from facilitation import eventlog
from facilitation.models import ClassSession, SessionEvent

MAX_BEHIND = 12  # a page this far behind is re-read, not rebased


def _question(rules, state, seat: str) -> tuple | None:
    p = rules.prompt(state)
    if p is None or seat not in p.seats:
        return None
    d = p.to_dict(seat)
    return (p.turn, d.get("text"), d.get("rule"), tuple((c["id"], c["label"]) for c in d.get("choices") or []))


def rebase(session: ClassSession, seat: str, seq: int | None) -> int | None:
    """The seq to submit with: ``session.head_seq`` when the page's question for ``seat`` is
    unchanged since ``seq`` and only other seats have acted in between; otherwise ``seq``."""
    head = session.head_seq
    if seq is None or seq >= head or head - seq > MAX_BEHIND or seq < 0:
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
