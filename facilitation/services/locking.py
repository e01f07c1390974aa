"""The session row lock every write to a running game takes, and a decision's reads under it
in one round trip (issue #8)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef, Subquery

from facilitation import eventlog
from facilitation.errors import NotFound
from facilitation.models import (
    ClassSession,
    Seat,
    SessionEvent,
    SubmissionKey,
    Team,
)

Status = ClassSession.Status


def _lock(session_id: int, *, head_time: bool = False) -> ClassSession:
    """The session row, locked. ``head_time``: also the head event's ``created_at`` (as
    ``head_created_at``, for ``_decision_ms``) in the same query."""
    qs = ClassSession.objects.select_for_update()
    if head_time:
        qs = qs.annotate(head_created_at=Subquery(
            SessionEvent.objects.filter(session=OuterRef("pk"), seq=OuterRef("head_seq")).values("created_at")[:1]))
    s = qs.filter(pk=session_id).first()
    if s is None:
        raise NotFound(f"There is no session {session_id}.")
    return s


def _state(session: ClassSession, rules):
    return eventlog.load_state(session, session.head_seq, rules)


# ---- a decision's reads in one round trip (issue #8) -------------------------------------
#
# A decision reads the session row under its lock, then the seats (with whether the user is
# on each seat's team), the idempotency key's earlier answer and the head event's time. On
# PostgreSQL that is two plain statements sent together: the ``SELECT ... FOR UPDATE`` of the
# row (its ``state`` kept as the jsonb text the server sends, decoded once by
# ``eventlog.load_state`` when the head state is needed), then one statement for the rest. The
# second statement starts once the first has the lock, so in READ COMMITTED it sees everything
# the transaction that held the lock committed (subqueries of the locking statement itself
# would not: they read the snapshot taken before it waited). Elsewhere (SQLite in embedded
# mode) the ORM reads the same in three queries.

_ROW_FIELDS = [f for f in ClassSession._meta.concrete_fields if f.attname != "state"]


def _lock_sql() -> str:
    table = ClassSession._meta.db_table
    cols = ", ".join(f'"{f.column}"' for f in _ROW_FIELDS)
    return f'SELECT {cols}, "state" FROM "{table}" WHERE "id" = %s FOR UPDATE'


def _checks_sql(head_seq: str) -> str:
    """Seats with ``is_member``, the key's earlier answer, the time of the event ``head_seq``
    (an SQL expression); parameters: user id, session id, session id, key, session id, then
    those of ``head_seq``."""
    members = Team.members.through._meta
    m_team = members.get_field("team").column
    m_user = members.get_field("user").column
    return (
        f'SELECT (SELECT json_agg(json_build_array(s."id", s."seat_key", s."team_id", s."bot_kind", '
        f'EXISTS(SELECT 1 FROM "{members.db_table}" m WHERE m."{m_team}" = s."team_id" AND m."{m_user}" = %s)) '
        f'ORDER BY s."id") FROM "{Seat._meta.db_table}" s WHERE s."session_id" = %s), '
        f'(SELECT json_build_array(k."user_id", k."request", k."response") FROM "{SubmissionKey._meta.db_table}" k '
        f'WHERE k."session_id" = %s AND k."key" = %s), '
        f'(SELECT e."created_at" FROM "{SessionEvent._meta.db_table}" e WHERE e."session_id" = %s AND e."seq" = {head_seq})')


def _lock_for_move(session_id: int, user, idempotency_key: str) -> tuple[ClassSession, dict[str, Seat], tuple | None]:
    """The session row locked (with ``head_created_at``), its seats as ``_session_seats`` gives
    them, and the key's earlier ``(user_id, request, response)`` (None if the key is new or empty)."""
    conn = transaction.get_connection()
    if conn.vendor != "postgresql":
        session = _lock(session_id, head_time=True)
        seats = _session_seats(user, session)
        prior = (SubmissionKey.objects.filter(session=session, key=idempotency_key)
                 .values_list("user_id", "request", "response").first() if idempotency_key else None)
        return session, seats, prior
    with conn.cursor() as cur:
        # One round trip for both statements where the driver sends the parameters merged
        # into the text (psycopg's client-side cursor, Django's default): the second statement
        # still takes its own snapshot after the first one has the lock. The head event is
        # the one whose seq the locked row names (a subquery on the row's head_seq).
        checks = _checks_sql(f'(SELECT "head_seq" FROM "{ClassSession._meta.db_table}" WHERE "id" = %s)')
        params = [user.pk, session_id, session_id, idempotency_key, session_id, session_id]
        together = eventlog.merges_parameters(cur)
        if together:
            cur.execute(f"{_lock_sql()}; {checks}", [session_id, *params])
        else:
            cur.execute(_lock_sql(), [session_id])
        row = cur.fetchone()
        if row is None:
            raise NotFound(f"There is no session {session_id}.")
        if together:
            cur.nextset()
        else:
            cur.execute(checks, params)
        seat_rows, prior, head_at = cur.fetchone()
    values = [f.from_db_value(v, None, conn) if v is not None and hasattr(f, "from_db_value") else v
              for f, v in zip(_ROW_FIELDS, row, strict=False)]
    session = ClassSession.from_db(conn.alias, [f.attname for f in _ROW_FIELDS], values)
    if row[-1] is None:
        session.state = None
    else:
        eventlog.remember_head_text(session, row[-1])
    seats = {}
    for pk, key, team_id, bot_kind, is_member in seat_rows or []:
        seat = Seat(id=pk, session_id=session_id, seat_key=key, team_id=team_id, bot_kind=bot_kind)
        seat.is_member = is_member
        seat._state.adding, seat._state.db = False, conn.alias
        seats[key] = seat
    session.head_created_at = head_at
    return session, seats, (tuple(prior) if prior and idempotency_key else None)


def _session_seats(user, session: ClassSession) -> dict[str, Seat]:
    """Every seat of the session in one query, each with ``is_member``: whether ``user`` is on its team."""
    members = Team.members.through.objects.filter(team_id=OuterRef("team_id"), user_id=user.pk)
    return {s.seat_key: s for s in Seat.objects.filter(session=session).annotate(is_member=Exists(members))}
