"""Tears of Tyranny's typed board view (issue 13.4): the hex map and one seat's position as
``engine.core.boardview`` dataclasses, read from ``TearsOfTyranny.view(state, seat)`` (the one
place where what a seat may not see is withheld: other players' hands, deck orders, the RNG).

The map is 16 septets of 7 hex tiles (1.C); each tile is drawn as a pointy hex at its axial
position, the whole map turned a sixth of a turn so that it fills a landscape page.
"""

from __future__ import annotations

import math
from functools import lru_cache

from engine.core.boardview import (
    BoardMap,
    BoardView,
    Box,
    BoxEntry,
    CardShown,
    FactionInfo,
    Marker,
    PieceStack,
    PieceType,
    Shape,
    SpaceFact,
    SpaceGeometry,
    SpaceShape,
    SpaceView,
    Threshold,
    Track,
)
from engine.core.messages import msg

from .data import SEAT_ORDER, content

ADVERSARY = "adversary"
SEAT_NAMES = {"liberators": msg("Liberators"), "advisors": msg("Advisors"), "partisans": msg("Partisans"),
              "comrades": msg("Comrades")}
TERRAIN = {"urban": msg("Urban"), "rural": msg("Rural"), "jungle": msg("Jungle"), "desert": msg("Desert")}
WIDTH = 1400.0
TURN = -60.0  # degrees: the tall map turned to landscape


@lru_cache(maxsize=1)
def board_map() -> BoardMap:
    """1.C The map of hex tiles, grouped in septets and quadrants."""
    c = content()
    ca, sa = math.cos(math.radians(TURN)), math.sin(math.radians(TURN))
    raw = {}
    for tid in c.tile_ids:
        x, y = c.xy(tid)
        raw[tid] = (x * ca - y * sa, x * sa + y * ca)
    xs = [p[0] for p in raw.values()]
    ys = [p[1] for p in raw.values()]
    hex_r = 1.0  # hex-size units: centre to corner
    margin = hex_r * 1.2
    span_x = max(xs) - min(xs) + 2 * margin
    span_y = max(ys) - min(ys) + 2 * margin
    k = WIDTH / span_x
    height = round(span_y * k, 1)
    spaces = []
    for tid in c.tile_ids:
        t = c.tiles[tid]
        x, y = raw[tid]
        facts = [SpaceFact(msg("Septet"), msg(t["septet_name"])),
                 SpaceFact(msg("Terrain"), TERRAIN.get(t["terrain"], msg(t["terrain"]))),
                 SpaceFact(msg("Quadrant"), t["quadrant"]),
                 SpaceFact(msg("Defense modifier"), t["defense_modifier"])]
        if t["infrastructure"]:
            facts.append(SpaceFact(msg("Infrastructure"), msg("yes")))
        if t["coastal"]:
            facts.append(SpaceFact(msg("Coastal"), msg("yes")))
        spaces.append(SpaceGeometry(
            id=tid, name=msg("{place} ({terrain})", place=msg(t["name"]),   # unique, said aloud (issue 16.6)
                             terrain=TERRAIN.get(t["terrain"], t["terrain"])),
            label=tid[-2:], kind="tile", shape=SpaceShape.HEX,
            x=round((x - min(xs) + margin) * k, 1), y=round((y - min(ys) + margin) * k, 1), r=round(hex_r * k * 0.98, 1),
            adjacent=tuple(c.adj[tid]), group=msg(t["septet_name"]), facts=tuple(facts),
            css=f"terrain-{t['terrain']}"))
    return BoardMap(
        game="tears_of_tyranny", width=WIDTH, height=height,
        factions=tuple(FactionInfo(s, SEAT_NAMES[s], c.panels[s]["color"]) for s in SEAT_ORDER)
        + (FactionInfo(ADVERSARY, msg("Adversary"), "#444444"),),
        piece_types=(
            PieceType("cell", ADVERSARY, msg("Adversary Cells"), Shape.CYLINDER, "C"),
            PieceType("outpost", ADVERSARY, msg("Adversary Outposts"), Shape.CUBE, "O"),
            PieceType("garrison", ADVERSARY, msg("Adversary Garrisons"), Shape.BASE, "G"),
            PieceType("guerrilla", "", msg("Guerrillas"), Shape.CYLINDER, "g"),
            PieceType("base", "", msg("Base"), Shape.BASE, "B"),
            PieceType("presence", "", msg("Presence"), Shape.CUBE, "P"),
            PieceType("hq", "", msg("Presence (HQ)"), Shape.BASE, "H"),
            PieceType("civilian_red", "", msg("Red Civilians"), Shape.DISC, "r"),
            PieceType("civilian_blue", "", msg("Blue Civilians"), Shape.DISC, "b"),
            PieceType("tyranny", ADVERSARY, msg("Tyranny tokens"), Shape.TOKEN, "T"),
        ),
        spaces=tuple(spaces),
        legend_notes=(msg("Each group of seven hexes is a septet, named in large letters."),),
    )


