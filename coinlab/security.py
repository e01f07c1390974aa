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
    Counted by django-ratelimit (``django_ratelimit.core.get_usage``: fixed windows
    in Django's cache, atomic ``add``/``incr`` in Redis). Limits are ``"N/SECONDS"``
    strings from the settings. The design slows attackers without locking out a class
    (issue 14 item 6):

    * logins (``COINLAB_RATE_LOGIN_FAIL``, failures only): user names are keyed as
      Django compares them, NFKC-normalised (and case-folded), so fullwidth letters
      count as the same name. Over the limit for one (user name, address) pair, that
      pair is refused, from that address only; over ``COINLAB_RATE_LOGIN_USER_FAIL``
      failures for the name from all addresses, and over ``COINLAB_RATE_LOGIN_IP_FAIL``
      failures from one address (a password spray), new attempts are refused too,
      except from a browser that has logged in as that user before (a signed
      "known device" cookie, ``coinlab_device``): the account's owner keeps logging
      in with the right password from their own browser, and a campus NAT is never
      locked out as a whole;
    * join codes (``COINLAB_RATE_JOIN_FAIL``: wrong codes per address): over the
      limit, wrong codes are answered 429 but a valid code always goes through (a
      code carries about 59 random bits, 12 of 31 letters and digits: the limit stops
      noise, not a feasible search);
    * ``COINLAB_RATE_SUBMIT``: decision submissions (API and page; plans and their drafts too) per user.

    Over a limit: ``429`` with ``Retry-After`` (JSON ``{"error": "rate_limited"}``
    under /api/), nothing processed.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata

from django.conf import settings
from django.core import signing
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


def usage(request, bucket: str, who: str, rate: str, *, count: bool = False) -> dict:
    """django-ratelimit's count of ``who`` in ``bucket`` (``count``: add this request)."""
    from django_ratelimit.core import get_usage

    found = get_usage(request, group=f"coinlab.{bucket}", key=lambda _group, _request: who,
                      rate=_ratelimit_rate(rate), increment=count)
    return found or {"count": 0, "limit": parse_rate(rate)[0], "should_limit": False, "time_left": 0}


def _ratelimit_rate(rate: str) -> str:
    n, secs = parse_rate(rate)
    return f"{n}/{secs}s"


def over(request, bucket: str, who: str, rate: str) -> bool:
    """Whether ``who`` has already used up ``rate`` in ``bucket`` (counts nothing)."""
    return usage(request, bucket, who, rate)["count"] >= parse_rate(rate)[0]


def count(request, bucket: str, who: str, rate: str) -> int:
    return int(usage(request, bucket, who, rate, count=True)["count"])


def limited_response(request, message: str, retry_after: int) -> HttpResponse:
    if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
        resp = JsonResponse({"error": "rate_limited", "detail": message}, status=429)
    else:
        resp = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    resp["Retry-After"] = str(retry_after)
    return resp


SUBMIT_PATHS = (re.compile(r"^/api/sessions/\d+/seats/[^/]+/(submit|undo|plan|plan/draft)/$"),
                re.compile(r"^/sessions/\d+/play/(choose|undo|plan)/$"))
JOIN_PATHS = (re.compile(r"^/api/(join|register)/$"),)
JOIN_PAGE = re.compile(r"^/join/([^/]+)/$")
LOGIN_PATHS = (re.compile(r"^/accounts/login/$"), re.compile(r"^/admin/login/$"))


def _match(patterns, path: str) -> bool:
    return any(p.match(path) for p in patterns)


def _json_field(request, name: str) -> str:
    """``name`` from a JSON body, or "" (malformed, too deep or not an object: the view answers)."""
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):
        return ""
    value = data.get(name, "") if isinstance(data, dict) else ""
    return value if isinstance(value, str) else ""


def normalize_username(name: str) -> str:
    """The rate-limit key of a user name: NFKC as Django normalises user names
    (``AbstractBaseUser.normalize_username``), then case-folded: one key for every
    spelling that may reach the same account."""
    return unicodedata.normalize("NFKC", name or "").strip().casefold()[:150]


