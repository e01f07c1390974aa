"""Site-wide error answers.

``server_error`` is ``handler500``: when the database is unreachable (PostgreSQL
restarting, a failover) the request answers ``503 database_unavailable`` with
``Retry-After`` instead of a 500. The request's transaction was rolled back by
PostgreSQL when its connection broke, so nothing of it was stored, unless it had
already committed: a retry with the same idempotency key then returns the first
answer (docs/operations.md, "Failures").
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse

DB_DOWN = (OperationalError, InterfaceError)


def _wants_json(request) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


def server_error(request, *args, **kwargs):
    exc = sys.exc_info()[1]
    if isinstance(exc, DB_DOWN):
        msg = "The database is not reachable right now; nothing was stored. Try again in a few seconds."
        resp = (JsonResponse({"error": "database_unavailable", "detail": msg}, status=503) if _wants_json(request)
                else HttpResponse(msg, status=503, content_type="text/plain; charset=utf-8"))
        resp["Retry-After"] = "5"
        return resp
    msg = "Something went wrong on the server; it has been logged."
    if _wants_json(request):
        return JsonResponse({"error": "server_error", "detail": msg}, status=500)
    return HttpResponse(msg, status=500, content_type="text/plain; charset=utf-8")
