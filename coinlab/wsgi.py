"""WSGI entry point (``gunicorn coinlab.wsgi``; the poll pool: ``granian --interface wsgi coinlab.wsgi:application``).

Web processes run several threads (gunicorn ``--threads``) that mostly wait for PostgreSQL and
Redis, and now and then one draws a page for tens of milliseconds. A thread whose answer from
Redis has arrived waits for the interpreter lock until the drawing thread gives it up, at the
latest after the switch interval: 5 ms by default, several times the cost of a whole poll. So
web processes use 1 ms (``COINLAB_SWITCH_INTERVAL`` in seconds; measured in the load test,
docs/benchmarks.md).

Once the application is loaded, ``gc.freeze()`` moves everything it made (Django, the games'
rules, templates) out of the collector's sight: drawing a live region allocates many small
objects, and each full collection would otherwise walk all of them again (a quarter of a
region's drawing time, measured 2026-11-26).

The teams' unchanged polls are answered in front of Django (``facilitation.web.poll_front``):
one cache round trip and the view's own checks, without Django's request handling and middleware.

Before freezing, the process loads what Django would otherwise load at its first request: the
URL configuration (every view module, Django REST framework, the API schema) and the compiled
templates of the live region and the instructors' console (``coinlab.warmup``).
"""

import gc
import os
import sys

from django.core.wsgi import get_wsgi_application

from coinlab.warmup import warm

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
sys.setswitchinterval(float(os.environ.get("COINLAB_SWITCH_INTERVAL") or 0.001))


def _hide_server_header(app):
    """Answer without naming the server (issue 14 item 12: a ``Server`` header tells a visitor
    which server to look up flaws of). Under gunicorn, which has no setting for it, its
    ``Response.default_headers`` is wrapped to leave that one line out. Under granian (the
    live-region poll pool, docs/operations.md), which sends ``server: granian`` unless the
    application names a server itself, every answer names none: an empty ``Server`` header.
    (Requests granian refuses before the application, malformed ones, still carry its name; the
    poll pool is only ever reached through the reverse proxy, which drops upstream ``Server``
    headers.)"""
    if "granian" in sys.modules:
        def application_naming_no_server(environ, start_response):
            def start(status, headers, exc_info=None):
                headers.append(("Server", ""))
                return start_response(status, headers, exc_info)
            return app(environ, start)

        return application_naming_no_server
    if "gunicorn" not in sys.modules:
        return app
    from gunicorn.http import wsgi as gunicorn_wsgi

    original = gunicorn_wsgi.Response.default_headers
    if getattr(original, "coinlab_no_server", False):
        return app

    def default_headers(self):
        return [h for h in original(self) if not h.lower().startswith("server:")]

    default_headers.coinlab_no_server = True
    gunicorn_wsgi.Response.default_headers = default_headers
    return app


application = get_wsgi_application()

from facilitation.web.poll_front import PollFront  # noqa: E402 - needs the apps loaded

application = _hide_server_header(PollFront(application))
warm()
gc.freeze()
