"""Join codes: made and withdrawn by an instructor, used by a student to sign up or to join a
course (and a team)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from facilitation.errors import Conflict, NotAllowed, ValidationFailed
from facilitation.models import (
    ROLE_STUDENT,
    ClassSession,
    Course,
    JoinCode,
    Team,
    normalize_join_code,
)
from facilitation.selectors import join_code_check
from facilitation.services.accounts import _require_course_instructor, user_add_role, user_create
from facilitation.services.teams import _log_team_change

Status = ClassSession.Status


MAX_JOIN_CODE_USES = 1000


@transaction.atomic
def join_code_create(*, course: Course, user, team: Team | None = None, days: int | None = None,
                     max_uses: int | None = None) -> JoinCode:
    """A new unguessable join code for the course (and optionally one team), valid ``days`` days,
    for at most ``max_uses`` students (default ``COINLAB_JOIN_CODE_MAX_USES``)."""
    _require_course_instructor(user, course)
    if team is not None and team.session.course_id != course.pk:
        raise ValidationFailed("That team belongs to another course.")
    days = settings.COINLAB_JOIN_CODE_DAYS if days is None else days
    if not 0 < days <= 365:
        raise ValidationFailed("A join code is valid for 1 to 365 days.")
    max_uses = settings.COINLAB_JOIN_CODE_MAX_USES if max_uses is None else max_uses
    if not 0 < max_uses <= MAX_JOIN_CODE_USES:
        raise ValidationFailed(f"A join code admits 1 to {MAX_JOIN_CODE_USES} students.", code="bad_max_uses")
    return JoinCode.objects.create(course=course, team=team, created_by=user, max_uses=max_uses,
                                   expires_at=timezone.now() + dt.timedelta(days=days))


@transaction.atomic
def join_code_revoke(*, join_code: JoinCode, user) -> None:
    _require_course_instructor(user, join_code.course)
    join_code.revoked = True
    join_code.save(update_fields=["revoked"])


def _usable_join_code(code: str, *, lock: bool) -> JoinCode:
    code = normalize_join_code(code) if isinstance(code, str) else ""
    if "\x00" in code or len(code) > 64:
        code = ""  # names no code (and PostgreSQL refuses NUL in a query)
    qs = JoinCode.objects.select_related("course", "team")
    if lock:
        qs = qs.select_for_update(of=("self",))
    jc = qs.filter(code=code).first() if code else None
    join_code_check(jc)
    return jc


@transaction.atomic
def student_register(*, code: str, username: str, password: str, first_name: str = "", last_name: str = "",
                     email: str = ""):
    """A new student signs up with a join code: the account is created only if the code is usable."""
    _usable_join_code(code, lock=True)
    user = user_create(username=username, password=password, role=ROLE_STUDENT, first_name=first_name,
                       last_name=last_name, email=email)
    jc = course_join(user=user, code=code)
    return user, jc


@transaction.atomic
def course_join(*, user, code: str) -> JoinCode:
    """A student joins the course (and the code's team, leaving any other team of that session)."""
    if not user or not user.is_authenticated:
        raise NotAllowed("Log in to join a course.")
    jc = _usable_join_code(code, lock=True)
    if jc.team_id:
        session = ClassSession.objects.get(pk=jc.team.session_id)
        elsewhere = Team.objects.filter(session=session, members=user).exclude(pk=jc.team_id)
        if elsewhere.exists() and session.status != Status.SCHEDULED:
            # Issue 14 item 7: a code never moves a student to another team once the game has
            # begun (across sides, unlogged); that is the facilitator's logged decision.
            raise Conflict("You are already on a team of this session, which has started: ask the facilitator "
                           "to move you.", code="team_change_needs_facilitator")
    user_add_role(user=user, role=ROLE_STUDENT)
    jc.course.students.add(user)
    if jc.team_id:
        for other in Team.objects.filter(session=jc.team.session, members=user).exclude(pk=jc.team_id):
            other.members.remove(user)
        if not jc.team.members.filter(pk=user.pk).exists():
            jc.team.members.add(user)
            _log_team_change(jc.team.session, user, action="team_join", member=user, team=jc.team,
                             via="join code")
    jc.uses += 1
    jc.save(update_fields=["uses"])
    return jc
