"""8.5 Cartels Non-player: its March, Cultivate, Process, Bribe."""

from __future__ import annotations

from . import pieces as P
from .board import BOARD as BD
from .board import CARTELS, CARTELS_BASE, CARTELS_UNDERGROUND
from .frames import target
from .np_base import rnd, rnd_best
from .np_priorities import march_groups, march_target
from .sa_cartels import cultivate_dests
from .state import is_np


def cartels_march_step(st, fr, ids):
    """8.5.2: March into 1 Department or City with fewer than 2 Bases next to a space with 2+
    Cartels Guerrillas (random among them, 8.2), with all adjacent Cartels Guerrillas but the last
    1 where a Cartels Base is."""
    groups = march_groups(st, CARTELS, ids, fr["moved"])
    dst = cartels_dest(st, fr, groups)
    if dst is None:
        return "done" if "done" in ids else None
    fr["np_cdest"] = dst
    used = [int(g.split(">")[0]) for g in fr.get("groups", ())]
    for c, i, _ in groups:
        if i != dst and dst in P.adj(st, i) and i not in used:   # one group per origin (3.3.2)
            fr.setdefault("np_pref", {})[str(i)] = dst
            fr["nsp"] += 1
            return c
    return "done" if "done" in ids else None


def cartels_dest(st, op, groups):
    """8.5.2: the single March destination - the one already entered, else a random candidate
    (8.2); from the state alone (the frame's ``sel`` and the RNG)."""
    if op.get("np_cdest") is not None:
        return op["np_cdest"]
    if op["sel"]:
        return op["sel"][0]
    cands = [j for j in P.spaces(st) if march_target(st, CARTELS, j)
             and any(i != j and j in P.adj(st, i) for _, i, _ in groups)]
    return rnd(st, cands) if cands else None


def pol_bribe(st, fr, chs, ids):
    if fr["ph"] == "a":
        if fr.get("free") is None and st["res"][CARTELS] < 3:
            return "done"
        # 8.5.3: spaces with Cartels and enemy pieces, a player's first, then Government, FARC,
        # AUC; equal spaces by the 8.2 table
        pairs = []
        for c in ids:
            pc = st["pc"][BD.index[target(c)]] if c.startswith("space:") else None
            if pc is None or not P.fpieces(pc, CARTELS):
                continue
            key = min(((is_np(st, g), g) for g in range(3) if P.fpieces(pc, g)), default=(2, 9))
            pairs.append(((-int(key[0]), -key[1]), c))
        return rnd_best(st, pairs) or "done"
    for pref in ("base:", "rm:police", "rm:troops", "rm:farc_underground", "rm:auc_underground", "rm:farc_active",
                 "rm:auc_active"):
        for c in ids:
            if c.startswith(pref):
                return c
    return "done"


def cultivate_np_ok(st, op) -> bool:
    """8.5.1 Cultivate bullets: a new Base in a Department selected for Rally, or a Base moved
    from a space with 2 Cartels Bases to a City or Department with none; otherwise Process."""
    dests = cultivate_dests(st, op)
    if st["av"][CARTELS_BASE] and any(BD.is_dept[i] and i in op.get("sel", ()) for i in dests):
        return True
    return any(not st["pc"][i][CARTELS_BASE] for i in dests) and any(st["pc"][j][CARTELS_BASE] >= 2 for j in P.spaces(st))


def pol_cultivate(st, fr, chs, ids):
    """8.5.1: Cultivate a new Base in a Rally Department, else relocate from a space with 2 Bases
    to one with no Cartels Base."""
    if fr["ph"] == "a":
        op = st["stack"][fr["opi"]] if fr.get("opi") is not None else {}
        sel = op.get("sel", [])
        best = [c for c in ids if c.startswith("space:") and BD.index[target(c)] in sel and BD.is_dept[BD.index[target(c)]]]
        empty = [c for c in ids if c.startswith("space:") and not st["pc"][BD.index[target(c)]][CARTELS_BASE]]
        pool = (best if best and st["av"][CARTELS_BASE] else []) or empty or [c for c in ids if c.startswith("space:")]
        return rnd(st, pool)
    if "place" in ids:
        return "place"
    two = [c for c in ids if c.startswith("from:") and st["pc"][BD.index[target(c)]][CARTELS_BASE] >= 2]
    # "from a space with 2 Cartels Bases": equal candidates, so 8.2 decides (a single one rolls nothing)
    return (two[0] if len(two) == 1 else rnd(st, two)) if two else None


def pol_process(st, fr, chs, ids):
    """8.5.1: 2 Shipments with Cartels Guerrillas (Underground first), else sell 1 Base from a 2-Base space."""
    if fr["ph"] == "a":
        return "ship" if "ship" in ids else "bases"
    if fr["ph"] == "ship":
        # each into a random space with a Cartels Guerrilla and Base, Underground Guerrillas first
        own = [c for c in ids if c.endswith(":cartels")]
        hidden = [c for c in own if st["pc"][BD.index[target(c)]][CARTELS_UNDERGROUND]]
        return rnd(st, hidden or own) if own else ("done" if "done" in ids else ids[0])
    if fr["n"] >= 1:
        return "done"
    two = [c for c in ids if c.startswith("space:") and st["pc"][BD.index[target(c)]][CARTELS_BASE] >= 2]
    return rnd(st, two) if two else "done"
