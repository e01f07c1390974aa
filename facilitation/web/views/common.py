"""Helpers shared by the page views: access errors, service calls, board context."""

from __future__ import annotations

import contextlib
import functools
from typing import Any

from django.contrib import messages
from django.http import HttpResponseForbidden, HttpResponseNotFound
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from facilitation import selectors
from facilitation.errors import NotAllowed, NotFound, ServiceError
from facilitation.text import rendered, tr

from .. import board as board_model


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


def seat_titles(rules) -> dict[str, dict]:
    """Each seat's id, title (in the viewer's language) and faction index (its colour)."""
    return {s.id: {"id": s.id, "title": tr(s.title), "fi": i} for i, s in enumerate(rules.seats)}


def board_for(rules, view: dict | None, metrics: dict | None, choices: list[dict] | None = None) -> dict:
    """The drawable board of one seat's view, its engine texts in the viewer's language."""
    return board_model.build(rules, rendered(view or {}), metrics=metrics, choices=rendered(choices or []))


def event_lines(events: list[dict], titles: dict[str, dict]) -> list[dict]:
    """Events as plain words in the viewer's language: who did what, then the facts the reader
    may see (engine texts are messages, rendered here; ``facilitation.text``)."""
    out = []
    for ev in events:
        payload = ev.get("payload") or {}
        seat = titles.get(ev.get("seat") or "", {})
        kind = ev.get("kind")
        if kind in ("decision", "bot"):
            if payload.get("secret") and not payload.get("label"):  # redacted for this reader (its own: in full)
                head = _("%(seat)s made a secret decision.") % {"seat": seat.get("title", ev.get("seat"))}
            else:
                head = "{}: {}".format(seat.get("title", ev.get("seat") or ""),
                                       tr(payload.get("label")) or payload.get("choice", ""))
            if kind == "bot" and payload.get("timeout"):
                head += " " + _("(the decision timer expired: the bot decided)")
        elif kind == "undo":
            head = _("%(seat)s took back a decision.") % {"seat": seat.get("title", ev.get("seat") or "")}
        elif kind == "facilitator":
            action = payload.get("action", "")
            text = payload.get("text") or payload.get("reason") or ""  # typed by the facilitator
            head = _("Facilitator (%(action)s)") % {"action": action} + (f": {text}" if text else "")
        else:
            head = ""
        shown = [f for f in ev.get("facts") or [] if f.get("text")]
        out.append({
            "seq": ev["seq"], "kind": kind, "seat": ev.get("seat"), "fi": seat.get("fi", 9), "head": head,
            "facts": [tr(f["text"]) for f in shown],
            # facts that open a new phase of play (e.g. the adversary phase after the last player is done)
            "phase_breaks": (breaks := [i for i, f in enumerate(shown) if f.get("type") in ("phase", "turn")]),
            "sections": [{"type": shown[b]["type"], "title": tr(shown[b]["text"]),
                          "facts": [tr(f["text"]) for f in shown[b + 1:(breaks + [len(shown)])[k + 1]]]}
                         for k, b in enumerate(breaks)],
            "rationale": ev.get("rationale") or "", "created_at": ev.get("created_at"),
            "actor": ev.get("actor"),
        })
    return out


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


@contextlib.contextmanager
def one_snapshot():
    """A transaction that reads one committed version of everything (REPEATABLE READ on
    PostgreSQL), for drawing a session ahead of the polls: the row, its log and its teams are
    of the same commit, so the drawing lands under that version's key. Inside an outer
    transaction (tests) the isolation level cannot be set and the outer one's is kept."""
    from django.db import connection, transaction

    fresh = not connection.in_atomic_block  # the isolation level can only be set first thing
    with transaction.atomic():
        if fresh and connection.vendor == "postgresql":
            connection.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield
