"""The one board renderer: a typed board view (``engine.core.boardview``) drawn as SVG, for the
play page, the replay, the instructor console and the AAR (issue 13.4, 17.2).

One ``Drawing`` per game map and language draws every space the same way wherever it is shown;
the callers only choose options:

- the live page (``board_markup.markup``) draws the map *interactive*: spaces a choice points at
  are buttons (``role="button"``, ``data-choice``; their accessible name holds the space's
  visible name, issue 19.8), the legend goes into the figure's caption as HTML, and each space's
  SVG is kept per process by what it is drawn from (issue #8: a poll redraws only what changed);
- the AAR (``standalone``) draws a self-contained, printable SVG with a title, the legend and
  the tracks drawn inside it (so PDF pages and PNGs carry them), the spaces that changed since
  the previous snapshot ringed.

What every drawing guarantees (tests/reports/test_board_maps.py, tests/web/test_board_markup.py):

- every piece letter and shape, every control and support mark is explained in the legend;
- control and support are shown by colour *and* by pattern or text (WCAG 1.4.1): control is a
  thick ring in the faction's colour plus a tag with its abbreviation, support and opposition a
  tint plus a hatching whose density says Active or Passive plus a tag ("A.Sup");
- factions are told apart by more than colour: where the same piece letter is used by several
  factions (Guerrillas of FARC, AUC and Cartels; every player's Presence), the piece carries its
  owner's mark before the letter ("FG", "AG", "CG"); a player's home area (Tears of Tyranny's
  quadrants) is outlined in the player's colour *and* a dash pattern of its own, named in the
  legend and in the text table;
- labels are never cut: a name too long for its space is set in a smaller font (never below a
  floor), and a Line of Communication's label box grows with its text;
- the spaces come from the game's ``BoardMap`` geometry, which tests check for overlaps.

Presentation attributes only (no ``style`` attributes, no ``<style>``): the page's CSP refuses
inline styles, and an SVG shown as an image (the AAR's PDF) must carry its own look. The page's
CSS only adds states on top (a space to choose, focus).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import lru_cache
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


def gettext_noop(english: str) -> str:
    """Marks the legend's words for makemessages; the drawing's ``tr`` translates them."""
    return english



FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
CHANGED = "#C2185B"
SUPPORT_TINT = {Support.ACTIVE_SUPPORT: "#9ecae1", Support.PASSIVE_SUPPORT: "#d6e8f3",
                Support.PASSIVE_OPPOSITION: "#f6d2b8", Support.ACTIVE_OPPOSITION: "#eba47a"}
SUPPORT_SHORT = {Support.ACTIVE_SUPPORT: gettext_noop("A.Sup"), Support.PASSIVE_SUPPORT: gettext_noop("P.Sup"),
                 Support.PASSIVE_OPPOSITION: gettext_noop("P.Opp"), Support.ACTIVE_OPPOSITION: gettext_noop("A.Opp")}
SUPPORT_LONG = {Support.ACTIVE_SUPPORT: gettext_noop("Active Support"), Support.PASSIVE_SUPPORT: gettext_noop("Passive Support"),
                Support.NEUTRAL: gettext_noop("Neutral"), Support.PASSIVE_OPPOSITION: gettext_noop("Passive Opposition"),
                Support.ACTIVE_OPPOSITION: gettext_noop("Active Opposition")}
TERRAIN_FILL = {"terrain-urban": "#e3e0ea", "terrain-rural": "#eef3dc", "terrain-jungle": "#d7ead2",
                "terrain-desert": "#f6edd2", "terrain-forest": "#e2efdc", "terrain-grassland": "#f2f4df",
                "terrain-mountain": "#ebe6df", "terrain-highland": "#ece6dc", "terrain-coastal": "#e6f0f5",
                "terrain-lima": "#eeeeee"}
NEUTRAL_FILL = "#fbfbf8"
# a home area's outline: one dash pattern per owner (in units of the outline's width), so the
# owner is told by the pattern as well as by the colour
OWNER_DASHES = ("", "3 1.2", "1 1", "3 1 1 1", "5 1.5 1 1.5")
_SHAPE_WORD = {Shape.CUBE: gettext_noop("square"), Shape.CYLINDER: gettext_noop("round-ended"), Shape.BASE: gettext_noop("house"),
               Shape.DISC: gettext_noop("oval"), Shape.TOKEN: gettext_noop("hexagon")}
_NEUTRAL_PIECE = {"civilian_red": "#e53935", "civilian_blue": "#1e88e5", "shipment": "#ffffff"}
_KIND = {SpaceShape.BOX: "city", SpaceShape.ROAD: "loc", SpaceShape.HEX: "space"}


def _luminance(color: str) -> float:
    """WCAG 2.1 relative luminance of ``#rrggbb``."""
    c = color.lstrip("#")
    if len(c) != 6:
        return 0.2
    r, g, b = ((v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
               for v in (int(c[i:i + 2], 16) / 255 for i in (0, 2, 4)))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _tint(color: str, keep: float = 0.3) -> str:
    """``color`` mixed with white (``keep`` of the colour): an Underground piece's face."""
    c = color.lstrip("#")
    if len(c) != 6:
        return "#ffffff"
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    return "#" + "".join(f"{round(255 - (255 - v) * keep):02x}" for v in (r, g, b))


def _ink(color: str) -> str:
    """Black or white text, whichever contrasts more with ``color`` (WCAG 1.4.3)."""
    lum = _luminance(color)
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


@lru_cache(maxsize=4096)
def _hex_points(x: float, y: float, r: float) -> str:
    """A pointy-top hex's corners."""
    return " ".join(f"{_n(x + r * math.cos(math.radians(60 * k - 30)))},"
                    f"{_n(y + r * math.sin(math.radians(60 * k - 30)))}" for k in range(6))


def text_width(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` in the sans font at ``size`` px."""
    wide = sum(1 for ch in text if ch.isupper() or ch in "mwMW@%")
    return size * (0.56 * len(text) + 0.12 * wide)


def fitted_size(text: str, size: float, room: float, floor: float) -> float:
    """``size``, made smaller (not below ``floor``) until ``text`` fits in ``room``."""
    w = text_width(text, size)
    return size if w <= room else max(floor, size * room / w)


def faction_marks(board_map: BoardMap, name: Callable[[Any], str]) -> dict[str, str]:
    """A short mark per faction, unique on the map: the first letter of its abbreviation (or
    name), with a further letter of it where two factions would share one (Advisors "A",
    Adversary "Ad")."""
    out: dict[str, str] = {}
    for f in board_map.factions:
        word = "".join(ch for ch in (f.abbreviation or name(f.name)) if ch.isalnum()) or f.id
        mark = word[:1].upper()
        for ch in word[1:]:
            if mark not in out.values():
                break
            mark = word[:1].upper() + ch.lower()
        out[f.id] = mark
    return out


def marked_types(board_map: BoardMap) -> set[str]:
    """The piece types drawn with their owner's mark: a letter shared by piece types of several
    owners, or a type that any faction may own (drawn in its owner's colour)."""
    owners: dict[str, set] = {}
    for p in board_map.piece_types:
        owners.setdefault(p.letter, set()).add(p.owner)
    return {p.id for p in board_map.piece_types
            if (not p.owner and p.id not in _NEUTRAL_PIECE) or len(owners[p.letter]) > 1}


class Drawing:
    """One game's map in one language: the static parts drawn once, the spaces of any view.

    ``tr`` renders a message (or an English word) in the language of the drawing."""

    def __init__(self, board_map: BoardMap, tr: Callable[[Any], str] | None = None):
        self.m = board_map
        self.t = tr or (lambda v: render(v) if isinstance(v, dict) else v)
        self.unit = max(board_map.width, board_map.height * 1.2) / 64  # the body font size
        self.colors = {f.id: f.color for f in board_map.factions}
        self.abbr = {f.id: f.abbreviation or self.t(f.name) for f in board_map.factions}
        self.types = {p.id: p for p in board_map.piece_types}
        self.marks = faction_marks(board_map, self.t)
        self.marked = marked_types(board_map)
        self.owner_index = {f.id: i for i, f in enumerate(board_map.factions)}
        self.geometry = {g.id: g for g in board_map.spaces}
        self.group_centres: dict[str, str] = {}  # space id -> the group name drawn there
        groups: dict[str, list[SpaceGeometry]] = {}
        for g in board_map.spaces:
            if g.group is not None:
                groups.setdefault(self.t(g.group), []).append(g)
        for name, members in groups.items():
            gx = sum(m.x for m in members) / len(members)
            gy = sum(m.y for m in members) / len(members)
            c = min(members, key=lambda m: (m.x - gx) ** 2 + (m.y - gy) ** 2)
            self.group_centres[c.id] = name
        self._legend: list[tuple[str, str]] | None = None

    # ---- pieces ---------------------------------------------------------------------------
    def piece_label(self, p: PieceStack) -> str:
        pt = self.types.get(p.type)
        letter = pt.letter if pt else "?"
        if p.type in self.marked and p.owner in self.marks:
            letter = self.marks[p.owner] + letter
        return f"{p.count}{letter}" if p.count > 1 else letter

    def chip(self, p: PieceStack, x: float, y: float, size: float) -> tuple[str, float]:
        """One stack: the type's shape in its owner's colour, its marks, letter and count inside."""
        pt = self.types.get(p.type)
        shape = pt.shape if pt else Shape.DISC
        color = self.colors.get(p.owner) or _NEUTRAL_PIECE.get(p.type, "#9e9e9e")
        underground = p.state == PieceState.UNDERGROUND
        fill = _tint(color) if underground else color
        ink = "#000000" if underground else _ink(color)
        dash = f' stroke-dasharray="{_n(size * 0.3)} {_n(size * 0.14)}"' if underground else ""
        sw = _n(size * (0.14 if underground else 0.06))
        label = self.piece_label(p)
        w = max(size, text_width(label, size * 0.62) + size * 0.35)
        h = size
        x0, y0 = x - w / 2, y - h / 2
        # class names for the page's CSS (projector mode) and the contrast test: chip, chip-text
        common = f'class="chip" fill="{fill}" stroke="#222222" stroke-width="{sw}"{dash}'
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
        state = f" {p.state.value}" if p.state != PieceState.NONE else ""
        text = (f'<text x="{_n(x)}" y="{_n(y + size * 0.22)}" font-size="{_n(size * 0.62)}" font-weight="bold" '
                f'text-anchor="middle" fill="{ink}" class="chip-text">{escape(label)}</text>')
        return f'<g class="piece{state}">{body}{text}</g>', w

    def chips(self, pieces: tuple[PieceStack, ...], cx: float, top: float, room: float,
              size: float) -> tuple[str, int]:
        """Stacks in rows centred on ``cx`` from ``top``, each row at most ``room`` wide."""
        gap = size * 0.18
        drawn = [(p, max(size, text_width(self.piece_label(p), size * 0.62) + size * 0.35)) for p in pieces]
        rows: list[list[tuple[PieceStack, float]]] = [[]]
        used = 0.0
        for p, w in drawn:
            if rows[-1] and used + gap + w > room:
                rows.append([])
                used = 0.0
            rows[-1].append((p, w))
            used += (gap if used else 0) + w
        out = []
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
        paint = f'fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}'
        if g.shape == SpaceShape.HEX:
            return f'<polygon points="{_hex_points(g.x, g.y, g.r)}" {paint}/>'
        if g.shape in (SpaceShape.BOX, SpaceShape.ROAD):
            x0, y0, x1, y1 = self.box(g)
            rx = (y1 - y0) / 2 if g.shape == SpaceShape.ROAD else g.r * 0.15
            return (f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" '
                    f'rx="{_n(rx)}" {paint}/>')
        return f'<circle cx="{_n(g.x)}" cy="{_n(g.y)}" r="{_n(g.r)}" {paint}/>'

    def box(self, g: SpaceGeometry) -> tuple[float, float, float, float]:
        """The bounds of the space's outline (a road: its label's pill, grown with its text)."""
        if g.shape == SpaceShape.ROAD:
            size = self.unit * 0.8
            w = max(g.r * 2.6, text_width(self.t(g.label), size) + size)
            h = size * 1.7
            return (g.x - w / 2, g.y - h / 2, g.x + w / 2, g.y + h / 2)
        if g.shape == SpaceShape.HEX:
            return (g.x - g.r * 0.866, g.y - g.r, g.x + g.r * 0.866, g.y + g.r)
        return g.bounds()

    def name_box(self, g: SpaceGeometry) -> tuple[float, float, float, float, float]:
        """Where the space's name is drawn: (x0, y0, x1, y1) and its font size."""
        u = self.unit
        if g.shape == SpaceShape.ROAD:
            size = u * 0.8
            ny = g.y + size * 0.35
        else:
            k = u * 0.75 if g.shape == SpaceShape.HEX else max(u * 1.05, g.r * 0.3)
            room = g.r * (1.45 if g.shape == SpaceShape.HEX else 1.8)
            size = fitted_size(self.t(g.label), k, room, u * (0.5 if g.shape == SpaceShape.HEX else 0.62))
            ny = g.y - g.half_height * 0.5
        w = text_width(self.t(g.label), size)
        return (g.x - w / 2, ny - size, g.x + w / 2, ny + size * 0.25, size)

    def accessible_name(self, g: SpaceGeometry, label: str) -> str:
        """A choice's label on the map, holding the space's visible name (WCAG 2.5.3)."""
        visible = self.t(g.label)
        if visible.lower() in label.lower():
            return label
        return f"{visible}: {label}"

    def space(self, g: SpaceGeometry, s: SpaceView | None, *, changed: bool = False,
              choices: list[dict] | tuple = (), owner: str | None = None, interactive: bool = False) -> str:
        """One space: its outline, support, control, owner and change marks, name, markers,
        pieces and tags. ``interactive``: the page's attributes (a button for one choice)."""
        u = self.unit
        kind = _KIND.get(g.shape, g.kind)
        cls = f"space space-{escape(kind)}"
        if g.css:
            cls += " " + escape(g.css)
        if owner is not None:
            cls += f" owner-f{self.owner_index.get(owner, 9)}"
        attrs = ""
        name = self.t(g.name)
        tip = escape(name)
        if interactive:
            if len(choices) == 1:
                cls += " is-choice"
                c = choices[0]
                label = self.accessible_name(g, str(c.get("label", "")))
                attrs = (f' role="button" tabindex="0" data-choice="{escape(str(c.get("id", "")))}" '
                         f'aria-label="{escape(label)}"')
            elif choices:
                cls += " is-option"
                attrs = (f' data-choices="{"".join(escape(str(c.get("id", ""))) + " " for c in choices)}"'
                         f' aria-hidden="true"')
                tip = "".join(escape(str(c.get("label", ""))) + "; " for c in choices) + tip
            else:
                attrs = ' aria-hidden="true"'
        if s is not None:
            for p in s.pieces:
                pt = self.types.get(p.type)
                tip += f"; {p.count} {escape(self.t(pt.name) if pt else p.type)}"
                if p.state != PieceState.NONE:
                    tip += f" ({escape(self.t(p.state.value.capitalize()).lower())})"
            for mk in s.markers:
                tip += "; " + escape(self.t(mk.name)) + (f" {mk.count}" if mk.count > 1 else "")
        out = [f'<g class="{cls}" id="space-{escape(g.id)}" data-space="{escape(g.id)}"{attrs}><title>{tip}</title>']
        support = s.support if s else None
        control = s.control if s else None
        base_fill = TERRAIN_FILL.get(g.css, NEUTRAL_FILL) if g.shape == SpaceShape.HEX else NEUTRAL_FILL
        fill = SUPPORT_TINT.get(support, base_fill) if support else base_fill
        out.append(self.outline(g, fill, "#555555", u * 0.08, ' class="space-shape"'))
        if support in SUPPORT_TINT:
            out.append(self.outline(g, f"url(#hatch-{support.value})", "none", 0))
        if owner is not None:
            i = self.owner_index.get(owner, 0)
            wd = u * 0.3
            dash = OWNER_DASHES[i % len(OWNER_DASHES)]
            dash = f' stroke-dasharray="{" ".join(_n(float(d) * wd) for d in dash.split())}"' if dash else ""
            out.append(self.outline(g, "none", self.colors.get(owner, "#333333"), wd, dash + ' class="owner"'))
        if control:
            out.append(self.outline(g, "none", self.colors.get(control, "#333333"), u * 0.42,
                                    ' stroke-opacity="0.95" class="control"'))
        if changed:
            out.append(self.outline(g, "none", CHANGED, u * 0.22,
                                    f' stroke-dasharray="{_n(u * 0.6)} {_n(u * 0.35)}" class="changed"'))
        # the name at the top, fitted to the space's width; markers under it in words
        x0, _y0, x1, y1, size = self.name_box(g)
        ny = y1 - size * 0.25
        if g.id not in self.group_centres:  # there the group's name stands instead
            out.append(f'<text x="{_n(g.x)}" y="{_n(ny)}" font-size="{_n(size)}" font-weight="bold" '
                       f'text-anchor="middle" fill="#111111" class="space-name">{escape(self.t(g.label))}</text>')
        words = [self.t(mk.name) + (f" {mk.count}" if mk.count > 1 else "") for mk in (s.markers if s else ())]
        if changed:
            words.insert(0, "\u2605")
        h = g.half_height
        if g.shape == SpaceShape.ROAD:
            bx0, _by0, bx1, by1 = self.box(g)
            line_y = by1 + u * 0.75
            zone_top = line_y + u * 0.3 if words else by1 + u * 0.2
            zone_bottom = zone_top + u * 3
            room = max(g.r * 4, bx1 - bx0)
        else:
            line_y = ny + size * 1.05
            zone_top = line_y + u * 0.15 if words else ny + size * 0.3
            if g.id in self.group_centres:
                zone_top += u * 0.35
            zone_bottom = g.y + h * (0.62 if g.shape != SpaceShape.HEX else 0.8)
            room = g.r * (1.5 if g.shape == SpaceShape.HEX else 1.75)
        if words:
            lines = [", ".join(words)]
            if len(words) > 1 and text_width(lines[0], u * 0.7) > room:  # two lines before a tiny font
                cut = max(range(1, len(words)), key=lambda i: -abs(text_width(", ".join(words[:i]), 1)
                                                                   - text_width(", ".join(words[i:]), 1)))
                lines = [", ".join(words[:cut]) + ",", ", ".join(words[cut:])]
            fsize = min(fitted_size(x, u * 0.7, room, u * 0.5) for x in lines)
            for i, x in enumerate(lines):
                out.append(f'<text x="{_n(g.x)}" y="{_n(line_y + i * fsize * 1.1)}" font-size="{_n(fsize)}" '
                           f'text-anchor="middle" fill="#222222" class="space-marker">{escape(x)}</text>')
            if len(lines) > 1 and g.shape != SpaceShape.ROAD:
                zone_top += fsize * 1.1
        if s and s.pieces:
            chip = u * 0.95 if g.shape == SpaceShape.HEX else max(u * 1.2, g.r * 0.34)
            floor = u * 0.6
            while True:
                svg, rows = self.chips(s.pieces, g.x, zone_top, room, chip)
                if rows * chip * 1.25 <= zone_bottom - zone_top + chip * 0.2 or chip <= floor:
                    break
                chip *= 0.9
            out.append(svg)
        if g.shape not in (SpaceShape.ROAD, SpaceShape.HEX):
            out.append(self.tags(g, control, support))
        out.append("</g>")
        return "".join(out)

    def tags(self, g: SpaceGeometry, control: str | None, support: Support | None) -> str:
        """Control and support as tags on the bottom edge: the colour and the words together."""
        tags = []
        if control:
            color = self.colors.get(control, "#333333")
            tags.append((self.abbr.get(control, control), color, _ink(color), None))
        if support in SUPPORT_SHORT:
            tags.append((self.t(SUPPORT_SHORT[support]), SUPPORT_TINT[support], "#111111", support))
        if not tags:
            return ""
        u = self.unit
        ts = u * 0.72
        widths = [text_width(t[0], ts) + ts * 0.8 for t in tags]
        total = sum(widths) + ts * 0.3 * (len(tags) - 1)
        x = g.x - total / 2
        ty = g.y + g.half_height * (0.88 if g.shape == SpaceShape.CIRCLE else 0.95) - ts * 0.7
        out = []
        for (text, bg, ink, lvl), tw in zip(tags, widths, strict=True):
            out.append(f'<rect x="{_n(x)}" y="{_n(ty)}" width="{_n(tw)}" height="{_n(ts * 1.4)}" '
                       f'rx="{_n(ts * 0.3)}" fill="{bg}" stroke="#333333" stroke-width="{_n(u * 0.05)}"/>')
            if lvl is not None:
                out.append(f'<rect x="{_n(x)}" y="{_n(ty)}" width="{_n(tw)}" height="{_n(ts * 1.4)}" '
                           f'rx="{_n(ts * 0.3)}" fill="url(#hatch-{lvl.value})"/>')
            out.append(f'<text x="{_n(x + tw / 2)}" y="{_n(ty + ts * 1.02)}" font-size="{_n(ts)}" '
                       f'font-weight="bold" text-anchor="middle" fill="{ink}">{escape(text)}</text>')
            x += tw + ts * 0.3
        return "".join(out)

    # ---- the static layers ----------------------------------------------------------------
    def defs(self) -> str:
        """The hatchings of support and opposition (dense = Active, sparse = Passive)."""
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

    def edges(self, drawn: Iterable[str]) -> str:
        """Adjacency lines under everything (a map with roads draws its roads instead)."""
        ids = set(drawn)
        spaces = [g for g in self.m.spaces if g.id in ids]
        if any(g.line for g in spaces):  # the roads, under every space so none crosses its pieces
            lines = [f'<polyline points="{" ".join(f"{_n(a)},{_n(b)}" for a, b in g.line)}" data-space="{escape(g.id)}"/>'
                     for g in spaces if g.line]
            return (f'<g class="roads" fill="none" stroke="#8d6e63" stroke-width="{_n(self.unit * 0.45)}" '
                    f'stroke-linecap="round" stroke-linejoin="round" opacity="0.8" aria-hidden="true">'
                    f'{"".join(lines)}</g>')
        seen = set()
        lines = []
        for g in spaces:
            if g.shape == SpaceShape.HEX:
                continue
            for o in g.adjacent:
                k = tuple(sorted((g.id, o)))
                if o in ids and k not in seen:
                    seen.add(k)
                    h = self.geometry[o]
                    lines.append(f'<line x1="{_n(g.x)}" y1="{_n(g.y)}" x2="{_n(h.x)}" y2="{_n(h.y)}"/>')
        return f'<g class="edges" stroke="#c8c8c8" stroke-width="{_n(self.unit * 0.12)}" aria-hidden="true">' \
               f'{"".join(lines)}</g>'

    def group_labels(self, drawn: Iterable[str]) -> str:
        ids = set(drawn)
        out = []
        for sid, name in self.group_centres.items():
            if sid not in ids:
                continue
            c = self.geometry[sid]
            size = fitted_size(name, self.unit * 0.7, c.r * 2.4, self.unit * 0.5)
            w = text_width(name, size)
            y = c.y - c.r * 0.5
            out.append(f'<rect x="{_n(c.x - w / 2 - size * 0.3)}" y="{_n(y - size * 0.95)}" '
                       f'width="{_n(w + size * 0.6)}" height="{_n(size * 1.3)}" rx="{_n(size * 0.3)}" '
                       f'fill="#ffffff" fill-opacity="0.9" stroke="#666666" stroke-width="{_n(self.unit * 0.05)}"/>'
                       f'<text x="{_n(c.x)}" y="{_n(y)}" font-size="{_n(size)}" font-weight="bold" '
                       f'text-anchor="middle" fill="#222222" class="group-label">{escape(name)}</text>')
        return f'<g class="group-labels" aria-hidden="true">{"".join(out)}</g>' if out else ""

    def order(self, view: BoardView) -> list[SpaceGeometry]:
        """The spaces in play in drawing order: roads last, so no road line crosses a space."""
        present = {s.id for s in view.spaces}
        drawn = [g for g in self.m.spaces if g.id in present]
        return [g for g in drawn if g.shape != SpaceShape.ROAD] + [g for g in drawn if g.shape == SpaceShape.ROAD]

    # ---- the legend -------------------------------------------------------------------------
    def legend_items(self) -> list[tuple[str, str]]:
        """(swatch drawn around 0,0 at the legend's size ``unit * 0.85``, text): the factions and
        their marks, every piece type (letter and shape), piece states and stacks, control,
        support, home areas, terrain, the changed-ring and the game's own notes."""
        if self._legend is not None:
            return self._legend
        t = self.t
        size = self.unit * 0.85
        items: list[tuple[str, str]] = []
        marked = bool(self.marked)
        for f in self.m.factions:
            mark = f" ({self.marks[f.id]})" if marked else ""
            if self.m.has_control:
                tag = f.abbreviation or t(f.name)
                tw = text_width(tag, size * 0.7) + size * 0.6
                items.append((f'<rect x="0" y="{_n(-size * 0.85)}" width="{_n(max(tw, size * 1.8))}" '
                              f'height="{_n(size * 1.2)}" fill="#ffffff" stroke="{f.color}" '
                              f'stroke-width="{_n(size * 0.3)}"/><rect x="{_n(size * 0.3)}" y="{_n(-size * 0.6)}" '
                              f'width="{_n(tw)}" height="{_n(size * 0.75)}" fill="{f.color}"/>'
                              f'<text x="{_n(size * 0.3 + tw / 2)}" y="{_n(-size * 0.05)}" font-size="{_n(size * 0.6)}" '
                              f'font-weight="bold" text-anchor="middle" fill="{_ink(f.color)}">{escape(tag)}</text>',
                              f"{t(f.name)}{mark}: " + t(gettext_noop("its colour; ring and tag = it controls the space"))))
            else:
                items.append((f'<rect x="0" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" height="{_n(size * 1.1)}" '
                              f'fill="{f.color}" stroke="#333333"/>', f"{t(f.name)}{mark}"))
        for p in self.m.piece_types:
            svg, _ = self.chip(PieceStack(p.id, p.owner or "", 1), size * 0.8, -size * 0.25, size)
            shape = t(_SHAPE_WORD[p.shape])
            whose = "" if p.owner or p.id in _NEUTRAL_PIECE else ", " + t(gettext_noop("in its owner's colour"))
            items.append((svg, f"{p.letter} = {t(p.name)} ({shape}{whose})"))
        if marked:
            example = min((p for p in self.m.piece_types if p.id in self.marked),
                          key=lambda p: p.shape != Shape.CYLINDER)
            owner = example.owner or next(f.id for f in self.m.factions if f.id in self.marks)
            svg, _ = self.chip(PieceStack(example.id, owner, 1), size * 0.9, -size * 0.25, size)
            items.append((svg, f"{self.marks[owner]}{example.letter} = " + t(
                gettext_noop("the owner's mark before the letter, where several factions use the letter"))))
        cyl = next((p for p in self.m.piece_types if p.shape == Shape.CYLINDER), None)
        if cyl:
            owner = cyl.owner or self.m.factions[0].id
            svg, _ = self.chip(PieceStack(cyl.id, owner, 1, PieceState.UNDERGROUND), size * 0.8, -size * 0.25, size)
            items.append((svg, t(gettext_noop("dashed outline, pale = Underground; solid = Active"))))
        example = cyl or self.m.piece_types[0]
        owner = example.owner or self.m.factions[0].id
        svg, _ = self.chip(PieceStack(example.id, owner, 3), size * 0.9, -size * 0.25, size)
        items.append((svg, self.piece_label(PieceStack(example.id, owner, 3)) + " = "
                      + t(gettext_noop("a stack of 3:")) + f" {t(example.name)}"))
        if self.m.has_support:
            for lvl in (Support.ACTIVE_SUPPORT, Support.PASSIVE_SUPPORT, Support.PASSIVE_OPPOSITION,
                        Support.ACTIVE_OPPOSITION):
                box = (f'x="0" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" height="{_n(size * 1.1)}"')
                items.append((f'<rect {box} fill="{SUPPORT_TINT[lvl]}" stroke="#555555"/>'
                              f'<rect {box} fill="url(#hatch-{lvl.value})"/>',
                              f"{t(SUPPORT_SHORT[lvl])} = {t(SUPPORT_LONG[lvl])}"
                              + " (" + t(gettext_noop("tint, hatching and tag")) + ")"))
            items.append(("", t(gettext_noop("no tag, no tint = Neutral"))))
        if any(g.shape == SpaceShape.HEX for g in self.m.spaces):
            for css, word in (("terrain-urban", gettext_noop("Urban")), ("terrain-rural", gettext_noop("Rural")),
                              ("terrain-jungle", gettext_noop("Jungle")), ("terrain-desert", gettext_noop("Desert"))):
                items.append((f'<rect x="0" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" '
                              f'height="{_n(size * 1.1)}" fill="{TERRAIN_FILL[css]}" stroke="#555555"/>',
                              t(word) + " " + t(gettext_noop("terrain"))))
        self._legend = items
        return items

    def owner_items(self, owners: Iterable[str]) -> list[tuple[str, str]]:
        """A legend line per owner of a home area shown: its colour and its dash pattern."""
        size = self.unit * 0.85
        out = []
        for o in sorted(set(owners), key=lambda x: self.owner_index.get(x, 99)):
            f = self.m.faction(o)
            if f is None:
                continue
            i = self.owner_index.get(o, 0)
            dash = OWNER_DASHES[i % len(OWNER_DASHES)]
            wd = size * 0.3
            dash = f' stroke-dasharray="{" ".join(_n(float(d) * wd) for d in dash.split())}"' if dash else ""
            out.append((f'<rect x="{_n(wd)}" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" height="{_n(size * 1.1)}" '
                        f'fill="none" stroke="{f.color}" stroke-width="{_n(wd)}"{dash}/>',
                        self.t(gettext_noop("%(faction)s: home area (its colour and its dash pattern)"))
                        % {"faction": self.t(f.name)}))
        return out

    def changed_item(self) -> tuple[str, str]:
        size = self.unit * 0.85
        return (f'<rect x="0" y="{_n(-size * 0.8)}" width="{_n(size * 1.6)}" height="{_n(size * 1.1)}" '
                f'fill="none" stroke="{CHANGED}" stroke-width="{_n(size * 0.2)}" stroke-dasharray="4 3"/>',
                "\u2605 " + self.t(gettext_noop("dashed magenta ring = changed since the previous map")))

    def notes(self) -> list[tuple[str, str]]:
        return [("", self.t(note)) for note in self.m.legend_notes]

    # ---- a whole map --------------------------------------------------------------------------
    def standalone(self, view: BoardView, *, title: str = "", changed: Iterable[str] = (),
                   owners: dict[str, str] | None = None, width: float | None = None) -> str:
        """A self-contained SVG of ``view`` with its title, legend and tracks inside (the AAR's
        print form). ``owners``: space id -> the faction whose home area it is. ``width``: the
        printed width in px (the drawing keeps its proportions)."""
        u = self.unit
        changed = set(changed)
        owners = owners or {}
        title_h = u * 2.2 if title else u * 0.5
        spaces = {s.id: s for s in view.spaces}
        drawn = self.order(view)
        body = [self.defs(), f'<rect x="0" y="0" width="{_n(self.m.width)}" height="{_n(self.m.height)}" '
                             f'fill="#ffffff"/>', self.edges(spaces)]
        for g in drawn:
            body.append(self.space(g, spaces.get(g.id), changed=g.id in changed, owner=owners.get(g.id)))
        body.append(self.group_labels(spaces))
        items = self.legend_items() + self.owner_items(owners.values()) + [self.changed_item()] + self.notes()
        legend, legend_h = self.legend_svg(items, self.m.height, view)
        height = self.m.height + legend_h
        full_w, full_h = self.m.width, height + title_h
        shown_w = width or full_w
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 {_n(-title_h)} {_n(full_w)} {_n(full_h)}" '
                f'width="{_n(shown_w)}" height="{_n(full_h * shown_w / full_w)}" font-family="{FONT}" '
                f'role="img" aria-label="{escape(title or self.t(gettext_noop("Map")))}">')
        head += (f'<rect x="0" y="{_n(-title_h)}" width="{_n(full_w)}" height="{_n(title_h)}" fill="#ffffff"/>'
                 f'<text x="{_n(u * 0.5)}" y="{_n(-title_h * 0.35)}" font-size="{_n(u * 1.2)}" '
                 f'font-weight="bold">{escape(title)}</text>') if title else ""
        return head + "".join(body) + legend + "</svg>"

    def legend_svg(self, items: list[tuple[str, str]], top: float, view: BoardView) -> tuple[str, float]:
        """The legend drawn under the map in columns, then the tracks with their thresholds."""
        u = self.unit
        size = u * 0.85
        line_h = size * 1.9
        col_w = max(text_width(txt, size) for _, txt in items) + size * 3
        cols = max(2, int((self.m.width - u) // col_w))
        col_w = (self.m.width - u) / cols
        widest = max(text_width(txt, size) for _, txt in items) + size * 3
        if widest > col_w:  # two columns at least: a smaller legend font rather than one long column
            size *= col_w / widest
            line_h = size * 1.9
        rows = -(-len(items) // cols)
        tracks_h = len(view.tracks) * line_h * 0.8 + u
        h = rows * line_h + line_h * 1.4
        out = [f'<g class="legend"><rect x="0" y="{_n(top)}" width="{_n(self.m.width)}" '
               f'height="{_n(h + tracks_h + size)}" fill="#ffffff"/>',
               f'<text x="{_n(u * 0.5)}" y="{_n(top + line_h * 0.8)}" font-size="{_n(size * 1.1)}" '
               f'font-weight="bold">{escape(self.t(gettext_noop("Legend")))}</text>']
        k = size / (u * 0.85)
        for i, (swatch, txt) in enumerate(items):
            c, r = divmod(i, rows)
            x = u * 0.5 + c * col_w
            y = top + line_h * 1.4 + r * line_h + size * 0.6
            scale = f" scale({k:.3f})" if abs(k - 1) > 0.001 else ""
            out.append(f'<g transform="translate({_n(x)} {_n(y)}){scale}">{swatch}</g>')
            out.append(f'<text x="{_n(x + size * 2.6)}" y="{_n(y)}" font-size="{_n(size)}">{escape(txt)}</text>')
        ty = top + h + size
        for tr in view.tracks:
            rng = f" ({_n(tr.min)}-{_n(tr.max)})" if tr.max is not None else ""
            th = "; ".join(self.t(x.name) for x in tr.thresholds)
            out.append(f'<text x="{_n(u * 0.5)}" y="{_n(ty)}" font-size="{_n(size)}" class="track">'
                       f'<tspan font-weight="bold">{escape(self.t(tr.name))}: {_n(tr.value)}</tspan>{escape(rng)}'
                       f'{escape("  - " + th if th else "")}</text>')
            ty += line_h * 0.8
        out.append("</g>")
        return "".join(out), h + tracks_h + size

    def swatch_html(self, swatch: str) -> str:
        """A legend swatch as a small inline SVG for the page's caption."""
        size = self.unit * 0.85
        if not swatch:
            return ""
        return (f'<svg class="legend-swatch" viewBox="{_n(-size * 0.2)} {_n(-size * 1.05)} {_n(size * 2.6)} '
                f'{_n(size * 1.4)}" width="2.2em" height="1.2em" aria-hidden="true" focusable="false" '
                f'font-family="{FONT}">{swatch}</svg>')


def map_svg(board_map: BoardMap, view: BoardView, *, title: str = "", changed: Iterable[str] = (),
            gettext=None, ngettext=None, owners: dict[str, str] | None = None, width: float | None = None) -> str:
    """A standalone SVG of ``view`` on ``board_map`` with its legend (the AAR's print form);
    names rendered with ``gettext``/``ngettext`` (English without)."""
    return Drawing(board_map, message_renderer(gettext, ngettext)).standalone(
        view, title=title, changed=changed, owners=owners, width=width)


def message_renderer(gettext=None, ngettext=None) -> Callable[[Any], str]:
    """A message or an English word in the language of ``gettext`` (English without)."""
    if gettext is None:
        return lambda v: render(v) if isinstance(v, dict) else v
    ng = ngettext or (lambda s, p, n: gettext(s if n == 1 else p))
    return lambda v: render(v, gettext, ng) if isinstance(v, dict) else (gettext(v) if v else v)


__all__ = ["SUPPORT_LONG", "Drawing", "fitted_size", "map_svg", "message_renderer", "text_width"]
