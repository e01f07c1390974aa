"""3.0 Operations and 4.0 Special Activities, as prompt sequences.

Operations are paid space by space as they go (3.1 note). A Special Activity may be
executed before, between or after the Operation's spaces (4.1): the Operation prompt
offers ``sa:<name>`` until one is used. LimOps (2.3.5) allow one (destination) space
and no Special Activity.
"""

from __future__ import annotations

from engine.core import rng as R
from engine.core.contract import fact

from . import pieces as P
from .board import BOARD as BD
from .board import FACTIONS, FNAME, PIECE_KEYS, PIECE_NAMES, A, B, U
from .frames import C, frame, pop, push, resume_once, wait
from .game import SAS, cap, is_np, mark_sa, mom

IDS = BD.ids
NAME = BD.name


def opf(st: dict, fr: dict):
    """The Operation frame a child frame belongs to (frames refer to each other by stack index)."""
    i = fr.get("opi")
    return st["stack"][i] if i is not None else None


def sp(i: int) -> str:
    return f"space:{IDS[i]}"


def sidx(cid: str) -> int:
    return BD.index[cid.split(":", 1)[1]]


_SPACE_CHOICES: dict = {}


def space_choices(ids, verb: str) -> list:
    """``space:<id>`` choices (cached: Choice objects are immutable)."""
    out = []
    for i in ids:
        c = _SPACE_CHOICES.get((verb, i))
        if c is None:
            c = _SPACE_CHOICES[(verb, i)] = C(f"space:{IDS[i]}", f"{verb} {NAME[i]}", space=IDS[i])
        out.append(c)
    return out


# ====================================================================== costs
def op_cost(st: dict, f: int, op: str, i: int) -> int:
    if f == 0:
        if op == "sweep" and cap(st, 2) == "u":
            return 1
        if op == "assault" and cap(st, 3) == "u":
            return 1
        return 3
    if op == "terror" and BD.is_loc[i]:
        return 0
    if op == "march":
        return 0 if BD.is_loc[i] else 1
    return 1


def blocked_target(st: dict, g: int) -> bool:
    """Card 42 shaded (Momentum): no Sweep or Assault may target the executing Faction."""
    return g in st.get("m42", []) and mom(st, 42)


# ====================================================================== candidate spaces
def rally_space_ok(st: dict, f: int, i: int, elite: bool = False, total_g: int | None = None) -> bool:
    if BD.is_loc[i] or not P.active_space(st, i):
        return False
    s = st["sup"][i]
    if f == 1 and s > 0:
        return False
    if f == 2 and s < 0:
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


def assault_removals(st: dict, i: int, fr: dict | None = None) -> int:
    pc = st["pc"][i]
    troops, police = pc[0], pc[1]
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
    for g in (1, 2, 3):
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


def attack_targets(st: dict, f: int, i: int, only=None) -> list:
    pc = st["pc"][i]
    out = []
    for g in range(4):
        if g == f or (only is not None and g != only):
            continue
        if P.fpieces(pc, g):
            out.append(g)
    return out


def terror_ok(st: dict, f: int, i: int, any_g: bool = False) -> bool:
    pc = st["pc"][i]
    return P.active_space(st, i) and (pc[U(f)] > 0 or (any_g and pc[A(f)] > 0))


def extort_ok(st: dict, f: int, i: int) -> bool:
    pc = st["pc"][i]
    if not pc[U(f)]:
        return False
    mine = P.fpieces(pc, f)
    return mine > sum(pc) - mine


def space_candidates(st: dict, f: int, op: str, fr: dict, first: bool = False) -> list:
    """Spaces that may be selected now for Operation ``op`` (3.1: each at most once).

    ``first``: stop at the first candidate (for "is the Operation possible at all?")."""
    sel = fr["sel"]
    res = st["res"][f]
    free = fr["free"]
    only = fr.get("only_spaces")
    out = []
    flat = op not in ("terror", "march")
    if flat and not free and op_cost(st, f, op, 0) > res:
        return out
    if sel and ((op == "sweep" and cap(st, 2) == "s") or (op == "assault" and cap(st, 3) == "s")):
        return out  # cards 2 / 3 shaded: a single space
    zones = st["zones"]
    total_g = P.count_on_map(st, U(f)) + P.count_on_map(st, A(f)) if op == "rally" else 0
    is_loc = BD.is_loc
    for i in P.spaces(st):
        if i in sel or (only is not None and i not in only):
            continue
        if not flat and not free and op_cost(st, f, op, i) > res:
            continue
        pc = st["pc"][i]
        if op == "train":
            if is_loc[i] or i in zones:
                continue
        elif op == "sweep":
            if is_loc[i] or not sweep_dest_ok(st, i):
                continue
        elif op == "assault":
            if not (pc[4] or pc[7] or pc[10] or pc[5] or pc[8] or pc[11]):
                continue
            if mom(st, 17) and BD.is_dept[i]:
                continue
            if not assault_targets(st, i) or assault_removals(st, i) <= 0:
                continue
        elif op == "rally":
            if is_loc[i] or not rally_space_ok(st, f, i, total_g=total_g):
                continue
        elif op == "attack":
            if not (pc[3 * f] or pc[3 * f + 1]) or not attack_targets(st, f, i):
                continue
        elif op == "terror":
            if not pc[U(f)] or not P.active_space(st, i):
                continue
        out.append(i)
        if first:
            return out
    return out


def op_possible(st: dict, f: int, op: str, lim: bool) -> bool:
    res = st["res"][f]
    if op == "patrol":
        return res >= 3 and any(P.cubes(st["pc"][i]) for i in P.spaces(st))
    if op == "march":
        return any(P.guerrillas(st["pc"][i], f) for i in P.spaces(st))
    fr = {"sel": [], "free": False}
    if space_candidates(st, f, op, fr, first=True):
        return True
    # 4.1: an Air Lift may come first and make the Assault or Sweep possible
    if f == 0 and not lim and op in ("assault", "sweep") and res >= op_cost(st, 0, op, 0) and airlift_from(st):
        return True
    # 3.1 note: Insurgents at 0 Resources may Extort / Process first, then pay
    if not lim and f in (1, 2) and res == 0 and op in ("rally", "attack", "terror"):
        return any(extort_ok(st, f, i) for i in P.spaces(st)) and space_candidates(
            st, f, op, {"sel": [], "free": True}, first=True)
    return False


# ====================================================================== Operation controller
def start_op(st: dict, f: int, op: str, lim: bool, free: bool, facts: list, auto=None, **extra) -> dict:
    fr = {"k": "op", "f": f, "op": op, "lim": lim, "free": free, "sa": None, "sa_ok": not lim and not extra.get("no_sa"),
          "sel": [], "ph": "sel", "auto": auto, "terror_n": 0, "moved": {}, "dest": None}
    fr.update(extra)
    facts.append(fact("op", f"{FNAME[f]} {'Limited ' if lim else ''}{op.capitalize()}{' (free)' if free else ''}",
                      faction=FACTIONS[f], op=op, limited=lim, free=free))
    if op == "patrol" and not free:
        P.set_res(st, f, -3, facts, "Patrol 3.2.2")
    push(st, fr)
    return fr


def sa_candidates(st: dict, f: int, fr: dict) -> list:
    if not fr["sa_ok"] or fr["sa"] is not None:
        return []
    op = fr["op"]
    out = []
    for sa in SAS[f]:
        if sa == "ambush":
            continue  # chosen inside an Attack space (4.3.2)
        if sa_possible(st, f, sa, fr, op):
            out.append(sa)
    return out


def sa_possible(st: dict, f: int, sa: str, fr: dict, op: str) -> bool:
    """Whether Special Activity ``sa`` could be executed now (existence checks stop early)."""
    sps = P.spaces(st)
    pcs = st["pc"]
    if sa == "airlift":
        m27 = mom(st, 27)
        zones = st["zones"]
        return any(pcs[i][0] and i not in zones and not (m27 and P.all_guerrillas(pcs[i])) for i in sps)
    if sa == "airstrike":
        if op not in ("patrol", "sweep", "assault") or mom(st, 12):
            return False
        m27 = mom(st, 27)
        return any(not BD.is_city[i] and not (m27 and P.all_guerrillas(pcs[i])) and airstrike_targets(st, i)
                   for i in sps)
    if sa == "eradicate":
        m27 = mom(st, 27)
        return any(BD.is_dept[i] and (pcs[i][9] or pcs[i][10] or pcs[i][11])
                   and not (m27 and P.all_guerrillas(pcs[i])) for i in sps)
    if sa == "extort":
        return any(extort_ok(st, f, i) for i in sps)
    if sa == "kidnap":
        return op == "terror" and bool(kidnap_spaces(st, fr))
    if sa == "assassinate":
        return op == "terror" and bool(assassinate_spaces(st, fr))
    if sa == "cultivate":
        return op in ("rally", "march") and bool(cultivate_dests(st, fr))
    if sa == "process":
        return op in ("rally", "march") and any(pcs[i][11] for i in sps)
    if sa == "bribe":
        return st["res"][3] >= 3 and any(any(pcs[i][k] for k in range(9)) for i in sps)
    return False


SA_FRAME = {"airlift": "airlift", "airstrike": "airstrike", "eradicate": "eradicate", "extort": "extort",
            "kidnap": "kidnap", "assassinate": "assassinate", "cultivate": "cultivate", "process": "process",
            "bribe": "bribe"}


