"""8.8 Government Non-player Special Activities: Air Lift, Air Strike, Eradicate."""

from __future__ import annotations

from . import pieces as P
from .board import (
    ACTIVE,
    AUC,
    CARTELS,
    CARTELS_BASE,
    FACTIONS,
    FARC,
    GOVT,
    GOVT_BASE,
    INSURGENTS,
    POLICE,
    TROOPS,
    UNDERGROUND,
    B,
)
from .board import BOARD as BD
from .frames import target
from .np_base import IDS, rnd, rnd_best, sp_id
from .np_priorities import rank_space, target_order
from .op_common import opf
from .ops_govt import assault_removals, sweep_dest_ok
from .sa_govt import airstrike_spaces, airstrike_targets, eradicate_spaces
from .state import cap, is_np


def govt_sa(st, chs_ids, op_fr=None):
    """8.8.7: Eradicate (player Cartels with 8+ Bases), else Air Strike, else Air Lift, else Eradicate.
    ``op_fr``: the accompanying Operation's frame (Eradicate never in an Assault space)."""
    cb = P.count_on_map(st, CARTELS_BASE)
    order = []
    if not is_np(st, CARTELS) and cb >= 8:
        order.append("sa:eradicate")
    order += ["sa:airstrike", "sa:airlift", "sa:eradicate"]
    for o in order:
        if o == "sa:airstrike" and o in chs_ids and airstrike_pick(st) is None:
            continue  # 8.8.7: no Base of a player AUC/FARC nor last Insurgent piece: Air Lift
        if o == "sa:eradicate" and o in chs_ids and not (set(eradicate_spaces(st)) - eradicate_skip(st, op_fr)):
            continue  # 8.8.7: only a Department not selected (or about to be) for the Assault
        if o in chs_ids:
            return o
    return None


def eradicate_skip(st, op_fr) -> set:
    """8.8.7: Departments Eradicate must leave alone - those selected, or about to be selected per
    8.8.3, for the accompanying Assault."""
    if not op_fr or op_fr.get("k") != "op":
        return set()
    skip = set(op_fr.get("sel", ()))
    if op_fr.get("op") == "assault":
        left = (op_fr.get("plan") or {}).get("max", 3) - len(op_fr.get("sel", ()))
        if left > 0:
            skip |= assault_plan_spaces(st, left)
    return skip


def airstrike_pick(st, spaces=None):
    """8.8.7 Air Strike target as (space, Faction): a player AUC's Base, then a player FARC's
    Base; otherwise the last Insurgent piece of a space, first on the highest-Econ LoC (with an
    Active Guerrilla), then in the highest-Population Department, a player's piece before a
    Non-player's, then random. None: no such target (Air Lift instead)."""
    sps = airstrike_spaces(st) if spaces is None else spaces
    for g in (AUC, FARC):
        if is_np(st, g):
            continue
        cands = [i for i in sps if g in airstrike_targets(st, i) and st["pc"][i][B(g)] and not P.guerrillas(st["pc"][i], g)]
        if cands:
            return rnd(st, cands), g
    pairs, tgt = [], {}
    for i in sps:
        pc = st["pc"][i]
        if sum(pc[3:]) != 1:
            continue
        g = tgt[sp_id(i)] = airstrike_targets(st, i)[0]
        pairs.append(((1 if BD.is_loc[i] else 0, BD.econ[i] if BD.is_loc[i] else BD.pop[i], 0 if is_np(st, g) else 1),
                      sp_id(i)))
    c = rnd_best(st, pairs)
    return (BD.index[target(c)], tgt[c]) if c else None


def pol_airstrike(st, fr, chs, ids):
    """8.8.7 Air Strike: the target of :func:`airstrike_pick` (card 27 unshaded may give more
    than one strike: the same order each time)."""
    if fr["ph"] == "a":
        got = airstrike_pick(st, [BD.index[target(c)] for c in ids if c.startswith("space:")])
        if got is None:
            real = [c for c in ids if c.startswith("space:")]
            return rnd(st, real) if real else None
        fr["np_target"] = got[1]
        return f"space:{IDS[got[0]]}"
    g = fr.get("np_target")
    if g is None and fr.get("i") is not None:      # a player seat's bot: the same pick again
        got = airstrike_pick(st, [fr["i"]])
        g = got[1] if got else None
    if g is not None and f"target:{FACTIONS[g]}" in ids:
        return f"target:{FACTIONS[g]}"
    return target_order(st, ids)


def _lift_surplus(st, i):
    """Troops above those needed to keep Government Control (8.8.7 Air Lift origin)."""
    pc = st["pc"][i]
    g = P.fpieces(pc, GOVT)
    return min(pc[TROOPS], g - (sum(pc) - g) - 1)


def _would_build_base(st, i):
    pc = st["pc"][i]
    return BD.is_dept[i] and not pc[GOVT_BASE] and P.can_stack_base(st, i) and st["av"][GOVT_BASE] > 0


