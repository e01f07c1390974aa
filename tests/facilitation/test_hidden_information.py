"""Hidden information never reaches another seat through the API.

Peru's Guzman Directives Base (rules 1.4.4, 6.5.3): Shining Path secretly picks the
Base that hides it. The Government seat must never learn where, from any answer
of the API: prompt, view, event stream, session, seats, teams, intents.

Two checks:

1. Indistinguishability: two sessions with the same seed, identical except for
   the space Shining Path hides the Base in, then the same moves. Everything the
   Government team's API shows must be identical between the two (after removing
   ids and clocks). If any answer depended on the hidden location, they would differ.
2. No secret strings: with a bot playing Shining Path (it knows the location), no
   text of a fact hidden from the Government, nor the secret choice, appears in
   any Government answer.
"""

from __future__ import annotations

import json
import re

from engine.core.messages import render
from facilitation import selectors, services
from facilitation.models import SessionEvent
from tests.conftest import create_peru_game

VOLATILE = {"created_at", "server_time", "decision_ms", "session", "id", "deadline", "started_at",
            "finished_at", "hash", "prev_hash", "team", "course", "actor"}


def _normalise(obj):
    if isinstance(obj, dict):
        return {k: _normalise(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, list):
        return [_normalise(v) for v in obj]
    return obj


def _government_answers(api, game, seat="government") -> dict:
    sid = game.session.pk
    urls = {
        "prompt": f"/api/sessions/{sid}/seats/{seat}/prompt/",
        "events": f"/api/sessions/{sid}/seats/{seat}/events/",
        "session": f"/api/sessions/{sid}/",
        "sessions": "/api/sessions/",
        "seats": f"/api/sessions/{sid}/seats/",
        "seat": f"/api/sessions/{sid}/seats/{seat}/",
        "teams": f"/api/sessions/{sid}/teams/",
        "intents": f"/api/sessions/{sid}/intents/",
    }
    out = {}
    for name, url in urls.items():
        r = api.get(url)
        assert r.status_code == 200, (name, r.status_code, r.content[:200])
        out[name] = r.json()
    return out


def _team_of(game, seat):
    return "student_a" if seat == game.seat_a else "student_b"


def _play_same_moves(games, n):
    """Both games take the same choice ids: the first choice legal in both."""
    for _ in range(n):
        states = []
        for g in games:
            g.session.refresh_from_db()
            rules, state = selectors.session_state(g.session)
            states.append(rules.prompt(state))
        if any(p is None for p in states):
            return
        seat = states[0].seats[0]
        assert all(p.seats[0] == seat for p in states)
        common = [c.id for c in states[0].choices_for(seat) if c.id in {x.id for x in states[1].choices_for(seat)}]
        assert common, "no common legal choice"
        choice = common[len(common) // 2]
        for g in games:
            services.choice_submit(session=g.session, user=g.owner(seat), seat=seat, choice=choice,
                                   seq=g.session.head_seq)


def test_government_answers_do_not_depend_on_the_directives_base_location(people, api_for):
    games = [create_peru_game(people, seed=21, title=f"twin {i}") for i in range(2)]
    assert {games[0].seat_a, games[0].seat_b} == {"government", "shining_path"}
    # The game opens with Shining Path's secret choice; the twins choose differently.
    prompts = [selectors.seat_prompt(g.session, "shining_path")["prompt"] for g in games]
    assert prompts[0]["kind"] == "swap", prompts[0]
    spaces = [c["id"] for c in prompts[0]["choices"]]
    assert len(spaces) >= 2
    for g, choice in zip(games, spaces[:2], strict=True):
        services.choice_submit(session=g.session, user=g.owner("shining_path"), seat="shining_path",
                               choice=choice, seq=g.session.head_seq, rationale="Hide it well.")
    # The full (instructor) record does differ: the hidden location is really in the log.
    full = [api_for("instructor").get(f"/api/sessions/{g.session.pk}/events/").json() for g in games]
    assert _normalise(full[0]["events"]) != _normalise(full[1]["events"])

    gov = api_for(_team_of(games[0], "government"))
    for step in range(8):
        answers = [_normalise(_government_answers(gov, g)) for g in games]
        # the typed board (issue 13.4) is part of the answer, and compared with the rest
        assert answers[0]["prompt"]["board"]["spaces"], "the prompt carries the seat's typed board"
        for name in answers[0]:
            if name == "sessions":
                continue  # lists both twins; compared through "session"
            assert answers[0][name] == answers[1][name], f"step {step}: Government's {name} reveals the base"
        _play_same_moves(games, 3)
    assert SessionEvent.objects.filter(session=games[0].session).count() > 10


def _hidden_strings(session, seat: str) -> set[str]:
    """Texts of facts hidden from ``seat`` and the choice/label of the decisions that made them."""
    out = set()
    for ev in SessionEvent.objects.filter(session=session):
        hidden = [f for f in ev.facts if f.get("visible_to") is not None and seat not in f["visible_to"]]
        for f in hidden:
            # the rendered sentence and its template (a message travels as a template + arguments)
            out.add(render(f["text"]))
            if isinstance(f["text"], dict):
                out.add(f["text"]["msg"])
        if hidden and ev.seat != seat:
            for key in ("choice", "label"):
                if ev.payload.get(key):
                    out.add(str(ev.payload[key]))
    return out


def _walk_keys(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k, v
            yield from _walk_keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _walk_keys(v)


def test_no_secret_reaches_the_government_when_a_bot_plays_shining_path(people, api_for):
    from facilitation.models import Seat

    game = create_peru_game(people, seed=5, start=False)
    gov_seat = "government"
    sp_seat = "shining_path"
    if game.seat_a != gov_seat:
        game.seat_a, game.seat_b = game.seat_b, game.seat_a
    Seat.objects.filter(session=game.session, seat_key=gov_seat).update(team=game.team_a, bot_kind="")
    Seat.objects.filter(session=game.session, seat_key=sp_seat).update(team=None, bot_kind="heuristic")
    services.session_start(session=game.session, user=people.instructor)
    game.session.refresh_from_db()
    for _ in range(25):  # Government plays; the bot answers, hiding and moving the Base as it likes
        game.session.refresh_from_db()
        rules, state = selectors.session_state(game.session)
        p = rules.prompt(state)
        if p is None:
            break
        assert p.seats[0] == gov_seat
        c = p.choices_for(gov_seat)[-1]
        services.choice_submit(session=game.session, user=people.student_a, seat=gov_seat, choice=c.id,
                               seq=game.session.head_seq)
    secrets = _hidden_strings(game.session, gov_seat)
    assert any("Directives" in s for s in secrets), "the bot's secret placement is in the log"
    api = api_for("student_a")
    answers = _government_answers(api, game, gov_seat)
    blob = json.dumps(answers, ensure_ascii=False)
    for s in secrets:
        assert s not in blob, f"Government sees a secret: {s!r}"
    assert not re.search(r"swap:[a-z_]+", blob), "Government sees the secret swap choice"
    location = rules.view(state, None).get("directives_base")
    for key, value in _walk_keys(answers):
        assert "directives_base" != key or not value, f"Government view has {key}={value!r}"
    # A bot's reasons rest on its own secrets: they stay in the full log only.
    assert not any(k == "reason" and v for k, v in _walk_keys(answers["events"])), "bot reasons leak"
    # The public versions do arrive: Government knows *that* the Base was placed.
    assert "secretly placed" in blob
    # And Shining Path's own view (seen by an instructor through that seat) has it.
    sp = api_for("instructor").get(f"/api/sessions/{game.session.pk}/seats/{sp_seat}/prompt/").json()
    if location:
        assert sp["view"]["directives_base"] == location
