"""1.3 The map, 1.4 forces and the setup sheet: static data, loaded once and validated.

Spaces get a stable string id (``bogota``, ``loc_bogota_neiva``) and an index used
inside the state. Ecuador and Panamá are stored as spaces that only become part of
the map after cards 33 / 71 (shaded), rule 1.3.5.
"""

from __future__ import annotations

import json
from enum import IntEnum
from pathlib import Path

from engine.coin.board import Board as CoinBoard
from engine.coin.support import NAMES as SUPPORT_LEVEL_NAMES

DATA = Path(__file__).with_name("data")


class Faction(IntEnum):
    """1.5 The four Factions; a Faction is stored in the state as its value."""

    GOVT = 0
    FARC = 1
    AUC = 2
    CARTELS = 3


# The Factions by name, as plain ints (the state is JSON; list indexing stays fast).
GOVT, FARC, AUC, CARTELS = (int(f) for f in Faction)
ALL_FACTIONS = (GOVT, FARC, AUC, CARTELS)
INSURGENTS = (FARC, AUC, CARTELS)
FACTIONS = ("govt", "farc", "auc", "cartels")
FNAME = ("Government", "FARC", "AUC", "Cartels")


class Piece(IntEnum):
    """1.4 Piece types: the slots of a space's 12-int vector ``st["pc"][space]``. An Insurgent
    Faction ``f`` has Underground Guerrillas, Active Guerrillas and Bases at ``U(f)``, ``A(f)``,
    ``B(f)``. ``st["av"]`` / ``st["oop"]`` (Available / Out of Play) use the same slots and keep
    all of a Faction's Guerrillas in its Underground slot (``FARC_GUERRILLAS`` and so on)."""

    TROOPS = 0
    POLICE = 1
    GOVT_BASE = 2
    FARC_UNDERGROUND = 3
    FARC_ACTIVE = 4
    FARC_BASE = 5
    AUC_UNDERGROUND = 6
    AUC_ACTIVE = 7
    AUC_BASE = 8
    CARTELS_UNDERGROUND = 9
    CARTELS_ACTIVE = 10
    CARTELS_BASE = 11


(TROOPS, POLICE, GOVT_BASE, FARC_UNDERGROUND, FARC_ACTIVE, FARC_BASE, AUC_UNDERGROUND, AUC_ACTIVE, AUC_BASE,
 CARTELS_UNDERGROUND, CARTELS_ACTIVE, CARTELS_BASE) = (int(p) for p in Piece)
GBASE = GOVT_BASE
# Available / Out of Play Guerrillas are counted in the Underground slot
FARC_GUERRILLAS, AUC_GUERRILLAS, CARTELS_GUERRILLAS = FARC_UNDERGROUND, AUC_UNDERGROUND, CARTELS_UNDERGROUND
CUBES = (TROOPS, POLICE)
UNDERGROUND = (FARC_UNDERGROUND, AUC_UNDERGROUND, CARTELS_UNDERGROUND)
ACTIVE = (FARC_ACTIVE, AUC_ACTIVE, CARTELS_ACTIVE)
BASES = (GOVT_BASE, FARC_BASE, AUC_BASE, CARTELS_BASE)
INSURGENT_BASES = (FARC_BASE, AUC_BASE, CARTELS_BASE)
INSURGENT_PIECES = tuple(range(FARC_UNDERGROUND, CARTELS_BASE + 1))
GOVT_PIECES = (TROOPS, POLICE, GOVT_BASE)
ALL_PIECES = tuple(Piece)
PIECE_KEYS = ("troops", "police", "govt_base", "farc_underground", "farc_active", "farc_base",
              "auc_underground", "auc_active", "auc_base", "cartels_underground", "cartels_active",
              "cartels_base")
PIECE_NAMES = ("Troops", "Police", "Govt Base", "Underground FARC Guerrilla", "Active FARC Guerrilla",
               "FARC Base", "Underground AUC Guerrilla", "Active AUC Guerrilla", "AUC Base",
               "Underground Cartels Guerrilla", "Active Cartels Guerrilla", "Cartels Base")
