"""The live region's poll paths (issue #8): the 304 answer without database queries, the
per-seat fragment cache, versions that move on every change, and the submit's query budget.

Real PostgreSQL and Redis (``REDIS_URL``): the version, seat and fragment entries live in
the shared cache, as they do between web processes.
"""

import gzip
import json
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from facilitation import live, services
from facilitation.models import SessionEvent, TeamIntent
from facilitation.rendering import regions as live_regions

from .test_pages import _start, login

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _needs_redis():
    from django.conf import settings

    assert "Redis" in settings.CACHES["default"]["BACKEND"], "these tests run against the shared Redis cache"


def _live(session):
    return reverse("web:play_live", args=[session.pk])


def _poll(client, session, etag="", seat=""):
    url = _live(session) + (f"?seat={seat}" if seat else "")
    return client.get(url, HTTP_IF_NONE_MATCH=etag) if etag else client.get(url)


def _client_for(user, password="pw-student-1"):
    return login(Client(), user, password)


def test_unchanged_poll_is_answered_without_a_database_query(client, toy_session, instructor, students,
                                                              django_assert_num_queries):
    _start(client, instructor, toy_session)
    login(client, students[1], "pw-student-1")
    r = _poll(client, toy_session)
    assert r.status_code == 200
    etag = r["ETag"]
    with django_assert_num_queries(0):
        r304 = _poll(client, toy_session, etag)
    assert r304.status_code == 304 and r304["ETag"] == etag and not r304.content
    # and no write to the login session (no Set-Cookie for it) on that path
    assert "sessionid" not in r304.cookies


def test_an_unchanged_poll_reads_the_cache_once(client, toy_session, instructor, students):
    """Issue 20: the login session, the session's version and the user's seats in one cache
    round trip (the seats are remembered per login session); the seats of another login
    session are never taken for this one's."""
    from django.core.cache import caches

    _start(client, instructor, toy_session)
    login(client, students[1], "pw-student-1")
    etag = _poll(client, toy_session)["ETag"]
    backend = type(caches["default"])
    trips = []
    real = {name: getattr(backend, name) for name in ("get", "get_many")}
    try:
        for name in real:
            setattr(backend, name, lambda self, *a, _name=name, **k: (trips.append(_name), real[_name](self, *a, **k))[1])
        assert _poll(client, toy_session, etag).status_code == 304
    finally:
        for name, fn in real.items():
            setattr(backend, name, fn)
    assert trips == ["get_many"]
    # a team mate's login session with no seats remembered yet takes the checked path: its
    # own seat, never the other login session's
    mate = _client_for(students[0])
    r = _poll(mate, toy_session)
    assert r.status_code == 200 and r["ETag"] != etag
    assert 'data-seat="govt"' in r.content.decode()


