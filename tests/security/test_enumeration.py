"""Issue 14 item 11: team-member and reviewer endpoints check the caller's rights before they
look a user name up, so a student or reviewer cannot tell which accounts exist."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("role", ["student_a", "student_b", "reviewer", "other_instructor"])
def test_no_unknown_user_answer_before_the_permission_check(peru_session, api_for, role):
    g = peru_session
    client = api_for(role)
    for name in ("student_b", "no-such-user-x9"):
        answers = [
            client.post(f"/api/teams/{g.team_a.pk}/members/", {"username": name}, format="json"),
            client.delete(f"/api/teams/{g.team_a.pk}/members/{name}/"),
            client.post(f"/api/teams/{g.team_a.pk}/replace-member/", {"old": "student_a", "new": name}, format="json"),
            client.post(f"/api/courses/{g.course.pk}/reviewers/", {"username": name}, format="json"),
        ]
        for r in answers:
            assert r.status_code in (403, 404), (role, name, r.status_code)
            assert r.json().get("error") != "unknown_user", (role, name, r.request["PATH_INFO"], r.json())
    # The same four answers whether the account exists or not.
    known = [client.post(f"/api/teams/{g.team_a.pk}/members/", {"username": "student_b"}, format="json").status_code,
             client.post(f"/api/courses/{g.course.pk}/reviewers/", {"username": "student_b"},
                         format="json").status_code]
    unknown = [client.post(f"/api/teams/{g.team_a.pk}/members/", {"username": "nobody-1"}, format="json").status_code,
               client.post(f"/api/courses/{g.course.pk}/reviewers/", {"username": "nobody-1"},
                           format="json").status_code]
    assert known == unknown


def test_the_instructor_still_learns_of_a_mistyped_name(peru_session, api_for):
    r = api_for("instructor").post(f"/api/teams/{peru_session.team_a.pk}/members/", {"username": "nobdy"},
                                   format="json")
    assert r.status_code == 404 and r.json()["error"] == "unknown_user"
