"""After-action review reports.

``AARReport(session, seq, language, status, progress, stage, error, html, pdf, ...)``: one
row per (session, seq, language) - the log position the report was built from and the
language it is written in. Requesting the same position in the same language again returns
the same row (unique constraint), never a duplicate; another language is another row, built
when someone reading in that language first asks for it. The row is created first; a Celery task fills it in while the page
polls its status (queued -> running -> done | failed).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.db import models, transaction
from django.utils.translation import gettext_lazy

log = logging.getLogger(__name__)


def report_root() -> Path:
    return Path(os.environ.get("COINLAB_REPORT_ROOT") or getattr(settings, "COINLAB_REPORT_ROOT", None)
                or Path(settings.MEDIA_ROOT).parent / "private-reports")


class ReportStorage(FileSystemStorage):
    """Local storage outside MEDIA_ROOT: report files are only served through the
    permission-checked download views, never by the public /media/ route.

    The folder is ``COINLAB_REPORT_ROOT`` (environment or setting; default
    ``var/private-reports``), read at each use; several machines must share it
    (e.g. an NFS mount), like MEDIA_ROOT.
    """

    def __init__(self):
        super().__init__(base_url=None)

    @property
    def base_location(self):  # not cached: follows COINLAB_REPORT_ROOT
        return str(report_root())

    @property
    def location(self):
        return os.path.abspath(self.base_location)


def report_storage() -> FileSystemStorage:
    return ReportStorage()


def report_upload_to(instance: AARReport, filename: str) -> str:
    return f"reports/session-{instance.session_id}/{filename}"


class AARReport(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", gettext_lazy("Queued")
        RUNNING = "running", gettext_lazy("Running")
        DONE = "done", gettext_lazy("Ready")
        FAILED = "failed", gettext_lazy("Failed")

    session = models.ForeignKey("facilitation.ClassSession", on_delete=models.CASCADE,
                                related_name="aar_reports")
    seq = models.PositiveIntegerField(help_text="The log position (SessionEvent.seq) the report is built from.")
    language = models.CharField(max_length=8, default="en", choices=settings.LANGUAGES,
                                help_text="The language the report is written in (one of settings.LANGUAGES).")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text="0-100 %")
    stage = models.CharField(max_length=200, blank=True, help_text="What the builder is doing now.")
    error = models.TextField(blank=True)
    html = models.FileField(upload_to=report_upload_to, storage=report_storage, blank=True, max_length=300)
    pdf = models.FileField(upload_to=report_upload_to, storage=report_storage, blank=True, max_length=300)
    summary_pdf = models.FileField(upload_to=report_upload_to, storage=report_storage, blank=True, max_length=300,
                                   help_text="The summary only: at most 4 pages.")
    summary = models.JSONField(default=dict, blank=True,
                               help_text="Headline figures: result, final metrics, chart count, pages.")
    attempts = models.PositiveIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)
    build_seconds = models.FloatField(null=True, blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["session", "seq", "language"],
                                               name="aarreport_unique_session_seq_language")]
        indexes = [models.Index(fields=["session", "status"])]

    def __str__(self) -> str:
        return f"AAR of session {self.session_id} at event {self.seq} in {self.language} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    def file_stem(self) -> str:
        """``aar-session-3-seq-40`` (English, the site's default) or ``aar-session-3-seq-40-es``."""
        suffix = "" if self.language == "en" else f"-{self.language}"
        return f"aar-session-{self.session_id}-seq-{self.seq}{suffix}"


def report_file_names(report: AARReport) -> list[str]:
    """Every file name a report may have in storage: the ones on the row and the ones a
    build writes (a build stopped half-way may have written a file the row never recorded)."""
    names = [f.name for f in (report.html, report.pdf, report.summary_pdf) if f and f.name]
    names += [report_upload_to(report, f"{report.file_stem()}.{ext}") for ext in ("html", "pdf", "summary.pdf")]
    return list(dict.fromkeys(names))


def delete_report_files(names: list[str], session_id: int) -> None:
    """Delete these report files, then the session's report folder if nothing else is in it."""
    storage = report_storage()
    for name in names:
        try:
            storage.delete(name)
        except OSError:
            log.exception("could not delete the report file %s", name)
    folder = Path(storage.path(f"reports/session-{session_id}"))
    try:
        folder.rmdir()  # only when empty: another report of the session keeps it
    except OSError:
        pass


def _on_report_deleted(sender, instance: AARReport, **kwargs) -> None:
    """A deleted report (alone, or with its session or course) takes its files with it,
    once the deletion is committed: a rolled-back deletion keeps them."""
    names = report_file_names(instance)
    session_id = instance.session_id
    transaction.on_commit(lambda: delete_report_files(names, session_id), using=kwargs.get("using"))
