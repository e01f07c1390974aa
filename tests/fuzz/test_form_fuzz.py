"""Fuzzing of the HTML forms and of every option of every game (issue 14 item 10).

* Forms: every page that takes a POST (login, the admin's login, join and sign-up, scheduling,
  each console control, play: choose/undo/intent, annotations, language) gets generated field
  values (NUL and other control characters, bare CR, very long text, huge and odd numbers,
  JSON nested 1,000 deep, scripts of dice a game cannot use ...) as an instructor, a student
  of the session, a reviewer and an anonymous visitor.
* Options: every option of every game (``Rules.options()``) gets generated JSON values when a
  session is scheduled (API), edited (PATCH) and started, and the teams then make moves.

Expected: no 5xx, ever. Size: ``COINLAB_FUZZ_EXAMPLES`` examples per form and per option
(default 6); the long run is ``benchmarks/fuzz_api.py`` (figures in docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os

import pytest
from django.test import Client, override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from tests.conftest import create_peru_game
from tests.fuzz.counts import flush, new_stats, record

EXAMPLES = int(os.environ.get("COINLAB_FUZZ_EXAMPLES", "6"))
STATS = new_stats()
DEEP = "[" * 1000 + "]" * 1000
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))

ODD_TEXT = st.sampled_from([
    "", " ", "\x00", "a\x00b", "\r", "a\rb", "\f", "\u2028", "x" * 6000, "x" * 201, "-1", "0", "1e309", "nan",
    "99999999999999999999999999", "null", "{}", "[]", DEEP, '{"script": "die"}', '{"script": {"hunt": [99]}}',
    '{"script": ["die", 3]}', '{"players": "many"}', "<script>alert(1)</script>", "../../etc/passwd", "🂡" * 50,
    "2026-13-45T25:61", "pass", "done"])
TEXT = st.one_of(ODD_TEXT, st.text(max_size=60), st.integers(min_value=-(2**70), max_value=2**70).map(str))


def _post(client: Client, url: str, data: dict) -> int:
    resp = client.post(url, data)
    record(STATS, resp.status_code)
    assert resp.status_code < 500, (url, {k: str(v)[:80] for k, v in data.items()}, resp.content[:300])
    return resp.status_code


@pytest.fixture
def site(people):
    """A live and a scheduled Peru session (two teams), logged-in browsers for four roles."""
    live = create_peru_game(people, seed=41, title="Form fuzz live")
    sched = create_peru_game(people, seed=42, title="Form fuzz scheduled", start=False)
    browsers = {}
    for role in ("instructor", "student_a", "reviewer", None):
        c = Client(raise_request_exception=False)
        if role:
            c.force_login(people.get(role))
        browsers[role] = c
    with override_settings(COINLAB_RATE_LIMITS=False):
        yield {"live": live, "scheduled": sched, "browsers": browsers}


FORMS = {
    "login": ("/accounts/login/", ("username", "password")),
    "admin_login": ("/admin/login/", ("username", "password")),
    "join": ("/join/{code}/", ("username", "password", "first_name", "last_name", "email")),
    "schedule": ("/sessions/new/", ("schedule", "scenario", "title", "course_title", "scheduled_start", "seed",
                                    "options", "decision_timer_seconds", "timer_expiry", "require_rationale",
                                    "seat_government_by", "seat_government_team", "seat_shining_path_by",
                                    "seat_shining_path_team")),
    "control": ("/sessions/{sid}/control/{action}/", ("reason", "text", "action", "track", "value", "team",
                                                      "old_username", "new_username", "decision_timer_seconds",
                                                      "timer_expiry", "require_rationale", "next")),
    "choose": ("/sessions/{sid}/play/choose/", ("seat", "choice", "seq", "rationale", "key", "decision_ms")),
    "undo": ("/sessions/{sid}/play/undo/", ("seat", "seq")),
    "intent": ("/sessions/{sid}/play/intent/", ("seat", "statement")),
    "annotate": ("/sessions/{sid}/replay/annotate/", ("seq", "kind", "text", "as")),
    "language": ("/i18n/setlang/", ("language", "next")),
}
SCHEDULE_VALID = {"schedule": "1", "scenario": "peru", "title": "Fuzzed", "course_title": "COIN 101",
                  "scheduled_start": "", "seed": "", "options": "", "decision_timer_seconds": "",
                  "timer_expiry": "bot", "require_rationale": "", "seat_government_by": "team",
                  "seat_government_team": "Gov", "seat_shining_path_by": "team", "seat_shining_path_team": "SP"}
ACTIONS = ["start", "pause", "resume", "end", "note", "override", "timer", "replace", "joincode", "nosuch"]


@pytest.mark.parametrize("form", sorted(FORMS))
def test_html_forms_never_answer_a_server_error(site, form):
    url_template, fields = FORMS[form]

    @FUZZ
    @given(values=st.fixed_dictionaries({f: TEXT for f in fields}), which=st.integers(0, 3),
           action=st.sampled_from(ACTIONS), real=st.booleans(), code=TEXT)
    def run(values, which, action, real, code):
        STATS["cases"] += 1
        session = (site["live"] if which % 2 == 0 else site["scheduled"]).session
        data = dict(values)
        if real and form in ("choose", "undo", "intent"):
            session.refresh_from_db()
            data.update(seat=site["live"].seat_a, seq=str(session.head_seq))
        if real and form == "control":
            data["team"] = str(site["live"].team_a.pk)
        if real and form == "schedule":  # a valid form with one field fuzzed (reaches the services)
            fuzzed = fields[which % len(fields)]
            data = {**SCHEDULE_VALID, fuzzed: values[fuzzed]}
        url = url_template.format(sid=session.pk, action=action, code=code.replace("/", "")[:80] or "x")
        for browser in site["browsers"].values():
            _post(browser, url, data)

    run()


def _option_values(info) -> st.SearchStrategy:
    json_leaf = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                          st.floats(allow_nan=False), st.text(max_size=20))
    json_any = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                               st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                            max_leaves=12)
    script = st.dictionaries(st.sampled_from(["die", "hunt", "pick", "card", "x"]),
                             st.lists(st.integers(min_value=-3, max_value=120), max_size=6), max_size=3)
    known = [info.default, *info.choices] if info.choices else [info.default]
    return st.one_of(st.sampled_from(known), json_any, script, st.lists(st.integers(0, 200), max_size=8))


def _games():
    out = []
    for key in ("peru", "andean_abyss", "tears_of_tyranny"):
        for info in engine.load(key).options():
            out.append((key, info.key))
    return out


@pytest.mark.parametrize(("game", "option"), _games())
def test_every_option_of_every_game_never_answers_a_server_error(people, api_for, game, option):
    from facilitation import services
    from facilitation.models import Team

    rules = engine.load(game)
    info = next(o for o in rules.options() if o.key == option)
    course = services.course_create(user=people.instructor, title=f"options {game}")
    inst, student = api_for("instructor"), api_for("student_a")

    @FUZZ
    @given(value=_option_values(info), start=st.booleans())
    def run(value, start):
        STATS["cases"] += 1
        seats = {s: "T" for s in rules.seat_ids()}
        body = {"course": course.pk, "scenario_key": game, "title": "o", "options": {option: value}, "seed": 5,
                "teams": ["T"], "seats": seats}
        r = inst.post("/api/sessions/", json.dumps(body, allow_nan=False), content_type="application/json")
        record(STATS, r.status_code)
        assert r.status_code < 500, (game, option, value, r.content[:300])
        if r.status_code != 201:
            return
        sid = r.json()["id"]
        r = inst.patch(f"/api/sessions/{sid}/", {"options": {option: value}}, format="json")
        record(STATS, r.status_code)
        assert r.status_code < 500, (game, option, value, r.content[:300])
        if not start:
            return
        team = Team.objects.get(session_id=sid)
        services.team_member_add(team=team, user=people.instructor, member=people.student_a)
        r = inst.post(f"/api/sessions/{sid}/start/", {}, format="json")
        record(STATS, r.status_code)
        assert r.status_code < 500, (game, option, value, r.content[:300])
        for _ in range(4 if r.status_code == 200 else 0):
            seq = student.get(f"/api/sessions/{sid}/").json().get("head_seq")
            prompts = [(k, student.get(f"/api/sessions/{sid}/seats/{k}/prompt/").json()) for k in seats]
            todo = [(k, p) for k, p in prompts if (p.get("prompt") or {}).get("choices")]
            if not todo:
                break
            seat, p = todo[0]
            r = student.post(f"/api/sessions/{sid}/seats/{seat}/submit/",
                             {"choice": p["prompt"]["choices"][0]["id"], "seq": p.get("seq", seq)}, format="json")
            record(STATS, r.status_code)
            assert r.status_code < 500, (game, option, value, r.content[:300])

    run()


def teardown_module(module):
    flush(STATS, "forms_and_options")
