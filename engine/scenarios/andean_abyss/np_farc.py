"""8.7 FARC Non-player: its March (8.7.2), Kidnap."""

from __future__ import annotations

from engine.core.messages import msg

from . import pieces as P
from .board import BOARD as BD
from .board import CARTELS, CARTELS_BASE, FARC, FARC_BASE, GOVT
from .frames import target
from .np_base import IDS, rnd, rnd_best, sp_id
from .np_priorities import farc_march_origin, march_keep, march_room
from .ops_insurgent import march_dests, march_origins
from .state import final_event_card
from .texts import SN


def farc_march_step(st, fr, ids):
    """8.7.2: the origin of the next move of :func:`farc_march_next`; the move is kept in the
    Operation frame for the destination prompt (the engine's own frame; a player seat's bot
    derives the same move again from the unchanged state)."""
    nxt = farc_march_next(st, fr)
    if nxt is None or f"from:{IDS[nxt[0]]}" not in ids:
        return "done" if "done" in ids else None
    src, dst, bullet, _ = nxt
    fr["np_next"] = [src, dst, bullet]
    if bullet == 3:
        fr["np_final"] = 1
    fr["nsp"] += 1
    return f"from:{IDS[src]}"


# ---------------------------------------------------------------- 8.7.2 FARC March, move by move
def farc_spare(st, op) -> dict:
    """8.7.2 guidelines: origin -> FARC Guerrillas free to March (Active Opposition, 0-Population
    Department or Sabotaged LoC origins; Guerrillas that already moved stay, 3.3.2; 1 stays
    where any Base is). Read from the state only."""
    out = {}
    for i in march_origins(st, op):
        if farc_march_origin(st, i):
            n = P.guerrillas(st["pc"][i], FARC) - op["moved"].get(str(i), 0) - march_keep(st, FARC, st["pc"][i])
            if n > 0:
                out[i] = n
    return out


def farc_bullet2_dest(st, j) -> bool:
    """8.7.2 second bullet: a space without FARC Control, Population 1+, at Support or Neutral."""
    return not BD.is_loc[j] and BD.pop[j] >= 1 and st["sup"][j] >= 0 and P.control(st, j) != "farc"


def farc_final_done(st, op) -> bool:
    """Has the 8.7.2 last bullet ("1 more space") been taken? The engine marks it in the
    Operation frame; a player seat's frame (the bot only reads the state) shows it by a space
    entered at Opposition, which the second bullet never enters (a reading, rules notes)."""
    if op.get("np_final"):
        return True
    return any(not BD.is_loc[j] and st["sup"][j] < 0 for j in op["sel"])


