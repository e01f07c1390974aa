"""The teams' unchanged polls answered in front of Django (issue 20, capacity).

Every team's page polls its live region every 1.5 s with the region's ETag, and nearly every
poll finds nothing changed: 200 live sessions are about 450 such polls a second. The view
already answers them from one cache round trip (``play._from_cache``), but before it runs, each
poll went through Django's request object and thirteen middleware (sessions, locale, CSRF,
authentication, rate limits, messages, security headers...): about two thirds of the poll's CPU.

``PollFront`` wraps the WSGI application (``coinlab/wsgi.py``). For a ``GET`` of a live region
that carries an ETag of the right form and a login session cookie, it makes the view's own
round trip (``live.poll_lookup``: the login session's data from the session store's cache, the
session's version, the seats remembered for that login session), applies the view's own checks
(``play.seats_of_entry``: the entry's user and auth hash against the login session's;
``play.poll_tag``: no decision timer running, the seat asked for if it is the user's) and, when
the tag is the one the page shows, answers ``304 Not Modified`` with the headers Django's
middleware would have added (tests/web/test_poll_front.py compares them). Everything else (a
changed region, an unknown login session, a timer, a request it cannot read, a cache that does not
answer) goes to Django unchanged, which answers it on the checked path as before: the front only
ever says "nothing changed" where the view would have said it.

The language is the one ``LocaleMiddleware`` would activate (cookie, then ``Accept-Language``):
the tag depends on it (``regions.etag_of``). The ``Host`` header is validated against
``ALLOWED_HOSTS`` as Django does; a plain-HTTP request where HTTPS is required goes to Django (its
redirect).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.core.handlers.wsgi import WSGIRequest
from django.http import parse_cookie
from django.urls import reverse
from django.utils.translation import get_language_from_request

from coinlab.security import policy_for
from facilitation import live

from .views.play import _ETAG_FORM, poll_tag, seats_of_entry

_SESSION_KEY_FORM = re.compile(r"[a-z0-9]{8,64}")


class PollFront:
    """WSGI middleware: unchanged live-region polls answered before Django (module docstring)."""

    def __init__(self, app):
        self.app = app
        self._path = None
        self._store_prefix = None

    def _setup(self) -> None:
        from django.contrib.sessions.backends.cached_db import KEY_PREFIX

        marker = 987654321
        path = reverse("web:play_live", args=[marker])
        self._path = re.compile(re.escape(path).replace(str(marker), r"([0-9]{1,12})"))
        cached_db = (settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"
                     and settings.SESSION_CACHE_ALIAS == "default")
        # the login session's data is read in the poll's one round trip only from a cached_db store
        # on the default cache (as play._store_key); any other store: every poll goes to Django
        self._store_prefix = KEY_PREFIX if cached_db else ""

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET" and "HTTP_IF_NONE_MATCH" in environ:
            try:
                headers = self._not_modified(environ)
            except Exception:  # noqa: BLE001 - whatever the front cannot answer, Django answers
                headers = None
            if headers is not None:
                start_response("304 Not Modified", headers)
                return []
        return self.app(environ, start_response)

    def _not_modified(self, environ) -> list[tuple[str, str]] | None:
        if self._path is None:
            self._setup()
        if not self._store_prefix:
            return None
        match = self._path.fullmatch(environ.get("PATH_INFO", ""))
        shown = environ["HTTP_IF_NONE_MATCH"]
        if match is None or not _ETAG_FORM.fullmatch(shown):
            return None
        login_key = parse_cookie(environ.get("HTTP_COOKIE", "")).get(settings.SESSION_COOKIE_NAME, "")
        if not _SESSION_KEY_FORM.fullmatch(login_key):
            return None
        request = WSGIRequest(environ)
        secure = request.is_secure()
        if settings.SECURE_SSL_REDIRECT and not secure:
            return None  # SecurityMiddleware redirects it
        request.get_host()  # DisallowedHost for a host not allowed: Django answers 400
        session_id = int(match.group(1))
        v, entry = live.poll_lookup(session_id, login_key, self._store_prefix + login_key)
        data = entry.pop("login")
        if not isinstance(data, dict) or not data.get(SESSION_KEY) or not data.get(HASH_SESSION_KEY):
            return None
        seats = seats_of_entry(entry or None, data[SESSION_KEY], data[HASH_SESSION_KEY])
        language = get_language_from_request(request)
        tag = poll_tag(session_id, v, seats, request.GET.get("seat"), language)
        if tag is None or tag != shown:
            return None
        return _headers(tag, language, request.path, secure)


def _headers(tag: str, language: str, path: str, secure: bool) -> list[tuple[str, str]]:
    """What Django's answer carries: the view's ETag and Cache-Control (``common.no_store``), the
    Vary of its session and locale middleware, and the security middleware's headers."""
    headers = [("ETag", tag), ("Cache-Control", "no-store"), ("Content-Length", "0"),
               ("Vary", "Accept-Language, Cookie"), ("Content-Language", language),
               ("Content-Security-Policy", policy_for(path)), ("X-Frame-Options", settings.X_FRAME_OPTIONS)]
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append(("X-Content-Type-Options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        headers.append(("Referrer-Policy", policy if isinstance(policy, str) else ",".join(policy)))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers.append(("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    if secure and settings.SECURE_HSTS_SECONDS:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        headers.append(("Strict-Transport-Security", hsts))
    return headers
