"""Security middleware: Content-Security-Policy and rate limits (docs/security.md).

Both keep nothing in process memory: the rate-limit counters live in Django's
cache, which is Redis in production (``REDIS_URL``), so every web process of a
campus counts the same requests.

Content-Security-Policy
    Pages get ``script-src 'self'`` (no inline script, no eval), ``style-src
    'self'`` for style sheets and ``style-src-attr 'none'``: no inline
    ``style=""`` attribute either (the templates use classes, the SVG board
    presentation attributes). Two prefixes allow style attributes, and nothing
    more: ``/reports/`` (the AAR pages and report files: Plotly's charts and the
    static SVG copies kaleido draws for the PDF carry them; their scripts and
    style sheets are static files and chart data travels in ``<script
    type="application/json">`` blocks, which are never executed) and
    ``/admin/`` (Django's admin templates). A view may set its own, stricter
    header.

Rate limits
    Fixed windows counted in the cache (``cache.add`` + ``cache.incr``: atomic in
    Redis). Limits are ``"N/SECONDS"`` strings from the settings:

    * ``COINLAB_RATE_LOGIN_FAIL``: failed logins per client address and per user
      name (a campus NAT sends a whole class from one address, so only failures
      count);
    * ``COINLAB_RATE_JOIN_FAIL``: unknown/expired join codes per client address
      (enumeration);
    * ``COINLAB_RATE_SUBMIT``: decision submissions (API and page) per user.

    Over the limit: ``429`` with ``Retry-After`` (JSON ``{"error": "rate_limited"}``
    under /api/), nothing processed.
"""

from __future__ import annotations

import hashlib
import json
import re
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, JsonResponse

# ---- Content-Security-Policy ------------------------------------------------------------------

BASE_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "style-src-attr": "'none'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


# Paths whose pages carry style attributes they cannot do without (see above).
STYLE_ATTR_PREFIXES = ("/reports/", "/admin/")


def build_policy(**overrides: str) -> str:
    return "; ".join(f"{k} {v}" for k, v in {**BASE_POLICY, **overrides}.items())


POLICY = build_policy()
POLICY_WITH_STYLE_ATTRS = build_policy(**{"style-src-attr": "'unsafe-inline'"})


def policy_for(path: str) -> str:
    return POLICY_WITH_STYLE_ATTRS if path.startswith(STYLE_ATTR_PREFIXES) else POLICY


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy_for(request.path)
        return response


# ---- rate limits ---------------------------------------------------------------------------------


def parse_rate(rate: str) -> tuple[int, int]:
    n, _, secs = (rate or "").partition("/")
    return int(n), int(secs or 60)


def client_ip(request) -> str:
    header = getattr(settings, "COINLAB_CLIENT_IP_HEADER", "")
    if header:
        raw = request.META.get(header, "")
        if raw:
            # X-Forwarded-For: the proxy appends the address it saw; take the last one.
            return raw.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(bucket: str, who: str, window: int) -> str:
    return f"rl:{bucket}:{who}:{int(time.time() // window)}"


def hits(bucket: str, who: str, rate: str) -> int:
    """How many hits ``who`` has in the current window of ``bucket`` (without counting one)."""
    _n, window = parse_rate(rate)
    return int(cache.get(_key(bucket, who, window)) or 0)


def hit(bucket: str, who: str, rate: str) -> int:
    """Count one hit; returns the count in the current window."""
    _n, window = parse_rate(rate)
    key = _key(bucket, who, window)
    if cache.add(key, 1, timeout=window + 1):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=window + 1)
        return 1


def limited_response(request, message: str, retry_after: int) -> HttpResponse:
    if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
        resp = JsonResponse({"error": "rate_limited", "detail": message}, status=429)
    else:
        resp = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    resp["Retry-After"] = str(retry_after)
    return resp


SUBMIT_PATHS = (re.compile(r"^/api/sessions/\d+/seats/[^/]+/(submit|undo)/$"),
                re.compile(r"^/sessions/\d+/play/(choose|undo)/$"))
JOIN_PATHS = (re.compile(r"^/api/(join|register)/$"),)
JOIN_PAGE = re.compile(r"^/join/([^/]+)/$")
LOGIN_PATHS = (re.compile(r"^/accounts/login/$"), re.compile(r"^/admin/login/$"))


def _match(patterns, path: str) -> bool:
    return any(p.match(path) for p in patterns)


def _login_username(request) -> str:
    name = request.POST.get("username", "") if request.content_type != "application/json" else ""
    if not name and request.content_type == "application/json":
        try:
            name = str(json.loads(request.body or b"{}").get("username", ""))
        except (ValueError, AttributeError):
            name = ""
    return name.strip().lower()[:150]


class RateLimitMiddleware:
    """Per-process nothing: counters in the shared cache (Redis in production)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not getattr(settings, "COINLAB_RATE_LIMITS", True):
            return self.get_response(request)
        path = request.path_info
        if JOIN_PAGE.match(path):
            return self._join(request)
        if request.method != "POST":
            return self.get_response(request)
        if _match(LOGIN_PATHS, path):
            return self._login(request)
        if _match(JOIN_PATHS, path):
            return self._join(request)
        if _match(SUBMIT_PATHS, path):
            return self._submit(request)
        return self.get_response(request)

    def _login(self, request):
        rate = settings.COINLAB_RATE_LOGIN_FAIL
        n, window = parse_rate(rate)
        ip = client_ip(request)
        username = _login_username(request)
        if hits("login-ip", ip, rate) >= n * 5 or (username and hits("login-user", username, rate) >= n):
            return limited_response(request, "Too many failed logins. Wait a few minutes and try again.",
                                    window)
        response = self.get_response(request)
        # Django's LoginView answers 302 on success and re-renders the form (200) on failure.
        if response.status_code != 302:
            hit("login-ip", ip, rate)
            if username:
                hit("login-user", username, rate)
        return response

    def _join(self, request):
        rate = settings.COINLAB_RATE_JOIN_FAIL
        n, window = parse_rate(rate)
        ip = client_ip(request)
        if hits("join-ip", ip, rate) >= n:
            return limited_response(request, "Too many wrong join codes from your network. Wait a few minutes "
                                    "and check the code with your instructor.", window)
        response = self.get_response(request)
        m = JOIN_PAGE.match(request.path_info)
        failed = (not _usable_code(m.group(1))) if m else response.status_code in (404, 409)
        if failed:
            hit("join-ip", ip, rate)
        return response

    def _submit(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            who = f"u{user.pk}"
        elif request.headers.get("Authorization"):
            # API token clients are authenticated later, by DRF: count per credential.
            who = "t" + hashlib.sha256(request.headers["Authorization"].encode()).hexdigest()[:24]
        else:
            return self.get_response(request)
        rate = settings.COINLAB_RATE_SUBMIT
        n, window = parse_rate(rate)
        if hit("submit", who, rate) > n:
            return limited_response(request, f"Too many submissions (at most {n} in {window} s). "
                                    "Wait a moment.", window)
        return self.get_response(request)


def _usable_code(code: str) -> bool:
    from django.utils import timezone

    from facilitation.models import JoinCode

    return JoinCode.objects.filter(code=code, revoked=False, expires_at__gt=timezone.now()).exists()
