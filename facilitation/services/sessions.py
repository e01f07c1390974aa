"""Scheduling a session (its scenario, options and scripted values checked), editing it, and
starting it; letting the bots play it on (``session_autoplay``: the demo, tests)."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engine
from engine import IllegalChoice
from engine.bots.base import make_bot
from engine.core import registry
from engine.core.messages import is_msg, msg
from engine.core.rng import ScriptedValueError
from facilitation import eventlog, receipts
from facilitation.errors import Conflict, ValidationFailed
from facilitation.models import (
    ClassSession,
    Course,
    Seat,
)
from facilitation.services.accounts import _require_course_instructor
from facilitation.services.bots import (
    _bot_reason,
    _decision_payload,
    _finish_if_over,
    _metrics,
    _run_bots,
    default_bot_kind,
)
from facilitation.services.locking import _lock, _state
from facilitation.services.moves import _require_live
from facilitation.services.teams import seat_assign, team_create
from facilitation.services.text import clean_text

Status = ClassSession.Status


def _load_rules(scenario_key: str):
    try:
        return engine.load(scenario_key)
    except engine.UnknownScenario:
        known = ", ".join(registry.keys())
        raise ValidationFailed(f"Unknown scenario {scenario_key!r} (known: {known}).",
                               code="unknown_scenario") from None


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
        # a game whose state is plain JSON data is walked as it is (serialize would copy it twice
        # per move: most of a scripted session's scheduling time, up to 600 moves)
        as_json = (lambda st: st) if rules.state_is_json else (lambda st: eventlog.jsonable(rules.serialize(st)))
        for _ in range(SCRIPT_DRY_RUN_MOVES):
            if not _script_left(as_json(state)):
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
            **_decision_payload(p, seat, c), "bot": seats[seat], **_bot_reason(decision),
        }, facts=facts, metrics=_metrics(rules, state), state_after=state, rules=rules)
        n += 1
    session.save()
    return session
