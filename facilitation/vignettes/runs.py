"""Vignette runs and saved vignettes: the services (issue #18 deliver 4 and 5).

A run schedules one vignette for several teams at once: each team gets its own session from
the same position, with one secret seed shared by the run (the same cards for every team),
the team in the vignette's chosen seat and bots in the others. The comparison of a run reads
the teams' decisions side by side.
"""

from __future__ import annotations

import secrets

from django.db import transaction

import engine
from facilitation import selectors, services
from facilitation.errors import NotAllowed, ValidationFailed
from facilitation.models import ClassSession, Course, SavedVignette, SessionEvent, VignetteRun
from facilitation.selectors import course_is_instructor

from . import Vignette, VignetteError, library, parse

MAX_TEAMS = 40


def _require_instructor(user, course: Course) -> None:
    if not course_is_instructor(user, course):
        raise NotAllowed("Only an instructor of this course may do that.")


def vignette_get(course: Course, vignette_id: str) -> Vignette:
    """A shipped vignette, or one saved in this course (``saved-<pk>``)."""
    if vignette_id.startswith("saved-") and vignette_id[6:].isdigit():
        saved = SavedVignette.objects.filter(course=course, pk=int(vignette_id[6:])).first()
        if saved is not None:
            return parse(saved.document)
    v = library().get(vignette_id)
    if v is None:
        raise ValidationFailed(f"There is no vignette {vignette_id!r}.", code="unknown_vignette")
    return v


def vignettes_for(course: Course) -> list[tuple[str, Vignette]]:
    """(id to schedule it by, vignette): the shipped library, then the course's saved ones."""
    out = [(v.id, v) for v in library().values()]
    for saved in SavedVignette.objects.filter(course=course):
        try:
            out.append((f"saved-{saved.pk}", parse(saved.document, check_position=False)))
        except VignetteError:
            continue
    return out


@transaction.atomic
def vignette_schedule(*, course: Course, user, vignette_id: str, seat: str, teams: list[str],
                      title: str = "", bot_kind: str = "") -> VignetteRun:
    """Schedule ``vignette_id`` for every team in ``teams`` (one session each), the team playing
    ``seat`` and bots the other seats. Returns the run."""
    _require_instructor(user, course)
    v = vignette_get(course, vignette_id)
    rules = engine.load(v.game)
    if seat not in rules.seat_ids():
        raise ValidationFailed(f"{rules.title} has no seat {seat!r}.", code="unknown_seat")
    names = [n.strip() for n in teams if n and n.strip()]
    if not names:
        raise ValidationFailed("Name at least one team.", code="teams_required")
    if len(names) > MAX_TEAMS or len(set(names)) != len(names):
        raise ValidationFailed(f"Give up to {MAX_TEAMS} different team names.", code="bad_teams")
    bot = bot_kind or services.default_bot_kind(rules)
    secret_seed = secrets.token_hex(16) if v.seed is None else ""
    seed = int(secret_seed, 16) if secret_seed else v.seed
    start = rules.setup(seed, v.setup_options())
    document = v.document()
    if "turn" in rules.metrics(start):
        document["start_turn"] = rules.metrics(start)["turn"]
    run = VignetteRun.objects.create(course=course, vignette_id=vignette_id, title=(title or v.title).strip()[:200],
                                     seat_key=seat, document=document, start_cards=rules.cards_played(start),
                                     created_by=user)
    for name in names:
        seats = {s: (name if s == seat else f"bot:{bot}") for s in rules.seat_ids()}
        session = services.session_create(course=course, user=user, title=f"{run.title}: {name}"[:200],
                                          scenario_key=v.game, options=v.setup_options(), seed=v.seed,
                                          teams=[name], seats=seats)
        session.vignette_run = run
        if secret_seed:
            session.secret_seed = secret_seed
        session.save(update_fields=["vignette_run", "secret_seed"])
        services.join_code_create(course=course, user=user, team=session.teams.get())
    return run


@transaction.atomic
def vignette_save(*, session: ClassSession, user, vignette_id: str, title: str, objective: str,
                  briefings: dict[str, str], questions: list[str], run: dict) -> SavedVignette:
    """Save the current position of ``session`` (live, paused or finished) as the start of a new
    vignette of its course, validated like a shipped one."""
    _require_instructor(user, session.course)
    rules, state = selectors.session_state(session)
    if state is None:
        raise ValidationFailed("The session has not started: there is no position to save yet.",
                               code="session_not_started")
    try:
        position = rules.position(state)
    except engine.IllegalChoice as exc:
        raise ValidationFailed(exc.message, code="position_unsupported") from None
    document = {"id": vignette_id, "game": rules.key, "title": title, "objective": objective,
                "position": position, "briefings": {k: v for k, v in briefings.items() if v and v.strip()},
                "run": run, "questions": [q for q in questions if q and q.strip()],
                "source": f"Saved from the session {session.title!r} at event {session.head_seq}."}
    try:
        parse(document)
    except VignetteError as exc:
        raise ValidationFailed(str(exc), code="bad_vignette") from None
    return SavedVignette.objects.create(course=session.course, document=document, from_session=session,
                                        from_seq=session.head_seq, created_by=user)


def run_comparison(run: VignetteRun) -> dict:
    """What each team chose at each of its decisions, with its rationale, and where its run
    ended: ``{"teams": [...], "rows": [[cell per team] per decision], "metrics": [...]}``."""
    sessions = list(run.sessions.order_by("id").prefetch_related("teams"))
    columns = []
    for s in sessions:
        events = list(SessionEvent.objects.filter(session=s, kind=SessionEvent.Kind.DECISION, seat=run.seat_key)
                      .order_by("seq").values("seq", "payload", "rationale"))
        team = s.teams.first()
        columns.append({"session": s, "team": team.name if team else s.title, "events": events,
                        "result": s.result or {}, "status": s.status})
    depth = max((len(c["events"]) for c in columns), default=0)
    rows = [[c["events"][i] if i < len(c["events"]) else None for c in columns] for i in range(depth)]
    return {"columns": columns, "rows": rows}
