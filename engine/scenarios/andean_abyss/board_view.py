"""Andean Abyss's typed board view (issue 13.4): the static map and one seat's position as
``engine.core.boardview`` dataclasses, read from ``AndeanAbyss.view(state, seat)`` (the one
place where what a seat may not see is withheld: the deck order, the RNG)."""

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

from .board import BOARD as BD

LAYOUT = Path(__file__).resolve().parent / "data" / "board_layout.json"

FACTION_NAMES = {"govt": msg("Government"), "farc": msg("FARC"), "auc": msg("AUC"), "cartels": msg("Cartels")}
ABBR = {"govt": "GOV", "farc": "FARC", "auc": "AUC", "cartels": "CART"}
COLORS = {"govt": "#0072B2", "farc": "#D55E00", "auc": "#F0E442", "cartels": "#009E73"}
TERRAIN = {"forest": msg("Forest"), "grassland": msg("Grassland"), "mountain": msg("Mountain")}

# the view's piece keys: (piece type, owner, state)
U, A, N = PieceState.UNDERGROUND, PieceState.ACTIVE, PieceState.NONE
PIECES = {
    "troops": ("troops", "govt", N), "police": ("police", "govt", N), "govt_base": ("govt_base", "govt", N),
    "farc_underground": ("farc_guerrilla", "farc", U), "farc_active": ("farc_guerrilla", "farc", A),
    "farc_base": ("farc_base", "farc", N),
    "auc_underground": ("auc_guerrilla", "auc", U), "auc_active": ("auc_guerrilla", "auc", A),
    "auc_base": ("auc_base", "auc", N),
    "cartels_underground": ("cartels_guerrilla", "cartels", U), "cartels_active": ("cartels_guerrilla", "cartels", A),
    "cartels_base": ("cartels_base", "cartels", N),
}


@lru_cache(maxsize=1)
def board_map() -> BoardMap:
    """1.3 The map: 11 Cities, 16 Departments (Ecuador and Panama when an Event makes them
    spaces) and the Lines of Communication, drawn on a rough outline of Colombia."""
    layout = json.loads(LAYOUT.read_text(encoding="utf-8"))
    spaces = []
    for s in BD.spaces:
        pos = layout["spaces"].get(s["id"])
        if pos is None:
            continue
        kind = s["kind"]
        shape = {"city": SpaceShape.BOX, "loc": SpaceShape.ROAD}.get(kind, SpaceShape.CIRCLE)
        facts = []
        if "pop" in s:
            facts.append(SpaceFact(msg("Population"), s["pop"]))
        if s.get("terrain"):
            facts.append(SpaceFact(msg("Terrain"), TERRAIN.get(s["terrain"], msg(s["terrain"]))))
        if s.get("econ"):
            facts.append(SpaceFact(msg("Economic value"), s["econ"]))
        spaces.append(SpaceGeometry(
            id=s["id"], name=msg(s["label"] if kind == "city" else s["name"]),
            label=pos.get("short") or s["name"], kind=kind, shape=shape,
            x=float(pos["x"]), y=float(pos["y"]), r=float(pos.get("r", 44)),
            adjacent=tuple(s["adj"]), line=tuple((float(a), float(b)) for a, b in pos.get("line") or ()),
            facts=tuple(facts), css=f"terrain-{s.get('terrain') or kind}"))
    return BoardMap(
        game="andean_abyss", width=float(layout["width"]), height=float(layout["height"]),
        factions=tuple(FactionInfo(f, FACTION_NAMES[f], COLORS[f], ABBR[f]) for f in ("govt", "farc", "auc", "cartels")),
        piece_types=(
            PieceType("troops", "govt", msg("Troops"), Shape.CUBE, "T"),
            PieceType("police", "govt", msg("Police"), Shape.CUBE, "P"),
            PieceType("govt_base", "govt", msg("Government Base"), Shape.BASE, "B"),
            PieceType("farc_guerrilla", "farc", msg("FARC Guerrillas"), Shape.CYLINDER, "G"),
            PieceType("farc_base", "farc", msg("FARC Base"), Shape.BASE, "B"),
            PieceType("auc_guerrilla", "auc", msg("AUC Guerrillas"), Shape.CYLINDER, "G"),
            PieceType("auc_base", "auc", msg("AUC Base"), Shape.BASE, "B"),
            PieceType("cartels_guerrilla", "cartels", msg("Cartels Guerrillas"), Shape.CYLINDER, "G"),
            PieceType("cartels_base", "cartels", msg("Cartels Base"), Shape.BASE, "B"),
            PieceType("shipment", "", msg("Shipment"), Shape.TOKEN, "$"),
        ),
        spaces=tuple(spaces),
        legend_notes=(msg("Lines of Communication are drawn as brown roads between towns."),),
        has_control=True, has_support=True,
    )


