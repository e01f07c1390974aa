"""8.4 / 6.0 Non-players in the Propaganda Round: Civic Action, Agitation, Redeploy, Elite, Zones."""

from __future__ import annotations

from . import pieces as P
from .board import AUC, AUC_BASE, CARTELS, FARC, GOVT, GOVT_BASE, POLICE, TROOPS
from .board import BOARD as BD
from .frames import target
from .np_base import IDS, rnd, rnd_best
from .np_priorities import rank_space
from .ops_govt import civic_ok
from .state import mom


def pol_agitate(st, fr, chs, ids):
    """8.7.5: fewest Terror markers, then Support, then highest Population, then randomly (8.2);
    Terror removed only where a shift would be achieved."""
    pairs = []
    for c in ids:
        if c.startswith("space:"):
            i = BD.index[target(c)]
            if st["ter"][i] and (st["res"][FARC] < st["ter"][i] + 1 or st["sup"][i] <= -2):
                continue  # 8.7.5: remove Terror only if a shift would be achieved
            pairs.append(((-st["ter"][i], 1 if st["sup"][i] > 0 else 0, BD.pop[i]), c))
    if not pairs:
        return "done"
    need = sum(st["ter"][BD.index[target(c)]] + st["sup"][BD.index[target(c)]] + 2 for _, c in pairs)
    if st["res"][FARC] >= need and not mom(st, 22):
        return max(pairs)[1]   # enough to Agitate everywhere: the order changes nothing, no dice
    return rnd_best(st, pairs)


def pol_drugs(st, fr, chs, ids):
    return "base" if "base" in ids else "res"


def pol_redeploy(st, fr, chs, ids):
    """8.8.9: Troops go first where a Govt Base, then a City (highest Population first) lacks
    3 cubes; otherwise to Bogotá."""
    if fr["ph"] == "must":
        need = []
        for c in ids:
            if not c.startswith("space:"):
                continue
            j = BD.index[target(c)]
            pc = st["pc"][j]
            if P.cubes(pc) < 3 or not P.govt_control(pc):   # 3+ cubes and Government Control
                need.append(((1 if pc[GOVT_BASE] else 0), BD.pop[j], c))
        if need:
            return max(need)[2]
        # then 1 Troop to each City (or Base Department) that only has Police
        only_police = [(BD.pop[BD.index[target(c)]], c) for c in ids if c.startswith("space:")
                       and st["pc"][BD.index[target(c)]][POLICE] and not st["pc"][BD.index[target(c)]][TROOPS]]
        if only_police:
            return max(only_police)[1]
        b = f"space:{IDS[BD.bogota]}"
        return b if b in ids else ids[0]
    if fr["ph"] == "from":
        plan = police_redeploy_step(st, fr, ids)
        if plan is None:
            return "done"
        fr["np_dest"] = plan[1]
        return f"police:{IDS[plan[0]]}"
    if fr["ph"] == "to":
        dst = fr.get("np_dest")
        if dst is None:
            # a player seat's bot: the same step again from the state (nothing moved since)
            srcs = [f"police:{IDS[i]}" for i in P.spaces(st) if st["pc"][i][POLICE] and any(j != i for j in fr["pdest"])]
            plan = police_redeploy_step(st, fr, srcs)
            dst = plan[1] if plan and plan[0] == fr["src"] else None
        fr["np_dest"] = None
        c = f"space:{IDS[dst]}" if dst is not None else None
        return c if c in ids else None
    return None


