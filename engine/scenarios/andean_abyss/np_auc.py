"""8.6 AUC Non-player: its March (8.6.2), Assassinate."""

from __future__ import annotations

from . import pieces as P
from .board import AUC, CARTELS, FACTIONS, FARC, FARC_BASE, U
from .board import BOARD as BD
from .frames import target
from .np_base import IDS, rnd, rnd_best
from .np_farc import farc_distance
from .np_priorities import march_groups, march_room, march_target
from .op_common import opf


def auc_dest(st, op, groups):
    """8.6.2 first bullet: the single March destination - a City or Department with a FARC piece
    and no AUC Guerrilla, next to a group that may move; a FARC Base if possible, then one where the
    moving Guerrillas stay Underground (8.1.2), then random (8.2). The one already entered, if any
    (from the frame: ``np_adest``, else its first selected space)."""
    if op.get("np_adest") is not None:
        return op["np_adest"]
    if op.get("sel"):
        return op["sel"][0]
    pairs = []
    for j in P.spaces(st):
        if not march_target(st, AUC, j):
            continue
        near = [i for _, i, _ in groups if i != j and j in P.adj(st, i)]
        if near:
            hidden = any(st["pc"][i][U(AUC)] for i in near) and march_room(st, AUC, j) > 0
            pairs.append(((1 if st["pc"][j][FARC_BASE] else 0, 1 if hidden else 0), f"space:{IDS[j]}"))
    c = rnd_best(st, pairs)
    return BD.index[target(c)] if c else None


def auc_march_closer(st, fr, ids):
    """8.6.2 second bullet: the largest AUC group yet to move marches 1 space closer to a FARC
    piece (a Base if possible), leaving 1 Guerrilla with an AUC Base or any FARC piece."""
    best = None
    for c, i, spare in march_groups(st, AUC, ids, fr["moved"]):
        if auc_closer_cands(st, i) and (best is None or spare > best[0]):
            best = (spare, c)
    if best is None:
        return None
    fr.setdefault("np_pref", {})[str(BD.index[target(best[1])])] = auc_closer_dest(st, BD.index[target(best[1])])
    return best[1]


def auc_closer_cands(st, i) -> list:
    """8.6.2 second bullet: the adjacent spaces 1 step closer to a FARC piece (a Base first)."""
    dist = farc_distance(st)
    if i not in dist:
        return []
    return [j for j in P.adj(st, i) if dist.get(j, 99) < dist[i]]


def auc_closer_dest(st, i):
    """One of :func:`auc_closer_cands`, equal ones at random (8.2 / 8.3; it used to be the
    most populous)."""
    closer = auc_closer_cands(st, i)
    if len(closer) < 2:
        return closer[0] if closer else None
    return BD.index[target(rnd(st, [f"space:{IDS[j]}" for j in closer]))]


def pol_assassinate(st, fr, chs, ids):
    """8.6.4: Assassinate wherever Terror occurred (only spaces already selected); remove to take
    Shipments, then FARC, then Government, then Cartels (Bases first, 8.1.2)."""
    if fr["ph"] == "a":
        op = opf(st, fr)
        sel = op["sel"] if op else ()
        real = [c for c in ids if c.startswith("space:") and BD.index[target(c)] in sel]
        return real[0] if real else "done"
    holders = [g for g in (FARC, CARTELS) if any(x[0] == fr["i"] and x[1] == g for x in st["ship"])]
    first = tuple(f"{FACTIONS[g]}_{k}" for g in holders for k in ("underground", "active"))
    for key in first + ("farc_base", "farc_underground", "farc_active", "govt_base", "police", "troops",
                        "cartels_base", "cartels_underground", "cartels_active"):
        if f"target:{key}" in ids:
            return f"target:{key}"
    return None
