"""Report files live in storage (COINLAB_REPORT_ROOT), not in the database: deleting a
report, or the session or course it belongs to, deletes its files once the deletion is
committed; a rolled-back deletion keeps them; a report deleted while it is being built
leaves no files behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.db import transaction

from facilitation.reports import services
from facilitation.reports.models import AARReport, report_file_names, report_storage, report_upload_to

from .helpers import play_peru_game


def _build(session, seq, user) -> AARReport:
    report = services.report_request(session, seq, user=user, enqueue=False)
    report = services.report_build(report.pk)
    assert report.status == AARReport.Status.DONE, report.error
    return report


def _paths(report: AARReport) -> list[Path]:
    paths = [Path(report.html.path), Path(report.pdf.path)]
    assert all(p.is_file() for p in paths)
    return paths


def test_deleting_a_report_deletes_its_files(finished_peru, people, built, django_capture_on_commit_callbacks):
    report = _build(finished_peru, finished_peru.head_seq - 7, people["instructor"])
    paths = _paths(report)
    with django_capture_on_commit_callbacks(execute=True):
        report.delete()
    assert not any(p.exists() for p in paths)
    # the session's other report keeps its files and the folder
    assert Path(built.pdf.path).is_file() and Path(built.html.path).is_file()


def test_a_rolled_back_deletion_keeps_the_files(finished_peru, people, django_capture_on_commit_callbacks):
    report = _build(finished_peru, finished_peru.head_seq - 8, people["instructor"])
    paths = _paths(report)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            AARReport.objects.filter(pk=report.pk).delete()
            raise RuntimeError("changed my mind")
    assert callbacks == [] and all(p.is_file() for p in paths)
    assert AARReport.objects.filter(pk=report.pk).exists()


def test_deleting_a_session_deletes_every_report_file_and_its_folder(people, django_capture_on_commit_callbacks):
    session = play_peru_game(instructor=people["instructor"], students=[people["student_a"], people["student_b"]],
                             title="Deleted lab", seed=21)
    reports = [_build(session, session.head_seq, people["instructor"]),
               _build(session, session.head_seq - 10, people["instructor"])]
    # a build that stopped half-way wrote a file its row never recorded
    half = services.report_request(session, session.head_seq - 20, user=people["instructor"], enqueue=False)
    stray = report_upload_to(half, f"{half.file_stem()}.html")
    report_storage().save(stray, ContentFile(b"x"))
    assert report_storage().exists(stray) and stray in report_file_names(half)
    paths = [p for r in reports for p in _paths(r)]
    folder = paths[0].parent
    assert folder.name == f"session-{session.pk}"
    with django_capture_on_commit_callbacks(execute=True):
        session.delete()
    assert not AARReport.objects.filter(session_id=session.pk).exists()
    assert not any(p.exists() for p in paths) and not report_storage().exists(stray)
    assert not folder.exists()


def test_deleting_a_course_deletes_its_sessions_report_files(people, django_capture_on_commit_callbacks):
    session = play_peru_game(instructor=people["instructor"], students=[people["student_a"], people["student_b"]],
                             title="Course gone", seed=22, human_moves=2)
    paths = _paths(_build(session, session.head_seq, people["instructor"]))
    with django_capture_on_commit_callbacks(execute=True):
        session.course.delete()
    assert not any(p.exists() for p in paths)


def test_a_report_deleted_during_its_build_leaves_no_files(finished_peru, people):
    report = services.report_request(finished_peru, finished_peru.head_seq - 9, user=people["instructor"],
                                     enqueue=False)
    names = report_file_names(report)

    def delete_row(stage):
        if stage == "pdf":  # the files are about to be saved
            AARReport.objects.filter(pk=report.pk).delete()

    assert services.report_build(report.pk, hooks={"after_stage": delete_row}) is None
    assert not any(report_storage().exists(n) for n in names)
