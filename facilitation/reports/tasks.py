"""Celery task for after-action reviews (thin: the work is ``services.report_build``).

Takes an id, re-fetches, is idempotent (a done report is not rebuilt; a
redelivered message rebuilds the same row and files). ``acks_late`` with
``reject_on_worker_lost``: a worker killed mid-build leaves the message
unacknowledged and another worker (or the restarted one) builds the report.

Each worker process that builds reports keeps one kaleido (Chromium) server for static
charts, started in ``worker_process_init`` and stopped in ``worker_process_shutdown``. A
worker that consumes only the pre-draws' queue (``-Q live``) starts neither it nor WeasyPrint: about 1 GB of memory it would never use (issue #8).
"""

from __future__ import annotations

import logging
import os

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import celeryd_after_setup, worker_process_init, worker_process_shutdown
from django.conf import settings

from facilitation.reports import rendering, services

log = logging.getLogger(__name__)

SOFT_TIME_LIMIT = int(getattr(settings, "COINLAB_AAR_SOFT_TIME_LIMIT", 240))
TIME_LIMIT = int(getattr(settings, "COINLAB_AAR_TIME_LIMIT", 300))
MAX_RETRIES = 3
RETRY_BACKOFF_MAX = 60


@shared_task(
    bind=True,
    name="reports.build_aar_report",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=services.TRANSIENT_ERRORS,
    retry_backoff=2,
    retry_backoff_max=RETRY_BACKOFF_MAX,
    retry_jitter=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=SOFT_TIME_LIMIT,
    time_limit=TIME_LIMIT,
)
def build_aar_report(self, report_id: int) -> dict:
    final = self.request.retries >= MAX_RETRIES
    try:
        report = services.report_build(report_id, final_attempt=final, task_id=self.request.id or "")
    except SoftTimeLimitExceeded as exc:
        services._fail(report_id, TimeoutError(f"the build took longer than {SOFT_TIME_LIMIT} s ({exc})"))
        return {"report": report_id, "status": "failed"}
    return {"report": report_id, "status": report.status if report is not None else "missing"}


def _kaleido_enabled() -> bool:
    return os.environ.get("COINLAB_KALEIDO_SERVER", "1") not in ("0", "false", "no")


# Whether this worker may build reports (it consumes some queue besides the live pre-draws'):
# set in the worker's main process once its queues are known, before it forks its pool (the
# pool processes inherit it).
_builds_reports = True


@celeryd_after_setup.connect
def _note_queues(sender=None, instance=None, **_kwargs) -> None:
    global _builds_reports
    try:
        queues = set(instance.app.amqp.queues.consume_from)
    except AttributeError:
        return  # not a worker we can read: keep the default (build reports)
    live = settings.CELERY_TASK_ROUTES["facilitation.tasks.live_predraw"]["queue"]
    _builds_reports = bool(queues - {live})  # anything but the pre-draws' queue alone


@worker_process_init.connect
def _start_kaleido(**_kwargs) -> None:
    if not _builds_reports:
        return
    # WeasyPrint and kaleido/choreographer log every page and tab at INFO
    for name in ("weasyprint", "fontTools", "kaleido", "choreographer", "logistro"):
        logging.getLogger(name).setLevel(logging.WARNING)
    try:
        import weasyprint  # noqa: F401 - loaded once per process, not in the first build
    except Exception:  # noqa: BLE001 - the build reports a missing library itself
        log.exception("WeasyPrint could not be loaded")
    if not _kaleido_enabled():
        return
    try:
        rendering.kaleido_start()
    except Exception:  # noqa: BLE001 - reports fall back to one browser per report
        log.exception("could not start the kaleido server in this worker process")


@worker_process_shutdown.connect
def _stop_kaleido(**_kwargs) -> None:
    try:
        rendering.kaleido_stop()
    except Exception:  # noqa: BLE001
        log.exception("could not stop the kaleido server")
