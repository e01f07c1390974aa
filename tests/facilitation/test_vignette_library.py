"""The shipped vignette library (issue #18 deliver 3): at least four per game, each in English
and Spanish, the rulebooks' worked examples set up faithfully, and every vignette played from
its position to its end condition through the platform, the team's seat by a bot."""

from __future__ import annotations

from collections import Counter

import pytest
from django.utils import translation

import engine
from engine.bots.base import make_bot
from facilitation import selectors, services
from facilitation.models import ClassSession
from facilitation.text import tr
from facilitation.vignettes import library, texts
from facilitation.vignettes import runs as vignette_runs

GAMES = ("peru", "andean_abyss", "tears_of_tyranny")


def test_four_or_more_vignettes_per_game():
    per_game = Counter(v.game for v in library().values())
    assert all(per_game[g] >= 4 for g in GAMES), per_game


def test_every_vignette_text_has_a_spanish_translation():
    with translation.override("es"):
        missing = [t for t in texts() if tr(t) == t]
    assert not missing, missing[:3]


def _pos(vignette_id: str, seed: int = 1) -> dict:
    v = library()[vignette_id]
    rules = engine.load(v.game)
    return rules.position(rules.setup(seed, v.setup_options()))


def test_peru_example_of_play_cards_2_4_and_5():
    # 8.0 Example of Play, the position as each card is revealed (checkpoints of
    # tests/engine/peru/test_example_of_play.py).
    p9 = _pos("peru-example-reprisal")
    assert p9["current_card"] == "P9" and p9["eligibility"]["first"] == "government"
    assert p9["spaces"]["ayacucho"] == {"troops": 6, "police": 3, "guerrillas_active": 3, "bases": 1,
                                        "support": "active_opposition", "emergency_zone": True}
    assert p9["tracks"] == {"political_will": 12, "government_resources": 18, "shining_path_resources": 4, "hunt": 0}
    p12 = _pos("peru-example-train-organize")
    assert p12["current_card"] == "P12" and p12["capabilities"] == {"P9": "bottom"}
    assert p12["tracks"] == {"political_will": 12, "government_resources": 16, "shining_path_resources": 5, "hunt": 2}
    assert p12["spaces"]["lima"]["troops"] == 2 and p12["spaces"]["lima"]["police"] == 2
    p33 = _pos("peru-example-march-evade")
    assert p33["current_card"] == "P33" and p33["eligibility"]["first"] == "shining_path"
    assert p33["tracks"]["shining_path_resources"] == 6 and p33["tracks"]["government_resources"] == 12
    assert p33["spaces"]["arequipa"] == {"police": 2, "support": "active_support"}
    assert "support" not in p33["spaces"]["ayacucho"]  # Civic Action shifted it to Neutral (omitted)


def test_andean_abyss_tutorial_positions_are_the_playbooks():
    from tests.engine.andean_abyss.test_playbook_example import RULES, STEPS, new_game

    assert _pos("aa-tutorial-opening") == RULES.position(new_game())
    st = new_game()
    for step in STEPS[:17]:  # up to the Reset after the first Propaganda Round
        step(st)
    assert _pos("aa-tutorial-after-propaganda") == RULES.position(st)


def test_andean_abyss_march_example_3_3_2():
    pos = _pos("aa-march-into-support")
    assert pos["spaces"]["santander"] == {"troops": 1, "police": 1, "support": "passive_support"}
    assert pos["spaces"]["meta_east"]["farc_underground"] == 2
    rules = engine.load("andean_abyss")
    st = rules.setup(1, library()["aa-march-into-support"].setup_options())
    assert rules.prompt(st).seats == ("farc",)  # card 22: the FARC are 1st Eligible


def test_tears_of_tyranny_combat_examples():
    from engine.scenarios.tears_of_tyranny.data import content

    tiles = content().tiles
    two = _pos("tot-combat-two-cells")["tiles"]["s01t2"]
    assert tiles["s01t2"]["defense_modifier"] == 1 and two["cells"] == 2 and two["outposts"] == 0
    out = _pos("tot-combat-outpost-in-jungle")["tiles"]["s01t2"]
    assert tiles["s01t2"]["terrain"] == "jungle" and out["outposts"] == 1 and out["cells"] == 0
    col = _pos("tot-combat-collateral")
    assert tiles["s01t4"]["defense_modifier"] == 0
    assert col["tiles"]["s01t4"]["cells"] == 1 and col["tiles"]["s01t4"]["blue"] + col["tiles"]["s01t4"]["red"] == 1
    assert library()["tot-combat-collateral"].options["collateral"] == "flat"  # 1 influence per civilian
    dom = _pos("tot-domination")
    assert dom["boxes"]["dominate"] == "TI-07" and tiles["s01t2"]["terrain_card_ref"] == 7


@pytest.mark.django_db
@pytest.mark.parametrize("vignette_id", sorted(library()))
def test_each_vignette_plays_to_its_end_condition(people, vignette_id, monkeypatch):
    # the run's secret seed fixed, so the test plays the same cards every time
    monkeypatch.setattr(vignette_runs.secrets, "token_hex", lambda n: "5eed" * (n // 2))
    v = library()[vignette_id]
    course = services.course_create(user=people.instructor, title="COIN 101")
    seat = next(iter(v.briefings))
    run = vignette_runs.vignette_schedule(course=course, user=people.instructor, vignette_id=vignette_id,
                                          seat=seat, teams=["Solo"])
    session = run.sessions.get()
    services.team_member_add(team=session.teams.get(), user=people.instructor, member=people.student_a)
    services.session_start(session=session, user=people.instructor)
    rules = engine.load(v.game)
    bot = make_bot(rules, "heuristic" if v.game != "andean_abyss" else "random", seat, 7)
    for _ in range(600):
        session.refresh_from_db()
        if session.status == ClassSession.Status.FINISHED:
            break
        rules, state = selectors.session_state(session)
        p = rules.prompt(state)
        assert p is not None and seat in p.seats
        services.choice_submit(session=session, user=people.student_a, seat=seat,
                               choice=bot.choose(state, p).choice_id, seq=session.head_seq, rationale="bot")
    else:
        raise AssertionError(f"{vignette_id}: the run did not end")
    assert session.result["run_complete"] == v.run, session.result
