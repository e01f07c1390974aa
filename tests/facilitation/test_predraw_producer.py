"""The pre-draw's Celery producer under any threading model (issue 20).

The browser tests' live server (Django's ThreadedWSGIServer) starts a thread per request. When
each thread kept a producer of Celery's pool for its pre-draw sends, every request thread that
committed a move took one and never gave it back: after ``broker_pool_limit`` (10) of them the
pool was empty, and the next commit's send, or any task's ``apply_async`` in the process, waited
for a producer forever (a page decision with no answer while the polls already showed its move;
a whole test run hanging in ``Resource.acquire``). These tests make the threads deterministically:
more short-lived threads than the pool holds, then more long-lived threads than it holds, all
sending at once; each must finish its sends, and the pool must still have a producer for others.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connections, transaction

from coinlab.celery import app
from facilitation.models import ClassSession
from tests.conftest import create_peru_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    if app.conf.broker_url.startswith("memory://"):
        pytest.fail("these tests need the real broker (REDIS_URL): the pool limit is the point")
    yield app
    with app.connection_for_write() as conn:  # the pre-draw messages these tests sent
        conn.default_channel.queue_purge("live")


class Commits:
    """Threads that each commit a save of the session row (its version moves, so the pre-draw
    is queued after the commit), as request threads do; what went wrong in them is kept."""

    def __init__(self, session_id: int):
        self.session_id = session_id
        self.errors: list[BaseException] = []

    def commit(self, times: int, barrier: threading.Barrier | None = None) -> None:
        try:
            for _ in range(times):
                if barrier is not None:
                    barrier.wait(timeout=15)
                with transaction.atomic():
                    ClassSession.objects.select_for_update().get(pk=self.session_id).save()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(exc)
        finally:
            connections.close_all()

    def run(self, threads: list[threading.Thread], timeout: float = 20.0) -> None:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=timeout)
        stuck = [t.name for t in threads if t.is_alive()]
        assert not stuck, f"commits waiting for a producer of the pool: {stuck}"
        assert not self.errors, self.errors


def _pool_still_gives(app) -> None:
    producer = app.producer_pool.acquire(block=True, timeout=5)
    producer.release()


def test_a_thread_per_request_does_not_drain_the_producer_pool(broker, people):
    commits = Commits(create_peru_game(people).session.pk)
    limit = broker.pool.limit
    assert limit, "Celery's broker pool has a limit"
    # one thread after the other, each ending after its commit, as a thread-per-request server does
    for i in range(limit + 5):
        commits.run([threading.Thread(target=commits.commit, args=(1,), name=f"request-{i}", daemon=True)])
    _pool_still_gives(broker)


def test_more_threads_than_the_pool_holds_all_commit(broker, people):
    commits = Commits(create_peru_game(people).session.pk)
    n = broker.pool.limit + 5
    barrier = threading.Barrier(n)
    commits.run([threading.Thread(target=commits.commit, args=(3, barrier), name=f"thread-{i}", daemon=True)
                 for i in range(n)])
    _pool_still_gives(broker)


def test_a_send_stuck_on_the_broker_holds_up_the_others_for_a_bounded_time(broker, people, monkeypatch, caplog):
    from facilitation import tasks

    session_id = create_peru_game(people).session.pk
    monkeypatch.setattr(tasks, "PRODUCER_WAIT", 0.3)
    sent = []
    monkeypatch.setattr(tasks.live_predraw, "apply_async", lambda *args, **kwargs: sent.append(args))
    commits = Commits(session_id)
    with tasks._send_lock:  # another thread's send, stuck on an unreachable broker
        commits.run([threading.Thread(target=commits.commit, args=(1,), name="request", daemon=True)], timeout=10)
    assert sent == [], "nothing sent while the producer is held"
    assert "not queued" in caplog.text
    commits.run([threading.Thread(target=commits.commit, args=(1,), name="request-after", daemon=True)])
    assert len(sent) == 1, "the next send goes out"
