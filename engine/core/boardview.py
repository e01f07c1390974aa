"""The typed board view: what one seat may see of the board, in named values.

Every game projects its state onto the same small set of dataclasses, so the layers above
draw any game without guessing keys (issue 13, item 4):

- :class:`BoardMap` - the static part, once per game: the drawing's size, every space (or
  tile) with its geometry, adjacency, kind and fixed facts (population, terrain ...), the
  factions and the piece types (owner, shape, the letter drawn on the piece). It never
  changes during a game, so it is built once per process (``Rules.board_map()``).
- :class:`BoardView` - the position as one seat sees it: per space its piece stacks (owner
  faction, piece type by name, Underground/Active state, count), control and support or
  opposition as named values, markers; the tracks (value, range, thresholds that decide
  the game), the off-map boxes (available forces, casualties, eligibility ...) and the
  cards shown (``Rules.board_view(state, seat)``).

Names say what they mean: factions and piece types are string ids declared in the map
(never list positions), support is a :class:`Support` level, a piece's state a
:class:`PieceState`. Names shown to people are messages (``engine.core.messages``), so the
web and report layers translate them.

Hidden information: a game builds its board view from its own ``view(state, seat)``, the
one place where what a seat may not see is withheld, so a board view never holds more than
the seat's view (the Directives Base for the Government, deck order, the RNG).

``to_dict()`` gives the JSON form used by the API; ``BoardView.from_dict`` reads it back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from .messages import Msg

Point = tuple[float, float]


class Support(StrEnum):
    """A space's alignment (COIN series: Support/Opposition track of a space)."""

    ACTIVE_SUPPORT = "active_support"
    PASSIVE_SUPPORT = "passive_support"
    NEUTRAL = "neutral"
    PASSIVE_OPPOSITION = "passive_opposition"
    ACTIVE_OPPOSITION = "active_opposition"

    @classmethod
    def from_level(cls, level: int) -> Support:
        """The level -2..2 (Active Opposition .. Active Support) as its name."""
        return _SUPPORT_BY_LEVEL[max(-2, min(2, int(level)))]

    @property
    def level(self) -> int:
        return _LEVEL_BY_SUPPORT[self]


_SUPPORT_BY_LEVEL = {2: Support.ACTIVE_SUPPORT, 1: Support.PASSIVE_SUPPORT, 0: Support.NEUTRAL,
                     -1: Support.PASSIVE_OPPOSITION, -2: Support.ACTIVE_OPPOSITION}
_LEVEL_BY_SUPPORT = {v: k for k, v in _SUPPORT_BY_LEVEL.items()}


class PieceState(StrEnum):
    """Whether a piece shows its face (COIN: Guerrillas are Underground or Active)."""

    NONE = "none"  # pieces without such a state (cubes, bases, civilians ...)
    UNDERGROUND = "underground"
    ACTIVE = "active"


class Shape(StrEnum):
    """How a piece type is drawn."""

    CUBE = "cube"
    CYLINDER = "cylinder"
    BASE = "base"
    DISC = "disc"
    TOKEN = "token"


class SpaceShape(StrEnum):
    """How a space is outlined on the map."""

    CIRCLE = "circle"
    BOX = "box"  # a city: a rounded rectangle
    ROAD = "road"  # a Line of Communication: a short label on its line
    HEX = "hex"


# ------------------------------------------------------------------------------- static part
@dataclass(frozen=True, slots=True)
class FactionInfo:
    id: str
    name: Msg
    color: str
    abbreviation: str = ""  # drawn on the map (control tags), explained in the legend


@dataclass(frozen=True, slots=True)
class PieceType:
    id: str
    owner: str  # a faction id, or "" for pieces of no faction (civilians, shipments)
    name: Msg
    shape: Shape
    letter: str  # the letter drawn on the piece, explained in the legend


@dataclass(frozen=True, slots=True)
class SpaceFact:
    """A fixed fact of a space (population, terrain ...): a name and a value or message."""

    name: Msg
    value: Any


