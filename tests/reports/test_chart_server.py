"""The chart browser's time limit (facilitation/reports/chart_server.py): a Chromium that stops
answering must fail the call within the limit and be killed, never hang the worker's build.

The limit is the server's ``call_timeout`` (the site's 90 s). A healthy call is made with a
generous limit (a loaded machine may be slow to draw); the browser is then stopped and the limit
lowered to :data:`SILENT_LIMIT` for the call that must time out: a stopped Chromium never answers,
so what is checked (the call fails after the limit, the browser is killed and replaced) is the
same at 2 s as at 90, and the test no longer waits 8 s twice for it."""

from __future__ import annotations

import os
import signal
import time

import pytest

from facilitation.reports.chart_server import ChartServer, ChartServerError
from facilitation.reports.rendering import KALEIDO_OPTS

FIG = {"data": [{"type": "scatter", "x": [1, 2, 3], "y": [3, 1, 2]}], "layout": {"width": 300, "height": 200}}
OPTS = {"format": "svg", "width": 300, "height": 200, "scale": 1}
#: the time limit of the calls made to a stopped browser
SILENT_LIMIT = 2


def test_a_browser_that_stops_answering_fails_the_call_in_time_is_killed_and_replaced():
    server = ChartServer(KALEIDO_OPTS, call_timeout=30)
    try:
        assert b"<svg" in server.call("calc_fig", FIG, opts=OPTS)[:400]
        proc = server._browser.subprocess  # noqa: SLF001 - the browser under test
        os.killpg(proc.pid, signal.SIGSTOP)  # Chromium (and its wrapper) stop answering
        server.call_timeout = SILENT_LIMIT
        t0 = time.monotonic()
        with pytest.raises(ChartServerError, match=f"did not answer in {SILENT_LIMIT} s"):
            server.call("calc_fig", FIG, opts=OPTS)
        assert SILENT_LIMIT <= time.monotonic() - t0 < SILENT_LIMIT + 20
        assert not server.running()
        assert proc.poll() is not None, "the stopped browser was left running"
        # the next call starts a new browser
        server.call_timeout = 30
        assert b"<svg" in server.call("calc_fig", FIG, opts=OPTS)[:400]
        assert server._browser.subprocess.pid != proc.pid  # noqa: SLF001
    finally:
        server.stop()
    assert not server.running()


@pytest.fixture
def reloads(monkeypatch):
    """Every reload of a kaleido tab (kaleido's own reloads its tab after every figure)."""
    from kaleido._kaleido_tab import _tab

    seen = []
    reload = _tab._KaleidoTab.reload

    async def counted(tab):
        seen.append(tab)
        await reload(tab)

    monkeypatch.setattr(_tab._KaleidoTab, "reload", counted)
    return seen


def test_the_tab_is_reloaded_after_a_failed_figure_or_every_so_many_not_after_each(reloads, monkeypatch):
    server = ChartServer(KALEIDO_OPTS, call_timeout=30)
    try:
        for _ in range(3):
            assert b"<svg" in server.call("calc_fig", FIG, opts=OPTS)[:400]
        assert reloads == []  # kaleido's own browser would have reloaded three times
        with pytest.raises(Exception, match="non-array figure data"):
            server.call("calc_fig", {"data": "nonsense", "layout": {}}, opts=OPTS)
        assert len(reloads) == 1  # a failed figure: a fresh page for the next
        assert b"<svg" in server.call("calc_fig", FIG, opts=OPTS)[:400]
        monkeypatch.setattr("facilitation.reports.chart_server.RELOAD_EVERY", 2)
        server.call("calc_fig", FIG, opts=OPTS)
        assert len(reloads) == 2  # the second figure since the last reload
    finally:
        server.stop()


def test_many_calls_at_once_answer_in_order_and_a_silent_browser_is_killed_in_time():
    server = ChartServer(KALEIDO_OPTS, call_timeout=30)
    figs = [{**FIG, "layout": {**FIG["layout"], "title": {"text": f"figure {i}"}}} for i in range(4)]
    done = []
    try:
        out = server.call_many("calc_fig", [((f,), {"opts": OPTS}) for f in figs],
                               progress=lambda d, t: done.append((d, t)))
        assert [f"figure {i}" in o.decode() for i, o in enumerate(out)] == [True] * 4
        assert done[-1] == (4, 4) and [d for d, _ in done] == sorted(d for d, _ in done)
        proc = server._browser.subprocess  # noqa: SLF001 - the browser under test
        os.killpg(proc.pid, signal.SIGSTOP)
        server.call_timeout = SILENT_LIMIT
        t0 = time.monotonic()
        with pytest.raises(ChartServerError, match=f"did not answer in {SILENT_LIMIT} s"):
            server.call_many("calc_fig", [((f,), {"opts": OPTS}) for f in figs])
        assert SILENT_LIMIT <= time.monotonic() - t0 < SILENT_LIMIT + 20
        assert not server.running() and proc.poll() is not None
    finally:
        server.stop()
