"""Page tests of the web front end on a toy game (the browser tests use Peru)."""

import pytest
from django.urls import reverse

from facilitation import services
from facilitation.models import ClassSession, SessionEvent
from facilitation.web.models import Annotation, Bookmark, SessionUISettings

pytestmark = pytest.mark.django_db


def login(client, user, password):
    assert client.login(username=user.username, password=password)
    return client


def test_anonymous_home_offers_login_and_join(client):
    r = client.get("/")
    assert r.status_code == 200
    assert b"Join code" in r.content


def test_instructor_schedules_a_session_with_teams_and_a_bot(client, instructor, toy_rules):
    login(client, instructor, "pw-teacher-1")
    r = client.get(reverse("web:session_new") + "?scenario=toy")
    assert r.status_code == 200 and b"Toy Insurgency" in r.content
    r = client.post(reverse("web:session_new"), {
        "scenario": "toy", "schedule": "1", "title": "Period 3", "course_title": "COIN 101", "seed": "4",
        "scheduled_start": "2026-12-01T09:00", "decision_timer_seconds": "60",
        "timer_expiry": "bot", "require_rationale": "on",
        "seat_govt_by": "team", "seat_govt_team": "Blue", "seat_rebels_by": "random", "seat_rebels_team": "",
    })
    session = ClassSession.objects.get(title="Period 3")
    assert r.status_code == 302 and r["Location"] == reverse("web:manage", args=[session.pk])
    assert session.require_rationale and session.decision_timer_seconds == 60
    assert SessionUISettings.objects.get(session=session).timer_expiry == "bot"
    assert [t.name for t in session.teams.all()] == ["Blue"]
    assert session.seats.get(seat_key="rebels").bot_kind == "random"
    page = client.get(reverse("web:manage", args=[session.pk])).content.decode()
    code = session.teams.get().join_codes.get().code
    assert code in page and reverse("web:join_code", args=[code]) in page


def test_new_student_joins_by_link_and_lands_on_the_play_page(client, toy_session, instructor):
    team = toy_session.teams.get(name="Red")
    jc = services.join_code_create(course=toy_session.course, user=instructor, team=team)
    r = client.post(reverse("web:join_code", args=[jc.code]), {"username": "newbie", "password": "long-enough-pw"})
    assert r.status_code == 302 and r["Location"] == reverse("web:play", args=[toy_session.pk])
    assert team.members.filter(username="newbie").exists()
    page = client.get(r["Location"]).content.decode()
    assert page.count("Welcome! You have joined.") == 1, "the message is shown once, not again in the live region"


def test_join_page_and_register_api_share_one_service(client, toy_session, instructor, monkeypatch):
    """The join page signs a new student up through services.student_register, like POST /api/register/."""
    from rest_framework.test import APIClient

    from facilitation.web.views import home

    calls = []
    real = services.student_register
    monkeypatch.setattr(services, "student_register", lambda **kw: calls.append(kw["username"]) or real(**kw))
    team = toy_session.teams.get(name="Red")
    jc = services.join_code_create(course=toy_session.course, user=instructor, team=team)
    r = client.post(reverse("web:join_code", args=[jc.code]), {"username": "web-kid", "password": "long-enough-pw"})
    assert r.status_code == 302 and calls == ["web-kid"]
    api = APIClient().post("/api/register/", {"code": jc.code, "username": "api-kid", "password": "long-enough-pw"},
                           format="json")
    assert api.status_code == 201 and calls == ["web-kid", "api-kid"]
    assert set(team.members.values_list("username", flat=True)) >= {"web-kid", "api-kid"}
    assert not hasattr(home, "_student_signup")


