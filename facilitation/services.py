"""Use cases (HackSoft style): keyword-only, typed, atomic; they check who may act.

Every write to a running game takes ``select_for_update`` on the session row,
so any number of web processes serialise on it (PostgreSQL row lock; on the
embedded SQLite the IMMEDIATE transaction mode does the same for the whole
database). Errors are :mod:`facilitation.errors` exceptions, answered by the
API as ``{"error": code, "detail": message}`` with nothing stored.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

import engine
from engine import IllegalChoice
from engine.bots.base import make_bot
from engine.core import registry
from engine.core.messages import is_msg, msg
from engine.core.rng import ScriptedValueError
from facilitation import eventlog, receipts
from facilitation.errors import Conflict, NotAllowed, NotFound, ValidationFailed
from facilitation.models import (
    ROLE_GROUPS,
    ROLE_INSTRUCTOR,
    ROLE_REVIEWER,
    ROLE_STUDENT,
    ClassSession,
    Course,
    JoinCode,
    Seat,
    SessionEvent,
    SubmissionKey,
    Team,
    TeamIntent,
    normalize_join_code,
)
from facilitation.selectors import course_is_instructor, join_code_check, user_can_create_courses
from facilitation.signals import session_finished

User = get_user_model()
Status = ClassSession.Status

#: The longest rationale, note, reason or statement of intent, on every path (page, API, undo,
#: console): issue 14 item 9.
TEXT_MAX = 5000


def clean_text(value: Any, *, field: str, limit: int = TEXT_MAX) -> str:
    """``value`` as stored text: a string without NUL (PostgreSQL refuses it in text and JSON),
    at most ``limit`` characters, stripped. Anything else is a 400 naming the field."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValidationFailed(f"{field} must be text.", code="malformed")
    if "\x00" in value:
        raise ValidationFailed(f"{field} may not contain NUL characters.", code="malformed")
    value = value.strip()
    if len(value) > limit:
        raise ValidationFailed(f"{field} is too long ({len(value)} characters; at most {limit}).",
                               code="too_long")
    return value

MAX_DECISION_MS = 7 * 24 * 3600 * 1000


# ---- people -------------------------------------------------------------------------


def user_add_role(*, user, role: str) -> None:
    if role not in ROLE_GROUPS:
        raise ValidationFailed(f"Unknown role {role!r} (known: {', '.join(ROLE_GROUPS)}).")
    group, _ = Group.objects.get_or_create(name=role)
    user.groups.add(group)


def _require_course_instructor(user, course: Course) -> None:
    if not course_is_instructor(user, course):
        raise NotAllowed("Only an instructor of this course may do that.")


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


#: How many user names one pasted list may hold (a class, with room to spare).
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


# ---- sessions, teams, seats ------------------------------------------------------------


def _load_rules(scenario_key: str):
    try:
        return engine.load(scenario_key)
    except engine.UnknownScenario:
        known = ", ".join(registry.keys())
        raise ValidationFailed(f"Unknown scenario {scenario_key!r} (known: {known}).",
                               code="unknown_scenario") from None


def _check_bot_kind(rules, kind: str) -> None:
    known = ["random", *rules.bot_kinds()]
    if kind not in known:
        raise ValidationFailed(f"Unknown bot kind {kind!r} for {rules.key} (known: {', '.join(known)}).",
                               code="unknown_bot")


#: Bounds of ``options["script"]`` (scripted dice and picks, for rulebook examples and tests).
SCRIPT_MAX_TAGS = 50
SCRIPT_MAX_VALUES = 500
#: How many moves the dry run of a scripted session plays (first choices) to use its values.
SCRIPT_DRY_RUN_MOVES = 600


def _check_script(script: Any) -> None:
    """``options["script"]``: tag -> list of whole numbers, bounded (issue 14 item 10)."""
    if not isinstance(script, dict):
        raise ValidationFailed('options.script must be an object: tag -> list of whole numbers, '
                               'e.g. {"die": [3, 5]}.', code="bad_options")
    if len(script) > SCRIPT_MAX_TAGS:
        raise ValidationFailed(f"options.script has more than {SCRIPT_MAX_TAGS} tags.", code="bad_options")
    for tag, values in script.items():
        if not isinstance(values, list) or len(values) > SCRIPT_MAX_VALUES or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10_000 for v in values):
            raise ValidationFailed(f"options.script[{str(tag)[:40]!r}] must be a list of at most "
                                   f"{SCRIPT_MAX_VALUES} whole numbers from 0 to 10000.", code="bad_options")


def _script_left(value: Any) -> bool:
    """Whether a state (as JSON) still holds scripted values in an RNG record."""
    if isinstance(value, dict):
        if "script" in value and "s" in value and "n" in value:
            return True
        return any(_script_left(v) for v in value.values())
    if isinstance(value, list):
        return any(_script_left(v) for v in value)
    return False


def _check_options(rules, seed: int, options: Any) -> None:
    """Set the game up with these options (400 ``bad_options`` if it cannot); with scripted
    values, also play first choices until every scripted value is used (or
    ``SCRIPT_DRY_RUN_MOVES``): a value the game cannot use (a die of 99) is refused here,
    not when the session starts or a team moves (issue 14 item 10)."""
    if not isinstance(options, dict):
        raise ValidationFailed("options must be an object.", code="bad_options")
    if "script" in options and options["script"] is not None:
        _check_script(options["script"])
    try:
        state = rules.setup(seed=seed, options=dict(options))
        if not options.get("script"):
            return
        for _ in range(SCRIPT_DRY_RUN_MOVES):
            if not _script_left(eventlog.jsonable(rules.serialize(state))):
                return
            p = rules.prompt(state)
            if p is None:
                return
            seat = p.seats[0]
            rules.apply_inplace(state, seat, p.choices_for(seat)[0].id)
    except IllegalChoice:
        return  # the dry run's own path: not the options' fault
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise ValidationFailed(f"The options do not suit {rules.title}: {exc}", code="bad_options") from None


def default_bot_kind(rules) -> str:
    kinds = rules.bot_kinds()
    for k in ("heuristic", "nonplayer"):
        if k in kinds:
            return k
    return "random"


