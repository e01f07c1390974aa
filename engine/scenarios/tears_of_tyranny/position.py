"""Described positions (contract v2): ``setup(seed, {"position": ...})`` starts a game at the
start of a turn's player window (3) from a described board, ``position(state)`` describes one,
``position_schema()`` documents the shape. A bad field raises
:class:`~engine.core.contract.PositionError` naming it (``position.tiles.s01t0.cells``).

What a position holds (everything else comes from the seed and the scenario: deck orders, the
event and influence decks, the RNG)::

    {"turn": 3,                                   # the turn whose player window opens (>= 1)
     "tiles": {"s01t0": {"cells": 1, "outposts": 0, "garrisons": 0, "red": 1, "blue": 2,
                         "tyranny": 0, "guerrillas": {"liberators": 2}, "bases": ["liberators"],
                         "presence": {"liberators": 2}}},   # a tile not listed is empty
     "seats": {"liberators": {"resources": 4, "hand": ["L-M1"], "discard": [],
                              "open": {"resources": 2, "plays": 1}}},
     "influence_earned": 3, "tyranny_pool": 18,
     "boxes": {"develop": "TI-01", "dominate": null}}

Limits checked (1, "In the box"; A-08): 80 cells, 40 outposts, 20 garrisons, 30 guerrillas per
player, 12 bases, tyranny on the map plus the pool at most the scenario's pool; presence never
stands in a tyranny tile (1.B); a card is in one place only.
"""

from __future__ import annotations

from engine.core.contract import PositionError
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny.data import SUPPLY, content

C = content()
UNIT_FIELDS = {"cells": "cell", "outposts": "outpost", "garrisons": "garrison"}
G_LIMIT = 30
BASE_LIMIT = 12


