"""One kaleido (Chromium) browser per worker process, with a time limit on every call.

kaleido's own sync server (``kaleido.start_sync_server``) waits for an answer without a time
limit (``Queue.join``): when its Chromium tab stops answering, the worker's build waited
forever (seen in a test run: a report build stuck at "Drawing charts (0/6)" for more than ten
minutes, its process idle, the server's event loop waiting on the browser). This server
runs the same ``kaleido.Kaleido`` browser on an event loop of its own thread, sends each call
with ``asyncio.run_coroutine_threadsafe`` and waits at most ``call_timeout`` seconds. A call
that does not answer in time ends the server: the browser's process group is killed, the
loop stopped, and :class:`ChartServerError` raised (the report task retries, and its next
call starts a new browser).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import signal
import sys
import threading

log = logging.getLogger(__name__)

# kaleido reloads its tab (the page, Plotly.js again) after every figure, which cost more than
# drawing most figures: about 0.1 s a figure, 21 figures a report (Andean Abyss's charts' SVG: 8
# figures 1.05-1.15 s with the reloads, 0.13-0.3 s without; docs/benchmarks.md, AAR build).
# Plotly draws each figure in a fresh element and purges it (kaleido_scopes.js: Plotly.toImage),
# so the tab is reloaded only after this many figures, or when a figure failed.
RELOAD_EVERY = 50


def _browser_class():
    """kaleido's browser, its tab reloaded every :data:`RELOAD_EVERY` figures instead of after
    each (``Kaleido._return_kaleido_tab``, kaleido 1.5: a private method of the pinned version;
    tests/reports/test_chart_server.py checks that it is still what kaleido calls)."""
    import kaleido

    class Browser(kaleido.Kaleido):
        async def _return_kaleido_tab(self, tab) -> None:
            drawn = getattr(tab, "_coinlab_drawn", 0) + 1
            if drawn >= RELOAD_EVERY or sys.exc_info()[1] is not None:  # a failed figure: a fresh page
                await tab.reload()
                drawn = 0
            tab._coinlab_drawn = drawn
            await self.tabs_ready.put(tab)

    return Browser


async def _cancel_pending() -> None:
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for t in tasks:
        t.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=3)


class ChartServerError(RuntimeError):
    """The browser did not start, or did not answer a call in time."""


class ChartServer:
    def __init__(self, options: dict, *, start_timeout: float = 60, call_timeout: float = 90):
        self.options = dict(options)
        self.start_timeout = start_timeout
        self.call_timeout = call_timeout
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._browser = None

    def running(self) -> bool:
        return self._browser is not None

    def start(self) -> None:
        with self._lock:
            if self._browser is None:
                self._start()

    def _start(self) -> None:
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="kaleido-server", daemon=True)
        thread.start()
        browser = _browser_class()(**self.options)
        self._loop, self._thread = loop, thread
        future = asyncio.run_coroutine_threadsafe(browser.__aenter__(), loop)
        try:
            future.result(timeout=self.start_timeout)
        except BaseException as exc:
            future.cancel()
            self._browser = browser
            self._end(kill=True)
            if isinstance(exc, concurrent.futures.TimeoutError):
                raise ChartServerError(f"the chart browser did not start in {self.start_timeout:g} s") from exc
            raise
        self._browser = browser

    def stop(self) -> None:
        with self._lock:
            self._end(kill=False)

    def _end(self, *, kill: bool) -> None:
        """Close the browser (or kill its process group when it no longer answers), stop the loop."""
        browser, loop, thread = self._browser, self._loop, self._thread
        self._browser = self._loop = self._thread = None
        if loop is None:
            return
        if browser is not None and not kill:
            try:
                asyncio.run_coroutine_threadsafe(browser.__aexit__(None, None, None), loop).result(timeout=15)
            except BaseException:  # noqa: BLE001 - any failure to close means: kill it
                kill = True
        if browser is not None and kill:
            proc = getattr(browser, "subprocess", None)
            if proc is not None and proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    proc.kill()
                proc.wait(timeout=10)
        try:  # what is left on the loop (the browser's watchdog, a call cut short) ends now
            asyncio.run_coroutine_threadsafe(_cancel_pending(), loop).result(timeout=5)
        except BaseException:  # noqa: BLE001 - the loop is stopped below in any case
            log.warning("the chart server's tasks did not end in 5 s")
        loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(timeout=5)
        if thread is None or not thread.is_alive():
            loop.close()

    def call(self, method: str, *args, **kwargs):
        """``await browser.<method>(*args, **kwargs)`` on the server's loop, within the time limit."""
        with self._lock:
            if self._browser is None:
                self._start()
            future = asyncio.run_coroutine_threadsafe(getattr(self._browser, method)(*args, **kwargs), self._loop)
            try:
                return future.result(timeout=self.call_timeout)
            except concurrent.futures.TimeoutError as exc:
                future.cancel()
                log.error("the chart browser did not answer in %g s: killed", self.call_timeout)
                self._end(kill=True)
                raise ChartServerError(f"the chart browser did not answer in {self.call_timeout:g} s") from exc

    def call_many(self, method: str, calls: list[tuple[tuple, dict]], progress=None) -> list:
        """``await browser.<method>(*args, **kwargs)`` for each ``(args, kwargs)`` of ``calls``: all
        sent at once (:meth:`submit_many`), the answers in their order."""
        return self.submit_many(method, calls).wait(progress)

    def submit_many(self, method: str, calls: list[tuple[tuple, dict]]) -> Batch:
        """Send ``await browser.<method>(*args, **kwargs)`` for each ``(args, kwargs)`` of ``calls``
        at once, and return at once: the browser's tabs (``n`` in the options) take them in turn
        while this thread does something else; :meth:`Batch.wait` for the answers."""
        with self._lock:
            if self._browser is None:
                self._start()
            browser = self._browser
            futures = [asyncio.run_coroutine_threadsafe(getattr(browser, method)(*args, **kwargs), self._loop)
                       for args, kwargs in calls]
        return Batch(self, browser, futures)


class Batch:
    """Calls sent to a :class:`ChartServer`'s browser at once (:meth:`ChartServer.submit_many`)."""

    def __init__(self, server: ChartServer, browser, futures: list[concurrent.futures.Future]):
        self.server, self.browser, self.futures = server, browser, futures

    def wait(self, progress=None) -> list:
        """The answers in the order of the calls; ``progress(done, total)`` in this thread as they
        come. The time limit is on the browser going silent: when none of the pending calls
        answers within the server's ``call_timeout`` seconds, the browser is killed as in
        :meth:`ChartServer.call`. The first call that failed cancels the others and raises its error."""
        futures = self.futures
        pending = set(futures)
        timeout = self.server.call_timeout
        try:
            while pending:
                done, pending = concurrent.futures.wait(pending, timeout=timeout,
                                                        return_when=concurrent.futures.FIRST_COMPLETED)
                if not done:
                    log.error("the chart browser did not answer in %g s: killed", timeout)
                    with self.server._lock:
                        if self.server._browser is self.browser:  # not already replaced
                            self.server._end(kill=True)
                    raise ChartServerError(f"the chart browser did not answer in {timeout:g} s")
                for f in done:
                    f.result()  # the first failure is raised here
                if progress:
                    progress(len(futures) - len(pending), len(futures))
        finally:
            for f in pending:
                f.cancel()
        return [f.result() for f in futures]

    def cancel(self) -> None:
        """Drop the calls not answered yet (a build that failed meanwhile)."""
        for f in self.futures:
            f.cancel()
