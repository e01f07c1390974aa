"""3.3 Insurgent Operations: Rally (3.3.1), March (3.3.2), Attack (3.3.3), Terror (3.3.4)."""

from __future__ import annotations

from engine.core import rng as R
from engine.core.contract import cause_die, fact
from engine.core.messages import msg

from . import pieces as P
from .board import ALL_FACTIONS, AUC, FARC, GOVT, GOVT_BASE, PIECE_KEYS, A, B, U
from .board import BOARD as BD
from .frames import C, frame, once, pop, push_child, resume_once, target
from .op_common import IDS, opf, sidx, space_choices
from .state import mark_sa
from .texts import FN, PN, SN


# ====================================================================== candidate spaces
def rally_space_ok(st: dict, f: int, i: int, elite: bool = False, total_g: int | None = None) -> bool:
    if BD.is_loc[i] or not P.active_space(st, i):
        return False
    s = st["sup"][i]
    if f == FARC and s > 0:
        return False
    if f == AUC and s < 0:
        return False
    pc = st["pc"][i]
    if not P.ecuador_room(st, i, f):
        return False
    if st["av"][U(f)] > 0:
        return True
    if P.guerrillas(pc, f) >= 2 and st["av"][B(f)] > 0 and P.can_stack_base(st, i):
        return True
    if pc[B(f)] and pc[A(f)]:
        return True
    if pc[B(f)] or f not in st["np"]:  # regroup, or (1.4.1) take a Guerrilla off the map
        if total_g is None:
            total_g = P.count_on_map(st, U(f)) + P.count_on_map(st, A(f))
        return total_g - P.guerrillas(pc, f) > 0
    return False


def attack_targets(st: dict, f: int, i: int, only=None) -> list:
    pc = st["pc"][i]
    out = []
    for g in ALL_FACTIONS:
        if g == f or (only is not None and g != only):
            continue
        if P.fpieces(pc, g):
            out.append(g)
    return out


def terror_ok(st: dict, f: int, i: int, any_g: bool = False) -> bool:
    pc = st["pc"][i]
    return P.active_space(st, i) and (pc[U(f)] > 0 or (any_g and pc[A(f)] > 0))


def aid_cut(st: dict, n: int, facts: list) -> None:
    P.set_aid(st, -3 if n == 1 else -5, facts, msg("AUC Terror Aid cut 3.3.4"))


# ====================================================================== 3.3.1 Rally
@frame("rallysp")
class RallySp:
    """3.3.1: place a Guerrilla, replace 2 with a Base, or (with a Base) place many / regroup."""

    @staticmethod
    def prompt(st, fr):
        f, i = fr["f"], fr["i"]
        pc = st["pc"][i]
        chs = []
        av = st["av"][U(f)]
        if i == BD.ecuador:
            av = min(av, 2 - P.fpieces(pc, f))
        if av:
            chs.append(C("place", msg("Place 1 Guerrilla")))
        if P.guerrillas(pc, f) >= 2 and st["av"][B(f)] and P.can_stack_base(st, i):
            chs.append(C("base", msg("Replace 2 Guerrillas with a Base")))
        if pc[B(f)]:
            top = min(av, BD.pop[i] + pc[B(f)])
            for n in range(2, top + 1):
                chs.append(once(("many", n), lambda n: C(f"many:{n}", msg("Place {count} Guerrillas", count=n), n=n), n))
            chs.append(C("regroup", msg("Move Guerrillas here from anywhere and flip all here Underground")))
        if not st["av"][U(f)] and not fr.get("auto") and f not in st["np"]:
            # 1.4.1: a player Faction may take its own pieces off the map to make them Available
            for j in P.spaces(st):
                if j != i and P.guerrillas(st["pc"][j], f):
                    chs.append(once(("rally-take", j), lambda j: C(f"take:{IDS[j]}", msg(
                        "Take a Guerrilla off {space} (Available again, 1.4.1)", space=SN[j]), space=IDS[j]), j))
        if not chs:
            chs.append(C("done", msg("Nothing to do")))
        return (msg("{faction} Rally in {space}", faction=FN[f], space=SN[i]), "3.3.1", chs)

    auto = staticmethod(resume_once)

    @staticmethod
    def act(st, fr, cid, facts):
        f, i = fr["f"], fr["i"]
        if cid.startswith("take:"):
            j = sidx(cid)
            P.remove(st, j, A(f) if st["pc"][j][A(f)] else U(f), 1, facts, msg("taken off the map to be placed (1.4.1)"))
            return
        fr["went"] = 1
        if cid == "place":
            P.place(st, i, U(f), 1, facts, msg("Rally"))
        elif cid == "base":
            pc = st["pc"][i]
            k = min(2, pc[A(f)])
            P.remove(st, i, A(f), k, facts, msg("replaced by a Base (Rally)"))
            P.remove(st, i, U(f), 2 - k, facts, msg("replaced by a Base (Rally)"))
            P.place(st, i, B(f), 1, facts, msg("Rally"))
        elif cid.startswith("many:"):
            P.place(st, i, U(f), int(target(cid)), facts, msg("Rally"))
        elif cid == "regroup":
            push_child(st, fr, "regroup", f=f, i=i, n=0)


        # "done": nothing possible


