"""The role matrix: every API endpoint against every role, on a live and on a finished Peru session.

Roles: instructor of this course / other instructor / student of this team (A) /
student of the other team (B) / reviewer granted this course / anonymous.

Reviewers (decision, see docs/operations.md "Accounts"): a reviewer granted the course
watches its live and finished sessions read-only, every seat, and never acts: every
write below stays instructor- or team-only in both columns. A scheduled session is not
open to them yet, and a reviewer who also plays on a team is only a student there while
the session runs (tests at the end).

"ok" means the role is let through (any answer but 401/403/404; a 409 such as
"already started" still proves the door was open). "deny" means 403 with a JSON
``{"error", "detail"}`` body, 401 for anonymous, and nothing stored.
"""

from __future__ import annotations

import pytest

from facilitation.models import ClassSession, JoinCode, SessionEvent, SubmissionKey, Team, TeamIntent
from tests.conftest import ROLES, create_peru_game, play_moves

INS, OI, SA, SB, R, ANON = ROLES
ALL_AUTH = {INS, OI, SA, SB, R}


def _legal_submit(game):
    """A legal submission for seat A if it is A's turn, else an attempt at seq head (-> 409/400)."""
    from facilitation import selectors

    game.session.refresh_from_db()
    rules, state = selectors.session_state(game.session)
    p = rules.prompt(state)
    choices = p.choices_for(game.seat_a) if p else []
    choice = choices[0].id if choices else "pass"
    return {"choice": choice, "seq": game.session.head_seq}


# (name, method, url builder, body builder, roles allowed on a LIVE session, roles allowed when FINISHED)
ENDPOINTS = [
    ("session list", "get", lambda g: "/api/sessions/", None, ALL_AUTH, ALL_AUTH),
    ("course list", "get", lambda g: "/api/courses/", None, ALL_AUTH, ALL_AUTH),
    ("scenarios", "get", lambda g: "/api/scenarios/", None, ALL_AUTH, ALL_AUTH),
    ("me", "get", lambda g: "/api/me/", None, ALL_AUTH, ALL_AUTH),
    ("my calendar", "get", lambda g: "/api/calendar.ics", None, ALL_AUTH, ALL_AUTH),
    ("course detail", "get", lambda g: f"/api/courses/{g.course.pk}/", None, {INS, SA, SB, R}, {INS, SA, SB, R}),
    ("course calendar", "get", lambda g: f"/api/courses/{g.course.pk}/calendar.ics", None,
     {INS, SA, SB, R}, {INS, SA, SB, R}),
    ("join codes list", "get", lambda g: f"/api/courses/{g.course.pk}/join-codes/", None, {INS}, {INS}),
    ("join code create", "post", lambda g: f"/api/courses/{g.course.pk}/join-codes/",
     lambda g: {"team": g.team_a.pk}, {INS}, {INS}),
    ("grant reviewer", "post", lambda g: f"/api/courses/{g.course.pk}/reviewers/",
     lambda g: {"username": g.people.other_instructor.username}, {INS}, {INS}),
    ("session detail", "get", lambda g: f"/api/sessions/{g.session.pk}/", None, {INS, SA, SB, R}, {INS, SA, SB, R}),
    ("session update", "patch", lambda g: f"/api/sessions/{g.session.pk}/", lambda g: {"location": "Hall B"},
     {INS}, {INS}),
    ("session start", "post", lambda g: f"/api/sessions/{g.session.pk}/start/", None, {INS}, {INS}),
    ("session pause", "post", lambda g: f"/api/sessions/{g.session.pk}/pause/", lambda g: {"reason": "break"},
     {INS}, {INS}),
    ("session resume", "post", lambda g: f"/api/sessions/{g.session.pk}/resume/", None, {INS}, {INS}),
    ("session end", "post", lambda g: f"/api/sessions/{g.session.pk}/end/", lambda g: {"reason": "time"},
     {INS}, {INS}),
    ("facilitator note", "post", lambda g: f"/api/sessions/{g.session.pk}/notes/",
     lambda g: {"text": "Good discussion"}, {INS}, {INS}),
    ("facilitator override", "post", lambda g: f"/api/sessions/{g.session.pk}/overrides/",
     lambda g: {"action": "undo_last", "reason": "misclick"}, {INS}, {INS}),
    ("full event log", "get", lambda g: f"/api/sessions/{g.session.pk}/events/", None, {INS, R}, {INS, R}),
    ("teams", "get", lambda g: f"/api/sessions/{g.session.pk}/teams/", None, {INS, SA, SB, R}, {INS, SA, SB, R}),
    ("team create", "post", lambda g: f"/api/sessions/{g.session.pk}/teams/", lambda g: {"name": "Team C"},
     {INS}, {INS}),
    ("team member add", "post", lambda g: f"/api/teams/{g.team_a.pk}/members/",
     lambda g: {"username": g.people.student_b.username}, {INS}, {INS}),
    ("team member remove", "delete",
     lambda g: f"/api/teams/{g.team_a.pk}/members/{g.people.student_a.username}/", None, {INS}, {INS}),
    ("team member replace", "post", lambda g: f"/api/teams/{g.team_a.pk}/replace-member/",
     lambda g: {"old": g.people.student_a.username, "new": g.people.other_instructor.username}, {INS}, {INS}),
    ("intents", "get", lambda g: f"/api/sessions/{g.session.pk}/intents/", None, {INS, SA, SB, R}, {INS, SA, SB, R}),
    ("intent state", "post", lambda g: f"/api/sessions/{g.session.pk}/intents/",
     lambda g: {"team": g.team_a.pk, "statement": "Hold Lima."}, {INS, SA}, {INS, SA}),
    ("seats", "get", lambda g: f"/api/sessions/{g.session.pk}/seats/", None, {INS, SA, SB, R}, {INS, SA, SB, R}),
    ("seat detail", "get", lambda g: f"/api/sessions/{g.session.pk}/seats/{g.seat_a}/", None,
     {INS, SA, SB, R}, {INS, SA, SB, R}),
    ("seat assign", "patch", lambda g: f"/api/sessions/{g.session.pk}/seats/{g.seat_b}/",
     lambda g: {"team": g.team_b.pk}, {INS}, {INS}),
    ("seat prompt", "get", lambda g: f"/api/sessions/{g.session.pk}/seats/{g.seat_a}/prompt/", None,
     {INS, SA, R}, {INS, SA, R}),
    ("seat events", "get", lambda g: f"/api/sessions/{g.session.pk}/seats/{g.seat_a}/events/", None,
     {INS, SA, R}, {INS, SA, R}),
    ("seat submit", "post", lambda g: f"/api/sessions/{g.session.pk}/seats/{g.seat_a}/submit/",
     _legal_submit, {SA}, {SA}),
    ("seat undo", "post", lambda g: f"/api/sessions/{g.session.pk}/seats/{g.seat_a}/undo/",
     lambda g: {"seq": g.session.head_seq}, {SA}, {SA}),
]

