"""Map snapshots as SVG, from a scenario's static board data and a full view.

``board`` is ``Rules.board()``: a dict with ``spaces`` (each with ``id``,
``name`` and a position ``x``/``y`` (or ``pos``/``layout``) in any unit) and
optionally ``adjacency``/``edges`` and ``width``/``height``. ``view`` is
``Rules.view(state, None)``; its ``spaces`` (dict keyed by space id, or list
with ``id``) give what stands in each space. Unknown shapes degrade to a grid.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

W, H = 720, 640
PAD = 40


def _spaces_of_board(board: dict) -> list[dict]:
    sp = board.get("spaces") or []
    if isinstance(sp, dict):
        sp = [{"id": k, **(v if isinstance(v, dict) else {})} for k, v in sp.items()]
    return [s for s in sp if isinstance(s, dict) and "id" in s]


def _pos(s: dict) -> tuple[float, float] | None:
    for k in ("pos", "xy", "position", "layout", "center"):
        v = s.get(k)
        if isinstance(v, list | tuple) and len(v) >= 2:
            return float(v[0]), float(v[1])
        if isinstance(v, dict) and "x" in v and "y" in v:
            return float(v["x"]), float(v["y"])
    if "x" in s and "y" in s:
        return float(s["x"]), float(s["y"])
    return None


def _view_spaces(view: dict) -> dict[str, dict]:
    sp = (view or {}).get("spaces") or {}
    if isinstance(sp, list):
        return {s["id"]: s for s in sp if isinstance(s, dict) and "id" in s}
    return {k: (v if isinstance(v, dict) else {"value": v}) for k, v in sp.items()}


STATUS_KEYS = {"support", "opposition", "alignment", "population", "pop", "sup", "ter", "terror", "sab",
               "sabotage", "ez", "ctl", "control", "controlled_by", "x", "y", "econ", "value"}


def _pieces(vs: dict, piece_names: dict[str, str]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    src: Any = vs.get("pieces", None)
    if isinstance(src, dict):
        for k, v in src.items():
            if isinstance(v, int | float) and v:
                out.append((str(k), int(v)))
            elif isinstance(v, dict):
                for kk, vv in v.items():
                    if isinstance(vv, int | float) and vv:
                        out.append((f"{k} {kk}", int(vv)))
    elif isinstance(src, list):
        counts: dict[str, int] = {}
        for p in src:
            if isinstance(p, str):
                name, n = p, 1
            else:
                name = " ".join(str(x) for x in (p.get("faction"), p.get("kind") or p.get("type") or "piece",
                                                 p.get("state")) if x)
                n = p.get("count", 1)
            if isinstance(n, int | float) and n > 0:
                counts[str(name)] = counts.get(str(name), 0) + int(n)
        out.extend(counts.items())
    elif src is None:  # flat counts next to the space's status keys
        for k, v in vs.items():
            if k in STATUS_KEYS or isinstance(v, bool) or not isinstance(v, int | float) or not v:
                continue
            out.append((piece_names.get(k, k), int(v)))
    return out


def _label(k: str) -> str:
    return k.replace("_", " ")


def render(board: dict, view: dict, title: str = "", colors: dict[str, str] | None = None,
           layout: dict | None = None) -> str:
    """An SVG string of the board with what the view puts in each space.

    ``layout`` (optional): space id -> [x, y] (or {"x","y"}) when ``board`` has no positions.
    """
    colors = colors or {}
    piece_names = {}
    for p in board.get("pieces") or []:
        if isinstance(p, dict) and "id" in p:
            piece_names[str(p["id"])] = str(p.get("name") or p["id"])
    spaces = _spaces_of_board(board)
    vspaces = _view_spaces(view)
    if not spaces:
        spaces = [{"id": k, "name": v.get("name", k)} for k, v in vspaces.items()]
    lay = (layout or {}).get("spaces", layout or {})
    positions = [_pos(s) or (_pos({"pos": lay.get(s["id"])}) if isinstance(lay, dict) and s["id"] in lay else None)
                 for s in spaces]
    if spaces and all(p is not None for p in positions):
        xs = [p[0] for p in positions]
        ys = [p[1] for p in positions]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        sx = (W - 2 * PAD - 120) / max(x1 - x0, 1e-9)
        sy = (H - 2 * PAD - 40) / max(y1 - y0, 1e-9)
        pts = {s["id"]: (PAD + 60 + (p[0] - x0) * sx, PAD + 20 + (p[1] - y0) * sy)
               for s, p in zip(spaces, positions, strict=True)}
    else:
        cols = max(1, math.ceil(math.sqrt(len(spaces) * W / H)))
        rows = max(1, math.ceil(len(spaces) / cols))
        cw, ch = (W - 2 * PAD) / cols, (H - 2 * PAD - 20) / rows
        pts = {s["id"]: (PAD + cw * (i % cols) + cw / 2, PAD + 20 + ch * (i // cols) + ch / 2)
               for i, s in enumerate(spaces)}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
             f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
             f'<rect x="0" y="0" width="{W}" height="{H}" fill="#fafaf7" stroke="#bdbdbd"/>']
    if title:
        parts.append(f'<text x="10" y="20" font-size="13" font-weight="bold">{escape(title)}</text>')
    edges = board.get("adjacency") or board.get("edges") or board.get("adjacent") or []
    drawn = set()
    if isinstance(edges, dict):
        edges = [(a, b) for a, bs in edges.items() for b in bs]
    edges = list(edges) + [(s["id"], b) for s in spaces for b in (s.get("adjacent") or s.get("neighbors") or [])
                           if isinstance(b, str)]
    for e in edges:
        a, b = (e[0], e[1]) if isinstance(e, list | tuple) else (e.get("a"), e.get("b"))
        if a in pts and b in pts and (b, a) not in drawn:
            drawn.add((a, b))
            (xa, ya), (xb, yb) = pts[a], pts[b]
            parts.append(f'<line x1="{xa:.1f}" y1="{ya:.1f}" x2="{xb:.1f}" y2="{yb:.1f}" stroke="#cfcfcf"/>')
    for s in spaces:
        x, y = pts[s["id"]]
        vs = vspaces.get(s["id"], {})
        control = vs.get("control") or vs.get("controlled_by") or vs.get("ctl")
        fill = colors.get(str(control), "#ffffff") if control else "#ffffff"
        stroke = "#424242"
        name = s.get("name") or s.get("title") or s["id"]
        is_loc = str(s.get("kind") or s.get("type") or "").lower() in ("loc", "line_of_communication", "road")
        dash = ' stroke-dasharray="3,2"' if is_loc else ""
        parts.append(f'<g><rect x="{x - 54:.1f}" y="{y - 19:.1f}" width="108" height="40" rx="{10 if is_loc else 5}" '
                     f'fill="{fill}" fill-opacity="0.35" stroke="{stroke}"{dash}/>')
        parts.append(f'<text x="{x:.1f}" y="{y - 7:.1f}" font-size="9.5" font-weight="bold" '
                     f'text-anchor="middle">{escape(str(name)[:24])}</text>')
        status = []
        for k in ("support", "sup", "opposition", "alignment", "terror", "ter", "sabotage", "sab"):
            if k in vs and vs[k] not in (None, "", 0):
                status.append(f"{_label(k)} {vs[k]}")
        if control:
            status.insert(0, f"ctrl {_label(str(control))}")
        if status:
            parts.append(f'<text x="{x:.1f}" y="{y + 3:.1f}" font-size="7.5" text-anchor="middle" '
                         f'fill="#424242">{escape(", ".join(map(str, status))[:44])}</text>')
        pieces = _pieces(vs, piece_names)
        if pieces:
            txt = " ".join(f"{n}\u00d7{_label(k)}" for k, n in pieces)
            parts.append(f'<text x="{x:.1f}" y="{y + 13:.1f}" font-size="7" text-anchor="middle" '
                         f'fill="#1a237e">{escape(txt[:60])}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
