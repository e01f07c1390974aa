"""Scale-out on loopback: 2 web processes (gunicorn) and 2 Celery workers against one
PostgreSQL and one Redis (a private redis-server, so no other test's worker can take
our tasks).

Two Peru sessions, four teams; each team's requests go to both web processes in turn.
After play, after-action reviews are requested through both web processes; they are
built by whichever worker takes them (both workers must have built at least one).
Then every session's log replays to its cached state (``eventlog.verify``, as
``manage.py verify_session``).
"""

from __future__ import annotations

import re

import pytest
from django.db import connection

from facilitation import eventlog
from facilitation.models import ClassSession, SessionEvent
from facilitation.reports.models import AARReport
from tests.conftest import create_peru_game, make_user
from tests.hardening.conftest import wait_until
from tests.hardening.helpers import cookie_headers, login_cookie, play_one, post_form, token_for

pytestmark = pytest.mark.integration

MOVES_PER_SESSION = 12


def test_two_web_two_workers_one_db_one_redis(people, subprocess_env, web_processes, start_celery_worker,
                                              private_redis, tmp_path):
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    subprocess_env["REDIS_URL"] = private_redis.url
    subprocess_env.pop("CELERY_BROKER_URL", None)
    subprocess_env["COINLAB_MEDIA_ROOT"] = str(tmp_path / "media")  # shared by both workers and both webs

    games = [create_peru_game(people, seed=41, title="Scale A")]
    p2 = people
    p2.student_a, p2.student_b = make_user("scale_c", "student"), make_user("scale_d", "student")
    games.append(create_peru_game(p2, seed=42, title="Scale B"))
    servers = web_processes(2)
    w0 = start_celery_worker(REDIS_URL=private_redis.url)
    w1 = start_celery_worker(REDIS_URL=private_redis.url)
    assert w0.poll() is None and w1.poll() is None

    teams = []
    for g in games:
        teams.append((g.session.pk, g.seat_a, token_for(g.team_a.members.get())))
        teams.append((g.session.pk, g.seat_b, token_for(g.team_b.members.get())))
    served = {0: 0, 1: 0}
    made = {g.session.pk: 0 for g in games}
    rounds = 0
    while min(made.values()) < MOVES_PER_SESSION and rounds < 400:
        rounds += 1
        for k, (sid, seat, token) in enumerate(teams):
            if made[sid] >= MOVES_PER_SESSION:
                continue
            which = (rounds + k) % 2
            status, body = play_one(servers[which], sid, seat, token, pick=rounds)
            if status == -1:
                continue
            assert status == 200, (status, body)
            served[which] += 1
            made[sid] += 1
    assert min(made.values()) >= MOVES_PER_SESSION, made
    assert served[0] > 5 and served[1] > 5, served

    # Reports through both web processes; whichever worker takes them builds them.
    instructor = people.instructor
    hdrs = cookie_headers(login_cookie(instructor))
    report_ids = []
    for i, g in enumerate(games):
        for j, seq_back in enumerate((0, 4)):
            g.session.refresh_from_db()
            seq = g.session.head_seq - seq_back
            server = servers[(i + j) % 2]
            status, body = post_form(f"{server}/reports/sessions/{g.session.pk}/", {"as_of_seq": str(seq)}, hdrs)
            assert status in (200, 302), (status, str(body)[:300])
            report_ids.append(AARReport.objects.get(session=g.session, seq=seq).pk)

    def all_done():
        rows = list(AARReport.objects.filter(pk__in=report_ids).values_list("status", flat=True))
        assert "failed" not in rows, list(AARReport.objects.filter(pk__in=report_ids).values("status", "error"))
        return all(s == AARReport.Status.DONE for s in rows)

    wait_until(all_done, timeout=240, every=1, what="all reports built")
    logs = [(tmp_path / f"celery-{n}.log").read_text() for n in range(2)]
    built = [bool(re.search(r"build_aar_report\[[^]]+\] succeeded", log)) for log in logs]
    assert all(built), f"each worker should have built a report: {built}"

    for g in games:
        session = ClassSession.objects.get(pk=g.session.pk)
        assert SessionEvent.objects.filter(session=session).count() == session.head_seq
        rep = eventlog.verify(session)
        assert rep.ok, rep.errors
