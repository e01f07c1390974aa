"""The live page's board: one seat's typed board view (``engine.core.boardview``) as the board
model of the play page, the replay and the console; its figure is drawn by ``board_markup``
with the one board renderer (``boardsvg``), which also draws the AAR's maps.

Everything on the map comes from the typed view, never from guessing keys: the spaces, their
geometry and fixed facts from the game's ``Rules.board_map()``, the pieces (owner, type,
Underground/Active, count), control, support and markers from ``Rules.board_view_of(view,
seat)``, itself built from the seat's ``view`` (so a seat's page can never show what its view
withholds), the tracks with their ranges and thresholds from the same board view. What the
seat holds (hands, available forces), the current card's text and a game's own side panel
still come from the view, named per game in ``layouts/<key>.json`` (``holdings``; also the page's CSS class of the
map and the source of a player's home area).

The result is cached per process by what it is drawn from (the map, the language, each space's
part of the typed view), as before the typed view (issue #8): a poll redraws only what changed.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.core.boardview import (
    BoardMap,
    BoardView,
    PieceState,
    SpaceGeometry,
    SpaceShape,
    SpaceView,
    Support,
)
from engine.core.messages import is_msg, msg, render
from facilitation.text import tr as text_tr
from facilitation.web import games

from .board_markup import markup, remember  # noqa: F401 - markup: the figure of a built board
from .boardsvg import Drawing

LAYOUT_DIR = Path(__file__).resolve().parent / "layouts"

SUPPORT_WORDS = {Support.ACTIVE_SUPPORT: "Active Support", Support.PASSIVE_SUPPORT: "Passive Support",
                 Support.PASSIVE_OPPOSITION: "Passive Opposition", Support.ACTIVE_OPPOSITION: "Active Opposition"}
SHAPES = {"cube": "cube", "base": "base", "cylinder": "round", "disc": "round", "token": "cube"}


@lru_cache(maxsize=32)
def load_layout(key: str) -> dict:
    """A game's page data (holdings, legend lines, CSS), or ``{}``."""
    if not key or not key.replace("_", "").isalnum():
        return {}
    path = LAYOUT_DIR / f"{key}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def humanize(key: Any) -> str:
    s = str(key).replace("_", " ").replace("-", " ").strip()
    return s[:1].upper() + s[1:] if s else ""


def _language() -> str:
    try:
        from django.utils.translation import get_language
        return (get_language() or "en").split("-")[0]
    except Exception:  # outside Django
        return "en"


def _translator(key: str, lang: str):
    """A message (or English word) in the current language, from the ``.po`` catalogs (the one
    source of translations; the layout's own words are listed under ``"texts"`` for
    ``makemessages``, see docs/architecture/i18n.md). The words are the same in every request
    of a language, so each is looked up once per process
    (a page's board names about 50 of them; Django's gettext costs 10-20 us a call)."""
    return _translators(key, lang)


@lru_cache(maxsize=64)
def _translators(key: str, lang: str):
    try:
        from django.utils.translation import gettext, ngettext
    except Exception:  # outside Django
        gettext, ngettext = (lambda s: s), (lambda s, p, n: s if n == 1 else p)
    memo: dict = {}

    def tr(value: Any) -> Any:
        if isinstance(value, dict):
            k = repr(value)
        elif isinstance(value, str):
            k = value
        else:
            return value
        hit = memo.get(k)
        if hit is not None:
            return hit
        text = render(value, gettext, ngettext) if isinstance(value, dict) else (gettext(value) if value else value)
        if len(memo) < 20000:
            memo[k] = text
        return text
    return tr


def choice_space(choice: dict) -> str | None:
    """The space a choice points at (payload ``space``/``space_id``/``to``, or id ``space:<id>``)."""
    payload = choice.get("payload") or {}
    for k in ("space", "space_id", "location", "to", "tile"):
        v = payload.get(k)
        if isinstance(v, str):
            return v
    cid = choice.get("id", "")
    if isinstance(cid, str) and cid.startswith("space:"):
        return cid.split(":", 1)[1]
    return None


