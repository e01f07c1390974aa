"""The build sends its pictures to the browser and typesets the summary PDF meanwhile
(``rendering.start_pictures``): a browser that fails them is the temporary error the task
retries, and a summary that fails drops the pictures still being drawn."""

from __future__ import annotations

from facilitation.reports import rendering, services
from facilitation.reports.models import AARReport


def test_a_browser_failing_the_pictures_is_retried_then_recorded(finished_peru, people, no_enqueue, monkeypatch):
    sent = []
    start = rendering.start_pictures

    def start_and_fail(model):
        pending = start(model)
        sent.append(pending)
        monkeypatch.setattr(pending, "wait", lambda progress=None: (_ for _ in ()).throw(
            rendering.ChartRenderError("Chart export failed (the browser crashed)")))
        return pending

    monkeypatch.setattr(rendering, "start_pictures", start_and_fail)
    report = services.report_request(finished_peru, finished_peru.head_seq - 4, user=people["instructor"])
    try:
        services.report_build(report.pk, final_attempt=False)
    except rendering.ChartRenderError:
        pass
    else:
        raise AssertionError("the browser's failure was not raised for the task to retry")
    report.refresh_from_db()
    assert report.status == AARReport.Status.QUEUED and "browser crashed" in report.stage
    report = services.report_build(report.pk, final_attempt=True)
    assert report.status == AARReport.Status.FAILED and "browser crashed" in report.error
    assert len(sent) == 2 and not report.pdf and not report.summary_pdf


def test_a_summary_that_fails_drops_the_pictures_being_drawn(finished_peru, people, no_enqueue, monkeypatch):
    cancelled = []
    monkeypatch.setattr(rendering.PendingPictures, "cancel", lambda self: cancelled.append(self))
    render_pdf = rendering.render_pdf

    def summary_breaks(model, *, generated_at=None, summary_only=False):
        if summary_only:
            raise ValueError("the summary cannot be typeset")
        return render_pdf(model, generated_at=generated_at)

    monkeypatch.setattr(rendering, "render_pdf", summary_breaks)
    report = services.report_request(finished_peru, finished_peru.head_seq - 5, user=people["instructor"])
    report = services.report_build(report.pk)
    assert report.status == AARReport.Status.FAILED and "the summary cannot be typeset" in report.error
    assert len(cancelled) == 1
