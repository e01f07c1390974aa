"""Teaching vignettes (issue #18 deliver 3-5): data files validated on load, one vignette
scheduled for several teams from the same position and cards, the short run's end, the
side-by-side comparison, and a session's position saved as a new vignette."""

import copy

import pytest
from django.urls import reverse

import engine
from engine.bots.base import RandomBot
from facilitation import services
from facilitation.models import ClassSession, SavedVignette, VignetteRun
from facilitation.vignettes import VignetteError, library, parse, texts
from facilitation.vignettes import runs as vignette_runs
from tests.conftest import create_peru_game


def test_every_shipped_vignette_loads_and_sets_up():
    lib = library()
    assert "peru-example-of-play" in lib
    for v in lib.values():
        rules = engine.load(v.game)
        state = rules.setup(v.seed or 1, v.setup_options())
        assert rules.prompt(state) is not None
        assert set(v.briefings) <= set(rules.seat_ids()) and v.questions
    assert all(t.strip() for t in texts())


def test_the_example_of_play_vignette_is_the_rulebooks_starting_position():
    # Peru 8.0: the setup with the Directives Base in Junin, card P36 face up, Shining Path 1st Eligible.
    v = library()["peru-example-of-play"]
    rules = engine.load("peru")
    state = rules.setup(99, v.setup_options())
    view = rules.view(state, None)
    pos = rules.position(state)
    assert pos["current_card"] == "P36"
    assert pos["eligibility"] == {"first": "shining_path", "second": "government"}
    assert pos["spaces"]["lima"] == {"troops": 7, "police": 4, "guerrillas_underground": 1, "support": "active_support"}
    assert pos["spaces"]["junin"]["directives_base"] is True
    assert pos["tracks"]["political_will"] == 13
    assert view is not None


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d.pop("objective"), "vignette"),
    (lambda d: d.update(run={"cards": 0}), "vignette.run.cards"),
    (lambda d: d.update(run={"cards": 1, "decisions": 2}), "vignette.run"),
    (lambda d: d["briefings"].update(farc="Nope, not a Peru seat."), "vignette.briefings.farc"),
    (lambda d: d.update(game="chess"), "vignette.game"),
    (lambda d: d["position"]["spaces"]["lima"].update(troops=99), "vignette.position.spaces"),  # 1.4.1 inventory
    (lambda d: d["position"]["spaces"]["lima"].update(troops=-1), "vignette.position.spaces.lima"),
    (lambda d: d["position"]["spaces"].update(atlantis={"police": 1}), "vignette.position.spaces.atlantis"),
    (lambda d: d.update(run={"turns": 1}), "vignette.run.turns"),
])
def test_a_bad_vignette_is_refused_naming_the_field(change, field):
    doc = copy.deepcopy(library()["peru-example-of-play"].document())
    change(doc)
    with pytest.raises(VignetteError) as exc:
        parse(doc)
    assert exc.value.field.startswith(field), (exc.value.field, exc.value.problem)


def _play_team_until_finished(session, user, seat, limit=300):
    rules = engine.load(session.scenario_key)
    bot = RandomBot(rules, seat, 3)
    for _ in range(limit):
        session.refresh_from_db()
        if session.status == ClassSession.Status.FINISHED:
            return
        from facilitation import selectors

        rules, state = selectors.session_state(session)
        p = rules.prompt(state)
        assert p is not None and seat in p.seats
        services.choice_submit(session=session, user=user, seat=seat, choice=bot.choose(state, p).choice_id,
                               seq=session.head_seq, rationale="testing the vignette")
    raise AssertionError("the vignette's run did not end")


@pytest.mark.django_db
def test_a_vignette_for_three_teams_same_position_same_cards_then_compared(people):
    course = services.course_create(user=people.instructor, title="COIN 101")
    run = vignette_runs.vignette_schedule(course=course, user=people.instructor, vignette_id="peru-example-of-play",
                                          seat="shining_path", teams=["Red", "Blue", "Green"])
    sessions = list(run.sessions.order_by("id"))
    assert len(sessions) == 3 and len({s.secret_seed for s in sessions}) == 1 and sessions[0].secret_seed
    for s in sessions:
        assert {x.seat_key: (x.team.name if x.team else x.bot_kind) for x in s.seats.all()}["government"] == "heuristic"
        assert s.teams.get().join_codes.count() == 1
        services.session_start(session=s, user=people.instructor)
    # The same position and the same cards for every team.
    states = [engine.load("peru").position(ClassSession.objects.get(pk=s.pk).state) for s in sessions]
    assert states[0] == states[1] == states[2]
    red = sessions[0]
    services.team_member_add(team=red.teams.get(), user=people.instructor, member=people.student_a)
    _play_team_until_finished(red, people.student_a, "shining_path")
    red.refresh_from_db()
    assert red.result["run_complete"] == {"cards": 1} and red.result["winner"] is None
    assert red.events.filter(kind="system", payload__action="vignette_over").count() == 1
    cmp = vignette_runs.run_comparison(run)
    assert [c["team"] for c in cmp["columns"]] == ["Red", "Blue", "Green"]
    assert cmp["rows"] and cmp["rows"][0][0]["rationale"] == "testing the vignette" and cmp["rows"][0][1] is None


