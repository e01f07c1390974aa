"""Courses and their people: instructors, reviewers and the roster of students."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from facilitation.errors import NotAllowed, ValidationFailed
from facilitation.models import (
    ROLE_INSTRUCTOR,
    ROLE_REVIEWER,
    ROLE_STUDENT,
    ClassSession,
    Course,
    Team,
)
from facilitation.selectors import user_can_create_courses
from facilitation.services.accounts import _require_course_instructor, user_add_role
from facilitation.services.teams import team_member_add

Status = ClassSession.Status


@transaction.atomic
def course_create(*, user, title: str, description: str = "") -> Course:
    if not user_can_create_courses(user):
        raise NotAllowed("Only instructors may create courses.")
    title = (title or "").strip()
    if not title:
        raise ValidationFailed("A course needs a title.", code="title_required")
    course = Course.objects.create(title=title, description=description or "", created_by=user)
    course.instructors.add(user)
    return course


@transaction.atomic
def course_instructor_add(*, course: Course, user, instructor) -> None:
    _require_course_instructor(user, course)
    user_add_role(user=instructor, role=ROLE_INSTRUCTOR)
    course.instructors.add(instructor)


@transaction.atomic
def course_reviewer_grant(*, course: Course, user, reviewer) -> None:
    _require_course_instructor(user, course)
    user_add_role(user=reviewer, role=ROLE_REVIEWER)
    course.reviewers.add(reviewer)


MAX_ROSTER_NAMES = 300


def parse_usernames(text: str) -> list[str]:
    """User names from a pasted list: one per line, or separated by commas, semicolons or
    spaces; each once, in the order given."""
    seen: dict[str, None] = {}
    for part in (text or "").replace(",", " ").replace(";", " ").split():
        seen.setdefault(part, None)
    return list(seen)


@transaction.atomic
def course_students_add(*, course: Course, user, usernames: str, team: Team | None = None) -> list:
    """Add known students to the course roster (and to ``team``, a team of one of its sessions)
    by user name. All or nothing: if any name is unknown, nobody is added and the error names
    every unknown one. Returns the users added, in the order given."""
    _require_course_instructor(user, course)
    names = parse_usernames(usernames)
    if not names:
        raise ValidationFailed("Give at least one user name.", code="usernames_required")
    if len(names) > MAX_ROSTER_NAMES:
        raise ValidationFailed(f"At most {MAX_ROSTER_NAMES} user names at a time.", code="too_many_usernames")
    if team is not None and team.session.course_id != course.pk:
        raise ValidationFailed("That team is not in this course.", code="bad_team")
    User = get_user_model()
    found = {u.get_username(): u for u in User.objects.filter(username__in=names, is_active=True)}
    missing = [n for n in names if n not in found]
    if missing:
        # Names typed in another case still find their account when only one account matches.
        for n in list(missing):
            matches = list(User.objects.filter(username__iexact=n, is_active=True)[:2])
            if len(matches) == 1:
                found[n] = matches[0]
                missing.remove(n)
    if missing:
        raise ValidationFailed("No account has the user name " + ", ".join(missing)
                               + ". Nobody was added: correct the list, or give those students a join code.",
                               code="unknown_usernames")
    added = []
    for n in names:
        member = found[n]
        user_add_role(user=member, role=ROLE_STUDENT)
        course.students.add(member)
        if team is not None:
            team_member_add(team=team, user=user, member=member)
        added.append(member)
    return added


@transaction.atomic
def course_student_remove(*, course: Course, user, student) -> None:
    """Take a student off the roster and off the teams of the course's sessions that have not
    started (a team's members in a live or finished session are kept: the log names them)."""
    _require_course_instructor(user, course)
    course.students.remove(student)
    for team in Team.objects.filter(session__course=course, session__status=Status.SCHEDULED, members=student):
        team.members.remove(student)


@transaction.atomic
def course_reviewer_revoke(*, course: Course, user, reviewer) -> None:
    _require_course_instructor(user, course)
    course.reviewers.remove(reviewer)
