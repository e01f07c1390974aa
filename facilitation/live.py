"""Session versions in the shared cache, for cheap "nothing changed" answers to polls.

Every save of a :class:`ClassSession` row publishes its version (head seq, status,
updated_at, whether a decision timer runs) to the cache (Redis in production, so
every web process sees it) from inside the writing transaction. Writers of one
session are serialised by its row lock, so versions are published in commit order;
a version published by a transaction that then rolls back only costs a full answer.
A poll whose ``If-None-Match`` matches the published version gets ``304`` without
loading the session's state (docs/operations.md, "Load test").

Readers fill a missing key from the database with ``cache.add`` (never overwriting a
writer's newer value). If Redis is away the cache is a miss and the reader uses the
database row.

Also here (issue #8, docs/benchmarks.md "Load test"): the user's seats per session for
the 304 path (so that it needs no database query at all), invalidated by a membership
token on every change of seats or team members; a new version when a team states its
intent (the region shows it); and the key of the rendered live region per (session,
version, seat, language), see ``facilitation.web.views.play``.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from facilitation.models import ClassSession, Seat, Team, TeamIntent

TTL = 600


def _key(session_id: int) -> str:
    return f"sv:{session_id}"


def version_of(session: ClassSession) -> dict:
    return {"head_seq": session.head_seq, "status": str(session.status),
            "updated_at": session.updated_at.isoformat(), "timer": bool(session.decision_timer_seconds)}


def session_version(session_id: int) -> dict | None:
    """The session's current version (cache, else one small query); None if there is no such session."""
    v = cache.get(_key(session_id))
    if v is not None:
        return v
    row = (ClassSession.objects.filter(pk=session_id)
           .values("head_seq", "status", "updated_at", "decision_timer_seconds").first())
    if row is None:
        return None
    v = {"head_seq": row["head_seq"], "status": str(row["status"]), "updated_at": row["updated_at"].isoformat(),
         "timer": bool(row["decision_timer_seconds"])}
    cache.add(_key(session_id), v, timeout=TTL)
    return v


@receiver(post_save, sender=ClassSession, dispatch_uid="coinlab-session-version")
def _publish(sender, instance: ClassSession, **kwargs) -> None:
    cache.set(_key(instance.pk), version_of(instance), timeout=TTL)
    _predraw_on_commit(instance.pk)


# ---- drawing the new version's regions ahead of the polls ----------------------------------
#
# Every new version changes every seat's region, and each team's browsers ask for it within a
# poll interval. So once the transaction that made the version commits, one Celery task (queue
# "live", facilitation.tasks.live_predraw) draws the region of every team seat into the keys the
# polls read; a poll that comes first draws its own region as before (the key holds the version,
# so neither can store a stale or another seat's region). One task per session and commit:
# further saves in the same transaction find the callback already queued (a rolled-back
# transaction or savepoint drops its callbacks, so nothing is sent for it). In embedded mode
# (no broker, tasks eager) nothing is queued: the polls draw on demand, as a drawing in the
# committing request would only make that request slower.


def _predraw_on_commit(session_id: int) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    conn = transaction.get_connection()
    if conn.in_atomic_block and any(getattr(cb, "_coinlab_predraw", None) == session_id
                                    for _sids, cb, *_rest in conn.run_on_commit):
        return

    def send() -> None:
        from facilitation.tasks import live_predraw

        try:
            live_predraw.apply_async(args=[session_id], retry=False)
        except Exception:  # noqa: BLE001 - a lost pre-draw only means the polls draw themselves
            import logging

            logging.getLogger(__name__).warning("live pre-draw of session %s not queued", session_id, exc_info=True)

    send._coinlab_predraw = session_id
    transaction.on_commit(send)


# ---- who plays which seat, for the 304 path without database queries ------------------------
#
# The poll's "nothing changed" answer needs the user's seats in the session. They are kept
# per (session, user) in the cache together with a per-session membership token: any change
# to the session's seats or team memberships sets a fresh random token when it commits, so an
# entry filled before the change no longer matches and the next poll takes the full path
# (which reads the database, then refills the entry). The entry also keeps the user's session
# auth hash, compared with the login session's, as ``django.contrib.auth.get_user`` does.
# The entry also serves the seat's cached region (a 200 without a query, issue #8), so a
# user save that may deactivate the user or change the password (anything but a login's
# ``last_login`` update) renews the token of the user's sessions (``_user_saved``); a change
# that bypasses ``save`` (a queryset update) is seen after SEATS_TTL seconds at most.

