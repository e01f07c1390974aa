"""The final after-action review is requested when a session ends (issue #19 deliver 4)."""

import pytest

from facilitation import services
from facilitation.reports.models import AARReport
from tests.conftest import create_peru_game


@pytest.fixture
def final_aar(settings, monkeypatch):
    settings.COINLAB_FINAL_AAR = True
    queued = []
    monkeypatch.setattr("facilitation.reports.services._enqueue", queued.append)
    return queued


@pytest.mark.django_db
def test_ending_a_session_requests_its_final_review(people, final_aar, django_capture_on_commit_callbacks):
    game = create_peru_game(people)
    with django_capture_on_commit_callbacks(execute=True):
        services.session_end(session=game.session, user=people.instructor, reason="end of class")
    game.session.refresh_from_db()
    report = AARReport.objects.get(session=game.session)
    assert report.seq == game.session.head_seq
    assert report.status == AARReport.Status.QUEUED
    assert final_aar == [report.pk]


@pytest.mark.django_db
def test_a_game_over_by_the_rules_requests_its_final_review(people, final_aar, django_capture_on_commit_callbacks):
    game = create_peru_game(people)
    with django_capture_on_commit_callbacks(execute=True):
        services.session_autoplay(session=game.session, user=people.instructor)
    game.session.refresh_from_db()
    assert game.session.status == "finished"
    assert list(AARReport.objects.filter(session=game.session).values_list("seq", flat=True)) == [
        game.session.head_seq]
    assert len(final_aar) == 1


@pytest.mark.django_db
def test_a_failed_request_never_undoes_the_end(people, settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.COINLAB_FINAL_AAR = True

    def broken(*args, **kwargs):
        raise RuntimeError("broker gone")

    monkeypatch.setattr("facilitation.reports.services.report_request", broken)
    game = create_peru_game(people)
    with django_capture_on_commit_callbacks(execute=True):
        services.session_end(session=game.session, user=people.instructor)
    game.session.refresh_from_db()
    assert game.session.status == "finished"


@pytest.mark.django_db
def test_switched_off_no_review_is_requested(people, settings, django_capture_on_commit_callbacks):
    settings.COINLAB_FINAL_AAR = False
    game = create_peru_game(people)
    with django_capture_on_commit_callbacks(execute=True):
        services.session_end(session=game.session, user=people.instructor)
    assert not AARReport.objects.filter(session=game.session).exists()
