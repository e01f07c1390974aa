"""Celery tasks of the facilitation app (ids in, re-fetch, idempotent)."""

from __future__ import annotations

import contextlib
import os
import threading

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
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


#: How long a queued estimate is not queued again (a worker that never came leaves it pending).
PACE_PENDING_SECONDS = 600


def request_pace_games(game_key: str, options: dict | None, games: int) -> None:
    """Have a Celery worker play the bot games behind a length estimate, once (a request never
    plays them: six four-player Tears of Tyranny games are about 27 s of CPU). In embedded
    mode (Celery eager) they are played here and now."""
    from django.core.cache import cache

    from facilitation.pacing import options_digest

    if cache.add(f"pace-pending:{game_key}:{games}:{options_digest(options)}", 1, PACE_PENDING_SECONDS):
        enqueue(pace_games, game_key, options or {}, games)


@shared_task(ignore_result=True, acks_late=True, time_limit=300, soft_time_limit=270)
def pace_games(game_key: str, options: dict, games: int) -> None:
    """Play and keep the bot games behind a session-length estimate (``request_pace_games``:
    the scheduling page asks, its fragment polls until they are kept); idempotent."""
    from facilitation.pacing import played_games

    played_games(game_key, options, games)


@shared_task(ignore_result=True, acks_late=False, time_limit=60, soft_time_limit=50)
def live_predraw(session_id: int) -> int:
    """Draw the session's current live region for every team seat into the shared cache
    (facilitation.live, "drawing the new version's regions ahead of the polls"); idempotent.
    Queue "live" (``CELERY_TASK_ROUTES``). Returns how many regions it stored (0 when the
    polls were faster or nothing is cacheable)."""
    # the drawing lives in facilitation.rendering.regions, which the page views import too; no
    # task imports a view (tests/test_layering.py)
    from facilitation.rendering.regions import predraw

    # every team seat's region, and the instructors' consoles' summary row of the new version
    # (issue #8), in one snapshot from one decoding of the state (issue 20)
    stored, section = predraw(session_id)
    return stored + int(section)


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
        ids = getattr(_deferred, "ids", None)
        if ids is not None:
            ids.append(session_id)
        else:
            _send_predraw(session_id)

    send._coinlab_predraw = session_id
    transaction.on_commit(send)


# The page's decision answers with the deciding seat's new region. It draws that region before
# the pre-draw of the other seats is queued (``predraw_deferred``), so the worker finds it drawn
# and does not draw it again, and does not take the CPU from the decision's own answer.
_deferred = threading.local()


@contextlib.contextmanager
def predraw_deferred():
    """Pre-draws of the commits made in this block (this thread) are queued when it ends,
    whatever way it ends, once per session."""
    outer = getattr(_deferred, "ids", None)
    _deferred.ids = ids = [] if outer is None else outer
    try:
        yield
    finally:
        if outer is None:
            _deferred.ids = None
            for sid in dict.fromkeys(ids):
                _send_predraw(sid)


# Each process keeps ONE producer of Celery's pool for its pre-draw messages instead of taking
# one and giving it back for every commit (issue #8: 0.1-0.2 ms of CPU a send), and its threads
# take turns with it under a lock (a send is a fraction of a millisecond, a few per second).
# Not one per thread (issue 20): a server that starts a thread per request (Django's
# ThreadedWSGIServer, the browser tests' live server) would take a producer for every thread
# that commits and never give it back when the thread ends; after ``broker_pool_limit`` (10)
# such threads the pool is empty and every later send, the pre-draw's or any other task's,
# waited for one forever with the request's database connection open. Nor does a thread ever
# wait forever now: if the pool has no producer to give, or another thread's send holds the
# producer, for PRODUCER_WAIT seconds, the pre-draw is not queued (the polls draw themselves)
# and a warning is logged.
# A send that fails gives the producer back as Celery does after any send (the pool then
# revives its channel, on a new connection if need be); the next send takes one again. Kept
# with the process id, so a forked process never uses its parent's.
PRODUCER_WAIT = 5.0
_send_lock = threading.Lock()
_held: dict = {"pid": None, "producer": None}


def _send_predraw(session_id: int) -> None:
    import logging

    # a send stuck on an unreachable broker holds up the others for PRODUCER_WAIT at most
    if not _send_lock.acquire(timeout=PRODUCER_WAIT):
        logging.getLogger(__name__).warning("live pre-draw of session %s not queued: another send of this "
                                            "process has waited %s s", session_id, PRODUCER_WAIT)
        return
    try:
        live_predraw.apply_async(args=[session_id], retry=False, producer=_producer())
    except Exception:  # noqa: BLE001 - a lost pre-draw only means the polls draw themselves
        _drop_producer()
        logging.getLogger(__name__).warning("live pre-draw of session %s not queued", session_id, exc_info=True)
    finally:
        _send_lock.release()


def _producer():
    """The process's producer (taken from Celery's pool on first use); call it under ``_send_lock``."""
    if _held["producer"] is not None and _held["pid"] == os.getpid():
        return _held["producer"]
    from coinlab.celery import app

    producer = app.producer_pool.acquire(block=True, timeout=PRODUCER_WAIT)
    _held.update(pid=os.getpid(), producer=producer)
    return producer


def _drop_producer() -> None:
    producer, pid = _held["producer"], _held["pid"]
    _held.update(pid=None, producer=None)
    if producer is not None and pid == os.getpid():
        try:
            producer.release()
        except Exception:  # noqa: BLE001 - a connection already gone is replaced by the pool
            pass


@receiver(post_save, sender=ClassSession, dispatch_uid="coinlab-session-predraw")
def _predraw_new_version(sender, instance: ClassSession, **kwargs) -> None:
    """A saved session row is a new version (``facilitation.live`` publishes it): draw its
    regions ahead of the polls once the transaction commits."""
    _predraw_on_commit(instance.pk)