@transaction.atomic
def session_create(*, course: Course, user, title: str, scenario_key: str, options: dict | None = None,
                   seed: int | None = None, scheduled_start: dt.datetime | None = None,
                   scheduled_end: dt.datetime | None = None, location: str = "",
                   decision_timer_seconds: int | None = None, require_rationale: bool = False,
                   snapshot_every: int | None = None, teams: list[str] | None = None,
                   seats: dict[str, str] | None = None) -> ClassSession:
    """Schedule a session. ``teams``: team names to create; ``seats``: seat id -> team name or
    ``"bot:KIND"``. Seats left out are filled by a bot when the session starts."""
    _require_course_instructor(user, course)
    rules = _load_rules(scenario_key)
    title = clean_text(title, field="title", limit=200) or f"{rules.title} session"
    if options is not None and not isinstance(options, dict):
        raise ValidationFailed("options must be an object.", code="bad_options")
    options = dict(options or {})
    # Issue 14 item 3: without an explicit (public) seed the game gets 128 random bits, kept
    # on the server (never in an answer to anyone).
    secret_seed = secrets.token_hex(16) if seed is None else ""
    _check_options(rules, int(secret_seed, 16) if secret_seed else seed, options)
    location = clean_text(location, field="location", limit=200)
    if scheduled_start and scheduled_end and scheduled_end <= scheduled_start:
        raise ValidationFailed("The session must end after it starts.", code="bad_schedule")
    if decision_timer_seconds is not None and decision_timer_seconds <= 0:
        raise ValidationFailed("The decision timer must be a positive number of seconds.")
    session = ClassSession.objects.create(
        course=course, title=title, scenario_key=rules.key, options=options, seed=seed, secret_seed=secret_seed,
        rules_version=eventlog.rules_fingerprint(rules.key), scheduled_start=scheduled_start, scheduled_end=scheduled_end, location=location or "",
        decision_timer_seconds=decision_timer_seconds, require_rationale=require_rationale,
        snapshot_every=snapshot_every or settings.COINLAB_SNAPSHOT_EVERY, created_by=user)
    by_name = {}
    for name in teams or []:
        by_name[name] = team_create(session=session, user=user, name=name)
    for seat_id in rules.seat_ids():
        Seat.objects.create(session=session, seat_key=seat_id)
    for seat_id, who in (seats or {}).items():
        seat = Seat.objects.filter(session=session, seat_key=seat_id).first()
        if seat is None:
            raise ValidationFailed(f"{rules.title} has no seat {seat_id!r} (seats: {', '.join(rules.seat_ids())}).",
                                   code="unknown_seat")
        if who.startswith("bot:"):
            seat_assign(seat=seat, user=user, bot_kind=who[4:])
        else:
            if who not in by_name:
                raise ValidationFailed(f"Seat {seat_id} names an unknown team {who!r}.")
            seat_assign(seat=seat, user=user, team=by_name[who])
    return session


@transaction.atomic
def session_update(*, session: ClassSession, user, **fields: Any) -> ClassSession:
    """Change schedule/timer/rationale settings (scenario, options and seed only before the start)."""
    _require_course_instructor(user, session.course)
    session = ClassSession.objects.select_for_update().get(pk=session.pk)
    allowed_always = {"title", "scheduled_start", "scheduled_end", "location", "decision_timer_seconds",
                      "require_rationale"}
    allowed_before = {"options", "seed"}
    for k, v in fields.items():
        if k in ("title", "location"):
            v = clean_text(v, field=k, limit=200)
            if k == "title" and not v:
                raise ValidationFailed("A session needs a title.", code="malformed")
        if k in allowed_always or (k in allowed_before and session.status == Status.SCHEDULED):
            setattr(session, k, v)
            if k == "seed":  # an explicit public seed replaces the secret one; none: a new secret one
                session.secret_seed = "" if v is not None else secrets.token_hex(16)
        else:
            raise ValidationFailed(f"{k} cannot be changed now.", code="not_editable")
    if session.scheduled_start and session.scheduled_end and session.scheduled_end <= session.scheduled_start:
        raise ValidationFailed("The session must end after it starts.", code="bad_schedule")
    if "options" in fields or "seed" in fields:
        _check_options(eventlog.rules_for(session), session.engine_seed(), session.options)
    session.save()
    return session


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


# ---- running the game ------------------------------------------------------------------


def _lock(session_id: int, *, head_time: bool = False) -> ClassSession:
    """The session row, locked. ``head_time``: also the head event's ``created_at`` (as
    ``head_created_at``, for ``_decision_ms``) in the same query."""
    qs = ClassSession.objects.select_for_update()
    if head_time:
        qs = qs.annotate(head_created_at=Subquery(
            SessionEvent.objects.filter(session=OuterRef("pk"), seq=OuterRef("head_seq")).values("created_at")[:1]))
    s = qs.filter(pk=session_id).first()
    if s is None:
        raise NotFound(f"There is no session {session_id}.")
    return s


def _state(session: ClassSession, rules):
    return eventlog.load_state(session, session.head_seq, rules)


# ---- a decision's reads in one round trip (issue #8) -------------------------------------
#
# A decision reads the session row under its lock, then the seats (with whether the user is
# on each seat's team), the idempotency key's earlier answer and the head event's time. On
# PostgreSQL that is two plain statements sent together: the ``SELECT ... FOR UPDATE`` of the
# row (its ``state`` kept as the jsonb text the server sends, decoded once by
# ``eventlog.load_state`` when the head state is needed), then one statement for the rest. The
# second statement starts once the first has the lock, so in READ COMMITTED it sees everything
# the transaction that held the lock committed (subqueries of the locking statement itself
# would not: they read the snapshot taken before it waited). Elsewhere (SQLite in embedded
# mode) the ORM reads the same in three queries.

_ROW_FIELDS = [f for f in ClassSession._meta.concrete_fields if f.attname != "state"]


def _lock_sql() -> str:
    table = ClassSession._meta.db_table
    cols = ", ".join(f'"{f.column}"' for f in _ROW_FIELDS)
    return f'SELECT {cols}, "state" FROM "{table}" WHERE "id" = %s FOR UPDATE'


