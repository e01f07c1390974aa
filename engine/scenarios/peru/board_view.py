"""Peru's typed board view (issue 13.4): the static map and one seat's position as
``engine.core.boardview`` dataclasses.

The position is read from ``PeruRules.view(state, seat)``, the one place where Peru withholds
what a seat may not see (1.5: the Government does not know which Base is Guzman's Directives
Base until it is revealed), so the board view can never show more than the view.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from engine.core.boardview import (
    BoardMap,
    BoardView,
    Box,
    BoxEntry,
    CardShown,
    FactionInfo,
    Marker,
    PieceStack,
    PieceState,
    PieceType,
    Shape,
    SpaceFact,
    SpaceGeometry,
    SpaceShape,
    SpaceView,
    Threshold,
    Track,
    support_of,
)
from engine.core.messages import msg

from .data import CARDS, MAP

GOV, SP = "government", "shining_path"
LAYOUT = Path(__file__).resolve().parent / "data" / "board_layout.json"

TERRAIN = {"coastal": msg("Coastal"), "highland": msg("Highland"), "jungle": msg("Jungle"), "lima": msg("Lima"),
           "loc": msg("Line of Communication")}


@lru_cache(maxsize=1)
def board_map() -> BoardMap:
    """1.3 The map: 12 Departments, Lima and 4 Lines of Communication, where each is drawn."""
    layout = json.loads(LAYOUT.read_text(encoding="utf-8"))
    spaces = []
    for s in MAP["spaces"]:
        pos = layout["spaces"][s["id"]]
        kind = s["kind"]
        shape = SpaceShape.ROAD if kind == "loc" else SpaceShape.BOX if kind == "lima" else SpaceShape.CIRCLE
        r = 34.0 if kind == "loc" else 62.0
        facts = [SpaceFact(msg("Terrain"), TERRAIN.get(s["terrain"], msg(s["terrain"])))]
        if kind != "loc":
            facts.append(SpaceFact(msg("Population"), s["population"]))
        if s.get("econ"):
            facts.append(SpaceFact(msg("Economic value"), s["econ"]))
        spaces.append(SpaceGeometry(
            id=s["id"], name=msg(s["name"]), label=pos.get("short") or s["name"], kind=kind, shape=shape,
            x=float(pos["x"]), y=float(pos["y"]), r=r, adjacent=tuple(s["adjacent"]), facts=tuple(facts),
            css=f"terrain-{s['terrain']}"))
    return BoardMap(
        game="peru", width=float(layout["width"]), height=float(layout["height"]),
        factions=(FactionInfo(GOV, msg("Government"), "#0072B2", "GOV"),
                  FactionInfo(SP, msg("Shining Path"), "#D55E00", "SP")),
        piece_types=(
            PieceType("troops", GOV, msg("Troops"), Shape.CUBE, "T"),
            PieceType("police", GOV, msg("Police"), Shape.CUBE, "P"),
            PieceType("rondas", GOV, msg("Rondas"), Shape.CYLINDER, "R"),
            PieceType("guerrillas", SP, msg("Guerrillas"), Shape.CYLINDER, "G"),
            PieceType("bases", SP, msg("Bases"), Shape.BASE, "B"),
        ),
        spaces=tuple(spaces),
        has_control=True, has_support=True,
    )


def _space(sid: str, d: dict) -> SpaceView:
    u, a = PieceState.UNDERGROUND, PieceState.ACTIVE
    pieces = tuple(PieceStack(t, o, int(n), st) for t, o, n, st in (
        ("troops", GOV, d["troops"], PieceState.NONE),
        ("police", GOV, d["police"], PieceState.NONE),
        ("rondas", GOV, d["rondas_underground"], u),
        ("rondas", GOV, d["rondas_active"], a),
        ("guerrillas", SP, d["guerrillas_underground"], u),
        ("guerrillas", SP, d["guerrillas_active"], a),
        ("bases", SP, d["bases"], PieceState.NONE),
    ) if n)
    markers = []
    if d.get("terror"):
        markers.append(Marker("terror", msg("Terror"), int(d["terror"])))
    if d.get("sabotage"):
        markers.append(Marker("sabotage", msg("Sabotage"), int(d["sabotage"])))
    if d.get("emergency_zone"):
        markers.append(Marker("emergency_zone", msg("Emergency Zone")))
    if d.get("directives_base"):  # only in the views that may see it (1.5)
        markers.append(Marker("directives_base", msg("Guzman's Directives Base")))
    is_loc = sid.startswith("loc_")
    return SpaceView(sid, pieces, d.get("control"), None if is_loc else support_of(d.get("support", 0)),
                     tuple(markers))


def board_view(rules, state: dict, seat: str | None) -> BoardView:
    """One seat's board (``seat=None``: the full view)."""
    return from_view(rules.view(state, seat), seat)


