"""A generic board model for the SVG renderer.

Turns the static data of ``Rules.board()`` and one seat's ``Rules.view(state, seat)``
into plain drawable primitives (spaces with positions, piece stacks with
counts and Underground/Active state, markers, tracks, the current card,
capabilities, what the seat holds). Nothing here knows any particular game:
positions come from ``board()`` itself or, failing that, from the game's own map
layout data in ``facilitation/rendering/layouts/<key>.json``; anything still missing is
laid out on a grid.

Only data that the seat's view contains is drawn, so a seat's page can never
show what its view withholds.

Recognised shapes (all keys optional; anything unrecognised is ignored):

``board()``::

    {"width": 1000, "height": 700,
     "spaces": [{"id": "lima", "name": "Lima", "type": "city", "population": 2,
                 "x": 120, "y": 300, "adjacent": ["junin", ...]}, ...],
     "tracks": [{"id": "political_will", "name": "Political Will", "min": 0, "max": 20}],
     "pieces": [{"id": "govt_troops", "faction": "govt", "name": "Troops"}]}

``view()``: ``spaces`` as a dict ``id -> info`` or a list of ``{"id": ..}``;
each info may carry ``pieces`` (a dict ``piece -> count``, a dict
``faction -> {piece: count}``, or a list of ``{"faction", "kind"|"type",
"count", "active"|"underground"|"state"}``), ``markers``/``terror``/``support``
/``control``; the view's ``tracks`` (dict or list), ``card``/``current_card``
(dict with ``title``/``name``, ``text``/``unshaded``/``shaded``, ``number``/``id``),
``capabilities``, and the seat's own holdings under ``hand``, ``holding``,
``holdings``, ``private``, ``you`` or ``seat``.

Layout data (``layouts/<key>.json``) may also say, all optional:

``"space_pieces": {field: rule}``
    turns a per-space field of the view into piece stacks. ``rule`` is
    ``{"kind": K, "faction": F}`` for a plain count, ``{"by_faction": true, "kind": K}``
    for a dict ``faction -> count``, ``{"list": true, "kind_index": 0}`` (or
    ``"faction_index": 0`` with a fixed ``kind``) for a list of pieces, one per item,
    and ``"min"`` (a count of at least that many) for e.g. an HQ (``"kind_at": {"2": "hq"}``
    renames the stack when the count reaches that value).
``"view_pieces": {key: {"space": "space", "faction": "owner", "kind": K}}``
    a top-level list of dicts in the view, each one piece in a space.
``"space_lists": {key: "Label"}``
    a top-level list of space ids in the view, each a marker with that label.
``"legend": [{"label", "css", "faction"}]``
    extra legend entries (pieces that belong to no seat).
``"static_facts": [key, ...]``
    static ``board()`` space fields shown in the text table (true booleans by name).
``"spaces": {id: {"x", "y", "r", "line": [[x, y], ...]}}``
    ``line`` draws the space (e.g. a Line of Communication) as a polyline as well;
    ``"if": flag`` draws the space only while ``view[flag]`` is true.
``"space_class": {field: prefix}``
    a CSS class per space from a static ``board()`` space field (``prefix + value``),
    e.g. ``{"terrain": "terrain-"}`` to fill tiles by terrain.
``"group_labels": {"field": F, "size": N}``
    one large label per group of spaces sharing the static field ``F`` (e.g. a region
    name), drawn at the group's centre under the pieces.
``"owner": {"field": F, "view": K}``
    spaces whose static field ``F`` equals ``view[K][seat]`` belong to that seat: their
    outline takes the seat colour (class ``owner-fN``), e.g. a player's home quadrant.
``"name_format": "{field} {field} ({id})"``
    the space's name from its static ``board()`` fields (tooltip, text table).
``"rotate": degrees``
    turn positions taken from ``board()`` (and hex shapes) about the centre before fitting,
    e.g. 90 for a tall hex map on a landscape screen.
``"short_field": F``, ``"short_regex": R``
    the small label drawn in each space is its static field ``F`` (the full name stays
    in the tooltip and the text table), cut to the first group of the regular
    expression ``R`` when it matches (e.g. ``"(t\\d+)$"``: tile "t3" of its septet).
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import re
from functools import lru_cache
from html import escape as _html_escape
from pathlib import Path
from typing import Any

from facilitation.web import games

LAYOUT_DIR = Path(__file__).resolve().parent / "layouts"

SPACE_KEYS = ("spaces", "regions", "provinces", "locations", "tiles", "hexes")
CARD_KEYS = ("card", "current_card", "current")
NEXT_CARD_KEYS = ("next_card", "upcoming", "preview")
HOLDING_KEYS = ("hand", "holding", "holdings", "private", "you", "own", "secret")
MARKER_KEYS = ("markers", "terror", "sabotage", "shining_path_base_marker", "events")
SKIP_SPACE_KEYS = {"id", "name", "title", "pieces", "x", "y", "w", "h", "r", "adjacent",
                   "adjacency", "neighbors", "neighbours", "type", "kind", "label"}


@lru_cache(maxsize=32)
def load_layout(key: str) -> dict:
    """A game's own map layout data (positions by space id), or ``{}``."""
    if not key or not key.replace("_", "").isalnum():
        return {}
    path = LAYOUT_DIR / f"{key}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def _as_list(value: Any) -> list:
    if value is None:
        return []
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            if isinstance(v, dict):
                out.append({"id": k, **v})
            else:
                out.append({"id": k, "value": v})
        return out
    if isinstance(value, list | tuple):
        return [v if isinstance(v, dict) else {"id": str(v), "name": str(v)} for v in value]
    return []


