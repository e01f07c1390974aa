"""The demo course (``coinlab demo`` / ``manage.py demo``). Idempotent: running it again
reuses what exists.

Creates:

* users ``instructor``, ``alice``, ``bob``, ``reviewer`` and the superuser ``admin``
  (password ``coinlab-demo`` for all);
* the course "Counter-insurgency in Peru (demo)" taught by ``instructor``, reviewed by ``reviewer``;
* "Peru: live demo", in progress: alice's team plays the first seat, bob's team the
  second, after some opening moves played by bots (logged as ``bot`` events);
* "Peru: finished demo", played to the end by bots;
* "Peru: next week", scheduled, with two empty teams and join codes.

After-action reviews: :func:`build_demo_reports` is called with the finished
sessions. It calls ``facilitation.reports.demo.build(session)`` when the AAR app
provides it (that module is the hook for the AAR engineer).
"""

from __future__ import annotations

import datetime as dt
import importlib
import logging

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import engine
from facilitation import services
from facilitation.models import ROLE_INSTRUCTOR, ROLE_REVIEWER, ClassSession, Course, JoinCode

log = logging.getLogger(__name__)
User = get_user_model()

PASSWORD = "coinlab-demo"
COURSE_TITLE = "Counter-insurgency in Peru (demo)"
USERS = [
    ("instructor", "Ines", "Instructor", ROLE_INSTRUCTOR),
    ("alice", "Alice", "Student", "student"),
    ("bob", "Bob", "Student", "student"),
    ("reviewer", "Rafael", "Reviewer", ROLE_REVIEWER),
]
OPENING_BOT_MOVES = 12


def _user(username: str, first: str, last: str, role: str | None, *, superuser: bool = False):
    u, created = User.objects.get_or_create(username=username, defaults={
        "first_name": first, "last_name": last, "email": f"{username}@coinlab.invalid"})
    if created:
        u.set_password(PASSWORD)
        if superuser:
            u.is_staff = u.is_superuser = True
        u.save()
    if role:
        services.user_add_role(user=u, role=role)
    return u


def _session(course, instructor, title: str, **kwargs) -> tuple[ClassSession, bool]:
    existing = ClassSession.objects.filter(course=course, title=title).first()
    if existing:
        return existing, False
    return services.session_create(course=course, user=instructor, title=title, **kwargs), True


def _code(course, instructor, team=None) -> JoinCode:
    jc = (JoinCode.objects.filter(course=course, team=team, revoked=False, expires_at__gt=timezone.now())
          .order_by("-expires_at").first())
    return jc or services.join_code_create(course=course, user=instructor, team=team, days=30)


