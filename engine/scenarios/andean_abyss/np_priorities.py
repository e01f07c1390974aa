"""8.5-8.8 Space priorities of the flowcharts (Sweep, Assault, Kidnap, March targets and groups), the Operation plans and 8.1.1 Op Not Possible."""

from __future__ import annotations

from . import pieces as P
from .board import (
    AUC,
    AUC_BASE,
    CARTELS,
    CARTELS_BASE,
    FACTIONS,
    FARC,
    FARC_BASE,
    GOVT,
    GOVT_BASE,
    POLICE,
    TROOPS,
    UNDERGROUND,
    A,
    B,
    U,
)
from .board import BOARD as BD
from .frames import target
from .np_base import IDS
from .op_targets import space_candidates
from .ops_govt import assault_removals, assault_targets, sweep_dest_ok, sweep_sources
from .ops_insurgent import attack_removable
from .state import cap, final_event_card, is_np


def begin(st, fr, facts, f, op, plan, rule, text):
    return ("op", op, plan, (text, rule))


PLANS = {
    CARTELS: {"rally": ({"max": 3, "sa": ["cultivate", "process"]}, "8.5.1"), "march": ({"max": 3, "sa": ["process"]}, "8.5.2"),
        "terror": ({"max": 3, "sa": ["bribe"]}, "8.5.3")},
    AUC: {"rally": ({"max": 3, "sa": ["extort"]}, "8.6.1"), "march": ({"max": 3, "sa": ["extort"]}, "8.6.2"),
        "attack": ({"max": 3, "sa": ["ambush"]}, "8.6.3"), "terror": ({"max": 3, "sa": ["assassinate"]}, "8.6.4")},
    FARC: {"rally": ({"max": 99, "sa": ["extort"]}, "8.7.1"), "march": ({"max": 4, "sa": ["extort"]}, "8.7.2"),
        "attack": ({"max": 99, "sa": ["ambush"]}, "8.7.3"), "terror": ({"max": 99, "sa": ["kidnap"]}, "8.7.4")},
}


def feasible(st, f, op) -> bool:
    """8.1.1 Op Not Possible: can the flowchart Operation be carried out in at least one space?"""
    if op == "march":
        return any(any(march_target(st, f, j) for j in P.adj(st, i))
                   for _, i, _ in march_groups(st, f, [f"from:{IDS[i]}" for i in P.spaces(st)], {}))
    fr = {"sel": [], "free": False}
    return any(rank_space(st, f, op, i) is not None for i in space_candidates(st, f, op, fr))


def march_target(st, f, i):
    pc = st["pc"][i]
    if f == CARTELS:
        return not BD.is_loc[i] and P.bases(pc) < 2 and any(P.guerrillas(st["pc"][j], CARTELS) >= 2 for j in P.adj(st, i))
    if f == AUC:
        return not BD.is_loc[i] and P.fpieces(pc, FARC) and not P.guerrillas(pc, AUC)
    if BD.is_loc[i]:
        return not st["sab"][i] and not P.guerrillas(pc, FARC) and not final_event_card(st)
    return BD.pop[i] > 0 and st["sup"][i] >= 0 and P.control(st, i) != "farc"