# ---- the static part: once per map and language ----------------------------------------------
def _space_geometry(g: SpaceGeometry, tr) -> dict:
    kind = {SpaceShape.BOX: "city", SpaceShape.ROAD: "loc", SpaceShape.HEX: "space"}.get(g.shape, g.kind)
    return {
        "id": g.id, "name": tr(g.name), "kind": kind, "short": tr(g.label),
        "x": round(g.x, 1), "y": round(g.y, 1), "r": round(g.r, 1), "small": g.shape == SpaceShape.HEX,
        "static": [f"{tr(f.name)}: {tr(f.value)}" for f in g.facts],
        "adjacent": list(g.adjacent), "line": bool(g.line),
        "group": tr(g.group) if g.group is not None else "",
    }


def _geometry(board_map: BoardMap, tr) -> dict:
    """Per space its position, shape, names and fixed facts (for the text table and callers), and
    the one drawing of the map in this language (``boardsvg.Drawing``)."""
    return {"spaces": [_space_geometry(g, tr) for g in board_map.spaces], "drawing": Drawing(board_map, tr)}


# ---- one space of a position ---------------------------------------------------------------
def _space_markers(s: SpaceView, tr, abbreviation: dict[str, str]) -> list[str]:
    """Control, support and markers in words (the typed values, named)."""
    out = [tr(m.name) + (f" {m.count}" if m.count > 1 else "") for m in s.markers]
    if s.support is not None and s.support in SUPPORT_WORDS:
        out.append(tr(SUPPORT_WORDS[s.support]))
    if s.control:
        out.append(tr(msg("{faction} Control", faction=tr(abbreviation.get(s.control, s.control)))))
    return out


def _draw_space(g: dict, s: SpaceView | None, owner: str | None, tr, types: dict, faction_index: dict[str, int],
                abbreviation: dict[str, str], owner_names: dict[str, str]) -> dict:
    """One space from its geometry ``g`` and its typed part of the view: its pieces, markers and
    owner in words (the text table; the SVG is drawn from the typed parts, ``boardsvg``)."""
    pieces = []
    for p in (s.pieces if s else ()):
        pt = types.get(p.type)
        pieces.append({
            "faction": p.owner, "kind": p.type, "count": p.count,
            "state": "" if p.state == PieceState.NONE else p.state.value,
            "shape": SHAPES.get(pt.shape.value, "round") if pt else "round",
            "letter": pt.letter if pt else "?", "name": tr(pt.name) if pt else humanize(p.type),
            "fi": faction_index.get(p.owner, 9),
        })
    pieces.sort(key=lambda p: (p["fi"], p["kind"], p["state"]))
    static = list(g["static"])
    if owner is not None:  # a player's home area, in words too (not by colour alone)
        static.append(tr(msg("Home area of {faction}", faction=owner_names.get(owner, owner))))
    return {**g, "pieces": pieces, "markers": _space_markers(s, tr, abbreviation) if s else [],
            "static": static, "choices": [], "adjacent": list(g["adjacent"]), "owner": owner, "view": s}


def _card(raw: Any, cards: dict | None = None) -> dict | None:
    if isinstance(raw, str | int) and cards and str(raw) in cards:
        raw = {"id": str(raw), **cards[str(raw)]}
    if not isinstance(raw, dict):
        if raw in (None, ""):
            return None
        return {"title": str(raw), "number": "", "text": "", "lines": []}
    title = raw.get("title") or raw.get("name") or humanize(raw.get("id", ""))
    lines = []
    for k in ("text", "unshaded", "shaded", "top", "bottom", "effect", "propaganda"):
        v = raw.get(k)
        if isinstance(v, dict):  # a side: its name and its text, each in the viewer's language
            v = " ".join(x for x in (f"{text_tr(v.get('name'))}." if v.get("name") else "", text_tr(v.get("text", "")))
                         if x)
        elif v:
            v = text_tr(v)
        if isinstance(v, str) and v:
            lines.append({"label": "" if k == "text" else humanize(text_tr(k)), "text": v})
    order = raw.get("order") or raw.get("faction_order") or raw.get("eligibility_order")
    return {"title": title, "number": raw.get("number", raw.get("num", raw.get("id", ""))),
            "order": [humanize(x) for x in order] if isinstance(order, list | tuple) else order,
            "kind": raw.get("kind") or raw.get("type") or "", "lines": lines}