# inventory key -> slot used for the Available count
INV_SLOT = {"troops": TROOPS, "police": POLICE, "govt_base": GOVT_BASE, "farc_guerrilla": FARC_GUERRILLAS,
            "farc_base": FARC_BASE, "auc_guerrilla": AUC_GUERRILLAS, "auc_base": AUC_BASE,
            "cartels_guerrilla": CARTELS_GUERRILLAS, "cartels_base": CARTELS_BASE}


def U(f: int) -> int:
    """The Underground Guerrilla slot of Insurgent Faction ``f``."""
    return 3 * f


def A(f: int) -> int:
    """The Active Guerrilla slot of Insurgent Faction ``f``."""
    return 3 * f + 1


def B(f: int) -> int:
    """The Base slot of Faction ``f`` (the Government's too)."""
    return 3 * f + 2


#: Each Faction's slots (Underground, Active, Base; the Government's Troops, Police, Base), for
#: hot loops that would otherwise call U/A/B per piece.
FACTION_SLOTS = tuple((U(f), A(f), B(f)) for f in range(4))

#: The Faction owning each piece slot, and the slot that counts it in Available.
SLOT_OWNER = tuple(GOVT if k < FARC_UNDERGROUND else k // 3 for k in range(12))
AVAIL_SLOT = tuple(k - 1 if k in ACTIVE else k for k in range(12))


#: 6.4.3 El Presidente, in the track's order (the state's ``"pres"``)
SAMPER, PASTRANA, URIBE = 0, 1, 2


#: 1.3.5 which of Ecuador / Panamá are spaces now: the state's ``"foreign"`` value.
FOREIGN_IN_PLAY = ("", "ecuador", "panama", "ecuador+panama")


def foreign_with(current: str, which: str) -> str:
    """The ``"foreign"`` value once ``which`` ("ecuador" or "panama") has become a space too."""
    names = {n for n in current.split("+") if n} | {which}
    return "+".join(n for n in ("ecuador", "panama") if n in names)


SUPPORT_NAMES = SUPPORT_LEVEL_NAMES  # engine/coin/support.py: the five levels, +2 .. -2


class DataError(ValueError):
    pass


class Board:
    """Static facts: spaces, adjacency, setups and cards (validated on load)."""

    def __init__(self) -> None:
        m = json.loads((DATA / "map.json").read_text(encoding="utf-8"))
        self.raw_map = m
        self.spaces = m["spaces"]
        self.ids = [s["id"] for s in self.spaces]
        self.index = {sid: i for i, sid in enumerate(self.ids)}
        self.n = len(self.spaces)
        self.name = [s["name"] for s in self.spaces]
        self.kind = [s["kind"] for s in self.spaces]
        self.is_city = [k == "city" for k in self.kind]
        self.is_dept = [k == "department" for k in self.kind]
        self.is_loc = [k == "loc" for k in self.kind]
        self.pop = [s.get("pop", 0) for s in self.spaces]
        self.econ = [s.get("econ", 0) for s in self.spaces]
        self.terrain = [s.get("terrain", "") for s in self.spaces]
        self.forest = [t == "forest" for t in self.terrain]
        self.mountain = [t == "mountain" for t in self.terrain]
        self.pipeline = [s.get("loc_type") == "pipeline" for s in self.spaces]
        self.coastal = [bool(s.get("coastal")) for s in self.spaces]
        self.borders = [set(s.get("borders", [])) for s in self.spaces]
        self.ecuador = self.index["ecuador"]
        self.panama = self.index["panama"]
        self.foreign = (self.ecuador, self.panama)
        adj = [set() for _ in range(self.n)]
        for i, s in enumerate(self.spaces):
            for a in s["adj"]:
                adj[i].add(self.index[a])
                adj[self.index[a]].add(i)
        self.adj_all = [tuple(sorted(a)) for a in adj]
        # the shared COIN map (engine/coin/board.py): symmetric adjacency checked on load,
        # reachability for Patrol; Ecuador/Panamá carry their conditional neighbours.
        self.coin = CoinBoard({"id": s["id"], "name": s["name"], "kind": s["kind"],
                               "terrain": s.get("terrain", s["kind"]), "population": s.get("pop", 0),
                               "econ": s.get("econ", 0), "adjacent": [self.ids[j] for j in self.adj_all[i]],
                               "x": s["x"], "y": s["y"]} for i, s in enumerate(self.spaces))
        # adjacency for each set of foreign spaces in play (1.3.5; the state's "foreign" key)
        self.adj_by_foreign = {}
        for key in FOREIGN_IN_PLAY:
            hide = {self.index[s] for s in ("ecuador", "panama") if s not in key.split("+")}
            self.adj_by_foreign[key] = [tuple(j for j in a if j not in hide) for a in self.adj_all]
        self.bogota = self.index["bogota"]
        self.cities = [i for i in range(self.n) if self.is_city[i]]
        self.locs = [i for i in range(self.n) if self.is_loc[i]]
        self.depts_base = [i for i in range(self.n) if self.is_dept[i] and i not in self.foreign]
        self.setup = json.loads((DATA / "setup.json").read_text(encoding="utf-8"))
        self.inventory = [0] * 12
        for k, v in self.setup["inventory"].items():
            self.inventory[INV_SLOT[k]] = v
        c = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
        self.cards = {card["n"]: card for card in c["cards"]}
        self.validate()

    # ------------------------------------------------------------------
    def validate(self) -> None:
        """Checks the data files against 1.3 and the reference figures (raises DataError)."""
        err = []
        if self.n != 47:
            err.append(f"expected 45 spaces + 2 conditional foreign spaces, got {self.n}")
        for i, a in enumerate(self.adj_all):
            if i in a:
                err.append(f"{self.ids[i]} adjacent to itself")
            for j in a:
                if i not in self.adj_all[j]:
                    err.append(f"asymmetric {self.ids[i]}-{self.ids[j]}")
        base = [i for i in range(self.n) if i not in self.foreign]
        if sum(self.econ) != 30:
            err.append(f"LoC Econ total {sum(self.econ)} != 30")
        if sum(self.pop[i] for i in base) != 40:
            err.append("population total != 40")
        if (len(self.cities), len(self.locs), len(self.depts_base)) != (11, 18, 16):
            err.append("expected 11 Cities, 18 LoCs, 16 Departments")
        for i in self.locs:
            for e in self.spaces[i].get("ends", []):
                if e in self.index and self.index[e] not in self.adj_all[i]:
                    err.append(f"LoC {self.ids[i]} not adjacent to its end {e}")
        if sum(self.inventory) != 153:
            err.append("inventory != 153 pieces")
        if sorted(self.cards) != list(range(1, 73)):
            err.append("cards must be numbered 1..72")
        for n, card in self.cards.items():
            if len(card["order"]) != 4 or sorted(card["order"]) != sorted(FACTIONS):
                err.append(f"card {n}: bad faction order")
            if card.get("single") and "shaded" in card:
                err.append(f"card {n}: single-event card with a shaded side")
            for side in ("unshaded", "shaded"):
                if side in card and not card[side].get("effect"):
                    err.append(f"card {n}: {side} side without effect script")
        for key, scn in self.setup["scenarios"].items():
            for sid, pcs in scn.get("pieces", {}).items():
                if sid not in self.index:
                    err.append(f"setup {key}: unknown space {sid}")
                elif self.is_loc[self.index[sid]] and (pcs.get("govt_base") or pcs.get("farc_base")
                                                       or pcs.get("auc_base") or pcs.get("cartels_base")):
                    err.append(f"setup {key}: Base on LoC {sid}")
        if err:
            raise DataError("; ".join(err))

    def sid(self, i: int) -> str:
        return self.ids[i]


BOARD = Board()
