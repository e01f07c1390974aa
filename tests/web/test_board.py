"""The generic board drawing works for every installed game and every seat."""

import pytest
from django.template.loader import render_to_string

import engine
from engine.core.registry import scenarios
from facilitation.web import board


@pytest.mark.parametrize("key", [s["key"] for s in scenarios()])
def test_every_game_draws_for_every_seat(key):
    rules = engine.load(key)
    state = rules.setup(seed=5, options={})
    for seat in [None, *rules.seat_ids()]:
        b = board.build(rules, rules.view(state, seat), metrics=rules.metrics(state))
        assert b["spaces"], key
        html = render_to_string("web/partials/board.html", {"board": b})
        assert html.count('class="space ') == len(b["spaces"])
        for sp in b["spaces"]:
            assert 0 <= sp["x"] <= b["width"] and 0 <= sp["y"] <= b["height"], (key, sp["id"])


def test_peru_government_board_never_marks_the_directives_base():
    rules = engine.load("peru")
    state = rules.setup(seed=7, options={})
    p = rules.prompt(state)
    state, _facts = rules.apply(state, p.seats[0], p.choices[0].id)
    gov = board.build(rules, rules.view(state, "government"), metrics=rules.metrics(state))
    sp = board.build(rules, rules.view(state, "shining_path"), metrics=rules.metrics(state))
    assert not any("Directives Base" in m for s in gov["spaces"] for m in s["markers"])
    assert sum("Directives Base" in m for s in sp["spaces"] for m in s["markers"]) == 1
    assert dict((h["key"], h["value"]) for h in gov["holdings"])["Guzman Directives Base"] == "-"


def test_choices_that_name_a_space_are_clickable_on_the_map():
    rules = engine.load("peru")
    state = rules.setup(seed=7, options={})
    p = rules.prompt(state)
    choices = [c.to_dict() for c in p.choices_for("shining_path")]
    b = board.build(rules, rules.view(state, "shining_path"), choices=choices)
    clickable = {s["id"]: s["choices"][0]["id"] for s in b["spaces"] if s["choices"]}
    assert clickable and all(cid.endswith(sid) for sid, cid in clickable.items())