def _capabilities(raw: Any, cards: dict | None) -> list[dict]:
    """Capabilities in force; card ids are named from ``board()["cards"]`` when possible."""
    if isinstance(raw, dict) and cards:
        rows = []
        for cid, side in raw.items():
            c = cards.get(str(cid))
            if c is None:
                rows.append({"key": humanize(cid), "value": humanize(side)})
                continue
            s = c.get(side) if isinstance(side, str) else None
            detail = f"{s.get('name', '')}: {s.get('text', '')}" if isinstance(s, dict) else humanize(side)
            rows.append({"key": c.get("title", cid), "value": detail})
        return rows
    return _kv(raw)


def _kv(raw: Any) -> list[dict]:
    """Key/value rows for the 'what you hold' panel."""
    rows = []
    if isinstance(raw, dict):
        for k, v in raw.items():
            if isinstance(v, dict):
                v = ", ".join(f"{text_tr(humanize(a))}: {text_tr(b)}" for a, b in v.items())
            elif isinstance(v, list | tuple):
                v = ", ".join(text_tr(_named(x)) if isinstance(x, dict) else humanize(x) for x in v) or "-"
            rows.append({"key": humanize(k), "value": v})
    elif isinstance(raw, list | tuple):
        for x in raw:
            rows.append({"key": "", "value": _named(x) if isinstance(x, dict) else humanize(x)})
    return rows


def _named(x: dict) -> Any:
    """What names an item of the view: the item itself when it is a message (rendered in the
    viewer's language by the template's ``|tr``), else its name, title or id."""
    return x if is_msg(x) else (x.get("name") or x.get("title") or x.get("id"))


# ---- per process: the static map and each drawn space ----------------------------------------
_GEOMETRY: dict[tuple, dict] = {}


def clear_memo() -> None:
    """Forget every kept board part (tests; a process never needs to)."""
    from .board_markup import MARKUP, SPACES

    SPACES.clear()
    MARKUP.clear()
    _GEOMETRY.clear()


@lru_cache(maxsize=16)
def _static(rules: Any) -> tuple[BoardMap, dict, str]:
    """The game's typed map, its ``board()`` (card texts, owner fields) and a digest of both,
    once per Rules object and process (both are static by the engine contract)."""
    board_map = rules.board_map()
    static = rules.board() or {}
    digest = hashlib.sha1(repr((board_map, static)).encode()).hexdigest()
    return board_map, static, digest


def _tracks(bv: BoardView, tr) -> list[dict]:
    out = []
    for t in bv.tracks:
        frac = None
        if t.max is not None and t.max > t.min:
            frac = max(0.0, min(1.0, (t.value - t.min) / (t.max - t.min)))
        out.append({"id": t.id, "name": tr(t.name), "value": t.value, "key": True, "min": t.min, "max": t.max,
                    "pct": None if frac is None else round(frac * 100),
                    "thresholds": [f"{tr(h.name)} ({h.value:g})" for h in t.thresholds]})
    return out


def _shown_card(bv: BoardView, role: str, cards: dict | None, tr) -> dict | None:
    c = next((c for c in bv.cards if c.role == role), None)
    if c is None:
        return None
    drawn = _card(c.id, cards) if cards and c.id in cards else {"title": "", "number": c.number, "lines": [],
                                                                 "order": None, "kind": ""}
    drawn["title"] = tr(c.title)
    drawn["number"] = c.number or drawn.get("number", "")
    return drawn


