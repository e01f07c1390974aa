"""The final after-action review is built when a session ends (issue #19 deliver 4).

``facilitation.signals.session_finished`` arrives after the end is committed. The report is
requested for the head of the log as any instructor's request would be (same session and
seq: the same row, so a later click on "Build" finds it). With a broker the build is queued
for a worker; in the embedded mode it runs in the request that ended the session. A broker
that does not answer, or a build that fails, is logged and never undoes the end of the
session: the instructor can still build the report from the session's page.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def build_final_report(sender, session_id: int, **kwargs) -> None:
    from django.conf import settings

    from facilitation.models import ClassSession

    if not settings.COINLAB_FINAL_AAR:
        return
    from facilitation.reports import services

    session = ClassSession.objects.filter(pk=session_id).first()
    if session is None:
        return
    try:
        services.report_request(session, check_permission=False)
    except Exception:  # noqa: BLE001 - the session's end stands; the page offers "Build" again
        log.warning("final after-action review of session %s not built", session_id, exc_info=True)
