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
version, seat, language), see ``facilitation.rendering.regions``; and for the instructors'
consoles, the user's console sessions with a console token renewed on every change of who may
see what, so a console poll needs no database query either
(``facilitation.rendering.regions``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from facilitation.models import ClassSession, Course, Seat, Team, TeamIntent

TTL = 600


def _key(session_id: int) -> str:
    return f"sv:{session_id}"


def _version(head_seq, status, updated_at, timer, start) -> dict:
    # "start" (the scheduled start) only orders the instructor's console
    return {"head_seq": head_seq, "status": str(status), "updated_at": updated_at.isoformat(), "timer": bool(timer),
            "start": start.astimezone(dt.UTC).isoformat() if start else None}


_VERSION_COLUMNS = ("pk", "head_seq", "status", "updated_at", "decision_timer_seconds", "scheduled_start")


def version_of(session: ClassSession) -> dict:
    return _version(session.head_seq, session.status, session.updated_at, session.decision_timer_seconds,
                    session.scheduled_start)


def session_version(session_id: int) -> dict | None:
    """The session's current version (cache, else one small query); None if there is no such session."""
    return session_versions([session_id]).get(session_id)


def session_versions(session_ids) -> dict[int, dict]:
    """The current versions of these sessions: one cache round trip, and one query for those
    not in the cache (a session that does not exist is left out)."""
    ids = list(session_ids)
    got = cache.get_many([_key(i) for i in ids]) if ids else {}
    out = {i: got[_key(i)] for i in ids if _key(i) in got}
    missing = [i for i in ids if i not in out]
    if missing:
        for row in ClassSession.objects.filter(pk__in=missing).values_list(*_VERSION_COLUMNS):
            v = _version(*row[1:])
            cache.add(_key(row[0]), v, timeout=TTL)
            out[row[0]] = v
    return out


def remember_version(session: ClassSession) -> None:
    """A reader's fill of the session's version when the cache has none (after its TTL, a
    flush or a restart of Redis): without it every poll of a session that has not moved for
    TTL seconds took the checked path (three queries) until its next move. ``cache.add``
    never overwrites a writer's newer value (the writer publishes before it commits)."""
    cache.add(_key(session.pk), version_of(session), timeout=TTL)


@receiver(post_save, sender=ClassSession, dispatch_uid="coinlab-session-version")
def _publish(sender, instance: ClassSession, **kwargs) -> None:
    cache.set(_key(instance.pk), version_of(instance), timeout=TTL)
    # the new version's regions are drawn ahead of the polls by facilitation.tasks (its own
    # receiver of this signal): this module imports no task, so no import circle


# ---- who plays which seat, for the 304 path without database queries ------------------------
#
# The poll's "nothing changed" answer needs the user's seats in the session. They are kept
# per (session, login session) in the cache together with a per-session membership token: any change
# to the session's seats or team memberships sets a fresh random token when it commits, so an
# entry filled before the change no longer matches and the next poll takes the full path
# (which reads the database, then refills the entry). The entry also keeps the user's session
# auth hash and user id, compared with the login session's, as ``django.contrib.auth.get_user``
# does. Keyed by the login session, the entry is read in the same round trip as the login
# session itself (its data in the session store's cache), the poll's one trip (issue 20).
# The entry also serves the seat's cached region (a 200 without a query, issue #8), so a
# user save that may deactivate the user or change the password (anything but a login's
# ``last_login`` update) renews the token of the user's sessions (``_user_saved``); a change
# that bypasses ``save`` (a queryset update) is seen after SEATS_TTL seconds at most.

SEATS_TTL = 300
ACL_TTL = 24 * 3600


def _acl_key(session_id: int) -> str:
    return f"sacl:{session_id}"


def _seats_key(session_id: int, login_key: str) -> str:
    # per login session (its key hashed: the key is the cookie's secret), so that a poll reads
    # the login session and this entry in one round trip (issue 20; ``poll_lookup``)
    return f"sseat:{session_id}:{hashlib.sha256(login_key.encode()).hexdigest()[:32]}"


def poll_lookup(session_id: int, login_key: str, store_key: str | None = None) -> tuple[dict | None, dict | None]:
    """One cache round trip: (session version, the seats entry of this login session if it is
    current: ``{"u": user id, "h": auth hash, "seats": [...]}``, else None). With ``store_key``
    (the login session's key in the session store's cache, ``cached_db``) the login session's
    data is read in the same trip and returned as the entry's ``"login"`` (None: not cached)."""
    keys = [_key(session_id), _acl_key(session_id), _seats_key(session_id, login_key)]
    if store_key is not None:
        keys.append(store_key)
    got = cache.get_many(keys)
    version = got.get(keys[0])
    token = got.get(keys[1])
    entry = got.get(keys[2])
    if not entry or token is None or entry.get("g") != token:
        entry = None
    if store_key is not None:
        entry = {**(entry or {}), "login": got.get(store_key)}
    return version, entry


def membership_token(session_id: int) -> str:
    """The session's current membership token (created if missing); read it before the seats."""
    token = cache.get(_acl_key(session_id))
    if token is None:
        token = uuid.uuid4().hex
        cache.add(_acl_key(session_id), token, timeout=ACL_TTL)
        token = cache.get(_acl_key(session_id)) or token
    return token


def membership_tokens(session_ids) -> dict[int, str]:
    """``membership_token`` of several sessions in one cache round trip (missing ones created)."""
    ids = list(session_ids)
    got = cache.get_many([_acl_key(i) for i in ids]) if ids else {}
    return {i: got.get(_acl_key(i)) or membership_token(i) for i in ids}


def remember_seats(session_id: int, login_key: str, user, seats: list[str], token: str) -> None:
    """The user's seats in the session for the polls of this login session (``poll_lookup``)."""
    cache.set(_seats_key(session_id, login_key),
              {"g": token, "u": str(user.pk), "h": user.get_session_auth_hash(), "seats": list(seats)},
              timeout=SEATS_TTL)


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


@receiver(post_save, sender=Team, dispatch_uid="coinlab-acl-team-save")  # its name shows in the console
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


# ---- the instructors' consoles: which sessions a console shows, without database queries ----
#
# A console poll (GET /console/live/) needs the instructor's sessions: those of the courses they
# teach that are not finished (a finished session never comes back). They are kept per user
# in the cache with the user's session auth hash and a console token shared by all users:
# anything that can change whose console shows which session (a new or deleted session or
# course, a course's instructors, a user's groups, staff flag, activity or password, a deleted
# user or group) sets a fresh token when it commits, so every entry is filled again from the
# database on its next poll. Such changes are rare next to the polls; each entry also expires
# after CONSOLE_TTL seconds (a change that bypasses ``save``, e.g. a queryset update).

CONSOLE_TTL = 300
_CONSOLE_TOKEN = "cacl"


def _console_key(user_id) -> str:
    return f"cacl:{user_id}"


def console_token() -> str:
    """The current console token (created if missing); read it before the user's sessions."""
    token = cache.get(_CONSOLE_TOKEN)
    if token is None:
        cache.add(_CONSOLE_TOKEN, uuid.uuid4().hex, timeout=ACL_TTL)
        token = cache.get(_CONSOLE_TOKEN) or uuid.uuid4().hex
    return token


def console_lookup(user_id) -> tuple[list[int] | None, str | None]:
    """One cache round trip: (the user's console sessions if known, auth hash of the entry)."""
    got = cache.get_many([_CONSOLE_TOKEN, _console_key(user_id)])
    token, entry = got.get(_CONSOLE_TOKEN), got.get(_console_key(user_id))
    if not entry or token is None or entry.get("g") != token:
        return None, None
    return list(entry["ids"]), entry["h"]


def remember_console(user, session_ids: list[int], token: str) -> None:
    cache.set(_console_key(user.pk), {"g": token, "h": user.get_session_auth_hash(), "ids": list(session_ids)},
              timeout=CONSOLE_TTL)


def _consoles_changed() -> None:
    cache.set(_CONSOLE_TOKEN, uuid.uuid4().hex, timeout=ACL_TTL)
    transaction.on_commit(lambda: cache.set(_CONSOLE_TOKEN, uuid.uuid4().hex, timeout=ACL_TTL))


@receiver(post_save, sender=ClassSession, dispatch_uid="coinlab-console-session-new")
def _console_session_saved(sender, instance, created: bool, **kwargs) -> None:
    if created:
        _consoles_changed()


@receiver(post_delete, sender=ClassSession, dispatch_uid="coinlab-console-session-delete")
@receiver(post_delete, sender=Course, dispatch_uid="coinlab-console-course-delete")
@receiver(post_delete, sender=Group, dispatch_uid="coinlab-console-group-delete")
@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="coinlab-console-user-delete")
def _console_row_deleted(sender, instance, **kwargs) -> None:
    _consoles_changed()


@receiver(m2m_changed, sender=Course.instructors.through, dispatch_uid="coinlab-console-instructors")
def _console_instructors_changed(sender, action: str, **kwargs) -> None:
    if action.startswith("post_"):
        _consoles_changed()


def _console_groups_changed(sender, action: str, **kwargs) -> None:
    if action.startswith("post_"):
        _consoles_changed()


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="coinlab-console-user-save")
def _console_user_saved(sender, instance, created: bool, update_fields=None, **kwargs) -> None:
    """Staff flag, activity or password may have changed (a login's ``last_login`` update did not)."""
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    _consoles_changed()


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


# Who draws a region: the first of the pre-draw worker, a poll or the page's decision to add
# this key draws it, the others wait for its drawing instead of drawing the same region again
# (issue 20). It holds no content; it lapses after CLAIM_TTL seconds (a drawer killed midway).
CLAIM_TTL = 5


def claim_key(session_id: int, etag: str) -> str:
    return f"fragdraw:{session_id}:{etag}"


m2m_changed.connect(_console_groups_changed, sender=get_user_model().groups.through,
                    dispatch_uid="coinlab-console-groups")