def demo_load(*, scenario: str = "peru") -> dict:
    """Create (or find) the demo data; returns what was made, for printing."""
    rules = engine.load(scenario)
    seats = rules.seat_ids()
    with transaction.atomic():
        users = {name: _user(name, first, last, role) for name, first, last, role in USERS}
        _user("admin", "Site", "Admin", None, superuser=True)
        instructor = users["instructor"]
        course = Course.objects.filter(title=COURSE_TITLE, instructors=instructor).first()
        if course is None:
            course = services.course_create(user=instructor, title=COURSE_TITLE, description=(
                f"A demonstration course: {rules.title}, played by student teams with bots in empty seats."))
        services.course_reviewer_grant(course=course, user=instructor, reviewer=users["reviewer"])

    now = timezone.now().replace(second=0, microsecond=0)
    team_names = [f"{rules.seats[i].title} team" for i in range(min(2, len(seats)))]
    # 1. in progress: two teams, a few opening moves played by bots.
    live, created = _session(course, instructor, f"{rules.title}: live demo", scenario_key=scenario, seed=7,
                             scheduled_start=now - dt.timedelta(minutes=30),
                             scheduled_end=now + dt.timedelta(minutes=90), location="Room 101",
                             teams=team_names, seats=dict(zip(seats, team_names, strict=False)))
    if created:
        teams = list(live.teams.order_by("id"))
        services.team_member_add(team=teams[0], user=instructor, member=users["alice"])
        if len(teams) > 1:
            services.team_member_add(team=teams[1], user=instructor, member=users["bob"])
        services.session_start(session=live, user=instructor)
        services.session_autoplay(session=live, user=instructor, max_events=OPENING_BOT_MOVES)
        services.facilitator_note(session=live, user=instructor,
                                  text="Opening moves played by bots; the teams take over from here.")
        live.refresh_from_db()

    # 2. finished: bots in every seat, played to the end.
    finished, created = _session(course, instructor, f"{rules.title}: finished demo", scenario_key=scenario,
                                 seed=11, scheduled_start=now - dt.timedelta(days=2),
                                 scheduled_end=now - dt.timedelta(days=2) + dt.timedelta(minutes=90),
                                 location="Room 101",
                                 seats={s: f"bot:{services.default_bot_kind(rules)}" for s in seats})
    if created:
        services.session_start(session=finished, user=instructor)
        finished.refresh_from_db()
        if finished.status != ClassSession.Status.FINISHED:
            services.session_autoplay(session=finished, user=instructor)
        finished.refresh_from_db()

    # 3. scheduled next week, with join codes for its teams.
    upcoming, _ = _session(course, instructor, f"{rules.title}: next week", scenario_key=scenario,
                           scheduled_start=now + dt.timedelta(days=7),
                           scheduled_end=now + dt.timedelta(days=7, minutes=90), location="Room 101",
                           require_rationale=True, decision_timer_seconds=300,
                           teams=team_names, seats=dict(zip(seats, team_names, strict=False)))
    codes = {"course": _code(course, instructor).code}
    for team in upcoming.teams.order_by("id"):
        codes[team.name] = _code(course, instructor, team).code

    reports = build_demo_reports([finished])
    return {"course": course, "live": live, "finished": finished, "upcoming": upcoming, "codes": codes,
            "users": [u for u, *_ in USERS] + ["admin"], "password": PASSWORD, "reports": reports}


def build_demo_reports(sessions: list[ClassSession]) -> list:
    """Build the AAR of each finished demo session, if the AAR app provides
    ``facilitation.reports.demo.build(session)``; returns what it returned."""
    try:
        mod = importlib.import_module("facilitation.reports.demo")
    except ModuleNotFoundError as exc:
        if exc.name != "facilitation.reports.demo":
            raise
        return []
    out = []
    for s in sessions:
        if s.status == ClassSession.Status.FINISHED:
            out.append(mod.build(s))
    return out


def demo_summary(data: dict, base_url: str = "http://127.0.0.1:8000") -> str:
    live, finished, upcoming = data["live"], data["finished"], data["upcoming"]
    lines = [
        f"Demo course: {data['course'].title}",
        f"  session {live.pk}: {live.title} [{live.status}, {live.head_seq} events]",
        f"  session {finished.pk}: {finished.title} [{finished.status}, {finished.head_seq} events]",
        f"  session {upcoming.pk}: {upcoming.title} [{upcoming.status}]",
        "Logins (password for all: coinlab-demo):",
        "  instructor  instructor of the demo course",
        "  alice       student, first team of the live session",
        "  bob         student, second team of the live session",
        "  reviewer    reviewer of the demo course (watches live and finished sessions, read-only)",
        "  admin       site administrator (Django admin at /admin/)",
        "Join codes:",
        *[f"  {k}: {v}" for k, v in data["codes"].items()],
        *([f"After-action reviews: {len(data['reports'])} built "
           f"({', '.join(str(getattr(r, 'status', r)) for r in data['reports'])}); "
           f"see {base_url}/reports/"] if data.get("reports") else []),
        f"Open {base_url}/  (API docs: {base_url}/api/docs/)",
    ]
    return "\n".join(lines)
