"""Browser tests: Playwright on Debian's Chromium (never a downloaded browser), pytest-django's live_server.

Screenshots go to ``test-artifacts/e2e/`` (laptop 1366x768 and projector 1920x1080).
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; the ORM calls made by
# the tests themselves (fixtures, checks) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args,
            "executable_path": os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-dev-shm-usage"]}


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def shoot(artifacts):
    """``shoot(page, "name")`` saves a full-page PNG under test-artifacts/e2e/."""

    def _shoot(page, name: str, full_page: bool = False) -> Path:
        path = artifacts / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return _shoot


def _serving() -> list[threading.Thread]:
    """The live server's request threads still running (socketserver names each after its target)."""
    return [t for t in threading.enumerate() if t.name.endswith("(process_request_thread)") and t.is_alive()]


@pytest.fixture
def new_context(browser, live_server):
    """A fresh browser context (its own cookies: one person) at a window size.

    At the end, once the contexts are closed, the live server's request threads are waited for
    (at most 10 s): each holds its database connection (CONN_MAX_AGE) until the browser closes
    its keep-alive socket, and closes it when it ends. The test database is flushed after the
    test and dropped after the last one, which found connections still open ("database is being
    accessed by other users", issue 20) when a thread outlived its test."""
    contexts = []

    def make(viewport=LAPTOP, locale="en-US"):
        ctx = browser.new_context(viewport=viewport, base_url=live_server.url, locale=locale)
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()
    deadline = time.monotonic() + 10
    while _serving() and time.monotonic() < deadline:
        time.sleep(0.02)
    left = _serving()
    if left:
        warnings.warn(f"{len(left)} request(s) of the live server still running 10 s after the test's browser "
                      f"contexts closed: their database connections outlive the test", stacklevel=1)
