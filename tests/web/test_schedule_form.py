"""The scheduling page (issue #19 deliver 4): game options as a form built from the engine's
option descriptions, and switching the game keeps what was typed."""

import re

import pytest
from django.urls import reverse

from facilitation.models import ClassSession

pytestmark = pytest.mark.django_db


def _post(client, **fields):
    data = {"schedule": "1", "title": "Period 3", "course_title": "COIN 101", "seed": "4",
            "scheduled_start": "2026-12-01T09:00", "decision_timer_seconds": "", "timer_expiry": "warn"}
    data.update(fields)
    return client.post(reverse("web:session_new"), data)


def test_options_are_controls_of_their_kind(client, instructor):
    client.force_login(instructor)
    page = client.get(reverse("web:session_new"), {"scenario": "andean_abyss"}).content.decode()
    # one-of-several and yes/no options are selects with readable values, not a KEY=VALUE box
    assert '<select name="opt_scenario"' in page and ">Short<" in page
    assert '<select name="opt_transfers"' in page and ">Yes<" in page
    assert '<select name="opt_players"' in page
    # deck orders and scripted dice stay JSON, under "Advanced"
    assert '<textarea name="opt_deck"' in page and "Advanced options" in page
    assert 'name="options"' not in page


def test_scheduling_keeps_only_the_options_that_differ_from_the_default(client, instructor):
    client.force_login(instructor)
    r = _post(client, scenario="andean_abyss", previous_scenario="andean_abyss", opt_scenario="short",
              opt_deployment="standard", opt_players="2", opt_spare="pair", opt_third="auc", opt_solo="govt",
              opt_transfers="False", opt_seeded="False", opt_nonplayers="", opt_deck="", opt_script="",
              seat_govt_by="team", seat_govt_team="Blue", seat_farc_by="team", seat_farc_team="Red",
              seat_auc_by="nonplayer", seat_cartels_by="nonplayer")
    assert r.status_code == 302, r.content.decode()[:3000]
    s = ClassSession.objects.get(title="Period 3")
    assert s.options == {"scenario": "short", "players": 2, "transfers": False}


def test_bad_json_option_is_refused_and_nothing_is_scheduled(client, instructor):
    client.force_login(instructor)
    r = _post(client, scenario="peru", previous_scenario="peru", opt_deck="[1, 2", opt_deck_top="", opt_script="",
              seat_government_by="team", seat_government_team="Blue", seat_shining_path_by="team",
              seat_shining_path_team="Red")
    assert r.status_code == 200
    assert "Write this option as JSON" in r.content.decode()
    assert not ClassSession.objects.exists()


def test_switching_the_game_keeps_what_was_typed(client, instructor):
    client.force_login(instructor)
    r = client.post(reverse("web:session_new"), {
        "switch": "1", "schedule": "1", "scenario": "tears_of_tyranny", "previous_scenario": "peru",
        "title": "Week 5 exercise", "course_title": "Irregular Warfare", "seed": "12",
        "scheduled_start": "2026-12-01T09:00", "decision_timer_seconds": "90", "timer_expiry": "bot",
        "require_rationale": "on"})
    page = r.content.decode()
    assert r.status_code == 200 and not ClassSession.objects.exists()
    assert 'value="Week 5 exercise"' in page and 'value="Irregular Warfare"' in page
    assert 'value="12"' in page and 'value="90"' in page and 'value="2026-12-01T09:00"' in page
    assert re.search(r'<input type="checkbox" name="require_rationale"[^>]*checked', page)
    assert '<select name="opt_scenario"' in page  # the new game's options


def test_the_default_title_follows_the_game(client, instructor):
    import engine

    client.force_login(instructor)
    r = client.post(reverse("web:session_new"), {
        "schedule": "1", "scenario": "andean_abyss", "previous_scenario": "peru",
        "title": engine.load("peru").title, "course_title": "COIN 101"})
    page = r.content.decode()
    assert f'value="{engine.load("andean_abyss").title}"' in page
    # Enter pressed after changing the select (no "switch" button): a switch, never a schedule.
    assert not ClassSession.objects.exists()