def _formatted(fmt: Any, fields: dict) -> str:
    if not isinstance(fmt, str):
        return ""
    try:
        return fmt.format(**fields)
    except (KeyError, IndexError, ValueError):
        return ""


def _short(space: dict, layout: dict) -> str:
    text = str(space.get(layout.get("short_field") or "short") or "")
    if text and layout.get("short_regex"):
        m = re.search(layout["short_regex"], text)
        if m:
            text = m.group(1) if m.groups() else m.group(0)
    return text


def _first(d: dict, keys: tuple[str, ...]) -> Any:
    for k in keys:
        if isinstance(d, dict) and d.get(k) not in (None, "", [], {}):
            return d[k]
    return None


def humanize(key: Any) -> str:
    s = str(key).replace("_", " ").replace("-", " ").strip()
    return s[:1].upper() + s[1:] if s else ""


def _piece_state(p: dict) -> str:
    """'underground', 'active' or '' from the many ways a view may say it."""
    st = p.get("state") or p.get("status")
    if isinstance(st, str) and st.lower() in ("underground", "active"):
        return st.lower()
    if p.get("underground") is True or p.get("active") is False:
        return "underground"
    if p.get("active") is True or p.get("underground") is False:
        return "active"
    return ""


def _split_piece_key(key: str) -> tuple[str, str, str]:
    """'sl_guerrilla_underground' -> ('sl', 'guerrilla', 'underground')."""
    parts = str(key).split("_")
    state = ""
    if parts and parts[-1].lower() in ("underground", "active", "u", "a"):
        last = parts.pop().lower()
        state = {"u": "underground", "a": "active"}.get(last, last)
    if len(parts) >= 2:
        return parts[0], "_".join(parts[1:]), state
    return "", "_".join(parts), state


def normalize_pieces(raw: Any, faction_index: dict[str, int], piece_info: dict[str, dict]) -> list[dict]:
    """A list of ``{faction, kind, name, count, state, fi}`` from any recognised shape."""
    out: list[dict] = []

    def add(faction: str, kind: str, count: Any, state: str = "", name: str = "") -> None:
        try:
            n = int(count)
        except (TypeError, ValueError):
            return
        if n <= 0:
            return
        info = piece_info.get(f"{faction}_{kind}") or piece_info.get(kind) or {}
        faction = faction or info.get("faction", "")
        out.append({
            "faction": faction,
            "kind": kind,
            "shape": info.get("shape") or ("base" if "base" in str(kind).lower() else
                                           "cube" if str(kind).lower() in ("troops", "police", "cube") else "round"),
            "letter": info.get("letter", ""),
            "name": name or info.get("name") or humanize(kind),  # translated in build()
            "count": n,
            "state": state or info.get("state", ""),
            "css": info.get("css", ""),
            "fi": faction_index.get(faction, faction_index.get(str(faction).lower(), 9)),
        })

    if isinstance(raw, dict):
        for key, val in raw.items():
            if isinstance(val, dict):
                # faction -> {kind: count} or kind -> {state: count}
                if key in faction_index or key.lower() in faction_index:
                    for kind, cnt in val.items():
                        if isinstance(cnt, dict):
                            for st, c in cnt.items():
                                add(key, kind, c, st if st in ("underground", "active") else "")
                        else:
                            f2, k2, st = _split_piece_key(kind)
                            add(key, k2 if f2 == key else kind, cnt, st)
                else:
                    f, k, st0 = _split_piece_key(key)
                    for st, c in val.items():
                        if st in ("underground", "active"):
                            add(f, k, c, st)
                        elif st in ("count", "n"):
                            add(val.get("faction", f), val.get("kind", k), c, _piece_state(val) or st0)
            elif key in piece_info:
                add(piece_info[key].get("faction", ""), key, val, piece_info[key].get("state", ""))
            else:
                f, k, st = _split_piece_key(key)
                add(f, k, val, st)
    elif isinstance(raw, list | tuple):
        for p in raw:
            if not isinstance(p, dict):
                continue
            add(str(p.get("faction") or p.get("owner") or ""), str(p.get("kind") or p.get("type") or p.get("piece") or "piece"),
                p.get("count", p.get("n", 1)), _piece_state(p), str(p.get("name") or ""))
    out.sort(key=lambda p: (p["fi"], p["kind"], p["state"]))
    return out


