"""Issue #7 on the platform: an Andean Abyss session with Non-player seats (1.5, section 8)
stores each Non-player decision as a ``bot`` event whose reason names the flowchart rule and
branch that fired, and the replay/AAR log of the session carries those events."""

from __future__ import annotations

import re

from facilitation import selectors
from facilitation.models import SessionEvent
from tests.aa_game import aa_session, human_moves

SECTION_8 = re.compile(r"(?<![\d.])8\.[1-9](\.\d+)?(?![\d])")
BRANCH = re.compile(r"\b(Rally|March|Attack|Terror|Train|Patrol|Sweep|Assault|Event|Pass)\b")


def test_8_nonplayer_seats_log_bot_events_whose_reason_names_the_branch(people):
    session = aa_session(people)
    for _ in range(12):
        if SessionEvent.objects.filter(session=session, kind="bot").count() >= 4:
            break
        human_moves(session, people, 5)
    bots = list(SessionEvent.objects.filter(session=session, kind="bot").order_by("seq"))
    assert len(bots) >= 4, "the Non-player AUC and Cartels seats have acted"
    for e in bots:
        assert e.seat in ("auc", "cartels") and e.payload["bot"] == "nonplayer"
        reason = e.payload["reason"]
        assert e.payload["choice"] == "np:act"
        assert reason.startswith(f"Non-player {'AUC' if e.seat == 'auc' else 'Cartels'}:"), reason
        assert SECTION_8.search(reason), reason                     # a section-8 rule number
        assert BRANCH.search(reason), reason                        # the branch, in words
        assert "section 8 Non-player flowchart" not in reason      # not the old generic text
    # the facts the engine stored with the event report the same branch as the reason
    for e in bots:
        np_facts = [f for f in e.facts or [] if f.get("type") == "np" and f.get("branch")
                    and f["branch"] != "random space"]
        if np_facts:
            assert f"{np_facts[0]['rule']} {np_facts[0]['branch']}" in e.payload["reason"]


def test_8_the_full_record_keeps_the_reason_and_the_replay_log_shows_the_branch(people):
    session = aa_session(people, seed=9)
    human_moves(session, people, 10)
    bots = list(SessionEvent.objects.filter(session=session, kind="bot").order_by("seq"))
    assert bots
    full = selectors.event_to_dict(bots[0], None)                  # instructor / AAR view
    assert full["payload"]["reason"] == bots[0].payload["reason"]
    # the replay / AAR log lists each event's facts, where the engine's ``np`` facts name the
    # same rule and branch
    texts = " ".join(str(f.get("text", "")) for f in bots[0].facts or [])      # messages, in English
    assert SECTION_8.search(texts)


def test_15_the_reason_is_also_logged_as_a_message_and_hidden_like_the_reason(people):
    """Issue 15: the bot event carries the reason as a message too (``reason_message``, shown in
    the viewer's language), reading in English exactly as ``reason``; a seat that may not read
    another seat's reason does not get the message either."""
    from engine.core.messages import is_msg, render
    session = aa_session(people, seed=9)
    human_moves(session, people, 10)
    bots = list(SessionEvent.objects.filter(session=session, kind="bot").order_by("seq"))
    assert bots
    for e in bots:
        assert is_msg(e.payload["reason_message"]) and render(e.payload["reason_message"]) == e.payload["reason"]
    other = selectors.event_to_dict(bots[0], "govt")
    assert "reason" not in other["payload"] and "reason_message" not in other["payload"]


def test_15_the_reports_bundle_gives_each_bot_reason_in_the_reports_language(people):
    """The after-action review shows the Non-players' section-8 reasons (issue 17.7) in the
    report's language: the bundle takes the reason from its message, rendered in Spanish for a
    Spanish report, and the section-8 rule number stays."""
    from django.utils import translation

    from facilitation.reports import selectors as report_selectors
    session = aa_session(people, seed=9)
    human_moves(session, people, 10)
    english = [e for e in SessionEvent.objects.filter(session=session, kind="bot").order_by("seq")]
    assert english
    last = SessionEvent.objects.filter(session=session).order_by("-seq").first().seq
    with translation.override("es"):
        bundle = report_selectors.report_bundle(session, last, with_snapshots=False, with_comparison=False)
    bots = [e for e in bundle["events"] if e["kind"] == "bot"]
    assert [e["seq"] for e in bots] == [e.seq for e in english]
    for e, orig in zip(bots, english, strict=True):
        reason = e["payload"]["reason"]
        assert "reason_message" not in e["payload"]
        assert reason != orig.payload["reason"], reason            # not the English text
        assert reason.startswith("No jugador"), reason
        assert SECTION_8.search(reason), reason