def rank_space(st, f, op, i):
    """Higher tuple = higher priority for an Operation space (None = do not select)."""
    pc = st["pc"][i]
    if op == "rally":
        # 8.5.1 / 8.6.1 / 8.7.1 bullets in order; ties random (8.2)
        g = P.guerrillas(pc, f)
        if pc[B(f)] and P.cubes(pc) and pc[A(f)] and (f == FARC or not pc[U(f)]):
            return (5, 0)      # flip Underground (Cartels/AUC: where all are Active)
        # replace 2 Guerrillas with a Base (8.5.1 / 8.7.1: 2 Guerrillas "without Shipments")
        free = g - (sum(1 for x in st["ship"] if x[0] == i and x[1] == f) if f in (FARC, CARTELS) else 0)
        if free >= (3 if f == AUC else 2) and P.bases(pc) < 2 and st["av"][B(f)]:
            return (4, 0)
        if not st["av"][U(f)]:
            return None
        if f == AUC and pc[FARC_BASE]:
            return (3, 0)      # AUC: FARC Base spaces, then AUC Base spaces
        if pc[B(f)] and (f != CARTELS or g == 0):
            return (2, 0)      # Base spaces (Cartels: only those without Cartels Guerrillas)
        if f == CARTELS:             # 8.5.1 last bullet: 1 Department where Cultivate could then place a Base
            ok = BD.is_dept[i] and BD.pop[i] > 0 and P.bases(pc) < 2 and g + 1 > pc[POLICE]
            return (1, 0) if ok else None
        if g in (1, 2) and (f != AUC or st["av"][B(AUC)]):
            return (1, 0)      # the "other" space: where 1 or 2 Guerrillas already are
        return (0, 0)          # otherwise random
    if op == "attack":
        g = P.guerrillas(pc, f)
        tgt = attack_removable(st, f, i)
        if not tgt:
            return None
        ship = any(s[0] == i and s[1] != f for s in st["ship"])
        if f == FARC:
            # 8.7.3: everywhere with 3+ FARC Guerrillas, then 1 City or Department (else LoC)
            # with an Underground Guerrilla for the Ambush
            if g >= 3:
                return (3, 1 if ship else 0, g)
            if pc[U(f)]:       # equal candidates: random (8.2), not by Guerrilla count
                return (0 if BD.is_loc[i] else 1, 1 if ship else 0)
            return None
        if f == AUC and not ship and not any(k <= FARC_BASE for k in tgt):
            return None        # 8.6.3: the AUC targets Shipments, then FARC, then Government only
        if g >= 3 or pc[U(f)]:
            return (g, 1 if ship else 0)   # 8.6.3 (and Cartels by Event): most Guerrillas first
        return None
    if op == "terror":
        if BD.is_loc[i]:
            return (3, BD.econ[i]) if f == FARC and not st["sab"][i] else None
        if BD.pop[i] <= 0:
            return (2, 0) if f == FARC and kidnap_could(st, i) else None
        s = st["sup"][i]
        if f == FARC:
            # 8.7.4: after the LoCs, spaces where Kidnap could take Resources or a Shipment (at
            # any level: the bullet names none), then the other spaces with Population not at
            # Active Opposition
            if kidnap_could(st, i):
                return (2, BD.pop[i])
            return (1, BD.pop[i]) if s > -2 else None
        if f == AUC:
            if pc[FARC_BASE] and pc[POLICE] < P.guerrillas(pc, AUC):
                return (3, BD.pop[i])
            if is_np(st, GOVT) and s > 0:
                return None
            return (2 if P.fpieces(pc, FARC) else 1, BD.pop[i]) if s != 0 else (0, BD.pop[i])
        # Cartels 8.5.3: Support, then Opposition, then Neutral spaces (Opposition first with a
        # Non-player Government and a player FARC); spaces of one level are equal (8.2 picks)
        order = (-1, 1, 0) if (is_np(st, GOVT) and not is_np(st, FARC)) else (1, -1, 0)
        return (3 - order.index(1 if s > 0 else -1 if s < 0 else 0), 0)
    if op == "assault":
        n = assault_removals(st, i)
        if n <= 0 or not assault_targets(st, i):
            return None
        if BD.is_loc[i]:
            if cap(st, 3) != "u":
                return None
            return (0, 0, 0, 0, BD.econ[i])  # 8.8.3: Tapias LoCs after every City/Department
        return assault_priority(st, i, n) + (BD.pop[i],)
    if op == "train":
        if P.is_zone(st, i) or BD.is_loc[i]:
            return None
        if not (BD.is_city[i] or pc[GOVT_BASE]):
            return None
        g = pc[TROOPS] + pc[POLICE] + pc[GOVT_BASE]
        others = sum(pc) - g
        change = BD.pop[i] if (g <= others and g + 6 > others) else -1   # 8.8.4: most Population
        # then Police or Troops where there are none yet (Police first), then random (8.2)
        return (change, 2 if not pc[POLICE] else 1 if not pc[TROOPS] else 0)
    if op == "sweep":
        return sweep_rank(st, i)
    return (0,)


def sweep_spare(st, j) -> int:
    """8.8.6: Troops that may leave space ``j`` for a Sweep without removing Government Control,
    leaving a Support space with fewer than 3 cubes, or a LoC with fewer cubes than Guerrillas
    (+1 with 7th Special Forces shaded)."""
    pc = st["pc"][j]
    n = 0
    while n < pc[TROOPS]:
        after = [pc[TROOPS] - n - 1] + pc[1:]
        if P.govt_control(pc) and not P.govt_control(after):
            break
        if st["sup"][j] > 0 and P.cubes(after) < 3:
            break
        if BD.is_loc[j] and P.cubes(after) < P.all_guerrillas(pc) + (1 if cap(st, 7) == "s" else 0):
            break
        n += 1
    return n


