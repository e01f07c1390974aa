"""The board's figure as HTML: the SVG map, its legend and the board as a text table, written
by a small string builder from the drawable board of ``facilitation.rendering.board``.

The board is drawn by a string builder rather than a template: a 112-hex map is thousands of
template variable look-ups (about 16 ms a region), the builder a few ms (issue #8). The output is
the markup of the former template (templates/web/partials/board.html before issue #8), which
tests/web/test_board_markup.py keeps as the reference; every value is escaped as the template's
autoescaping did, numbers written as ``{% localize off %}`` wrote them.

Also here: the per-process memo of drawn spaces and their markup, shared with the board model.
"""

from __future__ import annotations

import copy
import itertools
from html import escape as _html_escape
from typing import Any

# Per process: each space as drawn from its own inputs (``SPACES``, filled by the board model)
# and each space's markup (``MARKUP``). The keys hold everything the result is made of (the
# map, the language, the seats, the space's part of the typed view, and for the markup the
# space's choices), so a seat is only ever given what its own view and choices draw; what is
# kept is copied before it is handed out.
SPACES: dict[tuple, dict] = {}
MARKUP: dict[tuple, tuple[dict, str, str]] = {}
_MEMO_MAX = 6000  # per memo: the spaces of 40 four-team sessions in one language are about 4500


class Space(dict):
    """A drawn space (a plain dict to its users) that remembers the key it was drawn under, so
    that ``markup`` can reuse the space's markup while the space is unchanged."""

    __slots__ = ("memo_key",)


class Edges(list):
    """A board's edges (a plain list to its users) that remember the map they were drawn from."""

    __slots__ = ("memo_key",)


def copy_space(sp: dict) -> Space:
    out = Space(sp)
    out["pieces"] = [dict(p) for p in sp["pieces"]]
    out["markers"] = list(sp["markers"])
    out["static"] = list(sp["static"])
    out["adjacent"] = list(sp["adjacent"])
    out["box"] = dict(sp["box"])
    out["marker_lines"] = [dict(m) for m in sp["marker_lines"]]
    out["choices"] = list(sp["choices"])
    return out


