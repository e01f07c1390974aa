"""Issue 14 items 7 and 8: a join code never moves a student to another team once the game has
begun (that is a logged facilitator action); join codes have a use limit, shown; reviewers are
read-only (no annotations or bookmarks)."""

from __future__ import annotations

from django.test import Client

from facilitation import services
from facilitation.models import SessionEvent


def test_a_join_code_does_not_move_a_student_across_sides_mid_game(peru_session, api_for):
    g = peru_session
    code = services.join_code_create(course=g.course, user=g.people.instructor, team=g.team_b).code
    before = g.session.head_seq
    r = api_for("student_a").post("/api/join/", {"code": code}, format="json")
    assert r.status_code == 409 and r.json()["error"] == "team_change_needs_facilitator", r.content
    assert list(g.team_a.members.all()) == [g.people.student_a]
    assert not g.team_b.members.filter(pk=g.people.student_a.pk).exists()
    g.session.refresh_from_db()
    assert g.session.head_seq == before


def test_moving_a_student_mid_game_is_a_logged_facilitator_action(peru_session):
    g = peru_session
    services.team_member_add(team=g.team_b, user=g.people.instructor, member=g.people.student_a)
    g.session.refresh_from_db()
    ev = SessionEvent.objects.get(session=g.session, seq=g.session.head_seq)
    assert ev.kind == "facilitator" and ev.actor == g.people.instructor
    assert ev.payload["action"] == "team_move"
    assert ev.payload["member"] == "student_a" and ev.payload["left"] == "Team A" and ev.payload["team"] == "Team B"
    services.team_member_remove(team=g.team_b, user=g.people.instructor, member=g.people.student_a)
    g.session.refresh_from_db()
    assert SessionEvent.objects.get(session=g.session, seq=g.session.head_seq).payload["action"] == "team_leave"
    from facilitation import eventlog

    assert eventlog.verify(g.session).ok


def test_join_codes_have_a_use_limit_and_the_page_shows_it(peru_session, api_for):
    g = peru_session
    jc = services.join_code_create(course=g.course, user=g.people.instructor, team=g.team_a)
    assert jc.max_uses == 40, "every new code has a limit"
    r = api_for("instructor").post(f"/api/courses/{g.course.pk}/join-codes/", {"max_uses": 0}, format="json")
    assert r.status_code == 400, "unlimited codes are no longer made"
    r = api_for("instructor").post(f"/api/courses/{g.course.pk}/join-codes/", {}, format="json")
    assert r.status_code == 201 and r.json()["max_uses"] == 40 and r.json()["uses"] == 0
    c = Client()
    c.force_login(g.people.instructor)
    page = c.get(f"/sessions/{g.session.pk}/manage/").content.decode()
    assert f'data-max-uses="{jc.max_uses}"' in page and "used 0 of 40 times" in page


def test_reviewers_cannot_annotate_or_bookmark(peru_session):
    from facilitation.web.models import Annotation, Bookmark

    g = peru_session
    c = Client()
    c.force_login(g.people.reviewer)
    for kind in ("bookmark", "annotation"):
        r = c.post(f"/sessions/{g.session.pk}/replay/annotate/", {"seq": 1, "kind": kind, "text": "reviewer note"})
        assert r.status_code == 403, (kind, r.status_code)
    assert not Bookmark.objects.exists() and not Annotation.objects.exists()
    inst = Client()
    inst.force_login(g.people.instructor)
    inst.post(f"/sessions/{g.session.pk}/replay/annotate/", {"seq": 1, "kind": "bookmark", "text": "teacher note"})
    assert Bookmark.objects.get().text == "teacher note"