def sweep_rank(st, i):
    """8.8.6 Sweep spaces: first where all Guerrillas can be Activated, then where Government
    Control can be added; within those Cities, then Departments; then Support, then cubes
    already present, then elsewhere; then the largest Population. None: nothing to gain."""
    if BD.is_loc[i] or not sweep_dest_ok(st, i):
        return None
    pc = st["pc"][i]
    und = sum(pc[k] for k in UNDERGROUND)
    inflow = sum(sweep_spare(st, j) for j in sweep_sources(st, i, None))
    cubes = P.cubes(pc) + inflow
    all_act = und > 0 and (cubes // 2 if BD.forest[i] else cubes) >= und
    g = P.fpieces(pc, GOVT)
    others = sum(pc) - g
    add_ctl = BD.pop[i] > 0 and not P.govt_control(pc) and g + inflow > others
    if not (und or add_ctl):
        return None
    return (1 if all_act else 0, 1 if add_ctl else 0, 1 if BD.is_city[i] else 0, 1 if st["sup"][i] > 0 else 0,
            1 if P.cubes(pc) else 0, BD.pop[i])


def kidnap_could(st, i) -> bool:
    """4.3.3 / 8.7.4: FARC Guerrillas outnumber Police and a target has Resources or a
    Shipment: the Government in a City or on a LoC, the Cartels where they have a Base."""
    pc = st["pc"][i]
    if P.guerrillas(pc, FARC) <= pc[POLICE]:
        return False
    if (BD.is_city[i] or BD.is_loc[i]) and st["res"][GOVT] > 0:
        return True
    return bool(pc[CARTELS_BASE]) and (st["res"][CARTELS] > 0 or any(x[0] == i and x[1] == CARTELS for x in st["ship"]))


def assault_priority(st, i, n):
    """8.8.3 order: most Insurgent Bases removed, then Government Control gained (Population),
    then most Shipments removed, then the last Insurgent piece removed (1 = yes)."""
    pc = st["pc"][i]
    left = n
    removed = 0
    bases = 0
    ships = 0
    gone = []
    # cheapest factions first: their Bases fall once their (all Active) Guerrillas are gone
    for g in sorted((1, 2, 3), key=lambda g: pc[A(g)]):
        if left <= 0:
            break
        k = min(left, pc[A(g)])
        left -= k
        removed += k
        if k == pc[A(g)] and not pc[U(g)]:
            if pc[A(g)]:
                gone.append(g)
            b = min(left, pc[B(g)])
            left -= b
            removed += b
            bases += b
    for s_ in st["ship"]:
        if s_[0] == i and s_[1] in gone and not pc[U(s_[1])]:
            ships += 1
    ins = sum(pc[3:])
    g0 = P.fpieces(pc, GOVT)
    gain = BD.pop[i] if (g0 <= ins and g0 > ins - removed) else 0
    last = 1 if removed >= ins and ins > 0 else 0
    return (bases, gain, ships, last)


def farc_march_origin(st, i) -> bool:
    """8.7.2 guidelines: FARC March only from Active Opposition, 0-Population Departments or
    Sabotaged LoCs."""
    return st["sup"][i] == -2 or (BD.is_dept[i] and BD.pop[i] == 0) or bool(st["sab"][i])


def march_groups(st, f, ids, moved) -> list:
    """(choice id, origin, Guerrillas free to move) for each ``from:`` choice that has any:
    Guerrillas that already moved this March stay (3.3.2), and the Non-player leaves the one of
    :func:`march_keep`; FARC origins per :func:`farc_march_origin`."""
    out = []
    for c in ids:
        if not c.startswith("from:"):
            continue
        i = BD.index[target(c)]
        if f == FARC and not farc_march_origin(st, i):
            continue
        pc = st["pc"][i]
        spare = P.guerrillas(pc, f) - moved.get(str(i), 0) - march_keep(st, f, pc)
        if spare > 0:
            out.append((c, i, spare))
    return out


def march_keep(st, f, pc) -> int:
    """Guerrillas a Non-player leaves in a March origin: FARC 1 where any Faction has a Base
    (8.7.2), AUC 1 with an AUC Base or any FARC piece (8.6.2), Cartels 1 with a Cartels Base
    (8.5.2)."""
    if f == FARC:
        return 1 if P.bases(pc) else 0
    if f == AUC:
        return 1 if pc[AUC_BASE] or P.fpieces(pc, FARC) else 0
    return 1 if pc[CARTELS_BASE] else 0


def march_room(st, f, dst) -> int:
    """3.3.2: how many Guerrillas may March into ``dst`` and stay Underground (99: any)."""
    dpc = st["pc"][dst]
    s = st["sup"][dst]
    exposed = BD.is_loc[dst] or s > 0 or (f == AUC and s < 0)
    if not exposed:
        return 99
    return max(0, 3 - P.cubes(dpc) - (P.guerrillas(dpc, FARC) if f == AUC else 0))


def target_order(st, ids):
    for g in sorted((1, 2, 3), key=lambda g: (is_np(st, g), g)):
        t = f"target:{FACTIONS[g]}"
        if t in ids:
            return t
    return None


# 8.7.3 (FARC: AUC, Government, Cartels), 8.6.3 (AUC: FARC, Government - never the Cartels but
# to take a Shipment); Cartels by Event
ATTACK_ORDER = {FARC: (AUC, GOVT, CARTELS), AUC: (FARC, GOVT), CARTELS: (FARC, AUC, GOVT)}
