"""3.1 Operations in general, 4.1 Special Activities in general, 2.3.4 Limited Operations,
3.1.2/5.4 free Operations: Peru's use of the shared :class:`engine.coin.operations.OperationKit`
(frames ``op``, ``sa``, ``opmenu``) plus Peru's costs and 1.4.1 taking pieces from the map.

In phase ``main`` of an Operation the choices are ``space:<id>`` (select the next space; its
cost is paid now), ``sa:<name>`` (start the accompanying Special Activity: 4.1 allows it
before, during or after the Operation) and ``done``. Each Operation module adds its phases.
"""

from __future__ import annotations

from engine.coin.operations import OpDef, OperationKit, SaDef  # noqa: F401  (re-exported)
from engine.core.contract import ChoiceKind, fact
from engine.core.flow import Ask, FrameKind, pop, push
from engine.core.messages import msg

from .data import ADJ, HIGHLAND, LIMA, LOCS
from .state import GOV, POOL_OF, SEAT_NAME, SP, cap, place, refresh_control, res
from .texts import (
    HELP_DONE,
    HELP_MOVE,
    HELP_PASS,
    HELP_SKIP,
    HELP_SPACE,
    HELP_TAKE,
    ONE_PIECE,
    PIECE,
    SPACE,
    C,
)

GOV_OPS = ("train", "patrol", "sweep", "assault")
SP_OPS = ("rally", "march", "attack", "terror")
OPS_OF = {GOV: GOV_OPS, SP: SP_OPS}
GOV_SAS = ("investigate", "reprisal", "organize")
SP_SAS = ("govern", "evade", "ambush")


def _on_pass(state: dict, seat: str, facts: list) -> None:
    from .sequence import do_pass
    do_pass(state, seat, facts)


KIT = OperationKit(ops_of=OPS_OF, sas_of={GOV: GOV_SAS, SP: SP_SAS}, seat_name=SEAT_NAME, space_name=SPACE,
                   refresh=refresh_control, on_pass=_on_pass, help_done=HELP_DONE, help_pass=HELP_PASS,
                   help_skip=HELP_SKIP)
OPS = KIT.OPS
SAS = KIT.SAS
register_op = KIT.register_op
register_sa = KIT.register_sa
new_op = KIT.new_op
new_sa = KIT.new_sa
op_menu = KIT.op_menu
op_possible = KIT.op_possible
start_op = KIT.start_op
sa_allowed = KIT.sa_allowed
sa_choices = KIT.sa_choices
use_sa = KIT.use_sa
begin_sa = KIT.begin_sa
end_op = KIT.end_op


def ambush_allowed(fr: dict, state: dict | None = None) -> bool:
    return KIT.inline_allowed(fr, "ambush", state)


# ---------------------------------------------------------------- costs

def sp_cost(state: dict, fr: dict, sid: str, base: int) -> int:
    """Shining Path cost of one space; P2 changes Lima (5.3)."""
    if fr.get("free"):
        return 0
    if sid == LIMA:
        c = cap(state, "P2")
        if c == "top":
            return 2
        if c == "bottom":
            return 0
    return base


def gov_cost(fr: dict, base: int = 2) -> int:
    return 0 if fr.get("free") else base


def can_pay(state: dict, seat: str, n: int) -> bool:
    return state["res"][seat] >= n


def pay(state: dict, seat: str, n: int, facts: list, cause) -> None:
    if n:
        res(state, seat, -n, cause, facts)


def allowed_here(fr: dict, sid: str) -> bool:
    w = fr.get("where")
    return w is None or sid in w


def which_guerrilla_choices(sid: str, rule: str) -> list:
    """``g:u`` / ``g:a``: which of the Guerrillas in ``sid`` moves (Reprisal 4.2.2, Evade 4.3.2)."""
    return [C("g:u", msg("An Underground Guerrilla"), ChoiceKind.PIECE, rule, HELP_MOVE, {"space": sid, "piece": "Gu"},
              payload={}),
            C("g:a", msg("An Active Guerrilla"), ChoiceKind.PIECE, rule, HELP_MOVE, {"space": sid, "piece": "Ga"},
              payload={})]


def move_to_choices(state: dict, sid: str, rule: str) -> list:
    """``to:<id>``: the spaces adjacent to ``sid`` a moving piece may go to, in board order."""
    return [C(f"to:{a}", msg("To {space}", space=SPACE[a]), ChoiceKind.SPACE, rule, HELP_MOVE, {"space": a})
            for a in state["s"] if a in ADJ[sid]]


