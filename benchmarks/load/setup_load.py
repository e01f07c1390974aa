"""Create the classroom the load test plays: N sessions x 4 teams, instructors, login cookies.

Run with the same DATABASE_URL/REDIS_URL as the web processes:

    .venv/bin/python benchmarks/load/setup_load.py --sessions 40 --out var/load/people.json

``--scenario mix`` seats the three games in turn (Peru, 2 teams; Andean Abyss and Tears of
Tyranny, 4 teams each). ``--append`` keeps the classroom already in ``--out`` and adds sessions
until it holds ``--sessions`` (the ramp of ``ramp.py`` grows the classroom step by step while
the server runs).

Accounts get no password (hashing 170 passwords costs a minute): the script opens a
login session for each directly in the session store (cached_db: PostgreSQL + Redis)
and writes the cookies to ``--out`` for the driver. Everything it creates is in a
course called "Load test <stamp>".
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MIX = ("peru", "andean_abyss", "tears_of_tyranny")
# Every seat a team's (Tears of Tyranny seats as many teams as "players" says; Andean Abyss
# and Peru seat one team per Faction by default).
OPTIONS = {"tears_of_tyranny": {"players": 4}}
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--sessions-per-instructor", type=int, default=4)
    # Tears of Tyranny seats four teams (the heaviest region to draw); Andean Abyss also seats four.
    ap.add_argument("--scenario", default="tears_of_tyranny", help="a game's key, or mix (the three games in turn)")
    ap.add_argument("--append", action="store_true", help="add to the classroom already in --out")
    ap.add_argument("--out", default=str(ROOT / "var" / "load" / "people.json"))
    args = ap.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.utils.module_loading import import_string

    import engine
    from facilitation import services
    from facilitation.models import Course

    User = get_user_model()
    store_cls = import_string(settings.SESSION_ENGINE + ".SessionStore")
    games = MIX if args.scenario == "mix" else (args.scenario,)
    rules_of = {key: engine.load(key) for key in games}

    def login_cookie(user) -> str:
        s = store_cls()
        s[SESSION_KEY] = str(user.pk)
        s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        s[HASH_SESSION_KEY] = user.get_session_auth_hash()
        s.create()
        return s.session_key

    out_path = Path(args.out)
    if args.append and out_path.exists():
        out = json.loads(out_path.read_text())
    else:
        out = {"scenario": args.scenario, "stamp": secrets.token_hex(3), "instructors": [], "teams": [],
               "sessions": []}
    stamp = out["stamp"]
    out.setdefault("sessions", [])
    first = len(out["sessions"])
    instructor = None
    course = None
    if first % args.sessions_per_instructor:  # the last instructor's group is not full yet
        instructor = User.objects.get(username=out["instructors"][-1]["username"])
        course = Course.objects.get(pk=out["sessions"][-1]["course"])
    for i in range(first, args.sessions):
        if i % args.sessions_per_instructor == 0 or course is None:
            instructor = User.objects.create_user(f"load-{stamp}-inst{i // args.sessions_per_instructor}")
            services.user_add_role(user=instructor, role="instructor")
            course = services.course_create(user=instructor, title=f"Load test {stamp} #{i}")
            out["instructors"].append({"username": instructor.username, "cookie": login_cookie(instructor)})
        key = games[i % len(games)]
        seats = rules_of[key].seat_ids()
        names = [f"Team {k + 1}" for k in range(len(seats))]
        session = services.session_create(course=course, user=instructor, title=f"Load {i} {key}",
                                          scenario_key=key, seed=1000 + i, teams=names,
                                          options=OPTIONS.get(key, {}),
                                          seats=dict(zip(seats, names, strict=True)))
        for team, seat in zip(session.teams.order_by("id"), seats, strict=True):
            student = User.objects.create_user(f"load-{stamp}-s{i}-{seat}")
            services.team_member_add(team=team, user=instructor, member=student)
            out["teams"].append({"session": session.pk, "seat": seat, "username": student.username,
                                 "cookie": login_cookie(student), "game": key})
        services.session_start(session=session, user=instructor)
        out["sessions"].append({"id": session.pk, "game": key, "course": course.pk,
                                "instructor": instructor.username})
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1))
    print(f"{len(out['teams'])} teams in {len(out['sessions'])} sessions, {len(out['instructors'])} instructors -> {args.out}")


if __name__ == "__main__":
    main()