# Writes that would change the log; a denied role must leave it exactly as it was.
DENY_CODES = {401, 403}


def _snapshot(game):
    s = ClassSession.objects.get(pk=game.session.pk)
    return (s.head_seq, s.head_hash, s.status, s.title, s.location, SessionEvent.objects.count(),
            SubmissionKey.objects.count(), TeamIntent.objects.count(), Team.objects.count(),
            JoinCode.objects.count(), sorted(game.team_a.members.values_list("pk", flat=True)),
            s.course.reviewers.count())


def _call(client, method, url, body):
    if method == "get":
        return client.get(url)
    return getattr(client, method)(url, body or {}, format="json")


def _check_matrix(game, api_for, name, method, url_fn, body_fn, allowed):
    denied = [r for r in ROLES if r not in allowed]
    # Denied roles first: each must be refused with a clear JSON error and change nothing.
    write = method != "get"
    for role in denied:
        before = _snapshot(game) if write else None
        body = body_fn(game) if body_fn else None
        resp = _call(api_for(role), method, url_fn(game), body)
        expected = 401 if role is None else 403
        assert resp.status_code == expected, (name, role, resp.status_code, resp.content[:300])
        data = resp.json()
        assert set(data) >= {"error", "detail"} and data["detail"], (name, role, data)
        if write:
            assert _snapshot(game) == before, f"{name}: denied role {role} changed something"
    # Allowed roles: let through.
    for role in sorted(allowed, key=lambda r: (r == INS, r)):
        body = body_fn(game) if body_fn else None
        resp = _call(api_for(role), method, url_fn(game), body)
        assert resp.status_code not in (401, 403, 404), (name, role, resp.status_code, resp.content[:300])
        assert resp.status_code < 500, (name, role, resp.status_code)