def _checks_sql(head_seq: str) -> str:
    """Seats with ``is_member``, the key's earlier answer, the time of the event ``head_seq``
    (an SQL expression); parameters: user id, session id, session id, key, session id, then
    those of ``head_seq``."""
    members = Team.members.through._meta
    m_team = members.get_field("team").column
    m_user = members.get_field("user").column
    return (
        f'SELECT (SELECT json_agg(json_build_array(s."id", s."seat_key", s."team_id", s."bot_kind", '
        f'EXISTS(SELECT 1 FROM "{members.db_table}" m WHERE m."{m_team}" = s."team_id" AND m."{m_user}" = %s)) '
        f'ORDER BY s."id") FROM "{Seat._meta.db_table}" s WHERE s."session_id" = %s), '
        f'(SELECT json_build_array(k."user_id", k."request", k."response") FROM "{SubmissionKey._meta.db_table}" k '
        f'WHERE k."session_id" = %s AND k."key" = %s), '
        f'(SELECT e."created_at" FROM "{SessionEvent._meta.db_table}" e WHERE e."session_id" = %s AND e."seq" = {head_seq})')


def _lock_for_move(session_id: int, user, idempotency_key: str) -> tuple[ClassSession, dict[str, Seat], tuple | None]:
    """The session row locked (with ``head_created_at``), its seats as ``_session_seats`` gives
    them, and the key's earlier ``(user_id, request, response)`` (None if the key is new or empty)."""
    conn = transaction.get_connection()
    if conn.vendor != "postgresql":
        session = _lock(session_id, head_time=True)
        seats = _session_seats(user, session)
        prior = (SubmissionKey.objects.filter(session=session, key=idempotency_key)
                 .values_list("user_id", "request", "response").first() if idempotency_key else None)
        return session, seats, prior
    with conn.cursor() as cur:
        # One round trip for both statements where the driver sends the parameters merged
        # into the text (psycopg's client-side cursor, Django's default): the second statement
        # still takes its own snapshot after the first one has the lock. The head event is
        # the one whose seq the locked row names (a subquery on the row's head_seq).
        checks = _checks_sql(f'(SELECT "head_seq" FROM "{ClassSession._meta.db_table}" WHERE "id" = %s)')
        params = [user.pk, session_id, session_id, idempotency_key, session_id, session_id]
        together = eventlog.merges_parameters(cur)
        if together:
            cur.execute(f"{_lock_sql()}; {checks}", [session_id, *params])
        else:
            cur.execute(_lock_sql(), [session_id])
        row = cur.fetchone()
        if row is None:
            raise NotFound(f"There is no session {session_id}.")
        if together:
            cur.nextset()
        else:
            cur.execute(checks, params)
        seat_rows, prior, head_at = cur.fetchone()
    values = [f.from_db_value(v, None, conn) if v is not None and hasattr(f, "from_db_value") else v
              for f, v in zip(_ROW_FIELDS, row, strict=False)]
    session = ClassSession.from_db(conn.alias, [f.attname for f in _ROW_FIELDS], values)
    if row[-1] is None:
        session.state = None
    else:
        eventlog.remember_head_text(session, row[-1])
    seats = {}
    for pk, key, team_id, bot_kind, is_member in seat_rows or []:
        seat = Seat(id=pk, session_id=session_id, seat_key=key, team_id=team_id, bot_kind=bot_kind)
        seat.is_member = is_member
        seat._state.adding, seat._state.db = False, conn.alias
        seats[key] = seat
    session.head_created_at = head_at
    return session, seats, (tuple(prior) if prior and idempotency_key else None)


# What a move changes on the session row (the log's head and cached state; the end of the game
# when the bots that follow finish it): all that a decision's save writes.
_MOVE_FIELDS = ["head_seq", "head_hash", "state", "status", "result", "finished_at", "updated_at"]


def _metrics(rules, state) -> dict:
    return rules.metrics(state)


def _vignette_run_over(session: ClassSession, rules, state) -> dict | None:
    """The end of a vignette's short run (issue #18), or None: ``{"cards": N}`` N cards played
    since the start position, ``{"turns": N}`` N turns, ``{"decisions": N}`` the teams' own N
    decisions. Checked where play stops for a human decision, so a run never ends mid-step."""
    if not session.vignette_run_id:
        return None
    run = session.vignette_run
    limit = run.document.get("run") or {}
    if "cards" in limit and rules.cards_played(state) - run.start_cards >= limit["cards"]:
        return {"cards": limit["cards"]}
    if "turns" in limit:
        start = run.document.get("start_turn", 1)
        if rules.metrics(state).get("turn", start) - start >= limit["turns"]:
            return {"turns": limit["turns"]}
    if "decisions" in limit and SessionEvent.objects.filter(
            session=session, kind=SessionEvent.Kind.DECISION).count() >= limit["decisions"]:
        return {"decisions": limit["decisions"]}
    return None


def _finish_vignette(session: ClassSession, rules, state, reached: dict) -> None:
    """A vignette's run is complete: the session ends with the position's measures as its result."""
    metrics = _metrics(rules, state)
    result = {"vignette": session.vignette_run.vignette_id, "run_complete": reached, "winner": None,
              "metrics": metrics}
    session.result = result
    session.status = Status.FINISHED
    session.finished_at = timezone.now()
    eventlog.append(session, kind="system", payload={"action": "vignette_over", "result": result},
                    facts=[engine.fact("vignette_over", engine.msg("The vignette's run is complete."),
                                       cause=engine.cause_rule("vignette"))],
                    metrics=metrics, state_after=state, rules=rules)
    _announce_finished(session)


def _finish_if_over(session: ClassSession, rules, state) -> bool:
    if rules.prompt(state) is not None:
        reached = _vignette_run_over(session, rules, state)
        if reached is None:
            return False
        _finish_vignette(session, rules, state, reached)
        return True
    result = rules.result(state)
    session.result = eventlog.jsonable(result)
    session.status = Status.FINISHED
    session.finished_at = timezone.now()
    eventlog.append(session, kind="system", payload={"action": "game_over", "result": result},
                    facts=[engine.fact("game_over", msg("The game is over."))],
                    metrics=_metrics(rules, state), state_after=state, rules=rules)
    _announce_finished(session)
    receipts.publish(session, "game over")
    return True


