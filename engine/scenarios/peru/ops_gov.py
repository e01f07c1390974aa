"""3.2 Government Operations: Train, Patrol, Sweep, Assault.

Choice ids (besides the common ``space:<id>``, ``sa:<name>``, ``done`` of :mod:`.ops`):

- Train (3.2.1): ``place:T`` / ``place:P`` (one cube into Lima), ``civic:<id>`` (choose the
  Civic Action space), then ``civic:terror`` / ``civic:shift`` / ``done``.
- Patrol (3.2.2): ``from:<id>`` (origin), ``cube:T`` / ``cube:P``, ``to:<id>`` (final
  destination), ``done``; then ``assault:<loc>`` or ``done`` for the free LoC Assault.
- Sweep (3.2.3): after ``space:<id>``: ``move:<origin>`` (one Troop) and ``done``.
- Assault (3.2.4): ``space:<id>`` resolves the space at once (with P24 top in an Emergency
  Zone, first ``sinchi:yes`` / ``sinchi:no``).
"""

from __future__ import annotations

from engine.core.contract import Choice, fact

from .data import ADJ, BOARD, COASTAL, HIGHLAND, JUNGLE, LIMA, LOCS, NAME, PATROL_NETWORK, POP
from .ops import (
    OpDef,
    allowed_here,
    begin_sa,
    can_pay,
    end_op,
    gov_cost,
    pay,
    place_or_take,
    register_op,
    sa_choices,
)
from .state import (
    GOV,
    activate,
    cap,
    cubes,
    guerrillas,
    hunt_roll,
    hunt_shift,
    refresh_control,
    remove,
    remove_base,
    shift,
    sp_pieces,
)

CIVIC_COST = 2


# ---------------------------------------------------------------- 3.2.1 Train and Civic Action

def civic_ok(state: dict, sid: str) -> bool:
    """3.2.1 / 6.4.1: Government Control, Troops and Police."""
    sp = state["s"][sid]
    return sid not in LOCS and sp["ctl"] == "G" and sp["T"] > 0 and sp["P"] > 0


def civic_max_shifts(state: dict, sid: str) -> int:
    """P31 top: Civic Action in an Emergency Zone may shift two levels."""
    return 2 if cap(state, "P31") == "top" and state["s"][sid]["ez"] else 1


def civic_useful(state: dict, sid: str, shifts_done: int = 0) -> bool:
    sp = state["s"][sid]
    if sp["ter"]:
        return True
    return bool(POP[sid]) and sp["sup"] < 2 and shifts_done < civic_max_shifts(state, sid)


def _train_spaces(state, fr):
    if LIMA in fr["sel"] or not allowed_here(fr, LIMA) or not can_pay(state, GOV, gov_cost(fr)):
        return []
    if fr.get("police_only"):
        ok = state["avail"]["P"] > 0 or any(sp["P"] for s, sp in state["s"].items() if s != LIMA)
    else:
        ok = state["avail"]["T"] + state["avail"]["P"] > 0 or any(
            cubes(sp) for s, sp in state["s"].items() if s != LIMA)
    return [LIMA] if ok else []


def _train_select(state, fr, sid, facts):
    # 3.2.1 "pay 2 Resources for each space where cubes are placed": paid with the first cube
    fr["ph"] = "train"
    fr["placed"] = 0


def _train_extra(state, fr):
    if fr.get("civ_done") or fr.get("no_civic") or not can_pay(state, GOV, CIVIC_COST):
        return []
    if fr["lim"] and fr["sel"]:
        cands = fr["sel"][:1]
    else:
        cands = [s for s in state["s"] if s not in LOCS and allowed_here(fr, s)]
    return [Choice(f"civic:{s}", f"Civic Action in {NAME[s]}", {"space": s})
            for s in cands if civic_ok(state, s) and civic_useful(state, s)]


def _train_extra_act(state, fr, cid, facts):
    sid = cid[6:]
    fr["civ_done"] = True
    if sid not in fr["sel"]:
        fr["sel"].append(sid)
    fr["ph"] = "civic"
    fr["civ"] = sid
    fr["civ_n"] = 0


def civic_choices(state: dict, sid: str, shifts_done: int) -> list[Choice]:
    out = []
    if state["res"][GOV] >= CIVIC_COST:
        sp = state["s"][sid]
        if sp["ter"]:
            out.append(Choice("civic:terror", f"Pay 2: remove a Terror marker in {NAME[sid]}", {"space": sid}))
        elif civic_useful(state, sid, shifts_done):
            out.append(Choice("civic:shift", f"Pay 2: shift {NAME[sid]} toward Active Support", {"space": sid}))
    return out


