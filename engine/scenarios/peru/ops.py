"""3.1 Operations in general, 4.1 Special Activities in general, 2.3.4 Limited Operations,
3.1.2/5.4 free Operations.

An Operation is an ``op`` frame::

    {"k": "op", "seat", "op": "rally", "lim": bool, "free": bool,
     "where": [space ids] | None   (spaces an Event restricts the Operation to),
     "sa": None | {"names": [...] | None, "where": [...] | None},   (Special Activity allowed?)
     "sa_done": bool, "sel": [selected spaces], "ph": "main" | op-specific phase, ...}

In phase ``main`` the choices are ``space:<id>`` (select the next space; its cost is paid
now), ``sa:<name>`` (start the accompanying Special Activity: 4.1 allows it before, during or
after the Operation) and ``done``. Each Operation module adds its own phases.
A Special Activity is an ``sa`` frame on top of its Operation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.coin.flow import Ask, FrameKind, pop, push
from engine.core.contract import Choice, fact

from .data import HIGHLAND, LIMA, LOCS, NAME
from .state import GOV, SP, cap, refresh_control, res


@dataclass(slots=True)
class OpDef:
    name: str
    seat: str
    label: str
    rule: str
    spaces: Callable            # (state, fr) -> [sid] legal to select next (cost checked here too)
    select: Callable            # (state, fr, sid, facts)
    phase_ask: Callable | None = None   # (state, fr) -> (text, [Choice])
    phase_act: Callable | None = None   # (state, fr, cid, facts)
    finish: Callable | None = None      # (state, fr, facts) on "done"
    start: Callable | None = None       # (state, fr, facts) when the Operation begins
    min_sel: int = 1
    extra: Callable | None = None       # (state, fr) -> [Choice] more main-phase choices
    extra_act: Callable | None = None   # (state, fr, cid, facts)


@dataclass(slots=True)
class SaDef:
    name: str
    seat: str
    label: str
    rule: str
    accompanies: tuple[str, ...]
    can_start: Callable         # (state, sa_fr_template) -> bool
    ask: Callable               # (state, fr) -> (text, [Choice])
    act: Callable               # (state, fr, cid, facts)
    start: Callable | None = None


OPS: dict[str, OpDef] = {}
SAS: dict[str, SaDef] = {}

GOV_OPS = ("train", "patrol", "sweep", "assault")
SP_OPS = ("rally", "march", "attack", "terror")
OPS_OF = {GOV: GOV_OPS, SP: SP_OPS}
GOV_SAS = ("investigate", "reprisal", "organize")
SP_SAS = ("govern", "evade", "ambush")


def register_op(d: OpDef) -> OpDef:
    OPS[d.name] = d
    return d


def register_sa(d: SaDef) -> SaDef:
    SAS[d.name] = d
    return d


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


def pay(state: dict, seat: str, n: int, facts: list, cause: str) -> None:
    if n:
        res(state, seat, -n, cause, facts)


def allowed_here(fr: dict, sid: str) -> bool:
    w = fr.get("where")
    return w is None or sid in w


def new_op(seat: str, op: str, lim: bool = False, free: bool = False, where=None, sa=None) -> dict:
    return {"k": "op", "seat": seat, "op": op, "lim": lim, "free": free, "where": where, "sa": sa,
            "sa_done": False, "sel": [], "ph": "main"}


def op_possible(state: dict, seat: str, op: str, lim: bool, free: bool, where=None, extra=None) -> bool:
    """Whether an Operation has at least one legal space now (used to offer it)."""
    fr = new_op(seat, op, lim, free, where)
    fr.update(extra or {})
    d = OPS[op]
    if d.min_sel == 0:
        return free or can_pay(state, seat, 2)
    if d.spaces(state, fr):
        return True
    return bool(d.extra and d.extra(state, fr))


def start_op(state: dict, fr: dict, facts: list) -> dict:
    push(state, fr)
    d = OPS[fr["op"]]
    who = "Government" if fr["seat"] == GOV else "Shining Path"
    kind = "free " if fr["free"] else ""
    kind += "Limited " if fr["lim"] else ""
    facts.append(fact("operation", f"{who}: {kind}{d.label} ({d.rule}).", seat=fr["seat"], op=fr["op"],
                      limited=fr["lim"], free=fr["free"]))
    if d.start:
        d.start(state, fr, facts)
    return fr


def sa_allowed(state: dict, fr: dict) -> list[str]:
    """Special Activities that may start now in this Operation."""
    spec = fr.get("sa")
    if not spec or fr.get("sa_done"):
        return []
    if spec.get("flag") and not state.get(spec["flag"]):
        return []
    names = spec.get("names")
    out = []
    for name in (GOV_SAS if fr["seat"] == GOV else SP_SAS):
        if name == "ambush":
            continue  # chosen inside an Attack space (4.3.3)
        if names is not None and name not in names:
            continue
        d = SAS[name]
        if fr["op"] not in d.accompanies:
            continue
        tmp = new_sa(fr, name)
        if d.can_start(state, tmp):
            out.append(name)
    return out


def ambush_allowed(fr: dict, state: dict | None = None) -> bool:
    spec = fr.get("sa")
    if not spec or fr.get("sa_done") or fr["op"] != "attack":
        return False
    if spec.get("flag") and state is not None and not state.get(spec["flag"]):
        return False
    names = spec.get("names")
    return names is None or "ambush" in names


def new_sa(op_fr: dict, name: str) -> dict:
    spec = op_fr.get("sa") or {}
    where = list(op_fr["sel"]) if spec.get("in_sel") else spec.get("where")
    return {"k": "sa", "seat": op_fr["seat"], "sa": name, "sel": [], "ph": "main", "where": where,
            "op": op_fr["op"], "free": op_fr.get("free", False) or spec.get("free", False)}


# ---------------------------------------------------------------- the op frame

def _op_ask(state: dict, fr: dict) -> Ask:
    d = OPS[fr["op"]]
    if fr["ph"] != "main":
        text, choices = d.phase_ask(state, fr)
        return Ask(fr["seat"], text, d.rule, choices, {"op": fr["op"]})
    choices: list[Choice] = []
    if not (fr["lim"] and fr["sel"]) and len(fr["sel"]) < fr.get("maxsel", 99):
        for sid in d.spaces(state, fr):
            choices.append(Choice(f"space:{sid}", f"{d.label} in {NAME[sid]}", {"space": sid}))
    if d.extra:
        choices.extend(d.extra(state, fr))
    choices.extend(sa_choices(state, fr))
    if len(fr["sel"]) >= d.min_sel:
        choices.append(Choice("done", f"Finish the {d.label}", {}))
    lim = "Limited " if fr["lim"] else ""
    text = f"{lim}{d.label}: choose a space" + (" or finish" if fr["sel"] else "")
    return Ask(fr["seat"], text, d.rule, choices, {"op": fr["op"], "selected": list(fr["sel"])})


def _op_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    d = OPS[fr["op"]]
    if fr["ph"] != "main":
        d.phase_act(state, fr, cid, facts)
        refresh_control(state, facts, d.label)
        return
    if cid == "done":
        end_op(state, fr, facts)
        return
    if cid.startswith("sa:"):
        begin_sa(state, fr, cid[3:], facts)
        return
    if d.extra_act and not cid.startswith("space:"):
        d.extra_act(state, fr, cid, facts)
        refresh_control(state, facts, d.label)
        return
    sid = cid.split(":", 1)[1]
    fr["sel"].append(sid)
    d.select(state, fr, sid, facts)
    refresh_control(state, facts, f"{d.label} in {NAME[sid]}")


def sa_choices(state: dict, fr: dict) -> list[Choice]:
    return [Choice(f"sa:{n}", f"{SAS[n].label} (Special Activity)", {"sa": n}) for n in sa_allowed(state, fr)]


def use_sa(state: dict, fr: dict) -> None:
    """Mark the Special Activity of this Operation used (and a shared once-only grant)."""
    fr["sa_done"] = True
    flag = (fr.get("sa") or {}).get("flag")
    if flag:
        state[flag] = False


def begin_sa(state: dict, fr: dict, name: str, facts: list) -> None:
    use_sa(state, fr)
    sfr = new_sa(fr, name)
    push(state, sfr)
    facts.append(fact("special_activity", f"{SAS[name].label} ({SAS[name].rule}).", seat=fr["seat"], sa=name))
    if SAS[name].start:
        SAS[name].start(state, sfr, facts)


def end_op(state: dict, fr: dict, facts: list) -> None:
    d = OPS[fr["op"]]
    if d.finish:
        d.finish(state, fr, facts)
    refresh_control(state, facts, d.label)
    state["last_sel"] = list(fr["sel"])
    pop(state, fr)


def _sa_ask(state: dict, fr: dict) -> Ask:
    d = SAS[fr["sa"]]
    text, choices = d.ask(state, fr)
    return Ask(fr["seat"], text, d.rule, choices, {"sa": fr["sa"], "selected": list(fr["sel"])})


def _sa_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    d = SAS[fr["sa"]]
    d.act(state, fr, cid, facts)
    refresh_control(state, facts, d.label)


# ---------------------------------------------------------------- Operation menus

def _menu_ask(state: dict, fr: dict) -> Ask:
    """A choice of Operation (for a box of the Initiative Track or a free Operation)."""
    seat = fr["seat"]
    choices = []
    for op in fr.get("ops") or OPS_OF[seat]:
        if op_possible(state, seat, op, fr["lim"], fr["free"], fr.get("where"), fr.get("extra")):
            d = OPS[op]
            choices.append(Choice(f"op:{op}", d.label, {"op": op}))
    if fr.get("pass"):
        choices.append(Choice("pass", "Pass (gain Resources instead)", {}))
    if fr.get("optional"):
        choices.append(Choice("skip", "Do not use this Operation", {}))
    return Ask(seat, fr.get("text", "Choose an Operation"), fr.get("rule", "3.0"), choices)


def _menu_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    pop(state, fr)
    if cid == "skip":
        return
    if cid == "pass":
        from .sequence import do_pass
        do_pass(state, fr["seat"], facts)
        return
    op = cid[3:]
    ofr = new_op(fr["seat"], op, fr["lim"], fr["free"], fr.get("where"), fr.get("sa"))
    ofr.update(fr.get("extra") or {})
    start_op(state, ofr, facts)


def op_menu(seat: str, lim: bool, free: bool, where=None, sa=None, ops=None, optional=False,
            passing=False, text: str = "Choose an Operation", rule: str = "3.0", extra: dict | None = None) -> dict:
    return {"k": "opmenu", "seat": seat, "lim": lim, "free": free, "where": where, "sa": sa, "ops": ops,
            "optional": optional, "pass": passing, "text": text, "rule": rule, "extra": extra}


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
    from .state import PIECE_NAME
    name = PIECE_NAME[fr["key"]]
    ch = [Choice(f"from:{sid}", f"Take it from {NAME[sid]}", {"space": sid}) for sid in take_sources(state, fr)]
    ch.append(Choice("stop", "Place no more", {}))
    return Ask(fr["seat"], f"No {name} is Available: take one from the map for {NAME[fr['to']]}?",
               "1.4.1", ch)


def _take_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    if cid == "stop":
        pop(state, fr)
        return
    src = cid[5:]
    sp = state["s"][src]
    pool = fr["pool"]
    if pool == "G":
        k = "Ga" if sp["Ga"] else "Gu"
    elif pool == "R":
        k = "Ra" if sp["Ra"] else "Ru"
    else:
        k = pool
    sp[k] -= 1
    state["s"][fr["to"]][fr["key"]] += 1
    facts.append(fact("move", f"A piece is taken from {NAME[src]} and placed in {NAME[fr['to']]} (1.4.1).",
                      space=fr["to"], source=src, piece=fr["key"]))
    fr["n"] -= 1
    if fr["n"] <= 0:
        pop(state, fr)
    refresh_control(state, facts, fr.get("why", "placement"))


def place_or_take(state: dict, seat: str, sid: str, key: str, n: int, facts: list, cause: str) -> int:
    """Operations and Special Activities place Available pieces and may take the rest from the
    map (1.4.1 Important!). Returns how many were placed at once; the rest are asked for."""
    from .state import POOL_OF, place
    k = place(state, sid, key, n, facts, cause)
    rest = n - k
    if rest > 0:
        fr = {"k": "take", "seat": seat, "key": key, "pool": POOL_OF[key], "to": sid, "n": rest, "why": cause}
        if take_sources(state, fr):
            push(state, fr)
    return k


FRAME_KINDS = [
    FrameKind("take", ask=_take_ask, act=_take_act, never_empty=True),
    FrameKind("op", ask=_op_ask, act=_op_act),
    FrameKind("sa", ask=_sa_ask, act=_sa_act),
    FrameKind("opmenu", ask=_menu_ask, act=_menu_act),
]
