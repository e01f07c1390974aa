"""Create the classroom the load test plays: N sessions x 4 teams, instructors, login cookies.

Run with the same DATABASE_URL/REDIS_URL as the web processes:

    .venv/bin/python benchmarks/load/setup_load.py --sessions 40 --out var/load/people.json

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
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--sessions-per-instructor", type=int, default=4)
    # Tears of Tyranny seats four teams (the heaviest region to draw); Andean Abyss also seats four.
    ap.add_argument("--scenario", default="tears_of_tyranny")
    ap.add_argument("--out", default=str(ROOT / "var" / "load" / "people.json"))
    args = ap.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.utils.module_loading import import_string

    import engine
    from facilitation import services

    User = get_user_model()
    store_cls = import_string(settings.SESSION_ENGINE + ".SessionStore")
    stamp = secrets.token_hex(3)
    rules = engine.load(args.scenario)
    seats = rules.seat_ids()

    def login_cookie(user) -> str:
        s = store_cls()
        s[SESSION_KEY] = str(user.pk)
        s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        s[HASH_SESSION_KEY] = user.get_session_auth_hash()
        s.create()
        return s.session_key

    out = {"scenario": args.scenario, "stamp": stamp, "instructors": [], "teams": []}
    instructor = None
    course = None
    for i in range(args.sessions):
        if i % args.sessions_per_instructor == 0:
            instructor = User.objects.create_user(f"load-{stamp}-inst{i // args.sessions_per_instructor}")
            services.user_add_role(user=instructor, role="instructor")
            course = services.course_create(user=instructor, title=f"Load test {stamp} #{i}")
            out["instructors"].append({"username": instructor.username, "cookie": login_cookie(instructor)})
        names = [f"Team {k + 1}" for k in range(len(seats))]
        session = services.session_create(course=course, user=instructor, title=f"Load {i}",
                                          scenario_key=args.scenario, seed=1000 + i, teams=names,
                                          options={"players": len(seats)} if args.scenario == "tears_of_tyranny" else {},
                                          seats=dict(zip(seats, names, strict=True)))
        for team, seat in zip(session.teams.order_by("id"), seats, strict=True):
            student = User.objects.create_user(f"load-{stamp}-s{i}-{seat}")
            services.team_member_add(team=team, user=instructor, member=student)
            out["teams"].append({"session": session.pk, "seat": seat, "username": student.username,
                                 "cookie": login_cookie(student)})
        services.session_start(session=session, user=instructor)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1))
    print(f"{len(out['teams'])} teams in {args.sessions} sessions, {len(out['instructors'])} instructors -> {args.out}")


if __name__ == "__main__":
    main()
