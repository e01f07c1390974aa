"""Celery tasks of the facilitation app (ids in, re-fetch, idempotent)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError

from facilitation import eventlog
from facilitation.errors import ServiceError
from facilitation.models import ClassSession


class BrokerUnavailable(ServiceError):
    status = 503
    code = "broker_unavailable"


def enqueue(task, *args, **kwargs):
    """Send ``task`` after the current transaction commits; a clear error when the broker is down.

    In embedded mode (no broker configured) the task runs at once, in this process.
    """
    def send():
        try:
            return task.apply_async(args=args, kwargs=kwargs, retry=False)
        except BrokerError as exc:
            raise BrokerUnavailable(
                f"The task queue ({settings.CELERY_BROKER_URL}) is not reachable: {exc}. "
                "Start Redis and the Celery workers, or unset REDIS_URL/CELERY_BROKER_URL to run tasks "
                "in the web process.") from exc

    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(send)
        return None
    return send()


@shared_task(acks_late=True, time_limit=600, soft_time_limit=540)
def session_verify(session_id: int) -> dict:
    """Replay a session's log from its seed (as ``manage.py verify_session``) in a worker."""
    session = ClassSession.objects.get(pk=session_id)
    rep = eventlog.verify(session)
    return {"session": session_id, "ok": rep.ok, "events": rep.events, "errors": rep.errors,
            "rules_changed": rep.rules_changed, "rules_differences": rep.rules_differences}


@shared_task(ignore_result=True, acks_late=False, time_limit=60, soft_time_limit=50)
def live_predraw(session_id: int) -> int:
    """Draw the session's current live region for every team seat into the shared cache
    (facilitation.live, "drawing the new version's regions ahead of the polls"); idempotent.
    Queue "live" (``CELERY_TASK_ROUTES``). Returns how many regions it stored (0 when the
    polls were faster or nothing is cacheable)."""
    from facilitation.web.views.instructor import predraw_console_summary
    from facilitation.web.views.play import predraw_regions

    stored = predraw_regions(session_id)
    # the instructors' consoles: the session's summary row of the new version (issue #8)
    return stored + int(predraw_console_summary(session_id))
