"""3.2 Government Operations: Train (3.2.1), Patrol (3.2.2), Sweep (3.2.3), Assault (3.2.4)."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import BOARD as BD
from .board import (
    FACTIONS,
    GOVT,
    GOVT_BASE,
    INSURGENTS,
    PIECE_KEYS,
    POLICE,
    TROOPS,
    A,
    B,
    U,
)
from .frames import C, frame, pop, pop_if, push_child, resume_once, target, targets, verb
from .op_common import IDS, blocked_target, opf, sidx, space_choices
from .state import cap, mom
from .texts import FN, PN, SN


def assault_removals(st: dict, i: int, fr: dict | None = None) -> int:
    pc = st["pc"][i]
    troops, police = pc[TROOPS], pc[POLICE]
    fr = fr or {}
    if fr.get("police_as_troops"):
        troops, police = police, 0
    troops += fr.get("extra_troops", 0)
    if BD.mountain[i] and not fr.get("police_as_troops"):
        if cap(st, 9) == "u":
            return troops + police
        n = troops // 4 if cap(st, 9) == "s" else troops // 2
    elif BD.mountain[i]:
        n = troops // 2
    else:
        n = troops
    if BD.is_city[i] or BD.is_loc[i]:
        n += police
    return n


def assault_targets(st: dict, i: int, fr: dict | None = None) -> list:
    pc = st["pc"][i]
    fr = fr or {}
    out = []
    for g in INSURGENTS:
        if fr.get("only") is not None and g != fr["only"]:
            continue
        if blocked_target(st, g) and not fr.get("event"):
            continue
        if pc[A(g)] or (pc[B(g)] and not pc[U(g)] and not pc[A(g)]):
            out.append(g)
    return out


def sweep_dest_ok(st: dict, i: int) -> bool:
    return (not BD.is_loc[i] and P.active_space(st, i) and not P.is_zone(st, i)
            and not (mom(st, 17) and BD.is_dept[i]))


# ====================================================================== 3.2.1 Train
@frame("trainsp")
class TrainSp:
    """3.2.1: place up to 6 cubes in a City or a Department with a Govt Base."""

    @staticmethod
    def prompt(st, fr):
        i = fr["i"]
        at, ap = st["av"][TROOPS], st["av"][POLICE]
        chs = []
        for t in range(0, min(6, at) + 1):
            for p in range(0, min(6 - t, ap) + 1):
                chs.append(C(f"mix:{t}-{p}", msg("Place {t} Troops and {p} Police", t=t, p=p), troops=t, police=p))
        if at + ap < 6 and not fr.get("auto") and 0 not in st["np"]:
            # 1.4.1: a player may take its own cubes off the map to make them Available
            for j in P.spaces(st):
                if j == i:
                    continue
                for k, nm in ((0, "troops"), (1, "police")):
                    if st["pc"][j][k]:
                        chs.append(C(f"take:{IDS[j]}:{nm}", msg("Take 1 {piece} off {space} (Available again, 1.4.1)", piece=PN[k], space=SN[j]),
                                     space=IDS[j]))
        return (msg("Train in {space}: how many Troops and Police?", space=SN[i]), "3.2.1", chs)

    @staticmethod
    def act(st, fr, cid, facts):
        if cid.startswith("take:"):
            sid, nm = targets(cid)
            P.remove(st, BD.index[sid], 0 if nm == "troops" else 1, 1, facts, msg("taken off the map to be placed (1.4.1)"))
            return
        t, p = (int(x) for x in target(cid).split("-"))
        P.place(st, fr["i"], TROOPS, t, facts, msg("Train"))
        P.place(st, fr["i"], POLICE, p, facts, msg("Train"))
        pop(st, fr)


def civic_ok(st: dict, i: int, phase: bool, one_cube_used: bool = True) -> bool:
    """6.4.1 (and card 1): Govt Control, Troops and Police, something to gain."""
    if BD.is_loc[i] or BD.pop[i] <= 0 or not P.active_space(st, i):
        return False
    if st["sup"][i] >= 2 and not st["ter"][i]:
        return False
    pc = st["pc"][i]
    if not P.govt_control(pc):
        return False
    if cap(st, 1) == "s":
        return pc[TROOPS] >= 2 and pc[POLICE] >= 2
    if pc[TROOPS] and pc[POLICE]:
        return True
    return phase and cap(st, 1) == "u" and not one_cube_used and P.cubes(pc) > 0


def civic_spaces(st: dict, phase: bool = True, one_cube_used: bool = False) -> list:
    return [i for i in P.spaces(st) if civic_ok(st, i, phase, one_cube_used)]


@frame("trainx")
class TrainX:
    """3.2.1: then, in 1 selected space, a Base for 3 cubes or Civic Action."""

    @staticmethod
    def prompt(st, fr):
        sel = opf(st, fr)["sel"]
        chs = []
        for i in sel:
            pc = st["pc"][i]
            if P.cubes(pc) >= 3 and st["av"][GOVT_BASE] and P.can_stack_base(st, i):
                chs.append(C(f"base:{IDS[i]}", msg("Replace 3 cubes with a Govt Base in {space}", space=SN[i]), space=IDS[i]))
            if civic_ok(st, i, False) and st["res"][GOVT] >= 3:
                chs.append(C(f"civic:{IDS[i]}", msg("Civic Action in {space}", space=SN[i]), space=IDS[i]))
        chs.append(C("done", msg("Neither")))
        return (msg("Train: build a Base or buy Civic Action in one selected space?"), "3.2.1", chs)

    auto = staticmethod(resume_once)

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "done":
            pop(st, fr)
            return
        fr["went"] = 1
        kind, sid = verb(cid), target(cid)
        i = BD.index[sid]
        if kind == "base":
            push_child(st, fr, "basecubes", f=GOVT, i=i, left=3)
        else:
            push_child(st, fr, "civic", f=GOVT, phase=False, only=i, one_cube=1)


@frame("basecubes")
class BaseCubes:
    """3.2.1: which 3 cubes are replaced by the Base."""

    @staticmethod
    def prompt(st, fr):
        pc = st["pc"][fr["i"]]
        chs = [C(f"piece:{PIECE_KEYS[s]}", msg("Remove {piece}", piece=PN[s])) for s in (0, 1) if pc[s]]
        return (msg("Base in {space}: choose the cubes to replace ({left} left)", space=SN[fr['i']], left=fr['left']), "3.2.1", chs)

    @staticmethod
    def auto(st, fr, facts):
        i = fr["i"]
        pc = st["pc"][i]
        if fr["left"] <= 0:
            P.place(st, i, GOVT_BASE, 1, facts, msg("Train"))
            pop(st, fr)
            return True
        if not (pc[TROOPS] and pc[POLICE]):
            s = 0 if pc[TROOPS] else 1
            P.remove(st, i, s, fr["left"], facts, msg("replaced by a Base (Train)"))
            fr["left"] = 0
            P.place(st, i, GOVT_BASE, 1, facts, msg("Train"))
            pop(st, fr)
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        i = fr["i"]
        s = PIECE_KEYS.index(target(cid))
        P.remove(st, i, s, 1, facts, msg("replaced by a Base (Train)"))
        fr["left"] -= 1


@frame("civic")
class Civic:
    """6.4.1 Civic Action: 3 Resources remove a Terror marker or shift 1 level toward Active Support."""

    @staticmethod
    def cands(st, fr):
        if st["res"][GOVT] < 3:
            return []
        if fr.get("only") is not None:
            i = fr["only"]
            return [i] if civic_ok(st, i, fr["phase"], True) else []
        return civic_spaces(st, fr["phase"], bool(fr.get("one_cube_used")))

    @staticmethod
    def prompt(st, fr):
        chs = space_choices(Civic.cands(st, fr), msg("Civic Action (3 Resources) in {space}"))
        chs.append(C("done", msg("Done with Civic Action")))
        return (msg("Government: buy Civic Action?"), "6.4.1", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, not Civic.cands(st, fr))

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "done":
            pop(st, fr)
            return
        i = sidx(cid)
        pc = st["pc"][i]
        if not (pc[TROOPS] and pc[POLICE]) and cap(st, 1) == "u":
            fr["one_cube_used"] = 1
        P.set_res(st, GOVT, -3, facts, msg("Civic Action in {space}", space=SN[i]))
        if st["ter"][i]:
            st["ter"][i] -= 1
            facts.append(fact("marker", msg("Civic Action removes a Terror marker in {space}", space=SN[i]), space=IDS[i]))
        else:
            P.shift(st, i, 1, facts, msg("Civic Action 6.4.1"))


# ====================================================================== 3.2.2 Patrol
def patrol_reach(st: dict, src: int) -> list:
    """3.2.2: Cities/LoCs a cube can reach, stopping on entering a space with Guerrillas
    (engine/coin/board.py reachability)."""
    idx = BD.index
    pcs = st["pc"]
    zones = st["zones"]

    def can_enter(sid):
        j = idx[sid]
        return not BD.is_dept[j] and j not in zones

    def can_leave(sid):
        return not P.all_guerrillas(pcs[idx[sid]])

    return [idx[s] for s in BD.coin.reachable(IDS[src], can_enter, can_leave)]


def patrol_origins(st: dict, fr: dict) -> list:
    out = []
    fixed = fr["dest"] if fr["lim"] else None
    zones = st["zones"]
    for i in P.spaces(st):
        pc = st["pc"][i]
        if pc[TROOPS] + pc[POLICE] - fr["moved"].get(str(i), 0) <= 0:
            continue
        if fixed is not None:
            if fixed in patrol_reach(st, i):
                out.append(i)
        elif any(not BD.is_dept[j] and j not in zones for j in P.adj(st, i)):
            out.append(i)
    return out


@frame("patrolmv")
class PatrolMv:
    """3.2.2: move one cube along LoCs/Cities."""

    @staticmethod
    def prompt(st, fr):
        src = fr["src"]
        if fr["slot"] is None:
            pc = st["pc"][src]
            chs = [C(f"piece:{PIECE_KEYS[s]}", msg("Move {piece}", piece=PN[s])) for s in (0, 1) if pc[s]]
            return (msg("Patrol from {space}: Troops or Police?", space=SN[src]), "3.2.2", chs)
        r = patrol_reach(st, src)
        op = opf(st, fr)
        if op["lim"] and op["dest"] is not None:
            r = [j for j in r if j == op["dest"]]
        return (msg("Patrol: destination of the cube from {space}", space=SN[src]), "3.2.2", space_choices(r, msg("Move to {space}")))

    @staticmethod
    def auto(st, fr, facts):
        """Only one kind of cube to move: that one, without asking."""
        pc = st["pc"][fr["src"]]
        if fr["slot"] is None and not (pc[TROOPS] and pc[POLICE]):
            fr["slot"] = TROOPS if pc[TROOPS] else POLICE
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        if cid.startswith("piece:"):
            fr["slot"] = PIECE_KEYS.index(target(cid))
            return
        j = sidx(cid)
        op = opf(st, fr)
        P.move(st, fr["src"], j, fr["slot"], 1, facts, msg("Patrol"))
        op["moved"][str(j)] = op["moved"].get(str(j), 0) + 1
        if op["lim"]:
            op["dest"] = j
        pop(st, fr)


def patrol_activate(st: dict, fr: dict, facts: list) -> bool:
    """3.2.2: in each LoC Activate 1 Guerrilla per cube; the Government picks whose Guerrillas
    when cubes are fewer than Underground Guerrillas of several Factions (pushes a frame: True)."""
    if mom(st, 12):
        facts.append(fact("momentum", msg("Plan Colombia: Patrol does not Activate Guerrillas")))
        return False
    ask = []
    for i in BD.locs:
        pc = st["pc"][i]
        n = P.cubes(pc)
        und = [g for g in INSURGENTS if pc[U(g)]]
        if not n or not und:
            continue
        if n >= sum(pc[U(g)] for g in und) or len(und) == 1:
            for g in und:
                n -= P.flip(st, i, g, n, True, facts, msg("Patrol"))
        else:
            ask.append([i, n])
    if ask:
        push_child(st, fr, "patrolact", f=GOVT, ask=ask)
        return True
    return False


@frame("patrolact")
class PatrolAct:
    """3.2.2: whose Underground Guerrilla is Activated on this LoC?"""

    @staticmethod
    def prompt(st, fr):
        i, n = fr["ask"][0]
        pc = st["pc"][i]
        chs = [C(f"target:{FACTIONS[g]}", msg("Activate a {faction} Guerrilla", faction=FN[g])) for g in INSURGENTS if pc[U(g)]]
        return (msg("Patrol on {space}: whose Guerrilla is Activated ({count} left)?", space=SN[i], count=n), "3.2.2", chs)

    @staticmethod
    def act(st, fr, cid, facts):
        i, n = fr["ask"][0]
        P.flip(st, i, FACTIONS.index(target(cid)), 1, True, facts, msg("Patrol"))
        fr["ask"][0][1] = n - 1

    @staticmethod
    def auto(st, fr, facts):
        """Activate without asking where the Government has no choice; ask at the first LoC where it has."""
        while fr["ask"]:
            i, n = fr["ask"][0]
            pc = st["pc"][i]
            und = [g for g in INSURGENTS if pc[U(g)]]
            if n <= 0 or not und:
                fr["ask"].pop(0)
                continue
            if len(und) == 1 or n >= sum(pc[U(g)] for g in und):
                for g in und:
                    n -= P.flip(st, i, g, n, True, facts, msg("Patrol"))
                fr["ask"].pop(0)
                continue
            return False
        pop(st, fr)
        return True


# ====================================================================== 3.2.3 Sweep
def sweep_sources(st: dict, i: int, op: dict) -> list:
    """Spaces whose Troops can reach i: adjacent, or via a Guerrilla-free adjacent LoC."""
    sel = set(op["sel"]) if op else set()
    out = set()
    for j in P.adj(st, i):
        if st["pc"][j][TROOPS] and j not in sel:
            out.add(j)
        if BD.is_loc[j] and not P.all_guerrillas(st["pc"][j]):
            for k in P.adj(st, j):
                if k != i and st["pc"][k][TROOPS] and k not in sel:
                    out.add(k)
    return sorted(out)


@frame("sweepsp")
class SweepSp:
    """3.2.3: move Troops in, then Activate 1 Guerrilla per cube (Forest: per 2 cubes)."""

    @staticmethod
    def prompt(st, fr):
        i = fr["i"]
        if fr["ph"] == "move":
            room = i != BD.ecuador or P.fpieces(st["pc"][i], GOVT) < 2
            chs = [C(f"from:{IDS[j]}", msg("Move 1 Troops from {space}", space=SN[j]), space=IDS[j])
                   for j in (sweep_sources(st, i, opf(st, fr)) if room else [])]
            if cap(st, 11) == "u" and not fr["pol"]:
                for j in P.adj(st, i):
                    if st["pc"][j][POLICE]:
                        chs.append(C(f"police:{IDS[j]}", msg("Move 1 Police from {space} (NDSC)", space=SN[j]), space=IDS[j]))
            chs.append(C("done", msg("Done moving; Activate")))
            return (msg("Sweep into {space}: move Troops", space=SN[i]), "3.2.3", chs)
        chs = [C(f"target:{FACTIONS[g]}", msg("Activate a {faction} Guerrilla", faction=FN[g])) for g in SweepSp.targets(st, fr)]
        return (msg("Sweep in {space}: whose Guerrilla is Activated?", space=SN[i]), "3.2.3", chs)

    @staticmethod
    def targets(st, fr):
        pc = st["pc"][fr["i"]]
        return [g for g in INSURGENTS if pc[U(g)] and (fr.get("event") or not blocked_target(st, g))
                and (fr.get("only") is None or g == fr["only"])]

    @staticmethod
    def auto(st, fr, facts):
        i = fr["i"]
        if fr["ph"] == "act":
            ts = SweepSp.targets(st, fr)
            if fr["left"] <= 0 or not ts:
                pop(st, fr)
                return True
            if len(ts) == 1:
                n = P.flip(st, i, ts[0], fr["left"], True, facts, msg("Sweep"))
                fr["left"] -= n
                pop(st, fr)
                return True
        if fr["ph"] == "move" and fr.get("nomove"):
            SweepSp.to_act(st, fr, facts)
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        i = fr["i"]
        if cid == "done":
            SweepSp.to_act(st, fr, facts)
            return
        if cid.startswith("from:"):
            P.move(st, sidx(cid), i, TROOPS, 1, facts, msg("Sweep"))
            return
        if cid.startswith("police:"):
            P.move(st, sidx(cid), i, POLICE, 1, facts, msg("Sweep (NDSC)"))
            fr["pol"] = 1
            return
        g = FACTIONS.index(target(cid))
        P.flip(st, i, g, 1, True, facts, msg("Sweep"))
        fr["left"] -= 1

    @staticmethod
    def to_act(st, fr, facts):
        i = fr["i"]
        pc = st["pc"][i]
        if i == BD.panama:
            n = 0
        else:
            n = max(pc[TROOPS], pc[POLICE]) if cap(st, 11) == "s" else pc[TROOPS] + pc[POLICE]
            n += fr.get("extra_troops", 0)
            if BD.forest[i]:
                n //= 2
        fr["left"] = n
        fr["ph"] = "act"


# ====================================================================== 3.2.4 Assault
def assault_remove_one(st: dict, i: int, g: int, facts: list) -> None:
    before = len(st["ship"])
    pc = st["pc"][i]
    if pc[A(g)]:
        P.remove(st, i, A(g), 1, facts, msg("Assault"))
    elif not pc[U(g)] and pc[B(g)]:
        P.remove(st, i, B(g), 1, facts, msg("Assault"))
    lost = before - len(st["ship"])
    if lost:
        P.set_aid(st, 6 * lost, facts, msg("Drug Bust 3.2.5"))


@frame("assaultsp")
class AssaultSp:
    """3.2.4: remove Active Guerrillas per Troops (Bases last); Police count in Cities and on LoCs."""

    @staticmethod
    def prompt(st, fr):
        ts = assault_targets(st, fr["i"], fr)
        chs = [C(f"target:{FACTIONS[g]}", msg("Remove a {faction} piece", faction=FN[g])) for g in ts]
        return (msg("Assault in {space}: whose piece is removed ({left} left)?", space=SN[fr['i']], left=fr['left']), "3.2.4", chs)

    @staticmethod
    def auto(st, fr, facts):
        i = fr["i"]
        ts = assault_targets(st, i, fr)
        if fr["left"] <= 0 or not ts:
            pop(st, fr)
            return True
        if len(ts) == 1:
            assault_remove_one(st, i, ts[0], facts)
            fr["left"] -= 1
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        assault_remove_one(st, fr["i"], FACTIONS.index(target(cid)), facts)
        fr["left"] -= 1