@dataclass(frozen=True, slots=True)
class SpaceGeometry:
    id: str
    name: Msg
    label: str  # the short label drawn in the space (the full name is ``name``)
    kind: str  # the game's own kind: "city", "department", "loc", "tile" ...
    shape: SpaceShape
    x: float
    y: float
    r: float  # half the width of the space's outline
    adjacent: tuple[str, ...] = ()
    line: tuple[Point, ...] = ()  # a road drawn between towns (Lines of Communication)
    group: Msg | None = None  # a region the space belongs to (a septet ...)
    facts: tuple[SpaceFact, ...] = ()
    css: str = ""  # a drawing class from fixed data (terrain ...)

    @property
    def half_height(self) -> float:
        return self.r * (0.85 if self.shape == SpaceShape.BOX else 1.0)

    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the space's outline (a road: its label box)."""
        if self.shape == SpaceShape.ROAD:
            return (self.x - self.r * 1.6, self.y - self.r * 0.55, self.x + self.r * 1.6, self.y + self.r * 0.55)
        h = self.half_height
        return (self.x - self.r, self.y - h, self.x + self.r, self.y + h)


def overlap(a: SpaceGeometry, b: SpaceGeometry) -> bool:
    """True when the outlines of two spaces overlap (touching is fine: hexes share sides).
    Circles and hexes by the distance of their centres, anything else by its bounds."""
    d = ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5
    round_shapes = (SpaceShape.CIRCLE, SpaceShape.HEX)
    if a.shape in round_shapes and b.shape in round_shapes:
        # a hex's inner radius is r*sqrt(3)/2: neighbours sit at twice that distance
        reach = [s.r * (0.866 if s.shape == SpaceShape.HEX else 1.0) for s in (a, b)]
        return d < (reach[0] + reach[1]) * 0.98
    ax0, ay0, ax1, ay1 = a.bounds()
    bx0, by0, bx1, by1 = b.bounds()
    return ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1


@dataclass(frozen=True, slots=True)
class BoardMap:
    """The static part of a game's board: drawn once, the same for every seat and position."""

    game: str
    width: float
    height: float
    factions: tuple[FactionInfo, ...]
    piece_types: tuple[PieceType, ...]
    spaces: tuple[SpaceGeometry, ...]
    legend_notes: tuple[Msg, ...] = ()
    has_control: bool = False  # spaces are controlled by a faction (COIN 1.7)
    has_support: bool = False  # spaces have Support/Opposition (COIN 1.6)

    def space(self, space_id: str) -> SpaceGeometry:
        return self._index()[space_id]

    def piece_type(self, type_id: str) -> PieceType:
        for p in self.piece_types:
            if p.id == type_id:
                return p
        raise KeyError(type_id)

    def faction(self, faction_id: str) -> FactionInfo | None:
        for f in self.factions:
            if f.id == faction_id:
                return f
        return None

    def _index(self) -> dict[str, SpaceGeometry]:
        return {s.id: s for s in self.spaces}

    def to_dict(self) -> dict:
        return _plain(asdict(self))