def _login_username(request) -> str:
    if request.content_type == "application/json":
        return normalize_username(_json_field(request, "username"))
    return normalize_username(request.POST.get("username", ""))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


DEVICE_COOKIE = "coinlab_device"
DEVICE_SALT = "coinlab.security.known-device"
DEVICE_MAX_USERS = 20


def _known_users(request) -> list[str]:
    """Digests of the user names that have logged in from this browser (signed cookie)."""
    raw = request.COOKIES.get(DEVICE_COOKIE, "")
    if not raw:
        return []
    try:
        value = signing.loads(raw, salt=DEVICE_SALT, max_age=365 * 86400)
    except signing.BadSignature:
        return []
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _remember_device(request, response, username: str) -> None:
    known = [d for d in _known_users(request) if d != _digest(username)]
    known = [_digest(username), *known][:DEVICE_MAX_USERS]
    response.set_cookie(DEVICE_COOKIE, signing.dumps(known, salt=DEVICE_SALT), max_age=365 * 86400,
                        secure=settings.SESSION_COOKIE_SECURE, httponly=True, samesite="Lax")


class RateLimitMiddleware:
    """Per-process nothing: counters in the shared cache (Redis in production)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not getattr(settings, "COINLAB_RATE_LIMITS", True):
            return self.get_response(request)
        path = request.path_info
        if JOIN_PAGE.match(path):
            return self._join(request, JOIN_PAGE.match(path).group(1))
        if request.method != "POST":
            return self.get_response(request)
        if _match(LOGIN_PATHS, path):
            return self._login(request)
        if _match(JOIN_PATHS, path):
            return self._join(request, _json_field(request, "code") if request.content_type == "application/json"
                              else request.POST.get("code", ""))
        if _match(SUBMIT_PATHS, path):
            return self._submit(request)
        return self.get_response(request)

    def _login(self, request):
        rate = settings.COINLAB_RATE_LOGIN_FAIL
        user_rate = settings.COINLAB_RATE_LOGIN_USER_FAIL
        ip_rate = settings.COINLAB_RATE_LOGIN_IP_FAIL
        ip = client_ip(request)
        username = _login_username(request)
        pair = f"{_digest(username)}@{ip}"
        known = bool(username) and _digest(username) in _known_users(request)
        if username and not known and (over(request, "login-pair", pair, rate)
                                       or over(request, "login-user", _digest(username), user_rate)
                                       or over(request, "login-ip", ip, ip_rate)):
            return limited_response(request, "Too many failed logins. Wait a few minutes and try again.",
                                    parse_rate(rate)[1])
        response = self.get_response(request)
        # Django's LoginView answers 302 on success and re-renders the form (200) on failure.
        if response.status_code == 302 and username:
            _remember_device(request, response, username)
        elif username:
            count(request, "login-pair", pair, rate)
            count(request, "login-user", _digest(username), user_rate)
            count(request, "login-ip", ip, ip_rate)
        return response

    def _join(self, request, code: str):
        rate = settings.COINLAB_RATE_JOIN_FAIL
        ip = client_ip(request)
        usable = _usable_code(code)
        if not usable and over(request, "join-ip", ip, rate):
            return limited_response(request, "Too many wrong join codes from your network. Wait a few minutes "
                                    "and check the code with your instructor.", parse_rate(rate)[1])
        response = self.get_response(request)
        if not usable:
            count(request, "join-ip", ip, rate)
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
        if count(request, "submit", who, rate) > n:
            return limited_response(request, f"Too many submissions (at most {n} in {window} s). "
                                    "Wait a moment.", window)
        return self.get_response(request)


def _usable_code(code: str) -> bool:
    from django.utils import timezone

    from facilitation.models import JoinCode, normalize_join_code

    code = normalize_join_code(code)
    if not code or len(code) > 64 or "\x00" in code:
        return False
    return JoinCode.objects.filter(code=code, revoked=False, expires_at__gt=timezone.now()).exists()
