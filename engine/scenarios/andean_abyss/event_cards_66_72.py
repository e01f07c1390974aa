"""5.0 Events: card effects of cards 66-72 too particular for the effect script primitives."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import (
    AUC,
    CARTELS_ACTIVE,
    CARTELS_BASE,
    CARTELS_GUERRILLAS,
    CARTELS_UNDERGROUND,
    CUBES,
    FACTIONS,
    FARC,
    GOVT,
    INSURGENTS,
    A,
    U,
)
from .board import BOARD as BD
from .events import SPECIAL, ev_cause
from .frames import C, frame, pop, pop_if, push_child, target
from .op_common import sidx, space_choices
from .operation import start_op
from .ops_insurgent import aid_cut, terror_in
from .texts import FN, OP_NAME, SN


def c66s_spaces(st, done=()):
    return [i for i in P.spaces(st) if BD.forest[i] and BD.is_dept[i] and st["pc"][i][CARTELS_BASE]
            and P.bases(st["pc"][i]) < 2 and i not in done]


def sp_c66s(st, fr, s, facts):
    """Card 66 shaded: 1 more Cartels Base in each Forest Department with one (stacking
    permitting); when Bases run short the executor picks the Departments."""
    sps = c66s_spaces(st)
    if len(sps) <= st["av"][CARTELS_BASE]:
        for i in sps:
            P.place(st, i, CARTELS_BASE, 1, facts, ev_cause(fr))
        return False
    push_child(st, fr, "c66pick", f=fr["f"], done=[], why=ev_cause(fr))
    return True


@frame("c66pick")
class C66Pick:
    """Card 66 shaded with too few Available Cartels Bases: which Forest Department gets one."""

    @staticmethod
    def prompt(st, fr):
        return (msg("Card 66: place a Cartels Base ({count} Available) in which Forest Department?",
                    count=st["av"][CARTELS_BASE]), "card 66",
                space_choices(c66s_spaces(st, fr["done"]), msg("Cartels Base in {space}")))

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, not st["av"][CARTELS_BASE] or not c66s_spaces(st, fr["done"]))

    @staticmethod
    def act(st, fr, cid, facts):
        i = sidx(cid)
        fr["done"].append(i)
        P.place(st, i, CARTELS_BASE, 1, facts, fr["why"])


def sp_c68u(st, fr, s, facts):
    push_child(st, fr, "evchoice", f=fr["f"], v=fr["v"], opts=[
        ["pieces", msg("Remove 2 Cartels pieces from coastal spaces"),
         [{"do": "remove_anywhere", "what": "cartels_piece", "n": 2, "where": ["coastal"], "upto": False}]],
        ["ships", msg("Remove up to 2 Shipments in coastal spaces"), [{"do": "special", "fn": "unship_coastal"}]]])
    return True


def sp_unship_coastal(st, fr, s, facts):
    k = 0
    for x in list(st["ship"]):
        if BD.coastal[x[0]] and k < 2:
            st["ship"].remove(x)
            k += 1
            facts.append(fact("shipment", msg("Shipment removed in {space} ({why})", space=SN[x[0]], why=ev_cause(fr))))
    return False


def sp_c69(st, fr, s, facts):
    push_child(st, fr, "c69", f=fr["f"], v=fr["v"], ph="src")
    return True


def dept_reach3(st, src):
    seen = set()
    frontier = [j for j in P.adj(st, src) if BD.is_dept[j]]
    seen.update(frontier)
    for _ in range(2):
        nxt = []
        for i in frontier:
            for j in P.adj(st, i):
                if BD.is_dept[j] and j not in seen:
                    seen.add(j)
                    nxt.append(j)
        frontier = nxt
    seen.discard(src)
    return sorted(seen)


@frame("c69")
class C69:
    """Card 69: move cubes/Guerrillas to a Department within 3 Departments, then a free Op there."""

    @staticmethod
    def own(st, f, i):
        pc = st["pc"][i]
        return P.cubes(pc) if f == GOVT else P.guerrillas(pc, f)

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        if fr["ph"] == "src":
            chs = space_choices([i for i in P.spaces(st) if C69.own(st, f, i) and dept_reach3(st, i)], msg("Move from {space}"))
            chs.append(C("done", msg("Nothing")))
            return (msg("Riverines & Fast Boats: move from which space?"), "card 69", chs)
        if fr["ph"] == "dst":
            ds = [j for j in dept_reach3(st, fr["src"]) if not (f == GOVT and j in st["zones"])]
            return (msg("Riverines & Fast Boats: to which Department?"), "card 69", space_choices(ds, msg("To {space}")))
        ops = ("train", "sweep", "assault") if f == GOVT else ("rally", "attack", "terror")
        chs = [C(f"op:{o}", msg("Free {operation} there", operation=OP_NAME[o])) for o in ops]
        chs.append(C("done", msg("No Operation")))
        return (msg("Riverines & Fast Boats: free Operation in the destination?"), "card 69", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, fr["ph"] == "end")

    @staticmethod
    def act(st, fr, cid, facts):
        f = fr["f"]
        if cid == "done":
            pop(st, fr)
            return
        if fr["ph"] == "src":
            fr["src"] = sidx(cid)
            fr["ph"] = "dst"
            return
        if fr["ph"] == "dst":
            j = sidx(cid)
            fr["dst"] = j
            for k in (CUBES if f == GOVT else (U(f), A(f))):
                P.move(st, fr["src"], j, k, 99, facts, msg("Event 69"))
            fr["ph"] = "op"
            return
        fr["ph"] = "end"
        start_op(st, f, target(cid), lim=False, free=True, facts=facts, auto=fr.get("auto"), no_sa=True,
                 only_spaces=[fr["dst"]])


def sp_c70s(st, fr, s, facts):
    g = fr["v"].get("x", fr["f"])
    n = 0
    for i in P.spaces(st):
        if BD.forest[i] and BD.is_dept[i] and P.guerrillas(st["pc"][i], g):
            terror_in(st, g, i, facts, any_g=True)
            n += 1
    if n:
        P.set_res(st, g, 3 * n, facts, ev_cause(fr))
        if g == AUC:
            aid_cut(st, n, facts)
    return False


def sp_c71u(st, fr, s, facts):
    """Card 71 unshaded: the executor removes a Guerrilla from Chocó; its Faction loses 5 Resources."""
    i = BD.index["choco"]
    opts = []
    for g in INSURGENTS:
        if P.guerrillas(st["pc"][i], g):
            opts.append([FACTIONS[g], msg("Remove a {faction} Guerrilla", faction=FN[g]),
                         [{"do": "special", "fn": "c71_remove", "g": g}]])
    if not opts:
        return False
    push_child(st, fr, "evchoice", f=fr["f"], v=fr["v"], opts=opts)
    return True


def sp_c71_remove(st, fr, s, facts):
    i, g = BD.index["choco"], s["g"]
    P.remove(st, i, A(g) if st["pc"][i][A(g)] else U(g), 1, facts, ev_cause(fr))
    P.set_res(st, g, -5, facts, ev_cause(fr))
    return False


def sp_c72u(st, fr, s, facts):
    """Card 72 unshaded: each Cartels Guerrilla in the space is replaced by a FARC or AUC
    Guerrilla (the executor picks the Faction of each; removed when none is Available)."""
    i = fr["v"]["here"]
    pc = st["pc"][i]
    n = pc[CARTELS_UNDERGROUND] + pc[CARTELS_ACTIVE]
    P.remove(st, i, CARTELS_UNDERGROUND, 99, facts, ev_cause(fr))
    P.remove(st, i, CARTELS_ACTIVE, 99, facts, ev_cause(fr))
    push_child(st, fr, "c72rep", f=fr["f"], i=i, left=n, why=ev_cause(fr))
    return True


@frame("c72rep")
class C72Rep:
    """Card 72 unshaded: FARC or AUC Guerrilla for each replaced Cartels Guerrilla."""

    @staticmethod
    def opts(st):
        return [g for g in (FARC, AUC) if st["av"][U(g)]]

    @staticmethod
    def prompt(st, fr):
        return (msg("Card 72: replace a Cartels Guerrilla in {space} with whose Guerrilla ({left} left)?", space=SN[fr['i']], left=fr['left']),
                "card 72", [C(f"faction:{FACTIONS[g]}", msg("{faction} Guerrilla", faction=FN[g])) for g in C72Rep.opts(st)])

    @staticmethod
    def auto(st, fr, facts):
        os_ = C72Rep.opts(st)
        if fr["left"] <= 0 or not os_:
            pop(st, fr)
            return True
        if len(os_) == 1:
            n = min(fr["left"], st["av"][U(os_[0])])
            P.place(st, fr["i"], U(os_[0]), n, facts, fr["why"])
            fr["left"] -= n
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        P.place(st, fr["i"], U(FACTIONS.index(target(cid))), 1, facts, fr["why"])
        fr["left"] -= 1


def sp_c72s(st, fr, s, facts):
    """Card 72 shaded: every Available Cartels Guerrilla goes into Cartels Base spaces, spread as
    the executor likes."""
    if not st["av"][CARTELS_GUERRILLAS] or not any(st["pc"][i][CARTELS_BASE] for i in P.spaces(st)):
        return False
    push_child(st, fr, "c72place", f=fr["f"], why=ev_cause(fr))
    return True


@frame("c72place")
class C72Place:
    """Card 72 shaded: where the next Available Cartels Guerrilla goes."""

    @staticmethod
    def prompt(st, fr):
        sps = [i for i in P.spaces(st) if st["pc"][i][CARTELS_BASE]]
        return (msg("Card 72: place a Cartels Guerrilla ({count} left) in which Cartels Base space?",
                    count=st["av"][CARTELS_GUERRILLAS]), "card 72",
                space_choices(sps, msg("Cartels Guerrilla to {space}")))

    @staticmethod
    def auto(st, fr, facts):
        sps = [i for i in P.spaces(st) if st["pc"][i][CARTELS_BASE]]
        if not st["av"][CARTELS_GUERRILLAS] or not sps:
            pop(st, fr)
            return True
        if len(sps) == 1:
            P.place(st, sps[0], CARTELS_UNDERGROUND, st["av"][CARTELS_GUERRILLAS], facts, fr["why"])
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        P.place(st, sidx(cid), CARTELS_UNDERGROUND, 1, facts, fr["why"])


SPECIAL.update({
    "c66s": sp_c66s,
    "c68u": sp_c68u,
    "unship_coastal": sp_unship_coastal,
    "c69": sp_c69,
    "c70s": sp_c70s,
    "c71u": sp_c71u,
    "c71_remove": sp_c71_remove,
    "c72u": sp_c72u,
    "c72s": sp_c72s,
})