def civic_apply(state: dict, sid: str, what: str, facts: list) -> None:
    pay(state, GOV, CIVIC_COST, facts, f"Civic Action in {NAME[sid]}")
    if what == "civic:terror":
        state["s"][sid]["ter"] -= 1
        facts.append(fact("marker", f"A Terror marker is removed from {NAME[sid]} (Civic Action).", space=sid,
                          marker="terror", delta=-1))
    else:
        shift(state, sid, 2, facts, "Civic Action")


def _train_phase_ask(state, fr):
    if fr["ph"] == "train":
        ch = []
        if fr["placed"] < 6:
            elsewhere = {k: any(sp[k] for s, sp in state["s"].items() if s != LIMA) for k in ("T", "P")}
            if not fr.get("police_only") and (state["avail"]["T"] or elsewhere["T"]):
                ch.append(Choice("place:T", "Place a Troop in Lima", {"piece": "T"}))
            if state["avail"]["P"] or elsewhere["P"]:
                ch.append(Choice("place:P", "Place a Police in Lima", {"piece": "P"}))
        ch.append(Choice("done", "Place no more cubes", {}))
        return f"Train in Lima: place up to 6 cubes ({fr['placed']} placed)", ch
    sid = fr["civ"]
    ch = civic_choices(state, sid, fr["civ_n"])
    ch.append(Choice("done", "End Civic Action", {}))
    return f"Civic Action in {NAME[sid]}", ch


def _train_phase_act(state, fr, cid, facts):
    if fr["ph"] == "train":
        if cid == "done":
            fr["ph"] = "main"
            return
        if not fr["placed"]:
            pay(state, GOV, gov_cost(fr), facts, "Train in Lima")
        fr["placed"] += 1
        place_or_take(state, GOV, LIMA, cid[6:], 1, facts, "Train")
        if fr["placed"] >= 6:
            fr["ph"] = "main"
        return
    if cid == "done":
        fr["ph"] = "main"
        return
    if cid == "civic:shift":
        fr["civ_n"] += 1
    civic_apply(state, fr["civ"], cid, facts)


register_op(OpDef("train", GOV, "Train", "3.2.1", _train_spaces, _train_select, _train_phase_ask,
                  _train_phase_act, extra=_train_extra, extra_act=_train_extra_act))


# ---------------------------------------------------------------- 3.2.2 Patrol

def patrol_dests(state: dict, origin: str) -> list[str]:
    s = state["s"]
    return BOARD.reachable(
        origin, lambda x: x in PATROL_NETWORK, lambda x: sp_pieces(s[x]) == 0)


def _movable(state, fr, sid, key):
    return state["s"][sid][key] - fr["fix"].get(sid, {}).get(key, 0)


def _patrol_origins(state, fr):
    out = []
    quick = not fr.get("dest") and fr.get("where") is None
    for sid in state["s"]:
        if _movable(state, fr, sid, "T") + _movable(state, fr, sid, "P") <= 0:
            continue
        if quick:
            # entering an adjacent network space is always allowed, so any one is enough
            if any(a in PATROL_NETWORK for a in ADJ[sid]):
                out.append(sid)
            continue
        dests = patrol_dests(state, sid)
        if fr.get("dest"):
            dests = [d for d in dests if d == fr["dest"]]
        dests = [d for d in dests if allowed_here(fr, d)]
        if dests:
            out.append(sid)
    return out


def _patrol_start(state, fr, facts):
    pay(state, GOV, gov_cost(fr), facts, "Patrol")
    fr["ph"] = "move"
    fr["fix"] = {}


def _patrol_ask(state, fr):
    ph = fr["ph"]
    if ph == "move":
        ch = [Choice(f"from:{s}", f"Move a cube from {NAME[s]}", {"space": s}) for s in _patrol_origins(state, fr)]
        ch.extend(sa_choices(state, fr))
        ch.append(Choice("done", "Stop moving cubes", {}))
        return "Patrol: move cubes along LoCs, Coastal Departments and Lima", ch
    if ph == "ptype":
        o = fr["cur"]
        ch = [Choice(f"cube:{k}", f"Move a {'Troop' if k == 'T' else 'Police'}", {"piece": k})
              for k in ("T", "P") if _movable(state, fr, o, k) > 0]
        return f"Patrol: which cube from {NAME[o]}?", ch
    if ph == "pdest":
        o = fr["cur"]
        dests = [d for d in patrol_dests(state, o) if allowed_here(fr, d)]
        if fr.get("dest"):
            dests = [d for d in dests if d == fr["dest"]]
        return f"Patrol: where does the cube from {NAME[o]} stop?", [
            Choice(f"to:{d}", f"To {NAME[d]}", {"space": d}) for d in dests]
    # passault
    ch = []
    for loc in sorted(LOCS):
        if fr.get("lim") and fr.get("dest") != loc:
            continue
        sp = state["s"][loc]
        if cubes(sp) and sp["Ga"] and allowed_here(fr, loc):
            ch.append(Choice(f"assault:{loc}", f"Free Assault on {NAME[loc]}", {"space": loc}))
    ch.extend(sa_choices(state, fr))
    ch.append(Choice("done", "No Assault: finish the Patrol", {}))
    return "Patrol: Assault on one LoC at no cost?", ch