@pytest.mark.parametrize("username,password,code_state,field,text", [
    ("Student1", "long-enough-pw", "ok", "username", "That user name is taken"),   # case-insensitive
    ("newbie", "password", "ok", "password", "too common"),
    ("newbie", "short", "ok", "password", "too short"),
    ("new bie", "long-enough-pw", "ok", "username", "Enter a valid username"),
    ("newbie", "long-enough-pw", "expired", None, "That join code has expired"),
    ("newbie", "long-enough-pw", "revoked", None, "That join code has been withdrawn"),
])
def test_join_page_refuses_what_the_register_api_refuses(client, toy_session, instructor, students, username,
                                                         password, code_state, field, text):
    import datetime as dt

    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    team = toy_session.teams.get(name="Red")
    jc = services.join_code_create(course=toy_session.course, user=instructor, team=team)
    if code_state == "expired":
        type(jc).objects.filter(pk=jc.pk).update(expires_at=jc.created_at - dt.timedelta(days=1))
    elif code_state == "revoked":
        services.join_code_revoke(join_code=jc, user=instructor)
    users_before = get_user_model().objects.count()
    api = APIClient().post("/api/register/", {"code": jc.code, "username": username, "password": password},
                           format="json")
    assert api.status_code in (400, 409), api.content
    r = client.post(reverse("web:join_code", args=[jc.code]), {"username": username, "password": password})
    assert r.status_code == 200, "the page stays, with the error"
    page = r.content.decode()
    assert text in page
    if field:  # the error sits on the field it is about, and the typed name is kept
        assert text in str(r.context["signup"].errors[field])
        assert f'value="{username}"' in page
    assert get_user_model().objects.count() == users_before, "nothing stored by either door"
    assert list(team.members.values_list("username", flat=True)) == ["student2"]


def test_join_errors_are_translated(client, toy_session, instructor):
    team = toy_session.teams.get(name="Red")
    jc = services.join_code_create(course=toy_session.course, user=instructor, team=team)
    client.cookies["django_language"] = "es"
    page = client.post(reverse("web:join_code", args=[jc.code]),
                       {"username": "STUDENT2", "password": "long-enough-pw"}).content.decode()
    assert "Ese nombre de usuario ya existe" in page


def _start(client, instructor, session):
    login(client, instructor, "pw-teacher-1")
    r = client.post(reverse("web:control", args=[session.pk, "start"]))
    assert r.status_code == 302
    session.refresh_from_db()
    assert session.status == "live"
    client.logout()


