"""Issue 14 item 4: no known keys to the site. The superuser ``admin`` never has a known
password; the demo users have the README's password only when the site listens on loopback,
a new random one (printed at start) anywhere else."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from facilitation import demo
from facilitation.management.commands import serve_embedded


@pytest.fixture
def no_reports(monkeypatch):
    monkeypatch.setattr(demo, "build_demo_reports", lambda sessions: [])


def test_the_demo_has_no_known_password_by_default(db, no_reports):
    data = demo.demo_load(scenarios=("peru",))
    assert data["password"] != demo.PASSWORD and len(data["password"]) >= 12
    assert authenticate(username="admin", password=demo.PASSWORD) is None
    assert authenticate(username="instructor", password=demo.PASSWORD) is None
    assert authenticate(username="instructor", password=data["password"]) is not None
    admin = authenticate(username="admin", password=data["admin_password"])
    assert admin is not None and admin.is_superuser
    text = demo.demo_summary(data)
    assert data["password"] in text and data["admin_password"] in text and demo.PASSWORD not in text


def test_the_superuser_never_gets_the_demo_password(db, no_reports):
    """Even when the demo users get the README's password (loopback), ``admin`` does not; a
    second load changes both (a password printed once stops working)."""
    first = demo.demo_load(scenarios=("peru",), password=demo.PASSWORD)
    assert authenticate(username="alice", password=demo.PASSWORD) is not None
    assert authenticate(username="admin", password=demo.PASSWORD) is None
    second = demo.demo_load(scenarios=("peru",))
    assert authenticate(username="alice", password=demo.PASSWORD) is None
    assert authenticate(username="admin", password=first["admin_password"]) is None
    assert authenticate(username="admin", password=second["admin_password"]) is not None


@pytest.mark.parametrize(("host", "local"), [
    ("127.0.0.1", True), ("127.0.1.1", True), ("localhost", True), ("[::1]", True), ("::1", True),
    ("0.0.0.0", False), ("192.168.1.20", False), ("::", False), ("[::]", False), ("coinlab.example.org", False),
])
def test_loopback_addresses(host, local):
    assert serve_embedded.is_loopback(host) is local


@pytest.mark.parametrize(("addr", "known"), [("127.0.0.1:8000", True), ("0.0.0.0:8000", False)])
def test_serve_gives_the_readme_password_only_on_loopback(db, no_reports, monkeypatch, addr, known):
    ran = []
    real = serve_embedded.call_command

    def fake(name, *args, **kwargs):
        if name == "runserver":
            ran.append(args)
            return None
        return real(name, *args, **kwargs)

    monkeypatch.setattr(serve_embedded, "call_command", fake)
    out = io.StringIO()
    call_command("serve_embedded", "--addr", addr, "--scenario", "peru", stdout=out)
    assert ran == [(addr,)]
    assert (authenticate(username="alice", password=demo.PASSWORD) is not None) is known
    assert (demo.PASSWORD in out.getvalue()) is known
    assert authenticate(username="admin", password=demo.PASSWORD) is None
