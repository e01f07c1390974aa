"""Helpers shared by the page views: access errors, service calls, board context."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib import messages
from django.http import HttpResponseForbidden, HttpResponseNotFound
from django.template.loader import render_to_string

from facilitation import selectors
from facilitation.errors import NotAllowed, NotFound, ServiceError
from facilitation.rendering.regions import board_for, event_lines, one_snapshot, seat_titles  # noqa: F401 - for the views


def page_errors(view):
    """Turn the selectors' NotAllowed/NotFound into 403/404 pages with the message."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound as exc:
            return HttpResponseNotFound(render_to_string("web/error.html", {"message": exc.message, "code": 404},
                                                        request=request))
        except NotAllowed as exc:
            return HttpResponseForbidden(render_to_string("web/error.html", {"message": exc.message, "code": 403},
                                                          request=request))

    return wrapper


def call_service(request, fn, /, success: str | None = None, **kwargs) -> tuple[bool, Any]:
    """Call a service; a ServiceError becomes an error message for the user."""
    try:
        result = fn(**kwargs)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return False, exc
    if success:
        messages.success(request, success)
    return True, result


def user_is_instructor(user) -> bool:
    return selectors.user_can_create_courses(user)


# ---- answers from the shared cache (live polls, the console) ---------------------------------


def login_of(request) -> tuple[str, str] | None:
    """(user id, session auth hash) of the request's login session, read without touching the
    user table: a cache entry remembered for that user is valid only if it carries the same
    hash (as ``django.contrib.auth.get_user`` checks). None when not logged in."""
    from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY

    user_id, auth_hash = request.session.get(SESSION_KEY), request.session.get(HASH_SESSION_KEY)
    return (user_id, auth_hash) if user_id and auth_hash else None


def no_store(resp, tag: str):
    """A live answer: its ETag, and never stored by a cache on the way."""
    resp["ETag"] = tag
    resp["Cache-Control"] = "no-store"
    return resp


