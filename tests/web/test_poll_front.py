"""The unchanged polls answered in front of Django (``facilitation.web.poll_front``, issue 20).

The front must say "304, nothing changed" only where the view itself would, with the headers
Django's middleware would add, and hand every other request to Django untouched. Each test calls
the front (wrapping Django's WSGI handler, as ``coinlab/wsgi.py`` does) and Django's handler
alone with the same request, and compares. Real PostgreSQL and Redis.
"""

from __future__ import annotations

import io
import sys

import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse

from facilitation import live, services
from facilitation.web.poll_front import PollFront

from .test_pages import _start, login

pytestmark = pytest.mark.django_db


class _Django:
    """Django's WSGI handler, counting the requests it was given."""

    def __init__(self):
        self.handler = WSGIHandler()
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.handler(environ, start_response)


def _call(app, path, *, cookie="", etag="", query="", method="GET", host="testserver", extra=None):
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "testserver",
               "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": host,
               "HTTP_ACCEPT_ENCODING": "gzip", "wsgi.input": io.BytesIO(b""), "wsgi.errors": sys.stderr,
               "wsgi.url_scheme": "http", "wsgi.version": (1, 0), "wsgi.multithread": True,
               "wsgi.multiprocess": True, "wsgi.run_once": False}
    if cookie:
        environ["HTTP_COOKIE"] = cookie
    if etag:
        environ["HTTP_IF_NONE_MATCH"] = etag
    environ.update(extra or {})
    got = {}

    def start_response(status, headers, exc_info=None):
        got["status"], got["headers"] = int(status.split()[0]), headers

    # Django's WSGI handler closes the database connection when a request starts and ends; the
    # test's transaction lives on it (Django's test client disconnects the same receiver per request)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        answer = app(environ, start_response)
        body = b"".join(answer)
        if hasattr(answer, "close"):
            answer.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return got["status"], got["headers"], body


def _headers(headers) -> dict:
    return {k.lower(): v for k, v in headers}


@pytest.fixture
def polling(client, toy_session, instructor, students):
    """A live session, a student's client logged in, its poll URL and the region's tag."""
    _start(client, instructor, toy_session)
    c = login(Client(), students[1], "pw-student-1")
    url = reverse("web:play_live", args=[toy_session.pk])
    r = c.get(url)  # the first poll: the seats are remembered for this login session
    assert r.status_code == 200
    cookie = f"{settings.SESSION_COOKIE_NAME}={c.cookies[settings.SESSION_COOKIE_NAME].value}"
    return {"client": c, "url": url, "cookie": cookie, "etag": r["ETag"], "session": toy_session}


def test_the_front_answers_an_unchanged_poll_with_djangos_own_answer(polling):
    django = _Django()
    front = PollFront(django)
    status, headers, body = _call(front, polling["url"], cookie=polling["cookie"], etag=polling["etag"])
    assert (status, body, django.calls) == (304, b"", 0), "answered in front of Django"
    d_status, d_headers, d_body = _call(django, polling["url"], cookie=polling["cookie"], etag=polling["etag"])
    assert (d_status, d_body) == (304, b"")
    assert _headers(headers) == _headers(d_headers)
    assert _headers(headers)["etag"] == polling["etag"]


def test_spanish_pages_get_their_own_tag_as_django_gives_it(polling):
    django = _Django()
    front = PollFront(django)
    spanish = {"HTTP_ACCEPT_LANGUAGE": "es"}
    d_status, d_headers, _ = _call(django, polling["url"], cookie=polling["cookie"], extra=spanish)
    es_tag = _headers(d_headers)["etag"]
    assert d_status == 200 and es_tag != polling["etag"]
    # the English tag is not the Spanish page's: Django answers (the region in Spanish)
    status, _, _ = _call(front, polling["url"], cookie=polling["cookie"], etag=polling["etag"], extra=spanish)
    assert status == 200 and django.calls == 2
    status, headers, _ = _call(front, polling["url"], cookie=polling["cookie"], etag=es_tag, extra=spanish)
    assert status == 304 and django.calls == 2
    _, d_headers, _ = _call(django, polling["url"], cookie=polling["cookie"], etag=es_tag, extra=spanish)
    assert _headers(headers) == _headers(d_headers) and _headers(headers)["content-language"] == "es"


def _moved(p, students, instructor):
    session = p["session"]
    session.refresh_from_db()
    services.choice_submit(session=session, user=students[0], seat="govt", choice="op:pass", seq=session.head_seq)