def _announce_finished(session: ClassSession) -> None:
    """Once the end is committed, tell the listeners (the final AAR is built: issue #19)."""
    session_id = session.pk
    transaction.on_commit(lambda: session_finished.send(sender=ClassSession, session_id=session_id))


def _run_bots(session: ClassSession, rules=None, state=None, bots: dict[str, str] | None = None) -> list[int]:
    """Play every bot seat that must act now, until a human seat must act or the game ends.

    Each bot decision is logged as a ``bot`` event with the bot's reason. The bot's
    own randomness is seeded from the session seed and the seq, so it is reproducible.
    ``bots``: seat -> bot kind, if the caller has already read the seats under the lock.
    """
    if session.status != Status.LIVE:
        return []
    rules = rules or eventlog.rules_for(session)
    state = state if state is not None else _state(session, rules)
    if bots is None:
        bots = {s.seat_key: s.bot_kind for s in Seat.objects.filter(session=session) if s.bot_kind}
    appended = []
    for _ in range(settings.COINLAB_MAX_BOT_STEPS):
        p = rules.prompt(state)
        if p is None or (session.vignette_run_id and _finish_if_over(session, rules, state)):
            if p is None:
                _finish_if_over(session, rules, state)
            break
        seat = next((s for s in p.seats if s in bots), None)
        if seat is None:
            break
        bot = make_bot(rules, bots[seat], seat, seed=session.bot_seed(seat))
        decision = bot.choose(state, p)
        choice = p.find(seat, decision.choice_id)
        facts = rules.apply_inplace(state, seat, choice.id)
        ev = eventlog.append(session, kind="bot", seat=seat, payload={
            **_decision_payload(p, seat, choice), "bot": bots[seat], "reason": decision.reason,
        }, facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
        appended.append(ev.seq)
    else:
        raise Conflict("The bots did not reach a human decision.", code="bots_stuck")
    return appended


def _seat_title(rules, seat: str):
    """A seat's title (a message in migrated games) for facts written here; the id if unknown."""
    return next((s.title for s in rules.seats if s.id == seat), seat)


def _decision_payload(p, seat: str, choice) -> dict:
    return {
        "choice": choice.id, "label": choice.label, "choice_payload": choice.payload,
        "prompt": p.text_for(seat), "rule": p.rule_for(seat), "prompt_kind": p.kind_for(seat), "turn": p.turn,
        "secret": bool(p.context.get("secret") or choice.payload.get("secret")),
    }


@transaction.atomic
def session_start(*, session: ClassSession, user) -> ClassSession:
    """Set up the game from the seed, fill vacant seats with bots, and let bots play until a team must act."""
    _require_course_instructor(user, session.course)
    session = _lock(session.pk)
    if session.status != Status.SCHEDULED:
        raise Conflict(f"The session is already {session.status}.", code="already_started")
    rules = eventlog.rules_for(session)
    for seat in Seat.objects.filter(session=session, team__isnull=True, bot_kind=""):
        seat.bot_kind = default_bot_kind(rules)
        seat.save(update_fields=["bot_kind"])
    state = eventlog.initial_state(rules, session)
    session.status = Status.LIVE
    session.started_at = timezone.now()
    session.rules_version = eventlog.rules_fingerprint(rules.key)
    seats = {s.seat_key: (s.team.name if s.team_id else f"bot:{s.bot_kind}")
             for s in Seat.objects.filter(session=session).select_related("team")}
    eventlog.append(session, kind="system", actor=user,
                    payload={"action": "start", "scenario": session.scenario_key, "seats": seats},
                    # the title as a message too (it is a text of the game's catalog): every reader's language
                    facts=[engine.fact("session", msg("{game}: the session starts.",
                                                      game=rules.title if is_msg(rules.title) else msg(rules.title)))],
                    metrics=_metrics(rules, state), state_after=state, rules=rules)
    try:
        _run_bots(session, rules, state)
    except ScriptedValueError as exc:  # a session scheduled before options were dry-run (all rolled back)
        raise ValidationFailed(f"The session's scripted values do not suit {rules.title}: {exc}",
                               code="bad_options") from None
    session.save()
    receipts.publish(session, "start")
    return session


def _user_seats(user, session: ClassSession) -> set[str]:
    return set(Seat.objects.filter(session=session, team__members=user).values_list("seat_key", flat=True))


def _session_seats(user, session: ClassSession) -> dict[str, Seat]:
    """Every seat of the session in one query, each with ``is_member``: whether ``user`` is on its team."""
    members = Team.members.through.objects.filter(team_id=OuterRef("team_id"), user_id=user.pk)
    return {s.seat_key: s for s in Seat.objects.filter(session=session).annotate(is_member=Exists(members))}


def _check_seat_owner(user, session: ClassSession, seat_key: str, seats: dict[str, Seat] | None = None) -> Seat:
    if seats is not None:
        seat = seats.get(seat_key)
        if seat is None:
            raise NotFound(f"This session has no seat {seat_key!r}.", code="unknown_seat")
        if seat.bot_kind:
            raise NotAllowed(f"The {seat_key} seat is played by a bot.", code="not_your_seat")
        if not seat.team_id or not seat.is_member:
            raise NotAllowed(f"Your team does not play the {seat_key} seat.", code="not_your_seat")
        return seat
    seat = Seat.objects.filter(session=session, seat_key=seat_key).select_related("team").first()
    if seat is None:
        raise NotFound(f"This session has no seat {seat_key!r}.", code="unknown_seat")
    if seat.bot_kind:
        raise NotAllowed(f"The {seat_key} seat is played by a bot.", code="not_your_seat")
    if not seat.team_id or not seat.team.members.filter(pk=user.pk).exists():
        raise NotAllowed(f"Your team does not play the {seat_key} seat.", code="not_your_seat")
    return seat


def _require_live(session: ClassSession) -> None:
    if session.status == Status.PAUSED:
        raise Conflict("The session is paused by the facilitator.", code="session_paused")
    if session.status == Status.SCHEDULED:
        raise Conflict("The session has not started yet.", code="session_not_started")
    if session.status == Status.FINISHED:
        raise Conflict("The session is finished.", code="session_finished")


def _check_seq(session: ClassSession, seq: Any) -> None:
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise ValidationFailed("seq must be the integer seq of the prompt you answered.", code="malformed")
    if seq != session.head_seq:
        raise Conflict(f"The game has moved on (your prompt was made at seq {seq}, the log is now at "
                       f"{session.head_seq}). Reload the prompt.", code="stale_seq", current_seq=session.head_seq)


def _decision_ms(session: ClassSession, decision_ms: Any) -> int:
    """The client's measure (ms from the prompt shown to the choice), bounded by the server's clock."""
    if hasattr(session, "head_created_at"):  # read with the lock (``_lock(head_time=True)``)
        last = session.head_created_at
    else:
        last = SessionEvent.objects.filter(session=session, seq=session.head_seq).values_list(
            "created_at", flat=True).first()
    server_ms = int((timezone.now() - last).total_seconds() * 1000) if last else 0
    if decision_ms is None:
        return max(server_ms, 0)
    if isinstance(decision_ms, bool) or not isinstance(decision_ms, int) or not 0 <= decision_ms <= MAX_DECISION_MS:
        raise ValidationFailed("decision_ms must be a whole number of milliseconds (0 or more).", code="malformed")
    return min(decision_ms, max(server_ms, 0) + 2000) if last else decision_ms


# ---- simultaneous phases: a submission is not stale because another seat acted --------------
#
# In a phase where several seats act at once (Tears of Tyranny's player window and phase 4),
# every decision of one team moves the log, and every other team's prompt then carries an
# older ``seq`` until it is read again (a page polls every 1.5 s). Four teams deciding at their
# own pace would see a large share of their submissions refused as stale, although the question
# each of them answered is still exactly the one they are being asked. ``_rebased_seq`` lets
# such a submission through, and only then: every event since its seq is a decision of
# *another* seat within the same prompt turn (no undo, no facilitator action, no decision of
# this seat), and this seat's question (turn, text, rule and the full list of choices) is
# identical at that seq and now. It runs under the session row lock, for the pages and the API
# alike; everything else (seat owner, legality, idempotency key) is checked as before, and
# anything else stays stale (409 ``stale_seq``).

MAX_REBASE_BEHIND = 12  # a prompt this far behind is read again, not rebased


def _question(rules, state, seat: str) -> tuple | None:
    p = rules.prompt(state)
    if p is None or seat not in p.seats:
        return None
    d = p.to_dict(seat)
    return (p.turn, d.get("text"), d.get("rule"), tuple((c["id"], c["label"]) for c in d.get("choices") or []))


def _rebased_seq(session: ClassSession, seat: str, seq: Any) -> Any:
    """The seq to check: ``session.head_seq`` (locked) when ``seat``'s question is unchanged since
    ``seq`` and only other seats have decided in between; otherwise ``seq`` as given."""
    head = session.head_seq
    if isinstance(seq, bool) or not isinstance(seq, int) or seq >= head or head - seq > MAX_REBASE_BEHIND or seq < 0:
        return seq
    between = list(SessionEvent.objects.filter(session=session, seq__gt=seq, seq__lte=head)
                   .values_list("kind", "seat", "payload"))
    if len(between) != head - seq:
        return seq
    rules = eventlog.rules_for(session)
    then = _question(rules, eventlog.load_state(session, seq, rules), seat)
    if then is None:
        return seq
    for kind, other, payload in between:
        if kind not in ("decision", "bot") or other == seat or (payload or {}).get("turn") != then[0]:
            return seq
    now = _question(rules, eventlog.load_state(session, head, rules), seat)
    return head if now == then else seq


@dataclass
class OpenMove:
    """A move's checks passed under the session row lock (:func:`open_move`): the locked session,
    its seats, the decision's thinking time and the rules and state it applies to; or, for a
    repeated idempotency key, the first answer (``replayed``) and nothing else."""

    session: ClassSession
    seats: dict
    replayed: dict | None = None
    ms: int | None = None
    rules: Any = None
    state: Any = None


def open_move(*, session_id: int, user, seat: str, seq: Any, idempotency_key: str, request_sig: dict,
              rationale: str, decision_ms: Any) -> OpenMove:
    """The checks every submission makes first, in order, inside its transaction (a decision,
    ``choice_submit``; a plan, ``facilitation.plans.plan_submit``): the row lock and the key's
    earlier answer (the same key for another request is 409), the seat's owner, the session
    live, ``seq`` (rebased in a simultaneous phase), the rationale if required."""
    session, seats, prior = _lock_for_move(session_id, user, idempotency_key)
    _check_seat_owner(user, session, seat, seats)
    if prior is not None:
        prior_user, prior_request, prior_response = prior
        # a key recorded before the rationale was part of the request has no "rationale"
        if prior_user != user.pk or prior_request != {k: v for k, v in request_sig.items()
                                                      if k in prior_request or k != "rationale"}:
            raise Conflict("This idempotency key was already used for a different request.",
                           code="idempotency_key_reused")
        return OpenMove(session, seats, replayed={**prior_response, "replayed": True})
    _require_live(session)
    _check_seq(session, _rebased_seq(session, seat, seq))
    if session.require_rationale and not rationale:
        raise ValidationFailed("This session asks for a rationale with every decision.", code="rationale_required")
    ms = _decision_ms(session, decision_ms)
    rules = eventlog.rules_for(session)
    return OpenMove(session, seats, ms=ms, rules=rules, state=_state(session, rules))  # a replay's canonical form


def choice_submit(*, session: ClassSession, user, seat: str, choice: str, seq: int,
                  idempotency_key: str = "", rationale: str = "", decision_ms: int | None = None) -> dict:
    """A team's decision. Returns ``{"seq", "events", "status", "replayed"}``.

    Checks, in order, under the session row lock: the idempotency key (a repeat
    returns the first answer and applies nothing), the session is live, the
    user's team plays ``seat``, ``seq`` is the head the prompt was made at (else
    409 ``stale_seq``; in a simultaneous phase an older seq whose question is unchanged
    counts as the head, ``_rebased_seq``), the rationale if required, the choice is legal. Then the
    decision is logged and the bot seats that come next play.
    """
    if not isinstance(choice, str) or not choice:
        raise ValidationFailed("choice must be a choice id (a non-empty string).", code="malformed")
    if not isinstance(idempotency_key, str) or len(idempotency_key) > 128 or "\x00" in idempotency_key:
        raise ValidationFailed("idempotency_key must be a string of at most 128 characters.", code="malformed")
    if "\x00" in choice or len(choice) > 1000:
        raise ValidationFailed("choice must be a choice id.", code="malformed")
    rationale = clean_text(rationale, field="rationale")
    # The rationale is part of the request a key stands for (issue 14 item 12): the same key
    # with another rationale is a different request (409), not a repeat that drops it.
    request_sig = {"seat": seat, "choice": choice, "seq": seq,
                   "rationale": hashlib.sha256(rationale.encode()).hexdigest()}
    try:
        with transaction.atomic():
            move = open_move(session_id=session.pk, user=user, seat=seat, seq=seq, idempotency_key=idempotency_key,
                             request_sig=request_sig, rationale=rationale, decision_ms=decision_ms)
            if move.replayed is not None:
                return move.replayed
            session, seats, ms, rules, state = move.session, move.seats, move.ms, move.rules, move.state
            p = rules.prompt(state)
            try:
                if p is None:
                    raise IllegalChoice("The game is over: no more choices can be made.", code="game_over")
                c = p.find(seat, choice)  # what ``apply_inplace`` checks (on this very prompt)
                facts = rules.apply_unchecked(state, seat, c.id)
            except IllegalChoice as exc:
                raise ValidationFailed(exc.message, code=exc.code) from None
            except ScriptedValueError as exc:  # an old session's scripted value: the facilitator's to fix
                raise Conflict(f"The session's scripted values cannot be used here ({exc}); ask the "
                               "facilitator.", code="bad_script") from None
            eventlog.defer_writes(session)  # written by the flush below
            ev = eventlog.append(session, kind="decision", seat=seat, actor=user,
                                 payload=_decision_payload(p, seat, c), facts=facts,
                                 metrics=_metrics(rules, state), rationale=rationale, decision_ms=ms,
                                 state_after=state, rules=rules)
            bots = {k: v.bot_kind for k, v in seats.items() if v.bot_kind}
            appended = [ev.seq, *_run_bots(session, rules, state, bots)]
            response = {"seq": session.head_seq, "events": appended, "status": str(session.status)}
            # the move's events (and snapshot), the key's answer and the session row: one round trip
            eventlog.flush(session, *([SubmissionKey(session=session, key=idempotency_key, user=user,
                                                     request=request_sig, response=response)]
                                      if idempotency_key else []), update_fields=_MOVE_FIELDS)
            return {**response, "replayed": False}
    except IntegrityError:
        # Only reachable if two transactions raced past the row lock (not on PostgreSQL/SQLite).
        raise Conflict("A concurrent submission won; reload the prompt.", code="stale_seq") from None


def _undo_secret(target: SessionEvent) -> bool:
    """Whether some seat may not see what ``target`` chose: it was marked secret, or some of
    its facts are hidden from some seat (e.g. where the Directives Base went)."""
    return bool((target.payload or {}).get("secret")) or any(
        isinstance(f, dict) and f.get("visible_to") is not None for f in target.facts or [])


def _undo_visibility(target: SessionEvent) -> dict:
    """The payload keys that make an undo as secret as what it undoes (issue 14 item 2): only
    the seat that decided (and the full record) reads the undone choice's id and label."""
    return {"secret": True, "visible_to": [target.seat]} if _undo_secret(target) else {}


def _undo_fact(target: SessionEvent, type_: str, text: Any, public_text: Any) -> dict:
    """The undo's fact: ``text`` names the undone choice; for a secret one, only the deciding
    seat reads it and every other seat reads ``public_text`` (engine.fact_for_seat)."""
    if not _undo_secret(target):
        return engine.fact(type_, text)
    return engine.fact(type_, text, visible_to=[target.seat], public=engine.fact(type_, public_text))


def _undo_target(session: ClassSession, rules, seat: str) -> SessionEvent:
    """The seat's last decision on the current path, if undoing it stays within its own turn."""
    parents = dict(SessionEvent.objects.filter(session=session).values_list("seq", "parent_seq"))
    path = []
    cur = session.head_seq
    while cur > 0:
        path.append(cur)
        cur = parents[cur]
    # path: head back to the first event. Walk back over no-op events to the last decision.
    events = {e.seq: e for e in SessionEvent.objects.filter(session=session, seq__in=path[:200])}
    for s in path[:200]:
        e = events[s]
        if any(f.get("barrier") for f in e.facts or []):
            break
        if e.kind == "decision" and e.seat == seat:
            return e
        if e.kind in ("decision", "bot") or (e.kind == "facilitator" and e.payload.get("action") == "adjust"):
            break
        if e.kind == "system" and e.payload.get("action") in ("start", "game_over"):
            break
    raise Conflict("There is nothing of yours to undo in this turn (undo never goes back past another "
                   "seat's move or revealed cards and dice).", code="nothing_to_undo")


@transaction.atomic
def choice_undo(*, session: ClassSession, user, seat: str, seq: int) -> dict:
    """Take back the seat's last decision, within its own turn, never past revealed randomness."""
    session = _lock(session.pk)
    _check_seat_owner(user, session, seat)
    _require_live(session)
    _check_seq(session, seq)
    rules = eventlog.rules_for(session)
    state = _state(session, rules)
    p = rules.prompt(state)
    if p is None or seat not in p.seats:
        raise Conflict("You can only undo during your own turn.", code="not_your_turn")
    target = _undo_target(session, rules, seat)
    if (target.payload.get("turn") or "") != (p.turn or ""):
        raise Conflict("That decision belongs to an earlier turn and can no longer be undone.",
                       code="turn_over")
    back_state = eventlog.load_state(session, target.parent_seq, rules)
    ev = eventlog.append(session, kind="undo", seat=seat, actor=user, parent_seq=target.parent_seq,
                         payload={"undone_seq": target.seq, "back_to": target.parent_seq,
                                  "choice": target.payload.get("choice"), "label": target.payload.get("label"),
                                  **_undo_visibility(target)},
                         facts=[_undo_fact(target, "undo",
                                           msg("{seat} takes back: {choice}", seat=_seat_title(rules, seat),
                                               choice=target.payload.get("label") or ""),
                                           msg("{seat} takes back a secret decision.", seat=_seat_title(rules, seat)))],
                         metrics=_metrics(rules, back_state), state_after=back_state, rules=rules)
    session.save()
    return {"seq": session.head_seq, "events": [ev.seq], "status": session.status, "undone": target.seq}


def _facilitator_event(session: ClassSession, user, action: str, **payload) -> SessionEvent:
    rules = eventlog.rules_for(session)
    state = _state(session, rules) if session.state is not None else None
    metrics = _metrics(rules, state) if state is not None else {}
    text = payload.pop("fact_text", "")
    return eventlog.append(session, kind="facilitator", actor=user, payload={"action": action, **payload},
                           facts=[engine.fact("facilitator", text)] if text else [], metrics=metrics,
                           state_after=state, rules=rules)


@transaction.atomic
def session_pause(*, session: ClassSession, user, reason: str = "") -> ClassSession:
    _require_course_instructor(user, session.course)
    reason = clean_text(reason, field="reason")
    session = _lock(session.pk)
    if session.status != Status.LIVE:
        raise Conflict(f"Only a live session can be paused (it is {session.status}).", code="not_live")
    session.status = Status.PAUSED
    _facilitator_event(session, user, "pause", reason=reason, fact_text="The facilitator pauses the game.")
    session.save()
    receipts.publish(session, "pause")
    return session


@transaction.atomic
def session_resume(*, session: ClassSession, user) -> ClassSession:
    _require_course_instructor(user, session.course)
    session = _lock(session.pk)
    if session.status != Status.PAUSED:
        raise Conflict(f"Only a paused session can be resumed (it is {session.status}).", code="not_paused")
    session.status = Status.LIVE
    _facilitator_event(session, user, "resume", fact_text="The facilitator resumes the game.")
    _run_bots(session)
    session.save()
    receipts.publish(session, "resume")
    return session


@transaction.atomic
def session_end(*, session: ClassSession, user, reason: str = "") -> ClassSession:
    """End the session now (the game may be unfinished: ``result`` then stays as the engine says)."""
    _require_course_instructor(user, session.course)
    reason = clean_text(reason, field="reason")
    session = _lock(session.pk)
    if session.status == Status.FINISHED:
        raise Conflict("The session is already finished.", code="session_finished")
    if session.status == Status.SCHEDULED:
        raise Conflict("The session has not started.", code="session_not_started")
    rules = eventlog.rules_for(session)
    state = _state(session, rules)
    session.status = Status.FINISHED
    session.finished_at = timezone.now()
    session.result = eventlog.jsonable(rules.result(state))
    _facilitator_event(session, user, "end", reason=reason, fact_text="The facilitator ends the session.")
    session.save()
    _announce_finished(session)
    receipts.publish(session, "end")
    return session


@transaction.atomic
def facilitator_note(*, session: ClassSession, user, text: str) -> SessionEvent:
    _require_course_instructor(user, session.course)
    text = clean_text(text, field="text")
    if not text:
        raise ValidationFailed("A note needs some text.", code="text_required")
    session = _lock(session.pk)
    if session.status == Status.SCHEDULED:
        raise Conflict("Notes are logged once the session has started.", code="session_not_started")
    ev = _facilitator_event(session, user, "note", text=text)
    session.save()
    return ev


@transaction.atomic
def facilitator_override(*, session: ClassSession, user, action: str, reason: str,
                         track: str | None = None, value: Any = None) -> SessionEvent:
    """An adjudicated change to the game, logged with its reason.

    ``undo_last``: take back the last decision or bot move, whoever made it (even
    past revealed randomness: it is the facilitator's call and it is logged).
    ``adjust``: set a track to a value through ``Rules.adjust`` (replayed from the log).
    """
    _require_course_instructor(user, session.course)
    reason = clean_text(reason, field="reason")
    if not reason:
        raise ValidationFailed("An override needs a reason (it goes into the log and the AAR).",
                               code="reason_required")
    session = _lock(session.pk)
    if session.status not in (Status.LIVE, Status.PAUSED):
        raise Conflict(f"Overrides apply to a running session (it is {session.status}).", code="not_running")
    rules = eventlog.rules_for(session)
    if action == "undo_last":
        parents = dict(SessionEvent.objects.filter(session=session).values_list("seq", "parent_seq"))
        kinds = dict(SessionEvent.objects.filter(session=session).values_list("seq", "kind"))
        cur = session.head_seq
        while cur > 0 and kinds[cur] not in ("decision", "bot"):
            cur = parents[cur]
        if cur == 0:
            raise Conflict("There is no decision to undo.", code="nothing_to_undo")
        target = SessionEvent.objects.get(session=session, seq=cur)
        back_state = eventlog.load_state(session, target.parent_seq, rules)
        ev = eventlog.append(session, kind="facilitator", actor=user, parent_seq=target.parent_seq,
                             payload={"action": "undo_last", "reason": reason, "undone_seq": target.seq,
                                      "back_to": target.parent_seq, "label": target.payload.get("label", ""),
                                      **_undo_visibility(target)},
                             facts=[_undo_fact(target, "override",
                                               msg("The facilitator takes back {seat}'s '{choice}': {reason}",
                                                   seat=_seat_title(rules, target.seat),
                                                   choice=target.payload.get("label") or "", reason=reason),
                                               msg("The facilitator takes back a secret decision of {seat}.",
                                                   seat=_seat_title(rules, target.seat)))],
                             metrics=_metrics(rules, back_state), state_after=back_state, rules=rules)
    elif action == "adjust":
        if not isinstance(track, str) or not track:
            raise ValidationFailed("An adjustment names a track.", code="malformed")
        state = _state(session, rules)
        try:
            facts = eventlog.adjustment_facts(rules, state, track, value, reason)
        except IllegalChoice as exc:
            raise ValidationFailed(exc.message, code=exc.code) from None
        ev = eventlog.append(session, kind="facilitator", actor=user,
                             payload={"action": "adjust", "reason": reason, "track": track, "value": value},
                             facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
    else:
        raise ValidationFailed(f"Unknown override {action!r} (known: undo_last, adjust).", code="unknown_action")
    if session.status == Status.LIVE:
        _run_bots(session, rules)
    session.save()
    return ev


@transaction.atomic
def facilitator_direct(*, session: ClassSession, user, seat: str, choice: str, reason: str) -> SessionEvent:
    """Direct a bot-run seat (an Andean Abyss Non-player, section 8) to take ``choice``, a legal
    decision of its own, instead of its procedure's (issue 15). Logged as a ``facilitator``
    event with the reason; the log replays it through ``Rules.apply_directed``. What follows
    is again the seat's own: the bots go on when the session is live.

    A Non-player's decision waits only while the game is paused (bots act at once otherwise):
    pause, take back its move with ``undo_last`` if it already acted, direct, resume.
    """
    _require_course_instructor(user, session.course)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed("Directing a Non-player needs a reason (it goes into the log and the AAR).",
                               code="reason_required")
    if not isinstance(seat, str) or not seat or not isinstance(choice, str) or not choice:
        raise ValidationFailed("Name the seat and the choice to direct it to.", code="malformed")
    session = _lock(session.pk)
    if session.status not in (Status.LIVE, Status.PAUSED):
        raise Conflict(f"Directions apply to a running session (it is {session.status}).", code="not_running")
    rules = eventlog.rules_for(session)
    state = _state(session, rules)
    options = list(rules.directable(state, seat))
    if not options:
        raise Conflict(f"No decision of seat {seat!r} can be directed now (pause the game, and take back "
                       "its move if it already acted).", code="not_directable")
    picked = next((c for c in options if c.id == choice), None)
    if picked is None:
        raise ValidationFailed(f"'{choice}' is not a legal decision for {seat} now.", code="unknown_choice")
    p = rules.prompt(state)
    facts = rules.apply_directed(state, seat, choice, reason)
    ev = eventlog.append(session, kind="facilitator", actor=user, seat=seat,
                         payload={"action": "direct", "seat": seat, "choice": choice, "label": picked.label,
                                  "reason": reason, "prompt": p.text_for(seat) if p else "",
                                  "rule": p.rule_for(seat) if p else ""},
                         facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
    if session.status == Status.LIVE:
        _run_bots(session, rules, state)
    session.save()
    return ev


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


@transaction.atomic
def seat_timeout_decide(*, session: ClassSession, seat: str, expected_seq: int | None = None) -> list[int]:
    """The decision timer ran out: the seat's bot makes this one decision (a ``bot`` event,
    ``timeout: true``, reason "decision timer expired (N s); <the bot's reason>"), then
    any bot seats that come next play.

    Safe to call from any number of processes polling at once: under the session row
    lock it re-checks that the session is live, the deadline has passed, ``seat`` must
    act, and the log is still at ``expected_seq`` (if given). Returns the new seqs ([]
    when there was nothing to do).
    """
    session = _lock(session.pk)
    if session.status != Status.LIVE or not session.decision_timer_seconds:
        return []
    if expected_seq is not None and expected_seq != session.head_seq:
        return []
    from facilitation.selectors import decision_deadline

    deadline = decision_deadline(session)
    if deadline is None or deadline > timezone.now():
        return []
    rules = eventlog.rules_for(session)
    state = _state(session, rules)
    p = rules.prompt(state)
    if p is None or seat not in p.seats:
        return []
    kind = Seat.objects.filter(session=session, seat_key=seat).values_list("bot_kind", flat=True).first()
    kind = kind or default_bot_kind(rules)
    bot = make_bot(rules, kind, seat, seed=session.bot_seed(seat))
    decision = bot.choose(state, p)
    c = p.find(seat, decision.choice_id)
    facts = rules.apply_inplace(state, seat, c.id)
    ev = eventlog.append(session, kind="bot", seat=seat, payload={
        **_decision_payload(p, seat, c), "bot": kind, "timeout": True,
        "reason": f"decision timer expired ({session.decision_timer_seconds} s); {decision.reason}",
    }, facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
    appended = [ev.seq, *_run_bots(session, rules, state)]
    session.save()
    return appended


# ---- whole games (demo, tests) ------------------------------------------------------------


@transaction.atomic
def session_autoplay(*, session: ClassSession, user, max_events: int | None = None) -> ClassSession:
    """Instructor helper: let every seat's bot (team seats use the default bot) play on.

    Used by the demo to produce a finished bot-played session; each move is a
    ``bot`` event exactly like a live bot seat's.
    """
    _require_course_instructor(user, session.course)
    session = _lock(session.pk)
    _require_live(session)
    rules = eventlog.rules_for(session)
    state = _state(session, rules)
    seats = {s.seat_key: (s.bot_kind or default_bot_kind(rules)) for s in Seat.objects.filter(session=session)}
    n = 0
    limit = max_events or settings.COINLAB_MAX_BOT_STEPS
    while n < limit:
        p = rules.prompt(state)
        if p is None:
            _finish_if_over(session, rules, state)
            break
        seat = p.seats[0]
        bot = make_bot(rules, seats[seat], seat, seed=session.bot_seed(seat))
        decision = bot.choose(state, p)
        c = p.find(seat, decision.choice_id)
        facts = rules.apply_inplace(state, seat, c.id)
        eventlog.append(session, kind="bot", seat=seat, payload={
            **_decision_payload(p, seat, c), "bot": seats[seat], "reason": decision.reason,
        }, facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
        n += 1
    session.save()
    return session
