"""8.8 Government Non-player Operations: Train (8.8.4), Patrol (8.8.5), Sweep (8.8.6), Assault (8.8.3)."""

from __future__ import annotations

from engine.core.messages import msg

from . import pieces as P
from .board import ACTIVE, GOVT, GOVT_BASE, INSURGENTS, PIECE_KEYS, POLICE, TROOPS, UNDERGROUND, B
from .board import BOARD as BD
from .frames import target
from .np_base import IDS, rnd, rnd_best
from .np_govt_sa import govt_sa
from .np_priorities import begin, rank_space, sweep_rank, sweep_spare, target_order
from .op_common import op_cost, opf
from .op_targets import space_candidates
from .ops_govt import assault_removals, assault_targets, patrol_reach
from .state import cap, final_event_card, is_np, mom


# ====================================================================== 8.8 Government
def govt_ops(st, fr, facts=None):
    sps = P.spaces(st)
    res = st["res"][GOVT]
    cost = 1 if cap(st, 3) == "u" else 3

    def assault_gain(i):
        pc = st["pc"][i]
        if BD.is_loc[i] or mom(st, 17) and BD.is_dept[i]:
            return 0, False
        n = assault_removals(st, i)
        ts = assault_targets(st, i)
        if n <= 0 or not ts:
            return 0, False
        act = sum(pc[k] for k in ACTIVE)
        ship = any(s[0] == i for s in st["ship"]) and act >= 1
        player_base = any(pc[B(g)] and not P.guerrillas(pc, g) and not is_np(st, g) for g in INSURGENTS)
        return min(n, act), ship or player_base
    total = 0
    special = False
    for i in sps:
        k, s = assault_gain(i)
        total += k
        special = special or s
    if res >= cost and (special or total >= 4):
        return begin(st, fr, facts, GOVT, "assault", {"max": max(1, 9 // cost), "sa": ["pre"]}, "8.8.3",
                     msg("Assault (would remove a Shipment, a player's Base or 4+ Guerrillas)"))
    avail = st["av"][TROOPS] + st["av"][POLICE] + st["av"][GOVT_BASE]
    # 8.8.4 / 8.8.8: Civic Action in a space without Terror that leaves 15+ Resources after
    # paying for its Train space - judged, like the 3rd Train bullet it serves, after the Train
    # has placed its cubes where it may (a City or a Govt-Base Department, 8.1.2 mix)
    can_civic = any(civic_levels(st, i, train_placed(st, i), res - 3) for i in sps)
    if res >= 3 and (avail >= 10 or can_civic):
        return begin(st, fr, facts, GOVT, "train", {"max": 3, "sa": ["mid"]}, "8.8.4", msg("Train (10+ pieces Available or Civic Action)"))
    loc_threat = any(BD.is_loc[i] and (P.all_guerrillas(st["pc"][i]) and (
        sum(st["pc"][i][k] for k in UNDERGROUND) or P.all_guerrillas(st["pc"][i]) > P.cubes(st["pc"][i]))) for i in sps)
    if loc_threat and res >= 3:
        return begin(st, fr, facts, GOVT, "patrol", {"max": 99, "sa": ["post"]}, "8.8.5", msg("Patrol (Guerrillas threaten LoCs)"))
    scost = 1 if cap(st, 2) == "u" else 3
    if res >= scost and not final_event_card(st) or res >= scost:
        if any(sweep_rank(st, i) is not None for i in space_candidates(st, GOVT, "sweep", {"sel": [], "free": False})):
            return begin(st, fr, facts, GOVT, "sweep", {"max": max(1, 12 // scost), "sa": ["pre"]}, "8.8.6", msg("Sweep"))
    if res >= 3 and avail:
        return begin(st, fr, facts, GOVT, "train", {"max": 4, "sa": ["mid"]}, "8.8.4", msg("Train ('if none' arrow)"))
    return ("pass", None, None, (msg("cannot afford an Operation: Pass"), "8.1"))


def train_mix(st) -> tuple:
    """8.1.2: up to 6 cubes, alternating Police and Troops (Police first when even)."""
    at, ap = st["av"][TROOPS], st["av"][POLICE]
    tot = min(6, at + ap)
    p = min(ap, (tot + 1) // 2)
    t = min(at, tot - p)
    p = min(ap, tot - t)
    return t, p


def civic_levels(st, i, pc=None, res=None) -> int:
    """8.8.4 / 8.8.8: Support levels Civic Action in Train could buy in space ``i`` (no Terror,
    Troops, Police and Govt Control, never below 15 Resources); 0 when none."""
    pc = st["pc"][i] if pc is None else pc
    res = st["res"][GOVT] if res is None else res
    if BD.is_loc[i] or BD.pop[i] <= 0 or st["ter"][i] or st["sup"][i] >= 2 or not P.active_space(st, i):
        return 0
    if not P.govt_control(pc):
        return 0
    if cap(st, 1) == "s":
        if pc[TROOPS] < 2 or pc[POLICE] < 2:
            return 0
    elif not (pc[TROOPS] and pc[POLICE]):
        return 0
    return max(0, min(2 - st["sup"][i], (res - 15) // 3))


def train_placed(st, i) -> list:
    """Pieces of space ``i`` once a Train has placed its cubes there (3.2.1: Cities and
    Departments with a Govt Base, not a FARC Zone; 8.1.2 mix of the Available cubes)."""
    pc = st["pc"][i]
    if BD.is_loc[i] or not (BD.is_city[i] or pc[GOVT_BASE]) or P.is_zone(st, i):
        return pc
    t, p = train_mix(st)
    return [pc[TROOPS] + t, pc[POLICE] + p] + pc[GOVT_BASE:]


def train_extra_civic(st, fr, ids):
    """8.8.4 third bullet: 1 additional Train space where Civic Action is possible (after placing
    up to 6 cubes per 8.1.2 there if able), for the largest shift (levels x Population)."""
    pairs = []
    for c in ids:
        if not c.startswith("space:"):
            continue
        i = BD.index[target(c)]
        pc = list(st["pc"][i])
        if BD.is_city[i] or pc[GOVT_BASE]:
            t, p = train_mix(st)
            pc[TROOPS] += t
            pc[POLICE] += p
        lv = civic_levels(st, i, pc, st["res"][GOVT] - op_cost(st, GOVT, "train", i))
        if lv > 0:
            pairs.append((lv * BD.pop[i], c))
    return rnd_best(st, pairs)


def train_base_dept(st, ids):
    """8.8.4 last bullet: the Department with the highest Population (1+) without a Govt Base,
    with room for a Base and at least 5 cubes."""
    if not st["av"][GOVT_BASE]:
        return None
    cands = []
    for c in ids:
        if not c.startswith("space:"):
            continue
        i = BD.index[target(c)]
        pc = st["pc"][i]
        if BD.is_dept[i] and BD.pop[i] > 0 and not pc[GOVT_BASE] and P.can_stack_base(st, i) and P.cubes(pc) >= 5:
            cands.append((BD.pop[i], c))
    if not cands:
        return None
    top = max(k for k, _ in cands)
    return rnd(st, [c for k, c in cands if k == top])


def train_step(st, fr, ids):
    """8.8.4 Train, bullet by bullet: up to 3 spaces with exactly 6 cubes (8.1.2), then a Special
    Activity (8.8.7), then Civic Action in a Train space or 1 additional space, and if no Civic
    Action is possible, a Base in the highest-Population Department with 5+ cubes."""
    ph = fr.setdefault("np_ph", "place")
    if ph == "place":
        if fr["nsp"] < 3 and st["av"][TROOPS] + st["av"][POLICE]:
            pairs = [(r, c) for c in ids if c.startswith("space:")
                     for r in (rank_space(st, GOVT, "train", BD.index[target(c)]),) if r is not None]
            if pairs:
                fr["nsp"] += 1
                return rnd_best(st, pairs)
        fr["np_ph"] = ph = "sa"
    if ph == "sa":
        fr["np_ph"] = ph = "civic"
        if fr["sa"] is None:
            s = govt_sa(st, ids)
            if s:
                return s
    if ph == "civic":
        fr["np_ph"] = "end"
        if not any(civic_levels(st, i) for i in fr["sel"]):
            c = train_extra_civic(st, fr, ids)
            if c is None:
                c = train_base_dept(st, ids)
            if c is not None:
                return c
    return "done" if "done" in ids else None


def patrol_plan(st, fr, ids):
    """8.8.5 Patrol movement: the next (origin, slot, destination), or None.

    Police then Troops, never the last cube of a type from a City or Department, each cube once:
    first bring each LoC's cubes up to its Guerrillas (+1 with 7th Special Forces shaded) from the
    space with most cubes able to reach it; then from Govt-Controlled spaces with 4+ cubes (largest
    surplus above Control first) until Cities have 3+ cubes, Govt Control, Troops and Police; then
    1 Police to each 3-Econ LoC without Police."""
    origins = [BD.index[target(c)] for c in ids if c.startswith("from:")]
    pcs = st["pc"]
    moved = fr["moved"]

    def movable(i, slot):
        if BD.is_loc[i]:
            return 0
        return pcs[i][slot] - 1 - moved.get(str(i), 0)   # cubes that arrived stay put

    def pick(dest, origin_ok, slots=(1, 0)):
        best = None
        for i in origins:
            if i == dest or not origin_ok(i) or dest not in patrol_reach(st, i):
                continue
            for slot in slots:
                if movable(i, slot) > 0:
                    key = (P.cubes(pcs[i]), slot)
                    if best is None or key > best[0]:
                        best = (key, (i, slot, dest))
                    break
        return best[1] if best else None

    extra = 1 if cap(st, 7) == "s" else 0
    for j in sorted(BD.locs, key=lambda j: -BD.econ[j]):
        if P.all_guerrillas(pcs[j]) + extra > P.cubes(pcs[j]) and P.all_guerrillas(pcs[j]):
            got = pick(j, lambda i: True)
            if got:
                return got

    def surplus(i):
        pc = pcs[i]
        g = P.fpieces(pc, GOVT)
        return g - (sum(pc) - g) - 1

    def donor(i):
        return P.cubes(pcs[i]) >= 4 and P.govt_control(pcs[i]) and surplus(i) > 0
    for j in sorted(BD.cities, key=lambda j: -BD.pop[j]):
        pc = pcs[j]
        if P.cubes(pc) >= 3 and P.govt_control(pc) and pc[TROOPS] and pc[POLICE]:
            continue
        slots = (1, 0) if not pc[POLICE] else (0, 1) if not pc[TROOPS] else (1, 0)
        got = pick(j, donor, slots)
        if got:
            return got
    for j in BD.locs:
        if BD.econ[j] == 3 and not pcs[j][POLICE]:
            got = pick(j, lambda i: True, (1,))
            if got:
                return got
    return None


def patrol_step(st, fr, ids):
    """8.8.5: move cubes per :func:`patrol_plan`, then add a Special Activity, then Done."""
    moves = fr.setdefault("np_moves", 0)
    if moves < 30 and not fr.get("np_moves_done"):
        plan = patrol_plan(st, fr, ids)
        if plan:
            fr["np_moves"] = moves + 1
            fr["np_patrol"] = [plan[1], plan[2]]
            return f"from:{IDS[plan[0]]}"
    fr["np_moves_done"] = 1
    if fr["sa"] is None:
        s = govt_sa(st, ids)
        if s:
            return s
    return "done"


def pol_trainsp(st, fr, chs, ids):
    t, p = train_mix(st)
    return f"mix:{t}-{p}"


def pol_trainx(st, fr, chs, ids):
    # 8.8.4 / 8.8.8: Civic Action for the largest shift possible in a space with no Terror
    # (never below 15 Resources)
    civ = []
    for c in ids:
        if c.startswith("civic:"):
            lv = civic_levels(st, BD.index[target(c)])
            if lv:
                civ.append((lv * BD.pop[BD.index[target(c)]], c))
    if civ:  # Train is never in the final Propaganda Round
        return max(civ)[1]
    # 8.8.4: a Base only in the highest-Population Department (Population 1+) without a Govt
    # Base, with room and at least 5 cubes
    base = [(BD.pop[BD.index[target(c)]], c) for c in ids if c.startswith("base:")
            and BD.is_dept[BD.index[target(c)]] and BD.pop[BD.index[target(c)]] > 0
            and not st["pc"][BD.index[target(c)]][GOVT_BASE] and P.cubes(st["pc"][BD.index[target(c)]]) >= 5]
    if base:
        return max(base)[1]
    return "done"


def pol_civic(st, fr, chs, ids):
    """8.8.8 Civic Action (never below 15 Resources but in the final Propaganda Round): first to
    Passive Support wherever possible - spaces without Terror first, then the largest reduction
    of Opposition, then the largest increase of Support, then random; then to Active Support,
    highest Population first. (In a Train, the frame offers only the chosen space.)"""
    final = st["props_done"] >= st["props_total"]
    if not final and st["res"][GOVT] - 3 < 15:
        return "done"
    pairs = []
    for c in ids:
        if c.startswith("space:"):
            i = BD.index[target(c)]
            s = st["sup"][i]
            if s < 1:
                key = (1, 0 if st["ter"][i] else 1, BD.pop[i] * -min(s, 0), BD.pop[i])
            else:
                key = (0, 0, 0, BD.pop[i])
            pairs.append((key, c))
    return rnd_best(st, pairs) or "done"


def pol_sweepsp(st, fr, chs, ids):
    i = fr["i"]
    pc = st["pc"][i]
    if fr["ph"] == "move":
        und = sum(pc[k] for k in UNDERGROUND)
        need = und * (2 if BD.forest[i] else 1)
        others = sum(pc) - pc[TROOPS] - pc[POLICE] - pc[GOVT_BASE]
        if P.cubes(pc) < max(need, others + 1 - pc[GOVT_BASE]) or not pc[TROOPS]:
            for c in ids:
                # 8.8.6: never remove Government Control, leave a Support space below 3 cubes
                # or a LoC with fewer cubes than Guerrillas
                if c.startswith("from:") and sweep_spare(st, BD.index[target(c)]) > 0:
                    return c
        pol = [c for c in ids if c.startswith("police:")]
        if pol and not pc[POLICE]:
            return pol[0]
        return "done"
    return target_order(st, ids)


def pol_assaultsp(st, fr, chs, ids):
    return target_order(st, ids)


def pol_patrolmv(st, fr, chs, ids):
    """8.8.5: the cube and destination planned by :func:`patrol_plan`; otherwise Police before
    Troops, to the LoC where Guerrillas most outnumber cubes, else a 3-Econ LoC without Police."""
    op = opf(st, fr)
    plan = (op or {}).get("np_patrol")
    if plan is None and op is not None and not op.get("np_moves_done"):
        # a player seat's bot: the move planned at the origin prompt, again from the state
        from .frames import PROMPTS
        got = patrol_plan(st, op, [c.id for c in PROMPTS["op"](st, op)[2]])
        plan = [got[1], got[2]] if got and got[0] == fr.get("src", got[0]) else None
    if plan:
        slot, dest = plan
        if fr["slot"] is None:
            c = f"piece:{PIECE_KEYS[slot]}"
            if c in ids:
                return c
        elif f"space:{IDS[dest]}" in ids:
            op["np_patrol"] = None
            return f"space:{IDS[dest]}"
    if fr["slot"] is None:
        return "piece:police" if "piece:police" in ids else "piece:troops"
    best = None
    for c in ids:
        if not c.startswith("space:"):
            continue
        j = BD.index[target(c)]
        pc = st["pc"][j]
        gap = P.all_guerrillas(pc) - P.cubes(pc)
        key = (BD.is_loc[j], gap > 0, gap, BD.econ[j] == 3 and not pc[POLICE], BD.econ[j])
        if best is None or key > best[0]:
            best = (key, c)
    return best[1] if best else None


def pol_basecubes(st, fr, chs, ids):
    """8.1.2: the Government removes Troops and Police alternately, starting with whichever it
    has most of in the space, keeping the last Police as long as possible."""
    pc = st["pc"][fr["i"]]
    if "piece:troops" in ids and (pc[TROOPS] >= pc[POLICE] or pc[POLICE] <= 1):
        return "piece:troops"
    return "piece:police" if "piece:police" in ids else ids[0]


def pol_patrolact(st, fr, chs, ids):
    """3.2.2 Patrol Activation on a LoC: player Guerrillas first, then FARC, AUC, Cartels
    (the 8.8.3 target order)."""
    return target_order(st, ids)
