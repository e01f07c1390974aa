"""Vignettes (issue #18): the course's library, scheduling one for several teams, the run's
side-by-side comparison, and saving a session's position as a new vignette."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import engine
from facilitation import selectors, services
from facilitation.errors import NotAllowed, NotFound
from facilitation.models import VignetteRun
from facilitation.text import tr
from facilitation.vignettes import RUN_KINDS
from facilitation.vignettes import runs as vignette_runs

from ..templatetags.coinlab_web import humanize_key
from .common import call_service, page_errors, seat_titles

DEFAULT_TEAMS = "Team 1\nTeam 2\nTeam 3\nTeam 4"


def _course_for_instructor(user, course_id: int):
    course = selectors.course_get_for_user(user, course_id)
    if not selectors.course_is_instructor(user, course):
        raise NotAllowed(_("Only the course's instructors may schedule vignettes."))
    return course


class ScheduleVignetteForm(forms.Form):
    vignette = forms.CharField(max_length=80)
    seat = forms.CharField(max_length=64)
    teams = forms.CharField(max_length=4000, widget=forms.Textarea(attrs={"rows": 4}))
    title = forms.CharField(max_length=200, required=False)


@login_required
@page_errors
def course_vignettes(request, course_id: int):
    course = _course_for_instructor(request.user, course_id)
    if request.method == "POST":
        form = ScheduleVignetteForm(request.POST)
        if not form.is_valid():
            return HttpResponseBadRequest(_("Choose a vignette, a side and at least one team."))
        d = form.cleaned_data
        ok, run = call_service(request, vignette_runs.vignette_schedule, course=course, user=request.user,
                               vignette_id=d["vignette"], seat=d["seat"], teams=d["teams"].splitlines(),
                               title=d["title"])
        if ok:
            messages.success(request, _("Scheduled: one session for each team. Share each team's join code."))
            return redirect("web:vignette_run", run_id=run.pk)
    rows = []
    for key, v in vignette_runs.vignettes_for(course):
        rules = engine.load(v.game)
        rows.append({"key": key, "v": v, "game": tr(rules.title), "seats": list(seat_titles(rules).values()),
                     "briefed": [s for s in rules.seat_ids() if s in v.briefings], "run": next(iter(v.run.items()))})
    rows.sort(key=lambda r: r["game"])  # grouped by game on the page (a stable sort keeps the library's order)
    return render(request, "web/vignettes/library.html", {
        "course": course, "rows": rows, "default_teams": DEFAULT_TEAMS,
        "runs": VignetteRun.objects.filter(course=course)[:50]})


def _run_for(user, run_id: int) -> VignetteRun:
    run = VignetteRun.objects.select_related("course").filter(pk=run_id).first()
    if run is None:
        raise NotFound(_("There is no such vignette run."))
    if not selectors.course_is_instructor(user, run.course):
        raise NotAllowed(_("Only the course's instructors may open a vignette run."))
    return run


@login_required
@page_errors
def vignette_run(request, run_id: int):
    run = _run_for(request.user, run_id)
    if request.method == "POST":
        if request.POST.get("action") != "start_all":
            return HttpResponseBadRequest(_("Unknown action."))
        started = 0
        for s in run.sessions.filter(status="scheduled"):
            ok, _r = call_service(request, services.session_start, session=s, user=request.user)
            started += int(ok)
        messages.success(request, _("%(n)s sessions started.") % {"n": started})
        return redirect("web:vignette_run", run_id=run.pk)
    rules = engine.load(run.document["game"])
    titles = seat_titles(rules)
    comparison = vignette_runs.run_comparison(run)
    for row in comparison["rows"]:
        for cell in row:
            if cell is not None:
                cell["label"] = tr(cell["payload"].get("label") or cell["payload"].get("choice", ""))
    for c in comparison["columns"]:
        c["code"] = c["session"].teams.first().join_codes.filter(revoked=False).first() if c["session"].teams.exists() else None
    keys = sorted({k for c in comparison["columns"] for k in (c["result"].get("metrics") or {})})
    names = (rules.catalog() or {}).get("metrics") or {}
    # the measures where each run ended, named in words (never the metric's key)
    metrics = [{"label": tr(names[k]) if k in names else humanize_key(k),
                "values": [(c["result"].get("metrics") or {}).get(k) for c in comparison["columns"]]}
               for k in keys]
    return render(request, "web/vignettes/run.html", {
        "run": run, "doc": run.document, "rules": rules, "seat": titles.get(run.seat_key, {"title": run.seat_key}),
        "comparison": comparison, "metrics": metrics})


@login_required
@page_errors
@require_POST
def vignette_save(request, session_id: int):
    session = selectors.session_get_for_user(request.user, session_id)
    selectors.session_require_instructor(request.user, session)
    rules = engine.load(session.scenario_key)
    kind = request.POST.get("run_kind", "cards")
    count = request.POST.get("run_count", "1")
    if kind not in RUN_KINDS or not count.isdigit():
        return HttpResponseBadRequest(_("The run needs a kind (cards, turns or decisions) and a whole number."))
    briefings = {s: request.POST.get(f"briefing_{s}", "") for s in rules.seat_ids()}
    questions = [q for q in request.POST.get("questions", "").splitlines() if q.strip()]
    ok, saved = call_service(request, vignette_runs.vignette_save, session=session, user=request.user,
                             vignette_id=request.POST.get("vignette_id", "").strip(),
                             title=request.POST.get("title", "").strip(), objective=request.POST.get("objective", "").strip(),
                             briefings=briefings, questions=questions, run={kind: int(count)})
    if ok:
        messages.success(request, _("Saved as a vignette of this course."))
        return redirect("web:course_vignettes", course_id=session.course_id)
    return redirect("web:manage", session_id=session.pk)
