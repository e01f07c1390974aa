"""Run as a subprocess against any database (``DATABASE_URL``):

    python -m tests.hardening.game_tool make      -> {"session", "teams": [[seat, token], ...]}
    python -m tests.hardening.game_tool inspect ID -> decisions, submission keys, verify report

Used by the fault tests whose database is a private PostgreSQL cluster.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coinlab.settings")
    import django

    django.setup()
    cmd = sys.argv[1]
    if cmd == "make":
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        import engine
        from facilitation import services

        User = get_user_model()
        inst = User.objects.create_user("fault-instructor")
        services.user_add_role(user=inst, role="instructor")
        course = services.course_create(user=inst, title="Faults")
        a, b = engine.load("peru").seat_ids()[:2]
        session = services.session_create(course=course, user=inst, title="Faults", scenario_key="peru", seed=77,
                                          teams=["A", "B"], seats={a: "A", b: "B"})
        out = []
        for team, seat in zip(session.teams.order_by("id"), (a, b), strict=True):
            u = User.objects.create_user(f"fault-{seat}")
            services.team_member_add(team=team, user=inst, member=u)
            out.append([seat, Token.objects.create(user=u).key])
        services.session_start(session=session, user=inst)
        print(json.dumps({"session": session.pk, "teams": out}))
    elif cmd == "inspect":
        from facilitation import eventlog
        from facilitation.models import ClassSession, SessionEvent, SubmissionKey

        s = ClassSession.objects.get(pk=int(sys.argv[2]))
        rep = eventlog.verify(s)
        print(json.dumps({
            "head_seq": s.head_seq,
            "events": SessionEvent.objects.filter(session=s).count(),
            "decisions": {e.seq: e.payload.get("choice") for e in SessionEvent.objects.filter(session=s, kind="decision")},
            "keys": {k.key: {"request": k.request, "response": k.response}
                     for k in SubmissionKey.objects.filter(session=s)},
            "verify_ok": rep.ok, "verify_errors": rep.errors}))
    else:
        raise SystemExit(f"unknown command {cmd}")


if __name__ == "__main__":
    main()