def _extra_pieces(info: dict, rules: dict) -> tuple[list[dict], set]:
    """Piece stacks from a space's fields named by the layout's ``space_pieces``."""
    out: list[dict] = []
    used = set()
    for field, rule in (rules or {}).items():
        if field not in info:
            continue
        used.add(field)
        val = info[field]
        kind = rule.get("kind", field)
        if rule.get("by_faction") and isinstance(val, dict):
            for f, n in val.items():
                if isinstance(n, int | float) and not isinstance(n, bool) and n > 0:
                    k = kind
                    for at, k2 in sorted((rule.get("kind_at") or {}).items(), key=lambda x: int(x[0])):
                        if n >= int(at):
                            k = k2
                    out.append({"faction": f, "kind": k, "count": n})
        elif rule.get("list") and isinstance(val, list | tuple):
            counts: dict[tuple, int] = {}
            for item in val:
                item = item if isinstance(item, list | tuple) else [item]
                ki, fi = rule.get("kind_index"), rule.get("faction_index")
                k = str(item[ki]) if ki is not None and len(item) > ki else kind
                f = str(item[fi]) if fi is not None and len(item) > fi else rule.get("faction", "")
                counts[(f, k)] = counts.get((f, k), 0) + 1
            out += [{"faction": f, "kind": k, "count": n} for (f, k), n in counts.items()]
        elif isinstance(val, int | float) and not isinstance(val, bool) and val > 0:
            out.append({"faction": rule.get("faction", ""), "kind": kind, "count": val})
        elif val is True:
            out.append({"faction": rule.get("faction", ""), "kind": kind, "count": 1})
    return out, used


def _box(kind: str, r: float, x: float, y: float) -> dict:
    """The rectangle of a city (132x112 at r=62) or a LoC pill (100x60 at r=34), scaled by r."""
    if kind == "city":
        w, h, rx = 132 * r / 62, 112 * r / 62, 14
    elif kind == "loc":
        w, h, rx = 100 * r / 34, 60 * r / 34, 30 * r / 34
    else:
        return {}
    return {"x": round(x - w / 2, 1), "y": round(y - h / 2, 1), "w": round(w, 1), "h": round(h, 1), "rx": round(rx, 1)}


def _space_markers(info: dict, cfg: dict | None = None) -> list[str]:
    """Marker words for a space. ``cfg`` (a game's layout data) may name each key
    (``label``), map its values to words (``values``) or hide it (``hide``)."""
    cfg = cfg or {}
    out: list[str] = []
    v = info.get("markers")
    if isinstance(v, dict):
        out += [f"{humanize(a)}: {b}" if not isinstance(b, bool) else humanize(a) for a, b in v.items() if b]
    elif isinstance(v, list | tuple):
        out += [humanize(x) if not isinstance(x, dict) else str(x.get("name") or x.get("id")) for x in v]
    keys = [k for k in cfg if k in info] + [k for k in info if k not in cfg]
    for k in keys:
        v = info[k]
        if k in SKIP_SPACE_KEYS or k == "markers":
            continue
        c = cfg.get(k) or {}
        if c.get("hide"):
            continue
        label = c.get("label") or humanize(k)
        if "values" in c:
            word = c["values"].get(str(v).lower() if isinstance(v, bool) else str(v))
            if word:
                out.append(word)
        elif isinstance(v, bool):
            if v:
                out.append(label)
        elif isinstance(v, int | float):
            if v:
                out.append(f"{label} {v}")
        elif isinstance(v, str) and v:
            out.append(f"{label}: {humanize(v)}")
    return out


def _tracks(board: dict, view: dict, metrics: dict | None, layout: dict) -> list[dict]:
    defs: dict[str, dict] = {}
    raw = board.get("tracks")
    if isinstance(raw, dict):
        raw = {k: ({"min": v[0], "max": v[1]} if isinstance(v, list | tuple) and len(v) == 2
                   and all(isinstance(x, int | float) for x in v) else v) for k, v in raw.items()}
    for t in _as_list(raw):
        if isinstance(t.get("markers"), list):  # one scale shared by several markers
            for m in t["markers"]:
                defs[m] = {"id": m, "min": t.get("min", 0), "max": t.get("max")}
        elif "min" in t or "max" in t or "name" in t:
            defs[t["id"]] = t
    for t in layout.get("tracks") or []:
        defs[t["id"]] = {**defs.get(t["id"], {}), **t}
    values: dict[str, Any] = {}
    for t in _as_list(view.get("tracks")):
        values[t["id"]] = t.get("value", t.get("level", t.get("position")))
    for k, v in (metrics or {}).items():
        values.setdefault(k, v)
    for k in defs:
        if k not in values and isinstance(view.get(k), int | float):
            values[k] = view[k]
    order = [t["id"] for t in layout.get("tracks") or []]
    keys = [k for k in order if k in values] + [k for k in values if k not in order]
    out = []
    for tid in keys:
        val = values[tid]
        if not isinstance(val, int | float) or isinstance(val, bool):
            continue
        d = defs.get(tid, {})
        lo = d.get("min", 0)
        hi = d.get("max")
        frac = None
        if isinstance(hi, int | float) and hi > lo:
            frac = max(0.0, min(1.0, (val - lo) / (hi - lo)))
        out.append({"id": tid, "name": d.get("name") or humanize(tid), "value": val, "key": tid in order,
                    "min": lo, "max": hi, "pct": None if frac is None else round(frac * 100)})
    return out


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
        if isinstance(v, dict):
            v = " ".join(x for x in (f"{v.get('name')}." if v.get("name") else "", v.get("text", "")) if x)
        if isinstance(v, str) and v:
            lines.append({"label": "" if k == "text" else humanize(k), "text": v})
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
                v = ", ".join(f"{humanize(a)}: {b}" for a, b in v.items())
            elif isinstance(v, list | tuple):
                v = ", ".join(str(x.get("name") or x.get("title") or x.get("id")) if isinstance(x, dict) else humanize(x)
                              for x in v) or "-"
            rows.append({"key": humanize(k), "value": v})
    elif isinstance(raw, list | tuple):
        for x in raw:
            rows.append({"key": "", "value": (x.get("name") or x.get("title") or x.get("id")) if isinstance(x, dict) else humanize(x)})
    return rows


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