@frame("op")
class Op:
    """3.1: select spaces one at a time (paying as you go), then Done."""

    @staticmethod
    def prompt(st, fr):
        f, op = fr["f"], fr["op"]
        chs = []
        if fr["ph"] == "patrol_assault":
            locs = [i for i in BD.locs if assault_targets(st, i) and assault_removals(st, i) > 0]
            if fr["lim"] and fr["dest"] is not None:
                locs = [i for i in locs if i == fr["dest"]]
            chs = space_choices(locs, "Free Assault on")
            chs.append(C("none", "No Assault"))
            return ("Patrol: free Assault in 1 LoC?", "3.2.2", chs)
        if op == "patrol":
            for i in patrol_origins(st, fr):
                chs.append(C(f"from:{IDS[i]}", f"Move a cube from {NAME[i]}", space=IDS[i]))
        elif op == "march":
            for i in march_origins(st, fr):
                chs.append(C(f"from:{IDS[i]}", f"March Guerrillas out of {NAME[i]}", space=IDS[i]))
        elif not (fr["lim"] and fr["sel"]):
            chs = space_choices(space_candidates(st, f, op, fr), f"{op.capitalize()} in")
        for sa in sa_candidates(st, f, fr):
            chs.append(C(f"sa:{sa}", f"Special Activity: {sa.capitalize()}"))
        if fr["sel"] or op in ("patrol", "march") or not chs or fr.get("free"):
            chs.append(C("done", f"Done with {op.capitalize()}"))
        if not fr.get("auto") and transfer_targets(st, f):
            chs.append(C("give", "Transfer Resources or a Shipment to another Faction (1.5.2)"))
        if not fr.get("auto"):
            for g in transfer_donors(st, f, fr):
                chs.append(C(f"ask:{FACTIONS[g]}", f"Ask {FNAME[g]} for a transfer (1.5.2)"))
        limtxt = " (Limited: 1 space)" if fr["lim"] else ""
        return (f"{FNAME[f]} {op.capitalize()}{limtxt}: choose the next space, a Special Activity, or Done",
                RULE_OF[op], chs)

    @staticmethod
    def step(st, fr, facts, cid):
        f, op = fr["f"], fr["op"]
        if cid is None:
            if fr["ph"] == "finish":
                finish_op(st, fr, facts)
                return
            if fr["ph"] == "patrol_act":
                Op.patrol_assault(st, fr, facts)
                return
            wait(fr)
            return
        if cid == "give":
            push(st, {"k": "give", "f": f, "to": None})
            return
        if cid.startswith("ask:"):
            g = FACTIONS.index(cid[4:])
            fr.setdefault("asked", []).append(g)
            push(st, {"k": "give", "f": g, "to": f, "asked": 1})
            return
        if cid.startswith("sa:"):
            sa = cid[3:]
            fr["sa"] = sa
            mark_sa(st, f)
            facts.append(fact("sa", f"{FNAME[f]} Special Activity: {sa.capitalize()}", faction=FACTIONS[f], sa=sa))
            push(st, {"k": SA_FRAME[sa], "f": f, "opi": len(st["stack"]) - 1, "auto": fr.get("auto"), "ph": "a", "n": 0, "done": []})
            return
        if fr["ph"] == "patrol_assault":
            if cid == "none":
                fr["ph"] = "finish"
                return
            i = sidx(cid)
            fr["ph"] = "finish"
            push(st, {"k": "assaultsp", "f": 0, "i": i, "left": assault_removals(st, i), "auto": fr.get("auto")})
            return
        if cid == "done":
            if op == "patrol":
                fr["ph"] = "patrol_act"
                if patrol_activate(st, fr, facts):
                    return
                Op.patrol_assault(st, fr, facts)
                return
            elif op == "train":
                fr["ph"] = "finish"
                push(st, {"k": "trainx", "f": 0, "opi": len(st["stack"]) - 1, "auto": fr.get("auto")})
                return
            fr["ph"] = "finish"
            return
        if op == "patrol":
            push(st, {"k": "patrolmv", "f": 0, "src": sidx(cid), "opi": len(st["stack"]) - 1, "auto": fr.get("auto"), "slot": None})
            return
        Op.select(st, fr, facts, cid)

    @staticmethod
    def patrol_assault(st, fr, facts):
        """3.2.2 / card 13: after Activation, a free Assault in 1 LoC (every LoC / none)."""
        if cap(st, 13) == "s":
            fr["ph"] = "finish"
        elif cap(st, 13) == "u":
            fr["ph"] = "finish"
            # card 13 unshaded: a free Assault in every LoC; the Government picks the targets
            for i in reversed(BD.locs):
                if assault_targets(st, i) and assault_removals(st, i) > 0:
                    push(st, {"k": "assaultsp", "f": 0, "i": i, "left": assault_removals(st, i),
                              "auto": fr.get("auto")})
        else:
            fr["ph"] = "patrol_assault"
            wait(fr)

    @staticmethod
    def select(st, fr, facts, cid):
        f, op = fr["f"], fr["op"]
        if op == "march":
            push(st, {"k": "marchgrp", "f": f, "src": sidx(cid), "opi": len(st["stack"]) - 1, "auto": fr.get("auto"), "dst": None,
                      "nu": None})
            return
        i = sidx(cid)
        fr["sel"].append(i)
        if not fr["free"]:
            P.set_res(st, f, -op_cost(st, f, op, i), facts, f"{op.capitalize()} in {NAME[i]}")
        if op == "train":
            if BD.is_city[i] or st["pc"][i][2]:
                push(st, {"k": "trainsp", "f": 0, "i": i, "auto": fr.get("auto")})
            else:
                wait(fr)
        elif op == "sweep":
            push(st, {"k": "sweepsp", "f": 0, "i": i, "opi": len(st["stack"]) - 1, "auto": fr.get("auto"), "ph": "move", "pol": 0})
        elif op == "assault":
            push(st, {"k": "assaultsp", "f": 0, "i": i, "left": assault_removals(st, i), "auto": fr.get("auto")})
        elif op == "rally":
            push(st, {"k": "rallysp", "f": f, "i": i, "opi": len(st["stack"]) - 1, "auto": fr.get("auto")})
        elif op == "attack":
            push(st, {"k": "attacksp", "f": f, "i": i, "opi": len(st["stack"]) - 1, "auto": fr.get("auto"), "ph": "mode",
                      "only": fr.get("only")})
        elif op == "terror":
            terror_in(st, f, i, facts, any_g=fr.get("any_g", False))
            fr["terror_n"] += 1
            wait(fr)


def transfer_targets(st: dict, f: int) -> list:
    """1.5.2: a player Faction may give Resources or Shipments during its own execution, to a
    Faction not run by the same player (1.5.1)."""
    if f in st["np"] or st["opts"].get("transfers") is False:
        return []
    if not st["res"][f] and not any(x[1] == f for x in st["ship"]):
        return []
    return [g for g in range(4) if g != f and st["ctl"][g] != st["ctl"][f]]


def transfer_donors(st: dict, f: int, fr: dict) -> list:
    """1.5.2: during f's execution, player Factions of other seats may give to f (asked once per
    Operation; their own seat then decides what, if anything, to give)."""
    if st["opts"].get("transfers") is False or f in st["np"]:
        return []
    out = []
    for g in range(4):
        if g == f or g in st["np"] or st["ctl"][g] == st["ctl"][f] or g in fr.get("asked", ()):
            continue
        if st["res"][g] or any(x[1] == g and P.guerrillas(st["pc"][x[0]], f) for x in st["ship"]):
            out.append(g)
    return out


