"""After-action review use cases: request a report, build it.

``report_request`` creates (or finds) the report row for (session, seq, language) and
enqueues the build after the transaction commits; ``report_build`` does the
work the Celery task asks for, writing progress into the row as it goes, with
every text in the row's language. ``report_in_language`` is the same report in
another language (built the first time a reader in that language asks for it).
Both are idempotent: one row per (session, seq, language); a finished report is not
rebuilt; a repeated or redelivered build overwrites the same files.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
import traceback
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from facilitation.errors import NotAllowed, ValidationFailed
from facilitation.models import ClassSession
from facilitation.reports import rendering, selectors
from facilitation.reports.builder.report import build_report
from facilitation.reports.builder.translation import translated
from facilitation.reports.models import AARReport, delete_report_files, report_file_names, report_upload_to
from facilitation.tasks import BrokerUnavailable as _BrokerUnavailable

log = logging.getLogger(__name__)

# Errors worth a retry: the database or broker blinked, the browser crashed or timed out.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError, TimeoutError,
                                                       ConnectionError, rendering.ChartRenderError)


# Starts of one build (retries after temporary errors, redeliveries after a lost worker)
# before it is recorded as failed: the task's 1 + 3 retries, plus two lost workers.
MAX_BUILD_ATTEMPTS = 6

# one error type for "the task queue is down" across the project (answered 503)
BrokerUnavailable = _BrokerUnavailable


# ---- broker ---------------------------------------------------------------------------
def broker_is_eager() -> bool:
    from coinlab.celery import app

    return bool(app.conf.task_always_eager)


def broker_check(timeout: float = 2.0) -> str | None:
    """None if the Celery broker answers within ``timeout`` seconds, else a message."""
    if broker_is_eager():
        return None
    from coinlab.celery import app

    url = app.conf.broker_url or ""
    safe = url.split("@")[-1] if "@" in url else url
    try:
        opts = {**(app.conf.broker_transport_options or {}), "socket_connect_timeout": timeout,
                "socket_timeout": timeout, "max_retries": 1}
        with app.connection_for_write(transport_options=opts, connect_timeout=timeout) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)
            # ensure_connection can succeed lazily; a round trip proves the broker answers
            client = getattr(conn.default_channel, "client", None)
            if client is not None and hasattr(client, "ping"):
                client.ping()
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        return (f"The report queue (Celery broker at {safe}) is not reachable: {type(exc).__name__}: {exc}. "
                f"Reports cannot be built until the broker (Redis) and a Celery worker are running; "
                f"ask the site administrator, then try again.")
    return None


def _enqueue(report_id: int) -> None:
    """Send the build task (called after commit)."""
    from facilitation.reports.tasks import build_aar_report

    try:
        res = build_aar_report.delay(report_id)
    except Exception as exc:  # noqa: BLE001 - broker vanished between the check and the send
        if broker_is_eager():
            raise
        log.exception("could not enqueue AAR report %s", report_id)
        AARReport.objects.filter(pk=report_id).update(
            status=AARReport.Status.FAILED, stage="Not started",
            error=f"The report could not be queued: {type(exc).__name__}: {exc}. "
                  f"Check that Redis and a Celery worker are running, then request the report again.",
            updated_at=timezone.now())
        return
    if res is not None and getattr(res, "id", None):
        AARReport.objects.filter(pk=report_id, task_id="").update(task_id=res.id)


# ---- request ---------------------------------------------------------------------------
def report_language(language: str | None) -> str:
    """``language`` (e.g. "es", "es-ar") as one of settings.LANGUAGES; the site's default otherwise."""
    codes = [code for code, _name in settings.LANGUAGES]
    if language:
        for candidate in (language, language.split("-")[0]):
            if candidate in codes:
                return candidate
    return settings.LANGUAGE_CODE if settings.LANGUAGE_CODE in codes else codes[0]


