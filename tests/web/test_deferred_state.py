"""A session row read with its state deferred (the polls' ``_player_session``) is drawn with the
state of its own seq, even when a move is committed between the read of the row and the read of
the state (issue 20: busy run 5 and 6 at a70ebbf, the focus test's decision refused as "the game
has moved on": the page had been shown the newer position's choices under the older seq).

Peru with seed 7 (the browser race tests' session): after the Shining Path's Rally in Lima
(seq 5) the only choice is ``rally:1``; at seq 4 (Rally chosen, no space yet) the choices are
spaces (rules 3.3.1).
"""

from __future__ import annotations

import gzip
import re

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from facilitation import eventlog, selectors, services
from facilitation.models import ROLE_INSTRUCTOR, ClassSession
from facilitation.rendering import regions

pytestmark = pytest.mark.django_db


@pytest.fixture
def peru_at_seq_4(django_user_model):
    """A live Peru session whose Shining Path has chosen Rally and not yet its space (seq 4), and
    bruno, the Sierra team's student."""
    teacher = django_user_model.objects.create_user("teacher", password="teach-pass-1")
    teacher.groups.add(Group.objects.get_or_create(name=ROLE_INSTRUCTOR)[0])
    course = services.course_create(user=teacher, title="COIN 101")
    session = services.session_create(course=course, user=teacher, title="Race", scenario_key="peru", seed=7,
                                      teams=["Andes", "Sierra"], options={},
                                      seats={"government": "Andes", "shining_path": "Sierra"})
    bruno = django_user_model.objects.create_user("bruno", password="bruno-secret-9")
    services.team_member_add(team=session.teams.get(name="Sierra"), user=teacher, member=bruno)
    services.session_start(session=session, user=teacher)
    for cid in ("swap:junin", "box:limited_op", "op:rally"):
        session.refresh_from_db()
        services.choice_submit(session=session, user=bruno, seat="shining_path", choice=cid, seq=session.head_seq)
    session.refresh_from_db()
    assert session.head_seq == 4
    return session, bruno


def _move_on(session, bruno) -> None:
    """The Shining Path's next move (Rally in Lima), committed by another request: seq 5."""
    fresh = ClassSession.objects.get(pk=session.pk)
    services.choice_submit(session=fresh, user=bruno, seat="shining_path", choice="space:lima", seq=fresh.head_seq)


def _choices(rules, state) -> list[str]:
    return [c.id for c in rules.prompt(state).choices_for("shining_path")]


def test_a_row_read_before_a_move_gets_the_state_of_its_own_seq(peru_at_seq_4):
    session, bruno = peru_at_seq_4
    row = ClassSession.objects.select_related("course").defer("state").get(pk=session.pk)  # as the polls read it
    _move_on(session, bruno)
    rules, state = selectors.session_state(row)
    assert row.head_seq == 4
    choices = _choices(rules, state)
    assert "rally:1" not in choices and "space:lima" in choices, choices
    # and it is the state the log gives for seq 4
    assert eventlog.state_data(rules, state) == eventlog.state_data(rules, eventlog._replayed_state(row, 4, rules))


def test_a_row_read_after_the_move_gets_the_new_state(peru_at_seq_4):
    session, bruno = peru_at_seq_4
    _move_on(session, bruno)
    row = ClassSession.objects.select_related("course").defer("state").get(pk=session.pk)
    rules, state = selectors.session_state(row)
    assert row.head_seq == 5 and _choices(rules, state) == ["rally:1"]


def test_the_region_drawn_for_an_older_row_shows_that_seqs_choices(peru_at_seq_4):
    """The seq the region's form sends and the choices it shows are of one position."""
    session, bruno = peru_at_seq_4
    row = ClassSession.objects.select_related("course").defer("state").get(pk=session.pk)
    _move_on(session, bruno)
    ctx = regions.live_context(None, row, "shining_path")
    assert ctx["data"]["seq"] == 4
    assert max(e["seq"] for e in ctx["log"]) == 4, "the log shows a move the region's position has not made"
    assert [c["id"] for c in ctx["choices"]][:1] != ["rally:1"] and any(c["id"] == "space:lima" for c in ctx["choices"])


def test_a_poll_racing_a_move_answers_one_position(peru_at_seq_4, monkeypatch):
    """The poll's view reads the row, then a move is committed (another request), then it draws:
    the region it answers (and stores for the team) shows the choices of the seq its form sends."""
    from facilitation.web.views import play

    session, bruno = peru_at_seq_4
    real = play._player_session

    def then_a_move(request, session_id):
        got = real(request, session_id)
        _move_on(session, bruno)
        return got

    monkeypatch.setattr(play, "_player_session", then_a_move)
    client = Client()
    assert client.login(username="bruno", password="bruno-secret-9")
    r = client.get(reverse("web:play_live", args=[session.pk]) + "?seat=shining_path", HTTP_ACCEPT_ENCODING="gzip")
    assert r.status_code == 200
    html = gzip.decompress(r.content).decode() if r.get("Content-Encoding") == "gzip" else r.content.decode()
    seqs = set(re.findall(r'name="seq" value="(\d+)"', html))
    shown = re.findall(r'data-choice="([^"]+)"', html)
    assert seqs == {"4"}, seqs
    assert "rally:1" not in shown and "space:lima" in shown, shown[:10]
