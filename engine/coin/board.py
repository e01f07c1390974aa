"""Static map data (COIN 1.3): spaces, their kind and terrain, population, adjacency.

A :class:`Board` is built once from a scenario's validated JSON and never changes; states
hold only ids. Adjacency is symmetric and checked on load.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Space:
    id: str
    name: str
    kind: str          # e.g. "lima"/"city", "department", "loc"
    terrain: str       # e.g. "highland", "jungle", "coastal", "loc", "lima"
    population: int
    econ: int
    adjacent: tuple[str, ...]
    x: float = 0.0
    y: float = 0.0

    @property
    def is_loc(self) -> bool:
        return self.kind == "loc"


class BoardError(ValueError):
    pass


class Board:
    """Spaces by id (in data order) with adjacency sets."""

    def __init__(self, spaces: Iterable[dict]):
        self.spaces: dict[str, Space] = {}
        for s in spaces:
            sp = Space(id=s["id"], name=s["name"], kind=s["kind"], terrain=s.get("terrain", s["kind"]),
                       population=int(s.get("population", 0)), econ=int(s.get("econ", 0)),
                       adjacent=tuple(s.get("adjacent", ())), x=float(s.get("x", 0)), y=float(s.get("y", 0)))
            if sp.id in self.spaces:
                raise BoardError(f"duplicate space id {sp.id}")
            self.spaces[sp.id] = sp
        self.ids: tuple[str, ...] = tuple(self.spaces)
        self.adj: dict[str, frozenset[str]] = {k: frozenset(v.adjacent) for k, v in self.spaces.items()}
        for a, bs in self.adj.items():
            for b in bs:
                if b not in self.adj:
                    raise BoardError(f"{a} is adjacent to unknown space {b}")
                if a not in self.adj[b]:
                    raise BoardError(f"adjacency {a}-{b} is not symmetric")

    def __getitem__(self, sid: str) -> Space:
        return self.spaces[sid]

    def __contains__(self, sid: str) -> bool:
        return sid in self.spaces

    def name(self, sid: str) -> str:
        return self.spaces[sid].name

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.adj[a]

    def reachable(self, start: str, can_enter: Callable[[str], bool],
                  can_leave: Callable[[str], bool]) -> list[str]:
        """Spaces reachable from ``start`` by steps into spaces where ``can_enter`` holds,
        continuing only from spaces where ``can_leave`` holds (the start may always be left).
        Result in board order, without ``start``."""
        seen = {start}
        todo = deque([start])
        while todo:
            cur = todo.popleft()
            if cur != start and not can_leave(cur):
                continue
            for nxt in self.adj[cur]:
                if nxt not in seen and can_enter(nxt):
                    seen.add(nxt)
                    todo.append(nxt)
        seen.discard(start)
        return [s for s in self.ids if s in seen]