def _logged_out(p, students, instructor):
    p["client"].logout()


def _password_changed(p, students, instructor):
    # the login session's auth hash no longer matches the one remembered with the seats
    user = students[1]
    user.set_password("pw-student-new")
    user.save()


def _left_the_team(p, students, instructor):
    services.team_member_remove(team=p["session"].teams.get(name="Red"), user=instructor, member=students[1])


def _entry_of_another_login(p, students, instructor):
    # the seats remembered for this login session carry another user's id and auth hash (as
    # ``get_user`` checks, the entry is trusted only for the login session's own user and hash)
    from django.core.cache import cache

    login_key = p["client"].cookies[settings.SESSION_COOKIE_NAME].value
    key = live._seats_key(p["session"].pk, login_key)
    entry = cache.get(key)
    assert entry and entry["seats"]
    cache.set(key, {**entry, "u": str(instructor.pk), "h": instructor.get_session_auth_hash()}, timeout=60)


def _timer(p, students, instructor):
    services.session_update(session=p["session"], user=instructor, decision_timer_seconds=300)


CHANGES = {"a move": _moved, "logged out": _logged_out, "password changed": _password_changed,
           "left the team": _left_the_team, "an entry of another login": _entry_of_another_login,
           "a decision timer": _timer}


@pytest.mark.parametrize("change", list(CHANGES))
def test_after_a_change_the_poll_goes_to_django(polling, students, instructor, change):
    CHANGES[change](polling, students, instructor)
    django = _Django()
    front = PollFront(django)
    status, _, _ = _call(front, polling["url"], cookie=polling["cookie"], etag=polling["etag"])
    assert django.calls == 1, f"{change}: answered in front of Django with {status}"
    d_status, _, _ = _call(django, polling["url"], cookie=polling["cookie"], etag=polling["etag"])
    assert status == d_status


def test_a_cache_that_fails_hands_the_poll_to_django(polling, monkeypatch):
    django = _Django()
    front = PollFront(django)
    def broken(*a, **k):
        raise ConnectionError("cache down")

    monkeypatch.setattr(live, "poll_lookup", broken)
    _call(front, polling["url"], cookie=polling["cookie"], etag=polling["etag"])
    assert django.calls == 1


@pytest.mark.parametrize("variant", ["no tag", "tag of another form", "post", "another path", "no cookie",
                                     "a cookie of another form", "an unknown login session", "host not allowed",
                                     "another session's id"])
def test_requests_the_front_does_not_answer_go_to_django(polling, variant):
    django = _Django()
    front = PollFront(django)
    kw = {"cookie": polling["cookie"], "etag": polling["etag"]}
    url = polling["url"]
    if variant == "no tag":
        kw["etag"] = ""
    elif variant == "tag of another form":
        kw["etag"] = polling["etag"].replace("W/", "")
    elif variant == "post":
        kw["method"] = "POST"
    elif variant == "another path":
        url = url.replace("/live/", "/")
    elif variant == "no cookie":
        kw["cookie"] = ""
    elif variant == "a cookie of another form":
        kw["cookie"] = f"{settings.SESSION_COOKIE_NAME}=../{'x' * 30}"
    elif variant == "an unknown login session":
        kw["cookie"] = f"{settings.SESSION_COOKIE_NAME}={'a' * 32}"
    elif variant == "host not allowed":
        kw["host"] = "evil.example"
    elif variant == "another session's id":
        url = reverse("web:play_live", args=[polling["session"].pk + 1000])
    status, _, _ = _call(front, url, **kw)
    assert django.calls == 1, f"{variant}: answered in front of Django with {status}"
    assert status != 500
    if variant == "host not allowed":
        assert status == 400


def test_a_seat_the_user_does_not_hold_is_not_answered_for_it(polling, students):
    """The other team's seat asked for: the view answers with the user's own seat's region, so
    the front compares the page's tag with the user's own seat's tag (never the other one's)."""
    django = _Django()
    front = PollFront(django)
    d_status, d_headers, _ = _call(django, polling["url"], cookie=polling["cookie"], query="seat=govt")
    assert d_status == 200 and _headers(d_headers)["etag"] == polling["etag"]  # Red's own region
    status, _, _ = _call(front, polling["url"], cookie=polling["cookie"], etag=polling["etag"], query="seat=govt")
    assert status == 304 and django.calls == 1
