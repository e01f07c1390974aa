"""Issue 14 item 6: rate limits that slow attackers without locking out the class
(django-ratelimit counters, coinlab/security.py)."""

from __future__ import annotations

import secrets

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings

from coinlab.security import normalize_username
from facilitation import services

LOCMEM = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "sec-rate"}}
RATES = dict(CACHES=LOCMEM, COINLAB_RATE_LOGIN_FAIL="3/300", COINLAB_RATE_LOGIN_USER_FAIL="6/300",
             COINLAB_RATE_LOGIN_IP_FAIL="8/300")
PASSWORD = "right-password-734"


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch):
    import time
    import types

    from django.core.cache import caches

    # django-ratelimit counts in fixed windows whose ends are jittered per key: a test's attempts
    # took seconds, so now and then a window ended among them and its count started again (the
    # spray test once saw its ninth attempt answered 200). The limiter's clock stands still for
    # the length of a test: every attempt of a test falls in one window, as the tests assume.
    now = int(time.time())
    monkeypatch.setattr("django_ratelimit.core.time", types.SimpleNamespace(time=lambda: now))
    with override_settings(**RATES):
        caches["default"].clear()
        yield
        caches["default"].clear()


@pytest.fixture
def victim(db):
    return get_user_model().objects.create_user("victim", password=PASSWORD)


def _log_out_keeping_cookies(client: Client) -> None:
    """Drop the login session only (``Client.logout`` forgets every cookie, as a new browser)."""
    from django.conf import settings

    client.cookies.pop(settings.SESSION_COOKIE_NAME, None)


def _login(client: Client, username: str, password: str) -> int:
    return client.post("/accounts/login/", {"username": username, "password": password}).status_code


def test_usernames_are_keyed_as_django_normalises_them():
    assert normalize_username("ｖｉｃｔｉｍ") == normalize_username("victim") == normalize_username("Victim ")


def test_fullwidth_spellings_count_against_the_same_name(victim):
    attacker = Client(REMOTE_ADDR="10.0.0.66")
    spellings = ["victim", "ｖｉｃｔｉｍ", "VICTIM", "ｖｉｃtim"]
    answers = [_login(attacker, spellings[i % 4], f"guess-{i}") for i in range(5)]
    assert answers[:3] == [200, 200, 200] and answers[3:] == [429, 429], answers


def test_failures_from_elsewhere_never_lock_the_owner_out(victim):
    """Failures from many addresses (more than the per-name limit) do not stop the owner, who
    has logged in from this browser before, from logging in with the right password."""
    owner = Client(REMOTE_ADDR="10.0.0.5")
    assert _login(owner, "victim", PASSWORD) == 302
    _log_out_keeping_cookies(owner)
    for i in range(12):
        _login(Client(REMOTE_ADDR=f"10.9.0.{i}"), "victim", f"guess-{i}")
    assert _login(Client(REMOTE_ADDR="10.9.0.99"), "victim", "guess-x") == 429, "the name is slowed down"
    assert _login(owner, "victim", PASSWORD) == 302, "the owner's browser still gets in"
    # Failures from one address lock only that (name, address) pair: a first login from
    # another address is untouched by them.
    get_user_model().objects.create_user("other", password=PASSWORD)
    for i in range(3):
        _login(Client(REMOTE_ADDR="10.7.7.7"), "other", f"guess-{i}")
    assert _login(Client(REMOTE_ADDR="10.7.7.7"), "other", PASSWORD) == 429
    assert _login(Client(REMOTE_ADDR="10.8.8.8"), "other", PASSWORD) == 302


def test_a_password_spray_does_not_lock_out_a_whole_nat_address(victim):
    """A class behind one address: one student spraying wrong passwords over many names must
    not stop classmates who have logged in before; new names from that address are slowed."""
    users = [get_user_model().objects.create_user(f"student{i}", password=PASSWORD) for i in range(3)]
    nat = "192.0.2.10"
    browsers = [Client(REMOTE_ADDR=nat) for _ in users]
    for browser, user in zip(browsers, users, strict=True):
        assert _login(browser, user.username, PASSWORD) == 302
        _log_out_keeping_cookies(browser)
    sprayer = Client(REMOTE_ADDR=nat)
    for i in range(8):
        _login(sprayer, f"nobody{i}", "guess")
    assert _login(sprayer, "nobody-else", "guess") == 429, "the sprayer is slowed down"
    for browser, user in zip(browsers, users, strict=True):
        assert _login(browser, user.username, PASSWORD) == 302, "classmates behind the NAT still log in"


def test_a_forged_device_cookie_is_ignored(victim):
    attacker = Client(REMOTE_ADDR="10.0.0.66")
    attacker.cookies["coinlab_device"] = "forged"
    answers = [_login(attacker, "victim", f"guess-{i}") for i in range(4)]
    assert answers[-1] == 429


def test_wrong_join_codes_never_block_a_valid_one(peru_session):
    with override_settings(COINLAB_RATE_JOIN_FAIL="3/600"):
        code = services.join_code_create(course=peru_session.course, user=peru_session.people.instructor).code
        api = Client(REMOTE_ADDR="10.4.4.4")
        body = {"username": "newcomer", "password": "long-enough-pw-1"}
        answers = [api.post("/api/register/", {**body, "code": secrets.token_urlsafe(12)},
                            content_type="application/json").status_code for _ in range(5)]
        assert answers[:3] == [404] * 3 and answers[3:] == [429, 429], answers
        ok = api.post("/api/register/", {**body, "code": code}, content_type="application/json")
        assert ok.status_code == 201, ok.content
