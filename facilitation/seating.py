"""Teams and seats before the start (issue #19 deliver 4): rename a team, change which team
or bot plays each seat, all at once so two teams can swap factions in one step. Moving a
student to another team is ``services.team_member_add`` (it leaves the old team).

Every change is refused once the session has started (the game's seats are then part of the
log; a live session changes a seat with ``services.seat_assign``, which the console uses), and
a refused change changes nothing.
"""

from __future__ import annotations

from django.db import transaction

from facilitation import eventlog, services
from facilitation.errors import Conflict, ValidationFailed
from facilitation.models import ClassSession, Seat, Team

TEAM_NAME_MAX = 100


def _require_scheduled(session: ClassSession) -> ClassSession:
    locked = ClassSession.objects.select_for_update().get(pk=session.pk)
    if locked.status != ClassSession.Status.SCHEDULED:
        raise Conflict("Teams and seats can only be changed before the session starts.", code="session_started")
    return locked


@transaction.atomic
def team_rename(*, team: Team, user, name: str) -> Team:
    """Give ``team`` a new name (unique in its session)."""
    services._require_course_instructor(user, team.session.course)
    _require_scheduled(team.session)
    name = services.clean_text(name, field="name", limit=TEAM_NAME_MAX).strip()
    if not name:
        raise ValidationFailed("A team needs a name.", code="malformed")
    if Team.objects.filter(session=team.session, name=name).exclude(pk=team.pk).exists():
        raise Conflict(f"There is already a team called {name!r} in this session.", code="duplicate_team")
    team.name = name
    team.save(update_fields=["name"])
    return team


@transaction.atomic
def seats_set(*, session: ClassSession, user, assignments: dict[str, str]) -> list[Seat]:
    """Who plays each seat: ``{seat key: "team:<team id>" | "bot:<kind>"}``, for every seat of the
    session at once. At least one seat must stay with a team. Returns the seats."""
    services._require_course_instructor(user, session.course)
    session = _require_scheduled(session)
    seats = {s.seat_key: s for s in Seat.objects.select_for_update().filter(session=session)}
    if set(assignments) != set(seats):
        missing = sorted(set(seats) - set(assignments)) or sorted(set(assignments) - set(seats))
        raise ValidationFailed(f"Say who plays every seat (seat {missing[0]!r}).", code="bad_seats")
    teams = {str(t.pk): t for t in Team.objects.filter(session=session)}
    rules = eventlog.rules_for(session)
    plan: dict[str, tuple[Team | None, str]] = {}
    for key, value in assignments.items():
        kind, _sep, arg = str(value).partition(":")
        if kind == "team" and arg in teams:
            plan[key] = (teams[arg], "")
        elif kind == "bot" and arg:
            try:
                services._check_bot_kind(rules, arg)
            except ValidationFailed:
                raise ValidationFailed(f"Unknown bot for seat {key!r}.", code="bad_bot") from None
            plan[key] = (None, arg)
        else:
            raise ValidationFailed(f"Seat {key!r} needs a team of this session or a bot.", code="bad_seats")
    if not any(team for team, _bot in plan.values()):
        raise ValidationFailed("At least one seat must be played by a team.", code="no_team_seat")
    for key, (team, bot) in plan.items():
        seat = seats[key]
        seat.team, seat.bot_kind = team, bot
        seat.save(update_fields=["team", "bot_kind"])
    return list(seats.values())