def farc_march_next(st, op):
    """8.7.2: the next FARC March move as (origin, destination, bullet, why) or None, derived
    from the state alone (the Operation frame's ``moved`` / ``groups`` / ``sel`` and the RNG), so
    the same call at the origin prompt and at the destination prompt gives the same move.

    Bullet 1 (unless the next Propaganda is final, 2.4.1): LoCs without Sabotage nor a FARC
    Guerrilla that an origin reaches, highest Econ first, equal ones by 8.3; then the origin among
    those adjacent by 8.2; 1 Guerrilla each. Bullet 2: up to 3 spaces per
    :func:`farc_bullet2_dest`, a space where the Guerrillas stay Underground first (3.3.2), equal
    ones by 8.2; every adjacent origin then Marches in (in random order, 8.2) before the next
    space. Bullet 3: 1 more space with Population 1+ next to the origin with the most Guerrillas
    that would move (8.2 among equals). Playbook p. 25-26, steps A-G."""
    if farc_final_done(st, op):
        return None
    spare = farc_spare(st, op)
    if not spare:
        return None
    done = set(op.get("groups", ()))
    reach = {i: [j for j in march_dests(st, 1, i, op) if f"{i}>{j}" not in done] for i in spare}

    def origins_to(j):
        return [i for i in spare if j in reach[i]]

    def pick_origin(j):
        return BD.index[target(rnd(st, [f"from:{IDS[i]}" for i in origins_to(j)]))]
    if not final_event_card(st):
        locs = [j for j in BD.locs if not st["sab"][j] and not P.guerrillas(st["pc"][j], FARC) and origins_to(j)]
        if locs:
            top = max(BD.econ[j] for j in locs)
            dst = BD.index[target(rnd(st, [sp_id(j) for j in locs if BD.econ[j] == top]))]
            return pick_origin(dst), dst, 1, msg("1 Guerrilla onto the {top}-Econ LoC {space} (highest Econ first)", top=top, space=SN[dst])
    entered = [j for j in dict.fromkeys(op["sel"]) if not BD.is_loc[j]]
    for j in entered:          # a second-bullet space takes every adjacent origin before the next
        if origins_to(j):
            return pick_origin(j), j, 2, msg("into {space} with every adjacent origin (second bullet)", space=SN[j])
    if len(entered) < 3:
        cands = [j for j in P.spaces(st) if farc_bullet2_dest(st, j) and j not in entered and origins_to(j)]
        hidden = [j for j in cands if march_room(st, FARC, j) > 0]
        pool = hidden or cands
        if pool:
            dst = BD.index[target(rnd(st, [sp_id(j) for j in pool]))]
            how = "the Guerrillas stay Underground there" if hidden else "no candidate keeps them Underground"
            return (pick_origin(dst), dst, 2,
                    msg("into {space}, Support or Neutral without FARC Control ({how}; space {number} of up to 3)",
                        space=SN[dst], how=how, number=len(entered) + 1))
    most = max(spare.values())
    srcs = [i for i, n in spare.items() if n == most and any(BD.pop[j] >= 1 and not BD.is_loc[j] for j in reach[i])]
    if not srcs:
        return None
    src = BD.index[target(rnd(st, [f"from:{IDS[i]}" for i in srcs]))]
    dst = BD.index[target(rnd(st, [sp_id(j) for j in reach[src] if BD.pop[j] >= 1 and not BD.is_loc[j]]))]
    return src, dst, 3, msg("1 more space, {space}, from {space2} with the most Guerrillas that would move (last bullet)", space=SN[dst], space2=SN[src])


def farc_distance(st) -> dict:
    """Steps from each space to the nearest FARC Base (any FARC piece when there is no Base)."""
    sps = P.spaces(st)
    seeds = [i for i in sps if st["pc"][i][FARC_BASE]] or [i for i in sps if P.fpieces(st["pc"][i], FARC)]
    dist = {i: 0 for i in seeds}
    todo = list(seeds)
    while todo:
        nxt = []
        for i in todo:
            for j in P.adj(st, i):
                if j not in dist:
                    dist[j] = dist[i] + 1
                    nxt.append(j)
        todo = nxt
    return dist


def pol_kidnap(st, fr, chs, ids):
    """8.7.4: Kidnap on LoCs, then Cities (Government), then Departments with Cartels Bases."""
    if fr["ph"] == "a":
        real = [c for c in ids if c.startswith("space:")]
        real = [c for c in real if (BD.is_city[BD.index[target(c)]] or BD.is_loc[BD.index[target(c)]]) and st["res"][GOVT]
                or st["pc"][BD.index[target(c)]][CARTELS_BASE] and (st["res"][CARTELS] or any(
                    x[0] == BD.index[target(c)] and x[1] == CARTELS for x in st["ship"]))]
        # LoCs, then Cities, then Departments with Cartels Bases; equal spaces by 8.3 / 8.2
        return rnd_best(st, [(-(0 if BD.is_loc[BD.index[target(c)]] else 1 if BD.is_city[BD.index[target(c)]] else 2), c)
                             for c in real]) or "done"
    return "target:govt" if "target:govt" in ids and st["res"][GOVT] else None


def pol_kidnap6(st, fr, chs, ids):
    """4.3.3 roll of 6: the Non-player AUC places a Base before a Guerrilla (8.1.2)."""
    return "piece:auc_base" if "piece:auc_base" in ids else ids[0]
