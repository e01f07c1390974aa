"""The course page (issue #19): the roster of students, teams and reviewers, students added by
user name or by a pasted list, the course's sessions and join codes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.core.registry import scenarios as installed_scenarios
from facilitation import selectors, services
from facilitation.errors import NotAllowed
from facilitation.models import Course, JoinCode, Team
from facilitation.text import tr

from ..forms import RosterAddForm, UsernameForm
from .common import call_service, page_errors


def _course_for_instructor(user, course_id: int) -> Course:
    course = selectors.course_get_for_user(user, course_id)
    if not selectors.course_is_instructor(user, course):
        raise NotAllowed(_("Only the course's instructors may open its roster."))
    return course


def _team_choices(course: Course) -> list[tuple[str, str]]:
    games = {sc["key"]: tr(sc["title"]) for sc in installed_scenarios()}
    rows = [("", _("No team (course roster only)"))]
    for t in Team.objects.filter(session__course=course).select_related("session").order_by("session_id", "id"):
        rows.append((str(t.pk), f"{t.session.title} ({games.get(t.session.scenario_key, t.session.title)}): {t.name}"))
    return rows


@login_required
@page_errors
def course_list(request):
    courses = selectors.course_list_for_user(request.user).filter(instructors=request.user)
    return render(request, "web/course/list.html", {"courses": courses})


@login_required
@page_errors
def course_page(request, course_id: int):
    course = _course_for_instructor(request.user, course_id)
    teams = _team_choices(course)
    add_form = RosterAddForm(request.POST if request.POST.get("action") == "add_students" else None, teams=teams)
    reviewer_form = UsernameForm(request.POST if request.POST.get("action") == "add_reviewer" else None,
                                 prefix="reviewer")
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "add_students":
            if add_form.is_valid():
                team = None
                if add_form.cleaned_data["team"]:
                    team = Team.objects.filter(pk=add_form.cleaned_data["team"], session__course=course).first()
                ok, added = call_service(request, services.course_students_add, course=course, user=request.user,
                                         usernames=add_form.cleaned_data["usernames"], team=team)
                if ok:
                    messages.success(request, ngettext("%(n)d student added.", "%(n)d students added.", len(added))
                                     % {"n": len(added)})
                    return redirect("web:course", course_id=course.pk)
        elif action == "add_reviewer":
            if reviewer_form.is_valid():
                reviewer = get_user_model().objects.filter(username=reviewer_form.cleaned_data["username"],
                                                           is_active=True).first()
                if reviewer is None:
                    reviewer_form.add_error("username", _("No account has that user name."))
                else:
                    ok, _r = call_service(request, services.course_reviewer_grant, course=course, user=request.user,
                                          reviewer=reviewer, success=_("Reviewer added."))
                    if ok:
                        return redirect("web:course", course_id=course.pk)
        elif action in ("remove_student", "remove_reviewer"):
            uid = request.POST.get("user", "")
            member = get_user_model().objects.filter(pk=int(uid)).first() if uid.isdigit() else None
            if member is None:
                return HttpResponseBadRequest(_("Unknown user."))
            if action == "remove_student":
                call_service(request, services.course_student_remove, course=course, user=request.user,
                             student=member, success=_("Student removed from the roster."))
            else:
                call_service(request, services.course_reviewer_revoke, course=course, user=request.user,
                             reviewer=member, success=_("Reviewer removed."))
            return redirect("web:course", course_id=course.pk)
        else:
            return HttpResponseBadRequest(_("Unknown action."))
    students = list(course.students.order_by("username"))
    memberships: dict[int, list[Team]] = {}
    for t in Team.objects.filter(session__course=course).select_related("session").prefetch_related("members"):
        for m in t.members.all():
            memberships.setdefault(m.pk, []).append(t)
    roster = [{"user": u, "teams": memberships.get(u.pk, [])} for u in students]
    games = {sc["key"]: tr(sc["title"]) for sc in installed_scenarios()}
    sessions = [{"session": s, "game": games.get(s.scenario_key, s.title),
                 "teams": list(s.teams.prefetch_related("members"))}
                for s in course.sessions.order_by("-id")]
    codes = JoinCode.objects.filter(course=course).select_related("team", "team__session").order_by("-created_at")
    return render(request, "web/course/page.html", {
        "course": course, "roster": roster, "sessions": sessions, "codes": codes,
        "reviewers": course.reviewers.order_by("username"), "add_form": add_form, "reviewer_form": reviewer_form,
    })