def test_changed_poll_after_a_submit_is_never_a_stale_304(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    login(client, students[1], "pw-student-1")
    etag = _poll(client, toy_session)["ETag"]
    assert _poll(client, toy_session, etag).status_code == 304
    toy_session.refresh_from_db()
    services.choice_submit(session=toy_session, user=students[0], seat="govt", choice="op:pass",
                           seq=toy_session.head_seq)
    r = _poll(client, toy_session, etag)
    assert r.status_code == 200 and r["ETag"] != etag and "Your turn!" in r.content.decode()


@pytest.mark.parametrize("change", ["pause", "resume", "note", "intent", "undo"])
def test_every_state_change_moves_the_version(client, toy_session, instructor, students, change):
    _start(client, instructor, toy_session)
    toy_session.refresh_from_db()
    if change == "resume":
        services.session_pause(session=toy_session, user=instructor)
    if change == "undo":
        services.choice_submit(session=toy_session, user=students[0], seat="govt", choice="op:march",
                               seq=toy_session.head_seq)
    toy_session.refresh_from_db()
    c = _client_for(students[0])
    first = _poll(c, toy_session)
    etag = first["ETag"]
    assert _poll(c, toy_session, etag).status_code == 304
    if change == "pause":
        services.session_pause(session=toy_session, user=instructor)
    elif change == "resume":
        services.session_resume(session=toy_session, user=instructor)
    elif change == "note":
        services.facilitator_note(session=toy_session, user=instructor, text="Think about the hills")
    elif change == "intent":
        services.team_intent_set(session=toy_session, team=toy_session.teams.get(name="Blue"), user=students[0],
                                 statement="Hold the capital")
    elif change == "undo":
        services.choice_undo(session=toy_session, user=students[0], seat="govt", seq=toy_session.head_seq)
    r = _poll(c, toy_session, etag)
    assert r.status_code == 200 and r["ETag"] != etag
    body = r.content.decode()
    if change == "pause":
        assert "Paused by the facilitator" in body
    if change == "resume":
        assert "Paused by the facilitator" not in body and "Your turn!" in body
    if change == "intent":
        assert "Hold the capital" in body and 'name="statement"' not in body


def test_cached_fragment_is_per_seat_and_never_crosses(toy_session, instructor, students):
    """The rebels' region (which shows their hidden cache) is cached first; the government's
    poll of the same version must draw its own region, never the rebels' fragment."""
    _start(Client(), instructor, toy_session)
    rebels, govt = _client_for(students[1]), _client_for(students[0])
    r_reb = _poll(rebels, toy_session)
    assert "hidden cache" in r_reb.content.decode().lower()
    assert live_regions.cached_fragment(toy_session.pk, r_reb["ETag"]) is not None, "the rebels' region is cached"
    r_gov = _poll(govt, toy_session)
    body = r_gov.content.decode().lower()
    assert r_gov["ETag"] != r_reb["ETag"]
    assert "hidden cache" not in body and "cache location" not in body and "Your turn!".lower() in body
    # a government member asking for the rebels' seat still gets the government's region
    r_ask = _poll(govt, toy_session, seat="rebels")
    assert r_ask["ETag"] == r_gov["ETag"] and "hidden cache" not in r_ask.content.decode().lower()
    # each cached fragment is the one of its own seat
    assert "hidden cache" in live_regions.cached_fragment(toy_session.pk, r_reb["ETag"]).lower()
    assert "hidden cache" not in live_regions.cached_fragment(toy_session.pk, r_gov["ETag"]).lower()
    # stored under keys that differ by seat
    assert live.fragment_key(toy_session.pk, r_reb["ETag"]) != live.fragment_key(toy_session.pk, r_gov["ETag"])
    assert cache.get(live.fragment_key(toy_session.pk, r_gov["ETag"])) is not None


def test_team_mates_share_the_drawn_region_and_post_with_their_own_csrf_token_and_key(
        toy_session, instructor, students, django_user_model):
    """The cached region carries no per-request values: the same bytes for every member, with
    empty CSRF token and key fields. A member's post is accepted with the token the page's htmx
    sends in X-CSRFToken (hx-headers of web/base.html) and the key play.js put in the form."""
    mate = django_user_model.objects.create_user("mate", password="pw-student-1")
    services.team_member_add(team=toy_session.teams.get(name="Blue"), user=instructor, member=mate)
    _start(Client(), instructor, toy_session)
    first = Client(enforce_csrf_checks=True)
    second = Client(enforce_csrf_checks=True)
    login(first, students[0], "pw-student-1")
    login(second, mate, "pw-student-1")
    a = _poll(first, toy_session)
    with CaptureQueriesContext(connection) as drawn_again:
        b = _poll(second, toy_session)
    assert a["ETag"] == b["ETag"]
    # the second member's answer came from the cache: no event log, prompt or intent reads
    tables = " ".join(q["sql"] for q in drawn_again.captured_queries)
    assert "facilitation_sessionevent" not in tables and "facilitation_teamintent" not in tables
    html_a, html_b = a.content.decode(), b.content.decode()
    assert html_a == html_b
    assert 'name="key" value=""' in html_b and 'name="csrfmiddlewaretoken" value=""' in html_b
    assert live_regions.CSRF_SENTINEL not in html_b and live_regions.KEY_SENTINEL not in html_b
    page = second.get(reverse("web:play", args=[toy_session.pk]) + "?seat=govt").content.decode()
    header_token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page).group(1)
    toy_session.refresh_from_db()
    choose = reverse("web:play_choose", args=[toy_session.pk]) + "?seat=govt"
    form = {"seat": "govt", "seq": toy_session.head_seq, "choice": "op:pass", "key": "k" * 32,
            "csrfmiddlewaretoken": ""}
    assert second.post(choose, form, HTTP_HX_REQUEST="true").status_code == 403  # no token at all
    assert not SessionEvent.objects.filter(session=toy_session, kind="decision").exists()
    r = second.post(choose, form, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=header_token)
    assert r.status_code == 200
    assert SessionEvent.objects.get(session=toy_session, kind="decision").actor == mate
    # the same key again (a repeated post of that form) applies nothing more
    again = second.post(choose, form, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=header_token)
    assert again.status_code == 200
    assert SessionEvent.objects.filter(session=toy_session, kind="decision").count() == 1


