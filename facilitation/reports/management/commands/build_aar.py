"""``manage.py build_aar SESSION_ID``: build (or find) the after-action review of a session."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from facilitation.errors import ServiceError
from facilitation.models import ClassSession
from facilitation.reports import assets, services
from facilitation.reports.models import AARReport


class Command(BaseCommand):
    help = ("Build the after-action review (HTML + PDF) of a session as of its last event (or --seq). "
            "By default the build is queued for a Celery worker (or runs at once in embedded mode); "
            "--inline builds in this process.")

    def add_arguments(self, parser):
        parser.add_argument("session_id", type=int)
        parser.add_argument("--seq", type=int, default=None, help="log position (default: the last event)")
        parser.add_argument("--inline", action="store_true", help="build here instead of in a worker")
        parser.add_argument("--wait", type=float, default=0,
                            help="seconds to wait for a queued build to finish (default: do not wait)")
        parser.add_argument("--out", default=None, help="copy the HTML and PDF into this folder")
        parser.add_argument("--retry-failed", action="store_true", help="rebuild a report that failed")
        parser.add_argument("--language", default=None,
                            help="the report's language, one of settings.LANGUAGES (default: the site's)")

    def handle(self, *args, **opts):
        try:
            session = ClassSession.objects.get(pk=opts["session_id"])
        except ClassSession.DoesNotExist:
            raise CommandError(f"No session {opts['session_id']}.") from None
        try:
            report = services.report_request(session, opts["seq"], check_permission=False,
                                             rebuild_failed=opts["retry_failed"] or opts["inline"],
                                             enqueue=not opts["inline"], language=opts["language"])
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        if opts["inline"] and report.status != AARReport.Status.DONE:
            report = services.report_build(report.pk)
        deadline = time.monotonic() + opts["wait"]
        while not report.is_finished and time.monotonic() < deadline:
            time.sleep(0.5)
            report.refresh_from_db()
        self.stdout.write(f"report {report.pk}: session {session.pk} at event {report.seq}: {report.status} "
                          f"({report.progress}%)")
        if report.status == AARReport.Status.FAILED:
            raise CommandError(report.error)
        if report.status == AARReport.Status.DONE:
            self.stdout.write(f"built in {report.build_seconds} s; {report.summary.get('charts')} charts; "
                              f"{report.summary.get('result')}")
            if opts["out"]:
                out = Path(opts["out"])
                out.mkdir(parents=True, exist_ok=True)
                for field, ext in (("html", "html"), ("pdf", "pdf"), ("summary_pdf", "summary.pdf")):
                    f = getattr(report, field)
                    if not f:
                        continue
                    dest = out / f"{report.file_stem()}.{ext}"
                    if field == "html":
                        # one self-contained file: every script and style sheet inlined, so it opens
                        # from disk with its styles and charts (the site's copy links them)
                        with f.open("rb") as src:
                            dest.write_text(assets.standalone(src.read().decode("utf-8")), encoding="utf-8")
                    else:
                        with f.open("rb") as src, open(dest, "wb") as dst:
                            shutil.copyfileobj(src, dst)
                    self.stdout.write(f"wrote {dest}")
