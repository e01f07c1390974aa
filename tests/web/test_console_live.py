"""The instructor's live console answered from the cache (issue #8): in the steady state a poll
costs no database query, whether 304 or 200 (assembled from the sections ``live_predraw``
drew); it still shows only the instructor's own sessions, and any change of who may see
what, or of a session's teams, shows on the next poll."""

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from facilitation import services, tasks
from facilitation.models import ROLE_INSTRUCTOR
from facilitation.rendering.regions import CSRF_SENTINEL

from .test_pages import _start, login

pytestmark = pytest.mark.django_db

URL = reverse("web:console_live")


def _teacher(client, instructor):
    return login(client, instructor, "pw-teacher-1")


def _poll(client, etag=""):
    return client.get(URL, HTTP_IF_NONE_MATCH=etag) if etag else client.get(URL)


def _move(session, user, seat):
    session.refresh_from_db()
    services.choice_submit(session=session, user=user, seat=seat, choice="op:pass", seq=session.head_seq)


def test_console_poll_costs_no_query_in_the_steady_state(client, toy_session, instructor, students,
                                                         django_assert_num_queries):
    _start(client, instructor, toy_session)
    _teacher(client, instructor)
    first = _poll(client)  # the full path: reads the database, fills the cache
    assert first.status_code == 200 and "Toy game" in first.content.decode()
    with django_assert_num_queries(0):
        again = _poll(client, first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    with django_assert_num_queries(0):  # a second tab without an ETag: the cached sections
        tab = _poll(client)
    assert tab.status_code == 200 and tab["ETag"] == first["ETag"]
    # a move, then the pre-draw task (as the "live" worker runs it): the next poll is a 200 with
    # the new position, still without a query
    _move(toy_session, students[0], "govt")
    tasks.live_predraw(toy_session.pk)
    with django_assert_num_queries(0):
        moved = _poll(client, first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    html = moved.content.decode()
    assert CSRF_SENTINEL not in html and 'name="csrfmiddlewaretoken"' in html
    assert moved.content != first.content


def test_a_change_without_predraw_is_drawn_by_the_poll(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    _teacher(client, instructor)
    etag = _poll(client)["ETag"]
    _move(toy_session, students[0], "govt")
    r = _poll(client, etag)
    assert r.status_code == 200 and r["ETag"] != etag
    assert _poll(client, r["ETag"]).status_code == 304


def test_console_shows_only_the_instructors_own_sessions(client, toy_session, instructor, django_user_model):
    _start(client, instructor, toy_session)
    other = django_user_model.objects.create_user("teacher2", password="pw-teacher-2")
    other.groups.add(Group.objects.get(name=ROLE_INSTRUCTOR))
    _teacher(client, instructor)
    assert "Toy game" in _poll(client).content.decode()
    c2 = login(Client(), other, "pw-teacher-2")
    for _ in range(2):  # the full path, then the cached one
        r = _poll(c2)
        assert r.status_code == 200 and "Toy game" not in r.content.decode()
    # made an instructor of the course: the next poll shows it
    services.course_instructor_add(course=toy_session.course, user=instructor, instructor=other)
    assert "Toy game" in _poll(c2).content.decode()


def test_removed_from_the_course_the_next_poll_no_longer_shows_it(client, toy_session, instructor,
                                                                  django_user_model):
    _start(client, instructor, toy_session)
    _teacher(client, instructor)
    first = _poll(client)
    assert _poll(client, first["ETag"]).status_code == 304
    toy_session.course.instructors.remove(instructor)
    r = _poll(client, first["ETag"])
    assert r.status_code == 200 and "Toy game" not in r.content.decode()
    assert _poll(client).status_code == 200 and "Toy game" not in _poll(client).content.decode()


def test_no_longer_an_instructor_or_deactivated_the_console_refuses(client, toy_session, instructor):
    _start(client, instructor, toy_session)
    _teacher(client, instructor)
    etag = _poll(client)["ETag"]
    assert _poll(client, etag).status_code == 304
    instructor.groups.clear()
    assert _poll(client, etag).status_code == 403
    assert _poll(client).status_code == 403
    instructor.groups.add(Group.objects.get(name=ROLE_INSTRUCTOR))
    assert _poll(client, etag).status_code == 304
    instructor.is_active = False
    instructor.save()
    r = _poll(client, etag)
    assert r.status_code == 302 and "login" in r["Location"]


def test_a_team_member_change_shows_on_the_next_poll(client, toy_session, instructor, students,
                                                     django_user_model):
    _start(client, instructor, toy_session)
    _teacher(client, instructor)
    first = _poll(client)
    assert "student2" in first.content.decode()
    newcomer = django_user_model.objects.create_user("newcomer", password="pw-student-1")
    services.team_member_replace(team=toy_session.teams.get(name="Red"), user=instructor, old_member=students[1],
                                 new_member=newcomer)
    r = _poll(client, first["ETag"])
    assert r.status_code == 200
    html = r.content.decode()
    assert "newcomer" in html and "student2" not in html


def test_a_new_session_and_a_status_change_show_on_the_next_poll(client, toy_session, instructor):
    _teacher(client, instructor)
    first = _poll(client)
    assert "Toy game" in first.content.decode()
    assert _poll(client, first["ETag"]).status_code == 304
    services.session_create(course=toy_session.course, user=instructor, title="Second game", scenario_key="toy",
                            seed=4, teams=["Green"], seats={"govt": "Green"})
    r = _poll(client, first["ETag"])
    assert r.status_code == 200 and "Second game" in r.content.decode()
    # the first session ends: it leaves the console
    services.session_start(session=toy_session, user=instructor)
    services.session_end(session=toy_session, user=instructor)
    html = _poll(client, r["ETag"]).content.decode()
    assert "Toy game" not in html and "Second game" in html


def test_console_sections_show_the_instructor_view_not_a_seats_secret_to_other_users(
        client, toy_session, instructor, students):
    """The console is for the course's instructors only: a student of the session is refused,
    also after the instructor's console has filled the cache."""
    _start(client, instructor, toy_session)
    _teacher(client, instructor)
    assert _poll(client).status_code == 200
    student = login(Client(), students[0], "pw-student-1")
    assert _poll(student).status_code == 403


def test_console_order_is_live_first_then_by_scheduled_start_on_both_paths(client, toy_session, instructor):
    import datetime as dt

    plus5 = dt.timezone(dt.timedelta(hours=5))
    later = services.session_create(course=toy_session.course, user=instructor, title="Later game", scenario_key="toy",
                                    seed=5, scheduled_start=dt.datetime(2031, 1, 1, 12, 0, tzinfo=dt.UTC))
    # 10:00 UTC, written in another time zone: earlier than "Later game"
    services.session_create(course=toy_session.course, user=instructor, title="Earlier game", scenario_key="toy",
                            seed=6, scheduled_start=dt.datetime(2031, 1, 1, 15, 0, tzinfo=plus5))
    assert later.pk
    _start(client, instructor, toy_session)
    _teacher(client, instructor)

    def order(html):
        return sorted(("Toy game", "Later game", "Earlier game"), key=html.index)

    full = _poll(client)
    cached = _poll(client)
    assert order(full.content.decode()) == ["Toy game", "Earlier game", "Later game"]
    assert order(cached.content.decode()) == order(full.content.decode()) and cached["ETag"] == full["ETag"]
