"""Issue 14 item 10: inputs that made server errors (500) are clear 4xx answers."""

from __future__ import annotations

import pytest
from django.test import Client

from facilitation import services
from facilitation.models import ClassSession

DEEP_LIST = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000


def _client(user=None) -> Client:
    c = Client(raise_request_exception=False)
    if user is not None:
        c.force_login(user)
    return c


@pytest.mark.parametrize("body", [DEEP_LIST, DEEP_OBJECT])
def test_deeply_nested_json_is_a_400(peru_session, body):
    g = peru_session
    anonymous = _client()
    for path in ("/api/register/", "/accounts/login/", "/admin/login/"):
        r = anonymous.post(path, body, content_type="application/json")
        assert r.status_code < 500, (path, r.status_code)
    assert anonymous.post("/api/register/", body, content_type="application/json").status_code == 400
    student = _client(g.people.student_a)
    for path in (f"/api/sessions/{g.session.pk}/seats/{g.seat_a}/submit/", "/api/join/",
                 f"/api/sessions/{g.session.pk}/seats/{g.seat_a}/undo/"):
        r = student.post(path, body, content_type="application/json")
        assert r.status_code == 400, (path, r.status_code, r.content[:200])
        assert r.json()["error"] in ("parse_error", "malformed", "validation_error"), r.json()


def test_a_long_location_is_a_400_on_create_and_patch(peru_session):
    g = peru_session
    inst = _client(g.people.instructor)
    r = inst.post("/api/sessions/", {"course": g.course.pk, "scenario_key": "peru", "title": "x",
                                     "location": "L" * 201}, content_type="application/json")
    assert r.status_code == 400, r.content
    r = inst.patch(f"/api/sessions/{g.session.pk}/", {"location": "L" * 201}, content_type="application/json")
    assert r.status_code == 400, r.content
    from facilitation.errors import ServiceError

    with pytest.raises(ServiceError) as exc:
        services.session_update(session=g.session, user=g.people.instructor, location="L" * 201)
    assert exc.value.status == 400


@pytest.mark.parametrize("script", ["die", ["die", 3], 7, {"die": "3"}, {"die": [True]}, {"die": [3.5]},
                                    {"die": [-1]}, {"hunt": [99]}])
def test_bad_scripts_are_refused_when_the_session_is_scheduled(people, script):
    from tests.conftest import create_peru_game

    course = create_peru_game(people, start=False).course
    inst = _client(people.instructor)
    r = inst.post("/api/sessions/", {"course": course.pk, "scenario_key": "peru", "title": "scripted",
                                     "options": {"script": script}}, content_type="application/json")
    assert r.status_code == 400, (script, r.status_code, r.content[:300])
    assert r.json()["error"] == "bad_options"
    sess = ClassSession.objects.filter(course=course).first()
    r = inst.patch(f"/api/sessions/{sess.pk}/", {"options": {"script": script}}, content_type="application/json")
    assert r.status_code == 400, (script, r.status_code, r.content[:300])


def test_a_scripted_value_the_game_cannot_use_never_fails_the_start(people):
    """A session stored with a die of 99 (before this check) answers 400 at the start, not 500."""
    from tests.conftest import create_peru_game

    g = create_peru_game(people, start=False)
    ClassSession.objects.filter(pk=g.session.pk).update(options={"script": {"hunt": [99]}})
    for seat in g.session.seats.all():
        seat.team = None
        seat.bot_kind = "heuristic"
        seat.save()
    r = _client(people.instructor).post(f"/api/sessions/{g.session.pk}/start/", {},
                                        content_type="application/json")
    assert r.status_code == 400 and r.json()["error"] == "bad_options", r.content[:300]
    g.session.refresh_from_db()
    assert g.session.status == "scheduled" and g.session.head_seq == 0, "nothing of the failed start is kept"



def test_the_dry_run_walks_a_json_state_as_it_is_and_refuses_what_the_game_cannot_use():
    """The scheduling dry run of a scripted session (``services.sessions._check_options``) on a
    game whose state is plain JSON data (``state_is_json``, walked without serialize's copies):
    it plays first choices while the state's RNG record still holds scripted values, so a value
    the game refuses on its third move is refused at scheduling, and a usable one is played out."""
    from engine.core import rng as R
    from engine.core.contract import Choice, Prompt
    from facilitation.errors import ValidationFailed
    from facilitation.services.sessions import _check_options

    class JsonGame:
        title = "JSON toy"
        state_is_json = True

        def setup(self, seed, options):
            return {"rng": R.new_rng(seed, options.get("script")), "moves": 0}

        def serialize(self, state):
            raise AssertionError("a JSON state is walked as it is")

        def prompt(self, state):
            return Prompt(seats=("a",), text="go", rule="", choices=[Choice(id="go", label="Go")])

        def apply_inplace(self, state, seat, choice):
            state["moves"] += 1
            if state["moves"] == 3:
                R.roll(state["rng"], 6, tag="die")

    with pytest.raises(ValidationFailed):
        _check_options(JsonGame(), 1, {"script": {"die": [99]}})
    _check_options(JsonGame(), 1, {"script": {"die": [4]}})