def report_request(session: ClassSession, as_of_seq: int | None = None, *, user=None,
                   check_permission: bool = True, rebuild_failed: bool = True,
                   enqueue: bool = True, language: str | None = None) -> AARReport:
    """The report of ``session`` as of event ``as_of_seq`` (default: the head of the log), written
    in ``language`` (default: the site's language, settings.LANGUAGE_CODE).

    Same session, seq and language -> the same row. A new row (or a failed one, retried) is
    queued and its build enqueued after commit (``enqueue=False``: the caller
    runs :func:`report_build` itself, e.g. ``manage.py build_aar --inline``). Raises :class:`BrokerUnavailable`
    when the build would have to go through a broker that does not answer.
    """
    if user is not None and check_permission and not selectors.report_can_request(user, session):
        raise NotAllowed(gettext("Only the course's instructors can build after-action reviews."))
    language = report_language(language)
    session.refresh_from_db(fields=["head_seq", "status", "result"])
    seq = session.head_seq if as_of_seq is None else int(as_of_seq)
    if session.head_seq == 0:
        raise ValidationFailed(gettext("This session has no events yet: there is nothing to review."))
    if seq < 1 or seq > session.head_seq:
        raise ValidationFailed(gettext("The log of this session has events 1 to {last}; event {seq} does not "
                                       "exist.").format(last=session.head_seq, seq=seq))
    existing = AARReport.objects.filter(session=session, seq=seq, language=language).first()
    if existing is not None and existing.status != AARReport.Status.FAILED:
        return existing
    if existing is not None and not rebuild_failed:
        return existing
    problem = broker_check() if enqueue else None
    if problem:
        raise BrokerUnavailable(problem)
    with transaction.atomic():
        try:
            with transaction.atomic():
                report, created = AARReport.objects.get_or_create(
                    session=session, seq=seq, language=language, defaults={"requested_by": user if getattr(
                        user, "is_authenticated", False) else None})
        except IntegrityError:  # a concurrent request created it
            report, created = AARReport.objects.get(session=session, seq=seq, language=language), False
        report = AARReport.objects.select_for_update().get(pk=report.pk)
        if not created and report.status != AARReport.Status.FAILED:
            return report
        if not created:
            report.status = AARReport.Status.QUEUED
            report.progress = 0
            report.error = ""
            with translation.override(language):
                report.stage = gettext("Queued again after a failure")
            report.task_id = ""
            report.attempts = 0  # a new request: the build gets its full number of tries again
            report.save(update_fields=["status", "progress", "error", "stage", "task_id", "attempts", "updated_at"])
        else:
            with translation.override(language):
                AARReport.objects.filter(pk=report.pk).update(stage=gettext("Queued"))
        rid = report.pk
        if enqueue:
            transaction.on_commit(lambda: _enqueue(rid))
    report.refresh_from_db()
    return report


def report_in_language(report: AARReport, language: str | None, *, user=None) -> AARReport:
    """The same report (session, log position) written in ``language``: ``report`` itself, or
    its sibling row, requested now if nobody read it in that language before. Whoever may read
    ``report`` may ask for its translation (the content is the same), so no permission check;
    a broker that does not answer raises :class:`BrokerUnavailable` as for any request."""
    language = report_language(language)
    if report.language == language:
        return report
    return report_request(report.session, report.seq, user=user, check_permission=False, language=language)


# ---- build ------------------------------------------------------------------------------
class _Progress:
    def __init__(self, report_id: int):
        self.report_id = report_id

    def __call__(self, pct: int, stage: str) -> None:
        AARReport.objects.filter(pk=self.report_id).update(progress=max(0, min(100, int(pct))), stage=stage,
                                                           updated_at=timezone.now())


