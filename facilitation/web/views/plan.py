"""The plan form of the play page (issue 16.7; facilitation/plans.py).

A seat picks the steps of its part of the phase (Tears of Tyranny's player window: refit,
resources, force management, cards) one after another on a draft, then submits them as one
decision. The draft lives in the form alone (the ``step`` fields, in order): each pick is a GET of
this page with one more step (``add``), answered with the seat's next question on a copy of the game
(``plans.plan_draft``); nothing is stored until the plan is submitted (POST). Without JavaScript
every pick is a page load; with it (htmx, ``web/js/plan.js``) only the form is redrawn, focus
moves to the next question and the change is announced.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from facilitation import eventlog, plans, selectors
from facilitation.errors import NotAllowed, ServiceError
from facilitation.rendering.regions import seat_titles
from facilitation.text import rendered

from .common import page_errors
from .play import _int, _seat_for

WHY = {
    "revealed": lambda: _("This step draws a card or rolls a die: the plan ends here. Submit it to see the "
                          "result, then plan what follows."),
    "not_asked": lambda: _("You have nothing more to decide in this phase: submit the plan."),
    "phase_over": lambda: _("The phase ends here: submit the plan."),
}


def _context(request, session, seat: str, steps: list[str], error: str = "", status_text: str = "") -> dict:
    """The form's context: the draft of ``steps``, or, when a step is refused, of the steps
    before it (with the refusal as ``error``)."""
    draft, tried = None, list(steps)
    while draft is None:
        try:
            draft = plans.plan_draft(session=session, user=request.user, seat=seat, steps=tried)
        except ServiceError as exc:
            if exc.status == 403:
                raise NotAllowed(exc.message) from None
            error = error or exc.message
            if not tried:  # no plan can be made now (not the seat's turn, not a plan phase)
                break
            step = exc.extra.get("step")
            tried = tried[:step - 1] if isinstance(step, int) and 0 < step <= len(tried) else []
    titles = seat_titles(eventlog.rules_for(session))
    draft = rendered(draft) if draft else None
    url = reverse("web:play_plan", args=[session.pk])
    return {
        "session": session, "seat": seat, "seat_info": titles.get(seat, {"title": seat, "fi": 9}),
        "draft": draft, "steps": (draft or {}).get("steps") or [], "error": error, "status_text": status_text,
        "why": WHY[draft["why"]]() if draft and draft.get("why") in WHY else "",
        "plan_url": url, "play_url": reverse("web:play", args=[session.pk]) + f"?seat={seat}",
        "submit_key": uuid.uuid4().hex,
    }


def _render(request, ctx: dict, status: int = 200):
    template = "web/play/_plan.html" if request.htmx else "web/play/plan.html"
    resp = render(request, template, ctx, status=status)
    resp["Cache-Control"] = "no-store"
    return resp


@login_required
@page_errors
@require_http_methods(["GET", "POST"])
def plan(request, session_id: int):
    session = selectors.session_get_for_user(request.user, session_id)
    if not selectors.session_seats_of_user(request.user, session):
        raise NotAllowed(_("Your team does not play a seat in this session."))
    seat = _seat_for(request, session)
    data = request.POST if request.method == "POST" else request.GET
    # the draft's steps, then the one just picked (a button of its own name: htmx would let a
    # submitter named "step" replace the form's other "step" fields)
    steps = [s for s in [*data.getlist("step"), data.get("add", "")] if s][: plans.MAX_PLAN_STEPS]
    if request.method == "GET":
        status_text = ""
        if steps:
            status_text = ngettext("%(n)s step in your plan.", "%(n)s steps in your plan.", len(steps)) % {
                "n": len(steps)}
        return _render(request, _context(request, session, seat, steps, status_text=status_text))
    # the seat the form was made for, as posted: the service refuses another team's seat (403)
    seat = data.get("seat") or seat
    try:
        out = plans.plan_submit(session=session, user=request.user, seat=seat, plan=steps,
                                seq=_int(data.get("seq")), idempotency_key=data.get("key", "")[:128],
                                rationale=data.get("rationale", ""), decision_ms=_int(data.get("decision_ms")))
    except ServiceError as exc:
        if exc.status == 403:
            raise NotAllowed(exc.message) from None
        session.refresh_from_db()
        return _render(request, _context(request, session, seat, steps, error=exc.message), status=exc.status)
    messages.success(request, ngettext("Your plan of %(n)s step was recorded as one decision.",
                                       "Your plan of %(n)s steps was recorded as one decision.",
                                       out["steps"]) % {"n": out["steps"]})
    target = reverse("web:play", args=[session.pk]) + f"?seat={seat}"
    if request.htmx:
        resp = redirect(target)
        resp.status_code = 204
        resp["HX-Redirect"] = target
        return resp
    return redirect(target)