def police_redeploy_step(st, fr, ids):
    """8.8.9 Police Redeploy: the next (origin, destination) or None when no bullet applies.

    Each Police moves at most once, from the space with the most unmoved Police, never taking
    the last Police from a City or Department; destinations in bullet order: keep Govt Control
    of Population 1+ Departments without a Govt Base, match the larger of the AUC or Cartels
    Guerrillas in Cities and Departments, 1 Police in each Population 1+ space without any, 1 on
    each Econ 3 LoC, then 3 cubes in each Support Department without a Govt Base."""
    moved = fr.get("parr", {})      # Police that arrived this Redeploy (the frame records them)
    dests = [j for j in fr["pdest"]]
    pcs = st["pc"]

    def unmoved(i):
        return pcs[i][POLICE] - moved.get(str(i), 0)

    def sources(j):
        out = []
        for c in ids:
            if not c.startswith("police:"):
                continue
            i = BD.index[target(c)]
            if i == j or unmoved(i) <= 0 or (not BD.is_loc[i] and pcs[i][POLICE] <= 1):
                continue
            out.append((unmoved(i), i))
        return max(out)[1] if out else None

    def others(pc):
        return sum(pc) - P.fpieces(pc, GOVT)

    bullets = [
        lambda j, pc: (BD.is_dept[j] and BD.pop[j] >= 1 and not pc[GOVT_BASE] and not P.govt_control(pc)
                       and others(pc) - P.fpieces(pc, GOVT) < 3),
        lambda j, pc: not BD.is_loc[j] and pc[POLICE] < max(P.guerrillas(pc, AUC), P.guerrillas(pc, CARTELS)),
        lambda j, pc: not BD.is_loc[j] and BD.pop[j] >= 1 and not pc[POLICE],
        lambda j, pc: BD.is_loc[j] and BD.econ[j] == 3 and not pc[POLICE],
        lambda j, pc: BD.is_dept[j] and st["sup"][j] > 0 and not pc[GOVT_BASE] and P.cubes(pc) < 3,
    ]
    for test in bullets:
        want = sorted((j for j in dests if test(j, pcs[j])), key=lambda j: -BD.pop[j])
        for j in want:
            i = sources(j)
            if i is not None and f"police:{IDS[i]}" in ids:
                return i, j
    return None


def pol_zoneout(st, fr, chs, ids):
    """6.4.4 by 8.8.9's Redeploy priorities: cubes go where a Govt Base, then a City (highest
    Population first) has fewer than 3 cubes, then Police where there are none; else Bogota."""
    need = []
    for c in ids:
        j = BD.index[target(c)]
        pc = st["pc"][j]
        if not BD.is_loc[j] and P.cubes(pc) < 3:
            need.append(((1 if pc[GOVT_BASE] else 0), BD.pop[j], c))
        elif BD.is_loc[j] and not pc[POLICE] and BD.econ[j] == 3:
            need.append((0, 0, c))
    if need:
        return max(need)[2]
    b = f"space:{IDS[BD.bogota]}"
    return b if b in ids else rnd(st, ids)


def pol_elite(st, fr, chs, ids):
    """8.6.1 Elite Backing: a space where the free Rally places a Base (2+ AUC Guerrillas, room,
    a Base Available), otherwise the Rally priorities of 8.6.1; ties random (8.2)."""
    real = [c for c in ids if c.startswith("space:")]
    if not real:
        return "none"

    def key(c):
        i = BD.index[target(c)]
        base = st["av"][AUC_BASE] and P.guerrillas(st["pc"][i], AUC) >= 2 and P.can_stack_base(st, i)
        return (1 if base else 0, rank_space(st, AUC, "rally", i) or (-1, 0))
    top = max(key(c) for c in real)
    return rnd(st, [c for c in real if key(c) == top])


def pol_zone(st, fr, chs, ids):
    """6.4.4 Government FARC Zone among the Departments with most FARC pieces: a Non-player
    Government takes the one costing it least (fewest Government pieces to Redeploy or remove),
    then the smallest Population (8.4.3: smallest shift toward Opposition), then random (8.2)."""
    cands = [c for c in ids if c.startswith("space:")]
    if not cands:
        return ids[0]

    def key(c):
        i = BD.index[target(c)]
        return (P.fpieces(st["pc"][i], GOVT), BD.pop[i])
    low = min(key(c) for c in cands)
    return rnd(st, [c for c in cands if key(c) == low])


def pol_seventh(st, fr, chs, ids):
    """8.8.9 Sabotage Phase with 7th Special Forces unshaded: Sabotage off the three 3-Econ LoCs,
    then Terror where Civic Action would come first (8.8.8: toward Passive Support, largest
    Opposition reduction, then Support increase), then other Sabotage, highest Econ first."""
    cands = [BD.index[target(c)] for c in ids if c.startswith("space:")]
    if not cands:
        return "done"

    def key(i):
        if BD.is_loc[i] and st["sab"][i]:
            return (2 if BD.econ[i] == 3 else 0, BD.econ[i], 0)
        ok = civic_ok(st, i, True)
        return (1, 1 if ok else 0, (1 if st["sup"][i] < 1 else 0, -st["sup"][i], BD.pop[i]))
    best = max(key(i) for i in cands)
    return rnd(st, [f"space:{IDS[i]}" for i in cands if key(i) == best])