def test_leaving_the_team_ends_the_304_answers(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    c = _client_for(students[1])
    etag = _poll(c, toy_session)["ETag"]
    assert _poll(c, toy_session, etag).status_code == 304
    services.team_member_remove(team=toy_session.teams.get(name="Red"), user=instructor, member=students[1])
    assert _poll(c, toy_session, etag).status_code == 403


def test_logged_out_session_gets_no_304(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    c = _client_for(students[1])
    etag = _poll(c, toy_session)["ETag"]
    assert _poll(c, toy_session, etag).status_code == 304
    c.logout()
    r = _poll(c, toy_session, etag)
    assert r.status_code == 302 and "login" in r["Location"]


def test_poll_with_a_timer_takes_the_checked_path(client, toy_session, instructor, students):
    """A running decision timer may have to act, so its polls are never answered from the cache."""
    services.session_update(session=toy_session, user=instructor, decision_timer_seconds=300)
    _start(client, instructor, toy_session)
    c = _client_for(students[0])
    etag = _poll(c, toy_session)["ETag"]
    with CaptureQueriesContext(connection) as q:
        assert _poll(c, toy_session, etag).status_code == 304
    assert len(q.captured_queries) > 0


def test_region_is_sent_gzipped_to_clients_that_accept_it(client, toy_session, instructor, students):
    _start(client, instructor, toy_session)
    c = _client_for(students[0])
    plain = _poll(c, toy_session)
    zipped = c.get(_live(toy_session), HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["Content-Encoding"] == "gzip" and len(zipped.content) < len(plain.content)
    text = gzip.decompress(zipped.content).decode()
    assert 'data-turn-cue="yours"' in text and zipped["ETag"] == plain["ETag"]


def test_query_budgets_of_the_poll_and_the_submit(client, toy_session, instructor, students,
                                                  django_assert_max_num_queries):
    _start(client, instructor, toy_session)
    c = _client_for(students[0])
    with django_assert_max_num_queries(8):  # user, seats, session, log, team, intents, decisions
        r = _poll(c, toy_session)
    assert r.status_code == 200
    toy_session.refresh_from_db()
    # user, seat check, session; then lock, seats, key, clock, event, session, key (+ savepoints)
    with django_assert_max_num_queries(14):
        r = c.post(f"/api/sessions/{toy_session.pk}/seats/govt/submit/",
                   {"seq": toy_session.head_seq, "choice": "op:march", "idempotency_key": "budget-1"},
                   content_type="application/json")
    assert r.status_code == 200, r.content
    # the same key again: the first answer, nothing applied twice
    again = c.post(f"/api/sessions/{toy_session.pk}/seats/govt/submit/",
                   {"seq": toy_session.head_seq, "choice": "op:march", "idempotency_key": "budget-1"},
                   content_type="application/json")
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert SessionEvent.objects.filter(session=toy_session, kind="decision").count() == 1
    # a stale seq is still a 409
    stale = c.post(f"/api/sessions/{toy_session.pk}/seats/govt/submit/",
                   {"seq": toy_session.head_seq, "choice": "space:hills", "idempotency_key": "budget-2"},
                   content_type="application/json")
    assert stale.status_code == 409 and stale.json()["error"] == "stale_seq"
    assert not TeamIntent.objects.exists()



def test_the_page_submit_answers_with_the_stored_region_bytes(toy_session, instructor, students):
    """The deciding seat's new region is drawn once, stored gzipped, and those very bytes are
    the answer to the htmx post (no second compression); a client without gzip gets the HTML."""
    _start(Client(), instructor, toy_session)
    c = _client_for(students[0])
    toy_session.refresh_from_db()
    choose = reverse("web:play_choose", args=[toy_session.pk]) + "?seat=govt"
    r = c.post(choose, {"seat": "govt", "seq": toy_session.head_seq, "choice": "op:pass", "key": "a" * 32},
               HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert r.status_code == 200 and r["Content-Encoding"] == "gzip"
    assert json.loads(r["HX-Trigger"]) == {"coinlab:accepted": {"target": "body"}}
    assert r.content == cache.get(live.fragment_key(toy_session.pk, r["ETag"]))
    html = gzip.decompress(r.content).decode()
    assert f'data-etag="{escape(r["ETag"])}"' in html  # the new version's region
    plain = c.get(_live(toy_session) + "?seat=govt")
    assert "Content-Encoding" not in plain and plain.content.decode() == html


def test_a_session_not_started_draws_its_region_without_a_victory_panel(instructor, django_user_model):
    """A Peru session created but not started has no position (state None): its region says so
    and shows no victory panel (Peru's conditions read the metrics of a position; the region and
    its pre-draw used to fail with a KeyError, a 500, for every session between creation and
    start: the ramp's log of the live worker, issue 20)."""
    from facilitation.rendering import regions as live_regions

    course = services.course_create(user=instructor, title="COIN 102")
    session = services.session_create(course=course, user=instructor, title="Not yet", scenario_key="peru",
                                      teams=["Blue"], seats={"government": "Blue", "shining_path": "bot:random"})
    student = django_user_model.objects.create_user("early", password="pw-student-1")
    services.team_member_add(team=session.teams.get(), user=instructor, member=student)
    assert session.state is None
    c = _client_for(student)
    r = _poll(c, session)
    assert r.status_code == 200
    assert 'data-turn-cue="scheduled"' in r.content.decode() and "victory-panel" not in r.content.decode()
    assert c.get(f"/sessions/{session.pk}/play/").status_code == 200
    assert live_regions.predraw_regions(session.pk) == 0  # the poll drew it already; nothing fails