def _patrol_act(state, fr, cid, facts):
    ph = fr["ph"]
    if cid.startswith("sa:"):
        begin_sa(state, fr, cid[3:], facts)
        return
    if ph == "move":
        if cid == "done":
            _patrol_activate(state, fr, facts)
            fr["ph"] = "passault"
            return
        fr["cur"] = cid[5:]
        o = fr["cur"]
        kinds = [k for k in ("T", "P") if _movable(state, fr, o, k) > 0]
        if len(kinds) == 1:
            fr["piece"] = kinds[0]
            fr["ph"] = "pdest"
        else:
            fr["ph"] = "ptype"
        return
    if ph == "ptype":
        fr["piece"] = cid[5:]
        fr["ph"] = "pdest"
        return
    if ph == "pdest":
        d = cid[3:]
        o, k = fr["cur"], fr["piece"]
        state["s"][o][k] -= 1
        state["s"][d][k] += 1
        fr["fix"].setdefault(d, {}).setdefault(k, 0)
        fr["fix"][d][k] += 1
        if fr["lim"]:
            fr["dest"] = d
        if d not in fr["sel"]:
            fr["sel"].append(d)
        facts.append(fact("move", f"A {'Troop' if k == 'T' else 'Police'} patrols from {NAME[o]} to {NAME[d]}.",
                          piece=k, source=o, space=d))
        fr["ph"] = "move"
        return
    if cid == "done":
        end_op(state, fr, facts)
        return
    loc = cid[8:]
    assault_space(state, fr, loc, facts)
    end_op(state, fr, facts)


def _patrol_activate(state, fr, facts):
    for loc in sorted(LOCS):
        if fr["lim"] and fr.get("dest") != loc:
            continue
        sp = state["s"][loc]
        n = activate(sp, "Gu", cubes(sp))
        if n:
            facts.append(fact("activate", f"{n} Guerrilla(s) Activated on {NAME[loc]} (Patrol).", space=loc, count=n))


register_op(OpDef("patrol", GOV, "Patrol", "3.2.2", lambda s, f: [], lambda *a: None, _patrol_ask, _patrol_act,
                  start=_patrol_start, min_sel=0,
                  possible=lambda st, fr: fr["free"] or can_pay(st, GOV, gov_cost(fr))))


# ---------------------------------------------------------------- 3.2.3 Sweep

def _sweep_spaces(state, fr):
    if not can_pay(state, GOV, gov_cost(fr)):
        return []
    return [s for s in state["s"] if s not in LOCS and s not in fr["sel"] and allowed_here(fr, s)]


def _sweep_select(state, fr, sid, facts):
    pay(state, GOV, gov_cost(fr), facts, f"Sweep into {NAME[sid]}")
    fr["ph"] = "sweep"
    fr["cur"] = sid
    fr.setdefault("fix", {})


def sweep_origins(state: dict, fr: dict, dest: str) -> list[str]:
    s = state["s"]
    fix = fr.get("fix", {})
    out = set()
    for a in ADJ[dest]:
        out.add(a)
        if a in LOCS and guerrillas(s[a]) == 0:
            out.update(ADJ[a])
    out.discard(dest)
    return [o for o in s if o in out and s[o]["T"] - fix.get(o, 0) > 0]


def _sweep_ask(state, fr):
    d = fr["cur"]
    ch = [Choice(f"move:{o}", f"Move a Troop from {NAME[o]}", {"space": o}) for o in sweep_origins(state, fr, d)]
    ch.append(Choice("done", f"No more Troops into {NAME[d]}", {}))
    return f"Sweep into {NAME[d]}: move adjacent Troops in", ch