@frame("regroup")
class Regroup:
    """3.3.1: move Guerrillas from any spaces into the Rally space, then flip all there Underground."""

    @staticmethod
    def prompt(st, fr):
        f, i = fr["f"], fr["i"]
        chs = [once(("regroup-from", j), lambda j: C(f"from:{IDS[j]}", msg("Bring 1 Guerrilla from {space}", space=SN[j]),
                                                  space=IDS[j]), j) for j in P.spaces(st)
               if j != i and P.guerrillas(st["pc"][j], f) and (i != BD.ecuador or P.fpieces(st["pc"][i], f) < 2)]
        chs.append(C("done", msg("Done: flip all Underground")))
        return (msg("Rally in {space}: bring Guerrillas from anywhere", space=SN[i]), "3.3.1", chs)

    @staticmethod
    def act(st, fr, cid, facts):
        f, i = fr["f"], fr["i"]
        if cid == "done" or fr["n"] >= 40:
            P.flip(st, i, f, 99, False, facts, msg("Rally"))
            pop(st, fr)
            return
        j = sidx(cid)
        slot = A(f) if st["pc"][j][A(f)] else U(f)
        P.move(st, j, i, slot, 1, facts, msg("Rally"))
        fr["n"] += 1


# ====================================================================== 3.3.2 March
def march_origins(st: dict, fr: dict) -> list:
    f = fr["f"]
    out = []
    for i in P.spaces(st):
        arrived = fr["moved"].get(str(i), 0)
        if P.guerrillas(st["pc"][i], f) - arrived > 0 and march_dests(st, f, i, fr):
            out.append(i)
    return out


def march_dests(st: dict, f: int, src: int, op: dict) -> list:
    out = []
    paid = op.get("paid", [])
    for j in P.adj(st, src):
        if op["lim"] and op["dest"] is not None and j != op["dest"]:
            continue
        if op.get("only_dest") is not None and j not in op["only_dest"]:
            continue
        if not op["free"] and not BD.is_loc[j] and j not in paid and st["res"][f] < 1:
            continue
        if j == BD.ecuador and P.fpieces(st["pc"][j], f) >= 2:
            continue
        if f"{src}>{j}" in op.get("groups", ()):
            continue  # 3.3.2: Guerrillas from one space to another move as a single group
        out.append(j)
    return out