def report_build(report_id: int, *, final_attempt: bool = True, task_id: str = "",
                 hooks: dict[str, Any] | None = None) -> AARReport | None:
    """Build the HTML and PDF of report ``report_id`` (what the Celery task runs).

    Done reports are left alone; a report deleted meanwhile gives None. Transient errors (database, broker, browser)
    are re-raised for the task to retry unless ``final_attempt``; any other
    error, or a transient one on the last attempt, ends in status ``failed``
    with the error text on the row. ``hooks`` lets tests and benchmarks observe
    or break a step: ``{"after_stage": callable(stage_name)}``.
    """
    hooks = hooks or {}
    with transaction.atomic():
        report = (AARReport.objects.select_for_update().select_related("session", "session__course")
                  .filter(pk=report_id).first())
        if report is None:  # deleted with its session after the task was sent: nothing to do
            log.info("AAR report %s no longer exists", report_id)
            return None
        if report.status == AARReport.Status.DONE:
            return report
        if report.attempts >= MAX_BUILD_ATTEMPTS:
            # reject_on_worker_lost re-queues a build whose worker process died; one that
            # kills its worker every time (e.g. out of memory) must not loop for ever.
            report.status = AARReport.Status.FAILED
            report.finished_at = timezone.now()
            report.error = (f"The build was started {report.attempts} times without finishing (its worker "
                            f"process was lost each time, e.g. out of memory or killed). Request the report "
                            f"again, or ask the site administrator to check the workers' logs.")
            report.save(update_fields=["status", "finished_at", "error", "updated_at"])
            return report
        report.status = AARReport.Status.RUNNING
        report.attempts += 1
        report.error = ""
        report.progress = 2
        with translation.override(report.language):
            report.stage = gettext("Starting")
        report.started_at = timezone.now()
        if task_id:
            report.task_id = task_id
        report.save(update_fields=["status", "attempts", "error", "progress", "stage", "started_at", "task_id",
                                   "updated_at"])
    progress = _Progress(report_id)
    after = hooks.get("after_stage") or (lambda name: None)
    t0 = time.perf_counter()
    # every text of the build (the builder's, the engine's messages, the templates', the stage
    # names the progress page shows) in the report's language
    with translation.override(report.language), translated(
            translation.gettext, translation.ngettext, decimal=_decimal_mark()):
        return _build(report, report_id, progress, after, t0, final_attempt=final_attempt)


def _decimal_mark() -> str:
    from django.utils.formats import get_format

    return get_format("DECIMAL_SEPARATOR")


