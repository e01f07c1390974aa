"""The scheduling page offers the game's classroom length presets (issue #18 deliver 1-2) as a
form field built from ``rules.presets()``, each with its estimate from bot-played games."""

import pytest
from django.urls import reverse

import engine
from facilitation.models import ClassSession

pytestmark = pytest.mark.django_db

PERU_SEATS = {"seat_government_by": "team", "seat_government_team": "Blue",
              "seat_shining_path_by": "team", "seat_shining_path_team": "Red"}


def _post(client, **fields):
    data = {"schedule": "1", "scenario": "peru", "previous_scenario": "peru", "title": "Period 3",
            "course_title": "COIN 101", "seed": "4", "timer_expiry": "warn", "opt_deck": "", "opt_deck_top": "",
            "opt_script": "", **PERU_SEATS}
    data.update(fields)
    return client.post(reverse("web:session_new"), data)


@pytest.mark.parametrize("game", ["peru", "andean_abyss", "tears_of_tyranny"])
def test_each_preset_is_a_choice_with_its_estimate(client, instructor, game):
    client.force_login(instructor)
    page = client.get(reverse("web:session_new"), {"scenario": game}).content.decode()
    rules = engine.load(game)
    assert rules.presets()
    assert 'type="radio" name="preset" value=""' in page
    for p in rules.presets():
        assert f'type="radio" name="preset" value="{p.key}"' in page
        assert f"preset={p.key}" in page  # its estimate is fetched with it


def test_the_preset_estimate_fragment(client, instructor, monkeypatch, django_capture_on_commit_callbacks):
    """The bot games behind an estimate are never played in a request (docs/pacing.md): the
    first answer is a 202 that asks again; a worker plays them (here: the task run in this
    process); the next answer is the estimate."""
    from django.core.cache import cache

    import engine.core.pace as pace
    from facilitation import tasks
    from facilitation.web.views.instructor import PACE_GAMES

    cache.clear()
    client.force_login(instructor)
    queued = []
    monkeypatch.setattr(tasks.pace_games, "apply_async", lambda args, kwargs, retry: queued.append(args))
    real = pace.game_decisions
    monkeypatch.setattr(pace, "game_decisions", lambda *a, **k: pytest.fail("bot games played in a request"))
    q = {"scenario": "peru", "preset": "class_50"}
    with django_capture_on_commit_callbacks(execute=True):   # the task is sent when the request commits
        r = client.get(reverse("web:session_pace"), q)
        assert r.status_code == 202
        page = r.content.decode()
        assert 'id="pace-class_50"' in page and 'hx-trigger="load delay:3s"' in page and "minutes" not in page
        assert client.get(reverse("web:session_pace"), q).status_code == 202
    assert len(queued) == 1, "the games are queued once, not at every poll"
    (key, options, games), = queued
    assert (key, games) == ("peru", PACE_GAMES) and options == dict(engine.load("peru").preset("class_50").options)
    monkeypatch.setattr(pace, "game_decisions", real)
    tasks.pace_games.apply(args=queued[0])   # what a worker does
    monkeypatch.setattr(pace, "game_decisions", lambda *a, **k: pytest.fail("bot games played in a request"))
    r = client.get(reverse("web:session_pace"), q)
    assert r.status_code == 200
    page = r.content.decode()
    assert 'id="pace-class_50"' in page and "Estimate for this preset" in page and "minutes" in page
    assert "hx-trigger" not in page
    assert client.get(reverse("web:session_pace"), {"scenario": "peru", "preset": "nope"}).status_code == 400


def test_scheduling_with_a_preset_sets_its_options(client, instructor):
    client.force_login(instructor)
    r = _post(client, preset="class_50", opt_campaigns="3")
    assert r.status_code == 302, r.content.decode()[:2000]
    assert ClassSession.objects.get().options == engine.load("peru").preset("class_50").options


def test_without_a_preset_the_option_fields_count(client, instructor):
    client.force_login(instructor)
    r = _post(client, preset="", opt_campaigns="2")
    assert r.status_code == 302, r.content.decode()[:2000]
    assert ClassSession.objects.get().options == {"campaigns": 2}


def test_an_unknown_preset_is_refused_and_nothing_is_scheduled(client, instructor):
    client.force_login(instructor)
    r = _post(client, preset="class_500")
    assert r.status_code == 200 and "Select a valid choice" in r.content.decode()
    assert not ClassSession.objects.exists()