def _airlift_dest(st, fr, ids):
    """8.8.7 Air Lift destination for the accompanying Operation."""
    op = opf(st, fr)
    kind = op["op"] if op else "train"
    n = min(3, st["pc"][fr["src"]][TROOPS]) if cap(st, 10) != "s" else 1
    cands = [BD.index[target(c)] for c in ids]
    if kind in ("assault", "sweep"):
        short = []
        for i in cands:
            pc = st["pc"][i]
            if BD.is_loc[i] or P.is_zone(st, i):
                continue
            if kind == "assault":
                need = sum(pc[k] for k in ACTIVE) + sum(pc[B(g)] for g in INSURGENTS if not P.guerrillas(pc, g))
                if need and assault_removals(st, i) < need:
                    short.append((P.bases(pc) - pc[GOVT_BASE], BD.pop[i], i))
            else:
                und = sum(pc[k] for k in UNDERGROUND)
                have = P.cubes(pc) // 2 if BD.forest[i] else P.cubes(pc)
                if und and have < und and sweep_dest_ok(st, i):
                    short.append((1 if BD.is_city[i] else 0, 1 if st["sup"][i] > 0 else 0,
                                  1 if P.cubes(pc) else 0, BD.pop[i], i))
        if short:
            return max(short)[-1], "the highest-priority space short of cubes"
        pol = [i for i in cands if not BD.is_loc[i] and st["pc"][i][POLICE] and not st["pc"][i][TROOPS]]
        if pol:
            return rnd(st, pol), "Police but no Troops"
        return None, ""
    civic = []
    for i in cands:
        pc = st["pc"][i]
        if BD.is_loc[i] or BD.pop[i] <= 0 or st["sup"][i] >= 2 or pc[TROOPS] or not pc[POLICE]:
            continue
        g = P.fpieces(pc, GOVT) + n
        if g > sum(pc) - P.fpieces(pc, GOVT):
            civic.append((2 - st["sup"][i], BD.pop[i], i))
    if civic:
        return max(civic)[-1], "Troops enable Civic Action"
    base = [(BD.pop[i], i) for i in cands if BD.pop[i] > 0 and _would_build_base(st, i)
            and P.cubes(st["pc"][i]) < 5 <= P.cubes(st["pc"][i]) + n]
    if base:
        return max(base)[-1], "Troops enable a Government Base"
    pol = [i for i in cands if not BD.is_loc[i] and st["pc"][i][POLICE] and not st["pc"][i][TROOPS]]
    if pol:
        return rnd(st, pol), "Police but no Troops"
    ctl = []
    for i in cands:
        pc = st["pc"][i]
        if BD.pop[i] >= 1 and not BD.is_loc[i] and not P.govt_control(pc):
            g = P.fpieces(pc, GOVT) + n
            if g > sum(pc) - P.fpieces(pc, GOVT):
                ctl.append((BD.pop[i], i))
    if ctl:
        return max(ctl)[-1], "add Government Control"
    return None, ""


def pol_airlift(st, fr, chs, ids):
    """8.8.7 Air Lift: origin with 4+ cubes and Govt Control, most Troops above those keeping
    Control, preferring spaces where no Base would be built; destination per the Operation."""
    if fr["ph"] == "a":
        best = None
        for c in ids:
            i = BD.index[target(c)]
            pc = st["pc"][i]
            if BD.is_loc[i] or P.cubes(pc) < 4 or not P.govt_control(pc):
                continue
            key = (_lift_surplus(st, i), 0 if _would_build_base(st, i) else 1, pc[TROOPS])
            if key[0] > 0 and (best is None or key > best[0]):
                best = (key, c)
        return best[1] if best else ids[0]
    if fr["ph"] == "b":
        i, _ = _airlift_dest(st, fr, ids)
        return f"space:{IDS[i]}" if i is not None else None
    sur = _lift_surplus(st, fr["src"])
    top = max(int(target(c)) for c in ids)
    want = min(top, sur) if sur > 0 else top
    return f"n:{want}" if f"n:{want}" in ids else f"n:{top}"


def assault_plan_spaces(st, n) -> set:
    """The Cities and Departments an 8.8.3 Assault of ``n`` spaces would select (all spaces tied
    at the cut-off included, as the 8.2 table has not picked among them yet)."""
    ranked = sorted(((r, i) for i in P.spaces(st) if not BD.is_loc[i]
                     for r in (rank_space(st, GOVT, "assault", i),) if r is not None), reverse=True)
    if len(ranked) <= n:
        return {i for _, i in ranked}
    cut = ranked[n - 1][0]
    return {i for r, i in ranked if r >= cut}


def pol_eradicate(st, fr, chs, ids):
    """8.8.7 Eradicate: the Department where the most Cartels Bases go, not one selected (or about
    to be selected, 8.8.3) for the accompanying Assault; then the smallest Population, then an
    Opposition Department, then at random (8.2)."""
    if fr["ph"] != "a":
        return None
    skip = eradicate_skip(st, opf(st, fr))
    pairs = []
    for c in ids:
        if c.startswith("space:"):
            i = BD.index[target(c)]
            pairs.append(((0 if i in skip else 1, st["pc"][i][CARTELS_BASE], -BD.pop[i], 1 if st["sup"][i] < 0 else 0), c))
    return rnd_best(st, pairs)
