"""Teams and seats editable before the start (issue #19 deliver 4) on the session's manage
page: rename a team, move a student, swap which team plays which faction, seat a bot; bad
input changes nothing; nothing changes once the session has started. And the console's
summary names each bot's kind and the Andean Abyss card (issue #19)."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from facilitation import services
from facilitation.models import Seat
from facilitation.rendering.regions import draw_section
from tests.conftest import create_peru_game

pytestmark = pytest.mark.django_db


def _seats(session) -> dict:
    return {s.seat_key: (s.team.name if s.team_id else f"bot:{s.bot_kind}")
            for s in Seat.objects.filter(session=session).select_related("team")}


def _post(client, game, action, **data):
    r = client.post(reverse("web:control", args=[game.session.pk, action]), data)
    return r, [str(m) for m in get_messages(r.wsgi_request)]


def test_the_manage_page_offers_the_setup_only_before_the_start(client, people):
    game = create_peru_game(people, start=False)
    client.force_login(people.instructor)
    page = client.get(reverse("web:manage", args=[game.session.pk])).content.decode()
    assert "Teams and seats before the start" in page and 'name="seat_government"' in page
    assert "Bot: heuristic" in page and "Move student_a from Team A to" in page
    services.session_start(session=game.session, user=people.instructor)
    page = client.get(reverse("web:manage", args=[game.session.pk])).content.decode()
    assert "Teams and seats before the start" not in page


def test_rename_a_team(client, people):
    game = create_peru_game(people, start=False)
    client.force_login(people.instructor)
    r, msgs = _post(client, game, "team_rename", team=game.team_a.pk, name="Los Andes")
    assert r.status_code == 302 and "Team renamed." in msgs
    game.team_a.refresh_from_db()
    assert game.team_a.name == "Los Andes"
    for bad in ("Team B", "   "):
        r, msgs = _post(client, game, "team_rename", team=game.team_a.pk, name=bad)
        assert r.status_code == 302 and msgs
        game.team_a.refresh_from_db()
        assert game.team_a.name == "Los Andes"
    assert _post(client, game, "team_rename", team="99999", name="X")[0].status_code == 400
    assert _post(client, game, "team_rename", team="drop table", name="X")[0].status_code == 400


def test_swap_factions_and_seat_a_bot_in_one_save(client, people):
    game = create_peru_game(people, start=False)
    a, b = game.team_a.pk, game.team_b.pk
    client.force_login(people.instructor)
    r, msgs = _post(client, game, "seats", seat_government=f"team:{b}", seat_shining_path=f"team:{a}")
    assert "Seats saved." in msgs
    assert _seats(game.session) == {"government": "Team B", "shining_path": "Team A"}
    r, msgs = _post(client, game, "seats", seat_government="bot:random", seat_shining_path=f"team:{a}")
    assert _seats(game.session) == {"government": "bot:random", "shining_path": "Team A"}
    assert any("play no seat now: Team B" in m for m in msgs)


@pytest.mark.parametrize("data", [
    {"seat_government": "bot:heuristic", "seat_shining_path": "bot:random"},   # no team left
    {"seat_government": "bot:chess_engine", "seat_shining_path": "team:A"},     # unknown bot
    {"seat_government": "team:99999", "seat_shining_path": "team:A"},           # another session's team
    {"seat_government": "team:A"},                                              # a seat left out
    {"seat_government": "nobody", "seat_shining_path": "team:A"},
])
def test_bad_seats_are_refused_and_change_nothing(client, people, data):
    game = create_peru_game(people, start=False)
    before = _seats(game.session)
    data = {k: v.replace("team:A", f"team:{game.team_a.pk}") for k, v in data.items()}
    client.force_login(people.instructor)
    r, msgs = _post(client, game, "seats", **data)
    assert r.status_code == 302 and msgs and "Seats saved." not in msgs
    assert _seats(game.session) == before


def test_move_a_student_to_another_team(client, people):
    game = create_peru_game(people, start=False)
    client.force_login(people.instructor)
    r, msgs = _post(client, game, "move_member", member="student_a", team=game.team_b.pk)
    assert any("now plays for Team B" in m for m in msgs)
    assert set(game.team_b.members.values_list("username", flat=True)) == {"student_a", "student_b"}
    assert not game.team_a.members.exists()
    # someone not in this session's teams, or an unknown team: 400, nothing changed
    assert _post(client, game, "move_member", member="reviewer1", team=game.team_a.pk)[0].status_code == 400
    assert _post(client, game, "move_member", member="student_b", team="x")[0].status_code == 400
    assert not game.team_a.members.exists()


def test_nothing_changes_after_the_start(client, people):
    game = create_peru_game(people)
    before = _seats(game.session)
    client.force_login(people.instructor)
    _r, msgs = _post(client, game, "seats", seat_government=f"team:{game.team_b.pk}",
                     seat_shining_path=f"team:{game.team_a.pk}")
    assert any("before the session starts" in m for m in msgs) and _seats(game.session) == before
    _r, msgs = _post(client, game, "team_rename", team=game.team_a.pk, name="Renamed")
    game.team_a.refresh_from_db()
    assert game.team_a.name == "Team A"
    _r, msgs = _post(client, game, "move_member", member="student_a", team=game.team_b.pk)
    assert game.team_a.members.filter(username="student_a").exists()
    # a student may not change anything
    client.force_login(people.student_a)
    assert _post(client, game, "seats", seat_government=f"team:{game.team_b.pk}",
                 seat_shining_path=f"team:{game.team_a.pk}")[0].status_code == 403


def test_console_names_the_bot_kind_and_the_andean_abyss_card(people):
    course = services.course_create(user=people.instructor, title="COIN 101")
    session = services.session_create(course=course, user=people.instructor, title="AA", scenario_key="andean_abyss",
                                      seed=3, teams=["Blue"], seats={"govt": "Blue", "farc": "bot:nonplayer",
                                                                     "auc": "bot:random", "cartels": "bot:nonplayer"})
    services.session_start(session=session, user=people.instructor)
    session.refresh_from_db()
    html = draw_section(session)
    assert "Non-player (rules section 8)" in html and "random legal moves" in html
    assert "nonplayer" not in html.replace('class="', "")
    import engine

    rules = engine.load("andean_abyss")
    card = next(c for c in rules.board_view(session.state, None).cards if c.role == "current")
    from django.utils.html import escape

    from facilitation.text import tr

    assert f"#{card.number} {escape(tr(card.title))}</p>" in html and tr(card.title).strip()