def test_play_choose_map_choice_undo_and_rationale(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    login(client, students[0], "pw-student-1")
    url = reverse("web:play", args=[toy_session.pk])
    page = client.get(url).content.decode()
    assert "Your turn!" in page and 'value="op:march"' in page
    seq = toy_session.head_seq
    r = client.post(reverse("web:play_choose", args=[toy_session.pk]),
                    {"seat": "govt", "choice": "op:march", "seq": seq, "key": "k1", "rationale": "Push to the hills"},
                    HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    live = r.content.decode()
    assert 'data-choice="space:hills"' in live and 'class="space space-province is-choice"' in live
    assert "Undo my last decision" in live
    ev = SessionEvent.objects.get(session=toy_session, kind="decision")
    assert ev.rationale == "Push to the hills"
    toy_session.refresh_from_db()
    r = client.post(reverse("web:play_undo", args=[toy_session.pk]), {"seat": "govt", "seq": toy_session.head_seq},
                    HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'value="op:march"' in r.content.decode()
    assert SessionEvent.objects.filter(session=toy_session, kind="undo").count() == 1


def test_live_region_answers_304_until_something_changes(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    login(client, students[1], "pw-student-1")
    live_url = reverse("web:play_live", args=[toy_session.pk])
    r = client.get(live_url)
    etag = r["ETag"]
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.choice_submit(session=toy_session, user=students[0], seat="govt", choice="op:pass",
                           seq=toy_session.head_seq)
    r2 = client.get(live_url, HTTP_IF_NONE_MATCH=etag)
    assert r2.status_code == 200 and "Your turn!" in r2.content.decode()


def test_government_never_sees_the_hidden_cache(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    login(client, students[0], "pw-student-1")
    for url in (reverse("web:play", args=[toy_session.pk]), reverse("web:play_live", args=[toy_session.pk])):
        body = client.get(url).content.decode().lower()
        assert "hidden cache" not in body and "cache location" not in body and "cache is moved" not in body
    client.logout()
    login(client, students[1], "pw-student-1")
    assert "hidden cache" in client.get(reverse("web:play", args=[toy_session.pk])).content.decode().lower()


def test_student_cannot_act_or_look_for_the_other_team(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    login(client, students[1], "pw-student-1")  # Red plays the rebels
    r = client.post(reverse("web:play_choose", args=[toy_session.pk]),
                    {"seat": "govt", "choice": "op:pass", "seq": toy_session.head_seq})
    assert r.status_code == 403
    assert not SessionEvent.objects.filter(session=toy_session, kind="decision").exists()
    # asking for the other seat's page falls back to one's own seat
    body = client.get(reverse("web:play", args=[toy_session.pk]) + "?seat=govt").content.decode()
    assert "Rebels" in body and 'name="seat" value="govt"' not in body
    r = client.post(reverse("web:play_undo", args=[toy_session.pk]), {"seat": "govt", "seq": toy_session.head_seq})
    assert r.status_code == 403
    assert client.post(reverse("web:control", args=[toy_session.pk, "pause"])).status_code == 403


def test_pause_blocks_play_and_shows_it(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    login(client, instructor, "pw-teacher-1")
    client.post(reverse("web:control", args=[toy_session.pk, "pause"]))
    client.logout()
    login(client, students[0], "pw-student-1")
    body = client.get(reverse("web:play", args=[toy_session.pk])).content.decode()
    assert "Paused by the facilitator" in body and 'value="op:march"' not in body
    toy_session.refresh_from_db()
    r = client.post(reverse("web:play_choose", args=[toy_session.pk]),
                    {"seat": "govt", "choice": "op:pass", "seq": toy_session.head_seq}, follow=True)
    assert "paused" in r.content.decode().lower()
    assert not SessionEvent.objects.filter(session=toy_session, kind="decision").exists()


def test_console_note_override_and_replace(client, toy_session, instructor, students, django_user_model):
    _start(client, instructor, toy_session)
    login(client, instructor, "pw-teacher-1")
    body = client.get(reverse("web:console")).content.decode()
    assert "Toy game" in body and "deciding" in body and "Harvest" in body
    client.post(reverse("web:control", args=[toy_session.pk, "note"]), {"text": "Good debate"})
    assert SessionEvent.objects.filter(session=toy_session, kind="facilitator", payload__action="note").exists()
    toy_session.refresh_from_db()
    services.choice_submit(session=toy_session, user=students[0], seat="govt", choice="op:pass",
                           seq=toy_session.head_seq)
    client.post(reverse("web:control", args=[toy_session.pk, "override"]), {"action": "undo", "reason": ""},
                    follow=True)
    assert not SessionEvent.objects.filter(session=toy_session, payload__action="undo_last").exists()
    client.post(reverse("web:control", args=[toy_session.pk, "override"]), {"action": "undo", "reason": "misclick"})
    assert SessionEvent.objects.filter(session=toy_session, payload__action="undo_last").exists()
    django_user_model.objects.create_user("sub", password="x")
    client.post(reverse("web:control", args=[toy_session.pk, "replace"]),
                {"team": toy_session.teams.get(name="Blue").pk, "old_username": "student1", "new_username": "sub"})
    assert list(toy_session.teams.get(name="Blue").members.values_list("username", flat=True)) == ["sub"]


def test_replay_vcr_bookmarks_and_perspective(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    for seat, student in (("govt", students[0]), ("rebels", students[1])):
        toy_session.refresh_from_db()
        services.choice_submit(session=toy_session, user=student, seat=seat, choice="op:march", seq=toy_session.head_seq)
        toy_session.refresh_from_db()
        services.choice_submit(session=toy_session, user=student, seat=seat, choice="space:hills", seq=toy_session.head_seq)
    toy_session.refresh_from_db()
    services.session_end(session=toy_session, user=instructor)
    login(client, instructor, "pw-teacher-1")
    url = reverse("web:replay", args=[toy_session.pk])
    body = client.get(url + "?seq=0").content.decode()
    assert "Jump to a card" in body and "Card revealed" in body
    assert "hidden cache" in client.get(url + "?seq=5").content.decode().lower()
    assert "hidden cache" not in client.get(url + "?seq=5&as=govt").content.decode().lower()
    client.post(reverse("web:annotate", args=[toy_session.pk]), {"seq": 3, "kind": "bookmark", "text": "Key march"})
    client.post(reverse("web:annotate", args=[toy_session.pk]), {"seq": 3, "kind": "annotation", "text": "Why?"})
    assert Bookmark.objects.get().seq == 3 and Annotation.objects.get().text == "Why?"
    assert "Key march" in client.get(url + "?seq=3").content.decode()


def test_spanish_is_remembered(client, instructor):
    login(client, instructor, "pw-teacher-1")
    r = client.post(reverse("web:set_language"), {"language": "es", "next": "/"})
    assert r.status_code == 302
    body = client.get("/").content.decode()
    assert 'lang="es"' in body and "Mis sesiones" in body


def test_decision_timer_is_shown_to_the_team_with_its_expiry_rule(client, toy_session, instructor, students):
    login(client, instructor, "pw-teacher-1")
    client.post(reverse("web:control", args=[toy_session.pk, "timer"]),
                {"decision_timer_seconds": "90", "timer_expiry": "warn"})
    toy_session.refresh_from_db()
    assert toy_session.decision_timer_seconds == 90
    client.logout()
    _start(client, instructor, toy_session)
    login(client, students[0], "pw-student-1")
    body = client.get(reverse("web:play", args=[toy_session.pk])).content.decode()
    assert "data-deadline=" in body and "you may still decide after it runs out" in body


def test_peru_board_hides_the_directives_base_from_the_government(client, peru_session):
    game = peru_session
    gov_seat = "government"
    owner = game.owner(gov_seat)
    client.force_login(owner)
    url = reverse("web:play", args=[game.session.pk]) + f"?seat={gov_seat}"
    body = client.get(url).content.decode()
    assert "Government" in body and "Directives Base</td>" not in body and "Directives Base," not in body
    assert "hidden in" not in body and "directives_base" not in body
    # the Shining Path team sees its secret on its own page
    client.force_login(game.owner("shining_path"))
    sp_body = client.get(reverse("web:play", args=[game.session.pk])).content.decode()
    assert "Directives Base" in sp_body


def _expire_timer(session):
    """Make the current decision older than the timer (the event's timestamp, not the clock)."""
    import datetime as dt

    session.refresh_from_db()
    SessionEvent.objects.filter(session=session, seq=session.head_seq).update(
        created_at=session.started_at - dt.timedelta(minutes=5))


def test_expired_timer_lets_the_seats_bot_decide_once(client, toy_session, instructor, students):
    SessionUISettings.objects.create(session=toy_session, timer_expiry="bot")
    services.session_update(session=toy_session, user=instructor, decision_timer_seconds=30)
    _start(client, instructor, toy_session)
    login(client, students[0], "pw-student-1")
    live_url = reverse("web:play_live", args=[toy_session.pk])
    client.get(live_url)
    assert not SessionEvent.objects.filter(session=toy_session, kind="bot").exists(), "the timer has not run out"
    _expire_timer(toy_session)
    seq_before = toy_session.head_seq
    page = client.get(live_url).content.decode()
    client.get(live_url)  # a second poll (another tab, another member) moves nothing more
    bots = SessionEvent.objects.filter(session=toy_session, kind="bot")
    assert bots.count() == 1
    ev = bots.get()
    # one code path: the foundation's seat_timeout_decide, logged as the seat's bot, not as a person
    assert ev.seat == "govt" and ev.seq == seq_before + 1 and ev.actor is None
    assert ev.payload["timeout"] is True and ev.payload["reason"].startswith("decision timer expired (30 s)")
    from django.utils import translation

    from facilitation.text import rendered
    with translation.override("es"):  # the reason as a message too: the AAR shows it in its language
        assert rendered(ev.payload["reason_message"]).startswith("se agotó el temporizador de decisión (30 s); ")
    assert not SessionEvent.objects.filter(session=toy_session, kind="decision").exists()
    # the poll that moved answers with the new position, and the team reads why in its log
    toy_session.refresh_from_db()
    assert f'data-seq="{toy_session.head_seq}"' in page
    assert "the decision timer expired: the bot decided" in page


def test_expired_timer_in_warn_mode_moves_nothing(client, toy_session, instructor, students):
    SessionUISettings.objects.create(session=toy_session, timer_expiry="warn")
    services.session_update(session=toy_session, user=instructor, decision_timer_seconds=30)
    _start(client, instructor, toy_session)
    login(client, students[0], "pw-student-1")
    _expire_timer(toy_session)
    page = client.get(reverse("web:play_live", args=[toy_session.pk])).content.decode()
    assert not SessionEvent.objects.filter(session=toy_session, kind="bot").exists()
    assert "Your turn!" in page


def test_expired_timer_is_not_triggered_by_the_waiting_seat(client, toy_session, instructor, students):
    """Only the acting seat's poll lets its bot decide; the other team's page cannot."""
    SessionUISettings.objects.create(session=toy_session, timer_expiry="bot")
    services.session_update(session=toy_session, user=instructor, decision_timer_seconds=30)
    _start(client, instructor, toy_session)
    login(client, students[1], "pw-student-1")  # Red plays the rebels; govt acts first
    _expire_timer(toy_session)
    client.get(reverse("web:play_live", args=[toy_session.pk]))
    assert not SessionEvent.objects.filter(session=toy_session, kind="bot").exists()


def test_reviewer_watches_a_live_session_read_only(client, toy_session, instructor, students, django_user_model):
    reviewer = django_user_model.objects.create_user("rev", password="pw-review-1")
    services.course_reviewer_grant(course=toy_session.course, user=instructor, reviewer=reviewer)
    login(client, reviewer, "pw-review-1")
    assert reverse("web:watch", args=[toy_session.pk]) not in client.get("/").content.decode(), "not started yet"
    assert client.get(reverse("web:watch", args=[toy_session.pk])).status_code == 403
    client.logout()
    _start(client, instructor, toy_session)
    login(client, reviewer, "pw-review-1")
    home = client.get("/").content.decode()
    assert reverse("web:watch", args=[toy_session.pk]) in home and "Toy Insurgency" in home
    watch = client.get(reverse("web:watch", args=[toy_session.pk]))
    assert watch.status_code == 200 and "hidden cache" in watch.content.decode().lower(), "every seat's view"
    # the play page sends a reviewer to the watch page; acting and controlling are refused
    r = client.get(reverse("web:play", args=[toy_session.pk]))
    assert r.status_code == 302 and r["Location"] == reverse("web:watch", args=[toy_session.pk])
    toy_session.refresh_from_db()
    assert client.post(reverse("web:play_choose", args=[toy_session.pk]),
                       {"seat": "govt", "choice": "op:pass", "seq": toy_session.head_seq}).status_code == 403
    assert client.post(reverse("web:control", args=[toy_session.pk, "pause"])).status_code == 403
    assert client.get(reverse("web:replay", args=[toy_session.pk])).status_code == 403, "replay opens at the end"
    assert not SessionEvent.objects.filter(session=toy_session, kind__in=("decision", "facilitator")).exists()


def test_expired_timer_acts_from_the_console_when_the_team_has_no_page_open(client, toy_session, instructor):
    SessionUISettings.objects.create(session=toy_session, timer_expiry="bot")
    services.session_update(session=toy_session, user=instructor, decision_timer_seconds=30)
    _start(client, instructor, toy_session)
    login(client, instructor, "pw-teacher-1")
    console_live = reverse("web:console_live")
    client.get(console_live)
    assert not SessionEvent.objects.filter(session=toy_session, kind="bot").exists(), "the timer has not run out"
    _expire_timer(toy_session)
    client.get(console_live)
    client.get(console_live)
    ev = SessionEvent.objects.get(session=toy_session, kind="bot")
    assert ev.seat == "govt" and ev.actor is None and ev.payload["reason"].startswith("decision timer expired")


def test_console_override_form_adjusts_a_peru_track(client, peru_session):
    game = peru_session
    client.force_login(game.people.instructor)
    url = reverse("web:control", args=[game.session.pk, "override"])
    client.post(url, {"action": "track", "track": "political_will", "value": 30, "reason": "ruling"}, follow=True)
    assert not SessionEvent.objects.filter(session=game.session, payload__action="adjust").exists()
    client.post(url, {"action": "track", "track": "political_will", "value": 11,
                      "reason": "Missed a Control change."}, follow=True)
    ev = SessionEvent.objects.get(session=game.session, payload__action="adjust")
    assert ev.payload["track"] == "political_will" and ev.payload["value"] == 11
    assert ev.payload["reason"] == "Missed a Control change."
    game.session.refresh_from_db()
    assert game.session.state["pw"] == 11


def test_join_link_says_at_once_that_a_code_has_expired(client, toy_session, instructor):
    import datetime as dt

    team = toy_session.teams.get(name="Red")
    jc = services.join_code_create(course=toy_session.course, user=instructor, team=team)
    type(jc).objects.filter(pk=jc.pk).update(expires_at=jc.created_at - dt.timedelta(days=1))
    page = client.get(reverse("web:join_code", args=[jc.code])).content.decode()
    assert "That join code has expired. Ask your instructor for a new one." in page
    assert 'name="password"' not in page, "no form to fill in for nothing"