@frame("marchgrp")
class MarchGrp:
    """3.3.2: one group moves from an origin to an adjacent space."""

    @staticmethod
    def movable(st, fr):
        op = opf(st, fr)
        src = fr["src"]
        pc = st["pc"][src]
        arrived = op["moved"].get(str(src), 0)
        arr_a = op.setdefault("moved_a", {}).get(str(src), 0)
        arr_u = arrived - arr_a
        return max(0, pc[U(fr["f"])] - arr_u), max(0, pc[A(fr["f"])] - arr_a)

    @staticmethod
    def prompt(st, fr):
        f, src = fr["f"], fr["src"]
        if fr["dst"] is None:
            return (msg("March from {space}: to which adjacent space?", space=SN[src]), "3.3.2",
                    space_choices(march_dests(st, f, src, opf(st, fr)), msg("March into {space}")))
        mu, ma = MarchGrp.movable(st, fr)
        if fr["nu"] is None:
            chs = [once(("u", n), lambda n: C(f"u:{n}", msg("{count} Underground Guerrillas", count=n), n=n), n)
                   for n in range(0, mu + 1)]
            return (msg("March: how many Underground Guerrillas move?"), "3.3.2", chs)
        lo = 1 if fr["nu"] == 0 else 0
        chs = [once(("a", n), lambda n: C(f"a:{n}", msg("{count} Active Guerrillas", count=n), n=n), n) for n in range(lo, ma + 1)]
        return (msg("March: how many Active Guerrillas move?"), "3.3.2", chs)

    @staticmethod
    def auto(st, fr, facts):
        """With the Underground count chosen and no Active Guerrilla to add, the group goes."""
        if fr["nu"] is not None and MarchGrp.movable(st, fr)[1] == 0:
            MarchGrp.go(st, fr, facts, fr["nu"], 0)
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        if cid.startswith("space:"):
            fr["dst"] = sidx(cid)
            mu, ma = MarchGrp.movable(st, fr)
            if mu == 0:
                fr["nu"] = 0
            return
        if cid.startswith("u:"):
            fr["nu"] = int(target(cid))
            return
        MarchGrp.go(st, fr, facts, fr["nu"], int(target(cid)))

    @staticmethod
    def go(st, fr, facts, nu, na):
        f, src, dst = fr["f"], fr["src"], fr["dst"]
        op = opf(st, fr)
        if dst == BD.ecuador:
            room = 2 - P.fpieces(st["pc"][dst], f)
            nu = min(nu, room)
            na = min(na, room - nu)
        if nu + na == 0:
            pop(st, fr)
            return
        if not op["free"] and not BD.is_loc[dst] and dst not in op.setdefault("paid", []):
            P.set_res(st, f, -1, facts, msg("March into {space}", space=SN[dst]))
            op["paid"].append(dst)
        if op["lim"]:
            op["dest"] = dst
        op.setdefault("groups", []).append(f"{src}>{dst}")
        P.move(st, src, dst, U(f), nu, facts, msg("March"))
        P.move(st, src, dst, A(f), na, facts, msg("March"))
        op["moved"][str(dst)] = op["moved"].get(str(dst), 0) + nu + na
        activate_after_march(st, f, dst, nu, na, op, facts)
        if dst not in op["sel"]:
            op["sel"].append(dst)
        pop(st, fr)


def activate_after_march(st, f, dst, nu, na, op, facts):
    pc = st["pc"][dst]
    s = st["sup"][dst]
    exposed = BD.is_loc[dst] or s > 0 or (f == AUC and s < 0)
    count = nu + na + P.cubes(pc) + (P.guerrillas(pc, FARC) if f == AUC else 0)
    if exposed and count > 3 and not op.get("no_activate"):
        k = P.flip(st, dst, f, nu, True, facts, msg("March 3.3.2"))
        op.setdefault("moved_a", {})
        op["moved_a"][str(dst)] = op["moved_a"].get(str(dst), 0) + na + k
    else:
        op.setdefault("moved_a", {})
        op["moved_a"][str(dst)] = op["moved_a"].get(str(dst), 0) + na


# ====================================================================== 3.3.3 Attack
def attack_removable(st: dict, f: int, i: int, only=None) -> list:
    """Enemy slots removable now: cubes/Guerrillas, then Bases once the Faction has none (3.3.3)."""
    pc = st["pc"][i]
    out = []
    for g in ALL_FACTIONS:
        if g == f or (only is not None and g != only):
            continue
        if g == GOVT:
            units = [s for s in (0, 1) if pc[s]]
            out.extend(units if units else ([2] if pc[GOVT_BASE] else []))
        else:
            units = [s for s in (U(g), A(g)) if pc[s]]
            out.extend(units if units else ([B(g)] if pc[B(g)] else []))
    return out


def capture_shipments(st, f, i, before_ships, facts):
    """3.3.3 / 4.4.2: a Shipment whose holder was removed goes to the executing Faction's Guerrilla."""
    for s in before_ships:
        if s not in st["ship"] and len(st["ship"]) < 4 and P.guerrillas(st["pc"][i], f):
            st["ship"].append([i, f])
            facts.append(fact("shipment", msg("{faction} captures a Shipment in {space}", faction=FN[f], space=SN[i]), space=IDS[i], owner=f))


