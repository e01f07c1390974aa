"""A real Celery worker for the AAR integration test (run as a subprocess).

It is the project's worker (``coinlab.celery.app``, prefork pool, one kaleido
server per process) with two test-only adjustments taken from the environment:

* ``AAR_TEST_VISIBILITY_TIMEOUT``: Redis visibility timeout in seconds, and a
  restore sweep on every poll, so an unacknowledged message of a killed worker
  comes back within seconds instead of an hour (the restore lock, too, expires
  within that time);
* ``AAR_TEST_QUEUE``: the queue to consume (the test's own);
* ``AAR_TEST_SLOW_PDF``: seconds to sleep before typesetting the full PDF (the
  build's last step, after "Writing the interactive HTML"), to hold the build in
  its "running" state long enough to kill the worker. The summary PDF, typeset
  earlier while the browser draws the charts, is not delayed: a sleep there only
  lengthened the build before the step the test waits for.
"""

from __future__ import annotations

import os
import sys
import time


def main() -> None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
    import django

    django.setup()
    from coinlab.celery import app
    from facilitation.reports import rendering

    vt = os.environ.get("AAR_TEST_VISIBILITY_TIMEOUT")
    if vt:
        app.conf.broker_transport_options = {**(app.conf.broker_transport_options or {}),
                                             "visibility_timeout": int(vt), "unacked_restore_interval": 1,
                                             "unacked_restore_throttle": 1,
                                             # a worker killed while it holds the restore lock
                                             # must not block the next one for kombu's 300 s
                                             "unacked_mutex_expire": int(vt)}
    slow = float(os.environ.get("AAR_TEST_SLOW_PDF", "0") or 0)
    if slow:
        original = rendering.render_pdf

        def slow_render_pdf(*args, **kwargs):
            if not kwargs.get("summary_only"):
                time.sleep(slow)
            return original(*args, **kwargs)

        rendering.render_pdf = slow_render_pdf
    queue = os.environ.get("AAR_TEST_QUEUE", "celery")
    app.worker_main(["worker", "--pool=prefork", "--concurrency=1", "--without-gossip", "--without-mingle",
                     "--without-heartbeat", "--loglevel=INFO", "-Q", queue, "-n", f"aar-test-{os.getpid()}@%h"])


if __name__ == "__main__":
    main()