# ------------------------------------------------------------------------------- a position
@dataclass(frozen=True, slots=True)
class PieceStack:
    """``count`` pieces of one type, owner and state in one place."""

    type: str  # a PieceType id of the game's BoardMap
    owner: str  # a faction id ("" for no faction)
    count: int
    state: PieceState = PieceState.NONE


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker in a space or on the board (Terror, Sabotage, an Emergency Zone ...)."""

    id: str
    name: Msg
    count: int = 1


@dataclass(frozen=True, slots=True)
class SpaceView:
    id: str
    pieces: tuple[PieceStack, ...] = ()
    control: str | None = None  # the controlling faction's id, None when no one controls it
    support: Support | None = None  # None where the game has no support (LoCs, hex tiles)
    markers: tuple[Marker, ...] = ()

    @property
    def piece_count(self) -> int:
        return sum(p.count for p in self.pieces)


@dataclass(frozen=True, slots=True)
class Threshold:
    value: float
    name: Msg


@dataclass(frozen=True, slots=True)
class Track:
    id: str
    name: Msg
    value: float
    min: float = 0
    max: float | None = None
    thresholds: tuple[Threshold, ...] = ()


@dataclass(frozen=True, slots=True)
class BoxEntry:
    """One line of an off-map box: pieces of a type, or a named value (a faction's eligibility)."""

    name: Msg
    value: Any = None  # a number or message; pieces are counted in ``pieces``
    pieces: PieceStack | None = None


@dataclass(frozen=True, slots=True)
class Box:
    """An off-map box (Available forces, Casualties, Eligibility, a player's hand size ...)."""

    id: str
    name: Msg
    entries: tuple[BoxEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class CardShown:
    id: str
    title: Msg
    role: str  # "current", "next", "capability", "played" ...
    number: str = ""


@dataclass(frozen=True, slots=True)
class BoardView:
    game: str
    seat: str | None
    spaces: tuple[SpaceView, ...]
    tracks: tuple[Track, ...] = ()
    boxes: tuple[Box, ...] = ()
    cards: tuple[CardShown, ...] = ()
    markers: tuple[Marker, ...] = ()  # markers of the whole board (momentum, a game state ...)

    def space(self, space_id: str) -> SpaceView:
        for s in self.spaces:
            if s.id == space_id:
                return s
        raise KeyError(space_id)

    @property
    def piece_count(self) -> int:
        return sum(s.piece_count for s in self.spaces)

    def to_dict(self) -> dict:
        return _plain(asdict(self))

    @classmethod
    def from_dict(cls, data: dict) -> BoardView:
        """The view back from its JSON form (a stored snapshot)."""
        def stack(p: dict) -> PieceStack:
            return PieceStack(p["type"], p["owner"], int(p["count"]), PieceState(p.get("state") or "none"))

        def marker(m: dict) -> Marker:
            return Marker(m["id"], Msg(m["name"]), int(m.get("count", 1)))

        spaces = tuple(SpaceView(s["id"], tuple(stack(p) for p in s.get("pieces") or ()), s.get("control"),
                                 Support(s["support"]) if s.get("support") else None,
                                 tuple(marker(m) for m in s.get("markers") or ()))
                       for s in data.get("spaces") or ())
        tracks = tuple(Track(t["id"], Msg(t["name"]), t["value"], t.get("min", 0), t.get("max"),
                             tuple(Threshold(h["value"], Msg(h["name"])) for h in t.get("thresholds") or ()))
                       for t in data.get("tracks") or ())
        boxes = tuple(Box(b["id"], Msg(b["name"]), tuple(
            BoxEntry(Msg(e["name"]), e.get("value"), stack(e["pieces"]) if e.get("pieces") else None)
            for e in b.get("entries") or ())) for b in data.get("boxes") or ())
        cards = tuple(CardShown(c["id"], Msg(c["title"]) if isinstance(c["title"], dict) else c["title"], c["role"],
                                c.get("number", "")) for c in data.get("cards") or ())
        return cls(data["game"], data.get("seat"), spaces, tracks, boxes, cards,
                   tuple(marker(m) for m in data.get("markers") or ()))


def _plain(value: Any) -> Any:
    """``asdict`` output as JSON values (enums by their names, tuples as lists)."""
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Msg):
        return Msg(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def support_of(level: int | None) -> Support | None:
    """A game's numeric level -2..2 as a :class:`Support` (None stays None)."""
    return None if level is None else Support.from_level(level)


def stacks(*items: tuple[str, str, int, PieceState]) -> tuple[PieceStack, ...]:
    """Piece stacks from (type, owner, count, state), leaving out empty ones."""
    return tuple(PieceStack(t, o, int(n), s) for t, o, n, s in items if n)


__all__ = ["BoardMap", "BoardView", "Box", "BoxEntry", "CardShown", "FactionInfo", "Marker", "PieceStack",
           "PieceState", "PieceType", "Shape", "SpaceFact", "SpaceGeometry", "SpaceShape", "SpaceView",
           "Support", "Threshold", "Track", "overlap", "support_of", "stacks"]