def _holdings(view: dict, layout: dict, index: dict, cards: dict | None, seat_names: dict, tr) -> list[dict]:
    """What the seat holds, from the view's keys the game names in its layout (``holdings``)."""
    keys = layout.get("holdings")
    if not keys:
        return _kv(view.get("hand"))
    rows = []
    for k in keys:
        if k not in view:
            continue
        label = (layout.get("holding_labels") or {}).get(k) or humanize(k)
        val = view[k]
        if isinstance(val, dict) and all(isinstance(x, int | float) for x in val.values()):
            val = {tr(humanize(a)): b for a, b in val.items()}
        if isinstance(val, str) and val in index:
            val = index[val]["name"]
        elif isinstance(val, str) and cards and val in cards:
            val = f"{val} {tr(cards[val].get('title', ''))}"
        elif isinstance(val, dict):
            val = {a: (seat_names.get(b, b) if isinstance(b, str) else b) for a, b in val.items()}
        rows += _kv({label: "-" if val in (None, "", {}, []) else val})
    return rows


def summary(rules: Any, view: dict | None) -> dict:
    """What the instructors' console and manage page show of a board: its tracks and current
    card, as ``build`` gives them, without drawing the spaces (issue 20: the console section is
    drawn after every move)."""
    if not view:
        return {"tracks": [], "has_key_tracks": False, "card": None}
    _board_map, static, _digest = _static(rules)
    bv = rules.board_view_of(view, view.get("seat") if isinstance(view.get("seat"), str) else None)
    tr = _translator(getattr(rules, "key", ""), _language())
    tracks = _tracks(bv, tr)
    cards = static.get("cards") if isinstance(static.get("cards"), dict) else None
    return {"tracks": tracks, "has_key_tracks": bool(tracks), "card": _shown_card(bv, "current", cards, tr)}


