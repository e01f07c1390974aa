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


#: a page is busy while htmx has a request out or is swapping or settling its answer (checked in the page,
#: so an htmx request issued by a swapped-in ``hx-trigger="load"`` is never missed between two answers)
HTMX_BUSY = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


class Traffic:
    """Every request of one browser context still in flight (Playwright's request events, so any
    resource, fetch or XHR of any page of the context), for :func:`wait_quiet`."""

    def __init__(self, ctx):
        self.inflight: set = set()
        self.last = time.monotonic()
        ctx.on("request", self._start)
        ctx.on("requestfinished", self._end)
        ctx.on("requestfailed", self._end)
        # Chromium ends a 304 as an aborted request: its headers are its end
        ctx.on("response", lambda r: self._end(r.request) if r.status == 304 else None)

    def _start(self, request) -> None:
        self.inflight.add(request)
        self.last = time.monotonic()

    def _end(self, request) -> None:
        self.inflight.discard(request)
        self.last = time.monotonic()


def wait_quiet(page, quiet_ms: float = 100, timeout_ms: float = 15_000) -> None:
    """Wait until a page just opened has fetched what it fetches on load: no request of its context in
    flight for ``quiet_ms`` and htmx idle. What ``wait_for_load_state("networkidle")`` checks, without
    its fixed 500 ms of silence after every page (the site's scripts start no request on a timer shorter
    than the play page's 1.5 s poll, and htmx's own chains are seen in the page)."""
    traffic = page.context._coinlab_traffic
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        quiet = not traffic.inflight and (time.monotonic() - traffic.last) * 1000 >= quiet_ms
        if quiet and page.evaluate(HTMX_BUSY):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{page.url}: still loading after {timeout_ms / 1000:.0f} s: "
                                 f"{[r.url for r in traffic.inflight]}")
        page.wait_for_timeout(20)


#: The poll interval of the tests whose subject is not the interval (a team's page learning of the
#: other team's move, the pause, a timer's bot move): they wait for a poll after each such move,
#: on average half of the page's 1.5 s.
FAST_POLL_MS = 250


def fast_polls(ctx, poll_ms: int = FAST_POLL_MS) -> None:
    """Make every live region (``[data-poll-url]``: the play, watch and console pages) of the
    context's pages poll every ``poll_ms``: before ``play.js`` starts its polling (its own
    DOMContentLoaded listener, added later than this one), each region's ``data-poll-ms`` is
    set to ``poll_ms``. What the page was served with is kept in
    ``window.__coinlabServedPollMs`` (a list, one per region, in page order) for the tests that
    check it. The polling code, its ETags and its answers are the site's own; only the wait
    between two polls is shorter (what the server is asked is the same, more often)."""
    ms = int(poll_ms)
    assert ms > 0, ms
    ctx.add_init_script("""document.addEventListener("DOMContentLoaded", function () {
  window.__coinlabServedPollMs = [];
  document.querySelectorAll("[data-poll-url]").forEach(function (r) {
    window.__coinlabServedPollMs.push(parseInt(r.getAttribute("data-poll-ms") || "1500", 10));
    r.setAttribute("data-poll-ms", "POLL_MS");
  });
}, true);""".replace("POLL_MS", str(ms)))


def polls_answered(page) -> int:
    """How many polls of the page's live region have been answered and handled so far (``play.js``
    counts them: a 200 drawn or dropped as older, a 304)."""
    return page.evaluate("window.__coinlabPollsAnswered || 0")


def wait_polls(page, after: int, more: int = 1) -> None:
    """Wait until ``more`` polls have been answered since the count was ``after`` (a poll's answer is
    handled before the count grows, so what it brought is on the page, or was dropped)."""
    page.wait_for_function("n => (window.__coinlabPollsAnswered || 0) >= n", arg=after + more)


def _serving() -> list[threading.Thread]:
    """The live server's request threads still running (socketserver names each after its target)."""
    return [t for t in threading.enumerate() if t.name.endswith("(process_request_thread)") and t.is_alive()]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report on the test item (``item.coinlab_failed``), for ``new_context``'s
    screenshots of a failed test's pages."""
    report = yield
    if report.when == "call" and report.failed:
        item.coinlab_failed = True
    return report


def _shoot_failed(node, contexts) -> None:
    """A failed test's open pages, as they were when it failed, under test-artifacts/e2e/failed/
    (kept by ``benchmarks/suite_runs.sh`` for a red run): what the page showed is the first thing
    to know of an intermittent failure."""
    folder = ARTIFACTS / "failed"
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in node.name)[:120]
    n = 0
    for ctx in contexts:
        for page in ctx.pages:
            n += 1
            try:
                folder.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(folder / f"{name}-{n}.png"), full_page=True, timeout=5_000)
                (folder / f"{name}-{n}.html").write_text(page.content())
            except Exception as exc:  # noqa: BLE001 - a page that cannot be shot must not hide the failure
                warnings.warn(f"no screenshot of {page.url}: {exc}", stacklevel=1)


@pytest.fixture
def new_context(browser, live_server, request):
    """A fresh browser context (its own cookies: one person) at a window size.

    At the end, once the contexts are closed, the live server's request threads are waited for
    (at most 10 s): each holds its database connection (CONN_MAX_AGE) until the browser closes
    its keep-alive socket, and closes it when it ends. The test database is flushed after the
    test and dropped after the last one, which found connections still open ("database is being
    accessed by other users", issue 20) when a thread outlived its test."""
    contexts = []

    def make(viewport=LAPTOP, locale="en-US", poll_ms: int | None = None):
        """``poll_ms``: the live regions of this context's pages poll every ``poll_ms`` instead of
        the interval the page was served with (``fast_polls``)."""
        ctx = browser.new_context(viewport=viewport, base_url=live_server.url, locale=locale)
        ctx.set_default_timeout(15_000)
        ctx._coinlab_traffic = Traffic(ctx)  # for wait_quiet
        if poll_ms is not None:
            fast_polls(ctx, poll_ms)
        contexts.append(ctx)
        return ctx

    yield make
    if getattr(request.node, "coinlab_failed", False):
        _shoot_failed(request.node, contexts)
    for ctx in contexts:
        ctx.close()
    deadline = time.monotonic() + 10
    while _serving() and time.monotonic() < deadline:
        time.sleep(0.02)
    left = _serving()
    if left:
        warnings.warn(f"{len(left)} request(s) of the live server still running 10 s after the test's browser "
                      f"contexts closed: their database connections outlive the test", stacklevel=1)
