"""Illegal or malformed input gets a 4xx with a clear JSON message and stores nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from engine.core.messages import render
from facilitation import selectors, services
from facilitation.models import ClassSession, Course, JoinCode, SessionEvent, StateSnapshot, SubmissionKey
from tests.conftest import create_peru_game


def _counts(game):
    s = ClassSession.objects.get(pk=game.session.pk)
    return (SessionEvent.objects.count(), SubmissionKey.objects.count(), StateSnapshot.objects.count(),
            s.head_seq, s.head_hash, s.status, s.state == game.session.state)


def _turn(game):
    game.session.refresh_from_db()
    rules, state = selectors.session_state(game.session)
    p = rules.prompt(state)
    seat = p.seats[0]
    other = game.seat_b if seat == game.seat_a else game.seat_a
    role = "student_a" if seat == game.seat_a else "student_b"
    other_role = "student_b" if role == "student_a" else "student_a"
    return p, seat, other, role, other_role


BAD_SUBMISSIONS = [
    ("missing choice", lambda c, seq: {"seq": seq}, 400, "invalid"),
    ("missing seq", lambda c, seq: {"choice": c}, 400, "invalid"),
    ("choice not a string", lambda c, seq: {"choice": ["x"], "seq": seq}, 400, "invalid"),
    ("seq not a number", lambda c, seq: {"choice": c, "seq": "latest"}, 400, "invalid"),
    ("negative seq", lambda c, seq: {"choice": c, "seq": -1}, 400, "invalid"),
    ("unknown field", lambda c, seq: {"choice": c, "seq": seq, "force": True}, 400, "invalid"),
    ("unknown choice", lambda c, seq: {"choice": "op:teleport", "seq": seq}, 400, "unknown_choice"),
    ("empty choice", lambda c, seq: {"choice": "", "seq": seq}, 400, "invalid"),
    ("stale seq", lambda c, seq: {"choice": c, "seq": seq - 1}, 409, "stale_seq"),
    ("future seq", lambda c, seq: {"choice": c, "seq": seq + 5}, 409, "stale_seq"),
    ("negative decision time", lambda c, seq: {"choice": c, "seq": seq, "decision_ms": -5},
     400, "invalid"),
    ("rationale too long", lambda c, seq: {"choice": c, "seq": seq, "rationale": "x" * 6000},
     400, "invalid"),
    ("not an object", lambda c, seq: [1, 2, 3], 400, "invalid"),
]


@pytest.mark.parametrize("name,body_fn,status,code", BAD_SUBMISSIONS, ids=[b[0] for b in BAD_SUBMISSIONS])
def test_bad_submission_is_refused_and_stores_nothing(peru_session, api_for, name, body_fn, status, code):
    game = peru_session
    p, seat, _other, role, _ = _turn(game)
    before = _counts(game)
    resp = api_for(role).post(f"/api/sessions/{game.session.pk}/seats/{seat}/submit/",
                              body_fn(p.choices_for(seat)[0].id, game.session.head_seq), format="json")
    assert resp.status_code == status, resp.content
    body = resp.json()
    assert body["error"] == code
    assert isinstance(body["detail"], str) and len(body["detail"]) > 10
    assert _counts(game) == before


def test_not_json_at_all(peru_session, api_for):
    game = peru_session
    _p, seat, _o, role, _ = _turn(game)
    before = _counts(game)
    resp = api_for(role).post(f"/api/sessions/{game.session.pk}/seats/{seat}/submit/", "choice=rally",
                              content_type="application/json")
    assert resp.status_code == 400 and resp.json()["error"] == "parse_error"
    assert "JSON" in resp.json()["detail"]
    assert _counts(game) == before


def test_unknown_choice_message_names_the_question_and_rule(peru_session, api_for):
    game = peru_session
    p, seat, _o, role, _ = _turn(game)
    resp = api_for(role).post(f"/api/sessions/{game.session.pk}/seats/{seat}/submit/",
                              {"choice": "op:teleport", "seq": game.session.head_seq}, format="json")
    detail = resp.json()["detail"]
    assert "op:teleport" in detail and p.rule in detail


def test_playing_out_of_turn_is_refused(peru_session, api_for):
    game = peru_session
    p, seat, other, _role, other_role = _turn(game)
    before = _counts(game)
    resp = api_for(other_role).post(f"/api/sessions/{game.session.pk}/seats/{other}/submit/",
                                    {"choice": p.choices_for(seat)[0].id, "seq": game.session.head_seq}, format="json")
    assert resp.status_code == 400 and resp.json()["error"] == "not_your_turn"
    assert "turn" in resp.json()["detail"]
    assert _counts(game) == before


def test_playing_the_other_teams_seat_is_forbidden(peru_session, api_for):
    game = peru_session
    p, seat, _other, _role, other_role = _turn(game)
    before = _counts(game)
    resp = api_for(other_role).post(f"/api/sessions/{game.session.pk}/seats/{seat}/submit/",
                                    {"choice": p.choices_for(seat)[0].id, "seq": game.session.head_seq}, format="json")
    assert resp.status_code == 403 and resp.json()["error"] == "not_your_seat"
    assert _counts(game) == before


def test_unknown_seat_and_session(peru_session, api_for):
    game = peru_session
    r = api_for("instructor").get(f"/api/sessions/{game.session.pk}/seats/nobody/prompt/")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    r = api_for("instructor").get("/api/sessions/999999/")
    assert r.status_code == 404 and "999999" in r.json()["detail"]


def test_paused_session_refuses_decisions(peru_session, api_for):
    game = peru_session
    services.session_pause(session=game.session, user=game.people.instructor, reason="fire drill")
    p, seat, _o, role, _ = _turn(game)
    before = _counts(game)
    resp = api_for(role).post(f"/api/sessions/{game.session.pk}/seats/{seat}/submit/",
                              {"choice": p.choices_for(seat)[0].id, "seq": game.session.head_seq}, format="json")
    assert resp.status_code == 409 and resp.json()["error"] == "session_paused"
    assert _counts(game) == before


def test_rationale_required(people, api_for):
    game = create_peru_game(people, require_rationale=True)
    p, seat, _o, role, _ = _turn(game)
    before = _counts(game)
    resp = api_for(role).post(f"/api/sessions/{game.session.pk}/seats/{seat}/submit/",
                              {"choice": p.choices_for(seat)[0].id, "seq": game.session.head_seq, "rationale": "  "},
                              format="json")
    assert resp.status_code == 400 and resp.json()["error"] == "rationale_required"
    assert _counts(game) == before
    resp = api_for(role).post(f"/api/sessions/{game.session.pk}/seats/{seat}/submit/",
                              {"choice": p.choices_for(seat)[0].id, "seq": game.session.head_seq,
                               "rationale": "Secure the capital first."}, format="json")
    assert resp.status_code == 200
    ev = SessionEvent.objects.get(session=game.session, seq=resp.json()["events"][0])
    assert ev.rationale == "Secure the capital first." and ev.kind == "decision"


BAD_SESSIONS = [
    ("unknown scenario", {"scenario_key": "chess"}, "unknown_scenario"),
    ("bad seat", {"scenario_key": "peru", "seats": {"navy": "bot:random"}}, "unknown_seat"),
    ("bad bot", {"scenario_key": "peru", "seats": {"__SEAT__": "bot:genius"}}, "unknown_bot"),
    ("end before start", {"scenario_key": "peru", "scheduled_start": "2030-01-02T10:00:00Z",
                          "scheduled_end": "2030-01-02T09:00:00Z"}, "bad_schedule"),
    ("options not an object", {"scenario_key": "peru", "options": [1]}, "invalid"),
    ("timer zero", {"scenario_key": "peru", "decision_timer_seconds": 0}, "invalid"),
    ("seed text", {"scenario_key": "peru", "seed": "lucky"}, "invalid"),
]


@pytest.mark.parametrize("name,body,code", BAD_SESSIONS, ids=[b[0] for b in BAD_SESSIONS])
def test_bad_session_is_refused_and_stores_nothing(peru_session, api_for, name, body, code):
    game = peru_session
    body = {**body, "course": game.course.pk}
    if "seats" in body:
        body["seats"] = {(game.seat_a if k == "__SEAT__" else k): v for k, v in body["seats"].items()}
    n = ClassSession.objects.count()
    resp = api_for("instructor").post("/api/sessions/", body, format="json")
    assert resp.status_code == 400, resp.content
    assert resp.json()["error"] == code and resp.json()["detail"]
    assert ClassSession.objects.count() == n


def test_join_codes_refuse_unknown_expired_revoked_and_used_up(peru_session, api_for):
    game = peru_session
    inst = game.people.instructor
    outsider = api_for("other_instructor")
    r = outsider.post("/api/join/", {"code": "not-a-code"}, format="json")
    assert r.status_code == 404 and r.json()["error"] == "bad_code"
    jc = services.join_code_create(course=game.course, user=inst, team=game.team_a, max_uses=1)
    JoinCode.objects.filter(pk=jc.pk).update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    r = outsider.post("/api/join/", {"code": jc.code}, format="json")
    assert r.status_code == 409 and r.json()["error"] == "code_expired"
    jc2 = services.join_code_create(course=game.course, user=inst, team=game.team_a)
    services.join_code_revoke(join_code=jc2, user=inst)
    r = outsider.post("/api/join/", {"code": jc2.code}, format="json")
    assert r.status_code == 409 and r.json()["error"] == "code_revoked"
    assert not game.team_a.members.filter(pk=game.people.other_instructor.pk).exists()
    jc3 = services.join_code_create(course=game.course, user=inst, team=game.team_a, max_uses=1)
    assert api_for("reviewer").post("/api/join/", {"code": jc3.code}, format="json").status_code == 200
    r = outsider.post("/api/join/", {"code": jc3.code}, format="json")
    assert r.status_code == 409 and r.json()["error"] == "code_used_up"
    assert Course.objects.get(pk=game.course.pk).students.filter(pk=game.people.reviewer.pk).exists()


def test_override_needs_a_reason_and_a_known_action(peru_session, api_for):
    game = peru_session
    before = _counts(game)
    url = f"/api/sessions/{game.session.pk}/overrides/"
    r = api_for("instructor").post(url, {"action": "undo_last", "reason": ""}, format="json")
    assert r.status_code == 400
    r = api_for("instructor").post(url, {"action": "teleport", "reason": "because"}, format="json")
    assert r.status_code == 400 and "teleport" in r.json()["detail"]
    r = api_for("instructor").post(url, {"action": "adjust", "reason": "ruling", "track": "no_such_track",
                                         "value": 3}, format="json")
    assert r.status_code == 400 and r.json()["detail"]
    assert _counts(game) == before


# ---- sign-up with a join code -------------------------------------------------------------


def test_a_new_student_signs_up_with_a_join_code_and_lands_on_the_team(peru_session):
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    game = peru_session
    jc = services.join_code_create(course=game.course, user=game.people.instructor, team=game.team_b)
    client = APIClient()
    r = client.post("/api/register/", {"code": jc.code, "username": "carmen", "password": "Andes-1980-sierra"},
                    format="json")
    assert r.status_code == 201, r.content
    assert r.json() == {"username": "carmen", "course": game.course.pk, "team": game.team_b.pk,
                        "session": game.session.pk}
    carmen = get_user_model().objects.get(username="carmen")
    assert game.team_b.members.filter(pk=carmen.pk).exists()
    assert carmen.groups.filter(name="student").exists()
    # logged in by the sign-up: the seat is hers to read now
    assert client.get("/api/me/").json()["username"] == "carmen"
    assert client.get(f"/api/sessions/{game.session.pk}/seats/{game.seat_b}/prompt/").status_code == 200
    assert client.get(f"/api/sessions/{game.session.pk}/seats/{game.seat_a}/prompt/").status_code == 403


SIGNUPS = [
    ("unknown code", {"code": "nope", "username": "dora", "password": "Andes-1980-sierra"}, 404, "bad_code"),
    ("weak password", {"username": "dora", "password": "12345"}, 400, "bad_password"),
    ("taken name", {"username": "student_a", "password": "Andes-1980-sierra"}, 409, "username_taken"),
    ("bad name", {"username": "dora smith!", "password": "Andes-1980-sierra"}, 400, "bad_username"),
    ("missing password", {"username": "dora"}, 400, "invalid"),
]


@pytest.mark.parametrize("name,body,status,code", SIGNUPS, ids=[s[0] for s in SIGNUPS])
def test_a_refused_sign_up_creates_no_account(peru_session, name, body, status, code):
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    game = peru_session
    jc = services.join_code_create(course=game.course, user=game.people.instructor, team=game.team_b)
    n = get_user_model().objects.count()
    r = APIClient().post("/api/register/", {"code": jc.code, **body}, format="json")
    assert r.status_code == status, r.content
    assert r.json()["error"] == code and r.json()["detail"]
    assert get_user_model().objects.count() == n
    assert JoinCode.objects.get(pk=jc.pk).uses == 0


def test_override_adjusts_a_peru_track_through_the_api(peru_session, api_for):
    game = peru_session
    url = f"/api/sessions/{game.session.pk}/overrides/"
    r = api_for("instructor").post(url, {"action": "adjust", "reason": "ruling", "track": "political_will",
                                         "value": 25}, format="json")
    assert r.status_code == 400 and "0-20" in r.json()["detail"]
    r = api_for("instructor").post(url, {"action": "adjust", "reason": "Card misread by the table.",
                                         "track": "shining_path_resources", "value": 4}, format="json")
    assert r.status_code in (200, 201), r.content
    game.session.refresh_from_db()
    rules, state = selectors.session_state(game.session)
    assert state["res"]["shining_path"] == 4
    ev = SessionEvent.objects.filter(session=game.session, kind="facilitator").order_by("-seq").first()
    assert ev.payload["reason"] == "Card misread by the table." and ev.payload["value"] == 4
    assert any(f["cause"]["kind"] == "facilitator" and render(f.get("why")) == "facilitator override"
               and f.get("value") == 4 for f in ev.facts)
