"""8.5-8.7 The Insurgent flowcharts shared by FARC, AUC and Cartels: which Operation, space priorities, Attack, Rally, Extort."""

from __future__ import annotations

from engine.core.messages import msg

from . import pieces as P
from .board import AUC, AUC_UNDERGROUND, CARTELS, FARC, FARC_BASE, FARC_UNDERGROUND, GOVT, PIECE_KEYS, A, B, U
from .board import BOARD as BD
from .frames import target
from .np_base import avail_pieces, could_base, rnd
from .np_priorities import ATTACK_ORDER, PLANS, begin, feasible, rank_space
from .op_common import opf
from .texts import OP_NAME

FLOW_ORDER = ("rally", "march", "attack", "terror")   # the Insurgent flowcharts' boxes, top down


def insurgent_ops(st, fr, facts=None):
    """8.5-8.7, then 8.1.1 Op Not Possible: when the chosen Operation is impossible, follow the
    "if none" arrow *up one box* to the next higher Operation on the chart (Terror -> Attack ->
    March -> Rally; the Cartels chart has no Attack), again if that one is impossible too, and
    Pass when Rally is impossible (Playbook, "What if a Non-Player Faction Cannot Execute its
    Assigned Operation?": "follow the curved 'if none' arrow up one box ... If Rally is assigned
    but impossible, Pass instead")."""
    d = insurgent_flowchart(st, fr)
    if d[0] != "op" or feasible(st, fr["f"], d[1]):
        return d
    f = fr["f"]
    for op in reversed(FLOW_ORDER[:FLOW_ORDER.index(d[1])]):
        if op in PLANS[f] and feasible(st, f, op):
            plan, rule = PLANS[f][op]
            return ("op", op, plan, (msg("{reason} impossible: {operation} instead ('if none', up the chart)", reason=d[3][0],
                                         operation=OP_NAME[op]),
                                     "8.1.1"))
    return ("pass", None, None, (msg("{reason} impossible and none above it on the chart: Pass", reason=d[3][0]), "8.1.1"))


def insurgent_flowchart(st, fr, facts=None):
    f = fr["f"]
    if st["res"][f] == 0:
        return ("pass", None, None, (msg("0 Resources: Pass"), "8.1"))
    sps = P.spaces(st)
    if f == CARTELS:
        if avail_pieces(st, CARTELS) >= 10 or could_base(st, CARTELS):
            return begin(st, fr, facts, CARTELS, "rally", {"max": 3, "sa": ["cultivate", "process"]}, "8.5.1",
                         msg("Rally (10+ pieces Available or a Base possible)"))
        if len(st["ship"]) < 4:
            return begin(st, fr, facts, CARTELS, "march", {"max": 3, "sa": ["process"]}, "8.5.2", msg("March (Shipment available)"))
        return begin(st, fr, facts, CARTELS, "terror", {"max": 3, "sa": ["bribe"]}, "8.5.3", msg("Terror"))
    if f == AUC:
        if st["av"][U(AUC)] >= 6 or could_base(st, AUC, 3):
            return begin(st, fr, facts, AUC, "rally", {"max": 3, "sa": ["extort"]}, "8.6.1",
                         msg("Rally (6+ Guerrillas Available or a Base possible)"))
        fb = [i for i in sps if st["pc"][i][FARC_BASE]]
        with_auc = [i for i in fb if P.guerrillas(st["pc"][i], AUC)]
        if fb and len(with_auc) * 2 < len(fb):
            return begin(st, fr, facts, AUC, "march", {"max": 3, "sa": ["extort"]}, "8.6.2",
                         msg("March (fewer than half of FARC Base spaces hold AUC Guerrillas)"))
        if not any(st["pc"][i][AUC_UNDERGROUND] for i in fb):
            return begin(st, fr, facts, AUC, "attack", {"max": 3, "sa": ["ambush"]}, "8.6.3", msg("Attack"))
        return begin(st, fr, facts, AUC, "terror", {"max": 3, "sa": ["assassinate"]}, "8.6.4", msg("Terror"))
    # FARC 8.7
    if st["av"][U(FARC)] >= 9 or could_base(st, FARC):
        return begin(st, fr, facts, FARC, "rally", {"max": 99, "sa": ["extort"]}, "8.7.1",
                     msg("Rally (9+ Guerrillas Available or a Base possible)"))
    strong = any((BD.is_loc[i] or st["sup"][i] > 0) and (st["pc"][i][FARC_UNDERGROUND] or P.fpieces(st["pc"][i], FARC) >= 3) for i in sps)
    if not strong:
        return begin(st, fr, facts, FARC, "march", {"max": 4, "sa": ["extort"]}, "8.7.2",
                     msg("March (no Support space or LoC holds FARC strength)"))
    if st["res"][FARC] > st["res"][GOVT]:
        return begin(st, fr, facts, FARC, "attack", {"max": 99, "sa": ["ambush"]}, "8.7.3", msg("Attack (more Resources than Govt)"))
    return begin(st, fr, facts, FARC, "terror", {"max": 99, "sa": ["kidnap"]}, "8.7.4", msg("Terror"))