def board_view(rules, state: dict, seat: str | None) -> BoardView:
    """One seat's board (``seat=None``: the full view)."""
    return from_view(rules.view(state, seat), seat)


def from_view(v: dict, seat: str | None) -> BoardView:
    """The typed board of a view this game's ``view(state, seat)`` produced for ``seat``."""
    shipments: dict[str, dict[str, int]] = {}
    for s in v.get("shipments") or []:
        own = shipments.setdefault(s["space"], {})
        own[s["owner"] or ""] = own.get(s["owner"] or "", 0) + 1
    sabotage = set(v.get("sabotage") or ())
    zones = set(v.get("farc_zones") or ())
    spaces = []
    for g in board_map().spaces:
        here = v["spaces"].get(g.id)
        if here is None and v.get(f"{g.id}_is_space"):  # Ecuador or Panama made a space (events)
            here = {}
        if here is None:  # Ecuador or Panama while not a space
            continue
        pieces = [PieceStack(*PIECES[k][:2], int(n), PIECES[k][2]) for k, n in here.items() if n and k in PIECES]
        for owner, n in sorted(shipments.get(g.id, {}).items()):
            pieces.append(PieceStack("shipment", owner, n))
        markers = []
        if v["terror"].get(g.id):
            markers.append(Marker("terror", msg("Terror"), int(v["terror"][g.id])))
        if g.id in sabotage:
            markers.append(Marker("sabotage", msg("Sabotage")))
        if g.id in zones:
            markers.append(Marker("farc_zone", msg("FARC Zone")))
        support = None if g.kind == "loc" else support_of(v["support"].get(g.id, 0))
        spaces.append(SpaceView(g.id, tuple(pieces), v["control"].get(g.id), support, tuple(markers)))
    m = v.get("metrics") or {}
    res = v["resources"]
    tracks = [
        Track("total_support", msg("Total Support"), m.get("total_support", 0), 0, 80,
              (Threshold(60, msg("Government wins above 60")),)),
        Track("opposition_plus_bases", msg("Opposition + FARC Bases"), m.get("opposition_plus_bases", 0), 0, 89,
              (Threshold(25, msg("FARC wins above 25")),)),
        Track("aid", msg("Aid"), v["aid"], 0, 29),
    ]
    tracks += [Track(f"{f}_resources", msg("{faction} Resources", faction=FACTION_NAMES[f]), res[f], 0, 99)
               for f in ("govt", "farc", "auc", "cartels")]
    boxes = [
        Box("available", msg("Available forces"), tuple(
            BoxEntry(_type_names()[PIECES[k][0]], pieces=PieceStack(*PIECES[k][:2], int(n), PIECES[k][2]))
            for k, n in v["available"].items() if k in PIECES)),
        Box("eligibility", msg("Eligibility"), tuple(
            BoxEntry(FACTION_NAMES[f], msg("Eligible") if ok else msg("Ineligible"))
            for f, ok in v["eligible"].items())),
    ]
    if v.get("out_of_play"):
        boxes.append(Box("out_of_play", msg("Out of play"), tuple(
            BoxEntry(_type_names()[PIECES[k][0]], pieces=PieceStack(*PIECES[k][:2], int(n)))
            for k, n in v["out_of_play"].items() if k in PIECES)))
    cards = []
    for role, cid in (("current", v.get("card")), ("next", v.get("next"))):
        if cid is not None:
            cards.append(CardShown(str(cid), _card_title(cid), role, str(cid) if cid in BD.cards else ""))
    for cid in v.get("capabilities") or {}:
        cards.append(CardShown(str(cid), _card_title(int(cid)), "capability", str(cid)))
    for cid in v.get("momentum") or ():
        cards.append(CardShown(str(cid), _card_title(int(cid)), "momentum", str(cid)))
    markers = (Marker(f"el_presidente_{v['el_presidente']}",
                      msg("El Presidente: {name}", name=v["el_presidente"].capitalize())),)
    return BoardView("andean_abyss", seat, tuple(spaces), tuple(tracks), tuple(boxes), tuple(cards), markers)


@lru_cache(maxsize=1)
def _type_names() -> dict:
    return {p.id: p.name for p in board_map().piece_types}


def _card_title(cid):
    c = BD.cards.get(cid)
    return msg(c["title"]) if c else msg("Propaganda!")


__all__ = ["board_map", "board_view", "from_view"]
