"""4.2 Government Special Activities: Air Lift (4.2.1), Air Strike (4.2.2), Eradicate (4.2.3)."""

from __future__ import annotations

from engine.core.messages import msg

from . import pieces as P
from .board import BOARD as BD
from .board import CARTELS, CARTELS_BASE, FACTIONS, FARC_UNDERGROUND, GOVT, INSURGENTS, TROOPS, A, B
from .frames import C, frame, pop, pop_if, target
from .op_common import sidx, space_choices
from .state import cap, mom
from .texts import FN


# ====================================================================== 4.2 Government SAs
def airlift_from(st: dict) -> list:
    return [i for i in P.spaces(st) if st["pc"][i][TROOPS] and not P.is_zone(st, i)
            and not (mom(st, 27) and P.all_guerrillas(st["pc"][i]))]


@frame("airlift")
class AirLift:
    """4.2.1: move up to 3 Troops from 1 space to another (card 10: any number / only 1)."""

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            return (msg("Air Lift: from which space?"), "4.2.1", space_choices(airlift_from(st), msg("Air Lift from {space}")))
        if fr["ph"] == "b":
            ds = [j for j in P.spaces(st) if j != fr["src"] and not P.is_zone(st, j)
                  and not (mom(st, 27) and P.all_guerrillas(st["pc"][j]))
                  and P.ecuador_room(st, j, GOVT)]
            return (msg("Air Lift: to which space?"), "4.2.1", space_choices(ds, msg("Air Lift to {space}")))
        mx = st["pc"][fr["src"]][TROOPS]
        mx = mx if cap(st, 10) == "u" else 1 if cap(st, 10) == "s" else min(3, mx)
        if fr["dst"] == BD.ecuador:  # card 33: at most 2 pieces per Faction in Ecuador
            mx = min(mx, 2 - P.fpieces(st["pc"][BD.ecuador], GOVT))
        return (msg("Air Lift: how many Troops?"), "4.2.1", [C(f"n:{n}", msg("{count} Troops", count=n), n=n) for n in range(1, mx + 1)])

    @staticmethod
    def act(st, fr, cid, facts):
        if fr["ph"] == "a":
            fr["src"] = sidx(cid)
            fr["ph"] = "b"
        elif fr["ph"] == "b":
            fr["dst"] = sidx(cid)
            fr["ph"] = "c"
        else:
            P.move(st, fr["src"], fr["dst"], TROOPS, int(target(cid)), facts, msg("Air Lift"))
            pop(st, fr)


def airstrike_targets(st: dict, i: int) -> list:
    pc = st["pc"][i]
    out = []
    for g in INSURGENTS:
        if pc[A(g)] or (pc[B(g)] and not P.guerrillas(pc, g)):
            out.append(g)
    return out


def airstrike_spaces(st: dict) -> list:
    return [i for i in P.spaces(st) if not BD.is_city[i] and airstrike_targets(st, i)
            and not (mom(st, 27) and P.all_guerrillas(st["pc"][i]))]


@frame("airstrike")
class AirStrike:
    """4.2.2: remove 1 Active Guerrilla (or a Base of a Faction with no Guerrillas there)."""

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            return (msg("Air Strike: which Department or LoC?"), "4.2.2", space_choices(airstrike_spaces(st), msg("Air Strike in {space}")))
        return (msg("Air Strike: whose piece?"), "4.2.2",
                [C(f"target:{FACTIONS[g]}", FN[g]) for g in airstrike_targets(st, fr["i"])])

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, fr["ph"] == "a" and not airstrike_spaces(st))

    @staticmethod
    def act(st, fr, cid, facts):
        if fr["ph"] == "a":
            fr["i"] = sidx(cid)
            ts = airstrike_targets(st, fr["i"])
            if len(ts) == 1:
                AirStrike.hit(st, fr, ts[0], facts)
                return
            fr["ph"] = "b"
            return
        AirStrike.hit(st, fr, FACTIONS.index(target(cid)), facts)

    @staticmethod
    def hit(st, fr, g, facts):
        i = fr["i"]
        pc = st["pc"][i]
        P.remove(st, i, A(g) if pc[A(g)] else B(g), 1, facts, msg("Air Strike"))
        fr["n"] = fr.get("n", 0) + 1
        if fr.get("times", 1) > fr["n"] and airstrike_spaces(st):
            fr["ph"] = "a"
            return
        pop(st, fr)


def eradicate_spaces(st: dict) -> list:
    return [i for i in P.spaces(st) if BD.is_dept[i] and P.fpieces(st["pc"][i], CARTELS)
            and not (mom(st, 27) and P.all_guerrillas(st["pc"][i]))]


@frame("eradicate")
class Eradicate:
    """4.2.3: Aid +4, remove all Cartels Bases, then shift toward Opposition (or place a FARC Guerrilla)."""

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            return (msg("Eradicate: which Department with Cartels pieces?"), "4.2.3",
                    space_choices(eradicate_spaces(st), msg("Eradicate in {space}")))
        return (msg("Eradicate: shift which Department toward Active Opposition?"), "4.2.3",
                space_choices(fr["opts"], msg("Shift {space}")))

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, fr["ph"] == "a" and not eradicate_spaces(st))

    @staticmethod
    def act(st, fr, cid, facts):
        if fr["ph"] == "a":
            i = sidx(cid)
            fr["i"] = i
            P.set_aid(st, 4, facts, msg("Eradicate 4.2.3"))
            P.remove(st, i, CARTELS_BASE, 2, facts, msg("Eradicate"))
            opts = [j for j in (i, *P.adj(st, i)) if BD.is_dept[j] and P.can_shift(st, j, -1)]
            if not opts:
                P.place(st, i, FARC_UNDERGROUND, 1, facts, msg("Eradicate: no shift possible"))
                pop(st, fr)
                return
            fr["opts"] = opts
            fr["ph"] = "b"
            return
        P.shift(st, sidx(cid), -1, facts, msg("Eradicate 4.2.3"))
        pop(st, fr)