SA_DEFAULT = {"rally": ["extort", "cultivate", "process"], "march": ["extort", "process"],
              "attack": ["ambush"], "terror": ["kidnap", "assassinate", "bribe"]}


def pol_attacksp(st, fr, chs, ids):
    """8.6.3 / 8.7.3: take Shipments first, then the Factions in flowchart order; within a Faction
    Bases, Police, Troops, Underground, then Active Guerrillas (8.1.2)."""
    if fr["ph"] == "mode":
        return "ambush" if "ambush" in ids and ambush_here(st, fr) else "attack"
    i = fr["i"]
    holders = {x[1] for x in st["ship"] if x[0] == i and x[1] != fr["f"]}
    order = []
    facs = sorted(holders) + [g for g in ATTACK_ORDER[fr["f"]] if g not in holders]
    for g in facs:
        if g == GOVT:
            order += [2, 1, 0]
        else:
            order += [B(g), U(g), A(g)] if g not in holders else [U(g), A(g), B(g)]
    for slot in order:
        t = f"target:{PIECE_KEYS[slot]}"
        if t in ids:
            return t
    return "done"


def ambush_here(st, fr) -> bool:
    """8.6.3 / 8.7.3 Ambush: in the Attack space with the fewest own Guerrillas (ties: where a
    Shipment is targeted, then by the Faction order of the targets); the candidates are this space
    and the spaces the flowchart would still Attack that have an Underground Guerrilla."""
    f, i = fr["f"], fr["i"]
    op = opf(st, fr) or {}
    order = ATTACK_ORDER.get(f, (1, 2, 0, 3))

    def key(j):
        pc = st["pc"][j]
        ship = any(s[0] == j and s[1] != f for s in st["ship"])
        first = next((k for k, g in enumerate(order) if P.fpieces(pc, g)), 9)
        return (P.guerrillas(pc, f), 0 if ship else 1, first)
    cands = [i] + [j for j in P.spaces(st) if j != i and j not in op.get("sel", ())
                   and st["pc"][j][U(f)] and rank_space(st, f, "attack", j) is not None]
    return min(cands, key=key) == i or key(i) == min(key(j) for j in cands)


def pol_rallysp(st, fr, chs, ids):
    f, i = fr["f"], fr["i"]
    pc = st["pc"][i]
    if "regroup" in ids and pc[A(f)] and not pc[U(f)] and P.cubes(pc):
        return "regroup"
    elite = fr.get("free") and fr.get("opi") is None  # 8.6.1 Elite Backing: a Base if possible
    if "base" in ids and (elite or P.guerrillas(pc, f) >= (3 if f == AUC else 2)):
        return "base"
    many = [c for c in ids if c.startswith("many:")]
    if many:
        return max(many, key=lambda c: int(target(c)))
    if "place" in ids:
        return "place"
    return ids[0]


def pol_regroup(st, fr, chs, ids):
    if fr["n"] >= 3:
        return "done"
    for c in ids:
        if c.startswith("from:"):
            j = BD.index[target(c)]
            if not st["pc"][j][B(fr["f"])]:
                return c
    return "done"


def pol_extort(st, fr, chs, ids):
    real = [c for c in ids if c.startswith("space:")]
    if fr["f"] == FARC:
        # 8.7.1: each space with 2+ Underground FARC Guerrillas, and 1 LoC (lowest Econ first)
        done = fr["done"]
        real = [c for c in real if BD.index[target(c)] not in done]
        sps = [c for c in real if not BD.is_loc[BD.index[target(c)]] and st["pc"][BD.index[target(c)]][FARC_UNDERGROUND] >= 2]
        locs = [] if any(BD.is_loc[j] for j in done) else \
            [c for c in real if BD.is_loc[BD.index[target(c)]]]
        if locs and not sps:
            # the lowest Econ first; equal LoCs by 8.3
            low = min(BD.econ[BD.index[target(c)]] for c in locs)
            locs = [rnd(st, [c for c in locs if BD.econ[BD.index[target(c)]] == low])]
        real = sps + locs
    return real[0] if real else "done"
