"""The course page (issue #19 deliver 4): roster of students, teams and reviewers; students
added by user name or by a pasted list (all or nothing)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from facilitation import services
from facilitation.errors import ValidationFailed

pytestmark = pytest.mark.django_db


@pytest.fixture
def course(instructor):
    return services.course_create(user=instructor, title="COIN 101")


@pytest.fixture
def known(django_user_model):
    return [django_user_model.objects.create_user(n, password="long-enough-pw") for n in ("ana", "ben", "cam")]


def test_parse_usernames_reads_lines_commas_and_spaces_once_each():
    assert services.parse_usernames("ana\nben, cam;  ana\n\n dan ") == ["ana", "ben", "cam", "dan"]


def test_a_pasted_list_adds_known_students_to_the_roster_and_a_team(course, instructor, known):
    session = services.session_create(course=course, user=instructor, title="S", scenario_key="peru",
                                      teams=["Blue"], seats={"government": "Blue", "shining_path": "bot:random"})
    team = session.teams.get()
    added = services.course_students_add(course=course, user=instructor, usernames="ana\nBEN", team=team)
    assert [u.username for u in added] == ["ana", "ben"]
    assert set(course.students.values_list("username", flat=True)) == {"ana", "ben"}
    assert set(team.members.values_list("username", flat=True)) == {"ana", "ben"}


def test_an_unknown_name_adds_nobody_and_is_named(course, instructor, known):
    with pytest.raises(ValidationFailed) as exc:
        services.course_students_add(course=course, user=instructor, usernames="ana, zed, yve")
    assert "zed" in exc.value.message and "yve" in exc.value.message and "ana" not in exc.value.message
    assert not course.students.exists()


def test_only_the_course_instructor_may_change_the_roster(course, known, students):
    from facilitation.errors import NotAllowed

    with pytest.raises(NotAllowed):
        services.course_students_add(course=course, user=students[0], usernames="ana")


def test_course_page_shows_the_roster_and_adds_by_list(client, course, instructor, known):
    client.force_login(instructor)
    url = reverse("web:course", args=[course.pk])
    r = client.post(url, {"action": "add_students", "usernames": "ana ben", "team": ""})
    assert r.status_code == 302
    page = client.get(url).content.decode()
    assert "ana" in page and "ben" in page and "2 students added." in page
    # An unknown name: the list stays in the box, nobody is added.
    r = client.post(url, {"action": "add_students", "usernames": "cam\nnobody-here", "team": ""})
    assert r.status_code == 200 and "nobody-here" in r.content.decode()
    assert not course.students.filter(username="cam").exists()
    # Remove one.
    r = client.post(url, {"action": "remove_student", "user": str(known[0].pk)})
    assert r.status_code == 302 and not course.students.filter(username="ana").exists()
    # Reviewers.
    r = client.post(url, {"action": "add_reviewer", "reviewer-username": "cam"})
    assert r.status_code == 302 and course.reviewers.filter(username="cam").exists()
    r = client.post(url, {"action": "add_reviewer", "reviewer-username": "ghost"})
    assert r.status_code == 200 and "No account has that user name." in r.content.decode()


def test_bad_requests_are_4xx_and_change_nothing(client, course, instructor, students):
    url = reverse("web:course", args=[course.pk])
    client.force_login(instructor)
    assert client.post(url, {"action": "explode"}).status_code == 400
    assert client.post(url, {"action": "remove_student", "user": "abc"}).status_code == 400
    assert client.get(reverse("web:course", args=[999999])).status_code == 404
    client.force_login(students[0])
    assert client.get(url).status_code == 403
    other = get_user_model().objects.create_user("other-teacher", password="long-enough-pw")
    services.user_add_role(user=other, role="instructor")
    client.force_login(other)
    assert client.get(url).status_code == 403
    assert client.get(reverse("web:courses")).status_code == 200