# Geometry that is a pure function of the static map (the same for every seat, position and
# request): computed once per process.
@lru_cache(maxsize=64)
def _default_radius(pts: tuple) -> float:
    """Half the lower-quartile nearest-neighbour distance of the spaces, within 10..62."""
    nn = sorted(min(math.dist(a, b) for j, b in enumerate(pts) if j != i) for i, a in enumerate(pts))
    return max(10.0, min(62.0, nn[len(nn) // 4] * 0.5))


@lru_cache(maxsize=4096)
def _hex_points(x: float, y: float, r: float, turn: float) -> str:
    return " ".join(f"{x + r * math.cos(math.radians(60 * k - 30 + turn)):.1f},"
                    f"{y + r * math.sin(math.radians(60 * k - 30 + turn)):.1f}" for k in range(6))


def _translator(layout: dict):
    """Words of a game's layout data in the current language (``layout["i18n"][lang]``)."""
    try:
        from django.utils.translation import get_language
        lang = (get_language() or "en").split("-")[0]
    except Exception:  # outside Django
        lang = "en"
    table = (layout.get("i18n") or {}).get(lang) or {}
    return lambda text: table.get(text, text) if isinstance(text, str) else text


_GEOMETRY: dict[tuple, dict] = {}


def _language() -> str:
    try:
        from django.utils.translation import get_language
        return (get_language() or "en").split("-")[0]
    except Exception:  # outside Django
        return "en"


def _geometry(board: dict, layout: dict, tr, static_spaces: list[dict], width: float, height: float) -> dict:
    """What a board draws from the static map alone: per space (in ``static_spaces`` order) its
    position, shape, names and static facts, the edges and the group labels. The same for every
    seat and position; ``build`` keeps it per process (``_GEOMETRY``) and copies it per board."""
    positions = layout.get("spaces", {})
    # a tall map turned a quarter (layout ``"rotate": 90``) fills a landscape screen; hexes turn with it
    turn = float(layout.get("rotate") or 0)
    if turn and not positions:
        ca, sa = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        static_spaces = [{**s, "x": float(s["x"]) * ca - float(s["y"]) * sa, "y": float(s["x"]) * sa + float(s["y"]) * ca}
                         if s.get("x") is not None and s.get("y") is not None else s for s in static_spaces]
    # coordinates from board() (percentages, hex units, ...) are fitted into the drawing
    coords = [(float(s["x"]), float(s["y"])) for s in static_spaces
              if s.get("x") is not None and s.get("y") is not None and s["id"] not in positions]
    default_r = None
    if coords and not positions:
        xs, ys = [c[0] for c in coords], [c[1] for c in coords]
        percent = all(0 <= v <= 100 for v in xs + ys)
        x0, x1 = (0.0, 100.0) if percent else (min(xs), max(xs))
        y0, y1 = (0.0, 100.0) if percent else (min(ys), max(ys))
        scale = min(width * 0.88 / max(x1 - x0, 1e-9), height * 0.88 / max(y1 - y0, 1e-9))
        if percent:
            sx, sy = width * 0.88 / 100, height * 0.88 / 100
        else:
            sx = sy = scale
        ox = (width - (x1 - x0) * sx) / 2
        oy = (height - (y1 - y0) * sy) / 2
        static_spaces = [{**s, "x": ox + (float(s["x"]) - x0) * sx, "y": oy + (float(s["y"]) - y0) * sy}
                         if s.get("x") is not None and s.get("y") is not None else s for s in static_spaces]
        pts = [(s["x"], s["y"]) for s in static_spaces if s.get("x") is not None]
        if 1 < len(pts) <= 400:
            default_r = _default_radius(tuple(pts))
    hexes = bool(board.get("hex")) and default_r is not None
    n = len(static_spaces)
    cols = max(1, math.ceil(math.sqrt(n * width / max(height, 1)))) if n else 1
    rows = max(1, math.ceil(n / cols)) if n else 1
    spaces = []
    index = {}
    for i, s in enumerate(static_spaces):
        sid = s["id"]
        pos = positions.get(sid) or {}
        x = pos.get("x", s.get("x"))
        y = pos.get("y", s.get("y"))
        if x is None or y is None:
            x = (i % cols + 0.5) * width / cols
            y = (i // cols + 0.5) * height / rows
        kind = str(s.get("type") or s.get("kind") or pos.get("type") or "space").lower()
        if kind.startswith("loc") or sid.startswith("loc_"):
            kind = "loc"
        elif kind in ("city", "capital", "lima") or str(s.get("terrain", "")).lower() == "city":
            kind = "city"
        own_r = s.get("radius") or (s.get("r") if "q" not in s else None)  # axial hex coords use q, r
        r = pos.get("r") or own_r or (34 if kind == "loc" else 62)
        if default_r is not None and not pos:
            r = min(r, default_r * (2 / math.sqrt(3) * 0.97 if hexes else 1))
            if kind == "loc" and r < 34:
                kind = "space"
        static_facts = [f"{humanize(k)}: {v}" for k, v in s.items()
                        if k in ("population", "pop", "econ", "terrain") and v not in (None, "")]
        for k in layout.get("static_facts") or []:
            if k in ("population", "pop", "econ", "terrain") or s.get(k) in (None, "", False, [], {}):
                continue
            label = tr((layout.get("static_labels") or {}).get(k) or humanize(k))
            static_facts.append(label if s[k] is True else f"{label}: {humanize(s[k])}")
        css = [pos.get("class")] + [f"{prefix}{s[f]}" for f, prefix in (layout.get("space_class") or {}).items()
                                    if s.get(f) not in (None, "")]
        sp = {
            "id": sid, "name": s.get("name") or s.get("title") or _formatted(layout.get("name_format"), s) or humanize(sid),
            "kind": kind,
            "short": pos.get("short") or s.get("short") or _short(s, layout),
            "x": round(float(x), 1), "y": round(float(y), 1), "r": round(r, 1),
            "small": default_r is not None and not pos and r < 40,
            "hex": _hex_points(float(x), float(y), r, turn) if hexes else "",
            "static": static_facts,
            "adjacent": list(s.get("adjacent") or s.get("adjacency") or s.get("neighbors") or []),
            "box": _box(kind, r, float(x), float(y)),
            "line": " ".join(f"{float(a):.1f},{float(b):.1f}" for a, b in pos.get("line") or []),
            "css": css,
            "group": str(s.get((layout.get("group_labels") or {}).get("field") or "") or ""),
        }
        sp["name_dy"] = -10 if sp["kind"] == "loc" else -round(38 * min(1.0, sp["r"] / 62 + 0.12), 1)
        if sp["small"]:
            sp["font"] = round(max(7.0, min(13.0, sp["r"] / 2.6)), 1)
            sp["name_dy"] = -round(sp["r"] * 0.35, 1)
        spaces.append(sp)
        index[sid] = sp
    edges = []
    seen = set()
    for e in board.get("edges") or []:
        if isinstance(e, dict):
            a, b = e.get("a") or e.get("from"), e.get("b") or e.get("to")
        elif isinstance(e, list | tuple) and len(e) == 2:
            a, b = e
        else:
            continue
        if a in index and b not in index[a]["adjacent"]:
            index[a]["adjacent"].append(b)
    for sp in spaces:
        for other in sp["adjacent"]:
            o = index.get(other)
            k = tuple(sorted((sp["id"], other)))
            if o and k not in seen:
                seen.add(k)
                edges.append({"x1": sp["x"], "y1": sp["y"], "x2": o["x"], "y2": o["y"]})
    group_labels = []
    if (layout.get("group_labels") or {}).get("field"):
        groups: dict[str, list] = {}
        for sp in spaces:
            if sp["group"]:
                groups.setdefault(sp["group"], []).append(sp)
        for name, members in groups.items():
            gx = sum(m["x"] for m in members) / len(members)
            gy = sum(m["y"] for m in members) / len(members)
            # the label sits across the middle of the space nearest the group's centre (whose own
            # small name it replaces), between the neighbours' names and the pieces
            centre = min(members, key=lambda m: (m["x"] - gx) ** 2 + (m["y"] - gy) ** 2)
            size = (layout.get("group_labels") or {}).get("size") or round(max(9.0, centre["r"] * 0.42), 1)
            group_labels.append({"text": tr(name), "x": centre["x"], "y": round(centre["y"] + centre["r"] * 0.06, 1),
                                 "size": size, "space": centre["id"]})
            centre["group_centre"] = True
    return {"spaces": spaces, "edges": edges, "group_labels": group_labels}


# Per process, what a board draws from static data or from a space's part of a view alone. The
# static board of a Rules object (``board()`` is static data by the engine contract) and its digest;
# each space as drawn from its own inputs (``_SPACES``) and each space's markup (``_MARKUP``). The
# keys hold everything the result is made of (the map's digest, the language, the seats, the
# space's part of the view, and for the markup the space's choices), so a seat is only ever given
# what its own view and choices draw; what is kept is copied before it is handed out.
_BOARDS: dict[int, tuple[Any, dict, str]] = {}
_SPACES: dict[tuple, dict] = {}
_MARKUP: dict[tuple, tuple[dict, str, str]] = {}
_MEMO_MAX = 6000  # per memo: the spaces of 40 four-team sessions in one language are about 4500


def clear_memo() -> None:
    """Forget every kept board part (tests; a process never needs to)."""
    _BOARDS.clear()
    _SPACES.clear()
    _MARKUP.clear()
    _GEOMETRY.clear()


def _static_board(rules: Any) -> tuple[dict, str]:
    """``rules.board()`` and a digest of it, once per Rules object and process."""
    hit = _BOARDS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1], hit[2]
    board = rules.board() or {}
    digest = hashlib.sha1(repr(board).encode()).hexdigest()
    if len(_BOARDS) >= 64:
        _BOARDS.clear()
    _BOARDS[id(rules)] = (rules, board, digest)  # the object is kept: its id is not reused meanwhile
    return board, digest


class _Space(dict):
    """A drawn space (a plain dict to its users) that remembers the key it was drawn under, so
    that ``markup`` can reuse the space's markup while the space is unchanged."""

    __slots__ = ("memo_key",)


class _Edges(list):
    """A board's edges (a plain list to its users) that remember the map they were drawn from."""

    __slots__ = ("memo_key",)


def _edges_markup(edges: list) -> str:
    """The edges' lines; kept per process for the edges of a map while they are unchanged."""
    key = getattr(edges, "memo_key", None)
    hit = _MARKUP.get(("edges", key)) if key is not None else None
    if hit is not None and hit[0] == edges:
        return hit[1]
    e = _t
    html = "".join(f'<line x1="{e(ed["x1"])}" y1="{e(ed["y1"])}" x2="{e(ed["x2"])}" y2="{e(ed["y2"])}"/>'
                   for ed in edges)
    if key is not None:
        _remember(_MARKUP, ("edges", key), ([dict(ed) for ed in edges], html, ""))
    return html


def _copy_space(sp: dict) -> _Space:
    out = _Space(sp)
    out["pieces"] = [dict(p) for p in sp["pieces"]]
    out["markers"] = list(sp["markers"])
    out["static"] = list(sp["static"])
    out["adjacent"] = list(sp["adjacent"])
    out["box"] = dict(sp["box"])
    out["marker_lines"] = [dict(m) for m in sp["marker_lines"]]
    out["choices"] = list(sp["choices"])
    return out


def _remember(memo: dict, key: tuple, value: Any) -> None:
    """Keep ``value``; when the memo is full, the oldest quarter is forgotten first."""
    if len(memo) >= _MEMO_MAX:
        for old in list(itertools.islice(memo, _MEMO_MAX // 4)):
            del memo[old]
    memo[key] = value


def _draw_space(s: dict, g: dict, own: dict | None, tops: list, view_pieces: list, lists: list, owner: int | None,
                layout: dict, tr, faction_index: dict, piece_info: dict, chip_k: float) -> dict:
    """One space of a board from the static space ``s``, its geometry ``g`` and its part of the
    view: its own entry, the view's top-level per-space values, pieces and space lists naming it,
    its owner seat. Pieces placed around the centre, their names translated (choices: none)."""
    info = dict(own or {})
    for k, v in tops:
        if k not in info:
            info[k] = v
    extra, used = _extra_pieces(info, layout.get("space_pieces"))
    extra += view_pieces
    for label in lists:
        old = info.get("markers")
        old = [{"name": humanize(a)} for a, b in old.items() if b] if isinstance(old, dict) else list(old or [])
        info["markers"] = old + [{"name": tr(label)}]
    info = {k: v for k, v in info.items() if k not in used}
    if "pieces" in info or "forces" in info:
        pieces = normalize_pieces(info.get("pieces", info.get("forces")), faction_index, piece_info)
        rest = {k: v for k, v in info.items() if k not in ("pieces", "forces")}
    else:  # piece counts stored flat in the space, named by the board/layout piece list
        pieces = normalize_pieces({k: v for k, v in info.items() if k in piece_info}, faction_index, piece_info)
        rest = {k: v for k, v in info.items() if k not in piece_info}
    if extra:
        pieces = sorted(pieces + normalize_pieces(extra, faction_index, piece_info),
                        key=lambda p: (p["fi"], p["kind"], p["state"]))
    markers = [tr(m) for m in _space_markers(rest, layout.get("markers"))]
    css = list(g["css"])
    if owner is not None:
        css.append(f"owner-f{owner}")
    sp = {**g, "pieces": pieces, "markers": markers, "static": list(g["static"]), "choices": [],
          "adjacent": list(g["adjacent"]), "box": dict(g["box"]), "css": " ".join(str(c) for c in css if c)}
    # place piece chips around the space centre
    chips = sp["pieces"]
    per_row = 3 if sp["kind"] == "loc" else 4
    k = chip_k
    for j, p in enumerate(chips):
        p["cx"] = round(sp["x"] + (j % per_row - (min(len(chips), per_row) - 1) / 2) * 27 * k, 1)
        p["cy"] = round(sp["y"] + (4 if sp["kind"] == "loc" else 20 * k) + (j // per_row) * 25 * k, 1)
        p["k"] = k
        p["letter"] = p["letter"] or (p["name"][:1] or "?").upper()
    if sp["small"]:
        step = sp["r"] * (0.55 if k == 1 else 0.6)
        for j, p in enumerate(chips):
            p["cx"] = round(sp["x"] + (j % 3 - (min(len(chips), 3) - 1) / 2) * step, 1)
            p["cy"] = round(sp["y"] + sp["r"] * 0.25 + (j // 3) * sp["r"] * 0.5 * k, 1)
            p["cr"] = round(max(4.0, sp["r"] * 0.22 * k), 1)
            p["k"] = round(p["cr"] / 11, 3)
    lines = sp["markers"][:3] if len(sp["markers"]) <= 3 else sp["markers"][:2] + [f"+{len(sp['markers']) - 2}"]
    base = 23 if sp["kind"] == "loc" else -22
    sp["marker_lines"] = [{"text": t, "y": round(sp["y"] + base + i * 11, 1)} for i, t in enumerate(lines)]
    if sp["kind"] == "loc":
        sp["marker_lines"] = [{"text": " · ".join(sp["markers"]), "y": round(sp["y"] + base, 1)}] if sp["markers"] else []
    for p in chips:
        p["name"] = tr(p["name"])
    return sp


def build(rules: Any, view: dict, *, metrics: dict | None = None, choices: list[dict] | None = None,
          seats: list[dict] | None = None) -> dict:
    """The drawable board for one seat's view. ``choices``: the seat's legal choices as dicts."""
    board, digest = _static_board(rules)
    view = view or {}
    key = getattr(rules, "key", "")
    layout = load_layout(key)
    tr = _translator(layout)
    seats = seats if seats is not None else [{"id": s.id, "title": s.title} for s in getattr(rules, "seats", ())]
    faction_index: dict[str, int] = {}
    for i, s in enumerate(seats):
        faction_index[s["id"]] = i
        faction_index[str(s["id"]).lower()] = i
    for alias, seat in (layout.get("faction_alias") or {}).items():
        if seat in faction_index:
            faction_index[alias] = faction_index[seat]
    piece_info = {p["id"]: p for p in _as_list(board.get("pieces"))}
    for pid, info in (layout.get("pieces") or {}).items():
        piece_info[pid] = {**piece_info.get(pid, {}), **info}

    static_spaces = _as_list(_first(board, SPACE_KEYS))
    view_spaces = {s["id"]: s for s in _as_list(_first(view, SPACE_KEYS))}
    if not static_spaces:
        static_spaces = [{"id": k, "name": v.get("name", humanize(k))} for k, v in view_spaces.items()]
    positions = layout.get("spaces", {})
    # a space drawn only while a view flag says it is in play (layout ``"if": "flag"``)
    static_spaces = [s for s in static_spaces
                     if not (positions.get(s["id"]) or {}).get("if") or view.get(positions[s["id"]]["if"])]
    width = board.get("width") or layout.get("width") or 1000
    height = board.get("height") or layout.get("height") or 700

    choice_by_space: dict[str, list[dict]] = {}
    for c in choices or []:
        sid = choice_space(c)
        if sid:
            choice_by_space.setdefault(sid, []).append(c)

    # what depends only on the static map (positions, shapes, names, edges, group labels) is
    # computed once per process and map (``_geometry``); only the view's part is drawn here
    geo_key = (key, _language(), width, height, digest, tuple(sp["id"] for sp in static_spaces))
    geo = _GEOMETRY.get(geo_key)
    if geo is None:
        geo = _geometry(board, layout, tr, static_spaces, width, height)
        if len(_GEOMETRY) >= 64:
            _GEOMETRY.clear()
        _GEOMETRY[geo_key] = geo
    # values kept per space at the top of the view (e.g. view["support"][space_id])
    space_ids = {s["id"] for s in static_spaces}
    per_space = {k: v for k, v in view.items()
                 if k not in SPACE_KEYS and isinstance(v, dict) and v and set(v) <= space_ids
                 and all(not isinstance(x, dict | list) for x in v.values())}
    view_pieces: dict[str, list[dict]] = {}
    for vk, rule in (layout.get("view_pieces") or {}).items():
        for item in view.get(vk) or []:
            if isinstance(item, dict) and item.get(rule.get("space", "space")) in space_ids:
                view_pieces.setdefault(item[rule.get("space", "space")], []).append(
                    {"faction": str(item.get(rule.get("faction", "faction")) or ""), "kind": rule.get("kind", vk), "count": 1})
    space_lists = {k: v for k, v in (layout.get("space_lists") or {}).items() if isinstance(view.get(k), list | tuple)}
    lk_sets = {k: {str(x) for x in view[k]} for k in space_lists}
    owner_rule = layout.get("owner") or {}
    owner_of = {}
    if isinstance(view.get(owner_rule.get("view")), dict):
        owner_of = {str(v): faction_index[k] for k, v in view[owner_rule["view"]].items() if k in faction_index}
    chip_k = float(layout.get("chip_scale") or 1)
    # each space from its own part of the view, kept per process by everything it is drawn from
    static_key = (geo_key, tuple(faction_index.items()))
    spaces = []
    index = {}
    for s, g in zip(static_spaces, geo["spaces"], strict=True):
        sid = s["id"]
        own = view_spaces.get(sid)
        tops = [(k, vals[sid]) for k, vals in per_space.items() if sid in vals]
        lists = [label for lk, label in space_lists.items() if sid in lk_sets[lk]]
        owner = owner_of.get(str(s.get(owner_rule["field"]))) if owner_of else None
        memo_key = (static_key, sid, repr((own, tops, view_pieces.get(sid), lists, owner)))
        drawn = _SPACES.get(memo_key)
        if drawn is None:
            drawn = _draw_space(s, g, own, tops, view_pieces.get(sid, []), lists, owner, layout, tr,
                                faction_index, piece_info, chip_k)
            _remember(_SPACES, memo_key, drawn)
        sp = _copy_space(drawn)
        sp["choices"] = choice_by_space.get(sid, [])
        sp.memo_key = memo_key
        spaces.append(sp)
        index[sid] = sp
    edges = _Edges([e.copy() for e in geo["edges"]])
    edges.memo_key = geo_key
    group_labels = [dict(g) for g in geo["group_labels"]]

    cards = board.get("cards") if isinstance(board.get("cards"), dict) else None
    seat_names = {s_["id"]: s_["title"] for s_ in seats}
    hold_keys = layout.get("holdings")
    if hold_keys:
        holdings = []
        for k in hold_keys:
            if k in view:
                label = (layout.get("holding_labels") or {}).get(k) or humanize(k)
                if isinstance(val := view[k], dict) and all(isinstance(x, int | float) for x in val.values()):
                    view = {**view, k: {tr(humanize(a)): b for a, b in val.items()}}
                val = view[k]
                if isinstance(val, str) and val in index:
                    val = index[val]["name"]
                elif isinstance(val, str) and cards and val in cards:
                    val = f"{val} {cards[val].get('title', '')}"
                elif isinstance(val, dict):
                    val = {a: (seat_names.get(b, b) if isinstance(b, str) else b) for a, b in val.items()}
                holdings += _kv({label: "-" if val in (None, "", {}, []) else val})
    else:
        holdings = _kv(_first(view, HOLDING_KEYS))
    tracks = _tracks(board, view, metrics, layout)
    for t in tracks:
        t["name"] = tr(t["name"])
    for h in holdings:
        h["key"] = tr(h["key"])
    return {
        "key": key,
        "width": width, "height": height,
        "spaces": spaces, "edges": edges if layout.get("edges", True) else [], "group_labels": group_labels,
        "svg_class": str(layout.get("svg_class") or ""),
        "legend": [{"label": tr(x.get("label", "")), "css": x.get("css", ""),
                    "fi": faction_index.get(x.get("faction", ""), 9)} for x in layout.get("legend") or []],
        "tracks": tracks,
        "has_key_tracks": any(t.get("key") for t in tracks),
        "card": _card(_first(view, CARD_KEYS), cards),
        "next_card": _card(_first(view, NEXT_CARD_KEYS), cards),
        "capabilities": _capabilities(view.get("capabilities") or view.get("capabilities_in_force"), cards),
        "holdings": holdings,
        "seats": [{**s, "fi": i} for i, s in enumerate(seats)],
        "unplaced_choices": [c for c in choices or [] if not choice_space(c)],
        # a game's own side panel (player panels, hands with card text), from the same view
        "game_panel": games.panel(key, view, choices or [], seats),
        "game_template": games.template(key), "game_side_template": games.template(key, "side"),
    }


# ---------------------------------------------------------------------------------------------
# Markup. The board is drawn by a small string builder rather than a template: a 112-hex map is
# thousands of template variable look-ups (about 16 ms a region), the builder a few ms. The
# output is the markup of the former template (templates/web/partials/board.html before issue #8),
# which tests/web/test_board_markup.py keeps as the reference; every value is escaped as the
# template's autoescaping did, numbers written as ``{% localize off %}`` wrote them.

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
    ``build`` drew (``_Space``), by its draw key, language and choices, and reused only while the
    space still equals what was drawn (a caller may have changed it)."""
    key = getattr(s, "memo_key", None)
    if key is not None:
        choices = s.get("choices")
        key = (key, lang, repr(choices) if choices else "")
        hit = _MARKUP.get(key)
        if hit is not None and hit[0] == s:
            return hit[1], hit[2]
    svg, row = _space_svg(s), _space_row(s)
    if key is not None:
        try:  # what was drawn, copied: the caller keeps (and may change) its space
            drawn = _copy_space(s)
            drawn["choices"] = copy.deepcopy(drawn["choices"])
        except (KeyError, TypeError, AttributeError):  # not as build() left it: not kept
            return svg, row
        _remember(_MARKUP, key, (drawn, svg, row))
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
        title += f'; {e(p["count"])} {e(p["name"])}' + (f' ({e(p["state"])})' if p.get("state") else "")
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
