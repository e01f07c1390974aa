"""3.1 / 4.1 An Operation as a prompt sequence: where it may act, paying as it goes, a Special Activity before, between or after its spaces, LimOps (2.3.5) and its end."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import (
    AUC,
    CARTELS,
    CARTELS_ACTIVE,
    CARTELS_BASE,
    CARTELS_UNDERGROUND,
    FACTIONS,
    FARC,
    GOVT,
    GOVT_BASE,
    TROOPS,
)
from .board import BOARD as BD
from .frames import C, frame, once, pop, push, push_child, target
from .op_common import IDS, op_cost, ship_lenders, ship_owners, sidx, space_choices
from .op_targets import space_candidates
from .ops_govt import assault_removals, assault_targets, patrol_activate, patrol_origins
from .ops_insurgent import aid_cut, march_origins, terror_in
from .sa_auc import assassinate_spaces
from .sa_cartels import cultivate_dests
from .sa_farc import extort_ok, kidnap_spaces
from .sa_govt import airlift_from, airstrike_targets
from .state import SAS, cap, is_np, mark_sa, mom
from .texts import FN, OP_NAME, SN
from .transfers import transfer_donors, transfer_targets


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
    if f == GOVT and not lim and op in ("assault", "sweep") and res >= op_cost(st, GOVT, op, 0) and airlift_from(st):
        return True
    # 3.1 note: Insurgents at 0 Resources may Extort / Process first, then pay
    if not lim and f in (FARC, AUC) and res == 0 and op in ("rally", "attack", "terror"):
        return any(extort_ok(st, f, i) for i in P.spaces(st)) and space_candidates(
            st, f, op, {"sel": [], "free": True}, first=True)
    return False


# ====================================================================== Operation controller
def start_op(st: dict, f: int, op: str, lim: bool, free: bool, facts: list, auto=None, **extra) -> dict:
    fr = {"k": "op", "f": f, "op": op, "lim": lim, "free": free, "sa": None, "sa_ok": not lim and not extra.get("no_sa"),
          "sel": [], "ph": "sel", "auto": auto, "terror_n": 0, "moved": {}, "dest": None}
    fr.update(extra)
    if lim:
        text = (msg("{faction} Limited {operation} (free)", faction=FN[f], operation=OP_NAME[op]) if free else
                msg("{faction} Limited {operation}", faction=FN[f], operation=OP_NAME[op]))
    else:
        text = (msg("{faction} {operation} (free)", faction=FN[f], operation=OP_NAME[op]) if free else
                msg("{faction} {operation}", faction=FN[f], operation=OP_NAME[op]))
    facts.append(fact("op", text,
                      faction=FACTIONS[f], op=op, limited=lim, free=free))
    if op == "patrol" and not free:
        P.set_res(st, f, -3, facts, msg("Patrol 3.2.2"))
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
        return any(pcs[i][TROOPS] and i not in zones and not (m27 and P.all_guerrillas(pcs[i])) for i in sps)
    if sa == "airstrike":
        if op not in ("patrol", "sweep", "assault") or mom(st, 12):
            return False
        m27 = mom(st, 27)
        return any(not BD.is_city[i] and not (m27 and P.all_guerrillas(pcs[i])) and airstrike_targets(st, i)
                   for i in sps)
    if sa == "eradicate":
        m27 = mom(st, 27)
        return any(BD.is_dept[i] and (pcs[i][CARTELS_UNDERGROUND] or pcs[i][CARTELS_ACTIVE] or pcs[i][CARTELS_BASE])
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
        return op in ("rally", "march") and any(pcs[i][CARTELS_BASE] for i in sps)
    if sa == "bribe":
        return st["res"][CARTELS] >= 3 and any(any(pcs[i][k] for k in range(9)) for i in sps)
    return False


SA_FRAME = {"airlift": "airlift", "airstrike": "airstrike", "eradicate": "eradicate", "extort": "extort",
            "kidnap": "kidnap", "assassinate": "assassinate", "cultivate": "cultivate", "process": "process",
            "bribe": "bribe"}


GIVE_CHOICE = C("give", msg("Transfer Resources or a Shipment to another Faction (1.5.2)"))
ASK_CHOICE = [C(f"ask:{FACTIONS[g]}", msg("Ask {faction} for a transfer (1.5.2)", faction=FN[g])) for g in range(4)]


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
            chs = space_choices(locs, msg("Free Assault on {space}"))
            chs.append(C("none", msg("No Assault")))
            return (msg("Patrol: free Assault in 1 LoC?"), "3.2.2", chs)
        if op == "patrol":
            for i in patrol_origins(st, fr):
                chs.append(once(("patrol-from", i), lambda i: C(f"from:{IDS[i]}", msg("Move a cube from {space}", space=SN[i]),
                                                              space=IDS[i]), i))
        elif op == "march":
            for i in march_origins(st, fr):
                chs.append(once(("march-from", i), lambda i: C(f"from:{IDS[i]}", msg("March Guerrillas out of {space}",
                                                                                  space=SN[i]), space=IDS[i]), i))
        elif not (fr["lim"] and fr["sel"]):
            chs = space_choices(space_candidates(st, f, op, fr), msg("{operation} in {space}", operation=OP_NAME[op]))
        for sa in sa_candidates(st, f, fr):
            chs.append(once(("sa", sa), lambda sa: C(f"sa:{sa}", msg("Special Activity: {activity}", activity=OP_NAME[sa])), sa))
        if fr["sel"] or op in ("patrol", "march") or not chs or fr.get("free"):
            chs.append(once(("op-done", op), lambda op: C("done", msg("Done with {operation}", operation=OP_NAME[op])), op))
        if not fr.get("auto") and transfer_targets(st, f):
            chs.append(GIVE_CHOICE)
        if not fr.get("auto"):
            for g in transfer_donors(st, f, fr):
                chs.append(ASK_CHOICE[g])
        text = (msg("{faction} {operation} (Limited: 1 space): choose the next space, a Special Activity, or Done",
                    faction=FN[f], operation=OP_NAME[op]) if fr["lim"] else
                msg("{faction} {operation}: choose the next space, a Special Activity, or Done", faction=FN[f],
                    operation=OP_NAME[op]))
        return (text, RULE_OF[op], chs)

    @staticmethod
    def auto(st, fr, facts):
        """Once the spaces are done: Patrol's Activation and free Assault (3.2.2), then the
        Operation ends (finish_op: 2.3.6 Ship may follow)."""
        if fr["ph"] == "finish":
            finish_op(st, fr, facts)
            return True
        if fr["ph"] == "patrol_act":
            Op.patrol_assault(st, fr, facts)
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        f, op = fr["f"], fr["op"]
        if cid == "give":
            push(st, {"k": "give", "f": f, "to": None})
            return
        if cid.startswith("ask:"):
            g = FACTIONS.index(target(cid))
            fr.setdefault("asked", []).append(g)
            push(st, {"k": "give", "f": g, "to": f, "asked": 1})
            return
        if cid.startswith("sa:"):
            sa = target(cid)
            fr["sa"] = sa
            mark_sa(st, f)
            facts.append(fact("sa", msg("{faction} Special Activity: {activity}", faction=FN[f], activity=OP_NAME[sa]), faction=FACTIONS[f], sa=sa))
            push_child(st, fr, SA_FRAME[sa], f=f, opi=len(st["stack"]) - 1, ph="a", n=0, done=[])
            return
        if fr["ph"] == "patrol_assault":
            if cid == "none":
                fr["ph"] = "finish"
                return
            i = sidx(cid)
            fr["ph"] = "finish"
            push_child(st, fr, "assaultsp", f=GOVT, i=i, left=assault_removals(st, i))
            return
        if cid == "done":
            if op == "patrol":
                fr["ph"] = "patrol_act"      # then the free Assault (auto), once any Activation is decided
                patrol_activate(st, fr, facts)
                return
            elif op == "train":
                fr["ph"] = "finish"
                push_child(st, fr, "trainx", f=GOVT, opi=len(st["stack"]) - 1)
                return
            fr["ph"] = "finish"
            return
        if op == "patrol":
            push_child(st, fr, "patrolmv", f=GOVT, src=sidx(cid), opi=len(st["stack"]) - 1, slot=None)
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
                    push_child(st, fr, "assaultsp", f=GOVT, i=i, left=assault_removals(st, i))
        else:
            fr["ph"] = "patrol_assault"

    @staticmethod
    def select(st, fr, facts, cid):
        f, op = fr["f"], fr["op"]
        if op == "march":
            push_child(st, fr, "marchgrp", f=f, src=sidx(cid), opi=len(st["stack"]) - 1, dst=None, nu=None)
            return
        i = sidx(cid)
        fr["sel"].append(i)
        if not fr["free"]:
            P.set_res(st, f, -op_cost(st, f, op, i), facts, msg("{operation} in {space}", operation=OP_NAME[op], space=SN[i]))
        if op == "train":
            if BD.is_city[i] or st["pc"][i][GOVT_BASE]:
                push_child(st, fr, "trainsp", f=GOVT, i=i)
        elif op == "sweep":
            push_child(st, fr, "sweepsp", f=GOVT, i=i, opi=len(st["stack"]) - 1, ph="move", pol=0)
        elif op == "assault":
            push_child(st, fr, "assaultsp", f=GOVT, i=i, left=assault_removals(st, i))
        elif op == "rally":
            push_child(st, fr, "rallysp", f=f, i=i, opi=len(st["stack"]) - 1)
        elif op == "attack":
            push_child(st, fr, "attacksp", f=f, i=i, opi=len(st["stack"]) - 1, ph="mode", only=fr.get("only"))
        elif op == "terror":
            terror_in(st, f, i, facts, any_g=fr.get("any_g", False))
            fr["terror_n"] += 1


RULE_OF = {"train": "3.2.1", "patrol": "3.2.2", "sweep": "3.2.3", "assault": "3.2.4", "rally": "3.3.1",
           "march": "3.3.2", "attack": "3.3.3", "terror": "3.3.4"}


def finish_op(st: dict, fr: dict, facts: list) -> None:
    f = fr["f"]
    pop(st, fr)
    if fr["op"] == "march":
        st["last_march"] = list(fr["sel"])
    if f == AUC and fr["terror_n"]:
        aid_cut(st, fr["terror_n"], facts)
    # 2.3.6 Ship: paid Operation without Special Activity, by a player Faction, once per card
    s = st["sop"]
    if (not fr["free"] and fr["sa"] is None and not is_np(st, f) and s and not s.get("prop")
            and f not in s.get("shipped", []) and (ship_owners(st, f) or ship_lenders(st, f))):
        push(st, {"k": "ship", "f": f, "refused": []})