@pytest.mark.django_db
def test_bad_scheduling_is_refused_and_creates_nothing(people):
    from facilitation.errors import NotAllowed, ValidationFailed

    course = services.course_create(user=people.instructor, title="COIN 101")
    for kwargs in ({"vignette_id": "nope", "seat": "shining_path", "teams": ["A"]},
                   {"vignette_id": "peru-example-of-play", "seat": "farc", "teams": ["A"]},
                   {"vignette_id": "peru-example-of-play", "seat": "shining_path", "teams": [" "]},
                   {"vignette_id": "peru-example-of-play", "seat": "shining_path", "teams": ["A", "A"]}):
        with pytest.raises(ValidationFailed):
            vignette_runs.vignette_schedule(course=course, user=people.instructor, **kwargs)
    with pytest.raises(NotAllowed):
        vignette_runs.vignette_schedule(course=course, user=people.student_a, vignette_id="peru-example-of-play",
                                        seat="shining_path", teams=["A"])
    assert not VignetteRun.objects.exists() and not ClassSession.objects.filter(course=course).exists()


@pytest.mark.django_db
def test_a_sessions_position_saved_as_a_vignette_can_be_scheduled(people):
    game = create_peru_game(people)
    saved = vignette_runs.vignette_save(
        session=game.session, user=people.instructor, vignette_id="our-opening", title="Our opening position",
        objective="Practise the first choice of the game.", briefings={"government": "You go second here.", "shining_path": ""},
        questions=["What did you choose first?"], run={"cards": 1})
    assert saved.document["position"] == engine.load("peru").position(game.session.state)
    assert "shining_path" not in saved.document["briefings"]
    ids = [k for k, _v in vignette_runs.vignettes_for(game.course)]
    assert f"saved-{saved.pk}" in ids
    run = vignette_runs.vignette_schedule(course=game.course, user=people.instructor, vignette_id=f"saved-{saved.pk}",
                                          seat="government", teams=["Solo"])
    assert run.sessions.count() == 1
    # A bad description is refused and nothing is saved.
    from facilitation.errors import ValidationFailed

    with pytest.raises(ValidationFailed) as exc:
        vignette_runs.vignette_save(session=game.session, user=people.instructor, vignette_id="Bad Id!", title="T",
                                    objective="Objective", briefings={"government": "Brief"}, questions=["Q?"],
                                    run={"cards": 1})
    assert "vignette.id" in exc.value.message
    assert SavedVignette.objects.count() == 1


@pytest.mark.django_db
def test_vignette_pages(client, people):
    course = services.course_create(user=people.instructor, title="COIN 101")
    client.force_login(people.instructor)
    url = reverse("web:course_vignettes", args=[course.pk])
    page = client.get(url).content.decode()
    assert "The opening card of the rulebook" in page and "Learning objective" in page
    r = client.post(url, {"vignette": "peru-example-of-play", "seat": "shining_path", "teams": "Red\nBlue"})
    assert r.status_code == 302
    run = VignetteRun.objects.get()
    page = client.get(r["Location"]).content.decode()
    assert "Red" in page and "Blue" in page and "Discussion" in page
    r = client.post(r["Location"], {"action": "start_all"})
    assert r.status_code == 302 and run.sessions.filter(status="live").count() == 2
    assert client.post(url, {"vignette": ""}).status_code == 400
    assert client.post(reverse("web:vignette_run", args=[run.pk]), {"action": "nope"}).status_code == 400
    # A student of the run sees the briefing on the play page, and may not open the run.
    s = run.sessions.order_by("id").first()
    services.team_member_add(team=s.teams.get(), user=people.instructor, member=people.student_a)
    client.force_login(people.student_a)
    page = client.get(reverse("web:play", args=[s.pk])).content.decode()
    assert "Your briefing" in page and "You act first on this card." in page
    assert client.get(reverse("web:vignette_run", args=[run.pk])).status_code == 403
    assert client.get(url).status_code == 403
