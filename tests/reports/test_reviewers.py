"""What reviewers see of after-action reviews, as the role matrix (tests/facilitation/test_roles.py,
docs/operations.md "Reviewer access") says: a reviewer granted the course watches its live
sessions read-only and reads the reports of its finished ones. So /reports/ lists a live
session for them as watch-only (a link to the watch page) and no report, export or
comparison of a live session opens to them; instructors read and build at any time."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from facilitation import services as fs
from facilitation.models import ClassSession
from facilitation.reports import selectors, services
from facilitation.reports.models import AARReport


@pytest.fixture
def live_report(live_peru, people, no_enqueue):
    """A report an instructor asked for while the session runs (queued is enough here)."""
    return services.report_request(live_peru, user=people["instructor"])


def _links(html: str) -> set[str]:
    return set(re.findall(r'href="([^"]+)"', html))


def test_reviewer_list_shows_finished_sessions_with_reports_and_live_ones_watch_only(
        client, people, built, finished_peru, live_peru, live_report):
    client.force_login(people["reviewer"])
    html = client.get(reverse("reports:index")).content.decode()
    links = _links(html)
    # the finished session: its page, its report and files, its exports
    for url in (reverse("reports:session", args=[finished_peru.pk]), reverse("reports:detail", args=[built.pk]),
                reverse("reports:html", args=[built.pk]), reverse("reports:pdf", args=[built.pk]),
                reverse("reports:export", args=[finished_peru.pk, "csv"])):
        assert url in links, url
    # the live session: watch only
    assert "Running now: watch only" in html
    assert reverse("web:watch", args=[live_peru.pk]) in links
    for url in (reverse("reports:session", args=[live_peru.pk]), reverse("reports:detail", args=[live_report.pk]),
                reverse("reports:export", args=[live_peru.pk, "csv"])):
        assert url not in links, url
    assert list(selectors.sessions_watch_only(people["reviewer"])) == [live_peru]
    assert live_report not in selectors.reports_visible_to(people["reviewer"])


def test_reviewer_cannot_open_reports_or_exports_of_a_live_session(client, people, live_peru, live_report):
    client.force_login(people["reviewer"])
    for url in (reverse("reports:session", args=[live_peru.pk]),
                reverse("reports:detail", args=[live_report.pk]),
                reverse("reports:status", args=[live_report.pk]),
                reverse("reports:html", args=[live_report.pk]),
                reverse("reports:pdf", args=[live_report.pk]),
                reverse("reports:export", args=[live_peru.pk, "csv"]),
                reverse("reports:export", args=[live_peru.pk, "json"])):
        resp = client.get(url)
        assert resp.status_code == 403, (url, resp.status_code)
    page = client.get(reverse("reports:session", args=[live_peru.pk])).content.decode()
    assert "once it is finished" in page and "watch it" in page
    compare = client.get(reverse("reports:compare", args=["peru"]), {"s": [live_peru.pk]}).content.decode()
    assert f'value="{live_peru.pk}"' not in compare
    # ...while the watch page is open to them (read-only), as the role matrix says
    assert client.get(reverse("web:watch", args=[live_peru.pk])).status_code == 200


def test_instructor_reads_and_builds_live_and_finished(client, people, live_peru, finished_peru, live_report):
    client.force_login(people["instructor"])
    html = client.get(reverse("reports:index")).content.decode()
    assert reverse("reports:session", args=[live_peru.pk]) in html
    assert reverse("reports:detail", args=[live_report.pk]) in html
    assert "Running now: watch only" not in html
    assert client.get(reverse("reports:detail", args=[live_report.pk])).status_code == 200
    assert client.get(reverse("reports:export", args=[live_peru.pk, "csv"])).status_code == 200
    assert selectors.sessions_watch_only(people["instructor"]).count() == 0


def test_reviewer_reads_once_the_session_is_finished(client, people, live_peru, live_report):
    client.force_login(people["reviewer"])
    url = reverse("reports:detail", args=[live_report.pk])
    assert client.get(url).status_code == 403
    fs.session_end(session=live_peru, user=people["instructor"], reason="end of class")
    live_peru.refresh_from_db()
    assert live_peru.status == ClassSession.Status.FINISHED
    assert client.get(url).status_code == 200
    html = client.get(reverse("reports:index")).content.decode()
    assert url in html and "Running now: watch only" not in html


def test_reviewer_playing_in_a_live_session_is_not_listed_to_watch_it(people, live_peru):
    team = live_peru.teams.first()
    fs.team_member_add(team=team, user=people["instructor"], member=people["reviewer"])
    assert live_peru not in selectors.sessions_watch_only(people["reviewer"])
    assert not selectors.session_can_read_reports(people["reviewer"], live_peru)


def test_home_page_offers_reviewers_watch_for_live_and_replay_for_finished(client, people, live_peru,
                                                                            finished_peru):
    client.force_login(people["reviewer"])
    links = _links(client.get("/").content.decode())
    assert reverse("web:watch", args=[live_peru.pk]) in links
    assert reverse("web:play", args=[live_peru.pk]) not in links
    assert f'{reverse("web:replay", args=[finished_peru.pk])}?seq=0' in links
    assert reverse("web:manage", args=[live_peru.pk]) not in links
    assert reverse("reports:index") in links


def test_report_rows_of_other_courses_never_reach_a_reviewer(people, built):
    assert AARReport.objects.filter(pk=built.pk).exists()
    assert built not in selectors.reports_visible_to(people["outsider"])
    assert selectors.sessions_watch_only(people["outsider"]).count() == 0


def test_students_read_their_finished_session_review_only(people, client, finished_peru, live_peru, built):
    """Issue 17: a finished game's review is open to the students who played it; a live session's
    reports (and the reports of sessions they did not play) stay closed."""
    from facilitation.reports import services as report_services

    student = people["student_b"]
    client.force_login(student)
    assert client.get(reverse("reports:session", args=[finished_peru.pk])).status_code == 200
    assert client.get(reverse("reports:summary_pdf", args=[built.pk])).status_code == 200
    live_report = report_services.report_request(live_peru, user=people["instructor"], enqueue=False)
    resp = client.get(reverse("reports:detail", args=[live_report.pk]))
    assert resp.status_code == 403
    page = client.get(reverse("reports:session", args=[live_peru.pk]))
    assert page.status_code == 403 and "once the session is finished" in page.content.decode()
    listing = client.get(reverse("reports:index")).content.decode()
    assert reverse("reports:pdf", args=[built.pk]) in listing
    live_report.delete()
