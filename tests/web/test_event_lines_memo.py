"""The log's lines kept per process (``regions.LINES``, issue 20): a region drawn again renders
only its new events' lines; a line is given back only to the seat it was redacted for, and only
for the same event (its seq and its time of logging)."""

from __future__ import annotations

import pytest
from django.utils import translation

from facilitation.rendering import regions

TITLES = {"red": {"id": "red", "title": "Red", "fi": 0}, "blue": {"id": "blue", "title": "Blue", "fi": 1}}
AT = "2026-11-29T10:00:00+00:00"


def event(seq: int, payload: dict, at: str = AT, rationale: str = "") -> dict:
    return {"seq": seq, "parent_seq": seq - 1, "kind": "decision", "seat": "red", "actor": "ana",
            "payload": payload, "facts": [{"type": "play", "text": f"Fact {seq}."}], "rationale": rationale,
            "decision_ms": 900, "created_at": at}


@pytest.fixture(autouse=True)
def _empty_memo():
    regions.LINES.clear()
    yield
    regions.LINES.clear()


def test_lines_kept_are_the_lines_drawn_and_only_new_events_are_drawn_again():
    memo = (7, "red", "toy", "en")
    log = [event(1, {"label": "Recruit"}, rationale="Hold the hills"), event(2, {"label": "Rally"})]
    with translation.override("en"):
        first = regions.event_lines(log, TITLES, memo)
        assert first == regions.event_lines(log, TITLES)  # the same lines as drawn without the memo
        again = regions.event_lines([*log, event(3, {"label": "Attack"})], TITLES, memo)
    assert again[0] is first[0] and again[1] is first[1]  # kept, not drawn again
    assert again[2]["head"] == "Red: Attack" and len(regions.LINES) == 3


def test_a_line_goes_only_to_the_seat_it_was_drawn_for():
    own = event(4, {"label": "Keep Monsoon Floods", "secret": True}, rationale="Save it for turn 3")
    redacted = event(4, {"secret": True, "prompt_kind": "keep", "rule": ""})  # what Blue may read of it
    with translation.override("en"):
        [red] = regions.event_lines([own], TITLES, (7, "red", "toy", "en"))
        [blue] = regions.event_lines([redacted], TITLES, (7, "blue", "toy", "en"))
    assert "Monsoon Floods" in red["head"] and red["rationale"] == "Save it for turn 3"
    assert blue["head"] == "Red made a secret decision." and blue["rationale"] == ""


def test_an_event_of_the_same_seq_logged_at_another_time_is_drawn_anew():
    memo = (7, "red", "toy", "en")
    with translation.override("en"):
        [old] = regions.event_lines([event(5, {"label": "Rally"})], TITLES, memo)
        [new] = regions.event_lines([event(5, {"label": "Terror"}, at="2026-11-30T08:00:00+00:00")], TITLES, memo)
    assert old["head"] == "Red: Rally" and new["head"] == "Red: Terror"


def test_the_kept_lines_are_bounded(monkeypatch):
    monkeypatch.setattr(regions, "LINES_MAX", 40)
    with translation.override("en"):
        for seq in range(1, 101):
            regions.event_lines([event(seq, {"label": "Rally"})], TITLES, (7, "red", "toy", "en"))
    assert 30 <= len(regions.LINES) <= 40
    assert (7, "red", "toy", "en", 100, AT) in regions.LINES  # the newest are kept, the oldest forgotten
    assert (7, "red", "toy", "en", 1, AT) not in regions.LINES
