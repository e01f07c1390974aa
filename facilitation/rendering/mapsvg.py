"""The one board renderer: a typed board view (``engine.core.boardview``) drawn as a standalone
SVG map with its legend, for the AAR (HTML and PDF), the replay and anything that shows a
position outside the live play page.

What it guarantees (issue 13.4 and 17.2), each checked by tests/reports/test_board_maps.py:

- every piece letter and shape, every control and support mark is explained in the legend
  drawn inside the SVG (so a PDF page or a PNG carries it too);
- control and support are shown by colour *and* by pattern or text (WCAG 1.4.1): control is a
  thick ring in the faction's colour plus a short text ("Ctrl FARC"), support and opposition a
  tint plus a hatching whose density says Active or Passive, plus a short text ("Act Sup");
- labels are never cut: a name too long for its space is set in a smaller font (never below
  a floor), and a Line of Communication's label box grows with its text;
- spaces come from the game's ``BoardMap`` geometry, which a test checks for overlaps;
- the spaces that changed since the previous snapshot get a dashed magenta ring and a star.

Names are messages, rendered with the ``gettext``/``ngettext`` given (English by default).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape
from typing import Any

from engine.core.boardview import (
    BoardMap,
    BoardView,
    PieceStack,
    PieceState,
    Shape,
    SpaceGeometry,
    SpaceShape,
    SpaceView,
    Support,
)
from engine.core.messages import render

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
CHANGED = "#C2185B"
SUPPORT_TINT = {Support.ACTIVE_SUPPORT: "#9ecae1", Support.PASSIVE_SUPPORT: "#d6e8f3",
                Support.PASSIVE_OPPOSITION: "#f6d2b8", Support.ACTIVE_OPPOSITION: "#eba47a"}
SUPPORT_SHORT = {Support.ACTIVE_SUPPORT: "A.Sup", Support.PASSIVE_SUPPORT: "P.Sup",
                 Support.PASSIVE_OPPOSITION: "P.Opp", Support.ACTIVE_OPPOSITION: "A.Opp"}
SUPPORT_LONG = {Support.ACTIVE_SUPPORT: "Active Support", Support.PASSIVE_SUPPORT: "Passive Support",
                Support.NEUTRAL: "Neutral", Support.PASSIVE_OPPOSITION: "Passive Opposition",
                Support.ACTIVE_OPPOSITION: "Active Opposition"}
TERRAIN_FILL = {"terrain-urban": "#e3e0ea", "terrain-rural": "#eef3dc", "terrain-jungle": "#d7ead2",
                "terrain-desert": "#f6edd2", "terrain-forest": "#e2efdc", "terrain-grassland": "#f2f4df",
                "terrain-mountain": "#ebe6df", "terrain-highland": "#ece6dc", "terrain-jungle ": "#d7ead2",
                "terrain-coastal": "#e6f0f5", "terrain-lima": "#eeeeee"}
NEUTRAL_FILL = "#fbfbf8"


def _luminance(color: str) -> float:
    c = color.lstrip("#")
    if len(c) != 6:
        return 0.5
    r, g, b = (int(c[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _tint(color: str, keep: float = 0.3) -> str:
    """``color`` mixed with white (``keep`` of the colour): an Underground piece's face."""
    c = color.lstrip("#")
    if len(c) != 6:
        return "#ffffff"
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    return "#" + "".join(f"{round(255 - (255 - v) * keep):02x}" for v in (r, g, b))


def _ink(color: str) -> str:
    """Black or white text, whichever reads on ``color``."""
    return "#000000" if _luminance(color) > 0.45 else "#ffffff"


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


class _Text:
    def __init__(self, gettext: Callable[[str], str] | None, ngettext: Callable[[str, str, int], str] | None):
        self.gettext = gettext
        self.ngettext = ngettext

    def __call__(self, value: Any) -> str:
        if self.gettext is None:
            return render(value)
        return render(value, self.gettext, self.ngettext or (lambda s, p, n: self.gettext(s if n == 1 else p)))

    def word(self, english: str) -> str:
        return self.gettext(english) if self.gettext else english


