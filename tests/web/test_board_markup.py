"""The board's figure (``board.markup``, issue #8): the map drawn by the one board renderer
(``boardsvg``) for the play page, with the per-process memo of each space's markup. Boards of
several positions of every game, from every seat, with and without that seat's choices, in
both languages: a warm draw (from the memo) equals a cold one, every choice on the map is
clickable and named with the space's visible name, every piece is drawn, values are escaped."""

import random
import re

import pytest
from django.utils import translation

import engine
from engine.core.boardview import (
    BoardMap,
    BoardView,
    FactionInfo,
    Marker,
    PieceStack,
    SpaceGeometry,
    SpaceShape,
    SpaceView,
)
from engine.core.messages import msg
from facilitation.rendering import board
from facilitation.rendering.boardsvg import Drawing

GAMES = ("peru", "andean_abyss", "tears_of_tyranny")


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


def _map_part(html: str) -> str:
    return html[html.index('<svg class="board-svg'):html.index("</svg><figcaption")]


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("key", GAMES)
def test_markup_from_the_memo_equals_a_fresh_draw_and_names_every_choice(key, lang):
    drawn = with_choices = 0
    with translation.override(lang):
        for seat, b in _boards(key):
            warm = board.markup(b)
            board.clear_memo()
            cold = board.markup(b)
            assert warm == cold, (key, seat, lang)
            drawn += 1
            svg = _map_part(cold)
            if any(sp["choices"] for sp in b["spaces"]):
                with_choices += 1
                assert 'data-choice="' in svg or 'data-choices="' in svg
            for sp in b["spaces"]:
                if len(sp["choices"]) == 1:  # a button: its accessible name holds the visible name (19.8)
                    group = re.search(f'<g class="[^"]*" id="space-{re.escape(sp["id"])}"[^>]*>', svg).group(0)
                    label = re.search(r'aria-label="([^"]*)"', group).group(1)
                    visible = re.escape(sp["short"] or sp["name"])
                    assert re.search(visible, label, re.I), (key, sp["id"], label)
            assert svg.count('class="piece') == sum(len(sp["pieces"]) for sp in b["spaces"])
    assert drawn >= 4 * 3 and with_choices, (key, drawn, with_choices)


def test_markup_escapes_names_labels_and_markers():
    """Names, labels and markers with markup characters; one and several choices on a space."""
    evil = '<b>"R&D" l\'x</b>'
    spaces = (SpaceGeometry("a", msg(evil), evil, "city", SpaceShape.BOX, 100, 100, 50),
              SpaceGeometry("b", msg("B"), "B", "department", SpaceShape.CIRCLE, 300, 100, 50),
              SpaceGeometry("c", msg("C"), "C", "loc", SpaceShape.ROAD, 200, 180, 30, line=((100, 100), (300, 100))))
    m = BoardMap("t", 400, 240, (FactionInfo("gov", msg(evil), "#0072B2", "G&C"),),
                 engine.load("peru").board_map().piece_types, spaces, has_control=True)
    v = BoardView("t", None, (SpaceView("a", (PieceStack("troops", "gov", 2),), control="gov",
                                        markers=(Marker("m", msg(evil)),)), SpaceView("b"), SpaceView("c")))
    d = Drawing(m)
    one = d.space(m.space("a"), v.spaces[0], choices=[{"id": 'x"1', "label": evil}], interactive=True)
    several = d.space(m.space("b"), v.spaces[1], choices=[{"id": "a", "label": "A & B"}, {"id": "b<", "label": "C"}],
                      interactive=True)
    html = one + several + d.standalone(v, title=evil)
    assert evil not in html and "&lt;b&gt;&quot;R&amp;D&quot; l&#x27;x&lt;/b&gt;" in html
    assert 'data-choice="x&quot;1"' in one and 'role="button"' in one and 'data-choices="a b&lt; "' in several
    assert 'aria-label="&lt;b&gt;' in one  # the visible name is in the label already: kept as it is
    rules = engine.load("andean_abyss")
    state = rules.setup(seed=5, options={})
    b = board.build(rules, rules.view(state, None), metrics=rules.metrics(state))
    b["spaces"][0]["name"] = evil
    b["spaces"][0]["static"] = [evil]
    b["spaces"][0]["markers"] = [evil]
    html = board.markup(b, open_text=True)
    assert evil not in html and "<details class=\"board-text\" open>" in html


def test_a_choice_label_without_the_visible_name_gets_it():
    g = SpaceGeometry("lima", msg("Lima"), "Lima", "city", SpaceShape.BOX, 100, 100, 50)
    d = Drawing(BoardMap("t", 200, 200, (), (), (g,)))
    svg = d.space(g, SpaceView("lima"), choices=[{"id": "go", "label": "Train here"}], interactive=True)
    assert 'aria-label="Lima: Train here"' in svg


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
    assert not {"pieces", "markers", "choices", "view"} & {k for sp in kept["spaces"] for k in sp}
    cold["spaces"][0]["adjacent"].append("nowhere")
    cold["spaces"][0]["static"].append("scribbled")
    warm = board.build(rules, rules.view(state, seat), metrics=rules.metrics(state), choices=choices)
    assert warm["drawing"] is kept["drawing"]
    board._GEOMETRY.clear()
    fresh = board.build(rules, rules.view(state, seat), metrics=rules.metrics(state), choices=choices)
    assert fresh["drawing"] is not kept["drawing"]  # drawn anew: the same map, the same markup
    assert board.markup(warm) == board.markup(fresh)
    assert {**warm, "drawing": None} == {**fresh, "drawing": None}
    assert any(sp["choices"] for sp in warm["spaces"])
    mine = {c["id"] for sp in warm["spaces"] for c in sp["choices"]}
    theirs = board.build(rules, rules.view(state, other), metrics=rules.metrics(state),
                         choices=[c.to_dict() for c in p.choices_for(other)] if other in p.seats else [])
    html = board.markup(theirs)
    assert not any(f'"{cid}"' in html for cid in mine if cid not in {c["id"] for sp in theirs["spaces"] for c in sp["choices"]})
    assert [sp["pieces"] for sp in theirs["spaces"]] == [sp["pieces"] for sp in board.build(
        rules, rules.view(state, other), metrics=rules.metrics(state))["spaces"]]
