"""Accounts and roles: who may act (role groups, the instructors of a course) and new users."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from facilitation.errors import Conflict, NotAllowed, ValidationFailed
from facilitation.models import (
    ROLE_GROUPS,
    Course,
)
from facilitation.selectors import course_is_instructor

User = get_user_model()


def user_add_role(*, user, role: str) -> None:
    if role not in ROLE_GROUPS:
        raise ValidationFailed(f"Unknown role {role!r} (known: {', '.join(ROLE_GROUPS)}).")
    group, _ = Group.objects.get_or_create(name=role)
    user.groups.add(group)


def _require_course_instructor(user, course: Course) -> None:
    if not course_is_instructor(user, course):
        raise NotAllowed("Only an instructor of this course may do that.")


@transaction.atomic
def user_create(*, username: str, password: str, role: str | None = None, first_name: str = "",
                last_name: str = "", email: str = ""):
    """A new account (password checked by the site's validators), optionally in a role group."""
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError as DjangoValidationError

    username = (username or "").strip()
    if not username or len(username) > 150:
        raise ValidationFailed("Choose a user name (at most 150 characters).", code="bad_username")
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(f"The user name {username!r} is taken.", code="username_taken")
    user = User(username=username, first_name=first_name or "", last_name=last_name or "", email=email or "")
    try:
        User._meta.get_field("username").run_validators(username)
    except DjangoValidationError as exc:
        raise ValidationFailed(" ".join(exc.messages), code="bad_username") from None
    try:
        validate_password(password or "", user=user)
    except DjangoValidationError as exc:
        raise ValidationFailed(" ".join(exc.messages), code="bad_password") from None
    user.set_password(password)
    user.save()
    if role:
        user_add_role(user=user, role=role)
    return user
