"""The live-region poll pool as production runs it (docs/operations.md, issue 20): granian serving
``coinlab.wsgi`` (its HTTP in Rust, kept-alive connections from the proxy) beside gunicorn for the
rest. The same application must give the same answers under both servers: a team's first poll (a
region, 200), its unchanged polls (304, answered by the poll front before Django), a poll after a
move (the new region) and a poll it may not make (refused alike, no region), with the same
headers, and neither naming its server. Real processes, PostgreSQL and Redis.
"""

from __future__ import annotations

import http.client
import urllib.parse

import pytest
from django.db import connection

from tests.conftest import create_peru_game, make_user, play_moves
from tests.hardening.helpers import login_cookie

pytestmark = pytest.mark.integration

# headers each server adds of its own (the connection's, the clock's), not the application's
_SERVER_OWN = {"date", "connection", "keep-alive", "server", "transfer-encoding"}


def _get(base: str, path: str, cookie: str, tag: str = "") -> tuple[int, dict, bytes]:
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    headers = {"Cookie": f"sessionid={cookie}", "Accept-Language": "en"}
    if tag:
        headers["If-None-Match"] = tag
    try:
        conn.request("GET", path, headers=headers)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def _app_headers(headers: dict) -> dict:
    return {k: v for k, v in headers.items() if k not in _SERVER_OWN}


def test_granian_answers_the_polls_as_gunicorn_does(people, subprocess_env, web_processes):
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    game = create_peru_game(people, seed=43, title="Poll server")
    (gunicorn,) = web_processes(1)
    (granian,) = web_processes(1, threads=2, server="granian")
    cookie = login_cookie(people.student_a)
    path = f"/sessions/{game.session.pk}/play/live/?seat={game.seat_a}"

    first = [_get(base, path, cookie) for base in (gunicorn, granian)]
    for status, headers, body in first:
        assert status == 200, (status, body[:300])
        assert b"<" in body and headers.get("etag"), headers
        assert not headers.get("server"), headers.get("server")
    (_, g_headers, g_body), (_, r_headers, r_body) = first
    assert _app_headers(r_headers) == _app_headers(g_headers)
    assert r_body == g_body
    tag = g_headers["etag"]

    # nothing changed: 304 with the region's tag from both (the poll front's answer)
    unchanged = [_get(base, path, cookie, tag) for base in (gunicorn, granian)]
    for status, headers, body in unchanged:
        assert (status, body) == (304, b""), (status, body[:300])
        assert headers["etag"] == tag and not headers.get("server"), headers
    # granian leaves out a 304's "Content-Length: 0" (RFC 9110 8.6: a 304 need not carry one)
    assert _app_headers(unchanged[1][1]) == {k: v for k, v in _app_headers(unchanged[0][1]).items()
                                             if k != "content-length"}

    # a move: both answer the new region under a new tag, the same bytes
    play_moves(game, 1)
    moved = [_get(base, path, cookie, tag) for base in (granian, gunicorn)]
    for status, headers, _body in moved:
        assert status == 200 and headers["etag"] != tag, (status, headers)
    assert moved[0][2] == moved[1][2] and moved[0][1]["etag"] == moved[1][1]["etag"]
    assert _app_headers(moved[0][1]) == _app_headers(moved[1][1])

    # a user of no team of the session: refused alike, no region sent
    outsider = login_cookie(make_user("poll_outsider", "student"))
    refused = [_get(base, path, outsider) for base in (gunicorn, granian)]
    assert refused[0][0] == refused[1][0] and refused[0][0] in (403, 404), [r[0] for r in refused]
    for _status, headers, body in refused:
        assert b"data-etag=" not in body and "etag" not in headers, headers