@frame("attacksp")
class AttackSp:
    """3.3.3 Attack (with 4.3.2 Ambush option)."""

    @staticmethod
    def prompt(st, fr):
        f, i = fr["f"], fr["i"]
        if fr["ph"] == "mode":
            chs = [C("attack", msg("Attack (roll a die)"))]
            op = opf(st, fr)
            if f in (FARC, AUC) and op and op["sa"] is None and op["sa_ok"] and st["pc"][i][U(f)]:
                chs.append(C("ambush", msg("Ambush: Activate 1 Underground Guerrilla, automatic success")))
            return (msg("Attack in {space}", space=SN[i]), "3.3.3", chs)
        chs = [C(f"target:{PIECE_KEYS[s]}", msg("Remove {piece}", piece=PN[s])) for s in attack_removable(st, f, i, fr.get("only"))]
        chs.append(C("done", msg("Remove no more")))
        return (msg("Attack in {space}: remove up to {left} enemy pieces", space=SN[i], left=fr['left']), "3.3.3", chs)

    @staticmethod
    def auto(st, fr, facts):
        f, i = fr["f"], fr["i"]
        if fr["ph"] == "mode":
            op = opf(st, fr)
            if not (f in (FARC, AUC) and op and op["sa"] is None and op["sa_ok"] and st["pc"][i][U(f)]) and not fr.get("ambush"):
                AttackSp.resolve(st, fr, facts, False)
                return True
            if fr.get("ambush"):
                AttackSp.resolve(st, fr, facts, True)
                return True
            return False
        if fr["left"] <= 0 or not attack_removable(st, f, i, fr.get("only")):
            AttackSp.captured(st, fr, facts)
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        f, i = fr["f"], fr["i"]
        if cid in ("attack", "ambush"):
            if cid == "ambush":
                op = opf(st, fr)
                op["sa"] = "ambush"
                mark_sa(st, f)
                facts.append(fact("sa", msg("{faction} Special Activity: Ambush in {space}", faction=FN[f], space=SN[i]), sa="ambush"))
            AttackSp.resolve(st, fr, facts, cid == "ambush")
            return
        if cid == "done":
            AttackSp.captured(st, fr, facts)
            return
        s = PIECE_KEYS.index(target(cid))
        before = [list(x) for x in st["ship"] if x[0] == i]
        ids_before = [id(x) for x in st["ship"]]
        P.remove(st, i, s, 1, facts, msg("{faction} Attack", faction=FN[f]))
        if len(st["ship"]) < len(ids_before):
            fr["lost_ship"] = fr.get("lost_ship", 0) + (len(ids_before) - len(st["ship"]))
        del before
        fr["left"] -= 1

    @staticmethod
    def resolve(st, fr, facts, ambush):
        f, i = fr["f"], fr["i"]
        fr["ph"] = "remove"
        fr["left"] = 0
        if ambush:
            P.flip(st, i, f, 1, True, facts, msg("Ambush"))
            fr["roll1"] = True
            fr["left"] = 2
            return
        P.flip(st, i, f, 99, True, facts, msg("Attack"))
        die = R.roll(st["rng"], 6)
        n = P.guerrillas(st["pc"][i], f) + fr.get("extra_g", 0)
        ok = die <= n
        facts.append(fact("die", (msg("{faction} Attack in {space}: rolled {die} vs {count} Guerrillas - success", faction=FN[f],
                                      space=SN[i], die=die, count=n) if ok else
                                  msg("{faction} Attack in {space}: rolled {die} vs {count} Guerrillas - failure", faction=FN[f],
                                      space=SN[i], die=die, count=n)), value=die, barrier=True,
                          cause=cause_die("3.3.3", die)))
        fr["roll1"] = die == 1
        if ok:
            fr["left"] = 2

    @staticmethod
    def captured(st, fr, facts):
        f, i = fr["f"], fr["i"]
        if fr.get("roll1"):
            P.place(st, i, U(f), 1, facts, msg("Captured Goods 3.3.3"))
        for _ in range(fr.get("lost_ship", 0)):
            if len(st["ship"]) < 4 and P.guerrillas(st["pc"][i], f):
                st["ship"].append([i, f])
                facts.append(fact("shipment", msg("{faction} captures a Shipment in {space}", faction=FN[f], space=SN[i]), space=IDS[i], owner=f))
        pop(st, fr)


# ====================================================================== 3.3.4 Terror
def terror_in(st: dict, f: int, i: int, facts: list, any_g: bool = False, markers: int = 1) -> None:
    pc = st["pc"][i]
    if pc[U(f)]:
        P.flip(st, i, f, 1, True, facts, msg("Terror"))
    elif not any_g:
        return
    if BD.is_loc[i]:
        P.add_sabotage(st, i, facts)
        return
    P.add_terror(st, i, facts, markers)
    if f == FARC:
        P.shift(st, i, -1, facts, msg("FARC Terror 3.3.4"))
    elif st["sup"][i] > 0:
        P.shift(st, i, -1, facts, msg("{faction} Terror 3.3.4", faction=FN[f]))
    elif st["sup"][i] < 0:
        P.shift(st, i, 1, facts, msg("{faction} Terror 3.3.4", faction=FN[f]))
