"""The board's markup from the string builder (``board.markup``, issue #8) is the markup the
board template drew before it: ``tests/web/reference/board_template.html`` is that template,
kept here as the reference. Boards of several positions of every game with a map, from every
seat, with and without that seat's choices, in both languages, are drawn both ways and
compared (whitespace between tags aside). Since the CSP refuses style attributes, the reference
too sizes small space names and group labels with the SVG ``font-size`` attribute."""

import random
import re
from pathlib import Path

import pytest
from django.template import engines
from django.template.loader import render_to_string
from django.utils import translation

import engine
from facilitation.rendering import board

REFERENCE = Path(__file__).resolve().parent / "reference" / "board_template.html"
GAMES = ("peru", "andean_abyss", "tears_of_tyranny")


def _normal(html: str) -> str:
    html = re.sub(r"\s+", " ", html)
    html = re.sub(r">\s+<", "><", html)
    html = re.sub(r"\s+(/?>)", r"\1", html)
    return html.strip()


def _reference(b: dict, open_text: bool = False) -> str:
    tpl = engines["django"].from_string(REFERENCE.read_text(encoding="utf-8"))
    return tpl.render({"board": b, "open_text": open_text})


def _new(b: dict, open_text: bool = False) -> str:
    return render_to_string("web/partials/board.html", {"board": b, "open_text": open_text})


def _positions(key: str, steps: tuple[int, ...] = (0, 6, 20, 45)):
    """(state, prompt) at several points of a game played with seeded random legal choices."""
    rules = engine.load(key)
    state = rules.setup(seed=11, options={})
    rng = random.Random(3)
    out = []
    for i in range(max(steps) + 1):
        p = rules.prompt(state)
        if i in steps:
            out.append((state, p))
        if p is None or not p.seats:
            break
        seat = p.seats[0]
        choices = p.choices_for(seat)
        if not choices:
            break
        state, _facts = rules.apply(state, seat, rng.choice(choices).id)
    return rules, out


def _boards(key: str):
    rules, positions = _positions(key)
    for state, p in positions:
        for seat in [None, *rules.seat_ids()]:
            view, metrics = rules.view(state, seat), rules.metrics(state)
            yield seat, board.build(rules, view, metrics=metrics)
            if seat and p is not None and seat in p.seats:
                choices = [c.to_dict() for c in p.choices_for(seat)]
                yield seat, board.build(rules, view, metrics=metrics, choices=choices)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("key", GAMES)
def test_builder_draws_what_the_template_drew(key, lang):
    drawn = with_choices = 0
    with translation.override(lang):
        for seat, b in _boards(key):
            old, new = _normal(_reference(b)), _normal(_new(b))
            assert new == old, (key, seat, lang)
            drawn += 1
            if any(sp["choices"] for sp in b["spaces"]):
                with_choices += 1
                assert 'data-choice="' in new or 'data-choices="' in new
            assert new.count('class="piece ') == sum(len(sp["pieces"]) for sp in b["spaces"])
    assert drawn >= 4 * 3 and with_choices, (key, drawn, with_choices)


def test_builder_escapes_and_draws_every_shape_like_the_template():
    """Names, labels and markers with markup characters; one and several choices on a space;
    small spaces, cities, LoCs, lines, group labels, the open text table."""
    rules = engine.load("andean_abyss")
    state = rules.setup(seed=5, options={})
    b = board.build(rules, rules.view(state, None), metrics=rules.metrics(state))
    sp = b["spaces"]
    evil = '<b>"R&D" l\'x</b>'
    sp[0]["name"] = evil
    sp[0]["short"] = ""
    sp[0]["markers"] = [evil, "a marker far longer than twenty-four characters", "m3", "m4"]
    sp[0]["marker_lines"] = [{"text": evil + " and more text after it", "y": 10.5}]
    sp[0]["static"] = [evil, "Pop 2"]
    sp[0]["choices"] = [{"id": 'x"1', "label": evil}]
    sp[1]["choices"] = [{"id": "a", "label": "A & B"}, {"id": "b<", "label": "C"}]
    sp[2]["small"], sp[2]["font"] = True, 9.5
    sp[3]["line"] = "1.0,2.0 3.5,4.5"
    sp[3]["group_centre"] = True
    sp[4]["pieces"][:0] = [{"fi": 1, "state": "underground", "css": "x<y", "cx": 1.5, "cy": -2.0, "k": 0.5,
                            "shape": "base", "letter": "<", "count": 3, "name": evil},
                           {"fi": 2, "state": "active", "css": "", "cx": 1, "cy": 2, "k": 1,
                            "shape": "cube", "letter": "C", "count": 1, "name": "Cube"}]
    b["group_labels"] = [{"x": 1, "y": 2.5, "size": 12, "text": evil}]
    b["legend"] = [{"label": evil, "css": "neutral", "fi": 9}]
    b["svg_class"] = "x&y"
    kinds = {s["kind"] for s in sp}
    assert {"city", "loc"} <= kinds
    for open_text in (False, True):
        old, new = _normal(_reference(b, open_text)), _normal(_new(b, open_text))
        assert new == old
    assert evil not in new and "&lt;b&gt;&quot;R&amp;D&quot; l&#x27;x&lt;/b&gt;" in new
    assert 'data-choice="x&quot;1"' in new and 'data-choices="a b&lt; "' in new
    assert "<details class=\"board-text\" open>" in new


def test_static_geometry_kept_per_process_is_never_changed_by_a_board_or_a_view():
    """``build`` keeps the static map geometry per process: a warm build equals a cold one, a
    board changed by its user does not change the next board, and nothing of a seat's view
    (pieces, markers, choices) is kept, so another seat's board never shows it."""
    rules = engine.load("tears_of_tyranny")
    state = rules.setup(seed=5, options={})
    p = rules.prompt(state)
    seat, other = p.seats[0], next(s for s in rules.seat_ids() if s not in p.seats[:1])
    choices = [c.to_dict() for c in p.choices_for(seat)]
    board._GEOMETRY.clear()
    cold = board.build(rules, rules.view(state, seat), metrics=rules.metrics(state), choices=choices)
    assert len(board._GEOMETRY) == 1
    kept = next(iter(board._GEOMETRY.values()))
    assert not {"pieces", "markers", "choices", "marker_lines"} & {k for sp in kept["spaces"] for k in sp}
    cold["spaces"][0]["adjacent"].append("nowhere")
    cold["spaces"][0]["static"].append("scribbled")
    cold["spaces"][0]["box"]["x"] = -1
    cold["edges"][0]["x1"] = -1
    warm = board.build(rules, rules.view(state, seat), metrics=rules.metrics(state), choices=choices)
    board._GEOMETRY.clear()
    assert warm == board.build(rules, rules.view(state, seat), metrics=rules.metrics(state), choices=choices)
    assert any(sp["choices"] for sp in warm["spaces"])
    mine = {c["id"] for sp in warm["spaces"] for c in sp["choices"]}
    theirs = board.build(rules, rules.view(state, other), metrics=rules.metrics(state),
                         choices=[c.to_dict() for c in p.choices_for(other)] if other in p.seats else [])
    html = board.markup(theirs)
    assert not any(f'"{cid}"' in html for cid in mine if cid not in {c["id"] for sp in theirs["spaces"] for c in sp["choices"]})
    assert [sp["pieces"] for sp in theirs["spaces"]] == [sp["pieces"] for sp in board.build(
        rules, rules.view(state, other), metrics=rules.metrics(state))["spaces"]]
