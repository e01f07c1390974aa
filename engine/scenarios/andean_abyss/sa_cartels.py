"""4.5 Cartels Special Activities: Cultivate (4.5.1), Process (4.5.2), Bribe (4.5.3)."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import BOARD as BD
from .board import (
    CARTELS,
    CARTELS_BASE,
    CUBES,
    FACTIONS,
    INSURGENTS,
    PIECE_KEYS,
    POLICE,
    SLOT_OWNER,
    U,
)
from .frames import C, frame, pop, pop_if, target, targets, verb
from .op_common import IDS, opf, sidx, space_choices
from .texts import FN, PN, SN


# ====================================================================== 4.5 Cartels SAs
def cultivate_dests(st: dict, fr: dict) -> list:
    op = opf(st, fr) or fr
    out = []
    has_base_elsewhere = any(st["pc"][j][CARTELS_BASE] for j in P.spaces(st))
    for i in P.spaces(st):
        pc = st["pc"][i]
        if BD.is_loc[i] or BD.pop[i] <= 0 or P.guerrillas(pc, CARTELS) <= pc[POLICE] or not P.can_stack_base(st, i):
            continue
        place_ok = BD.is_dept[i] and op.get("op") == "rally" and i in op["sel"] and st["av"][CARTELS_BASE]
        if place_ok or any(st["pc"][j][CARTELS_BASE] for j in P.spaces(st) if j != i) and has_base_elsewhere:
            out.append(i)
    return out


@frame("cultivate")
class Cultivate:
    """4.5.1: relocate a Cartels Base to the space, or place one in a Rally Department."""

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            return (msg("Cultivate: destination?"), "4.5.1", space_choices(cultivate_dests(st, fr), msg("Cultivate in {space}")))
        i = fr["i"]
        op = opf(st, fr) or fr
        chs = []
        if BD.is_dept[i] and op.get("op") == "rally" and i in op["sel"] and st["av"][CARTELS_BASE]:
            chs.append(C("place", msg("Place a new Cartels Base")))
        chs += [C(f"from:{IDS[j]}", msg("Relocate the Base from {space}", space=SN[j]), space=IDS[j]) for j in P.spaces(st)
                if j != i and st["pc"][j][CARTELS_BASE]]
        return (msg("Cultivate: place or relocate a Base?"), "4.5.1", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, fr["ph"] == "a" and not cultivate_dests(st, fr))

    @staticmethod
    def act(st, fr, cid, facts):
        if fr["ph"] == "a":
            fr["i"] = sidx(cid)
            fr["ph"] = "b"
            return
        i = fr["i"]
        if cid == "place":
            P.place(st, i, CARTELS_BASE, 1, facts, msg("Cultivate"))
        else:
            P.move(st, sidx(cid), i, CARTELS_BASE, 1, facts, msg("Cultivate"))
        pop(st, fr)


@frame("process")
class Process:
    """4.5.2: place 1-2 Shipments in spaces with Cartels Bases, or remove Bases for +3 each."""

    @staticmethod
    def ship_spaces(st):
        return [i for i in P.spaces(st) if st["pc"][i][CARTELS_BASE] and P.all_guerrillas(st["pc"][i])]

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            chs = []
            if len(st["ship"]) < 4 and Process.ship_spaces(st):
                chs.append(C("ship", msg("Place Shipments")))
            chs.append(C("bases", msg("Remove Cartels Bases for +3 Resources each")))
            return (msg("Process: Shipments or Bases?"), "4.5.2", chs)
        if fr["ph"] == "ship":
            chs = []
            for i in Process.ship_spaces(st):
                for g in INSURGENTS:
                    if P.guerrillas(st["pc"][i], g):
                        chs.append(C(f"ship:{IDS[i]}:{FACTIONS[g]}", msg("Shipment under a {faction} Guerrilla in {space}", faction=FN[g], space=SN[i]),
                                     space=IDS[i], owner=FACTIONS[g]))
            if fr["n"]:
                chs.append(C("done", msg("Done")))
            return (msg("Process: where does the Shipment go?"), "4.5.2", chs)
        chs = [C(f"space:{IDS[i]}", msg("Remove a Cartels Base in {space}", space=SN[i]), space=IDS[i]) for i in P.spaces(st)
               if st["pc"][i][CARTELS_BASE]]
        chs.append(C("done", msg("Done")))
        return (msg("Process: remove which Bases?"), "4.5.2", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, fr["ph"] == "ship" and (fr["n"] >= 2 or len(st["ship"]) >= 4 or not Process.ship_spaces(st)))

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "done":
            pop(st, fr)
            return
        if fr["ph"] == "a":
            fr["ph"] = cid
            return
        if fr["ph"] == "ship":
            sid, g = targets(cid)
            i = BD.index[sid]
            st["ship"].append([i, FACTIONS.index(g)])
            facts.append(fact("shipment", msg("Process: Shipment placed in {space} under a {faction} Guerrilla", space=SN[i], faction=FN[FACTIONS.index(g)]),
                              space=sid, owner=g))
            fr["n"] += 1
            return
        i = sidx(cid)
        P.remove(st, i, CARTELS_BASE, 1, facts, msg("Process"))
        P.set_res(st, CARTELS, 3, facts, msg("Process 4.5.2"))
        fr["n"] += 1
        if not any(st["pc"][j][CARTELS_BASE] for j in P.spaces(st)):
            pop(st, fr)


def bribe_spaces(st: dict, done: list) -> list:
    out = []
    for i in P.spaces(st):
        if i in done:
            continue
        pc = st["pc"][i]
        if any(pc[s] for s in range(9)):
            out.append(i)
    return out


@frame("bribe")
class Bribe:
    """4.5.4: in up to 3 spaces, -3 Resources each: remove 2 cubes, remove/flip 2 Guerrillas, or remove a Base."""

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            chs = (space_choices(bribe_spaces(st, fr["done"]), msg("Bribe in {space}"))
                   if st["res"][CARTELS] >= 3 or fr.get("free") else [])
            chs.append(C("done", msg("Done bribing")))
            return (msg("Cartels Bribe: which space (3 Resources)?"), "4.5.4", chs)
        pc = st["pc"][fr["i"]]
        cat = fr.get("cat")
        chs = []
        if cat in (None, "cube"):
            chs += [C(f"rm:{PIECE_KEYS[s]}", msg("Remove {piece}", piece=PN[s])) for s in (0, 1) if pc[s]]
        if cat in (None, "guer"):
            chs += [C(f"rm:{PIECE_KEYS[s]}", msg("Remove {piece}", piece=PN[s])) for s in (3, 4, 6, 7) if pc[s]]
            chs += [C(f"flip:{PIECE_KEYS[s]}", msg("Flip {piece}", piece=PN[s])) for s in (3, 4, 6, 7) if pc[s]]
        if cat is None:
            chs += [C(f"base:{PIECE_KEYS[s]}", msg("Remove {piece}", piece=PN[s])) for s in (2, 5, 8) if pc[s]]
        if cat is not None or not chs:
            chs.append(C("done", msg("Done in this space")))
        return (msg("Bribe in {space}", space=SN[fr['i']]), "4.5.4", chs)

    @staticmethod
    def auto(st, fr, facts):
        if fr["ph"] == "a" and (len(fr["done"]) >= (1 if fr.get("one") else 3)
                                or (st["res"][CARTELS] < 3 and not fr.get("free")) or not bribe_spaces(st, fr["done"])):
            pop(st, fr)
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        if fr["ph"] == "a":
            if cid == "done":
                pop(st, fr)
                return
            i = sidx(cid)
            fr["i"] = i
            fr["done"].append(i)
            fr["cat"] = None
            fr["k"] = "bribe"
            fr["units"] = 0
            fr["ph"] = "b"
            if not fr.get("free"):
                P.set_res(st, CARTELS, -3, facts, msg("Bribe in {space}", space=SN[i]))
            return
        i = fr["i"]
        if cid == "done":
            fr["ph"] = "a"
            return
        kind, key = verb(cid), target(cid)
        s = PIECE_KEYS.index(key)
        if kind == "base":
            P.remove(st, i, s, 1, facts, msg("Bribe"))
            fr["ph"] = "a"
            return
        fr["cat"] = "cube" if s in CUBES else "guer"
        if kind == "rm":
            P.remove(st, i, s, 1, facts, msg("Bribe"))
        else:
            g = SLOT_OWNER[s]
            P.flip(st, i, g, 1, s == U(g), facts, msg("Bribe"))
        fr["units"] += 1
        if fr["units"] >= 2:
            fr["ph"] = "a"