def _int(v, field: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise PositionError(field, "must be a whole number")
    if v < lo or (hi is not None and v > hi):
        raise PositionError(field, f"must be between {lo} and {hi}" if hi is not None else f"must be at least {lo}")
    return v


def _dict(v, field: str) -> dict:
    if not isinstance(v, dict):
        raise PositionError(field, "must be an object")
    return v


class PositionMixin:
    def position_schema(self) -> dict:
        seat_ids = list(self.seat_ids())
        count = {"type": "integer", "minimum": 0}
        per_seat = {"type": "object", "propertyNames": {"enum": seat_ids}, "additionalProperties": count}
        tile = {"type": "object", "additionalProperties": False, "properties": {
            "cells": count, "outposts": count, "garrisons": count, "red": count, "blue": count, "tyranny": count,
            "guerrillas": per_seat, "presence": per_seat,
            "bases": {"type": "array", "items": {"enum": seat_ids}}}}
        cards = {"type": "array", "items": {"enum": sorted(C.cards)}}
        seat = {"type": "object", "additionalProperties": False, "properties": {
            "resources": count, "hand": cards, "discard": cards,
            "open": {"type": "object", "properties": {"resources": {"type": "integer", "minimum": 1},
                                                      "plays": {"type": "integer", "minimum": 1}}}}}
        terrain = {"enum": [*sorted(C.terrain), None]}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Tears of Tyranny position",
                "type": "object", "additionalProperties": False, "required": ["turn"],
                "properties": {"turn": {"type": "integer", "minimum": 1},
                               "tiles": {"type": "object", "propertyNames": {"enum": list(C.tile_ids)},
                                         "additionalProperties": tile},
                               "seats": {"type": "object", "propertyNames": {"enum": seat_ids},
                                         "additionalProperties": seat},
                               "influence_earned": count, "tyranny_pool": count,
                               "boxes": {"type": "object", "additionalProperties": False,
                                         "properties": {"develop": terrain, "dominate": terrain}}}}

    def position(self, state: dict) -> dict:
        tiles = {}
        for tid in state["order"]:
            t = state["tiles"][tid]
            d = {k: B.units(t, kind) for k, kind in UNIT_FIELDS.items()}
            d.update(red=t["red"], blue=t["blue"], tyranny=t["tyr"], guerrillas=dict(t["gs"]),
                     bases=[b[0] for b in t["bases"]], presence=dict(t["pres"]))
            if any(v for v in d.values()):
                tiles[tid] = d
        seats = {s: {"resources": pl["res"], "hand": list(pl["hand"]), "discard": list(pl["discard"]),
                     "open": dict(pl["open"])} for s, pl in state["pl"].items()}
        return {"turn": max(1, state["turn"]), "tiles": tiles, "seats": seats,
                "influence_earned": state["inf"]["earned"], "tyranny_pool": state["tyr_pool"],
                "boxes": {"develop": state["boxes"]["develop"], "dominate": state["boxes"]["dominate"]}}

    def _apply_position(self, state: dict, pos) -> None:
        """Overwrite a fresh set-up with ``pos`` and open that turn's player window."""
        pos = _dict(pos, "position")
        unknown = set(pos) - {"turn", "tiles", "seats", "influence_earned", "tyranny_pool", "boxes"}
        if unknown:
            raise PositionError(f"position.{sorted(unknown)[0]}", "is not a field of a position")
        turn = _int(pos.get("turn"), "position.turn", 1, 16)
        seats = state["seats"]
        n = len(seats)
        tiles_in = _dict(pos.get("tiles", {}), "position.tiles")
        new_tiles = {}
        totals = {"cell": 0, "outpost": 0, "garrison": 0}
        gs_tot = dict.fromkeys(seats, 0)
        bases = 0
        tyr = 0
        for tid, d in tiles_in.items():
            f = f"position.tiles.{tid}"
            if tid not in state["tiles"]:
                raise PositionError(f, "is not a tile in play with this many players")
            d = _dict(d, f)
            bad = set(d) - {*UNIT_FIELDS, "red", "blue", "tyranny", "guerrillas", "bases", "presence"}
            if bad:
                raise PositionError(f"{f}.{sorted(bad)[0]}", "is not a field of a tile")
            u = []
            for k, kind in UNIT_FIELDS.items():
                m = _int(d.get(k, 0), f"{f}.{k}", 0, SUPPLY[kind])
                totals[kind] += m
                u += [[kind, 0] for _ in range(m)]
            gs = {}
            for s, m in _dict(d.get("guerrillas", {}), f"{f}.guerrillas").items():
                if s not in seats:
                    raise PositionError(f"{f}.guerrillas.{s}", "is not a seat in play")
                if _int(m, f"{f}.guerrillas.{s}", 0, G_LIMIT):
                    gs[s] = m
                    gs_tot[s] += m
            pres = {}
            for s, m in _dict(d.get("presence", {}), f"{f}.presence").items():
                if s not in seats:
                    raise PositionError(f"{f}.presence.{s}", "is not a seat in play")
                if _int(m, f"{f}.presence.{s}", 0, 10):
                    pres[s] = m
            bl = d.get("bases", [])
            if not isinstance(bl, list) or any(b not in seats for b in bl):
                raise PositionError(f"{f}.bases", "must be a list of seats in play")
            for b in bl:
                if gs.get(b, 0) < 1:
                    raise PositionError(f"{f}.bases", f"a {b} base needs a {b} guerrilla in the tile (1.D)")
            bases += len(bl)
            t_tyr = _int(d.get("tyranny", 0), f"{f}.tyranny", 0, 5 * n)
            tyr += t_tyr
            if t_tyr and pres:
                raise PositionError(f"{f}.presence", "presence cannot stand in a tile under tyranny (1.B)")
            new_tiles[tid] = {"u": u, "red": _int(d.get("red", 0), f"{f}.red", 0, 96),
                              "blue": _int(d.get("blue", 0), f"{f}.blue", 0, 96), "tyr": t_tyr, "gs": gs,
                              "bases": [[b, 0] for b in bl], "pres": pres, "def": 0, "prev": []}
        for kind, m in totals.items():
            if m > SUPPLY[kind]:
                raise PositionError("position.tiles", f"{m} {kind}s on the map: the box holds {SUPPLY[kind]}")
        for s, m in gs_tot.items():
            if m > G_LIMIT:
                raise PositionError("position.tiles", f"{m} {s} guerrillas on the map: a player has {G_LIMIT}")
        if bases > BASE_LIMIT:
            raise PositionError("position.tiles", f"{bases} bases on the map: the box holds {BASE_LIMIT}")
        pool_total = state["tyr_pool"] + B.tyranny_on_map(state)
        pool = _int(pos.get("tyranny_pool", max(0, pool_total - tyr)), "position.tyranny_pool", 0, pool_total)
        if pool + tyr > pool_total:
            raise PositionError("position.tyranny_pool", f"with {tyr} tokens on the map the pool holds at most "
                                f"{pool_total - tyr}")
        # the seats: resources, cards, track
        used: dict = {}
        seats_in = _dict(pos.get("seats", {}), "position.seats")
        for s, d in seats_in.items():
            f = f"position.seats.{s}"
            if s not in seats:
                raise PositionError(f, "is not a seat in play")
            d = _dict(d, f)
            pl = state["pl"][s]
            if "resources" in d:
                pl["res"] = _int(d["resources"], f"{f}.resources", 0, 999)
            for where in ("hand", "discard"):
                if where in d:
                    cards = d[where]
                    if not isinstance(cards, list):
                        raise PositionError(f"{f}.{where}", "must be a list of card ids")
                    for c in cards:
                        if c not in C.cards:
                            raise PositionError(f"{f}.{where}", f"{c!r} is not a capability card")
                        if c in used:
                            raise PositionError(f"{f}.{where}", f"{c} is already in {used[c]}")
                        used[c] = f"{f}.{where}"
                    pl[where] = list(cards)
            if "open" in d:
                o = _dict(d["open"], f"{f}.open")
                for row in ("resources", "plays"):
                    if row in o:
                        top = len(C.panels[s]["track"][row])
                        pl["open"][row] = _int(o[row], f"{f}.open.{row}", 1, top)
        for s in seats:
            for c in state["pl"][s]["hand"] + state["pl"][s]["discard"]:
                for deck in ("major", "minor"):
                    if c in state["decks"][deck]:
                        state["decks"][deck].remove(c)
        boxes = _dict(pos.get("boxes", {}), "position.boxes")
        for box in ("develop", "dominate"):
            cid = boxes.get(box)
            if cid is None:
                continue
            if cid not in C.terrain:
                raise PositionError(f"position.boxes.{box}", f"{cid!r} is not a terrain card")
            if cid in state["decks"]["terrain"]:
                state["decks"]["terrain"].remove(cid)
            state["boxes"][box] = cid
        earned = _int(pos.get("influence_earned", state["inf"]["earned"]), "position.influence_earned", 0,
                      state["inf"]["cap"] - 1)
        for tid in state["tiles"]:
            state["tiles"][tid] = new_tiles.get(tid, {"u": [], "red": 0, "blue": 0, "tyr": 0, "gs": {}, "bases": [],
                                                      "pres": {}, "def": 0, "prev": []})
        state["tyr_pool"] = pool
        state["inf"]["earned"] = earned
        state["turn"] = turn - 1
        for s in seats:
            state["frames"][s] = []
        facts: list = []
        self._start_turn(state, facts)
