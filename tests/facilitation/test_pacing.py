"""Session length on the scheduling page, with the time model taken from logged sessions (#18)."""

import pytest
from django.urls import reverse

from engine.core.pace import TimeModel
from facilitation.models import SessionEvent
from facilitation.pacing import LONGEST_COUNTED_MS, time_model
from tests.conftest import create_peru_game


@pytest.mark.django_db
def test_time_model_is_the_default_until_sessions_are_logged(people):
    assert time_model("peru") == TimeModel()


@pytest.mark.django_db
def test_time_model_takes_the_median_of_logged_human_decisions(people):
    game = create_peru_game(people)
    ev = SessionEvent.objects.filter(session=game.session).order_by("seq").first()
    base = dict(session=game.session, seat=game.seat_a, payload={}, facts=[], metrics={}, created_at=ev.created_at,
                prev_hash="0" * 64, hash="0" * 64)
    seq = ev.seq + 100
    for ms in (10_000, 20_000, 30_000):
        seq += 1
        SessionEvent.objects.create(seq=seq, kind=SessionEvent.Kind.DECISION, actor=people.student_a,
                                    decision_ms=ms, **base)
    # Not thinking time: a bot's move, an absurdly long wait, a decision without a time.
    SessionEvent.objects.create(seq=seq + 1, kind=SessionEvent.Kind.BOT, decision_ms=1, **base)
    SessionEvent.objects.create(seq=seq + 2, kind=SessionEvent.Kind.DECISION, actor=people.student_a,
                                decision_ms=LONGEST_COUNTED_MS + 1, **base)
    SessionEvent.objects.create(seq=seq + 3, kind=SessionEvent.Kind.DECISION, actor=people.student_a, **base)
    m = time_model("peru")
    assert (m.observed_median, m.observed_decisions, m.source) == (20.0, 3, "logged sessions")
    assert time_model("andean_abyss").source == "default"


@pytest.mark.django_db
def test_schedule_page_fragment_shows_the_estimate(client, people):
    from facilitation import pacing
    from facilitation.web.views.instructor import PACE_GAMES

    pacing.played_games("peru", {}, PACE_GAMES)   # played ahead (pace_warm, or a worker: test_schedule_presets)
    client.force_login(people.instructor)
    url = reverse("web:session_pace")
    r = client.get(url, {"scenario": "peru"})
    assert r.status_code == 200
    assert "Expected length" in r.content.decode() and "minutes" in r.content.decode()
    assert client.get(url, {"scenario": "nope"}).status_code == 400
    assert client.get(url, {"scenario": "peru", "players": "9"}).status_code == 400
    assert client.get(url, {"scenario": "peru", "players": "x"}).status_code == 400
    page = client.get(reverse("web:session_new"), {"scenario": "peru"}).content.decode()
    assert url in page


@pytest.mark.django_db
def test_students_get_no_estimate(client, people):
    client.force_login(people.student_a)
    assert client.get(reverse("web:session_pace"), {"scenario": "peru"}).status_code == 403


def test_bot_games_behind_an_estimate_are_played_once_per_engine_version(monkeypatch):
    """``played_games`` keeps the bot games (they depend only on the rules, options and seeds):
    a second estimate replays none; a new engine version (rules fingerprint) plays them again."""
    from django.core.cache import cache

    import engine.core.pace as pace
    from facilitation import pacing

    cache.clear()
    calls = []
    real = pace.game_decisions

    def counting(rules, seed, options=None, bots=None, **kw):
        calls.append(seed)
        return real(rules, seed, options, bots, **kw)

    monkeypatch.setattr(pace, "game_decisions", counting)
    first = pacing.played_games("peru", {}, 2)
    assert calls == [1, 2] and len(first) == 2 and all(first)
    assert pacing.played_games("peru", {}, 2) == first and calls == [1, 2]
    monkeypatch.setattr("facilitation.eventlog.rules_fingerprint", lambda key: "another-engine")
    pacing.played_games("peru", {}, 2)
    assert calls == [1, 2, 1, 2]


def test_pace_warm_plays_every_estimate_of_a_game_and_refuses_unknown_games(monkeypatch):
    from django.core.management import CommandError, call_command

    from facilitation import pacing

    seen = []
    monkeypatch.setattr(pacing, "played_games", lambda key, options, games: seen.append((key, options, games)))
    call_command("pace_warm", "peru")
    import engine
    presets = engine.load("peru").presets()
    assert seen[0] == ("peru", {}, 6) and len(seen) == 1 + len(presets)
    assert [o for _k, o, _g in seen[1:]] == [dict(p.options) for p in presets]
    with pytest.raises(CommandError, match="unknown game"):
        call_command("pace_warm", "chess")
