"""Home, join links and language."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from facilitation import selectors, services
from facilitation.errors import ServiceError
from facilitation.models import ClassSession, JoinCode, Seat

from ..forms import JoinCodeForm, SignupForm
from .common import page_errors

User = get_user_model()


def home(request):
    if not request.user.is_authenticated:
        return render(request, "web/home_anon.html", {"form": JoinCodeForm()})
    sessions = selectors.session_list_for_user(request.user).order_by("-id")[:100]
    rows = []
    for s in sessions:
        roles = selectors.session_roles(request.user, s)
        my_seats = selectors.session_seats_of_user(request.user, s)
        rows.append({"session": s, "roles": roles, "seats": my_seats})
    return render(request, "web/home.html", {
        "rows": rows, "is_instructor": selectors.user_can_create_courses(request.user), "form": JoinCodeForm(),
    })


def _student_signup(*, username: str, password: str):
    """Create a student account (a join link is how a new student arrives)."""
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(_("That user name is taken. Choose another, or log in."))
    return User.objects.create_user(username=username, password=password)


def join(request):
    form = JoinCodeForm(request.GET or None)
    if form.is_valid():
        return redirect("web:join_code", code=form.cleaned_data["code"].strip())
    return render(request, "web/join.html", {"form": form})


@page_errors
def join_code(request, code: str):
    jc = JoinCode.objects.select_related("course", "team", "team__session").filter(code=code).first()
    signup = SignupForm(request.POST if request.method == "POST" and not request.user.is_authenticated else None)
    if request.method == "POST":
        user = request.user
        try:
            with transaction.atomic():
                if not user.is_authenticated:
                    if not signup.is_valid():
                        raise ServiceError(_("Choose a user name and a password of at least 8 characters."))
                    user = _student_signup(**signup.cleaned_data)
                services.course_join(user=user, code=code)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            if not request.user.is_authenticated:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome! You have joined."))
            if jc and jc.team_id:
                return redirect("web:play", session_id=jc.team.session_id)
            return redirect("web:home")
    seats = []
    if jc and jc.team_id:
        seats = list(Seat.objects.filter(team=jc.team).values_list("seat_key", flat=True))
    return render(request, "web/join_code.html", {"jc": jc, "code": code, "signup": signup, "seats": seats,
                                                  "live": jc and jc.team_id and jc.team.session.status == ClassSession.Status.LIVE})


@login_required
def my_sessions(request):
    return redirect("web:home")
