"""Home, join links and language."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.password_validation import password_validators_help_texts
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.core.registry import scenarios as installed_scenarios
from facilitation import eventlog, selectors, services
from facilitation.errors import ServiceError
from facilitation.models import ClassSession, JoinCode, Seat, normalize_join_code
from facilitation.text import tr

from ..forms import JoinCodeForm, SignupForm
from .common import page_errors, seat_titles


def home(request):
    if not request.user.is_authenticated:
        return render(request, "web/home_anon.html", {"form": JoinCodeForm()})
    sessions = selectors.session_list_for_user(request.user).order_by("-id")[:100]
    games = {sc["key"]: tr(sc["title"]) for sc in installed_scenarios()}
    rows = []
    for s in sessions:
        roles = selectors.session_roles(request.user, s)
        my_seats = selectors.session_seats_of_user(request.user, s)
        rows.append({"session": s, "roles": roles, "seats": my_seats, "game": games.get(s.scenario_key, s.scenario_key)})
    return render(request, "web/home.html", {
        "rows": rows, "is_instructor": selectors.user_can_create_courses(request.user), "form": JoinCodeForm(),
        "is_reviewer": any("reviewer" in r["roles"] for r in rows),
    })


# The services' errors in the reader's language (the codes are the services'; any other
# error is shown as the service words it, e.g. Django's translated password rules).
JOIN_ERRORS = {
    "username_taken": gettext_lazy("That user name is taken. Choose another, or log in."),
    "bad_code": gettext_lazy("That join code does not exist. Check it with your instructor."),
    "code_revoked": gettext_lazy("That join code has been withdrawn. Ask your instructor for a new one."),
    "code_expired": gettext_lazy("That join code has expired. Ask your instructor for a new one."),
    "code_used_up": gettext_lazy("That join code has been used up. Ask your instructor for a new one."),
}
SIGNUP_FIELD = {"username_taken": "username", "bad_username": "username", "bad_password": "password"}


def join(request):
    form = JoinCodeForm(request.GET or None)
    if form.is_valid():
        return redirect("web:join_code", code=normalize_join_code(form.cleaned_data["code"]))
    return render(request, "web/join.html", {"form": form})


def _join_error(request, signup, exc: ServiceError) -> None:
    text = str(JOIN_ERRORS.get(exc.code, exc.message))
    field = SIGNUP_FIELD.get(exc.code)
    if field and signup.is_bound:
        signup.add_error(field, text)
    else:
        messages.error(request, text)


@page_errors
def join_code(request, code: str):
    """A join link. A new student signs up here (``services.student_register``, the same
    service and checks as ``POST /api/register/``); a logged-in user joins
    (``services.course_join``)."""
    code = normalize_join_code(code)
    # A code with NUL, or longer than any code, names none (PostgreSQL refuses NUL in a query).
    valid = "\x00" not in code and len(code) <= 64
    jc = JoinCode.objects.select_related("course", "team", "team__session").filter(code=code).first() if valid else None
    anonymous = not request.user.is_authenticated
    signup = SignupForm(request.POST if request.method == "POST" and anonymous else None)
    problem = None  # a withdrawn, expired or used-up code: say so before anyone fills in the form
    if jc is not None:
        try:
            selectors.join_code_check(jc)
        except ServiceError as exc:
            problem = str(JOIN_ERRORS.get(exc.code, exc.message))
    if request.method == "POST" and not problem and (not anonymous or signup.is_valid()):
        try:
            if anonymous:
                user, _jc = services.student_register(code=code, **signup.cleaned_data)
            else:
                user = request.user
                services.course_join(user=user, code=code)
        except ServiceError as exc:
            _join_error(request, signup, exc)
        else:
            if anonymous:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome! You have joined."))
            if jc and jc.team_id:
                return redirect("web:play", session_id=jc.team.session_id)
            return redirect("web:home")
    seats = []
    if jc and jc.team_id:
        titles = seat_titles(eventlog.rules_for(jc.team.session))
        seats = [titles.get(k, {"title": k})["title"]
                 for k in Seat.objects.filter(team=jc.team).values_list("seat_key", flat=True)]
    return render(request, "web/join_code.html", {"jc": jc, "code": code, "signup": signup, "seats": seats,
                                                  "password_help": password_validators_help_texts(),
                                                  "problem": problem,
                                                  "live": jc and jc.team_id and jc.team.session.status == ClassSession.Status.LIVE})


@login_required
def my_sessions(request):
    return redirect("web:home")
