"""The engine core: RNG determinism and scripting, the contract helpers, the registry."""

import json

import pytest

import engine
from engine.core import rng
from engine.core.contract import Choice, IllegalChoice, Prompt, fact, facts_for_seat


def test_rng_same_seed_same_sequence():
    a, b = rng.new_rng(42), rng.new_rng(42)
    assert [rng.roll(a) for _ in range(50)] == [rng.roll(b) for _ in range(50)]


def test_rng_different_seeds_differ():
    a, b = rng.new_rng(1), rng.new_rng(2)
    assert [rng.roll(a) for _ in range(20)] != [rng.roll(b) for _ in range(20)]


def test_rng_state_round_trips_through_json():
    a = rng.new_rng(7)
    for _ in range(5):
        rng.next64(a)
    b = json.loads(json.dumps(a))
    assert [rng.randbelow(a, 1000) for _ in range(10)] == [rng.randbelow(b, 1000) for _ in range(10)]


def test_rng_rolls_are_in_range_and_cover_all_faces():
    r = rng.new_rng(3)
    seen = {rng.roll(r) for _ in range(600)}
    assert seen == {1, 2, 3, 4, 5, 6}


def test_rng_script_forces_values_then_resumes():
    r = rng.new_rng(9, script={"die": [6, 1]})
    assert rng.roll(r) == 6
    assert rng.roll(r) == 1
    assert "script" not in r
    assert 1 <= rng.roll(r) <= 6


def test_rng_script_out_of_range_is_an_error():
    r = rng.new_rng(9, script={"die": [7]})
    with pytest.raises(ValueError):
        rng.roll(r)


def test_shuffle_is_a_permutation_and_deterministic():
    a, b = rng.new_rng(5), rng.new_rng(5)
    x, y = list(range(40)), list(range(40))
    rng.shuffle(a, x)
    rng.shuffle(b, y)
    assert x == y and sorted(x) == list(range(40)) and x != list(range(40))


def _prompt():
    return Prompt(seats=("govt",), text="Choose an operation", rule="3.1",
                  choices=[Choice("op:sweep", "Sweep"), Choice("pass", "Pass")], turn="t1")


def test_prompt_find_accepts_legal_choice():
    assert _prompt().find("govt", "pass").label == "Pass"


def test_prompt_find_rejects_other_seat_and_unknown_choice():
    p = _prompt()
    with pytest.raises(IllegalChoice) as e:
        p.find("sl", "pass")
    assert e.value.code == "not_your_turn"
    with pytest.raises(IllegalChoice) as e:
        p.find("govt", "op:nuke")
    assert e.value.code == "unknown_choice" and "3.1" in e.value.message


def test_simultaneous_prompt_keeps_choices_per_seat():
    p = Prompt(seats=("a", "b"), text="Refit", rule="4.1", choices=[],
               seat_choices={"a": [Choice("x", "X")], "b": [Choice("y", "Y")]})
    assert [c.id for c in p.choices_for("a")] == ["x"]
    assert p.to_dict("b")["choices"] == [{"id": "y", "label": "Y", "payload": {}}]
    with pytest.raises(IllegalChoice):
        p.find("a", "y")


def test_fact_visibility_redacts_for_other_seats():
    secret = fact("directives", "Directives Base placed in Junin", visible_to=["sl"],
                  public={"type": "directives", "text": "Directives Base placed"})
    open_ = fact("die", "Rolled 4", value=4, barrier=True)
    assert facts_for_seat([secret, open_], "sl")[0]["text"].endswith("Junin")
    govt = facts_for_seat([secret, open_], "govt")
    assert "Junin" not in json.dumps(govt)
    assert len(govt) == 2
    assert facts_for_seat([fact("x", "hidden", visible_to=["sl"])], "govt") == []


def test_registry_rejects_unknown_scenario():
    with pytest.raises(engine.UnknownScenario):
        engine.load("monopoly")
    with pytest.raises(engine.UnknownScenario):
        engine.load("../etc")


def test_registry_lists_installed_scenarios_with_seats():
    engine.load("peru")  # importing a scenario package must not shadow engine.scenarios()
    rows = engine.scenarios()
    assert {"peru", "andean_abyss", "tears_of_tyranny"} <= {r["key"] for r in rows}
    assert all(r["seats"] and r["title"] for r in rows)
    assert {r["key"] for r in rows} == set(engine.keys())


def test_flow_stamps_causes_of_automatic_steps_and_decisions_unless_a_fact_has_one():
    """engine/core/flow.py: one states table; facts of an automatic frame get its rule step as
    cause, facts of a decision the deciding seat's choice, and a cause set inside stays."""
    from engine.core.contract import Choice, cause_die, fact
    from engine.core.flow import Ask, Flow, FrameKind, pop, push
    from engine.core.messages import msg

    def reveal(state, fr, facts):
        pop(state, fr)
        facts.append(fact("card", msg("A card is revealed.")))
        push(state, {"k": "pick"})

    def ask(state, fr):
        return Ask("blue", msg("Pick"), "2.3", [Choice("roll", msg("Roll")), Choice("rest", msg("Rest"))])

    def act(state, fr, cid, facts):
        pop(state, fr)
        facts.append(fact("note", msg("Picked.")))
        if cid == "roll":
            facts.append(fact("roll", msg("Rolled a 6."), cause=cause_die("4.1", 6)))
        push(state, {"k": "reveal"})

    flow = Flow([FrameKind("reveal", auto=reveal, rule="2.2", title=msg("Reveal")),
                 FrameKind("pick", ask=ask, act=act)])
    state, facts = {"stack": [{"k": "reveal"}]}, []
    flow.settle(state, facts)
    assert facts[0]["cause"] == {"kind": "rule", "rule": "2.2", "step": msg("Reveal")}
    assert [c.id for c in flow.ask(state).choices] == ["roll", "rest"]
    facts = []
    flow.act(state, "roll", facts, "blue")
    assert [f["cause"]["kind"] for f in facts] == ["decision", "die", "rule"]
    assert facts[0]["cause"] == {"kind": "decision", "seat": "blue", "choice": "roll"}


def test_coin_flow_still_imports_the_core_flow():
    from engine.coin import flow as old
    from engine.core import flow as new
    assert old.Flow is new.Flow and old.FrameKind is new.FrameKind and old.pop_same is new.pop_same