def _build(report: AARReport, report_id: int, progress: _Progress, after, t0: float, *,
           final_attempt: bool) -> AARReport | None:
    try:
        session = report.session
        progress(5, gettext("Reading the event log"))
        bundle = selectors.report_bundle(session, report.seq)
        after("bundle")
        progress(20, gettext("Analysing decisions and measures"))
        model = build_report(bundle)
        after("analysis")
        decisions = int(getattr(settings, "COINLAB_AAR_WHATIF_DECISIONS", 5))
        if decisions > 0:
            progress(22, gettext("Playing the roads not taken"))
            model.whatifs = selectors.report_whatifs(session, model, decisions=decisions,
                                                     rollouts=int(getattr(settings, "COINLAB_AAR_WHATIF_ROLLOUTS", 8)))
        after("whatif")

        def chart_progress(done: int, total: int) -> None:
            progress(25 + int(45 * done / max(total, 1)),
                     gettext("Drawing charts ({done}/{total})").format(done=done, total=total))

        progress(25, gettext("Drawing charts ({done}/{total})").format(done=0, total=len(model.all_charts)))
        now = timezone.now()
        # the charts' SVG and, for the PDF, the charts' and maps' JPEGs: sent to the browser at once;
        # the summary PDF, which shows none, is typeset while the browser draws them
        pictures = rendering.start_pictures(model)
        try:
            summary_pdf = rendering.render_pdf(model, generated_at=now, summary_only=True)
        except BaseException:
            pictures.cancel()
            raise
        pictures.wait(progress=chart_progress)
        after("charts")
        progress(72, gettext("Writing the interactive HTML"))
        html = rendering.render_html(model, mode="html", generated_at=now)
        after("html")
        progress(78, gettext("Typesetting the PDF"))
        pdf = rendering.render_pdf(model, generated_at=now)
        after("pdf")
        progress(95, gettext("Saving files"))
        stem = report.file_stem()
        for field, content, ext in (("html", html.encode("utf-8"), "html"), ("pdf", pdf, "pdf"),
                                    ("summary_pdf", summary_pdf, "summary.pdf")):
            f = getattr(report, field)
            if f:
                f.delete(save=False)
            # a build killed half-way may have left this very file: overwrite it, no "_x7Yz" copies
            target = report_upload_to(report, f"{stem}.{ext}")
            if f.storage.exists(target):
                f.storage.delete(target)
            f.save(f"{stem}.{ext}", ContentFile(content), save=False)
        summary = {
            "scenario": session.scenario_key,
            "language": report.language,
            "game": model.cover["game"],
            "result": model.cover["result_headline"],
            "finished": model.cover["finished"],
            "charts": len(model.all_charts),
            "timelines": len(model.charts),
            "comparison_charts": len(model.comparison_charts),
            "whatifs": len(model.whatifs),
            "whatif_rollouts": sum(o.n for w in model.whatifs for o in w.options),
            "snapshots": len(model.snapshots),
            "key_moments": len(model.analysis.key_moments),
            "cards": model.cover["cards"],
            "events": model.cover["events"],
            "final_metrics": dict(model.analysis.final_metrics),
            "pdf_bytes": len(pdf),
            "summary_pdf_bytes": len(summary_pdf),
            "html_bytes": len(html),
            "teams": [t["name"] for t in model.cover["teams"]],
        }
        report.summary = summary
        report.status = AARReport.Status.DONE
        report.progress = 100
        report.stage = gettext("Ready")
        report.error = ""
        report.finished_at = timezone.now()
        report.build_seconds = round(time.perf_counter() - t0, 3)
        report.updated_at = timezone.now()
        saved = AARReport.objects.filter(pk=report_id).update(
            html=report.html.name, pdf=report.pdf.name, summary_pdf=report.summary_pdf.name,
            updated_at=report.updated_at,
            **{k: getattr(report, k) for k in ("summary", "status", "progress", "stage", "error", "finished_at",
                                               "build_seconds")})
        if not saved:
            # the report (or its session) was deleted during the build: leave no files behind
            delete_report_files(report_file_names(report), report.session_id)
            log.info("AAR report %s was deleted while it was built; its files are removed", report_id)
            return None
        return report
    except SoftTimeLimitExceeded:
        _fail(report_id, TimeoutError("the build took longer than its time limit "
                                      "(COINLAB_AAR_SOFT_TIME_LIMIT); the game may be too long for one report"))
    except TRANSIENT_ERRORS as exc:
        if not final_attempt:
            AARReport.objects.filter(pk=report_id).update(
                status=AARReport.Status.QUEUED,
                stage=gettext("Retrying after a temporary error: {error}").format(error=exc)[:200],
                updated_at=timezone.now())
            raise
        _fail(report_id, exc)
    except Exception as exc:  # noqa: BLE001 - every other failure is recorded on the row
        _fail(report_id, exc)
    return AARReport.objects.filter(pk=report_id).select_related("session", "session__course").first()


def _fail(report_id: int, exc: BaseException) -> None:
    log.exception("AAR report %s failed", report_id)
    stage = AARReport.objects.filter(pk=report_id).values_list("stage", flat=True).first() or ""
    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    text = f"The report could not be built while {stage.lower() or 'starting'}: {detail}"
    if settings.DEBUG:
        text += "\n\n" + "".join(traceback.format_exception(exc))[-4000:]
    AARReport.objects.filter(pk=report_id).update(status=AARReport.Status.FAILED, error=text,
                                                   finished_at=timezone.now(), updated_at=timezone.now())


def report_fail_if_stalled(report: AARReport) -> AARReport:
    """A build that stopped writing progress for longer than the task's hard time
    limit cannot still be running (its worker died and nothing redelivered it yet):
    say so on the row, so the page offers "Try again" instead of a frozen bar."""
    from facilitation.reports.tasks import TIME_LIMIT

    if report.status != AARReport.Status.RUNNING:
        return report
    cutoff = timezone.now() - dt.timedelta(seconds=TIME_LIMIT + 60)
    n = AARReport.objects.filter(pk=report.pk, status=AARReport.Status.RUNNING, updated_at__lt=cutoff).update(
        status=AARReport.Status.FAILED, finished_at=timezone.now(), updated_at=timezone.now(),
        error=(f"The build stopped while {report.stage.lower() or 'starting'} and did not finish "
               f"(its worker was lost). Request the report again."))
    if n:
        report.refresh_from_db()
    return report
