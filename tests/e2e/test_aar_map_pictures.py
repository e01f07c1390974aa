"""The AAR's maps, looked at (issues 13.4 and 17.2): each game's setup map and a map from the
middle of a short bot game, drawn as the AAR draws them (``aar_maps.draw_snapshots``, the one
board renderer), rendered to PNG by Chromium and checked mechanically:

- not blank: enough of the map area is drawn (not the white background), in enough colours;
- no two spaces' outlines overlap (for a hex tile: the rectangle between its vertical sides,
  since the bounding boxes of neighbouring hexes overlap by construction while the hexes only
  share a side);
- every space's name (or its group's name, drawn in the group's middle tile) lies inside the
  picture, and no two names overlap;
- the legend is there, below the map, inside the picture, and names every piece letter.

The PNGs are kept under ``test-artifacts/aar-maps/`` for people to look at.
"""

from __future__ import annotations

import io
import itertools
import random
from pathlib import Path

import pytest

import engine
from facilitation.rendering.aar_maps import draw_snapshots

pytestmark = pytest.mark.e2e

GAMES = ("peru", "andean_abyss", "tears_of_tyranny")
OUT = Path(__file__).resolve().parents[2] / "test-artifacts" / "aar-maps"

MEASURE = """(svg) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const spaces = [...svg.querySelectorAll('g.space')].map((g) => {
    const shape = g.querySelector('.space-shape');
    const name = g.querySelector('.space-name');
    return {id: g.dataset.space, tag: shape.tagName, shape: box(shape), name: name ? box(name) : null,
            text: name ? name.textContent : ''};
  });
  const groups = [...svg.querySelectorAll('.group-label')].map((t) => ({text: t.textContent, box: box(t)}));
  const legend = svg.querySelector('g.legend');
  return {svg: box(svg), spaces, groups, legend: legend ? box(legend) : null,
          legendText: legend ? legend.textContent : ''};
}"""


def _bot_views(game: str, steps: int = 90):
    """The board views at the start and after ``steps`` seeded random legal choices."""
    rules = engine.load(game)
    state = rules.setup(seed=7, options={})
    start = rules.board_view(state, None)
    rng = random.Random(7)
    for _ in range(steps):
        p = rules.prompt(state)
        if p is None or not p.seats:
            break
        seat = p.seats[0]
        state, _facts = rules.apply(state, seat, rng.choice(p.choices_for(seat)).id)
    return rules, start, rules.board_view(state, None)


def _inner(sp: dict) -> list[float]:
    x0, y0, x1, y1 = sp["shape"]
    if sp["tag"] == "polygon":  # a pointy-top hex: the band between its vertical sides
        h = (y1 - y0) / 4
        return [x0, y0 + h, x1, y1 - h]
    return [x0, y0, x1, y1]


def _overlap(a, b, slack: float = 0.5) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def _inside(a, outer) -> bool:
    return a[0] >= outer[0] - 0.5 and a[1] >= outer[1] - 0.5 and a[2] <= outer[2] + 0.5 and a[3] <= outer[3] + 0.5


@pytest.mark.parametrize("game", GAMES)
def test_aar_maps_render_legibly(game, browser):
    from PIL import Image

    rules, start, middle = _bot_views(game)
    points = [{"seq": 0, "label": "Start", "kind": "start", "card": 0},
              {"seq": 90, "label": "After 90 decisions", "kind": "phase", "card": None}]
    snaps, warnings = draw_snapshots(game, points, {0: start.to_dict(), 90: middle.to_dict()})
    assert not warnings and len(snaps) == 2
    assert snaps[1]["changes"], "the bot game changed nothing on the map"
    letters = {p.letter for p in rules.board_map().piece_types}
    OUT.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        for snap, name in zip(snaps, ("setup", "midgame"), strict=True):
            page.set_content(f"<!doctype html><html><body style='margin:0;background:#fff'>{snap['svg']}</body></html>")
            svg = page.locator("svg").first
            m = svg.evaluate(MEASURE)
            png = svg.screenshot()
            (OUT / f"{game}_{name}.png").write_bytes(png)
            img = Image.open(io.BytesIO(png)).convert("RGB")
            where = f"{game} {name}"

            # not blank: the map area (above the legend) is drawn, in many colours
            top = m["svg"][1]
            legend_top = round(m["legend"][1] - top) if m["legend"] else img.height
            area = img.crop((0, 0, img.width, max(1, legend_top)))
            small = area.resize((max(1, area.width // 2), max(1, area.height // 2)))
            colours = small.getcolors(maxcolors=1 << 24)
            drawn = sum(n for n, px in colours if px != (255, 255, 255)) / (small.width * small.height)
            assert drawn > 0.15, f"{where}: only {drawn:.0%} of the map area is drawn"
            assert len(colours) > 60, f"{where}: {len(colours)} colours: pieces or marks missing"

            # every space drawn, no two outlines overlapping
            assert len(m["spaces"]) == len(snap_view(snap, start, middle).spaces), where
            clashes = [(a["id"], b["id"]) for a, b in itertools.combinations(m["spaces"], 2)
                       if _overlap(_inner(a), _inner(b))]
            assert clashes == [], f"{where}: overlapping spaces {clashes[:5]}"

            # every name inside the picture, apart from the other names
            names = [s["name"] for s in m["spaces"] if s["name"]] + [g["box"] for g in m["groups"]]
            assert len(names) == len(m["spaces"]), f"{where}: a space without its name"
            for box in names:
                assert _inside(box, m["svg"]), f"{where}: a name is cut: {box} outside {m['svg']}"
            named = [s for s in m["spaces"] if s["name"]]
            label_clashes = [(a["id"], b["id"]) for a, b in itertools.combinations(named, 2)
                             if _overlap(a["name"], b["name"])]
            assert label_clashes == [], f"{where}: overlapping names {label_clashes[:5]}"

            # the legend: below the map, inside the picture, every piece letter explained
            assert m["legend"] and _inside(m["legend"], m["svg"]), where
            assert all(m["legend"][1] >= s["shape"][3] - 0.5 for s in m["spaces"]), f"{where}: legend over the map"
            for letter in letters:
                assert f"{letter} = " in m["legendText"], f"{where}: the legend does not explain {letter}"
            if rules.board_map().has_support:
                assert "A.Sup = Active Support" in m["legendText"]
                assert "controls the space" in m["legendText"]
    finally:
        page.close()


def snap_view(snap: dict, start, middle):
    return start if snap["seq"] == 0 else middle