def _sweep_act(state, fr, cid, facts):
    if cid == "done":
        fr["ph"] = "main"
        return
    o, d = cid[5:], fr["cur"]
    state["s"][o]["T"] -= 1
    state["s"][d]["T"] += 1
    fr["fix"][d] = fr["fix"].get(d, 0) + 1
    facts.append(fact("move", f"A Troop sweeps from {NAME[o]} into {NAME[d]}.", piece="T", source=o, space=d))


def _sweep_finish(state, fr, facts):
    for d in fr["sel"]:
        sp = state["s"][d]
        n = cubes(sp)
        if d in JUNGLE or sp["sup"] == -2:
            n //= 2
        k = activate(sp, "Gu", n)
        if k:
            facts.append(fact("activate", f"{k} Guerrilla(s) Activated in {NAME[d]} (Sweep).", space=d, count=k))
        if cap(state, "P24") == "bottom" and sp["ez"] and sp["P"]:
            shift(state, d, -2, facts, "Sinchis abuses (P24)")


register_op(OpDef("sweep", GOV, "Sweep", "3.2.3", _sweep_spaces, _sweep_select, _sweep_ask, _sweep_act,
                  finish=_sweep_finish))


# ---------------------------------------------------------------- 3.2.4 Assault

def sinchis_possible(state: dict, fr: dict, sid: str) -> bool:
    """P24 top: Police may count as Troops in one selected Emergency Zone per Assault."""
    sp = state["s"][sid]
    return cap(state, "P24") == "top" and bool(sp["ez"]) and sp["P"] > 0 and not fr.get("sinchi")


def assault_capacity(state: dict, fr: dict, sid: str, sinchis: bool = False) -> int:
    sp = state["s"][sid]
    troops = sp["T"] + (sp["P"] if sinchis else 0)
    if sid == LIMA or sid in COASTAL or sid in LOCS:
        return cubes(sp)
    if sid in HIGHLAND and not sp["Ra"]:
        return troops // 2
    return troops


def assault_targets(sp: dict) -> bool:
    return sp["Ga"] > 0 or (sp["Gu"] == 0 and sp["B"] + sp["D"] > 0)


def _assault_spaces(state, fr):
    if not can_pay(state, GOV, gov_cost(fr)):
        return []
    return [s for s, sp in state["s"].items() if s not in fr["sel"] and allowed_here(fr, s) and cubes(sp)
            and assault_targets(sp) and assault_capacity(state, fr, s, sinchis_possible(state, fr, s)) > 0]


def assault_space(state: dict, fr: dict, sid: str, facts: list, sinchis: bool = False) -> None:
    """3.2.4 procedure in one space: Active Guerrillas first, then Bases once no Guerrilla."""
    sp = state["s"][sid]
    n = assault_capacity(state, fr, sid, sinchis)
    if sinchis:
        fr["sinchi"] = sid
    hold = fr.get("hold")
    k = min(n, sp["Ga"])
    if k:
        remove(state, sid, "Ga", k, facts, "Assault", to=hold)
        n -= k
    while n > 0 and sp["Gu"] == 0 and sp["Ga"] == 0 and sp["B"] + sp["D"] > 0:
        n -= 1
        which = remove_base(state, sid, facts, "Assault")
        if which == "D":
            hunt_shift(state, 1, facts, "Directives Base removed by Assault")
        elif cap(state, "P9") == "top":
            hunt_roll(state, facts, "Paper trail (P9)", bonus=1 if cap(state, "P6") == "top" else 0)
    if cap(state, "P31") == "bottom" and sp["ez"]:
        shift(state, sid, -2, facts, "army abuses (P31)")
    refresh_control(state, facts, f"Assault in {NAME[sid]}")


def _assault_select(state, fr, sid, facts):
    pay(state, GOV, gov_cost(fr), facts, f"Assault in {NAME[sid]}")
    if sinchis_possible(state, fr, sid):
        fr["ph"] = "sinchi"
        fr["cur"] = sid
        return
    assault_space(state, fr, sid, facts)


def _assault_ask(state, fr):
    sid = fr["cur"]
    return f"Assault in {NAME[sid]}: use the Sinchis (P24)?", [
        Choice("sinchi:yes", f"Police count as Troops in {NAME[sid]} (once per Assault)", {}),
        Choice("sinchi:no", "Assault with Troops only", {})]


def _assault_act(state, fr, cid, facts):
    fr["ph"] = "main"
    assault_space(state, fr, fr["cur"], facts, sinchis=cid == "sinchi:yes")


register_op(OpDef("assault", GOV, "Assault", "3.2.4", _assault_spaces, _assault_select, _assault_ask,
                  _assault_act))
