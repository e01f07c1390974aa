"""Teams and seats of a session: who plays for which team (a logged event once the game has
started), which team or bot plays each seat, a team's statement of intent."""

from __future__ import annotations

from django.db import transaction

from facilitation import eventlog
from facilitation.errors import Conflict, NotAllowed, ValidationFailed
from facilitation.models import (
    ROLE_STUDENT,
    ClassSession,
    Seat,
    Team,
    TeamIntent,
)
from facilitation.selectors import course_is_instructor
from facilitation.services.accounts import _require_course_instructor, user_add_role
from facilitation.services.bots import _check_bot_kind, _run_bots
from facilitation.services.facilitator import _facilitator_event
from facilitation.services.locking import _lock
from facilitation.services.text import clean_text

Status = ClassSession.Status


@transaction.atomic
def team_create(*, session: ClassSession, user, name: str, color: str = "") -> Team:
    _require_course_instructor(user, session.course)
    name = (name or "").strip()
    if not name:
        raise ValidationFailed("A team needs a name.")
    if Team.objects.filter(session=session, name=name).exists():
        raise Conflict(f"There is already a team called {name!r} in this session.", code="duplicate_team")
    return Team.objects.create(session=session, name=name, color=color or "")


def _log_team_change(session: ClassSession, actor, *, action: str, member, team: Team | None,
                     left: Team | None = None, via: str = "") -> None:
    """Once a session has started, a change of who plays for which team is an event of the log
    (issue 14 item 7): ``team_join`` / ``team_move`` / ``team_leave``, with the facilitator (or
    the student joining) as actor. Before the start there is no game to change, after the end
    no game to play."""
    locked = _lock(session.pk)  # the row's status now (``session`` may be an old copy)
    if locked.status not in (Status.LIVE, Status.PAUSED):
        return
    name = member.get_username()
    text = {"team_join": f"{name} joins team {team.name if team else ''}",
            "team_move": f"{name} moves from team {left.name if left else ''} to team {team.name if team else ''}",
            "team_leave": f"{name} leaves team {left.name if left else ''}"}[action]
    _facilitator_event(locked, actor, action, member=name, team=team.name if team else "",
                       left=left.name if left else "", via=via, fact_text=text + ".")
    locked.save()


@transaction.atomic
def team_member_add(*, team: Team, user, member) -> None:
    """Put a student on a team (leaving any other team of that session); logged once the game
    has started."""
    _require_course_instructor(user, team.session.course)
    user_add_role(user=member, role=ROLE_STUDENT)
    team.session.course.students.add(member)
    left = None
    for other in Team.objects.filter(session=team.session, members=member).exclude(pk=team.pk):
        other.members.remove(member)
        left = other
    if not team.members.filter(pk=member.pk).exists():
        team.members.add(member)
        _log_team_change(team.session, user, action="team_move" if left else "team_join", member=member,
                         team=team, left=left, via="facilitator")


@transaction.atomic
def team_member_remove(*, team: Team, user, member) -> None:
    _require_course_instructor(user, team.session.course)
    if team.members.filter(pk=member.pk).exists():
        team.members.remove(member)
        _log_team_change(team.session, user, action="team_leave", member=member, team=None, left=team,
                         via="facilitator")


@transaction.atomic
def team_member_replace(*, team: Team, user, old_member, new_member) -> None:
    """Swap a student for another (absent student, re-formed teams); the log keeps who decided what."""
    _require_course_instructor(user, team.session.course)
    if not team.members.filter(pk=old_member.pk).exists():
        raise ValidationFailed(f"{old_member.get_username()} is not on team {team.name}.")
    team.members.remove(old_member)
    team_member_add(team=team, user=user, member=new_member)


@transaction.atomic
def seat_assign(*, seat: Seat, user, team: Team | None = None, bot_kind: str = "") -> Seat:
    """Give a seat to a team or a bot (exactly one). Allowed until the session is finished."""
    session = seat.session
    _require_course_instructor(user, session.course)
    if session.status == Status.FINISHED:
        raise Conflict("The session is finished.", code="session_finished")
    if bool(team) == bool(bot_kind):
        raise ValidationFailed("Give the seat either a team or a bot kind.")
    if team is not None and team.session_id != session.pk:
        raise ValidationFailed("That team belongs to another session.")
    if bot_kind:
        _check_bot_kind(eventlog.rules_for(session), bot_kind)
    seat.team = team
    seat.bot_kind = bot_kind
    seat.save(update_fields=["team", "bot_kind"])
    if bot_kind and session.status == Status.LIVE:
        locked = _lock(session.pk)
        _run_bots(locked)
        locked.save()
    return seat


@transaction.atomic
def team_intent_set(*, session: ClassSession, team: Team, user, statement: str) -> TeamIntent:
    if team.session_id != session.pk:
        raise ValidationFailed("That team is not in this session.")
    if not (team.members.filter(pk=user.pk).exists() or course_is_instructor(user, session.course)):
        raise NotAllowed("Only the team's members may state its intent.")
    statement = clean_text(statement, field="statement")
    if not statement:
        raise ValidationFailed("The statement of intent is empty.", code="text_required")
    if session.status == Status.FINISHED:
        raise Conflict("The session is finished.", code="session_finished")
    return TeamIntent.objects.create(session=session, team=team, author=user, statement=statement,
                                     seq=session.head_seq)