SEATS_TTL = 300
ACL_TTL = 24 * 3600


def _acl_key(session_id: int) -> str:
    return f"sacl:{session_id}"


def _seats_key(session_id: int, user_id) -> str:
    return f"sseat:{session_id}:{user_id}"


def poll_lookup(session_id: int, user_id) -> tuple[dict | None, list[str] | None, str | None]:
    """One cache round trip: (session version, the user's seats if known, auth hash of the entry)."""
    keys = [_key(session_id), _acl_key(session_id), _seats_key(session_id, user_id)]
    got = cache.get_many(keys)
    version = got.get(keys[0])
    token = got.get(keys[1])
    entry = got.get(keys[2])
    if not entry or token is None or entry.get("g") != token:
        return version, None, None
    return version, list(entry["seats"]), entry["h"]


def membership_token(session_id: int) -> str:
    """The session's current membership token (created if missing); read it before the seats."""
    token = cache.get(_acl_key(session_id))
    if token is None:
        token = uuid.uuid4().hex
        cache.add(_acl_key(session_id), token, timeout=ACL_TTL)
        token = cache.get(_acl_key(session_id)) or token
    return token


def remember_seats(session_id: int, user, seats: list[str], token: str) -> None:
    cache.set(_seats_key(session_id, user.pk),
              {"g": token, "h": user.get_session_auth_hash(), "seats": list(seats)}, timeout=SEATS_TTL)


def _membership_changed(session_id: int | None) -> None:
    if not session_id:
        return
    # Now (this transaction's own later reads) and again once it commits (readers that read
    # the old rows in between filled entries with the token they saw first).
    cache.set(_acl_key(session_id), uuid.uuid4().hex, timeout=ACL_TTL)
    transaction.on_commit(lambda: cache.set(_acl_key(session_id), uuid.uuid4().hex, timeout=ACL_TTL))


@receiver(post_save, sender=Seat, dispatch_uid="coinlab-acl-seat-save")
@receiver(post_delete, sender=Seat, dispatch_uid="coinlab-acl-seat-delete")
def _seat_changed(sender, instance: Seat, **kwargs) -> None:
    _membership_changed(instance.session_id)


@receiver(post_delete, sender=Team, dispatch_uid="coinlab-acl-team-delete")
def _team_deleted(sender, instance: Team, **kwargs) -> None:
    _membership_changed(instance.session_id)


@receiver(m2m_changed, sender=Team.members.through, dispatch_uid="coinlab-acl-members")
def _members_changed(sender, instance, action: str, reverse: bool, pk_set, **kwargs) -> None:
    if not action.startswith("post_"):
        return
    if not reverse:  # team.members.add/remove/clear
        _membership_changed(instance.session_id)
    else:  # user.teams.add/remove/clear: the teams are pk_set (None for clear: every session)
        ids = (Team.objects.filter(pk__in=pk_set).values_list("session_id", flat=True) if pk_set
               else Team.objects.values_list("session_id", flat=True))
        for sid in set(ids):
            _membership_changed(sid)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="coinlab-acl-user-active")
def _user_saved(sender, instance, created: bool, update_fields=None, **kwargs) -> None:
    """A deactivated user's cached seats must stop answering (the cached region is served from
    them as a 304 is): a save that may change ``is_active`` renews the token of the sessions
    the user plays in. Logins (``last_login`` only) and new users cost nothing."""
    if created or (update_fields is not None and "is_active" not in update_fields):
        return
    for sid in set(Team.objects.filter(members=instance).values_list("session_id", flat=True)):
        _membership_changed(sid)


@receiver(post_save, sender=TeamIntent, dispatch_uid="coinlab-session-version-intent")
def _intent_saved(sender, instance: TeamIntent, created: bool, **kwargs) -> None:
    """A statement of intent changes what the team's live region shows (its cached fragments
    are keyed by the session version): save the session row, under its lock, to publish a
    new version."""
    with transaction.atomic():
        s = ClassSession.objects.select_for_update().filter(pk=instance.session_id).first()
        if s is not None:
            s.save(update_fields=["updated_at"])


# ---- rendered live regions, per (session, version, seat, language) -------------------------

# A region is wanted while its version is current and the team's browsers poll (every 1.5 s);
# a version that lasts longer is drawn again after this, once.
FRAGMENT_TTL = 120


def fragment_key(session_id: int, etag: str) -> str:
    """``etag`` is the region's ETag, made of the session id, head seq, status, updated_at,
    the seat and the language: a fragment is only ever served for the seat it was drawn for."""
    return f"fragz:{session_id}:{etag}"