def space_step_choices(spaces, d, fr: dict) -> list:
    """The next space of a space-by-space Special Activity ``d`` (its :class:`SaDef`), or "done"
    once one is chosen (4.1)."""
    ch = [C(f"space:{s}", msg("{activity} in {space}", activity=d.label, space=SPACE[s]), ChoiceKind.SPACE, d.rule,
            d.help or HELP_SPACE, {"space": s}) for s in spaces]
    if fr["sel"]:
        ch.append(C("done", msg("Finish {activity}", activity=d.label), ChoiceKind.DONE, d.rule, HELP_DONE))
    return ch


def highland(sid: str) -> bool:
    return sid in HIGHLAND


def is_loc(sid: str) -> bool:
    return sid in LOCS


# ---------------------------------------------------------------- taking pieces from the map (1.4.1)

def take_sources(state: dict, fr: dict) -> list[str]:
    keys = {"G": ("Gu", "Ga"), "R": ("Ru", "Ra"), "T": ("T",), "P": ("P",), "B": ("B",)}[fr["pool"]]
    out = []
    for sid, sp in state["s"].items():
        if sid == fr["to"]:
            if fr["pool"] == "G" and sp["Ga"]:
                out.append(sid)
            continue
        if any(sp[k] for k in keys):
            out.append(sid)
    return out


def _take_ask(state: dict, fr: dict) -> Ask:
    ch = []
    pair = {"G": ("Ga", "Gu"), "R": ("Ra", "Ru")}.get(fr["pool"])
    for sid in take_sources(state, fr):
        sp = state["s"][sid]
        if pair and sp[pair[0]] and sp[pair[1]] and sid != fr["to"]:
            # the placing side chooses which piece moves (Active one by default)
            ch.append(C(f"from:{sid}", msg("Take an Active one from {space}", space=SPACE[sid]), ChoiceKind.SPACE,
                        "1.4.1", HELP_TAKE, {"space": sid, "piece": pair[0]}, payload={"space": sid, "active": True}))
            ch.append(C(f"from:{sid}:u", msg("Take an Underground one from {space}", space=SPACE[sid]),
                        ChoiceKind.SPACE, "1.4.1", HELP_TAKE, {"space": sid, "piece": pair[1]},
                        payload={"space": sid, "active": False}))
        else:
            ch.append(C(f"from:{sid}", msg("Take it from {space}", space=SPACE[sid]), ChoiceKind.SPACE, "1.4.1",
                        HELP_TAKE, {"space": sid}))
    if not fr.get("must"):
        ch.append(C("stop", msg("Place no more"), ChoiceKind.DONE, "1.4.1", HELP_DONE))
    return Ask(fr["seat"], msg("No {piece} is Available: take one from the map for {space}?", piece=PIECE[fr["key"]],
                               space=SPACE[fr["to"]]), "1.4.1", ch)


def _take_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    if cid == "stop":
        pop(state, fr)
        return
    src = cid[5:]
    under = src.endswith(":u")
    if under:
        src = src[:-2]
    sp = state["s"][src]
    pool = fr["pool"]
    if pool == "G":
        k = "Gu" if under or not sp["Ga"] else "Ga"
    elif pool == "R":
        k = "Ru" if under or not sp["Ra"] else "Ra"
    else:
        k = pool
    sp[k] -= 1
    state["s"][fr["to"]][fr["key"]] += 1
    facts.append(fact("move", msg("{piece} is taken from {source} and placed in {space} (1.4.1).",
                                  piece=ONE_PIECE[k], source=SPACE[src], space=SPACE[fr["to"]]),
                      space=fr["to"], source=src, piece=fr["key"]))
    fr["n"] -= 1
    if fr["n"] <= 0:
        pop(state, fr)
    refresh_control(state, facts, fr.get("why") or msg("placement"))


def place_or_take(state: dict, seat: str, sid: str, key: str, n: int, facts: list, cause, must: bool = False) -> int:
    """Operations and Special Activities place Available pieces and may take the rest from the
    map (1.4.1 Important!). Returns how many were placed at once; the rest are asked for
    (``must``: the player already chose to take one, so no "Place no more" is offered)."""
    k = place(state, sid, key, n, facts, cause)
    rest = n - k
    if rest > 0:
        fr = {"k": "take", "seat": seat, "key": key, "pool": POOL_OF[key], "to": sid, "n": rest, "why": cause}
        if must:
            fr["must"] = True
        if take_sources(state, fr):
            push(state, fr)
    return k


FRAME_KINDS = [FrameKind("take", ask=_take_ask, act=_take_act, never_empty=True), *KIT.frame_kinds()]
