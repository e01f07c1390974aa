"""The AAR's map snapshots (issue 17.4): the position at the start, at each Propaganda Round or
adversary phase, and at the end, each drawn by the one board renderer (``boardsvg``) with the
spaces that changed since the previous snapshot ringed and listed in words.

Two halves, so that the report builder stays free of the database:

- :func:`snapshot_points` names the log positions to draw (start = seq 0, each phase, the end);
  the reports' selectors load the state at each point and store its full board view
  (``BoardView.to_dict()``) in the bundle under ``snapshots``;
- :func:`draw_snapshots` turns those stored views into the report's snapshot entries.

A snapshot without a single piece on the map is never drawn silently: it is reported as a
warning (a real position of any of the three games always has pieces; tests check it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine
from engine.core.boardview import BoardMap, BoardView, PieceState, SpaceView, Support
from engine.core.messages import render

from .boardsvg import SUPPORT_LONG, gettext_noop, map_svg, message_renderer

#: the names of the snapshots that are no phase (translated when drawn)
POINT_LABELS = {"start": gettext_noop("Start of the game"), "end": gettext_noop("End of the game"),
                "latest": gettext_noop("Latest position")}
_STATE_WORDS = {PieceState.UNDERGROUND: gettext_noop("underground"), PieceState.ACTIVE: gettext_noop("active")}


def snapshot_points(phases: list[dict], end_seq: int | None, *, finished: bool = True) -> list[dict]:
    """The points to draw, in log order: ``{"seq", "label", "kind"}`` (kind: start, phase, end;
    the end of a game not yet over is its latest position)."""
    out = [{"seq": 0, "label": POINT_LABELS["start"], "kind": "start", "card": 0}]
    for p in phases:
        out.append({"seq": p["seq"], "label": p["label"], "kind": "phase", "card": p.get("card"),
                    "number": p.get("number"), "x": p.get("x")})
    if end_seq is not None and end_seq > 0 and end_seq != out[-1]["seq"]:
        out.append({"seq": end_seq, "label": POINT_LABELS["end" if finished else "latest"], "kind": "end",
                    "card": None})
    return out


def board_map_for(scenario_key: str) -> BoardMap | None:
    try:
        return engine.load(scenario_key).board_map()
    except (KeyError, NotImplementedError, ValueError):
        return None


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
                notes.append(f"{d:+d} {name}" + (f" ({text(_STATE_WORDS[k[2]])})" if k[2] in _STATE_WORDS else ""))
        if o.control != s.control:
            notes.append(text(gettext_noop("control")) + f" {o.control or '-'} \u2192 {s.control or '-'}")
        if o.support != s.support:
            notes.append(f"{text(SUPPORT_LONG[o.support or Support.NEUTRAL])} \u2192 "
                         f"{text(SUPPORT_LONG[s.support or Support.NEUTRAL])}")
        if o.markers != s.markers:
            notes.append(text(gettext_noop("markers")))
        if notes:
            out[s.id] = notes
    return out


def draw_snapshots(scenario_key: str, points: list[dict], views: dict[int, Any], *, x_label: str = "card",
                   gettext=None, ngettext=None) -> tuple[list[dict], list[str]]:
    """The report's snapshots (``{..point, "title", "svg", "pieces", "changes"}``) and warnings,
    in the language of ``gettext``/``ngettext`` (English without)."""
    t = message_renderer(gettext, ngettext)
    board_map = board_map_for(scenario_key)
    warnings: list[str] = []
    if board_map is None:
        return [], [t(gettext_noop("This game has no typed board map: no map snapshots."))]
    names = {g.id: g.name for g in board_map.spaces}
    out = []
    before: BoardView | None = None
    missing = 0
    for p in points:
        raw = views.get(p["seq"])
        if raw is None:
            missing += 1
            continue
        view = raw if isinstance(raw, BoardView) else BoardView.from_dict(raw)
        changes = changed_spaces(before, view, board_map, text=t)
        label = t(p["label"]) if p["kind"] in ("start", "end") else p["label"]
        when = f" \u2014 {x_label} {p['card']}" if p.get("card") else ""
        title = f"{label}{when} " + t(gettext_noop("(event %(seq)s)")) % {"seq": p["seq"]}
        svg = map_svg(board_map, view, title=title, changed=changes, gettext=gettext, ngettext=ngettext)
        if view.piece_count == 0:
            warnings.append(t(gettext_noop("The map at event %(seq)s (%(label)s) has no pieces on it."))
                            % {"seq": p["seq"], "label": label})
        out.append({**p, "label": label, "title": title, "svg": svg, "pieces": view.piece_count,
                    "changes": [{"space": t(names.get(sid, sid)), "what": ", ".join(notes)}
                                for sid, notes in changes.items()]})
        before = view
    if missing:
        warnings.append(t(gettext_noop("%(count)s map snapshot(s) could not be drawn (no state recorded at "
                                       "that point).")) % {"count": missing})
    return out, warnings


__all__ = ["board_map_for", "changed_spaces", "draw_snapshots", "snapshot_points"]
