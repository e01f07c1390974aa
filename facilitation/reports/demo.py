"""Hook for ``coinlab demo`` (``facilitation.demo.build_demo_reports``): the AAR of a
finished demo session, built in this process so the demo has a report at once."""

from __future__ import annotations

from facilitation.models import ClassSession
from facilitation.reports import rendering, services
from facilitation.reports.models import AARReport


def build(session: ClassSession) -> AARReport:
    report = services.report_request(session, check_permission=False, enqueue=False)
    if report.status != AARReport.Status.DONE:
        report = services.report_build(report.pk)
    return report


def building():
    """The block in which the demo is loaded and its reports built (whether by :func:`build` or
    at each finished session's end, ``COINLAB_FINAL_AAR``): the reports share one browser."""
    return rendering.one_browser()