@frame("give")
class Give:
    """1.5.2 Negotiation: voluntary transfer of Resources or a Shipment."""

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        if fr["to"] is None:
            chs = [C(f"to:{FACTIONS[g]}", f"Give to {FNAME[g]}") for g in transfer_targets(st, f)]
            chs.append(C("done", "No transfer"))
            return (f"{FNAME[f]}: transfer to which Faction?", "1.5.2", chs)
        g = fr["to"]
        chs = [C(f"n:{n}", f"{n} Resources", n=n) for n in range(1, st["res"][f] + 1)]
        for k, x in enumerate(st["ship"]):
            if x[1] == f and P.guerrillas(st["pc"][x[0]], g):
                chs.append(C(f"ship:{k}", f"The Shipment in {NAME[x[0]]}", space=IDS[x[0]]))
        chs.append(C("done", "Nothing"))
        if fr.get("asked"):
            return (f"{FNAME[g]} asks {FNAME[f]} for a transfer: what do you give?", "1.5.2", chs)
        return (f"{FNAME[f]}: what goes to {FNAME[g]}?", "1.5.2", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            wait(fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        f = fr["f"]
        if cid.startswith("to:"):
            fr["to"] = FACTIONS.index(cid[3:])
            wait(fr)
            return
        g = fr["to"]
        if cid.startswith("n:"):
            n = int(cid[2:])
            P.set_res(st, f, -n, facts, f"transfer to {FNAME[g]} (1.5.2)")
            P.set_res(st, g, n, facts, f"transfer from {FNAME[f]} (1.5.2)")
        else:
            x = st["ship"][int(cid[5:])]
            x[1] = g
            facts.append(fact("shipment", f"{FNAME[f]} gives the Shipment in {NAME[x[0]]} to {FNAME[g]} (1.5.2)",
                              space=IDS[x[0]], owner=FACTIONS[g]))
        pop(st, fr)


RULE_OF = {"train": "3.2.1", "patrol": "3.2.2", "sweep": "3.2.3", "assault": "3.2.4", "rally": "3.3.1",
           "march": "3.3.2", "attack": "3.3.3", "terror": "3.3.4"}


def finish_op(st: dict, fr: dict, facts: list) -> None:
    f = fr["f"]
    pop(st, fr)
    if fr["op"] == "march":
        st["last_march"] = list(fr["sel"])
    if f == 2 and fr["terror_n"]:
        aid_cut(st, fr["terror_n"], facts)
    # 2.3.6 Ship: paid Operation without Special Activity, by a player Faction, once per card
    s = st["sop"]
    if (not fr["free"] and fr["sa"] is None and not is_np(st, f) and s and not s.get("prop")
            and f not in s.get("shipped", []) and (ship_owners(st, f) or ship_lenders(st, f))):
        push(st, {"k": "ship", "f": f, "refused": []})


def aid_cut(st: dict, n: int, facts: list) -> None:
    P.set_aid(st, -3 if n == 1 else -5, facts, "AUC Terror Aid cut 3.3.4")


def ship_owners(st: dict, f: int) -> list:
    """Shipments that may pay for f's free LimOp: its own, or those of Factions run by the same seat."""
    seat = st["ctl"][f]
    return [k for k, s in enumerate(st["ship"]) if st["ctl"][s[1]] == seat and s[1] not in st["np"]]


def ship_lenders(st: dict, f: int, refused=()) -> list:
    """2.3.6 'a different Faction may remove its own Shipment': player Factions of other seats
    owning a Shipment (4.5.3: the holder's Faction); Non-players never give (8.1.2)."""
    seat = st["ctl"][f]
    return sorted({s[1] for s in st["ship"] if st["ctl"][s[1]] != seat and s[1] not in st["np"]
                   and s[1] not in refused})


@frame("ship")
class Ship:
    """2.3.6 Ship: remove a Shipment for an extra free Limited Operation. The Shipment is one the
    executing Faction owns (or a Faction of the same seat), or another player Faction agrees to
    remove one of its own (``ask:<faction>``, answered by that seat in frame ``shipask``); a
    Shipment held by another Faction's Guerrilla belongs to that Faction (4.5.3), so it is never
    taken without its owner's consent."""

    @staticmethod
    def distinct(st, f):
        seen, out = set(), []
        for k in ship_owners(st, f):
            key = tuple(st["ship"][k])
            if key not in seen:
                seen.add(key)
                out.append(k)
        return out

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        if fr.get("op"):
            chs = []
            for k in Ship.distinct(st, f):
                sp_, g = st["ship"][k]
                chs.append(C(f"ship:{IDS[sp_]}:{FACTIONS[g]}", f"Remove the {FNAME[g]} Shipment in {NAME[sp_]}",
                             space=IDS[sp_], owner=FACTIONS[g]))
            for g in ship_lenders(st, f, fr.get("refused", ())):
                chs.append(C(f"ask:{FACTIONS[g]}", f"Ask {FNAME[g]} to remove one of its Shipments"))
            if not Ship.distinct(st, f):
                chs.append(C("noship", "Do not Ship"))
            return (f"{FNAME[f]}: which Shipment is removed?", "2.3.6", chs)
        from .game import OPS, final_event_card
        chs = [C("noship", "Do not Ship")]
        if ship_owners(st, f) or ship_lenders(st, f, fr.get("refused", ())):
            for o in OPS[0 if f == 0 else 1]:
                if final_event_card(st) and o in ("sweep", "march"):
                    continue
                fake = {"sel": [], "free": True}
                if o in ("patrol", "march") or space_candidates(st, f, o, fake):
                    chs.append(C(f"ship:{o}", f"Remove a Shipment: free Limited {o.capitalize()}"))
        return (f"{FNAME[f]}: remove a Shipment for a free Limited Operation?", "2.3.6", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        f = fr["f"]
        if cid is None:
            if fr.get("went"):
                pop(st, fr)
            elif fr.get("lent") is not None:
                Ship.go(st, fr, facts, fr.pop("lent"))
            elif fr.get("op") and not (Ship.distinct(st, f) or ship_lenders(st, f, fr.get("refused", ()))):
                pop(st, fr)   # every asked Faction refused
            else:
                wait(fr)
            return
        if cid == "noship":
            pop(st, fr)
            return
        if cid.startswith("ask:"):
            g = FACTIONS.index(cid[4:])
            push(st, {"k": "shipask", "f": g, "to": f, "op": fr["op"]})
            return
        if not fr.get("op"):
            fr["op"] = cid[5:]
            ks = Ship.distinct(st, f)
            if len(ks) != 1 or ship_lenders(st, f, fr.get("refused", ())):
                wait(fr)  # 2.3.6 / 4.5.3: the owner picks which Shipment, or asks another Faction
                return
            k = ks[0]
        else:
            _, sid, g = cid.split(":")
            k = next(k for k in Ship.distinct(st, f)
                     if st["ship"][k][0] == BD.index[sid] and st["ship"][k][1] == FACTIONS.index(g))
        Ship.go(st, fr, facts, k)

    @staticmethod
    def go(st, fr, facts, k):
        f = fr["f"]
        s = st["ship"].pop(k)
        by = "" if s[1] == f else f" (removed by its owner, {FNAME[s[1]]})"
        facts.append(fact("shipment", f"{FNAME[f]} Ships: Shipment in {NAME[s[0]]} removed for a free Limited "
                          f"Operation{by}", space=IDS[s[0]], owner=FACTIONS[s[1]]))
        st["sop"].setdefault("shipped", []).append(f)
        fr["went"] = 1
        start_op(st, f, fr["op"], lim=True, free=True, facts=facts)


@frame("shipask")
class ShipAsk:
    """2.3.6: the asked Faction's seat decides whether to remove one of its own Shipments so that
    the executing Faction gets the free Limited Operation."""

    @staticmethod
    def prompt(st, fr):
        g, f = fr["f"], fr["to"]
        seen, chs = set(), []
        for sp_, o in st["ship"]:
            if o == g and sp_ not in seen:
                seen.add(sp_)
                chs.append(C(f"ship:{IDS[sp_]}:{FACTIONS[g]}", f"Remove your Shipment in {NAME[sp_]}", space=IDS[sp_]))
        chs.append(C("refuse", "Refuse"))
        return (f"{FNAME[g]}: remove one of your Shipments so that {FNAME[f]} gets a free Limited "
                f"{fr['op'].capitalize()}?", "2.3.6", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            wait(fr)
            return
        pop(st, fr)
        parent = st["stack"][-1]
        if cid == "refuse":
            parent.setdefault("refused", []).append(fr["f"])
            facts.append(fact("shipment", f"{FNAME[fr['f']]} refuses to remove a Shipment for {FNAME[fr['to']]}"))
            return
        _, sid, _ = cid.split(":")
        parent["lent"] = next(k for k, s_ in enumerate(st["ship"]) if s_[0] == BD.index[sid] and s_[1] == fr["f"])


# ====================================================================== 3.2.1 Train
@frame("trainsp")
class TrainSp:
    """3.2.1: place up to 6 cubes in a City or a Department with a Govt Base."""

    @staticmethod
    def prompt(st, fr):
        i = fr["i"]
        at, ap = st["av"][0], st["av"][1]
        chs = []
        for t in range(0, min(6, at) + 1):
            for p in range(0, min(6 - t, ap) + 1):
                chs.append(C(f"mix:{t}-{p}", f"Place {t} Troops and {p} Police", troops=t, police=p))
        if at + ap < 6 and not fr.get("auto") and 0 not in st["np"]:
            # 1.4.1: a player may take its own cubes off the map to make them Available
            for j in P.spaces(st):
                if j == i:
                    continue
                for k, nm in ((0, "troops"), (1, "police")):
                    if st["pc"][j][k]:
                        chs.append(C(f"take:{IDS[j]}:{nm}", f"Take 1 {PIECE_NAMES[k]} off {NAME[j]} (Available again, 1.4.1)",
                                     space=IDS[j]))
        return (f"Train in {NAME[i]}: how many Troops and Police?", "3.2.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            wait(fr)
            return
        if cid.startswith("take:"):
            _, sid, nm = cid.split(":")
            P.remove(st, BD.index[sid], 0 if nm == "troops" else 1, 1, facts, "taken off the map to be placed (1.4.1)")
            wait(fr)
            return
        t, p = (int(x) for x in cid[4:].split("-"))
        P.place(st, fr["i"], 0, t, facts, "Train")
        P.place(st, fr["i"], 1, p, facts, "Train")
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
        return pc[0] >= 2 and pc[1] >= 2
    if pc[0] and pc[1]:
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
            if P.cubes(pc) >= 3 and st["av"][2] and P.can_stack_base(st, i):
                chs.append(C(f"base:{IDS[i]}", f"Replace 3 cubes with a Govt Base in {NAME[i]}", space=IDS[i]))
            if civic_ok(st, i, False) and st["res"][0] >= 3:
                chs.append(C(f"civic:{IDS[i]}", f"Civic Action in {NAME[i]}", space=IDS[i]))
        chs.append(C("done", "Neither"))
        return ("Train: build a Base or buy Civic Action in one selected space?", "3.2.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            resume_once(st, fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        fr["went"] = 1
        kind, sid = cid.split(":")
        i = BD.index[sid]
        if kind == "base":
            push(st, {"k": "basecubes", "f": 0, "i": i, "left": 3, "auto": fr.get("auto")})
        else:
            push(st, {"k": "civic", "f": 0, "phase": False, "only": i, "auto": fr.get("auto"), "one_cube": 1})


@frame("basecubes")
class BaseCubes:
    """3.2.1: which 3 cubes are replaced by the Base."""

    @staticmethod
    def prompt(st, fr):
        pc = st["pc"][fr["i"]]
        chs = [C(f"piece:{PIECE_KEYS[s]}", f"Remove {PIECE_NAMES[s]}") for s in (0, 1) if pc[s]]
        return (f"Base in {NAME[fr['i']]}: choose the cubes to replace ({fr['left']} left)", "3.2.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        i = fr["i"]
        if cid is None:
            pc = st["pc"][i]
            if fr["left"] <= 0:
                P.place(st, i, 2, 1, facts, "Train")
                pop(st, fr)
            elif not (pc[0] and pc[1]):
                s = 0 if pc[0] else 1
                P.remove(st, i, s, fr["left"], facts, "replaced by a Base (Train)")
                fr["left"] = 0
                P.place(st, i, 2, 1, facts, "Train")
                pop(st, fr)
            else:
                wait(fr)
            return
        s = PIECE_KEYS.index(cid[6:])
        P.remove(st, i, s, 1, facts, "replaced by a Base (Train)")
        fr["left"] -= 1


@frame("civic")
class Civic:
    """6.4.1 Civic Action: 3 Resources remove a Terror marker or shift 1 level toward Active Support."""

    @staticmethod
    def cands(st, fr):
        if st["res"][0] < 3:
            return []
        if fr.get("only") is not None:
            i = fr["only"]
            return [i] if civic_ok(st, i, fr["phase"], True) else []
        return civic_spaces(st, fr["phase"], bool(fr.get("one_cube_used")))

    @staticmethod
    def prompt(st, fr):
        chs = space_choices(Civic.cands(st, fr), "Civic Action (3 Resources) in")
        chs.append(C("done", "Done with Civic Action"))
        return ("Government: buy Civic Action?", "6.4.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if Civic.cands(st, fr):
                wait(fr)
            else:
                pop(st, fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        i = sidx(cid)
        pc = st["pc"][i]
        if not (pc[0] and pc[1]) and cap(st, 1) == "u":
            fr["one_cube_used"] = 1
        P.set_res(st, 0, -3, facts, f"Civic Action in {NAME[i]}")
        if st["ter"][i]:
            st["ter"][i] -= 1
            facts.append(fact("marker", f"Civic Action removes a Terror marker in {NAME[i]}", space=IDS[i]))
        else:
            P.shift(st, i, 1, facts, "Civic Action 6.4.1")


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
        if pc[0] + pc[1] - fr["moved"].get(str(i), 0) <= 0:
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
            chs = [C(f"piece:{PIECE_KEYS[s]}", f"Move {PIECE_NAMES[s]}") for s in (0, 1) if pc[s]]
            return (f"Patrol from {NAME[src]}: Troops or Police?", "3.2.2", chs)
        r = patrol_reach(st, src)
        op = opf(st, fr)
        if op["lim"] and op["dest"] is not None:
            r = [j for j in r if j == op["dest"]]
        return (f"Patrol: destination of the cube from {NAME[src]}", "3.2.2", space_choices(r, "Move to"))

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            pc = st["pc"][fr["src"]]
            if fr["slot"] is None and not (pc[0] and pc[1]):
                fr["slot"] = 0 if pc[0] else 1
            wait(fr)
            return
        if cid.startswith("piece:"):
            fr["slot"] = PIECE_KEYS.index(cid[6:])
            wait(fr)
            return
        j = sidx(cid)
        op = opf(st, fr)
        P.move(st, fr["src"], j, fr["slot"], 1, facts, "Patrol")
        op["moved"][str(j)] = op["moved"].get(str(j), 0) + 1
        if op["lim"]:
            op["dest"] = j
        pop(st, fr)


def patrol_activate(st: dict, fr: dict, facts: list) -> bool:
    """3.2.2: in each LoC Activate 1 Guerrilla per cube; the Government picks whose Guerrillas
    when cubes are fewer than Underground Guerrillas of several Factions (pushes a frame: True)."""
    if mom(st, 12):
        facts.append(fact("momentum", "Plan Colombia: Patrol does not Activate Guerrillas"))
        return False
    ask = []
    for i in BD.locs:
        pc = st["pc"][i]
        n = P.cubes(pc)
        und = [g for g in (1, 2, 3) if pc[U(g)]]
        if not n or not und:
            continue
        if n >= sum(pc[U(g)] for g in und) or len(und) == 1:
            for g in und:
                n -= P.flip(st, i, g, n, True, facts, "Patrol")
        else:
            ask.append([i, n])
    if ask:
        push(st, {"k": "patrolact", "f": 0, "ask": ask, "auto": fr.get("auto")})
        return True
    return False


@frame("patrolact")
class PatrolAct:
    """3.2.2: whose Underground Guerrilla is Activated on this LoC?"""

    @staticmethod
    def prompt(st, fr):
        i, n = fr["ask"][0]
        pc = st["pc"][i]
        chs = [C(f"target:{FACTIONS[g]}", f"Activate a {FNAME[g]} Guerrilla") for g in (1, 2, 3) if pc[U(g)]]
        return (f"Patrol on {NAME[i]}: whose Guerrilla is Activated ({n} left)?", "3.2.2", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is not None:
            i, n = fr["ask"][0]
            P.flip(st, i, FACTIONS.index(cid[7:]), 1, True, facts, "Patrol")
            fr["ask"][0][1] = n - 1
        while fr["ask"]:
            i, n = fr["ask"][0]
            pc = st["pc"][i]
            und = [g for g in (1, 2, 3) if pc[U(g)]]
            if n <= 0 or not und:
                fr["ask"].pop(0)
                continue
            if len(und) == 1 or n >= sum(pc[U(g)] for g in und):
                for g in und:
                    n -= P.flip(st, i, g, n, True, facts, "Patrol")
                fr["ask"].pop(0)
                continue
            wait(fr)
            return
        pop(st, fr)


# ====================================================================== 3.2.3 Sweep
def sweep_sources(st: dict, i: int, op: dict) -> list:
    """Spaces whose Troops can reach i: adjacent, or via a Guerrilla-free adjacent LoC."""
    sel = set(op["sel"]) if op else set()
    out = set()
    for j in P.adj(st, i):
        if st["pc"][j][0] and j not in sel:
            out.add(j)
        if BD.is_loc[j] and not P.all_guerrillas(st["pc"][j]):
            for k in P.adj(st, j):
                if k != i and st["pc"][k][0] and k not in sel:
                    out.add(k)
    return sorted(out)


@frame("sweepsp")
class SweepSp:
    """3.2.3: move Troops in, then Activate 1 Guerrilla per cube (Forest: per 2 cubes)."""

    @staticmethod
    def prompt(st, fr):
        i = fr["i"]
        if fr["ph"] == "move":
            room = i != BD.ecuador or P.fpieces(st["pc"][i], 0) < 2
            chs = [C(f"from:{IDS[j]}", f"Move 1 Troops from {NAME[j]}", space=IDS[j])
                   for j in (sweep_sources(st, i, opf(st, fr)) if room else [])]
            if cap(st, 11) == "u" and not fr["pol"]:
                for j in P.adj(st, i):
                    if st["pc"][j][1]:
                        chs.append(C(f"police:{IDS[j]}", f"Move 1 Police from {NAME[j]} (NDSC)", space=IDS[j]))
            chs.append(C("done", "Done moving; Activate"))
            return (f"Sweep into {NAME[i]}: move Troops", "3.2.3", chs)
        chs = [C(f"target:{FACTIONS[g]}", f"Activate a {FNAME[g]} Guerrilla") for g in SweepSp.targets(st, fr)]
        return (f"Sweep in {NAME[i]}: whose Guerrilla is Activated?", "3.2.3", chs)

    @staticmethod
    def targets(st, fr):
        pc = st["pc"][fr["i"]]
        return [g for g in (1, 2, 3) if pc[U(g)] and (fr.get("event") or not blocked_target(st, g))
                and (fr.get("only") is None or g == fr["only"])]

    @staticmethod
    def step(st, fr, facts, cid):
        i = fr["i"]
        if cid is None:
            if fr["ph"] == "act":
                ts = SweepSp.targets(st, fr)
                if fr["left"] <= 0 or not ts:
                    pop(st, fr)
                    return
                if len(ts) == 1:
                    n = P.flip(st, i, ts[0], fr["left"], True, facts, "Sweep")
                    fr["left"] -= n
                    pop(st, fr)
                    return
            if fr["ph"] == "move" and fr.get("nomove"):
                SweepSp.to_act(st, fr, facts)
                return
            wait(fr)
            return
        if cid == "done":
            SweepSp.to_act(st, fr, facts)
            return
        if cid.startswith("from:"):
            P.move(st, sidx(cid), i, 0, 1, facts, "Sweep")
            wait(fr)
            return
        if cid.startswith("police:"):
            P.move(st, sidx(cid), i, 1, 1, facts, "Sweep (NDSC)")
            fr["pol"] = 1
            wait(fr)
            return
        g = FACTIONS.index(cid[7:])
        P.flip(st, i, g, 1, True, facts, "Sweep")
        fr["left"] -= 1

    @staticmethod
    def to_act(st, fr, facts):
        i = fr["i"]
        pc = st["pc"][i]
        if i == BD.panama:
            n = 0
        else:
            n = max(pc[0], pc[1]) if cap(st, 11) == "s" else pc[0] + pc[1]
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
        P.remove(st, i, A(g), 1, facts, "Assault")
    elif not pc[U(g)] and pc[B(g)]:
        P.remove(st, i, B(g), 1, facts, "Assault")
    lost = before - len(st["ship"])
    if lost:
        P.set_aid(st, 6 * lost, facts, "Drug Bust 3.2.5")


@frame("assaultsp")
class AssaultSp:
    """3.2.4: remove Active Guerrillas per Troops (Bases last); Police count in Cities and on LoCs."""

    @staticmethod
    def prompt(st, fr):
        ts = assault_targets(st, fr["i"], fr)
        chs = [C(f"target:{FACTIONS[g]}", f"Remove a {FNAME[g]} piece") for g in ts]
        return (f"Assault in {NAME[fr['i']]}: whose piece is removed ({fr['left']} left)?", "3.2.4", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        i = fr["i"]
        if cid is None:
            ts = assault_targets(st, i, fr)
            if fr["left"] <= 0 or not ts:
                pop(st, fr)
                return
            if len(ts) == 1:
                assault_remove_one(st, i, ts[0], facts)
                fr["left"] -= 1
                return
            wait(fr)
            return
        assault_remove_one(st, i, FACTIONS.index(cid[7:]), facts)
        fr["left"] -= 1


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
            chs.append(C("place", "Place 1 Guerrilla"))
        if P.guerrillas(pc, f) >= 2 and st["av"][B(f)] and P.can_stack_base(st, i):
            chs.append(C("base", "Replace 2 Guerrillas with a Base"))
        if pc[B(f)]:
            top = min(av, BD.pop[i] + pc[B(f)])
            for n in range(2, top + 1):
                chs.append(C(f"many:{n}", f"Place {n} Guerrillas", n=n))
            chs.append(C("regroup", "Move Guerrillas here from anywhere and flip all here Underground"))
        if not st["av"][U(f)] and not fr.get("auto") and f not in st["np"]:
            # 1.4.1: a player Faction may take its own pieces off the map to make them Available
            for j in P.spaces(st):
                if j != i and P.guerrillas(st["pc"][j], f):
                    chs.append(C(f"take:{IDS[j]}", f"Take a Guerrilla off {NAME[j]} (Available again, 1.4.1)",
                                 space=IDS[j]))
        if not chs:
            chs.append(C("done", "Nothing to do"))
        return (f"{FNAME[f]} Rally in {NAME[i]}", "3.3.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        f, i = fr["f"], fr["i"]
        if cid is None:
            resume_once(st, fr)
            return
        if cid.startswith("take:"):
            j = sidx(cid)
            P.remove(st, j, A(f) if st["pc"][j][A(f)] else U(f), 1, facts, "taken off the map to be placed (1.4.1)")
            wait(fr)
            return
        fr["went"] = 1
        if cid == "place":
            P.place(st, i, U(f), 1, facts, "Rally")
        elif cid == "base":
            pc = st["pc"][i]
            k = min(2, pc[A(f)])
            P.remove(st, i, A(f), k, facts, "replaced by a Base (Rally)")
            P.remove(st, i, U(f), 2 - k, facts, "replaced by a Base (Rally)")
            P.place(st, i, B(f), 1, facts, "Rally")
        elif cid.startswith("many:"):
            P.place(st, i, U(f), int(cid[5:]), facts, "Rally")
        elif cid == "regroup":
            push(st, {"k": "regroup", "f": f, "i": i, "auto": fr.get("auto"), "n": 0})
        # "done": nothing possible


@frame("regroup")
class Regroup:
    """3.3.1: move Guerrillas from any spaces into the Rally space, then flip all there Underground."""

    @staticmethod
    def prompt(st, fr):
        f, i = fr["f"], fr["i"]
        chs = [C(f"from:{IDS[j]}", f"Bring 1 Guerrilla from {NAME[j]}", space=IDS[j]) for j in P.spaces(st)
               if j != i and P.guerrillas(st["pc"][j], f) and (i != BD.ecuador or P.fpieces(st["pc"][i], f) < 2)]
        chs.append(C("done", "Done: flip all Underground"))
        return (f"Rally in {NAME[i]}: bring Guerrillas from anywhere", "3.3.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        f, i = fr["f"], fr["i"]
        if cid is None:
            wait(fr)
            return
        if cid == "done" or fr["n"] >= 40:
            P.flip(st, i, f, 99, False, facts, "Rally")
            pop(st, fr)
            return
        j = sidx(cid)
        slot = A(f) if st["pc"][j][A(f)] else U(f)
        P.move(st, j, i, slot, 1, facts, "Rally")
        fr["n"] += 1
        wait(fr)


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
            return (f"March from {NAME[src]}: to which adjacent space?", "3.3.2",
                    space_choices(march_dests(st, f, src, opf(st, fr)), "March into"))
        mu, ma = MarchGrp.movable(st, fr)
        if fr["nu"] is None:
            chs = [C(f"u:{n}", f"{n} Underground Guerrillas", n=n) for n in range(0, mu + 1)]
            return ("March: how many Underground Guerrillas move?", "3.3.2", chs)
        lo = 1 if fr["nu"] == 0 else 0
        chs = [C(f"a:{n}", f"{n} Active Guerrillas", n=n) for n in range(lo, ma + 1)]
        return ("March: how many Active Guerrillas move?", "3.3.2", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["nu"] is not None:
                mu, ma = MarchGrp.movable(st, fr)
                if ma == 0 or (fr["nu"] > 0 and ma == 0):
                    MarchGrp.go(st, fr, facts, fr["nu"], 0)
                    return
            wait(fr)
            return
        if cid.startswith("space:"):
            fr["dst"] = sidx(cid)
            mu, ma = MarchGrp.movable(st, fr)
            if mu == 0:
                fr["nu"] = 0
            wait(fr)
            return
        if cid.startswith("u:"):
            fr["nu"] = int(cid[2:])
            mu, ma = MarchGrp.movable(st, fr)
            if ma == 0:
                MarchGrp.go(st, fr, facts, fr["nu"], 0)
                return
            wait(fr)
            return
        MarchGrp.go(st, fr, facts, fr["nu"], int(cid[2:]))

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
            P.set_res(st, f, -1, facts, f"March into {NAME[dst]}")
            op["paid"].append(dst)
        if op["lim"]:
            op["dest"] = dst
        op.setdefault("groups", []).append(f"{src}>{dst}")
        P.move(st, src, dst, U(f), nu, facts, "March")
        P.move(st, src, dst, A(f), na, facts, "March")
        op["moved"][str(dst)] = op["moved"].get(str(dst), 0) + nu + na
        activate_after_march(st, f, dst, nu, na, op, facts)
        if dst not in op["sel"]:
            op["sel"].append(dst)
        pop(st, fr)


def activate_after_march(st, f, dst, nu, na, op, facts):
    pc = st["pc"][dst]
    s = st["sup"][dst]
    exposed = BD.is_loc[dst] or s > 0 or (f == 2 and s < 0)
    count = nu + na + P.cubes(pc) + (P.guerrillas(pc, 1) if f == 2 else 0)
    if exposed and count > 3 and not op.get("no_activate"):
        k = P.flip(st, dst, f, nu, True, facts, "March 3.3.2")
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
    for g in range(4):
        if g == f or (only is not None and g != only):
            continue
        if g == 0:
            units = [s for s in (0, 1) if pc[s]]
            out.extend(units if units else ([2] if pc[2] else []))
        else:
            units = [s for s in (U(g), A(g)) if pc[s]]
            out.extend(units if units else ([B(g)] if pc[B(g)] else []))
    return out


def capture_shipments(st, f, i, before_ships, facts):
    """3.3.3 / 4.4.2: a Shipment whose holder was removed goes to the executing Faction's Guerrilla."""
    for s in before_ships:
        if s not in st["ship"] and len(st["ship"]) < 4 and P.guerrillas(st["pc"][i], f):
            st["ship"].append([i, f])
            facts.append(fact("shipment", f"{FNAME[f]} captures a Shipment in {NAME[i]}", space=IDS[i], owner=f))


@frame("attacksp")
class AttackSp:
    """3.3.3 Attack (with 4.3.2 Ambush option)."""

    @staticmethod
    def prompt(st, fr):
        f, i = fr["f"], fr["i"]
        if fr["ph"] == "mode":
            chs = [C("attack", "Attack (roll a die)")]
            op = opf(st, fr)
            if f in (1, 2) and op and op["sa"] is None and op["sa_ok"] and st["pc"][i][U(f)]:
                chs.append(C("ambush", "Ambush: Activate 1 Underground Guerrilla, automatic success"))
            return (f"Attack in {NAME[i]}", "3.3.3", chs)
        chs = [C(f"target:{PIECE_KEYS[s]}", f"Remove {PIECE_NAMES[s]}") for s in attack_removable(st, f, i, fr.get("only"))]
        chs.append(C("done", "Remove no more"))
        return (f"Attack in {NAME[i]}: remove up to {fr['left']} enemy pieces", "3.3.3", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        f, i = fr["f"], fr["i"]
        if cid is None:
            if fr["ph"] == "mode":
                op = opf(st, fr)
                if not (f in (1, 2) and op and op["sa"] is None and op["sa_ok"] and st["pc"][i][U(f)]) and not fr.get("ambush"):
                    AttackSp.resolve(st, fr, facts, False)
                    return
                if fr.get("ambush"):
                    AttackSp.resolve(st, fr, facts, True)
                    return
                wait(fr)
                return
            if fr["left"] <= 0 or not attack_removable(st, f, i, fr.get("only")):
                AttackSp.captured(st, fr, facts)
                return
            wait(fr)
            return
        if cid in ("attack", "ambush"):
            if cid == "ambush":
                op = opf(st, fr)
                op["sa"] = "ambush"
                mark_sa(st, f)
                facts.append(fact("sa", f"{FNAME[f]} Special Activity: Ambush in {NAME[i]}", sa="ambush"))
            AttackSp.resolve(st, fr, facts, cid == "ambush")
            return
        if cid == "done":
            AttackSp.captured(st, fr, facts)
            return
        s = PIECE_KEYS.index(cid[7:])
        before = [list(x) for x in st["ship"] if x[0] == i]
        ids_before = [id(x) for x in st["ship"]]
        P.remove(st, i, s, 1, facts, f"{FNAME[f]} Attack")
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
            P.flip(st, i, f, 1, True, facts, "Ambush")
            fr["roll1"] = True
            fr["left"] = 2
            return
        P.flip(st, i, f, 99, True, facts, "Attack")
        die = R.roll(st["rng"], 6)
        n = P.guerrillas(st["pc"][i], f) + fr.get("extra_g", 0)
        ok = die <= n
        facts.append(fact("die", f"{FNAME[f]} Attack in {NAME[i]}: rolled {die} vs {n} Guerrillas - "
                                 f"{'success' if ok else 'failure'}", value=die, barrier=True))
        fr["roll1"] = die == 1
        if ok:
            fr["left"] = 2

    @staticmethod
    def captured(st, fr, facts):
        f, i = fr["f"], fr["i"]
        if fr.get("roll1"):
            P.place(st, i, U(f), 1, facts, "Captured Goods 3.3.3")
        for _ in range(fr.get("lost_ship", 0)):
            if len(st["ship"]) < 4 and P.guerrillas(st["pc"][i], f):
                st["ship"].append([i, f])
                facts.append(fact("shipment", f"{FNAME[f]} captures a Shipment in {NAME[i]}", space=IDS[i], owner=f))
        pop(st, fr)


# ====================================================================== 3.3.4 Terror
def terror_in(st: dict, f: int, i: int, facts: list, any_g: bool = False, markers: int = 1) -> None:
    pc = st["pc"][i]
    if pc[U(f)]:
        P.flip(st, i, f, 1, True, facts, "Terror")
    elif not any_g:
        return
    if BD.is_loc[i]:
        P.add_sabotage(st, i, facts)
        return
    P.add_terror(st, i, facts, markers)
    if f == 1:
        P.shift(st, i, -1, facts, "FARC Terror 3.3.4")
    elif st["sup"][i] > 0:
        P.shift(st, i, -1, facts, f"{FNAME[f]} Terror 3.3.4")
    elif st["sup"][i] < 0:
        P.shift(st, i, 1, facts, f"{FNAME[f]} Terror 3.3.4")


# ====================================================================== 4.2 Government SAs
def airlift_from(st: dict) -> list:
    return [i for i in P.spaces(st) if st["pc"][i][0] and not P.is_zone(st, i)
            and not (mom(st, 27) and P.all_guerrillas(st["pc"][i]))]


@frame("airlift")
class AirLift:
    """4.2.1: move up to 3 Troops from 1 space to another (card 10: any number / only 1)."""

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            return ("Air Lift: from which space?", "4.2.1", space_choices(airlift_from(st), "Air Lift from"))
        if fr["ph"] == "b":
            ds = [j for j in P.spaces(st) if j != fr["src"] and not P.is_zone(st, j)
                  and not (mom(st, 27) and P.all_guerrillas(st["pc"][j]))
                  and P.ecuador_room(st, j, 0)]
            return ("Air Lift: to which space?", "4.2.1", space_choices(ds, "Air Lift to"))
        mx = st["pc"][fr["src"]][0]
        mx = mx if cap(st, 10) == "u" else 1 if cap(st, 10) == "s" else min(3, mx)
        if fr["dst"] == BD.ecuador:  # card 33: at most 2 pieces per Faction in Ecuador
            mx = min(mx, 2 - P.fpieces(st["pc"][BD.ecuador], 0))
        return ("Air Lift: how many Troops?", "4.2.1", [C(f"n:{n}", f"{n} Troops", n=n) for n in range(1, mx + 1)])

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            wait(fr)
            return
        if fr["ph"] == "a":
            fr["src"] = sidx(cid)
            fr["ph"] = "b"
        elif fr["ph"] == "b":
            fr["dst"] = sidx(cid)
            fr["ph"] = "c"
        else:
            P.move(st, fr["src"], fr["dst"], 0, int(cid[2:]), facts, "Air Lift")
            pop(st, fr)
            return
        wait(fr)


def airstrike_targets(st: dict, i: int) -> list:
    pc = st["pc"][i]
    out = []
    for g in (1, 2, 3):
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
            return ("Air Strike: which Department or LoC?", "4.2.2", space_choices(airstrike_spaces(st), "Air Strike in"))
        return ("Air Strike: whose piece?", "4.2.2",
                [C(f"target:{FACTIONS[g]}", FNAME[g]) for g in airstrike_targets(st, fr["i"])])

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["ph"] == "a" and not airstrike_spaces(st):
                pop(st, fr)
                return
            wait(fr)
            return
        if fr["ph"] == "a":
            fr["i"] = sidx(cid)
            ts = airstrike_targets(st, fr["i"])
            if len(ts) == 1:
                AirStrike.hit(st, fr, ts[0], facts)
                return
            fr["ph"] = "b"
            wait(fr)
            return
        AirStrike.hit(st, fr, FACTIONS.index(cid[7:]), facts)

    @staticmethod
    def hit(st, fr, g, facts):
        i = fr["i"]
        pc = st["pc"][i]
        P.remove(st, i, A(g) if pc[A(g)] else B(g), 1, facts, "Air Strike")
        fr["n"] = fr.get("n", 0) + 1
        if fr.get("times", 1) > fr["n"] and airstrike_spaces(st):
            fr["ph"] = "a"
            wait(fr)
            return
        pop(st, fr)


def eradicate_spaces(st: dict) -> list:
    return [i for i in P.spaces(st) if BD.is_dept[i] and P.fpieces(st["pc"][i], 3)
            and not (mom(st, 27) and P.all_guerrillas(st["pc"][i]))]


@frame("eradicate")
class Eradicate:
    """4.2.3: Aid +4, remove all Cartels Bases, then shift toward Opposition (or place a FARC Guerrilla)."""

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            return ("Eradicate: which Department with Cartels pieces?", "4.2.3",
                    space_choices(eradicate_spaces(st), "Eradicate in"))
        return ("Eradicate: shift which Department toward Active Opposition?", "4.2.3",
                space_choices(fr["opts"], "Shift"))

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["ph"] == "a" and not eradicate_spaces(st):
                pop(st, fr)
                return
            wait(fr)
            return
        if fr["ph"] == "a":
            i = sidx(cid)
            fr["i"] = i
            P.set_aid(st, 4, facts, "Eradicate 4.2.3")
            P.remove(st, i, 11, 2, facts, "Eradicate")
            opts = [j for j in (i, *P.adj(st, i)) if BD.is_dept[j] and P.can_shift(st, j, -1)]
            if not opts:
                P.place(st, i, 3, 1, facts, "Eradicate: no shift possible")
                pop(st, fr)
                return
            fr["opts"] = opts
            fr["ph"] = "b"
            wait(fr)
            return
        P.shift(st, sidx(cid), -1, facts, "Eradicate 4.2.3")
        pop(st, fr)


# ====================================================================== 4.3-4.4 Insurgent SAs
@frame("extort")
class Extort:
    """4.3.1: in spaces with an Underground Guerrilla and Control, Activate 1 for +1 Resource."""

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        ids = [i for i in P.spaces(st) if i not in fr["done"] and extort_ok(st, f, i)]
        chs = space_choices(ids, "Extort in")
        chs.append(C("done", "Done extorting"))
        return (f"{FNAME[f]} Extort", "4.3.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        f = fr["f"]
        if cid is None:
            if any(i not in fr["done"] and extort_ok(st, f, i) for i in P.spaces(st)):
                wait(fr)
            else:
                pop(st, fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        i = sidx(cid)
        fr["done"].append(i)
        P.flip(st, i, f, 1, True, facts, "Extort")
        P.set_res(st, f, 1, facts, f"Extort in {NAME[i]}")


def terror_spaces_now_or_later(st: dict, op: dict) -> list:
    """4.3.3 / 4.4.2: spaces that were, or will be, selected for this Terror."""
    if op.get("op") != "terror":
        return list(op["sel"])
    later = [] if (op["lim"] and op["sel"]) else space_candidates(st, op["f"], "terror", op)
    return list(op["sel"]) + later


def ensure_terror(st: dict, fr: dict, i: int, facts: list) -> None:
    """Select space i for the Terror now if the Special Activity picked it first."""
    op = opf(st, fr)
    if op is None or i in op["sel"] or op.get("op") != "terror":
        return
    op["sel"].append(i)
    if not op["free"]:
        P.set_res(st, op["f"], -op_cost(st, op["f"], "terror", i), facts, f"Terror in {NAME[i]}")
    terror_in(st, op["f"], i, facts)
    op["terror_n"] += 1


def terror_sa_spaces(st: dict, fr: dict, ok) -> list:
    """Spaces selected (now or later) for this Terror, not yet used by the Special Activity,
    where ``ok(pc, i)`` holds (4.3.3 / 4.4.2)."""
    op = opf(st, fr) or fr
    done = fr.get("done", [])
    return [i for i in terror_spaces_now_or_later(st, op) if i not in done and ok(st["pc"][i], i)]


def kidnap_spaces(st: dict, fr: dict) -> list:
    """4.3.3: FARC Guerrillas outnumber Police, in a City, on a LoC or with a Cartels Base."""
    return terror_sa_spaces(st, fr, lambda pc, i: P.guerrillas(pc, 1) > pc[1]
                            and (BD.is_city[i] or BD.is_loc[i] or bool(pc[11])))


class TerrorSA:
    """4.3.3 Kidnap / 4.4.2 Assassinate: in up to 3 spaces selected (now or later) for the Terror
    - selecting the Terror there at once if the Special Activity picks the space first - then a
    target in each space. Subclasses name the spaces, the words, and what a space's pick does."""

    title = verb = done_label = rule = ""
    end_in_any_phase = False      # Kidnap ends at 3 spaces whatever its phase (as it always did)
    spaces: staticmethod          # (st, fr) -> eligible space indexes; set by each subclass

    @classmethod
    def prompt(cls, st, fr):
        if fr["ph"] == "a":
            chs = space_choices(cls.spaces(st, fr), cls.verb)
            chs.append(C("done", cls.done_label))
            return (cls.title, cls.rule, chs)
        return cls.target_prompt(st, fr)

    @classmethod
    def step(cls, st, fr, facts, cid):
        if cid is None:
            if (fr["ph"] == "a" or cls.end_in_any_phase) and (len(fr["done"]) >= 3 or not cls.spaces(st, fr)):
                pop(st, fr)
                return
            wait(fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        if fr["ph"] == "a":
            i = fr["i"] = sidx(cid)
            ensure_terror(st, fr, i, facts)
            fr["done"].append(i)
            cls.space_picked(st, fr, facts)
            return
        cls.target_picked(st, fr, facts, cid)


@frame("kidnap")
class Kidnap(TerrorSA):
    """4.3.3: in up to 3 Terror spaces, take a die roll of Resources (or a Shipment) from Govt or Cartels."""

    title, verb, done_label, rule = "FARC Kidnap: which Terror space?", "Kidnap in", "Done kidnapping", "4.3.3"
    end_in_any_phase = True
    spaces = staticmethod(kidnap_spaces)

    @staticmethod
    def target_prompt(st, fr):
        return ("Kidnap: target?", "4.3.3", [C(f"target:{FACTIONS[g]}", FNAME[g]) for g in fr["ts"]])

    @staticmethod
    def space_picked(st, fr, facts):
        i = fr["i"]
        ts = []
        if BD.is_city[i] or BD.is_loc[i]:
            ts.append(0)
        if st["pc"][i][11]:
            ts.append(3)
        if len(ts) > 1:
            fr["ts"] = ts
            fr["ph"] = "b"
            wait(fr)
            return
        Kidnap.hit(st, fr, ts[0], facts)

    @staticmethod
    def target_picked(st, fr, facts, cid):
        Kidnap.hit(st, fr, FACTIONS.index(cid[7:]), facts)

    @staticmethod
    def hit(st, fr, g, facts):
        i = fr["i"]
        fr["ph"] = "a"
        held = [s for s in st["ship"] if s[0] == i and s[1] == 3]
        if g == 3 and held:
            held[0][1] = 1
            facts.append(fact("shipment", f"Drug Ransom: FARC takes a Cartels Shipment in {NAME[i]}", space=IDS[i]))
            return
        die = R.roll(st["rng"], 6)
        facts.append(fact("die", f"Kidnap in {NAME[i]}: rolled {die}", value=die, barrier=True))
        take = min(die, st["res"][g])
        P.set_res(st, g, -take, facts, f"Kidnap in {NAME[i]}")
        P.set_res(st, 1, take, facts, f"Kidnap in {NAME[i]}")
        if die == 6:
            opts = kidnap6_options(st, i)
            if len(opts) > 1:  # 4.3.3: AUC places the piece, so the AUC seat picks which
                push(st, {"k": "kidnap6", "f": 2, "i": i, "auto": "np" if is_np(st, 2) else None})
            elif opts:
                P.place(st, i, opts[0], 1, facts, "Kidnap roll of 6: AUC grows")


def kidnap6_options(st: dict, i: int) -> list:
    out = [6] if st["av"][6] else []
    if st["av"][8] and P.can_stack_base(st, i):
        out.append(8)
    return out


@frame("kidnap6")
class Kidnap6:
    """4.3.3: a Kidnap roll of 6 - AUC places 1 Available piece (Guerrilla or Base) in the space."""

    @staticmethod
    def prompt(st, fr):
        return (f"AUC: a Kidnap roll of 6 in {NAME[fr['i']]} - place which AUC piece?", "4.3.3",
                [C(f"piece:{PIECE_KEYS[k]}", f"Place {PIECE_NAMES[k]}") for k in kidnap6_options(st, fr["i"])])

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            wait(fr)
            return
        P.place(st, fr["i"], PIECE_KEYS.index(cid[6:]), 1, facts, "Kidnap roll of 6: AUC grows")
        pop(st, fr)


def assassinate_spaces(st: dict, fr: dict) -> list:
    """4.4.2: AUC Guerrillas outnumber Police and an enemy piece is there."""
    return terror_sa_spaces(st, fr, lambda pc, i: P.guerrillas(pc, 2) > pc[1] and bool(attack_targets(st, 2, i)))


@frame("assassinate")
class Assassinate(TerrorSA):
    """4.4.2: in up to 3 AUC Terror spaces where AUC Guerrillas outnumber Police, remove any 1 enemy piece."""

    title, verb, done_label, rule = "AUC Assassinate: which Terror space?", "Assassinate in", "Done", "4.4.2"
    spaces = staticmethod(assassinate_spaces)

    @staticmethod
    def target_prompt(st, fr):
        pc = st["pc"][fr["i"]]
        chs = [C(f"target:{PIECE_KEYS[s]}", f"Remove {PIECE_NAMES[s]}") for s in range(12)
               if pc[s] and s not in (6, 7, 8)]
        return ("Assassinate: which enemy piece?", "4.4.2", chs)

    @staticmethod
    def space_picked(st, fr, facts):
        fr["ph"] = "b"
        wait(fr)

    @staticmethod
    def target_picked(st, fr, facts, cid):
        i = fr["i"]
        before = len(st["ship"])
        P.remove(st, i, PIECE_KEYS.index(cid[7:]), 1, facts, "Assassinate")
        for _ in range(before - len(st["ship"])):
            if len(st["ship"]) < 4 and P.guerrillas(st["pc"][i], 2):
                st["ship"].append([i, 2])
                facts.append(fact("shipment", f"Commandeer: AUC takes a Shipment in {NAME[i]}", space=IDS[i]))
        fr["ph"] = "a"
        wait(fr)


# ====================================================================== 4.5 Cartels SAs
def cultivate_dests(st: dict, fr: dict) -> list:
    op = opf(st, fr) or fr
    out = []
    has_base_elsewhere = any(st["pc"][j][11] for j in P.spaces(st))
    for i in P.spaces(st):
        pc = st["pc"][i]
        if BD.is_loc[i] or BD.pop[i] <= 0 or P.guerrillas(pc, 3) <= pc[1] or not P.can_stack_base(st, i):
            continue
        place_ok = BD.is_dept[i] and op.get("op") == "rally" and i in op["sel"] and st["av"][11]
        if place_ok or any(st["pc"][j][11] for j in P.spaces(st) if j != i) and has_base_elsewhere:
            out.append(i)
    return out


@frame("cultivate")
class Cultivate:
    """4.5.1: relocate a Cartels Base to the space, or place one in a Rally Department."""

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            return ("Cultivate: destination?", "4.5.1", space_choices(cultivate_dests(st, fr), "Cultivate in"))
        i = fr["i"]
        op = opf(st, fr) or fr
        chs = []
        if BD.is_dept[i] and op.get("op") == "rally" and i in op["sel"] and st["av"][11]:
            chs.append(C("place", "Place a new Cartels Base"))
        chs += [C(f"from:{IDS[j]}", f"Relocate the Base from {NAME[j]}", space=IDS[j]) for j in P.spaces(st)
                if j != i and st["pc"][j][11]]
        return ("Cultivate: place or relocate a Base?", "4.5.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["ph"] == "a" and not cultivate_dests(st, fr):
                pop(st, fr)
                return
            wait(fr)
            return
        if fr["ph"] == "a":
            fr["i"] = sidx(cid)
            fr["ph"] = "b"
            wait(fr)
            return
        i = fr["i"]
        if cid == "place":
            P.place(st, i, 11, 1, facts, "Cultivate")
        else:
            P.move(st, sidx(cid), i, 11, 1, facts, "Cultivate")
        pop(st, fr)


@frame("process")
class Process:
    """4.5.2: place 1-2 Shipments in spaces with Cartels Bases, or remove Bases for +3 each."""

    @staticmethod
    def ship_spaces(st):
        return [i for i in P.spaces(st) if st["pc"][i][11] and P.all_guerrillas(st["pc"][i])]

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "a":
            chs = []
            if len(st["ship"]) < 4 and Process.ship_spaces(st):
                chs.append(C("ship", "Place Shipments"))
            chs.append(C("bases", "Remove Cartels Bases for +3 Resources each"))
            return ("Process: Shipments or Bases?", "4.5.2", chs)
        if fr["ph"] == "ship":
            chs = []
            for i in Process.ship_spaces(st):
                for g in (1, 2, 3):
                    if P.guerrillas(st["pc"][i], g):
                        chs.append(C(f"ship:{IDS[i]}:{FACTIONS[g]}", f"Shipment under a {FNAME[g]} Guerrilla in {NAME[i]}",
                                     space=IDS[i], owner=FACTIONS[g]))
            if fr["n"]:
                chs.append(C("done", "Done"))
            return ("Process: where does the Shipment go?", "4.5.2", chs)
        chs = [C(f"space:{IDS[i]}", f"Remove a Cartels Base in {NAME[i]}", space=IDS[i]) for i in P.spaces(st)
               if st["pc"][i][11]]
        chs.append(C("done", "Done"))
        return ("Process: remove which Bases?", "4.5.2", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["ph"] == "ship" and (fr["n"] >= 2 or len(st["ship"]) >= 4 or not Process.ship_spaces(st)):
                pop(st, fr)
                return
            wait(fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        if fr["ph"] == "a":
            fr["ph"] = cid
            return Process.step(st, fr, facts, None)
        if fr["ph"] == "ship":
            _, sid, g = cid.split(":")
            i = BD.index[sid]
            st["ship"].append([i, FACTIONS.index(g)])
            facts.append(fact("shipment", f"Process: Shipment placed in {NAME[i]} under a {FNAME[FACTIONS.index(g)]} Guerrilla",
                              space=sid, owner=g))
            fr["n"] += 1
            return Process.step(st, fr, facts, None)
        i = sidx(cid)
        P.remove(st, i, 11, 1, facts, "Process")
        P.set_res(st, 3, 3, facts, "Process 4.5.2")
        fr["n"] += 1
        if any(st["pc"][j][11] for j in P.spaces(st)):
            wait(fr)
        else:
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
            chs = (space_choices(bribe_spaces(st, fr["done"]), "Bribe in")
                   if st["res"][3] >= 3 or fr.get("free") else [])
            chs.append(C("done", "Done bribing"))
            return ("Cartels Bribe: which space (3 Resources)?", "4.5.4", chs)
        pc = st["pc"][fr["i"]]
        cat = fr.get("cat")
        chs = []
        if cat in (None, "cube"):
            chs += [C(f"rm:{PIECE_KEYS[s]}", f"Remove {PIECE_NAMES[s]}") for s in (0, 1) if pc[s]]
        if cat in (None, "guer"):
            chs += [C(f"rm:{PIECE_KEYS[s]}", f"Remove {PIECE_NAMES[s]}") for s in (3, 4, 6, 7) if pc[s]]
            chs += [C(f"flip:{PIECE_KEYS[s]}", f"Flip {PIECE_NAMES[s]}") for s in (3, 4, 6, 7) if pc[s]]
        if cat is None:
            chs += [C(f"base:{PIECE_KEYS[s]}", f"Remove {PIECE_NAMES[s]}") for s in (2, 5, 8) if pc[s]]
        if cat is not None or not chs:
            chs.append(C("done", "Done in this space"))
        return (f"Bribe in {NAME[fr['i']]}", "4.5.4", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["ph"] == "a" and (len(fr["done"]) >= (1 if fr.get("one") else 3)
                                    or (st["res"][3] < 3 and not fr.get("free")) or not bribe_spaces(st, fr["done"])):
                pop(st, fr)
                return
            wait(fr)
            return
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
                P.set_res(st, 3, -3, facts, f"Bribe in {NAME[i]}")
            wait(fr)
            return
        i = fr["i"]
        if cid == "done":
            fr["ph"] = "a"
            return Bribe.step(st, fr, facts, None)
        kind, key = cid.split(":")
        s = PIECE_KEYS.index(key)
        if kind == "base":
            P.remove(st, i, s, 1, facts, "Bribe")
            fr["ph"] = "a"
            return Bribe.step(st, fr, facts, None)
        fr["cat"] = "cube" if s < 3 else "guer"
        if kind == "rm":
            P.remove(st, i, s, 1, facts, "Bribe")
        else:
            g = s // 3
            P.flip(st, i, g, 1, s == U(g), facts, "Bribe")
        fr["units"] += 1
        if fr["units"] >= 2:
            fr["ph"] = "a"
            return Bribe.step(st, fr, facts, None)
        wait(fr)


# ====================================================================== 6.4.4 FARC Zones
def zone_candidates(st: dict, only=None) -> list:
    cands = [i for i in P.spaces(st) if BD.is_dept[i] and i not in st["zones"] and (only is None or i in only)]
    if not cands:
        return []
    best = max(P.fpieces(st["pc"][i], 1) for i in cands)
    return [i for i in cands if P.fpieces(st["pc"][i], 1) == best]


def start_zone(st: dict, facts: list, only, why: str, then_base: bool = False) -> None:
    cands = zone_candidates(st, only)
    if not cands:
        return
    push(st, {"k": "zone", "f": 0, "cands": cands, "why": why, "base": then_base,
              "auto": "np" if is_np(st, 0) else None})


def place_zone(st: dict, i: int, facts: list, why: str) -> None:
    st["zones"].append(i)
    facts.append(fact("zone", f"FARC Zone placed in {NAME[i]} ({why})", space=IDS[i]))
    pc = st["pc"][i]
    if pc[0] or pc[1]:
        # 6.4.4: the Government Redeploys the cubes (6.5 destinations); Control is judged now
        from .game import Redeploy
        td = [j for j in Redeploy.dests(st, True) if j != i] or [BD.bogota]
        pd = [j for j in Redeploy.dests(st, False) if j != i]
        push(st, {"k": "zoneout", "f": 0, "i": i, "td": td, "pd": pd, "auto": "np" if is_np(st, 0) else None})
    P.remove(st, i, 2, 2, facts, "no Government Bases in a FARC Zone 6.4.4")


@frame("zoneout")
class ZoneOut:
    """6.4.4: the Government Redeploys (6.5) each cube out of the new FARC Zone: Troops to a
    Govt-Controlled City or Govt Base space (else Bogota), Police to a LoC or Govt-Controlled space."""

    @staticmethod
    def slot(st, fr):
        pc = st["pc"][fr["i"]]
        return 0 if pc[0] else 1 if pc[1] else None

    @staticmethod
    def prompt(st, fr):
        slot = ZoneOut.slot(st, fr)
        what = "Troops" if slot == 0 else "Police"
        ds = fr["td"] if slot == 0 else fr["pd"]
        return (f"Government: Redeploy 1 {what} cube out of the FARC Zone in {NAME[fr['i']]}: to where?",
                "6.4.4", space_choices(ds, f"{what} to"))

    @staticmethod
    def step(st, fr, facts, cid):
        slot = ZoneOut.slot(st, fr)
        if cid is None:
            if slot is None:
                pop(st, fr)
                return
            ds = fr["td"] if slot == 0 else fr["pd"]
            if len(ds) <= 1:  # a single destination (or none: Police are removed to Available)
                n = st["pc"][fr["i"]][slot]
                if ds:
                    P.move(st, fr["i"], ds[0], slot, n, facts, "Redeploy out of the FARC Zone 6.4.4")
                else:
                    P.remove(st, fr["i"], slot, n, facts, "no space to Redeploy to (6.4.4)")
                return
            wait(fr)
            return
        P.move(st, fr["i"], sidx(cid), slot, 1, facts, "Redeploy out of the FARC Zone 6.4.4")


@frame("zone")
class Zone:
    """6.4.4: the Government picks the Department (most FARC pieces) for a FARC Zone."""

    @staticmethod
    def prompt(st, fr):
        return ("Government: place the FARC Zone in which Department?", "6.4.4",
                space_choices(fr["cands"], "FARC Zone in"))

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if len(fr["cands"]) == 1:
                Zone.do(st, fr, fr["cands"][0], facts)
            else:
                wait(fr)
            return
        Zone.do(st, fr, sidx(cid), facts)

    @staticmethod
    def do(st, fr, i, facts):
        place_zone(st, i, facts, fr["why"])
        if fr.get("base"):
            P.place(st, i, 5, 1, facts, fr["why"])
        pop(st, fr)
        fr["zone"] = i
        st.setdefault("last_zone", None)
        st["last_zone"] = i
