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
"""

from __future__ import annotations

from django.core.cache import cache
from django.db.models.signals import post_save
from django.dispatch import receiver

from facilitation.models import ClassSession

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
