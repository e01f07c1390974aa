"""The page's decision answers with the deciding seat's region of the version its move wrote,
drawn from the session row as the move left it in memory, without reading the row again (issue 20:
the read cost 1.5-2 ms of CPU; the state is still decoded once, from the row's data in memory). That region
must be, byte for byte, the one drawn from the database afterwards (what a poll or the pre-draw
would store under the same tag), in each game, move after move.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

import engine
from facilitation import selectors, services
from facilitation.models import ClassSession
from facilitation.rendering import regions
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

SESSION_TABLE = ClassSession._meta.db_table


def _game(key: str):
    """A started session of ``key`` with one team, and one student, on every seat."""
    teacher = make_user(f"dr-teacher-{key}", "instructor")
    course = services.course_create(user=teacher, title="Decisions")
    seats = engine.load(key).seat_ids()
    session = services.session_create(course=course, user=teacher, title=key, scenario_key=key, seed=11,
                                      teams=[f"T-{s}" for s in seats], seats={s: f"T-{s}" for s in seats})
    users = {}
    for team in session.teams.all():
        seat = team.name[2:]
        users[seat] = make_user(f"dr-{key[:4]}-{seat}", "student")
        services.team_member_add(team=team, user=teacher, member=users[seat])
    return services.session_start(session=session, user=teacher), users


def _drawn_from_the_database(session_id: int, seat: str) -> str:
    request = HttpRequest()
    request.method, request.user = "GET", AnonymousUser()
    session = ClassSession.objects.get(pk=session_id)
    with translation.override("en"):
        return regions.unpersonal(regions.shared_region(request, session, seat))


def _row_reads(queries) -> list[str]:
    """The statements that read the session row's state (the move's own locked read included)."""
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")
            and f'"{SESSION_TABLE}"' in q["sql"] and '"state"' in q["sql"]]


@pytest.mark.parametrize("key", ["peru", "andean_abyss", "tears_of_tyranny"])
def test_the_decisions_region_is_the_one_drawn_from_the_database(key):
    session, users = _game(key)
    clients = {}
    for move in range(8):
        session.refresh_from_db()
        rules, state = selectors.session_state(session)
        p = rules.prompt(state)
        assert p is not None, f"{key}: the game ended after {move} moves"
        seat = p.seats[move % len(p.seats)]
        choices = p.choices_for(seat)
        choice = choices[move % len(choices)].id
        if seat not in clients:
            clients[seat] = Client()
            clients[seat].force_login(users[seat])
        cache.clear()  # the region is drawn by the decision itself, not found stored
        url = reverse("web:play_choose", args=[session.pk]) + f"?seat={seat}"
        with CaptureQueriesContext(connection) as queries:
            r = clients[seat].post(url, {"seat": seat, "seq": session.head_seq, "choice": choice,
                                         "key": f"{key}-{move}"}, HTTP_HX_REQUEST="true")
        assert r.status_code == 200, (key, move, r.content[:300])
        after = ClassSession.objects.get(pk=session.pk)
        assert after.head_seq > session.head_seq, (key, move, "the decision was not applied")
        # one read of the row: the move's own, under its lock
        assert len(_row_reads(queries.captured_queries)) == 1, _row_reads(queries.captured_queries)
        assert r["ETag"] == regions.etag(after, seat)
        assert r.content.decode() == _drawn_from_the_database(session.pk, seat), (key, move, seat)


def test_a_refused_decision_still_answers_the_seats_current_region(tot):
    """A decision the service refuses (a stale seq) leaves no row in memory: the answer is the
    region read from the database, with the refusal as a message."""
    session, users = tot
    seat = "advisors"
    client = Client()
    client.force_login(users[seat])
    url = reverse("web:play_choose", args=[session.pk]) + f"?seat={seat}"
    r = client.post(url, {"seat": seat, "seq": session.head_seq + 5, "choice": "nothing", "key": "stale-1"},
                    HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    body = r.content.decode()
    assert 'role="alert"' in body and f'data-seq="{session.head_seq}"' in body
    session.refresh_from_db()
    assert r["ETag"] == regions.etag(session, seat)
