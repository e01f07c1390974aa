"""Shared steps of the hardening tests: logins without passwords, playing over HTTP."""

from __future__ import annotations

import uuid

from tests.hardening.conftest import http

CSRF = "HardeningCsrfToken0123456789abcd"  # 32 letters and digits: a valid CSRF cookie value


def token_for(user) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key


def login_cookie(user) -> str:
    """A login session written straight to the database (every web process can read it)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    s = SessionStore()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    return s.session_key


def cookie_headers(cookie: str) -> dict:
    return {"Cookie": f"sessionid={cookie}; csrftoken={CSRF}", "X-CSRFToken": CSRF}


def play_one(server: str, sid: int, seat: str, token: str, *, pick: int = 0) -> tuple[int, dict | str]:
    """If it is ``seat``'s turn, submit a legal choice; ``(0, "not my turn")`` otherwise."""
    status, prompt = http("GET", f"{server}/api/sessions/{sid}/seats/{seat}/prompt/", token=token)
    if status != 200:
        return status, prompt
    choices = [c["id"] for c in (prompt.get("prompt") or {}).get("choices", [])]
    if not prompt.get("your_turn") or not choices:
        return -1, "not my turn"
    return http("POST", f"{server}/api/sessions/{sid}/seats/{seat}/submit/", token=token, body={
        "choice": choices[pick % len(choices)], "seq": prompt["seq"], "idempotency_key": uuid.uuid4().hex})


def post_form(url: str, fields: dict, headers: dict) -> tuple[int, str]:
    """A form POST that does not follow redirects: ``(status, text)``."""
    import urllib.error
    import urllib.parse
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    data = urllib.parse.urlencode(fields).encode()
    req = urllib.request.Request(url, data=data, method="POST", headers={
        **headers, "Content-Type": "application/x-www-form-urlencoded"})
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(req, timeout=30) as resp:
            return resp.status, resp.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")