def from_view(v: dict, seat: str | None) -> BoardView:
    """The typed board of a view this game's ``view(state, seat)`` produced for ``seat``."""
    spaces = tuple(_space(sid, v["spaces"][sid]) for sid in (s.id for s in board_map().spaces))
    res = v["resources"]
    tracks = (
        Track("political_will", msg("Political Will"), v["political_will"], 0, 20,
              (Threshold(10, msg("Government wins above 10")),)),
        Track("government_resources", msg("Government Resources"), res[GOV], 0, 20),
        Track("shining_path_resources", msg("Shining Path Resources"), res[SP], 0, 20),
        Track("hunt_track", msg("Hunt for Guzman"), v["hunt"], 0, v["hunt_boxes"] - 1,
              (Threshold(v["hunt_boxes"] - 1, msg("Guzman captured")),)),
    )
    av = v["available"]
    boxes = [
        Box("available", msg("Available forces"), (
            BoxEntry(msg("Troops"), pieces=PieceStack("troops", GOV, av["troops"])),
            BoxEntry(msg("Police"), pieces=PieceStack("police", GOV, av["police"])),
            BoxEntry(msg("Rondas"), pieces=PieceStack("rondas", GOV, av["rondas_box"])),
            BoxEntry(msg("Guerrillas"), pieces=PieceStack("guerrillas", SP, av["guerrillas"])),
            BoxEntry(msg("Bases"), pieces=PieceStack("bases", SP, av["bases"])),
        )),
        Box("eligibility", msg("Eligibility"), (
            BoxEntry(msg("1st Eligible"), _faction_name(v["eligibility"]["first"])),
            BoxEntry(msg("2nd Eligible"), _faction_name(v["eligibility"]["second"])),
        )),
        Box("directives", msg("Directives box"), (
            BoxEntry(msg("Bases"), pieces=PieceStack("bases", SP, v["directives_box_bases"])),
        )),
    ]
    cards = []
    if v.get("current_card"):
        cards.append(CardShown(str(v["current_card"]), _card_title(v["current_card"]), "current",
                               str(v["current_card"])))
    if v.get("president"):
        cards.append(CardShown(str(v["president"]), _card_title(v["president"]), "president",
                               str(v["president"])))
    for cid in v.get("capabilities") or {}:
        cards.append(CardShown(str(cid), _card_title(cid), "capability", str(cid)))
    markers = (Marker("guzman_captured", msg("Guzman captured")),) if v.get("captured") else ()
    return BoardView("peru", seat, spaces, tracks, tuple(boxes), tuple(cards), markers)


def _faction_name(fid):
    return {GOV: msg("Government"), SP: msg("Shining Path")}.get(fid, fid)


def _card_title(cid):
    c = CARDS.get(str(cid)) or {}
    return msg(c["title"]) if c.get("title") else msg("Card {number}", number=str(cid))


__all__ = ["board_map", "board_view", "from_view"]