def text_width(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` in the sans font at ``size`` px."""
    wide = sum(1 for ch in text if ch.isupper() or ch in "mwMW@%")
    return size * (0.56 * len(text) + 0.12 * wide)


def fitted_size(text: str, size: float, room: float, floor: float) -> float:
    """``size``, made smaller (not below ``floor``) until ``text`` fits in ``room``."""
    w = text_width(text, size)
    return size if w <= room else max(floor, size * room / w)


class MapDrawing:
    """One map drawn from a board map and a board view (see the module docstring)."""

    def __init__(self, board_map: BoardMap, view: BoardView, *, title: str = "",
                 changed: Iterable[str] = (), gettext=None, ngettext=None):
        self.m = board_map
        self.v = view
        self.title = title
        self.changed = set(changed)
        self.t = _Text(gettext, ngettext)
        self.unit = max(board_map.width, board_map.height * 1.2) / 64  # the body font size
        self.colors = {f.id: f.color for f in board_map.factions}
        self.abbr = {f.id: f.abbreviation or self.t(f.name) for f in board_map.factions}
        self.types = {p.id: p for p in board_map.piece_types}
        self.label_boxes: list[tuple[float, float, float, float, str]] = []  # drawn text, for checks
        self.group_centres: dict[str, str] = {}  # space id -> the group name drawn there

    # ---- pieces ---------------------------------------------------------------------------
    def chip(self, p: PieceStack, x: float, y: float, size: float) -> str:
        """One stack: the type's shape in its owner's colour, its letter and count inside."""
        pt = self.types.get(p.type)
        letter = pt.letter if pt else "?"
        shape = pt.shape if pt else Shape.DISC
        color = self.colors.get(p.owner) or _NEUTRAL_PIECE.get(p.type, "#9e9e9e")
        underground = p.state == PieceState.UNDERGROUND
        fill = _tint(color) if underground else color
        ink = "#000000" if underground else _ink(color)
        dash = f' stroke-dasharray="{_n(size * 0.3)} {_n(size * 0.14)}"' if underground else ""
        sw = _n(size * (0.14 if underground else 0.06))
        stroke = "#222222"
        label = f"{p.count}{letter}" if p.count > 1 else letter
        w = max(size, text_width(label, size * 0.62) + size * 0.35)
        h = size
        x0, y0 = x - w / 2, y - h / 2
        common = f'fill="{fill}" stroke="{stroke}" stroke-width="{sw}"{dash}'
        if shape == Shape.CUBE:
            body = f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(h * 0.08)}" {common}/>'
        elif shape == Shape.BASE:
            roof = h * 0.3
            body = (f'<path d="M{_n(x0)} {_n(y0 + h)} V{_n(y0 + roof)} L{_n(x)} {_n(y0 - roof * 0.3)} '
                    f'L{_n(x0 + w)} {_n(y0 + roof)} V{_n(y0 + h)} Z" {common}/>')
        elif shape == Shape.TOKEN:
            body = (f'<path d="M{_n(x0)} {_n(y)} L{_n(x0 + h * 0.3)} {_n(y0)} H{_n(x0 + w - h * 0.3)} '
                    f'L{_n(x0 + w)} {_n(y)} L{_n(x0 + w - h * 0.3)} {_n(y0 + h)} H{_n(x0 + h * 0.3)} Z" {common}/>')
        elif shape == Shape.DISC:
            body = f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{_n(w / 2)}" ry="{_n(h / 2)}" {common}/>'
        else:  # a cylinder: a pill
            body = f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(h / 2)}" {common}/>'
        text = (f'<text x="{_n(x)}" y="{_n(y + size * 0.22)}" font-size="{_n(size * 0.62)}" font-weight="bold" '
                f'text-anchor="middle" fill="{ink}">{escape(label)}</text>')
        return body + text, w

    def chips(self, pieces: tuple[PieceStack, ...], cx: float, top: float, room: float, size: float) -> str:
        """Stacks in rows centred on ``cx`` from ``top``, each row at most ``room`` wide."""
        out = []
        rows: list[list[tuple[PieceStack, float]]] = [[]]
        used = 0.0
        gap = size * 0.18
        for p in pieces:
            _, w = self.chip(p, 0, 0, size)
            if rows[-1] and used + gap + w > room:
                rows.append([])
                used = 0.0
            rows[-1].append((p, w))
            used += (gap if used else 0) + w
        for i, row in enumerate(rows):
            total = sum(w for _, w in row) + gap * (len(row) - 1)
            x = cx - total / 2
            y = top + i * size * 1.25 + size / 2
            for p, w in row:
                svg, _ = self.chip(p, x + w / 2, y, size)
                out.append(svg)
                x += w + gap
        return "".join(out), len(rows)

    # ---- spaces ---------------------------------------------------------------------------
    def outline(self, g: SpaceGeometry, fill: str, stroke: str, width: float, extra: str = "") -> str:
        if g.shape == SpaceShape.HEX:
            import math
            pts = " ".join(f"{_n(g.x + g.r * math.cos(math.radians(60 * k - 30)))},"
                           f"{_n(g.y + g.r * math.sin(math.radians(60 * k - 30)))}" for k in range(6))
            return f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>'
        if g.shape == SpaceShape.BOX:
            x0, y0, x1, y1 = g.bounds()
            return (f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" '
                    f'rx="{_n(g.r * 0.15)}" fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>')
        if g.shape == SpaceShape.ROAD:
            x0, y0, x1, y1 = self.road_box(g)
            return (f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" '
                    f'rx="{_n((y1 - y0) / 2)}" fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>')
        return (f'<circle cx="{_n(g.x)}" cy="{_n(g.y)}" r="{_n(g.r)}" fill="{fill}" stroke="{stroke}" '
                f'stroke-width="{_n(width)}"{extra}/>')

    def road_box(self, g: SpaceGeometry) -> tuple[float, float, float, float]:
        size = self.unit * 0.8
        w = max(g.r * 2.6, text_width(g.label, size) + size)
        h = size * 1.7
        return (g.x - w / 2, g.y - h / 2, g.x + w / 2, g.y + h / 2)

    def space(self, g: SpaceGeometry, s: SpaceView | None) -> str:
        out = [f'<g class="space" data-space="{escape(g.id)}"><title>{escape(self.t(g.name))}</title>']
        u = self.unit
        support = s.support if s else None
        control = s.control if s else None
        base_fill = TERRAIN_FILL.get(g.css, NEUTRAL_FILL) if g.shape == SpaceShape.HEX else NEUTRAL_FILL
        fill = SUPPORT_TINT.get(support, base_fill) if support else base_fill
        out.append(self.outline(g, fill, "#555555", u * 0.08))
        if support in SUPPORT_TINT:
            out.append(self.outline(g, f"url(#hatch-{support.value})", "none", 0))
        if control:
            color = self.colors.get(control, "#333333")
            out.append(self.outline(g, "none", color, u * 0.42, ' stroke-opacity="0.95"'))
        if g.id in self.changed:
            out.append(self.outline(g, "none", CHANGED, u * 0.22,
                                    f' stroke-dasharray="{_n(u * 0.6)} {_n(u * 0.35)}" class="changed"'))
        # the name at the top, fitted to the space's width; markers under it in words
        name = g.label
        h = g.half_height
        if g.shape == SpaceShape.ROAD:
            x0, y0, x1, y1 = self.road_box(g)
            size = u * 0.8
            ny = g.y + size * 0.35
        else:
            k = u * 0.75 if g.shape == SpaceShape.HEX else max(u * 1.05, g.r * 0.3)
            room = g.r * (1.45 if g.shape == SpaceShape.HEX else 1.8)
            size = fitted_size(name, k, room, u * (0.5 if g.shape == SpaceShape.HEX else 0.62))
            ny = g.y - h * 0.5
        if g.id not in self.group_centres:  # there the group's name stands instead
            out.append(f'<text x="{_n(g.x)}" y="{_n(ny)}" font-size="{_n(size)}" font-weight="bold" '
                       f'text-anchor="middle" fill="#111111">{escape(name)}</text>')
        w = text_width(name, size)
        self.label_boxes.append((g.x - w / 2, ny - size, g.x + w / 2, ny + size * 0.25, g.id))
        words = [self.t(mk.name) + (f" {mk.count}" if mk.count > 1 else "") for mk in (s.markers if s else ())]
        if g.id in self.changed:
            words.insert(0, "\u2605")
        if g.shape == SpaceShape.ROAD:
            line_y = y1 + u * 0.75
            zone_top = line_y + u * 0.3 if words else y1 + u * 0.2
            zone_bottom = zone_top + u * 3
            room = max(g.r * 4, x1 - x0)
        else:
            line_y = ny + size * 1.05
            zone_top = line_y + u * 0.15 if words else ny + size * 0.3
            if g.id in self.group_centres:
                zone_top += u * 0.35
            zone_bottom = g.y + h * (0.62 if g.shape != SpaceShape.HEX else 0.8)
            room = g.r * (1.5 if g.shape == SpaceShape.HEX else 1.75)
        if words:
            line = ", ".join(words)
            fsize = fitted_size(line, u * 0.7, room, u * 0.45)
            out.append(f'<text x="{_n(g.x)}" y="{_n(line_y)}" font-size="{_n(fsize)}" text-anchor="middle" '
                       f'fill="#222222">{escape(line)}</text>')
        if s and s.pieces:
            chip = u * 0.95 if g.shape == SpaceShape.HEX else max(u * 1.2, g.r * 0.34)
            floor = u * 0.6
            while True:
                svg, rows = self.chips(s.pieces, g.x, zone_top, room, chip)
                if rows * chip * 1.25 <= zone_bottom - zone_top + chip * 0.2 or chip <= floor:
                    break
                chip *= 0.9
            out.append(svg)
        # control and support as tags on the bottom edge: the colour and the words together
        if g.shape != SpaceShape.ROAD and g.shape != SpaceShape.HEX:
            tags = []
            if control:
                color = self.colors.get(control, "#333333")
                tags.append((self.abbr.get(control, control), color, _ink(color), None))
            if support in SUPPORT_SHORT:
                tags.append((self.t.word(SUPPORT_SHORT[support]), SUPPORT_TINT[support], "#111111", support))
            if tags:
                ts = u * 0.72
                widths = [text_width(t[0], ts) + ts * 0.8 for t in tags]
                total = sum(widths) + ts * 0.3 * (len(tags) - 1)
                x = g.x - total / 2
                ty = g.y + h * (0.88 if g.shape == SpaceShape.CIRCLE else 0.95) - ts * 0.7
                for (text, bg, ink, lvl), tw in zip(tags, widths, strict=True):
                    out.append(f'<rect x="{_n(x)}" y="{_n(ty)}" width="{_n(tw)}" height="{_n(ts * 1.4)}" '
                               f'rx="{_n(ts * 0.3)}" fill="{bg}" stroke="#333333" stroke-width="{_n(u * 0.05)}"/>')
                    if lvl is not None:
                        out.append(f'<rect x="{_n(x)}" y="{_n(ty)}" width="{_n(tw)}" height="{_n(ts * 1.4)}" '
                                   f'rx="{_n(ts * 0.3)}" fill="url(#hatch-{lvl.value})"/>')
                    out.append(f'<text x="{_n(x + tw / 2)}" y="{_n(ty + ts * 1.02)}" font-size="{_n(ts)}" '
                               f'font-weight="bold" text-anchor="middle" fill="{ink}">{escape(text)}</text>')
                    x += tw + ts * 0.3
        out.append("</g>")
        return "".join(out)

    # ---- legend ---------------------------------------------------------------------------
    def legend(self, top: float) -> tuple[str, float]:
        """The legend under the map: factions, piece types, piece states, control, support,
        markers in use, the changed-ring, the game's notes and its tracks. Returns (svg, height)."""
        u = self.unit
        size = u * 0.85
        line_h = size * 1.9
        items: list[tuple[str, str]] = []  # (swatch svg at 0,0, text)
        for f in self.m.factions:
            if self.m.has_control:
                tag = f.abbreviation or self.t(f.name)
                tw = text_width(tag, size * 0.7) + size * 0.6
                items.append((f'<rect x="0" y="{_n(-size * 0.85)}" width="{_n(max(tw, size * 1.8))}" '
                              f'height="{_n(size * 1.2)}" fill="#ffffff" stroke="{f.color}" '
                              f'stroke-width="{_n(size * 0.3)}"/><rect x="{_n(size * 0.3)}" y="{_n(-size * 0.6)}" '
                              f'width="{_n(tw)}" height="{_n(size * 0.75)}" fill="{f.color}"/>'
                              f'<text x="{_n(size * 0.3 + tw / 2)}" y="{_n(-size * 0.05)}" font-size="{_n(size * 0.6)}" '
                              f'font-weight="bold" text-anchor="middle" fill="{_ink(f.color)}">{escape(tag)}</text>',
                              f"{self.t(f.name)}: " + self.t.word("its colour; ring and tag = it controls the space")))
            else:
                items.append((f'<rect x="0" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" height="{_n(size * 1.1)}" '
                              f'fill="{f.color}" stroke="#333333"/>', self.t(f.name)))
        for p in self.m.piece_types:
            svg, _ = self.chip(PieceStack(p.id, p.owner, 1), size * 0.8, -size * 0.25, size)
            shape = self.t.word(_SHAPE_WORD[p.shape])
            whose = "" if p.owner or p.id in _NEUTRAL_PIECE else ", " + self.t.word("in its owner's colour")
            items.append((svg, f"{p.letter} = {self.t(p.name)} ({shape}{whose})"))
        owner = next((f.id for f in self.m.factions if any(pt.owner == f.id for pt in self.m.piece_types)), "")
        any_type = next((p.id for p in self.m.piece_types if p.shape == Shape.CYLINDER), None)
        if any_type:
            svg, _ = self.chip(PieceStack(any_type, self.types[any_type].owner or owner, 1, PieceState.UNDERGROUND),
                               size * 0.8, -size * 0.25, size)
            items.append((svg, self.t.word("dashed outline, pale = Underground; solid = Active")))
        example = next((p for p in self.m.piece_types if p.shape == Shape.CYLINDER), self.m.piece_types[0])
        items.append((self.chip_count_example(size),
                      f"3{example.letter} = " + self.t.word("a stack of 3:") + f" {self.t(example.name)}"))
        if self.m.has_support:
            for lvl in (Support.ACTIVE_SUPPORT, Support.PASSIVE_SUPPORT, Support.PASSIVE_OPPOSITION,
                        Support.ACTIVE_OPPOSITION):
                sw = (f'<rect x="0" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" height="{_n(size * 1.1)}" '
                      f'fill="{SUPPORT_TINT[lvl]}" stroke="#555555"/>'
                      f'<rect x="0" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" height="{_n(size * 1.1)}" '
                      f'fill="url(#hatch-{lvl.value})"/>')
                items.append((sw, f"{self.t.word(SUPPORT_SHORT[lvl])} = {self.t.word(SUPPORT_LONG[lvl])}"))
            items.append(("", self.t.word("no tag, no tint = Neutral")))
        if any(g.shape == SpaceShape.HEX for g in self.m.spaces):
            for css, word in (("terrain-urban", "Urban"), ("terrain-rural", "Rural"), ("terrain-jungle", "Jungle"),
                              ("terrain-desert", "Desert")):
                items.append((f'<rect x="0" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" height="{_n(size * 1.1)}" '
                              f'fill="{TERRAIN_FILL[css]}" stroke="#555555"/>', self.t.word(word) + " " +
                              self.t.word("terrain")))
        items.append((f'<rect x="0" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" height="{_n(size * 1.1)}" '
                      f'fill="none" stroke="{CHANGED}" stroke-width="{_n(size * 0.2)}" stroke-dasharray="4 3"/>',
                      "\u2605 " + self.t.word("dashed magenta ring = changed since the previous map")))
        for note in self.m.legend_notes:
            items.append(("", self.t(note)))
        # columns: as many as fit the width
        col_w = max(text_width(txt, size) for _, txt in items) + size * 3
        cols = max(2, int((self.m.width - u) // col_w))
        col_w = (self.m.width - u) / cols
        widest = max(text_width(txt, size) for _, txt in items) + size * 3
        if widest > col_w:  # two columns at least: a smaller legend font rather than one long column
            size *= col_w / widest
            line_h = size * 1.9
        rows = -(-len(items) // cols)
        out = [f'<g class="legend"><rect x="0" y="{_n(top)}" width="{_n(self.m.width)}" '
               f'height="{_n(rows * line_h + line_h * 1.4 + self.tracks_height())}" fill="#ffffff"/>',
               f'<text x="{_n(u * 0.5)}" y="{_n(top + line_h * 0.8)}" font-size="{_n(size * 1.1)}" '
               f'font-weight="bold">{escape(self.t.word("Legend"))}</text>']
        for i, (swatch, txt) in enumerate(items):
            c, r = divmod(i, rows)
            x = u * 0.5 + c * col_w
            y = top + line_h * 1.4 + r * line_h + size * 0.6
            out.append(f'<g transform="translate({_n(x)} {_n(y)})">{swatch}</g>')
            out.append(f'<text x="{_n(x + size * 2.6)}" y="{_n(y)}" font-size="{_n(size)}">{escape(txt)}</text>')
        h = rows * line_h + line_h * 1.4
        ty = top + h + size
        for tr in self.v.tracks:
            rng = f" ({_n(tr.min)}-{_n(tr.max)})" if tr.max is not None else ""
            th = "; ".join(self.t(x.name) for x in tr.thresholds)
            out.append(f'<text x="{_n(u * 0.5)}" y="{_n(ty)}" font-size="{_n(size)}">'
                       f'<tspan font-weight="bold">{escape(self.t(tr.name))}: {_n(tr.value)}</tspan>{escape(rng)}'
                       f'{escape("  - " + th if th else "")}</text>')
            ty += line_h * 0.8
        out.append("</g>")
        return "".join(out), h + self.tracks_height() + size

    def tracks_height(self) -> float:
        return len(self.v.tracks) * self.unit * 0.85 * 1.9 * 0.8 + self.unit

    def chip_count_example(self, size: float) -> str:
        t = next((p for p in self.m.piece_types if p.shape == Shape.CYLINDER), self.m.piece_types[0])
        svg, _ = self.chip(PieceStack(t.id, t.owner, 3), size * 0.9, -size * 0.25, size)
        return svg

    # ---- the whole map --------------------------------------------------------------------
    def defs(self) -> str:
        u = self.unit
        out = ["<defs>"]
        for lvl, (gap, angle) in {Support.ACTIVE_SUPPORT: (u * 0.35, 45), Support.PASSIVE_SUPPORT: (u * 0.8, 45),
                                  Support.PASSIVE_OPPOSITION: (u * 0.8, -45),
                                  Support.ACTIVE_OPPOSITION: (u * 0.35, -45)}.items():
            color = "#2b6f9e" if lvl in (Support.ACTIVE_SUPPORT, Support.PASSIVE_SUPPORT) else "#a0522d"
            out.append(f'<pattern id="hatch-{lvl.value}" patternUnits="userSpaceOnUse" width="{_n(gap)}" '
                       f'height="{_n(gap)}" patternTransform="rotate({angle})">'
                       f'<line x1="0" y1="0" x2="0" y2="{_n(gap)}" stroke="{color}" stroke-width="{_n(u * 0.07)}" '
                       f'stroke-opacity="0.55"/></pattern>')
        out.append("</defs>")
        return "".join(out)

    def svg(self) -> str:
        u = self.unit
        title_h = u * 2.2 if self.title else u * 0.5
        spaces = {s.id: s for s in self.v.spaces}
        drawn = [g for g in self.m.spaces if g.id in spaces]
        self.find_group_centres(drawn)
        body = [self.defs(), f'<rect x="0" y="0" width="{_n(self.m.width)}" height="{_n(self.m.height)}" '
                             f'fill="#ffffff"/>']
        # adjacency under everything (roads are drawn by their own line)
        has_lines = any(g.line for g in drawn)
        if not has_lines:
            seen = set()
            index = {g.id: g for g in drawn}
            lines = []
            for g in drawn:
                for o in g.adjacent:
                    k = tuple(sorted((g.id, o)))
                    if o in index and k not in seen and g.shape != SpaceShape.HEX:
                        seen.add(k)
                        lines.append(f'<line x1="{_n(g.x)}" y1="{_n(g.y)}" x2="{_n(index[o].x)}" '
                                     f'y2="{_n(index[o].y)}"/>')
            body.append(f'<g stroke="#c8c8c8" stroke-width="{_n(u * 0.12)}">{"".join(lines)}</g>')
        roads = [g for g in drawn if g.shape == SpaceShape.ROAD]
        for g in roads:  # lines first, so that no road crosses a space's pieces
            if g.line:
                pts = " ".join(f"{_n(a)},{_n(b)}" for a, b in g.line)
                body.append(f'<polyline points="{pts}" fill="none" stroke="#8d6e63" stroke-width="{_n(u * 0.45)}" '
                            f'stroke-linecap="round" stroke-linejoin="round" opacity="0.8"/>')
        for g in drawn:
            if g.shape != SpaceShape.ROAD:
                body.append(self.space(g, spaces.get(g.id)))
        for g in roads:
            body.append(self.space(g, spaces.get(g.id)))
        body += self.group_labels(drawn)
        legend, legend_h = self.legend(self.m.height)
        height = self.m.height + legend_h
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 {_n(-title_h)} {_n(self.m.width)} '
                f'{_n(height + title_h)}" width="{_n(self.m.width)}" height="{_n(height + title_h)}" '
                f'font-family="{FONT}" role="img" aria-label="{escape(self.title or self.t.word("Map"))}">')
        title = (f'<rect x="0" y="{_n(-title_h)}" width="{_n(self.m.width)}" height="{_n(title_h)}" fill="#ffffff"/>'
                 f'<text x="{_n(u * 0.5)}" y="{_n(-title_h * 0.35)}" font-size="{_n(u * 1.2)}" '
                 f'font-weight="bold">{escape(self.title)}</text>') if self.title else ""
        return head + title + "".join(body) + legend + "</svg>"

    def find_group_centres(self, drawn: list[SpaceGeometry]) -> None:
        """The space nearest each group's centre carries the group's name (a septet's middle tile)."""
        groups: dict[str, list[SpaceGeometry]] = {}
        for g in drawn:
            if g.group is not None:
                groups.setdefault(self.t(g.group), []).append(g)
        for name, members in groups.items():
            gx = sum(m.x for m in members) / len(members)
            gy = sum(m.y for m in members) / len(members)
            c = min(members, key=lambda m: (m.x - gx) ** 2 + (m.y - gy) ** 2)
            self.group_centres[c.id] = name

    def group_labels(self, drawn: list[SpaceGeometry]) -> list[str]:
        index = {g.id: g for g in drawn}
        out = []
        for sid, name in self.group_centres.items():
            c = index[sid]
            size = fitted_size(name, self.unit * 0.7, c.r * 2.4, self.unit * 0.5)
            w = text_width(name, size)
            y = c.y - c.r * 0.5
            out.append(f'<rect x="{_n(c.x - w / 2 - size * 0.3)}" y="{_n(y - size * 0.95)}" '
                       f'width="{_n(w + size * 0.6)}" height="{_n(size * 1.3)}" rx="{_n(size * 0.3)}" '
                       f'fill="#ffffff" fill-opacity="0.9" stroke="#666666" stroke-width="{_n(self.unit * 0.05)}"/>'
                       f'<text x="{_n(c.x)}" y="{_n(y)}" font-size="{_n(size)}" font-weight="bold" '
                       f'text-anchor="middle" fill="#222222">{escape(name)}</text>')
        return out


_SHAPE_WORD = {Shape.CUBE: "square", Shape.CYLINDER: "round-ended", Shape.BASE: "house",
               Shape.DISC: "oval", Shape.TOKEN: "hexagon"}
_NEUTRAL_PIECE = {"civilian_red": "#e53935", "civilian_blue": "#1e88e5", "shipment": "#ffffff"}


def map_svg(board_map: BoardMap, view: BoardView, *, title: str = "", changed: Iterable[str] = (),
            gettext=None, ngettext=None) -> str:
    """A standalone SVG of ``view`` on ``board_map`` with its legend (see the module docstring)."""
    return MapDrawing(board_map, view, title=title, changed=changed, gettext=gettext, ngettext=ngettext).svg()


def changed_spaces(before: BoardView | None, after: BoardView, board_map: BoardMap | None = None,
                   text: Callable[[Any], str] = render) -> dict[str, list[str]]:
    """The spaces whose pieces, control, support or markers differ, with what changed in words."""
    if before is None:
        return {}
    old = {s.id: s for s in before.spaces}
    types = {p.id: p for p in board_map.piece_types} if board_map else {}
    out: dict[str, list[str]] = {}

    def counts(sp: SpaceView) -> dict[tuple, int]:
        c: dict[tuple, int] = {}
        for p in sp.pieces:
            k = (p.type, p.owner, p.state)
            c[k] = c.get(k, 0) + p.count
        return c

    for s in after.spaces:
        o = old.get(s.id)
        if o is None or o == s:
            continue
        notes = []
        counts_b, counts_a = counts(o), counts(s)
        for k in sorted(set(counts_a) | set(counts_b)):
            d = counts_a.get(k, 0) - counts_b.get(k, 0)
            if d:
                name = text(types[k[0]].name) if k[0] in types else k[0].replace("_", " ")
                notes.append(f"{d:+d} {name}" + (f" ({k[2].value})" if k[2] != PieceState.NONE else ""))
        if o.control != s.control:
            notes.append(f"control {o.control or '-'} -> {s.control or '-'}")
        if o.support != s.support:
            notes.append(f"{SUPPORT_LONG[o.support or Support.NEUTRAL]} -> {SUPPORT_LONG[s.support or Support.NEUTRAL]}")
        if o.markers != s.markers:
            notes.append("markers")
        if notes:
            out[s.id] = notes
    return out


__all__ = ["MapDrawing", "changed_spaces", "fitted_size", "map_svg", "text_width"]
