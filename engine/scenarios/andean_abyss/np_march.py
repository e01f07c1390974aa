"""8.5-8.7 Insurgent March as the flowcharts move it, group by group."""

from __future__ import annotations

from . import pieces as P
from .board import AUC, CARTELS, FARC, A, U
from .board import BOARD as BD
from .frames import target
from .np_auc import auc_closer_dest, auc_dest, auc_march_closer
from .np_base import IDS, rnd
from .np_cartels import cartels_dest, cartels_march_step
from .np_farc import farc_march_next, farc_march_step
from .np_priorities import march_groups, march_keep, march_room, march_target
from .op_common import opf


def march_step(st, fr, ids):
    f = fr["f"]
    if f == CARTELS:
        return cartels_march_step(st, fr, ids)
    if f == FARC:
        return farc_march_step(st, fr, ids)
    if f == AUC and not fr.get("np_closer"):
        # 8.6.2 first bullet: 1 destination, entered by every adjacent group (one per origin)
        groups = march_groups(st, AUC, ids, fr["moved"])
        dst = auc_dest(st, fr, groups)
        if dst is not None:
            fr["np_adest"] = dst
            used = [int(g.split(">")[0]) for g in fr.get("groups", ())]
            for c, i, _ in groups:
                if i != dst and dst in P.adj(st, i) and i not in used:
                    fr.setdefault("np_pref", {})[str(i)] = dst
                    fr["nsp"] += 1
                    return c
    if fr["nsp"] >= (fr.get("plan") or {}).get("max", 3) and f != AUC:
        return "done" if "done" in ids else None
    best = None
    for c, i, spare in (march_groups(st, f, ids, fr["moved"]) if f != AUC else ()):
        if not any(march_target(st, f, j) for j in P.adj(st, i)):
            continue
        if best is None or spare > best[0]:
            best = (spare, c)
    if best:
        fr["nsp"] += 1
        return best[1]
    if f == AUC and not fr.get("np_closer"):
        c = auc_march_closer(st, fr, ids)
        if c is not None:
            fr["np_closer"] = 1
            fr["nsp"] += 1
            return c
    return "done" if "done" in ids else None


def march_dest_plan(st, f, op, src):
    """The destination the Non-player planned for the group leaving ``src``, from the state
    alone: the engine keeps it in the Operation frame (``np_next`` / ``np_pref``); on a player
    seat (whose frame the bot cannot write) the same flowchart step is worked out again from the
    unchanged state and RNG, which gives the same move (8.5.2 / 8.6.2 / 8.7.2)."""
    if op is None:
        return None
    nxt = op.get("np_next")
    if f == FARC:
        if not (nxt and nxt[0] == src):
            nxt = farc_march_next(st, op)
        return nxt[1] if nxt and nxt[0] == src else None
    pref = op.get("np_pref", {}).get(str(src))
    if pref is not None:
        return pref
    if f == CARTELS:
        return cartels_dest(st, op, march_groups(st, CARTELS, [f"from:{IDS[i]}" for i in P.spaces(st)], op["moved"]))
    if f == AUC:
        if op.get("np_closer") or not any(march_target(st, AUC, j) for j in P.adj(st, src)):
            return auc_closer_dest(st, src)
        dst = auc_dest(st, op, march_groups(st, AUC, [f"from:{IDS[i]}" for i in P.spaces(st)], op["moved"]))
        return dst if dst is not None and dst in P.adj(st, src) else auc_closer_dest(st, src)
    return None


def pol_marchgrp(st, fr, chs, ids):
    """8.1.2 March: destinations where the moving Guerrillas stay Underground first (8.6.2 first
    bullet, 8.7.2 second bullet), then random (8.2); move as many Underground Guerrillas as can
    stay Underground (with Active ones filling the rest of that room); where Activation cannot be
    avoided, Active Guerrillas first; the Guerrilla left behind (8.5.2-8.7.2) is an Underground one
    if possible."""
    f = fr["f"]
    op = opf(st, fr)
    src = fr["src"]
    pc = st["pc"][src]
    if fr["dst"] is None:
        pref = march_dest_plan(st, f, op, src)
        if pref is not None and f"space:{IDS[pref]}" in ids:
            return f"space:{IDS[pref]}"
        cands = [c for c in ids if c.startswith("space:") and march_target(st, f, BD.index[target(c)])]
        cands = cands or [c for c in ids if c.startswith("space:")]
        if pc[U(f)]:
            hidden = [c for c in cands if march_room(st, f, BD.index[target(c)]) > 0]
            cands = hidden or cands
        return rnd(st, cands)
    keep = march_keep(st, f, pc)
    dst = fr["dst"]
    room = march_room(st, f, dst)
    if f == FARC and BD.is_loc[dst]:
        room = 1  # 8.7.2: 1 Guerrilla onto each LoC
    mu_ids = [int(target(c)) for c in ids if c.startswith("u:")]
    if fr["nu"] is None:
        mu = max(mu_ids)
        free_u = max(0, mu - keep)                       # the one left behind is Underground
        if room > 0:
            return f"u:{min(free_u, room)}"
        # Activation unavoidable: Active Guerrillas move first, Underground ones only when no
        # Active one can go
        return "u:0" if pc[A(f)] else f"u:{free_u}"
    nas = [int(target(c)) for c in ids if c.startswith("a:")]
    left_u = pc[U(f)] - fr["nu"]
    keep_a = max(0, keep - left_u)                       # Underground ones stay behind first
    n = max(0, min(max(nas), pc[A(f)] - keep_a))
    if room > 0 and room < 99:
        n = min(n, max(0, room - fr["nu"]))
    n = max(n, min(nas))
    return f"a:{n}"
