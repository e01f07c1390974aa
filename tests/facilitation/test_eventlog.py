"""The event log on a real Peru game: hash chain, tamper detection, undo rules,
idempotency, snapshots, bots and facilitator events."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from engine.core.messages import render
from facilitation import eventlog, selectors, services
from facilitation.errors import Conflict, NotAllowed, ValidationFailed
from facilitation.models import ClassSession, Seat, SessionEvent, StateSnapshot, SubmissionKey
from tests.conftest import create_peru_game


def _move(game, *, seat=None, key="", pick="middle"):
    game.session.refresh_from_db()
    rules, state = selectors.session_state(game.session)
    p = rules.prompt(state)
    seat = seat or p.seats[0]
    cs = p.choices_for(seat)
    c = cs[len(cs) // 2] if pick == "middle" else cs[pick]
    out = services.choice_submit(session=game.session, user=game.owner(seat), seat=seat, choice=c.id,
                                 seq=game.session.head_seq, idempotency_key=key)
    game.session.refresh_from_db()
    return out, p, c


def _prompt(game):
    game.session.refresh_from_db()
    rules, state = selectors.session_state(game.session)
    return rules.prompt(state)


def _verify_cmd(session_id) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_session", str(session_id), stdout=out)
        return 0, out.getvalue()
    except SystemExit as exc:
        return int(exc.code), out.getvalue()


def _played(people, n=12, **kw):
    game = create_peru_game(people, seed=7, snapshot_every=5, **kw)
    for _ in range(n):
        _move(game)
    return game


# ---- the chain ------------------------------------------------------------------------


def test_seq_is_gap_free_and_every_row_chains_to_the_previous(people):
    game = _played(people, 15)
    events = list(SessionEvent.objects.filter(session=game.session).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    prev = eventlog.GENESIS_HASH
    for e in events:
        assert e.prev_hash == prev and e.hash == eventlog.row_hash(e)
        prev = e.hash
    assert game.session.head_hash == prev and game.session.head_seq == events[-1].seq
    decisions = [e for e in events if e.kind == "decision"]
    assert decisions and all(e.actor_id and e.payload["choice"] and e.payload["label"] and e.payload["prompt"]
                             and e.metrics and e.decision_ms is not None for e in decisions)
    assert any(f.get("barrier") for e in events for f in e.facts), "the card draws are logged as facts"


def test_rows_cannot_be_changed_through_the_model(people):
    game = _played(people, 2)
    ev = SessionEvent.objects.filter(session=game.session).last()
    ev.rationale = "rewritten"
    with pytest.raises(RuntimeError):
        ev.save()
    with pytest.raises(RuntimeError):
        ev.delete()


def test_verify_session_passes_on_an_honest_log(people):
    game = _played(people, 20)
    code, out = _verify_cmd(game.session.pk)
    assert code == 0 and "OK" in out, out


def test_a_session_records_the_rules_version_it_was_played_under(people):
    game = _played(people, 3)
    assert game.session.rules_version == eventlog.rules_fingerprint("peru")
    assert len(game.session.rules_version) == 16
    assert eventlog.rules_fingerprint("andean_abyss") != game.session.rules_version
    code, out = _verify_cmd(game.session.pk)
    assert code == 0 and "note:" not in out, out


def test_verify_names_a_rules_version_change(people):
    game = _played(people, 3)
    ClassSession.objects.filter(pk=game.session.pk).update(rules_version="0123456789abcdef")
    code, out = _verify_cmd(game.session.pk)
    assert "recorded under rules version 0123456789abcdef" in out, out


def _as_recorded_by_older_rules(session) -> int:
    """Rewrite the log as an older engine would have recorded it (other fact texts), with every
    hash and the chain head recomputed: an intact log whose replay differs today."""
    events = list(SessionEvent.objects.filter(session=session).order_by("seq"))
    prev = eventlog.GENESIS_HASH
    changed = 0
    for e in events:
        if e.facts:
            e.facts = [dict(f, text="an older engine's words") for f in e.facts]
            changed += 1
        e.prev_hash = prev
        e.hash = eventlog.row_hash(e)
        SessionEvent.objects.filter(pk=e.pk).update(facts=e.facts, prev_hash=e.prev_hash, hash=e.hash)
        prev = e.hash
    ClassSession.objects.filter(pk=session.pk).update(head_hash=prev)
    return changed


def test_verify_says_the_rules_version_changed_rather_than_claiming_tampering(people):
    """Issue 13 (Keep): a log recorded before contract v2 replays to other facts; verify_session
    names the rules version change (exit 2), not an altered log (exit 1)."""
    game = _played(people, 6)
    assert _as_recorded_by_older_rules(game.session)
    ClassSession.objects.filter(pk=game.session.pk).update(rules_version="0123456789abcdef")
    code, out = _verify_cmd(game.session.pk)
    assert code == 2, out
    assert "RULES VERSION CHANGED (recorded under 0123456789abcdef" in out and "not evidence of tampering" in out
    assert "FAILED" not in out and "stored facts differ from the replayed facts" in out


def test_verify_still_fails_the_same_rewrite_under_the_same_rules(people):
    game = _played(people, 6)
    assert _as_recorded_by_older_rules(game.session)
    code, out = _verify_cmd(game.session.pk)
    assert code == 1 and "FAILED" in out and "RULES VERSION CHANGED" not in out, out


def test_verify_detects_an_edited_row(people):
    game = _played(people, 12)
    target = SessionEvent.objects.filter(session=game.session, kind="decision").order_by("seq")[3]
    payload = dict(target.payload, label="Something else entirely")
    SessionEvent.objects.filter(pk=target.pk).update(payload=payload)  # as a direct SQL edit would
    code, out = _verify_cmd(game.session.pk)
    assert code == 1
    assert f"event {target.seq}: content does not match its hash" in out


def test_verify_detects_a_rewritten_chain(people):
    """An attacker who changes a decision's rationale and recomputes every hash after it is caught
    by the chain head stored on the session; one who also changes the facts is caught by replay."""
    game = _played(people, 12)
    events = list(SessionEvent.objects.filter(session=game.session).order_by("seq"))
    k = next(i for i, e in enumerate(events) if e.kind == "decision" and e.facts)
    prev = events[k - 1].hash if k else eventlog.GENESIS_HASH
    for i, e in enumerate(events[k:], start=k):
        if i == k:
            e.facts = [dict(e.facts[0], text="Nothing happened.")] + e.facts[1:]
        e.prev_hash = prev
        e.hash = eventlog.row_hash(e)
        SessionEvent.objects.filter(pk=e.pk).update(facts=e.facts, prev_hash=e.prev_hash, hash=e.hash)
        prev = e.hash
    code, out = _verify_cmd(game.session.pk)
    assert code == 1
    assert "session head seq/hash do not match" in out
    assert f"event {events[k].seq}: stored facts differ from the replayed facts" in out


def test_verify_detects_a_tampered_cache_and_snapshot(people):
    game = _played(people, 12)
    state = dict(game.session.state)
    ClassSession.objects.filter(pk=game.session.pk).update(state={**state, "pw": 99})
    code, out = _verify_cmd(game.session.pk)
    assert code == 1 and "cached session state differs" in out
    ClassSession.objects.filter(pk=game.session.pk).update(state=state)
    snap = StateSnapshot.objects.filter(session=game.session).first()
    assert snap is not None
    StateSnapshot.objects.filter(pk=snap.pk).update(state={**snap.state, "pw": 0})
    code, out = _verify_cmd(game.session.pk)
    assert code == 1 and f"snapshot at {snap.seq} differs" in out


def test_verify_detects_a_deleted_row(people):
    game = _played(people, 8)
    victim = SessionEvent.objects.filter(session=game.session).order_by("seq")[4]
    SessionEvent.objects.filter(pk=victim.pk)._raw_delete(SessionEvent.objects.db)
    code, out = _verify_cmd(game.session.pk)
    assert code == 1 and "seq gap" in out


def test_loading_from_snapshots_equals_replaying_from_the_seed(people):
    game = _played(people, 23)
    rules = eventlog.rules_for(game.session)
    assert StateSnapshot.objects.filter(session=game.session).count() >= 4
    for seq in range(1, game.session.head_seq + 1):
        via_snapshot = rules.dumps(eventlog.load_state(game.session, seq, rules))
        # replay the parent path from the seed without snapshots
        parents = dict(SessionEvent.objects.filter(session=game.session).values_list("seq", "parent_seq"))
        path, cur = [], seq
        while cur:
            path.append(cur)
            cur = parents[cur]
        state = eventlog.initial_state(rules, game.session)
        for s in reversed(path):
            e = SessionEvent.objects.get(session=game.session, seq=s)
            eventlog.transition(rules, state, e.kind, e.seat, e.payload)
        assert via_snapshot == rules.dumps(state), seq


# ---- idempotency --------------------------------------------------------------------------


def test_a_repeated_idempotency_key_returns_the_first_answer_and_applies_nothing(people):
    game = create_peru_game(people, seed=7)
    first, p, c = _move(game, key="click-1")
    n = SessionEvent.objects.count()
    again = services.choice_submit(session=game.session, user=game.owner(p.seats[0]), seat=p.seats[0],
                                   choice=c.id, seq=first["seq"] - len(first["events"]), idempotency_key="click-1")
    assert again == {**first, "replayed": True}
    assert SessionEvent.objects.count() == n and SubmissionKey.objects.count() == 1
    with pytest.raises(Conflict) as exc:
        services.choice_submit(session=game.session, user=game.owner(p.seats[0]), seat=p.seats[0],
                               choice="something-else", seq=0, idempotency_key="click-1")
    assert exc.value.code == "idempotency_key_reused"
    assert SessionEvent.objects.count() == n


# ---- undo ------------------------------------------------------------------------------------


def test_undo_within_own_turn_restores_the_state_and_logs_it(people, api_for):
    game = create_peru_game(people, seed=7)
    _move(game)  # Shining Path hides the Directives Base (barrier: a card is revealed too)
    before_view = selectors.seat_prompt(game.session, "shining_path")
    _move(game)  # Shining Path picks a box on the Initiative Track (no randomness)
    sp = "student_a" if game.seat_a == "shining_path" else "student_b"
    r = api_for(sp).post(f"/api/sessions/{game.session.pk}/seats/shining_path/undo/",
                         {"seq": ClassSession.objects.get(pk=game.session.pk).head_seq}, format="json")
    assert r.status_code == 200, r.content
    game.session.refresh_from_db()
    undo = SessionEvent.objects.get(session=game.session, seq=game.session.head_seq)
    assert undo.kind == "undo" and undo.payload["undone_seq"] == r.json()["undone"]
    after = selectors.seat_prompt(game.session, "shining_path")
    assert after["view"] == before_view["view"] and after["prompt"] == before_view["prompt"]
    # The undone decision stays in the log, and the replay agrees with the cache.
    assert SessionEvent.objects.filter(session=game.session, kind="decision").count() == 2
    assert eventlog.verify(game.session).ok
    # The swap revealed a card: undo stops there.
    r = api_for(sp).post(f"/api/sessions/{game.session.pk}/seats/shining_path/undo/",
                         {"seq": game.session.head_seq}, format="json")
    assert r.status_code == 409 and r.json()["error"] == "nothing_to_undo"


def test_undo_is_refused_outside_ones_own_turn(people):
    game = create_peru_game(people, seed=7)
    for _ in range(6):  # Shining Path's whole turn (see the Peru sequence): Government is next
        _move(game)
    p = _prompt(game)
    assert p.seats[0] == "government"
    with pytest.raises(Conflict) as exc:
        services.choice_undo(session=game.session, user=game.owner("shining_path"), seat="shining_path",
                             seq=game.session.head_seq)
    assert exc.value.code == "not_your_turn"
    with pytest.raises(Conflict) as exc:
        services.choice_undo(session=game.session, user=game.owner("government"), seat="government",
                             seq=game.session.head_seq)
    assert exc.value.code == "nothing_to_undo"
    with pytest.raises(NotAllowed):
        services.choice_undo(session=game.session, user=game.owner("shining_path"), seat="government",
                             seq=game.session.head_seq)


def test_several_undos_then_new_decisions_replay_exactly(people):
    game = create_peru_game(people, seed=7, snapshot_every=3)
    for _ in range(10):
        _move(game)
    undone = 0
    while True:
        p = _prompt(game)
        try:
            services.choice_undo(session=game.session, user=game.owner(p.seats[0]), seat=p.seats[0],
                                 seq=game.session.head_seq)
            undone += 1
        except Conflict:
            break
        game.session.refresh_from_db()
    assert undone >= 2
    for _ in range(6):
        _move(game, pick=0)
    rep = eventlog.verify(game.session)
    assert rep.ok, rep.errors
    assert _verify_cmd(game.session.pk)[0] == 0


# ---- bots and the facilitator -------------------------------------------------------------------


def test_bot_seats_play_next_and_log_their_reason(people):
    game = create_peru_game(people, seed=3, start=False)
    Seat.objects.filter(session=game.session, seat_key="shining_path").update(team=None, bot_kind="heuristic")
    services.session_start(session=game.session, user=people.instructor)
    game.session.refresh_from_db()
    bots = SessionEvent.objects.filter(session=game.session, kind="bot")
    assert bots.exists(), "Shining Path opens the game: the bot has played"
    assert all(e.seat == "shining_path" and e.actor_id is None and e.payload["bot"] == "heuristic"
               and e.payload["reason"] for e in bots)
    assert _prompt(game).seats[0] == "government"
    out, _p, _c = _move(game, seat="government")
    assert out["events"][0] < out["seq"] or _prompt(game).seats[0] == "government"
    assert eventlog.verify(game.session).ok


def test_facilitator_pause_note_override_and_end_are_logged(people):
    game = _played(people, 8)
    inst = people.instructor
    services.session_pause(session=game.session, user=inst, reason="questions")
    services.facilitator_note(session=game.session, user=inst, text="Team A forgot the Hunt track.")
    services.session_resume(session=game.session, user=inst)
    game.session.refresh_from_db()
    last_decision = SessionEvent.objects.filter(session=game.session, kind="decision").order_by("-seq").first()
    before = eventlog.load_state(game.session, last_decision.parent_seq)
    with pytest.raises(ValidationFailed):
        services.facilitator_override(session=game.session, user=inst, action="undo_last", reason="")
    ev = services.facilitator_override(session=game.session, user=inst, action="undo_last",
                                       reason="Misread the card; replay the move.")
    game.session.refresh_from_db()
    rules = eventlog.rules_for(game.session)
    assert ev.kind == "facilitator" and ev.payload["undone_seq"] == last_decision.seq
    assert rules.dumps(eventlog.load_state(game.session, game.session.head_seq)) == rules.dumps(before)
    services.session_end(session=game.session, user=inst, reason="end of class")
    game.session.refresh_from_db()
    kinds = [(e.kind, e.payload.get("action")) for e in SessionEvent.objects.filter(session=game.session)
             .exclude(kind__in=["decision", "bot"]).order_by("seq")]
    assert kinds == [("system", "start"), ("facilitator", "pause"), ("facilitator", "note"),
                     ("facilitator", "resume"), ("facilitator", "undo_last"), ("facilitator", "end")]
    assert game.session.status == "finished"
    assert _verify_cmd(game.session.pk)[0] == 0


def test_a_whole_bot_game_finishes_and_verifies(people):
    game = create_peru_game(people, seed=13, start=False)
    Seat.objects.filter(session=game.session).update(team=None, bot_kind="heuristic")
    services.session_start(session=game.session, user=people.instructor)
    game.session.refresh_from_db()
    assert game.session.status == "finished" and game.session.result["winner"]
    last = SessionEvent.objects.filter(session=game.session).order_by("-seq").first()
    assert last.kind == "system" and last.payload["action"] == "game_over"
    assert eventlog.verify(game.session).ok


def test_an_expired_decision_timer_lets_the_seats_bot_decide_once(people):
    import datetime as dt

    game = create_peru_game(people, seed=7, decision_timer_seconds=60)
    p = _prompt(game)
    seat = p.seats[0]
    assert services.seat_timeout_decide(session=game.session, seat=seat) == [], "the timer has not run out"
    SessionEvent.objects.filter(session=game.session, seq=game.session.head_seq).update(
        created_at=game.session.started_at - dt.timedelta(minutes=5))
    head = game.session.head_seq
    other = game.seat_b if seat == game.seat_a else game.seat_a
    assert services.seat_timeout_decide(session=game.session, seat=other) == [], "not the other seat's turn"
    assert services.seat_timeout_decide(session=game.session, seat=seat, expected_seq=head - 1) == []
    seqs = services.seat_timeout_decide(session=game.session, seat=seat, expected_seq=head)
    assert seqs == [head + 1]
    ev = SessionEvent.objects.get(session=game.session, seq=head + 1)
    assert ev.kind == "bot" and ev.seat == seat and ev.payload["timeout"] and "timer" in ev.payload["reason"]
    # a second poll right after finds a fresh deadline: nothing more happens
    assert services.seat_timeout_decide(session=game.session, seat=seat) == []
    # the verification replays the timed-out decision like any other (the hash covers the edited time)
    game.session.refresh_from_db()
    assert eventlog.verify(game.session).errors == [f"event {head}: content does not match its hash (row altered)"]


def test_facilitator_adjusts_a_peru_track_logged_replayed_and_verified(people):
    game = _played(people, 6)
    inst = people.instructor
    with pytest.raises(ValidationFailed):
        services.facilitator_override(session=game.session, user=inst, action="adjust", reason="",
                                      track="political_will", value=12)
    head = game.session.head_seq
    with pytest.raises(ValidationFailed) as exc:
        services.facilitator_override(session=game.session, user=inst, action="adjust", reason="ruling",
                                      track="political_will", value=21)
    assert "0-20" in str(exc.value)
    game.session.refresh_from_db()
    assert game.session.head_seq == head
    ev = services.facilitator_override(session=game.session, user=inst, action="adjust",
                                       reason="Missed the P18 shift last turn.", track="political_will", value=12)
    game.session.refresh_from_db()
    assert ev.kind == "facilitator" and ev.payload == {"action": "adjust", "reason": "Missed the P18 shift last turn.",
                                                       "track": "political_will", "value": 12}
    assert any(f.get("track") == "political_will" and f.get("value") == 12
               and f["cause"]["kind"] == "facilitator" and render(f.get("why")) == "facilitator override"
               for f in ev.facts)
    assert any("Missed the P18 shift last turn." in f["text"] for f in ev.facts)
    assert ev.metrics["political_will"] == 12
    rules = eventlog.rules_for(game.session)
    state = eventlog.load_state(game.session, game.session.head_seq)
    assert state["pw"] == 12
    services.facilitator_override(session=game.session, user=inst, action="adjust", reason="Hunt roll misread.",
                                  track="hunt_track", value=2)
    game.session.refresh_from_db()
    state = eventlog.load_state(game.session, game.session.head_seq)
    assert state["hunt"] == 2 and state["pw"] == 12
    assert rules.prompt(state) is not None
    _move(game)
    game.session.refresh_from_db()
    assert eventlog.load_state(game.session, game.session.head_seq)["hunt"] == 2


def test_a_peru_log_with_an_adjustment_verifies(people):
    """verify() replays the adjustment and compares the stored facts with the replayed ones."""
    game = _played(people, 6)
    services.facilitator_override(session=game.session, user=people.instructor, action="adjust",
                                  reason="Resources miscounted.", track="government_resources", value=9)
    _move(game)
    game.session.refresh_from_db()
    assert eventlog.load_state(game.session, game.session.head_seq)["res"]["government"] == 9
    assert eventlog.verify(game.session).ok
    assert _verify_cmd(game.session.pk)[0] == 0
