"""The demo course (``coinlab demo`` / ``manage.py demo``). Idempotent: running it again
reuses what exists.

Creates:

* users ``instructor``, ``alice``, ``bob``, ``carol``, ``dave``, ``reviewer`` (one password
  for all, set again at every load: a new random one unless the caller passes one, e.g.
  ``serve_embedded`` passes :data:`PASSWORD` when the site listens on loopback only) and the
  superuser ``admin`` (always a new random password of its own: never a known key to
  ``/admin/``, issue 14 item 4);
* the course "Counter-insurgency wargames (demo)" taught by ``instructor``, reviewed by
  ``reviewer``, with three sessions for each game (by default all three games):

  - "<game>: live demo", in progress, student teams in the seats listed in ``LIVE_TEAMS``
    (Peru: alice and bob; Andean Abyss: alice's Government and bob's FARC, Non-player
    bots for AUC and Cartels; Tears of Tyranny: four teams, alice, bob, carol and dave),
    after some opening moves played by bots (logged as ``bot`` events);
  - "<game>: finished demo", played to the end by bots, with its after-action review;
  - "<game>: next week", scheduled, with empty teams and join codes.

After-action reviews: :func:`build_demo_reports` is called with the finished
sessions. It calls ``facilitation.reports.demo.build(session)`` when the AAR app
provides it (that module is the hook for the AAR engineer); the sessions are played and
the reports built inside its ``building()`` block, when it provides one (the reports then
share one chart browser).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib
import logging
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import engine
from facilitation import services
from facilitation.models import ROLE_INSTRUCTOR, ROLE_REVIEWER, ClassSession, Course, JoinCode

log = logging.getLogger(__name__)
User = get_user_model()

# The demo users' password when the site is reachable from this machine only (loopback);
# printed in the README. Anywhere else they get a random one (serve_embedded).
PASSWORD = "coinlab-demo"
COURSE_TITLE = "Counter-insurgency wargames (demo)"
USERS = [
    ("instructor", "Ines", "Instructor", ROLE_INSTRUCTOR),
    ("alice", "Alice", "Student", "student"),
    ("bob", "Bob", "Student", "student"),
    ("carol", "Carol", "Student", "student"),
    ("dave", "Dave", "Student", "student"),
    ("reviewer", "Rafael", "Reviewer", ROLE_REVIEWER),
]
STUDENTS = ["alice", "bob", "carol", "dave"]
OPENING_BOT_MOVES = 12
ALL_SCENARIOS = ("peru", "andean_abyss", "tears_of_tyranny")
# How many seats of each game's live demo session get a student team (in seat order; the
# rest are played by the game's default bot). Andean Abyss keeps AUC and Cartels as
# Non-players (rules section 8); Tears of Tyranny seats all four players.
LIVE_TEAMS = {"peru": 2, "andean_abyss": 2, "tears_of_tyranny": 4}


def new_password() -> str:
    """A random password (about 72 bits) for a demo account."""
    return secrets.token_urlsafe(9)


def _user(username: str, first: str, last: str, role: str | None, *, password: str, superuser: bool = False):
    u, created = User.objects.get_or_create(username=username, defaults={
        "first_name": first, "last_name": last, "email": f"{username}@coinlab.invalid"})
    # Set at every load: a password printed by an earlier run (e.g. the loopback one) stops
    # working when the demo is loaded again for another address.
    u.set_password(password)
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


def demo_load(*, scenario: str | None = None, scenarios: tuple[str, ...] | None = None,
              password: str | None = None) -> dict:
    """Create (or find) the demo data; returns what was made, for printing.

    ``scenario`` loads one game; ``scenarios`` several; neither loads every game.
    ``password``: the demo users' password (default: a new random one); the superuser
    ``admin`` always gets a random one of its own (``admin_password``).
    """
    keys = list(scenarios or ((scenario,) if scenario else ALL_SCENARIOS))
    for key in keys:
        engine.load(key)  # unknown key: fail before writing anything
    password = password or new_password()
    admin_password = new_password()
    with transaction.atomic():
        users = {name: _user(name, first, last, role, password=password) for name, first, last, role in USERS}
        _user("admin", "Site", "Admin", None, password=admin_password, superuser=True)
        instructor = users["instructor"]
        course = Course.objects.filter(title=COURSE_TITLE, instructors=instructor).first()
        if course is None:
            course = services.course_create(user=instructor, title=COURSE_TITLE, description=(
                "A demonstration course: each game played by student teams, with bots in empty seats."))
        services.course_reviewer_grant(course=course, user=instructor, reviewer=users["reviewer"])
    codes = {"course": _code(course, instructor).code}
    games, finished_sessions = [], []
    hook = _report_hook()
    with getattr(hook, "building", contextlib.nullcontext)():
        for key in keys:
            game = _demo_game(course, instructor, users, key, codes)
            games.append(game)
            finished_sessions.append(game["finished"])
        reports = build_demo_reports(finished_sessions)
    return {"course": course, "games": games, "codes": codes,
            "users": [u for u, *_ in USERS] + ["admin"], "password": password,
            "admin_password": admin_password, "reports": reports}


def _demo_game(course, instructor, users, scenario: str, codes: dict) -> dict:
    rules = engine.load(scenario)
    seats = rules.seat_ids()
    now = timezone.now().replace(second=0, microsecond=0)
    n_teams = min(LIVE_TEAMS.get(scenario, 2), len(seats), len(STUDENTS))
    team_names = [f"{rules.seats[i].title} team" for i in range(n_teams)]
    # 1. in progress: student teams, a few opening moves played by bots.
    live, created = _session(course, instructor, f"{rules.title}: live demo", scenario_key=scenario,
                             scheduled_start=now - dt.timedelta(minutes=30),
                             scheduled_end=now + dt.timedelta(minutes=90), location="Room 101",
                             teams=team_names, seats=dict(zip(seats, team_names, strict=False)))
    if created:
        for team, student in zip(live.teams.order_by("id"), STUDENTS, strict=False):
            services.team_member_add(team=team, user=instructor, member=users[student])
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
    for team in upcoming.teams.order_by("id"):
        codes[f"{rules.title} / {team.name}"] = _code(course, instructor, team).code
    members = {t.name: [m.username for m in t.members.order_by("username")] for t in live.teams.order_by("id")}
    return {"scenario": scenario, "title": rules.title, "live": live, "finished": finished,
            "upcoming": upcoming, "members": members}


def _report_hook():
    """``facilitation.reports.demo`` when the AAR app provides it, else None."""
    try:
        return importlib.import_module("facilitation.reports.demo")
    except ModuleNotFoundError as exc:
        if exc.name != "facilitation.reports.demo":
            raise
        return None


def build_demo_reports(sessions: list[ClassSession]) -> list:
    """Build the AAR of each finished demo session, if the AAR app provides
    ``facilitation.reports.demo.build(session)``; returns what it returned."""
    mod = _report_hook()
    if mod is None:
        return []
    out = []
    for s in sessions:
        if s.status == ClassSession.Status.FINISHED:
            out.append(mod.build(s))
    return out


def demo_summary(data: dict, base_url: str = "http://127.0.0.1:8000") -> str:
    lines = [f"Demo course: {data['course'].title}"]
    for g in data["games"]:
        live, finished, upcoming = g["live"], g["finished"], g["upcoming"]
        seated = "; ".join(f"{team}: {', '.join(m) or 'nobody'}" for team, m in g["members"].items())
        lines += [
            f"  {g['title']}",
            f"    session {live.pk}: {live.title} [{live.status}, {live.head_seq} events] ({seated})",
            f"    session {finished.pk}: {finished.title} [{finished.status}, {finished.head_seq} events]",
            f"    session {upcoming.pk}: {upcoming.title} [{upcoming.status}]",
        ]
    lines += [
        f"Logins (password for all: {data['password']}):",
        "  instructor  instructor of the demo course",
        "  alice       student: first team of each live session",
        "  bob         student: second team of each live session",
        "  carol       student: third team (Tears of Tyranny live session)",
        "  dave        student: fourth team (Tears of Tyranny live session)",
        "  reviewer    reviewer of the demo course (watches live and finished sessions, read-only)",
        f"  admin       site administrator (Django admin at /admin/), password: {data['admin_password']}",
        "Join codes:",
        *[f"  {k}: {v}" for k, v in data["codes"].items()],
        *([f"After-action reviews: {len(data['reports'])} built "
           f"({', '.join(str(getattr(r, 'status', r)) for r in data['reports'])}); "
           f"see {base_url}/reports/"] if data.get("reports") else []),
        f"Open {base_url}/  (API docs: {base_url}/api/docs/)",
    ]
    return "\n".join(lines)