def _is_hq(seat: str, n: int) -> bool:
    """6.3: two presence of one player make an HQ; every Advisor presence is one (A-60)."""
    return n >= 2 or (seat == "advisors" and n >= 1)


def board_view(rules, state: dict, seat: str | None) -> BoardView:
    """One seat's board (``seat=None``: the full view)."""
    return from_view(rules.view(state, seat), seat)


def from_view(v: dict, seat: str | None) -> BoardView:
    """The typed board of a view this game's ``view(state, seat)`` produced for ``seat``."""
    tiles = v["tiles"]
    spaces = []
    for g in board_map().spaces:
        t = tiles.get(g.id)
        if t is None:  # a quadrant not in play at this player count
            continue
        pieces = []
        if t["units"]:
            units: dict[str, int] = {}
            for kind, _damage in t["units"]:
                units[kind] = units.get(kind, 0) + 1
            pieces += [PieceStack(k, ADVERSARY, units[k]) for k in ("cell", "outpost", "garrison") if k in units]
        presence, guerrillas, bases = t["presence"], t["guerrillas"], t["bases"]
        if presence or guerrillas or bases:
            nb: dict[str, int] = {}
            for b in bases:
                nb[b[0]] = nb.get(b[0], 0) + 1
            for s in SEAT_ORDER:
                n = presence.get(s, 0)
                if n:
                    pieces.append(PieceStack("hq" if _is_hq(s, n) else "presence", s, n))
                if guerrillas.get(s):
                    pieces.append(PieceStack("guerrilla", s, guerrillas[s]))
                if nb.get(s):
                    pieces.append(PieceStack("base", s, nb[s]))
        if t["red"]:
            pieces.append(PieceStack("civilian_red", "", t["red"]))
        if t["blue"]:
            pieces.append(PieceStack("civilian_blue", "", t["blue"]))
        if t["tyranny"]:
            pieces.append(PieceStack("tyranny", ADVERSARY, t["tyranny"]))
        markers = []
        if t["defense_bonus"]:
            markers.append(Marker("defense_bonus", msg("Defense bonus"), int(t["defense_bonus"])))
        if t["prevented"]:
            markers.append(Marker("protected", msg("Protected")))
        spaces.append(SpaceView(g.id, tuple(pieces), None, None, tuple(markers)))
    inf, tyr = v["influence"], v["tyranny"]
    tracks = (
        Track("influence_level", msg("Influence level"), inf["level"], 1, 4, (Threshold(4, msg("Players win")),)),
        Track("influence_cards_earned", msg("Influence cards earned"), inf["cards_earned"], 0, inf["total"]),
        Track("tyranny_on_map", msg("Tyranny tokens on the map"), tyr["on_map"], 0,
              tyr["on_map"] + tyr["pool"] + tyr["removed"],
              (Threshold(tyr["threshold"], msg("State of tyranny")),)),
        Track("turn", msg("Turn"), v["turn"], 0, None),
    )
    boxes = [Box("players", msg("Players"), tuple(
        BoxEntry(SEAT_NAMES.get(s, s), msg("{resources} resources, {cards} cards in hand",
                                           resources=p["resources"], cards=p["hand_count"]))
        for s, p in v["players"].items()))]
    boxes.append(Box("decks", msg("Decks"), tuple(
        BoxEntry(_DECKS.get(k, msg(k)), n) for k, n in v["decks"].items())))
    boxes.append(Box("tyranny_pool", msg("Tyranny pool"), (
        BoxEntry(msg("Tokens in the pool"), tyr["pool"]), BoxEntry(msg("Tokens removed"), tyr["removed"]))))
    cards = [CardShown(str(cid), msg("Card {number}", number=str(cid)), role, str(cid))
             for role in ("deploy", "develop", "dominate") if (cid := v["boxes"].get(role)) is not None]
    markers = (Marker("state_of_tyranny", msg("State of tyranny")),) if tyr["state"] == "tyranny" else (
        Marker("state_of_freedom", msg("State of freedom")),)
    return BoardView("tears_of_tyranny", seat, tuple(spaces), tracks, tuple(boxes), tuple(cards), markers)


_DECKS = {"event": msg("Event deck"), "terrain": msg("Terrain deck"), "major": msg("Major capability deck"),
          "minor": msg("Minor capability deck")}


__all__ = ["board_map", "board_view", "from_view"]
