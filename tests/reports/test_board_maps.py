"""AAR maps from the one board renderer (issues 13.4 and 17.4): legible setup maps of all three
games (rendered to PNG the way the PDF renders them), never a map without pieces, a legend that
explains every piece letter, control and support in words as well as colour."""

from __future__ import annotations

import itertools
import os
import random
import re
import shutil
import subprocess

import pytest

import engine
from engine.core.boardview import BoardView
from facilitation.rendering.aar_maps import draw_snapshots, snapshot_points
from facilitation.rendering.boardsvg import Drawing, map_svg

GAMES = ("peru", "andean_abyss", "tears_of_tyranny")


def _setup_drawing(game: str) -> tuple[Drawing, str]:
    rules = engine.load(game)
    d = Drawing(rules.board_map())
    d.v = rules.board_view(rules.setup(seed=1, options={}), None)
    return d, d.standalone(d.v, title=f"{rules.title}: setup")


def _png(svg: str, path) -> PIL.Image.Image:  # noqa: F821
    """The SVG as the AAR's PDF draws it (WeasyPrint), rasterised by pdftoppm."""
    import weasyprint
    from PIL import Image

    w, h = (float(x) for x in re.search(r'width="([\d.]+)" height="([\d.]+)"', svg).groups())
    svg_file = path.with_suffix(".svg")
    svg_file.write_text(svg, encoding="utf-8")
    html = (f"<html><head><style>@page{{size:{w}px {h}px;margin:0}} body{{margin:0}} "
            f"img{{display:block;width:{w}px;height:{h}px}}</style></head><body><img src='{svg_file.name}'></body></html>")
    pdf = path.with_suffix(".pdf")
    weasyprint.HTML(string=html, base_url=str(path.parent)).write_pdf(str(pdf))
    subprocess.run(["pdftoppm", "-png", "-r", "50", "-singlefile", str(pdf), str(path.with_suffix(""))], check=True)
    return Image.open(path.with_suffix(".png")).convert("RGB")


@pytest.mark.parametrize("game", GAMES)
def test_setup_map_renders_to_a_png_that_is_not_blank(game, tmp_path):
    _d, svg = _setup_drawing(game)
    img = _png(svg, tmp_path / f"{game}_setup")
    small = img.resize((img.width // 4, img.height // 4))
    counts = small.getcolors(maxcolors=1 << 24)
    ink = sum(n for n, p in counts if sum(p) < 600) / (small.width * small.height)
    colours = len(counts)
    assert ink > 0.04, f"{game}: the map is (almost) blank: {ink:.1%} of it is drawn"
    assert colours > 40, f"{game}: only {colours} colours: no pieces or markers drawn?"
    keep = os.environ.get("COINLAB_BOARD_PNG_DIR")
    if keep:  # for people to look at (docs/architecture/board.md)
        os.makedirs(keep, exist_ok=True)
        shutil.copy(tmp_path / f"{game}_setup.png", keep)


@pytest.mark.parametrize("game", GAMES)
def test_setup_map_labels_stay_inside_the_drawing_and_apart(game):
    d, _svg = _setup_drawing(game)
    m = d.m
    boxes = [(*d.name_box(m.space(s.id))[:4], s.id) for s in d.v.spaces]
    assert len(boxes) == len(d.v.spaces)
    for x0, y0, x1, y1, sid in boxes:
        assert 0 <= x0 and x1 <= m.width and 0 <= y0 and y1 <= m.height, f"{game}: the label of {sid} is cut"
    clashes = [(a[4], b[4]) for a, b in itertools.combinations(boxes, 2)
               if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
    assert clashes == []


@pytest.mark.parametrize("game", GAMES)
def test_legend_explains_every_piece_letter_and_the_marks(game):
    rules = engine.load(game)
    _d, svg = _setup_drawing(game)
    legend = svg[svg.index('class="legend"'):]
    for p in rules.board_map().piece_types:
        assert f"{p.letter} = " in legend, p
    assert "Underground" in legend and "changed since the previous map" in legend
    if rules.board_map().has_control:
        # control and support in words and patterns, not colour alone (WCAG 1.4.1)
        for word in ("controls the space", "A.Sup = Active Support", "A.Opp = Active Opposition"):
            assert word in legend
        assert 'fill="url(#hatch-active_support)"' in svg


def test_control_and_support_are_drawn_as_tags_with_words():
    """Andean Abyss setup (2.1): Bogota is Government-controlled at Active Support."""
    rules = engine.load("andean_abyss")
    svg = map_svg(rules.board_map(), rules.board_view(rules.setup(seed=1, options={}), None))
    bogota = svg[svg.index('data-space="bogota"'):]
    bogota = bogota[:bogota.index('<g class="space ')]
    assert ">GOV<" in bogota and ">A.Sup<" in bogota and "url(#hatch-active_support)" in bogota


def test_a_snapshot_without_pieces_is_reported():
    rules = engine.load("peru")
    view = rules.board_view(rules.setup(seed=1, options={}), None)
    empty = BoardView(view.game, None, tuple(type(s)(s.id) for s in view.spaces), view.tracks)
    snaps, warnings = draw_snapshots("peru", snapshot_points([], None), {0: empty.to_dict()})
    assert snaps[0]["pieces"] == 0
    assert warnings == ["The map at event 0 (Start of the game) has no pieces on it."]


@pytest.mark.parametrize("game", GAMES)
def test_every_snapshot_of_a_played_game_has_pieces(game):
    """The maps at the start, at each Propaganda Round / adversary phase (the facts the AAR marks
    as phases) and at the end of a random game: none is blank, each lists its changes."""
    from facilitation.reports.builder.specs import spec_for

    rules = engine.load(game)
    spec = spec_for(game)
    state = rules.setup(seed=5, options={})
    rnd = random.Random(5)
    views = {0: rules.board_view(state, None).to_dict()}
    phases = []
    seq = 0
    while seq < 1500:
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[0]
        state, facts = rules.apply(state, seat, rnd.choice(p.choices_for(seat)).id)
        seq += 1
        types = {f.get("type") for f in facts}
        if types & set(spec.phase_fact_types) or any(
                all(f.get(k) == v for k, v in pf.items() if "__" not in k) for pf in spec.phase_facts for f in facts):
            if seq not in views:
                phases.append({"seq": seq, "label": f"{spec.phase_label} {len(phases) + 1}", "card": 0})
                views[seq] = rules.board_view(state, None).to_dict()
        if len(phases) >= 3:
            break
    views[seq] = rules.board_view(state, None).to_dict()
    points = snapshot_points(phases, seq)
    snaps, warnings = draw_snapshots(game, points, views)
    assert len(snaps) == len(points) >= 3, "the start, at least one phase and the end"
    assert warnings == []
    for s in snaps:
        assert s["pieces"] > 0, f"{game}: the map at {s['label']} is blank"
        assert s["svg"].count('class="space ') >= 17
    assert any(s["changes"] for s in snaps[1:]), "a played game changes the map"