def build(rules: Any, view: dict, *, metrics: dict | None = None, choices: list[dict] | None = None,
          seats: list[dict] | None = None, shared: dict | None = None) -> dict:
    """The drawable board for one seat's ``view`` (``view(state, seat)`` of ``rules``; its seat is
    ``view["seat"]`` where the game says so). ``choices``: the seat's legal choices as dicts.
    ``metrics`` is accepted for the callers' sake: the tracks come from the typed view.

    ``shared``: a dict the caller keeps while it builds the boards of several seats of one
    position (``regions.live_contexts``). A seat with no choice on the map whose typed view shows
    the same spaces (equal ``SpaceView``s, the same home quadrants) as a seat built before it gets
    that seat's drawn spaces, and with them one memo of the board's markup (``markup``), instead
    of drawing them again: the spaces and their markup are a function of exactly those inputs, so
    a seat is given what it would have drawn itself (issue 20: the seats of a Tears of Tyranny
    position share one public map; this was a third of a region's context, once per seat)."""
    view = view or {}
    board_map, static, digest = _static(rules)
    if view:
        bv = rules.board_view_of(view, view.get("seat") if isinstance(view.get("seat"), str) else None)
    else:  # no position yet (a session not started): the map alone
        bv = BoardView(getattr(rules, "key", ""), None, tuple(SpaceView(g.id) for g in board_map.spaces))
    key = getattr(rules, "key", "")
    layout = load_layout(key)
    lang = _language()
    tr = _translator(key, lang)
    seats = seats if seats is not None else [{"id": s.id, "title": tr(s.title)} for s in getattr(rules, "seats", ())]
    faction_index = {s["id"]: i for i, s in enumerate(seats)}
    abbreviation = {f.id: f.abbreviation or tr(f.name) for f in board_map.factions}
    types = {p.id: p for p in board_map.piece_types}
    geo_key = (key, lang, digest)
    geo = _GEOMETRY.get(geo_key)
    if geo is None:
        geo = _geometry(board_map, tr)
        if len(_GEOMETRY) >= 64:
            _GEOMETRY.clear()
        _GEOMETRY[geo_key] = geo
    choice_by_space: dict[str, list[dict]] = {}
    for c in choices or []:
        sid = choice_space(c)
        if sid:
            choice_by_space.setdefault(sid, []).append(c)
    # a player's home quadrant (layout ``owner``: the static field and the view's seat map)
    owner_rule = layout.get("owner") or {}
    owner_of: dict[str, str] = {}
    if isinstance(view.get(owner_rule.get("view")), dict):
        owner_of = {str(v): k for k, v in view[owner_rule["view"]].items() if k in faction_index}
    owner_field: dict[str, str | None] = {}
    if owner_of:
        for s in static.get("tiles") or static.get("spaces") or []:
            owner_field[s["id"]] = owner_of.get(str(s.get(owner_rule["field"])))
    owner_names = {f.id: tr(f.name) for f in board_map.factions}
    static_key = (geo_key, tuple(faction_index.items()))
    in_view = {s.id: s for s in bv.spaces}
    from .board_markup import SPACES, Space, copy_space

    # the quadrants' owners follow from the view's seat map (``owner_of``) and the map's static data
    share_key = (static_key, tuple(sorted(owner_of.items()))) if shared is not None and not choice_by_space else None
    seen = None
    if share_key is not None:
        for entry in shared.get(share_key, ()):
            if entry[0] == bv.spaces:
                seen = entry
                break
    spaces, index = ([], {}) if seen is None else (seen[1], seen[2])
    for g in geo["spaces"] if seen is None else ():
        sid = g["id"]
        s = in_view.get(sid)
        if s is None:  # not in play (Ecuador and Panama before an event, quadrants of fewer players)
            continue
        owner = owner_field.get(sid)
        memo_key = (static_key, sid, s.pieces, s.control, s.support, tuple((m.id, m.count) for m in s.markers), owner)
        drawn = SPACES.get(memo_key)
        if drawn is None:
            drawn = _draw_space(g, s, owner, tr, types, faction_index, abbreviation, owner_names)
            remember(SPACES, memo_key, drawn)
        sp: Space = copy_space(drawn)
        sp["choices"] = choice_by_space.get(sid, [])
        sp.memo_key = memo_key
        spaces.append(sp)
        index[sid] = sp
    if share_key is not None and seen is None:
        seen = (bv.spaces, spaces, index, {})
        shared.setdefault(share_key, []).append(seen)
    cards = static.get("cards") if isinstance(static.get("cards"), dict) else None
    seat_names = {s_["id"]: s_["title"] for s_ in seats}
    holdings = _holdings(view, layout, index, cards, seat_names, tr)
    for h in holdings:
        h["key"] = tr(h["key"])
    tracks = _tracks(bv, tr)
    return {
        "key": key,
        "width": board_map.width, "height": board_map.height,
        "spaces": spaces, "drawing": geo["drawing"], "drawing_key": geo_key,
        "svg_class": str(layout.get("svg_class") or ""),
        "tracks": tracks,
        "has_key_tracks": bool(tracks),
        "card": _shown_card(bv, "current", cards, tr),
        "next_card": _shown_card(bv, "next", cards, tr),
        "capabilities": _capabilities(view.get("capabilities"), cards),
        "holdings": holdings,
        "seats": [{**s, "fi": i} for i, s in enumerate(seats)],
        "unplaced_choices": [c for c in choices or [] if not choice_space(c)],
        # a game's own side panel (player panels, hands with card text), from the same view
        "game_panel": games.panel(key, view, choices or [], seats),
        "game_template": games.template(key), "game_side_template": games.template(key, "side"),
        # the markup memo of the seats that share these drawn spaces (``markup``), or None
        "markup_memo": seen[3] if seen is not None else None,
    }
