"""Reads (HackSoft style): who may see what, and the data pages and the API show.

Role rules, per course:

* instructor of the course (``Course.instructors``) or staff: everything, all seats;
* student on a team: the sessions of that team, the seats of that team only;
* reviewer granted the course (``Course.reviewers``): read-only, every seat, on sessions
  that have started: they watch live (and paused) sessions and read finished ones, and
  never act. A reviewer who also plays on a team of the session is only a student there
  until it is finished (the full view would show the other side's secrets);
* anyone else: nothing (404 for things they may not know exist is not used: we
  answer 403 with a clear message for authenticated users).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

import engine
from facilitation import eventlog
from facilitation.errors import Conflict, NotAllowed, NotFound
from facilitation.models import (
    ROLE_INSTRUCTOR,
    ClassSession,
    Course,
    JoinCode,
    Seat,
    SessionEvent,
    Team,
)

# ---- roles ------------------------------------------------------------------------

# The statuses of a session a reviewer of its course may open (read-only).
REVIEWABLE = (ClassSession.Status.LIVE, ClassSession.Status.PAUSED, ClassSession.Status.FINISHED)


def user_has_group(user, name: str) -> bool:
    return bool(user and user.is_authenticated and user.groups.filter(name=name).exists())


def user_can_create_courses(user) -> bool:
    return bool(user and user.is_authenticated and (user.is_staff or user_has_group(user, ROLE_INSTRUCTOR)))


def course_is_instructor(user, course: Course) -> bool:
    if not (user and user.is_authenticated):
        return False
    return user.is_staff or course.instructors.filter(pk=user.pk).exists()


def course_is_reviewer(user, course: Course) -> bool:
    return bool(user and user.is_authenticated and course.reviewers.filter(pk=user.pk).exists())


def session_teams_of_user(user, session: ClassSession) -> QuerySet[Team]:
    if not (user and user.is_authenticated):
        return Team.objects.none()
    return Team.objects.filter(session=session, members=user)


def session_seats_of_user(user, session: ClassSession) -> list[str]:
    if not (user and user.is_authenticated):
        return []
    return list(Seat.objects.filter(session=session, team__members=user).values_list("seat_key", flat=True))


def session_roles(user, session: ClassSession) -> set[str]:
    roles: set[str] = set()
    if not (user and user.is_authenticated):
        return roles
    if course_is_instructor(user, session.course):
        roles.add("instructor")
    if session_teams_of_user(user, session).exists():
        roles.add("student")
    if session_reviewer_may_watch(user, session, playing="student" in roles):
        roles.add("reviewer")
    return roles


def session_reviewer_may_watch(user, session: ClassSession, *, playing: bool | None = None) -> bool:
    """A reviewer of the course watches a started session read-only (see the module docstring)."""
    if session.status not in REVIEWABLE or not course_is_reviewer(user, session.course):
        return False
    if playing is None:
        playing = session_teams_of_user(user, session).exists()
    return session.status == ClassSession.Status.FINISHED or not playing


def join_code_check(jc: JoinCode | None) -> None:
    """Raise the reason a join code cannot be used now (the services' rule; the join page
    also asks before a new student fills in the form)."""
    if jc is None:
        raise NotFound("That join code does not exist. Check it with your instructor.", code="bad_code")
    if jc.revoked:
        raise Conflict("That join code has been withdrawn.", code="code_revoked")
    if jc.expires_at <= timezone.now():
        raise Conflict("That join code has expired. Ask your instructor for a new one.", code="code_expired")
    if jc.max_uses and jc.uses >= jc.max_uses:
        raise Conflict("That join code has been used up.", code="code_used_up")


# ---- lists ------------------------------------------------------------------------------


def course_list_for_user(user) -> QuerySet[Course]:
    if user.is_staff:
        return Course.objects.all()
    return Course.objects.filter(
        Q(instructors=user) | Q(students=user) | Q(reviewers=user)).distinct()


def course_get_for_user(user, course_id: int) -> Course:
    course = Course.objects.filter(pk=course_id).first()
    if course is None:
        raise NotFound(f"There is no course {course_id}.")
    if not course_list_for_user(user).filter(pk=course.pk).exists():
        raise NotAllowed("You are not an instructor, student or reviewer of this course.")
    return course


def session_list_for_user(user) -> QuerySet[ClassSession]:
    """The sessions ``user`` may open, without their game state (a list never shows it, and
    the cached state is the row's largest column). Membership is a subquery on the ids rather
    than ``DISTINCT`` over the joined rows, which made PostgreSQL compare whole rows, state
    included (the slowest operation of tests/fuzz/test_api_fuzz.py)."""
    qs = ClassSession.objects.select_related("course").defer("state")
    if user.is_staff:
        return qs
    visible = ClassSession.objects.filter(
        Q(course__instructors=user)
        | Q(teams__members=user)
        | (Q(course__reviewers=user) & Q(status__in=REVIEWABLE))
    ).values("pk")
    return qs.filter(pk__in=visible)


def session_get_for_user(user, session_id: int) -> ClassSession:
    session = ClassSession.objects.select_related("course").filter(pk=session_id).first()
    if session is None:
        raise NotFound(f"There is no session {session_id}.")
    if not session_roles(user, session):
        if course_is_reviewer(user, session.course):
            raise NotAllowed("Reviewers may open a session once it has started.")
        raise NotAllowed("You are not part of this session.")
    return session


def session_ref_for_player(user, session_id: int) -> ClassSession:
    """For a decision: a member of one of the session's teams gets an unsaved instance that
    carries only the id (one query; the choice service locks and reads the row itself, so the
    game state is not loaded and decoded twice); everyone else the full role check."""
    if user and user.is_authenticated and Seat.objects.filter(session_id=session_id, team__members=user).exists():
        return ClassSession(pk=session_id)
    return session_get_for_user(user, session_id)


def session_require_instructor(user, session: ClassSession) -> None:
    if not course_is_instructor(user, session.course):
        raise NotAllowed("Only an instructor of this course may do that.")


def seat_require_readable(user, session: ClassSession, seat_key: str) -> Seat:
    seat = Seat.objects.filter(session=session, seat_key=seat_key).select_related("team").first()
    if seat is None:
        raise NotFound(f"Session {session.pk} has no seat {seat_key!r}.")
    roles = session_roles(user, session)
    if "instructor" in roles or "reviewer" in roles:
        return seat
    if seat.team_id and seat.team.members.filter(pk=user.pk).exists():
        return seat
    raise NotAllowed(f"The {seat_key} seat is not played by your team.")


# ---- game data --------------------------------------------------------------------------


def session_state(session: ClassSession):
    rules = eventlog.rules_for(session)
    eventlog.settle_head_state(session, rules)  # a row read with its state deferred: its own seq's
    if session.state is None:
        return rules, None
    return rules, eventlog.load_state(session, session.head_seq, rules)


def session_directable(session: ClassSession) -> dict[str, Any] | None:
    """The bot-run seat whose decision a facilitator may direct now (issue 15: an Andean Abyss
    Non-player waiting while the game is paused), with its legal choices; None when there is none."""
    rules, state = session_state(session)
    if state is None:
        return None
    p = rules.prompt(state)
    if p is None:
        return None
    for seat in p.seats:
        options = list(rules.directable(state, seat))
        if options:
            return {"seat": seat, "prompt": p.text_for(seat), "rule": p.rule_for(seat),
                    "choices": [c.to_dict() for c in options]}
    return None


def decision_deadline(session: ClassSession) -> dt.datetime | None:
    if not session.decision_timer_seconds or session.status != ClassSession.Status.LIVE:
        return None
    last = SessionEvent.objects.filter(session=session, seq=session.head_seq).values_list(
        "created_at", flat=True).first()
    if last is None:
        return None
    return last + dt.timedelta(seconds=session.decision_timer_seconds)


def seat_prompt(session: ClassSession, seat_key: str) -> dict[str, Any]:
    """What the seat sees now: the prompt (its own choices only), its view, the metrics."""
    return seat_prompts(session, [seat_key])[seat_key]


def seat_prompts(session: ClassSession, seat_keys, loaded=None) -> dict[str, dict[str, Any]]:
    """``seat_prompt`` of several seats of one session version: the state is loaded and decoded
    once, the prompt, the metrics and the decision deadline are asked once (none of them depends
    on the seat); each seat gets its own view and only its own choices (``Prompt.to_dict(seat)``).
    ``loaded``: ``session_state(session)`` when the caller has it already (read, never changed)."""
    rules, state = loaded if loaded is not None else session_state(session)
    base: dict[str, Any] = {
        "session": session.pk, "status": session.status, "seq": session.head_seq,
        "prompt": None, "your_turn": False, "view": None, "metrics": None, "result": session.result,
        "deadline": None, "plan": False, "require_rationale": session.require_rationale,
        "server_time": timezone.now().isoformat(),
    }
    if state is None:
        return {seat: {**base, "seat": seat} for seat in seat_keys}
    p = rules.prompt(state)
    views = {seat: rules.view(state, seat) for seat in seat_keys}
    metrics = rules.metrics(state)
    deadline = None
    plan_phase = rules.plan_phase(state)
    if p is not None:
        d = decision_deadline(session)
        deadline = d.isoformat() if d else None
    out = {}
    for seat in seat_keys:
        data = {**base, "seat": seat, "view": views[seat], "metrics": metrics}
        if p is not None:
            data["prompt"] = p.to_dict(seat)
            data["your_turn"] = seat in p.seats and session.status == ClassSession.Status.LIVE
            data["deadline"] = deadline
            # the seat may submit its whole part of this phase as one plan (facilitation.plans)
            data["plan"] = bool(data["your_turn"] and plan_phase is not None)
        out[seat] = data
    return out


def _has_facts_hidden_from(facts, seat_key: str) -> bool:
    return any(isinstance(f, dict) and f.get("visible_to") is not None and seat_key not in f["visible_to"]
               for f in facts or [])


#: What every seat may read of a secret undo: that the facilitator (or the seat) took back a move.
_PUBLIC_UNDO_KEYS = ("action", "undone_seq", "back_to")


def _redact_payload(ev_seat: str, payload: dict | None, facts, seat_key: str | None) -> dict:
    payload = dict(payload or {})
    if seat_key is None or ev_seat == seat_key or seat_key in (payload.get("visible_to") or ()):
        return payload
    if payload.get("secret") or payload.get("visible_to") is not None or _has_facts_hidden_from(facts, seat_key):
        # Another seat's secret decision (it was marked secret, or some of what it did is
        # hidden from this seat, e.g. where the Directives Base went), or an undo of one (by
        # the seat or the facilitator, issue 14 item 2): only that it happened.
        return {"secret": True, "prompt_kind": payload.get("prompt_kind", ""), "rule": payload.get("rule", ""),
                **{k: payload[k] for k in _PUBLIC_UNDO_KEYS if k in payload}}
    # The prompt a seat read may be private to it (seat_text), and a bot's reason may rest on
    # what only that seat knows (its lookahead sees its own secrets): keep the public parts.
    return {k: v for k, v in payload.items() if k not in ("prompt", "reason", "reason_message")}


def _seat_parts(ev_seat: str, payload, facts, rationale: str, seat_key: str | None) -> tuple[dict, list, str]:
    """(payload, facts, rationale) of one event as ``seat_key`` may see them (None: in full).
    The one place where an event is redacted for a seat (``event_to_dict``, ``seat_logs``)."""
    return (_redact_payload(ev_seat, payload, facts, seat_key),
            facts if seat_key is None else engine.facts_for_seat(facts or [], seat_key),
            rationale if (seat_key is None or ev_seat == seat_key) else "")


def event_to_dict(ev: SessionEvent, seat_key: str | None) -> dict:
    """One event as a seat may see it (``seat_key=None``: the full record)."""
    payload, facts, rationale = _seat_parts(ev.seat, ev.payload, ev.facts, ev.rationale, seat_key)
    d = {
        "seq": ev.seq, "parent_seq": ev.parent_seq, "kind": ev.kind, "seat": ev.seat,
        "actor": ev.actor.get_username() if ev.actor_id else None,
        "payload": payload, "facts": facts, "metrics": ev.metrics,
        "rationale": rationale,
        "decision_ms": ev.decision_ms, "created_at": ev.created_at.isoformat(),
    }
    if seat_key is None:
        d["hash"] = ev.hash
        d["prev_hash"] = ev.prev_hash
    return d


def session_events(session: ClassSession, *, seat_key: str | None, after: int = 0,
                   limit: int = 500) -> list[dict]:
    qs = (SessionEvent.objects.filter(session=session, seq__gt=after).select_related("actor")
          .order_by("seq")[:limit])
    return [event_to_dict(ev, seat_key) for ev in qs]


def seat_logs(session: ClassSession, seat_keys, *, after: int = 0, limit: int = 500) -> dict[str, list[dict]]:
    """``session_events(session, seat_key=seat, ...)`` of several seats, without the events'
    metrics (the live log does not show them): the rows are read once (as plain values, no model
    instances) and each seat gets its own copy, redacted for it by ``_seat_parts`` as
    ``event_to_dict`` does. Up to the row's ``head_seq`` only: the log of the version drawn, even
    if the session has moved on since its row was read (``eventlog.settle_head_state``)."""
    from django.contrib.auth import get_user_model

    rows = list(SessionEvent.objects.filter(session=session, seq__gt=after, seq__lte=session.head_seq)
                .order_by("seq").values_list(
        "seq", "parent_seq", "kind", "seat", f"actor__{get_user_model().USERNAME_FIELD}", "payload", "facts",
        "rationale", "decision_ms", "created_at")[:limit])
    out = {}
    for seat_key in seat_keys:
        events = []
        for seq, parent, kind, seat, actor, payload, facts, rationale, ms, created in rows:
            payload, facts, rationale = _seat_parts(seat, payload, facts, rationale, seat_key)
            events.append({"seq": seq, "parent_seq": parent, "kind": kind, "seat": seat,
                           "actor": None if actor is None else str(actor), "payload": payload, "facts": facts,
                           "rationale": rationale, "decision_ms": ms, "created_at": created.isoformat()})
        out[seat_key] = events
    return out
