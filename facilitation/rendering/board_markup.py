"""The board's figure as HTML: the SVG map drawn by the one board renderer (``boardsvg``,
interactive: a space a choice points at is a button), its legend in the caption and the board
as a text table, written by a small string builder from the board model of
``facilitation.rendering.board``.

A string builder rather than a template: a 112-hex map is thousands of template variable
look-ups (about 16 ms a region), the builder a few ms (issue #8). Every value is escaped.

Also here: the per-process memo of drawn spaces and their markup, shared with the board model.
"""

from __future__ import annotations

import copy
import itertools
from html import escape as _html_escape
from typing import Any

from .boardsvg import FONT, Drawing

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


def copy_space(sp: dict) -> Space:
    out = Space(sp)
    out["pieces"] = [dict(p) for p in sp["pieces"]]
    out["markers"] = list(sp["markers"])
    out["static"] = list(sp["static"])
    out["adjacent"] = list(sp["adjacent"])
    out["choices"] = list(sp["choices"])
    return out


def remember(memo: dict, key: tuple, value: Any, limit: int | None = None) -> None:
    """Keep ``value``; when the memo holds ``limit`` entries (default: ``_MEMO_MAX``, read at the
    call), the oldest quarter is forgotten first. Safe in a threaded server: two threads
    forgetting the same quarter at once find a key gone."""
    limit = _MEMO_MAX if limit is None else limit
    if len(memo) >= limit:
        for old in list(itertools.islice(memo, limit // 4)):
            memo.pop(old, None)
    memo[key] = value


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


def _escape(value: Any) -> str:
    from django.utils.html import conditional_escape
    return str(conditional_escape(value))


def _space_markup(s: dict, lang: str | None, drawing: Drawing) -> tuple[str, str]:
    """A space's SVG group (the one renderer, interactive) and its row in the text table. Kept
    per process for a space that ``build`` drew (``Space``), by its draw key, language and
    choices, and reused only while the space still equals what was drawn (a caller may have
    changed it)."""
    key = getattr(s, "memo_key", None)
    if key is not None:
        choices = s.get("choices")
        key = (key, lang, repr(choices) if choices else "")
        hit = MARKUP.get(key)
        if hit is not None and hit[0] == s:
            return hit[1], hit[2]
    g = drawing.geometry.get(s["id"])
    svg = drawing.space(g, s.get("view"), choices=s.get("choices") or (), owner=s.get("owner"),
                        interactive=True) if g is not None else ""
    row = _space_row(s)
    if key is not None:
        try:  # what was drawn, copied: the caller keeps (and may change) its space
            drawn = copy_space(s)
            drawn["choices"] = copy.deepcopy(drawn["choices"])
        except (KeyError, TypeError, AttributeError):  # not as build() left it: not kept
            return svg, row
        remember(MARKUP, key, (drawn, svg, row))
    return svg, row


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


def _owners(board: dict) -> set:
    return {s.get("owner") for s in board.get("spaces") or [] if s.get("owner")}


def legend_items(board: dict, drawing: Drawing) -> list[tuple[str, str]]:
    """(swatch, text) of each line of the caption's legend."""
    return drawing.legend_items() + drawing.owner_items(_owners(board)) + drawing.notes()


def _linked_legend(board: dict, drawing: Drawing, terms: dict) -> str:
    """The legend with its glossary terms linked to their meaning on the page: ``terms`` maps
    a legend text to its runs (words, entry or None), ``facilitation.web.teach.legend_terms``."""
    out = []
    for sw, txt in legend_items(board, drawing):
        words = "".join(_html_escape(w) if entry is None else
                        f'<a class="term" href="#{_html_escape(entry["id"])}" data-term="{_html_escape(entry["key"])}">'
                        f'{_html_escape(w)}</a>' for w, entry in terms.get(txt) or [(txt, None)])
        out.append(f'<span class="legend-item">{drawing.swatch_html(sw)}{words}</span>')
    return "".join(out)


def _static_layers(board: dict, drawing: Drawing, ids: tuple[str, ...]) -> tuple[str, str, str]:
    """The hatchings, the edges and the group labels of the spaces in play, and the caption's
    legend, kept per process by the map, language and spaces in play."""
    owners = _owners(board)
    key = ("static", board.get("drawing_key"), ids, tuple(sorted(owners)))
    hit = MARKUP.get(key) if board.get("drawing_key") is not None else None
    if hit is not None:
        return hit[1], hit[2], hit[0]
    under = drawing.defs() + drawing.edges(ids)
    over = drawing.group_labels(ids)
    legend = "".join(f'<span class="legend-item">{drawing.swatch_html(sw)}{_html_escape(txt)}</span>'
                     for sw, txt in legend_items(board, drawing))
    if board.get("drawing_key") is not None:
        remember(MARKUP, key, (legend, under, over))
    return under, over, legend


def markup(board: dict, *, open_text: bool = False) -> str:
    """The board's figure (SVG map, legend, text table) as HTML; safe to insert as is.

    A board built with others of one position (``board.build``'s ``shared``) carries the memo of
    the seats that drew the same spaces (``markup_memo``, one per language: the drawn spaces are):
    the figure is written once for them per text-table state (its legend's links,
    ``teach.legend_terms``, follow from the same spaces and map)."""
    memo = board.get("markup_memo")
    if memo is None:
        return _markup(board, open_text=open_text)
    key = ("markup", bool(open_text), bool(board.get("legend_terms")))
    html = memo.get(key)
    if html is None:
        html = memo[key] = _markup(board, open_text=open_text)
    return html


def _markup(board: dict, *, open_text: bool = False) -> str:
    from django.utils.translation import get_language, gettext, ngettext

    e = _t
    out: list[str] = []
    w = out.append
    spaces = board.get("spaces") or []
    drawing: Drawing | None = board.get("drawing")
    svg_class = board.get("svg_class")
    w('<figure class="board" aria-labelledby="board-caption">')
    w(f'<svg class="board-svg{" " + e(svg_class) if svg_class else ""}" viewBox="0 0 {e(board.get("width", ""))} '
      f'{e(board.get("height", ""))}" role="group" aria-labelledby="board-title board-desc" '
      f'preserveAspectRatio="xMidYMid meet" focusable="false" font-family="{FONT}">')
    w(f'<title id="board-title">{_escape(gettext("Game board"))}</title>')
    n = len(spaces)
    desc = ngettext("%(n)s space; a full text description follows the map.",
                    "%(n)s spaces; a full text description follows the map.", n) % {"n": n}
    w(f'<desc id="board-desc">{desc}</desc>')
    lang = get_language()
    rows = []
    legend = ""
    if drawing is not None:
        under, over, legend = _static_layers(board, drawing, tuple(s["id"] for s in spaces))
        if board.get("legend_terms"):
            legend = _linked_legend(board, drawing, board["legend_terms"])
        w(under)
        svgs = []
        roads = []
        for s in spaces:
            svg, row = _space_markup(s, lang, drawing)
            (roads if s.get("kind") == "loc" else svgs).append(svg)
            rows.append(row)
        out += svgs
        out += roads  # roads last: no road line crosses a space's pieces
        w(over)
    w('</svg><figcaption id="board-caption" class="legend">')
    w(legend)
    w(f'</figcaption><details class="board-text"{" open" if open_text else ""}>'
      f'<summary>{_escape(gettext("Board as text"))}</summary><table class="space-table"><thead><tr>'
      f'<th scope="col">{_escape(gettext("Space"))}</th><th scope="col">{_escape(gettext("Pieces"))}</th>'
      f'<th scope="col">{_escape(gettext("Markers"))}</th></tr></thead><tbody>')
    out += rows
    w('</tbody></table></details></figure>')
    return "".join(out)
