"""A worker that does not build reports (the ``-Q live`` pre-draw worker) starts no kaleido
Chromium and no WeasyPrint (issue #8: about 1 GB it would never use)."""

from __future__ import annotations

import time
from types import SimpleNamespace

import psutil
import pytest
from django.conf import settings

from facilitation.reports import tasks


def _worker(*queues):
    return SimpleNamespace(app=SimpleNamespace(amqp=SimpleNamespace(queues=SimpleNamespace(
        consume_from={q: object() for q in queues}))))


@pytest.mark.parametrize(("queues", "starts"), [
    (("live",), False),
    ((settings.CELERY_TASK_DEFAULT_QUEUE, "live"), True),
    ((settings.CELERY_TASK_DEFAULT_QUEUE,), True),
    (("aar-test-queue",), True),  # a queue of its own (tests/reports/test_worker_integration.py)
])
def test_only_a_worker_of_the_reports_queue_starts_kaleido(monkeypatch, queues, starts):
    started = []
    monkeypatch.setattr(tasks.rendering, "kaleido_start", lambda: started.append(1))
    monkeypatch.setattr(tasks, "_builds_reports", True)
    tasks._note_queues(sender="w@h", instance=_worker(*queues))
    tasks._start_kaleido()
    assert bool(started) is starts


@pytest.mark.integration
def test_a_real_live_worker_runs_no_browser(start_celery_worker):
    proc = start_celery_worker(queues="live")
    time.sleep(2)  # a report worker's pool process would have started its Chromium by now
    tree = psutil.Process(proc.pid).children(recursive=True)
    assert tree, "the worker has its pool process"
    names = {p.name() for p in tree}
    assert not any("chrom" in n for n in names), names
    assert sum(p.memory_info().rss for p in tree) < 400 * 2**20
