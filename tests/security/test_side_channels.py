"""Issue 14, second security pass: no side channel to the other side's secrets.

Item 1: ETags say only that something changed (keyed with the server's secret, never a hash
over the log's head hash, which covers hidden payloads).
Item 2: an undo (a student's, or the facilitator's ``undo_last``) of a secret decision is as
secret as what it undoes.
Item 3: session seeds are 128 random bits kept on the server; bots do not expose them.
"""

from __future__ import annotations

import hashlib

from django.test import override_settings

from facilitation import selectors, services
from facilitation.api.views import _tag
from facilitation.rendering.regions import etag_of as _etag_of


def test_api_etag_does_not_depend_on_the_hidden_head_hash(peru_session):
    """Two sessions alike in everything a student can see but the (secret-covering) head hash
    answer the same ETag; and today's formula, a plain hash of guessable values, is not it."""
    sess = peru_session.session
    tag = _tag(sess, peru_session.seat_a, 0)
    sess.head_hash = hashlib.sha256(b"another secret move").hexdigest()
    assert _tag(sess, peru_session.seat_a, 0) == tag
    raw = f"{sess.pk}:{peru_session.seat_a}:0:{sess.head_seq}:{sess.status}:{sess.updated_at.isoformat()}"
    assert tag != hashlib.sha256(raw.encode()).hexdigest()[:32]


def test_etags_are_keyed_with_the_server_secret(peru_session):
    """Without the server's key nobody can compute an ETag offline (API and play page alike)."""
    sess = peru_session.session
    api = _tag(sess, peru_session.seat_a, 0)
    page = _etag_of(sess.pk, sess.head_seq, sess.status, peru_session.seat_a, sess.updated_at.isoformat())
    with override_settings(SECRET_KEY="another-server-key-" + "x" * 40):
        assert _tag(sess, peru_session.seat_a, 0) != api
        assert _etag_of(sess.pk, sess.head_seq, sess.status, peru_session.seat_a,
                        sess.updated_at.isoformat()) != page


# ---- item 2: an undo is as secret as what it undoes ---------------------------------------------


def _first_secret_decision_undone(game) -> tuple[str, str]:
    """Tears of Tyranny: a seat keeps its cards in secret (a secret pick); play the first
    choices until a seat has made a secret one, and let that seat take it back."""
    s = game.session
    for _ in range(80):
        s.refresh_from_db()
        rules, state = selectors.session_state(s)
        p = rules.prompt(state)
        seat = p.seats[0]
        choice = p.choices_for(seat)[0]
        out = services.choice_submit(session=s, user=game.users[seat], seat=seat, choice=choice.id, seq=s.head_seq)
        decided = s.events.get(seq=out["events"][0])
        if decided.payload.get("secret"):
            s.refresh_from_db()
            services.choice_undo(session=s, user=game.users[seat], seat=seat, seq=s.head_seq)
            return seat, choice.label
    raise AssertionError("no secret decision in 80 moves")


def _texts(obj) -> str:
    """``obj`` as JSON text with sorted keys, so that a message (a dict) is found inside a stored
    payload whatever order PostgreSQL's jsonb gave its keys."""
    import json

    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


def test_a_students_undo_of_a_secret_decision_stays_secret(tot_four):
    seat, label = _first_secret_decision_undone(tot_four)
    sess = tot_four.session
    sess.refresh_from_db()
    undo = selectors.session_events(sess, seat_key=None, after=sess.head_seq - 1)[-1]
    assert undo["kind"] == "undo" and _names(_texts(undo), label), "the full record keeps what was taken back"
    assert _names(_texts(selectors.session_events(sess, seat_key=seat, after=sess.head_seq - 1)), label)
    for other in set(tot_four.users) - {seat}:
        seen = selectors.session_events(sess, seat_key=other, after=sess.head_seq - 1)
        assert seen and seen[-1]["kind"] == "undo", "every seat learns that a decision was taken back"
        assert not _names(_texts(seen), label), f"{other} reads the secret choice in the undo"
        assert undo["payload"]["choice"] not in _texts(seen[-1]["payload"])
        lines = selectors.seat_logs(sess, [other], after=sess.head_seq - 1)[other]
        assert not _names(_texts(lines), label)


