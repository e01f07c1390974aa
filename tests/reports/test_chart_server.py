"""The chart browser's time limit (facilitation/reports/chart_server.py): a Chromium that stops
answering must fail the call within the limit and be killed, never hang the worker's build."""

from __future__ import annotations

import os
import signal
import time

import pytest

from facilitation.reports.chart_server import ChartServer, ChartServerError
from facilitation.reports.rendering import KALEIDO_OPTS

FIG = {"data": [{"type": "scatter", "x": [1, 2, 3], "y": [3, 1, 2]}], "layout": {"width": 300, "height": 200}}
OPTS = {"format": "svg", "width": 300, "height": 200, "scale": 1}


def test_a_browser_that_stops_answering_fails_the_call_in_time_is_killed_and_replaced():
    server = ChartServer(KALEIDO_OPTS, call_timeout=8)
    try:
        assert b"<svg" in server.call("calc_fig", FIG, opts=OPTS)[:400]
        proc = server._browser.subprocess  # noqa: SLF001 - the browser under test
        os.killpg(proc.pid, signal.SIGSTOP)  # Chromium (and its wrapper) stop answering
        t0 = time.monotonic()
        with pytest.raises(ChartServerError, match="did not answer in 8 s"):
            server.call("calc_fig", FIG, opts=OPTS)
        assert time.monotonic() - t0 < 30
        assert not server.running()
        assert proc.poll() is not None, "the stopped browser was left running"
        # the next call starts a new browser
        assert b"<svg" in server.call("calc_fig", FIG, opts=OPTS)[:400]
        assert server._browser.subprocess.pid != proc.pid  # noqa: SLF001
    finally:
        server.stop()
    assert not server.running()