@pytest.mark.parametrize("name,method,url_fn,body_fn,live_ok,finished_ok", ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_role_matrix_live_session(people, api_for, name, method, url_fn, body_fn, live_ok, finished_ok):
    game = create_peru_game(people)
    play_moves(game, 2)
    _check_matrix(game, api_for, name, method, url_fn, body_fn, live_ok)


@pytest.mark.parametrize("name,method,url_fn,body_fn,live_ok,finished_ok", ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_role_matrix_finished_session(people, api_for, name, method, url_fn, body_fn, live_ok, finished_ok):
    from facilitation import services

    game = create_peru_game(people)
    play_moves(game, 2)
    services.session_end(session=game.session, user=people.instructor, reason="end of class")
    game.session.refresh_from_db()
    _check_matrix(game, api_for, name, method, url_fn, body_fn, finished_ok)


def test_lists_show_only_what_the_role_may_open(people, api_for):
    game = create_peru_game(people)
    ids = {role: {s["id"] for s in api_for(role).get("/api/sessions/").json()} for role in ROLES[:-1]}
    assert game.session.pk in ids[INS] and game.session.pk in ids[SA] and game.session.pk in ids[SB]
    assert game.session.pk not in ids[OI]
    assert game.session.pk in ids[R], "reviewers watch live sessions of their course"
    scheduled = create_peru_game(people, title="Next week", start=False)
    r_ids = {s["id"] for s in api_for(R).get("/api/sessions/").json()}
    assert scheduled.session.pk not in r_ids, "a session that has not started is not open to reviewers"
    assert scheduled.session.pk in {s["id"] for s in api_for(INS).get("/api/sessions/").json()}
    courses = {role: {c["id"] for c in api_for(role).get("/api/courses/").json()} for role in ROLES[:-1]}
    assert game.course.pk in courses[INS] and game.course.pk in courses[R]
    assert game.course.pk not in courses[OI]


def test_seed_and_options_are_shown_to_instructors_only(people, api_for):
    """With the open engine, the seed would let a student recompute the hidden deck and Directives Base."""
    game = create_peru_game(people, seed=987654)
    for role in (SA, SB):
        body = api_for(role).get(f"/api/sessions/{game.session.pk}/").json()
        assert body["seed"] is None and body["options"] is None
        assert "987654" not in api_for(role).get(f"/api/sessions/{game.session.pk}/seats/"
                                                 f"{game.seat_a if role == SA else game.seat_b}/events/").content.decode()
    assert api_for(INS).get(f"/api/sessions/{game.session.pk}/").json()["seed"] == 987654
    assert api_for(SA).get(f"/api/sessions/{game.session.pk}/").json()["my_seats"] == [game.seat_a]
    assert api_for(INS).get(f"/api/sessions/{game.session.pk}/").json()["my_seats"] == []


def test_students_cannot_create_courses_or_sessions(people, api_for):
    r = api_for(SA).post("/api/courses/", {"title": "Mine"}, format="json")
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    game = create_peru_game(people)
    r = api_for(SA).post("/api/sessions/", {"course": game.course.pk, "scenario_key": "peru"}, format="json")
    assert r.status_code == 403
    r = api_for(OI).post("/api/sessions/", {"course": game.course.pk, "scenario_key": "peru"}, format="json")
    assert r.status_code == 403
    assert ClassSession.objects.filter(course=game.course).count() == 1


def test_reviewer_watches_a_live_session_but_never_acts(people, api_for):
    game = create_peru_game(people)
    play_moves(game, 2)
    base = f"/api/sessions/{game.session.pk}"
    # every seat, the full log and the seed: a spectator's view of the whole game
    for seat in (game.seat_a, game.seat_b):
        assert api_for(R).get(f"{base}/seats/{seat}/prompt/").status_code == 200
    assert api_for(R).get(f"{base}/events/").json()["seq"] == game.session.head_seq
    assert api_for(R).get(f"{base}/").json()["seed"] == game.session.seed
    # ...and no way to act: decide, undo, state an intent, pause, note, override
    before = _snapshot(game)
    rules_seat = game.seat_a
    for method, url, body in (
            ("post", f"{base}/seats/{rules_seat}/submit/", _legal_submit(game)),
            ("post", f"{base}/seats/{rules_seat}/undo/", {"seq": game.session.head_seq}),
            ("post", f"{base}/intents/", {"team": game.team_a.pk, "statement": "Mine now."}),
            ("post", f"{base}/pause/", {"reason": "x"}),
            ("post", f"{base}/notes/", {"text": "x"}),
            ("post", f"{base}/overrides/", {"action": "undo_last", "reason": "x"})):
        resp = _call(api_for(R), method, url, body)
        assert resp.status_code == 403, (url, resp.status_code, resp.content[:200])
    assert _snapshot(game) == before


def test_reviewer_cannot_open_a_session_before_it_starts(people, api_for):
    game = create_peru_game(people, start=False)
    resp = api_for(R).get(f"/api/sessions/{game.session.pk}/")
    assert resp.status_code == 403 and "once it has started" in resp.json()["detail"]


def test_reviewer_who_plays_is_only_a_student_until_the_end(people, api_for):
    """A reviewer on a team must not see the other side's secrets while the game runs."""
    from facilitation import services

    game = create_peru_game(people)
    services.team_member_add(team=game.team_b, user=people.instructor, member=people.reviewer)
    base = f"/api/sessions/{game.session.pk}"
    assert api_for(R).get(f"{base}/seats/{game.seat_b}/prompt/").status_code == 200
    assert api_for(R).get(f"{base}/seats/{game.seat_a}/prompt/").status_code == 403
    assert api_for(R).get(f"{base}/events/").status_code == 403
    assert api_for(R).get(f"{base}/").json()["seed"] is None
    services.session_end(session=game.session, user=people.instructor, reason="end of class")
    assert api_for(R).get(f"{base}/seats/{game.seat_a}/prompt/").status_code == 200
    assert api_for(R).get(f"{base}/events/").status_code == 200
