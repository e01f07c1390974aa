"""The demo course (``coinlab demo``, loaded by ``./scripts/run``): every game gets a live
session with student teams, a finished bot game and a scheduled one; Tears of Tyranny's
live session seats four student teams so four people can play it at once."""

from __future__ import annotations

import pytest

from facilitation import demo, eventlog
from facilitation.models import ClassSession, Course, Seat


@pytest.fixture
def no_reports(monkeypatch):
    # The AAR build (Plotly, WeasyPrint) is tested in tests/reports and by test_embedded; here
    # only the sessions matter, so the finished sessions are collected instead of built.
    built = []
    monkeypatch.setattr(demo, "build_demo_reports", lambda sessions: built.extend(sessions) or [])
    return built


def _check_tot_four_teams(game: dict, finished_handed: list) -> None:
    """Tears of Tyranny's live session seats four student teams; its finished game was played to its
    end by bots and handed to the report hook; both logs replay from their seeds."""
    live = game["live"]
    assert live.status == ClassSession.Status.LIVE
    seats = {s.seat_key: s for s in Seat.objects.filter(session=live).select_related("team")}
    assert sorted(seats) == ["advisors", "comrades", "liberators", "partisans"]
    members = {k: sorted(u.username for u in s.team.members.all()) for k, s in seats.items() if s.team}
    assert members == {"liberators": ["alice"], "advisors": ["bob"], "partisans": ["carol"], "comrades": ["dave"]}
    assert all(not s.bot_kind for s in seats.values())
    assert game["finished"].status == ClassSession.Status.FINISHED
    assert game["finished"] in finished_handed
    # Both logs replay from their seeds to the cached states, hash chain intact.
    for session in (live, game["finished"]):
        report = eventlog.verify(session)
        assert report.ok, report.errors
        assert report.events == session.head_seq > 0


# One load of every game serves both the checks of every game and Tears of Tyranny's four teams:
# the demo's finished games are played to their end by bots, Tears of Tyranny's the costliest
# (loading it once more for a test of its own doubled the time of this file).
def test_demo_covers_every_game_seats_four_teams_on_tears_of_tyranny_and_is_idempotent(db, no_reports):
    first = demo.demo_load()
    assert [g["scenario"] for g in first["games"]] == ["peru", "andean_abyss", "tears_of_tyranny"]
    assert no_reports == [g["finished"] for g in first["games"]], "every finished game handed to the report hook"
    aa = next(g for g in first["games"] if g["scenario"] == "andean_abyss")
    aa_seats = {s.seat_key: s for s in Seat.objects.filter(session=aa["live"])}
    assert aa_seats["govt"].team is not None and aa_seats["farc"].team is not None
    assert aa_seats["auc"].bot_kind == "nonplayer" and aa_seats["cartels"].bot_kind == "nonplayer"
    _check_tot_four_teams(first["games"][2], no_reports)
    n_sessions = ClassSession.objects.count()
    assert n_sessions == 9
    again = demo.demo_load()
    assert ClassSession.objects.count() == n_sessions
    assert Course.objects.count() == 1
    assert [g["live"].pk for g in again["games"]] == [g["live"].pk for g in first["games"]]
    text = demo.demo_summary(again)
    for name in ("alice", "bob", "carol", "dave", "Tears of Tyranny: live demo"):
        assert name in text


def test_demo_loads_one_game_alone(db, no_reports):
    data = demo.demo_load(scenarios=("peru",))
    assert [g["scenario"] for g in data["games"]] == ["peru"]
    assert ClassSession.objects.count() == 3
    assert no_reports == [data["games"][0]["finished"]]


def test_demo_rejects_an_unknown_game_before_writing(db, no_reports):
    with pytest.raises(Exception, match="nosuchgame"):
        demo.demo_load(scenarios=("peru", "nosuchgame"))
    assert ClassSession.objects.count() == 0
