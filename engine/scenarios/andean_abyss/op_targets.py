"""3.2-3.3 Where each Operation may act now (the candidate spaces of Train, Patrol, Sweep, Assault, Rally, March, Attack, Terror)."""

from __future__ import annotations

from . import pieces as P
from .board import AUC_ACTIVE, AUC_BASE, CARTELS_ACTIVE, CARTELS_BASE, FARC_ACTIVE, FARC_BASE, A, U
from .board import BOARD as BD
from .op_common import op_cost
from .ops_govt import assault_removals, assault_targets, sweep_dest_ok
from .ops_insurgent import attack_targets, rally_space_ok
from .state import cap, mom


def space_candidates(st: dict, f: int, op: str, fr: dict, first: bool = False) -> list:
    """Spaces that may be selected now for Operation ``op`` (3.1: each at most once).

    ``first``: stop at the first candidate (for "is the Operation possible at all?")."""
    sel = fr["sel"]
    res = st["res"][f]
    free = fr["free"]
    only = fr.get("only_spaces")
    out = []
    flat = op not in ("terror", "march")
    if flat and not free and op_cost(st, f, op, 0) > res:
        return out
    if sel and ((op == "sweep" and cap(st, 2) == "s") or (op == "assault" and cap(st, 3) == "s")):
        return out  # cards 2 / 3 shaded: a single space
    zones = st["zones"]
    total_g = P.count_on_map(st, U(f)) + P.count_on_map(st, A(f)) if op == "rally" else 0
    is_loc = BD.is_loc
    for i in P.spaces(st):
        if i in sel or (only is not None and i not in only):
            continue
        if not flat and not free and op_cost(st, f, op, i) > res:
            continue
        pc = st["pc"][i]
        if op == "train":
            if is_loc[i] or i in zones:
                continue
        elif op == "sweep":
            if is_loc[i] or not sweep_dest_ok(st, i):
                continue
        elif op == "assault":
            if not (pc[FARC_ACTIVE] or pc[AUC_ACTIVE] or pc[CARTELS_ACTIVE] or pc[FARC_BASE] or pc[AUC_BASE] or pc[CARTELS_BASE]):
                continue
            if mom(st, 17) and BD.is_dept[i]:
                continue
            if not assault_targets(st, i) or assault_removals(st, i) <= 0:
                continue
        elif op == "rally":
            if is_loc[i] or not rally_space_ok(st, f, i, total_g=total_g):
                continue
        elif op == "attack":
            if not (pc[U(f)] or pc[A(f)]) or not attack_targets(st, f, i):
                continue
        elif op == "terror":
            if not pc[U(f)] or not P.active_space(st, i):
                continue
        out.append(i)
        if first:
            return out
    return out