def test_the_facilitators_undo_of_a_secret_decision_stays_secret(people, api_for):
    """Peru opens with Shining Path's secret placement of the Directives Base (rules 1.4.4,
    6.5.3); the facilitator's ``undo_last`` must not tell the Government where it went."""
    from tests.conftest import create_peru_game

    game = create_peru_game(people, seed=21)
    prompt = selectors.seat_prompt(game.session, "shining_path")["prompt"]
    assert prompt["kind"] == "swap"
    choice = prompt["choices"][1]
    services.choice_submit(session=game.session, user=game.owner("shining_path"), seat="shining_path",
                           choice=choice["id"], seq=game.session.head_seq)
    game.session.refresh_from_db()
    ev = services.facilitator_override(session=game.session, user=people.instructor, action="undo_last",
                                       reason="Misclick")
    role = {game.seat_a: "student_a", game.seat_b: "student_b"}
    gov = api_for(role["government"])
    seen = gov.get(f"/api/sessions/{game.session.pk}/seats/government/events/?after={ev.seq - 1}").json()
    assert seen["events"] and seen["events"][0]["seq"] == ev.seq
    assert seen["events"][0]["payload"].get("action") == "undo_last"
    blob = _texts(seen)
    assert not _names(blob, choice["label"]) and choice["id"] not in blob
    full = api_for("instructor").get(f"/api/sessions/{game.session.pk}/events/?after={ev.seq - 1}").json()
    assert _names(_texts(full), choice["label"]), "the instructor's full record names it"
    own = api_for(role["shining_path"]).get(
        f"/api/sessions/{game.session.pk}/seats/shining_path/events/?after={ev.seq - 1}").json()
    assert _names(_texts(own), choice["label"]), "Shining Path reads its own move taken back"


def _label_text(label) -> str:
    """A choice's label as English text (labels are messages: engine.core.messages)."""
    from engine.core.messages import render

    return render(label)


def _names(blob: str, label) -> bool:
    """Whether ``blob`` (JSON text) carries ``label``: as English text or as its message."""
    return _label_text(label) in blob or (isinstance(label, dict) and _texts(label) in blob)


# ---- item 3: seeds --------------------------------------------------------------------------------


def test_a_new_session_gets_128_secret_bits_that_no_answer_carries(people, api_for):
    from facilitation.models import ClassSession
    from tests.conftest import create_peru_game

    games = [create_peru_game(people, seed=None, title="same title") for _ in range(2)]
    secrets_ = [g.session.secret_seed for g in games]
    for g in games:
        assert len(g.session.secret_seed) == 32 and int(g.session.secret_seed, 16) >= 0  # 128 bits, hex
        assert g.session.seed is None
    assert secrets_[0] != secrets_[1]
    sid = games[0].session.pk
    for role in ("instructor", "reviewer", "student_a", "student_b"):
        client = api_for(role)
        for url in (f"/api/sessions/{sid}/", f"/api/sessions/{sid}/seats/government/prompt/",
                    f"/api/sessions/{sid}/events/"):
            body = client.get(url).content.decode()
            assert secrets_[0] not in body and str(int(secrets_[0], 16)) not in body, (role, url)
    # the game replays from its secret seed (verify_session)
    from facilitation import eventlog
    from tests.conftest import play_moves

    play_moves(games[0], 6)
    assert eventlog.verify(ClassSession.objects.get(pk=sid)).ok


def test_an_old_session_with_a_public_seed_still_replays(people):
    """Sessions scheduled before secret seeds (or with an explicit seed) replay from ``seed``."""
    from facilitation import eventlog
    from facilitation.models import ClassSession
    from tests.conftest import create_peru_game, play_moves

    game = create_peru_game(people, seed=7)
    assert game.session.secret_seed == "" and game.session.engine_seed() == 7
    play_moves(game, 6)
    assert eventlog.verify(ClassSession.objects.get(pk=game.session.pk)).ok


def test_bot_seeds_do_not_lead_back_to_the_game_seed(people):
    """A bot's picks show its generator; today's bot seed ``seed * 100003 + head_seq`` inverts
    (mod 2**64) straight to the game's seed. A bot's seed must be one-way from it."""
    from tests.conftest import create_peru_game

    sess = create_peru_game(people, seed=None).session
    seed = sess.engine_seed() % 2**64
    inverse = pow(100_003, -1, 2**64)
    seeds = {sess.bot_seed(seat) for seat in ("government", "shining_path")}
    assert len(seeds) == 2, "each seat's bot has its own seed"
    for b in seeds:
        assert ((b - sess.head_seq) * inverse) % 2**64 != seed
    sess.head_seq += 1
    assert sess.bot_seed("government") not in seeds, "a new seed for every move"