def remember(memo: dict, key: tuple, value: Any) -> None:
    """Keep ``value``; when the memo is full, the oldest quarter is forgotten first."""
    if len(memo) >= _MEMO_MAX:
        for old in list(itertools.islice(memo, _MEMO_MAX // 4)):
            del memo[old]
    memo[key] = value


def _edges_markup(edges: list) -> str:
    """The edges' lines; kept per process for the edges of a map while they are unchanged."""
    key = getattr(edges, "memo_key", None)
    hit = MARKUP.get(("edges", key)) if key is not None else None
    if hit is not None and hit[0] == edges:
        return hit[1]
    e = _t
    html = "".join(f'<line x1="{e(ed["x1"])}" y1="{e(ed["y1"])}" x2="{e(ed["x2"])}" y2="{e(ed["y2"])}"/>'
                   for ed in edges)
    if key is not None:
        remember(MARKUP, ("edges", key), ([dict(ed) for ed in edges], html, ""))
    return html


_PIECE_SHAPES = {
    "base": '<path d="M-13 10 h26 v-13 l-13 -9 l-13 9 z" class="chip"/>',
    "cube": '<rect x="-11" y="-11" width="22" height="22" rx="3" class="chip"/>',
}
_ROUND_CHIP = '<circle cx="0" cy="0" r="11" class="chip"/>'


def _t(value: Any) -> str:
    """A value as the template wrote it: numbers unlocalised, everything escaped."""
    tp = type(value)
    if tp is str:  # plain text (not marked safe): Django's escape() is html.escape()
        return _html_escape(value)
    if tp is int or tp is bool or value is None:
        return str(value)
    if tp is float:
        s = repr(value)
        if "e" in s or "n" in s:  # exponent, inf, nan: as Django's number format writes them
            from django.utils import formats
            return _escape(formats.localize(value, use_l10n=False))
        return s
    return _escape(value)


def _state_word(state: str) -> str:
    """A piece's state in the viewer's language, in lower case: "(underground)", "(clandestino)"."""
    from django.utils.translation import gettext

    word = gettext("Underground") if state == "underground" else gettext("Active") if state == "active" else state
    return word.lower()


def _escape(value: Any) -> str:
    from django.utils.html import conditional_escape
    return str(conditional_escape(value))


def _add(a: Any, b: Any) -> Any:
    """Django's ``add`` filter (integers first, as the template computed a label's y)."""
    try:
        return int(a) + int(b)
    except (ValueError, TypeError):
        try:
            return a + b
        except Exception:
            return ""


def _truncate(text: Any, n: int) -> str:
    from django.utils.text import Truncator
    return Truncator(text).chars(n)


def _space_markup(s: dict, lang: str | None) -> tuple[str, str]:
    """A space's SVG group and its row in the text table. Kept per process for a space that
    ``build`` drew (``Space``), by its draw key, language and choices, and reused only while the
    space still equals what was drawn (a caller may have changed it)."""
    key = getattr(s, "memo_key", None)
    if key is not None:
        choices = s.get("choices")
        key = (key, lang, repr(choices) if choices else "")
        hit = MARKUP.get(key)
        if hit is not None and hit[0] == s:
            return hit[1], hit[2]
    svg, row = _space_svg(s), _space_row(s)
    if key is not None:
        try:  # what was drawn, copied: the caller keeps (and may change) its space
            drawn = copy_space(s)
            drawn["choices"] = copy.deepcopy(drawn["choices"])
        except (KeyError, TypeError, AttributeError):  # not as build() left it: not kept
            return svg, row
        remember(MARKUP, key, (drawn, svg, row))
    return svg, row


def _space_svg(s: dict) -> str:
    e = _t
    out: list[str] = []
    w = out.append
    choices = s.get("choices") or []
    sid = e(s["id"])
    cls = f'space space-{e(s.get("kind", ""))}'
    if s.get("css"):
        cls += " " + e(s["css"])
    if len(choices) == 1:
        cls += " is-choice"
        c = choices[0]
        attrs = f'role="button" tabindex="0" data-choice="{e(c.get("id", ""))}" aria-label="{e(c.get("label", ""))}"'
    elif choices:
        cls += " is-option"
        attrs = f'data-choices="{"".join(e(c.get("id", "")) + " " for c in choices)}" aria-hidden="true"'
    else:
        attrs = 'aria-hidden="true"'
    w(f'<g class="{cls}" id="space-{sid}" data-space="{sid}" {attrs}>')
    title = "".join(e(c.get("label", "")) + "; " for c in choices) if len(choices) > 1 else ""
    title += e(s.get("name", ""))
    for p in s.get("pieces") or []:
        title += f'; {e(p["count"])} {e(p["name"])}' + (f' ({e(_state_word(p["state"]))})' if p.get("state") else "")
    for m in s.get("markers") or []:
        title += "; " + e(m)
    w(f'<title>{title}</title>')
    if s.get("line"):
        w(f'<polyline points="{e(s["line"])}" class="loc-line"/>')
    x, y = e(s["x"]), e(s["y"])
    if s.get("hex"):
        w(f'<polygon points="{e(s["hex"])}" class="space-shape"/>')
    elif s.get("small") or s.get("kind") not in ("city", "loc"):
        w(f'<circle cx="{x}" cy="{y}" r="{e(s.get("r", ""))}" class="space-shape"/>')
    else:
        b = s.get("box") or {}
        w(f'<rect x="{e(b.get("x", ""))}" y="{e(b.get("y", ""))}" width="{e(b.get("w", ""))}" '
          f'height="{e(b.get("h", ""))}" rx="{e(b.get("rx", ""))}" class="space-shape"/>')
    if not s.get("group_centre"):
        # a presentation attribute, not style="": the page's CSP refuses style attributes
        style = f' font-size="{e(s.get("font", ""))}"' if s.get("small") else ""
        w(f'<text x="{x}" y="{e(_add(s["y"], s.get("name_dy", "")))}" class="space-name" '
          f'text-anchor="middle"{style}>{e(s.get("short") or s.get("name", ""))}</text>')
    if not s.get("small"):
        for m in s.get("marker_lines") or []:
            w(f'<text x="{x}" y="{e(m["y"])}" class="space-marker" text-anchor="middle">'
              f'{e(_truncate(m["text"], 24))}</text>')
    for p in s.get("pieces") or []:
        k = p.get("k")
        w(f'<g class="piece f{e(p.get("fi", ""))} {e(p.get("state", ""))}{" " + e(p["css"]) if p.get("css") else ""}" '
          f'transform="translate({e(p["cx"])} {e(p["cy"])}){f" scale({e(k)})" if k != 1 else ""}">'
          f'{_PIECE_SHAPES.get(p.get("shape"), _ROUND_CHIP)}'
          f'<text x="0" y="0" dy="0.35em" text-anchor="middle" class="chip-text">{e(p.get("letter", ""))}'
          f'{e(p["count"]) if p["count"] > 1 else ""}</text></g>')
    w('</g>')
    return "".join(out)


def _space_row(s: dict) -> str:
    from django.utils.translation import gettext

    e = _t
    static = s.get("static")
    head = e(s.get("name", "")) + (f'<br><small>{", ".join(e(v) for v in static)}</small>' if static else "")
    pieces = ", ".join(f'{e(p["count"])} {e(p["name"])}' + (
        f' ({_escape(gettext("Underground")) if p["state"] == "underground" else _escape(gettext("Active"))})'
        if p.get("state") else "") for p in s.get("pieces") or []) or "-"
    markers = ", ".join(e(m) for m in s.get("markers") or []) or "-"
    return f'<tr><th scope="row">{head}</th><td>{pieces}</td><td>{markers}</td></tr>'


def markup(board: dict, *, open_text: bool = False) -> str:
    """The board's figure (SVG map, legend, text table) as HTML; safe to insert as is."""
    from django.utils.translation import get_language, gettext, ngettext

    e = _t
    out: list[str] = []
    w = out.append
    spaces = board.get("spaces") or []
    svg_class = board.get("svg_class")
    w('<figure class="board" aria-labelledby="board-caption">')
    w(f'<svg class="board-svg{" " + e(svg_class) if svg_class else ""}" viewBox="0 0 {e(board.get("width", ""))} '
      f'{e(board.get("height", ""))}" role="group" aria-labelledby="board-title board-desc" '
      f'preserveAspectRatio="xMidYMid meet" focusable="false">')
    w(f'<title id="board-title">{_escape(gettext("Game board"))}</title>')
    n = len(spaces)
    desc = ngettext("%(n)s space; a full text description follows the map.",
                    "%(n)s spaces; a full text description follows the map.", n) % {"n": n}
    w(f'<desc id="board-desc">{desc}</desc>')
    w('<g class="edges" aria-hidden="true">')
    w(_edges_markup(board.get("edges") or []))
    w('</g>')
    lang = get_language()
    rows = []
    for s in spaces:
        svg, row = _space_markup(s, lang)
        w(svg)
        rows.append(row)
    if board.get("group_labels"):
        w('<g class="group-labels" aria-hidden="true">')
        for g in board["group_labels"]:
            w(f'<text x="{e(g["x"])}" y="{e(g["y"])}" class="group-label" text-anchor="middle" '
              f'font-size="{e(g["size"])}">{e(g["text"])}</text>')
        w('</g>')
    w('</svg><figcaption id="board-caption" class="legend">')
    for seat in board.get("seats") or []:
        w(f'<span class="legend-item"><span class="swatch f{e(seat.get("fi", ""))}"></span>{e(seat.get("title", ""))}</span>')
    for x in board.get("legend") or []:
        css = " " + e(x["css"]) if x.get("css") else ""
        w(f'<span class="legend-item"><span class="swatch f{e(x.get("fi", ""))}{css}"></span>{e(x.get("label", ""))}</span>')
    w(f'<span class="legend-item"><span class="swatch hollow"></span>{_escape(gettext("dashed outline = Underground"))}</span>')
    w(f'</figcaption><details class="board-text"{" open" if open_text else ""}>'
      f'<summary>{_escape(gettext("Board as text"))}</summary><table class="space-table"><thead><tr>'
      f'<th scope="col">{_escape(gettext("Space"))}</th><th scope="col">{_escape(gettext("Pieces"))}</th>'
      f'<th scope="col">{_escape(gettext("Markers"))}</th></tr></thead><tbody>')
    out += rows
    w('</tbody></table></details></figure>')
    return "".join(out)
