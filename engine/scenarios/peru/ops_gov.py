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

from engine.core.contract import ChoiceKind, fact
from engine.core.messages import msg, msg_n

from .data import ADJ, BOARD, COASTAL, HIGHLAND, JUNGLE, LIMA, LOCS, PATROL_NETWORK, POP
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
from .texts import (
    HELP_CIVIC,
    HELP_DONE,
    HELP_MOVE,
    HELP_NO_SINCHI,
    HELP_PLACE_CUBE,
    HELP_SINCHI,
    HELP_SPACE,
    HELP_TAKE_CUBE,
    ONE_PIECE,
    OP,
    SPACE,
    C,
    cached,
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
    return [C(f"civic:{s}", msg("Civic Action in {space}", space=SPACE[s]), ChoiceKind.SPACE, "3.2.1", HELP_CIVIC,
              {"space": s}) for s in cands if civic_ok(state, s) and civic_useful(state, s)]


def _train_extra_act(state, fr, cid, facts):
    sid = cid[6:]
    fr["civ_done"] = True
    if sid not in fr["sel"]:
        fr["sel"].append(sid)
    fr["ph"] = "civic"
    fr["civ"] = sid
    fr["civ_n"] = 0


def civic_choices(state: dict, sid: str, shifts_done: int) -> list:
    out = []
    if state["res"][GOV] >= CIVIC_COST:
        sp = state["s"][sid]
        if sp["ter"]:
            out.append(C("civic:terror", msg("Pay 2: remove a Terror marker in {space}", space=SPACE[sid]),
                         ChoiceKind.OPTION, "3.2.1", HELP_CIVIC, {"space": sid}, {GOV: CIVIC_COST}))
        elif civic_useful(state, sid, shifts_done):
            out.append(C("civic:shift", msg("Pay 2: shift {space} toward Active Support", space=SPACE[sid]),
                         ChoiceKind.OPTION, "3.2.1", HELP_CIVIC, {"space": sid}, {GOV: CIVIC_COST}))
    return out


def civic_apply(state: dict, sid: str, what: str, facts: list) -> None:
    pay(state, GOV, CIVIC_COST, facts, msg("Civic Action in {space}", space=SPACE[sid]))
    if what == "civic:terror":
        state["s"][sid]["ter"] -= 1
        facts.append(fact("marker", msg("A Terror marker is removed from {space} (Civic Action).", space=SPACE[sid]),
                          space=sid, marker="terror", delta=-1, deltas={"terror_markers": -1}))
    else:
        shift(state, sid, 2, facts, msg("Civic Action"))


def _train_phase_ask(state, fr):
    if fr["ph"] == "train":
        ch = []
        if fr["placed"] < 6:
            # 3.2.1: the 2 Resources are paid with the first cube placed
            n = 0 if fr["placed"] else gov_cost(fr)
            cost = {GOV: n} if n else None
            for k in ("T", "P"):
                if k == "T" and fr.get("police_only"):
                    continue
                t = {"piece": k, "space": LIMA}
                if state["avail"][k]:
                    ch.append(C(f"place:{k}", msg("Place {piece} in Lima", piece=ONE_PIECE[k]), ChoiceKind.PIECE,
                                "3.2.1", HELP_PLACE_CUBE, t, cost, payload={"piece": k}))
                elif any(sp[k] for s, sp in state["s"].items() if s != LIMA):
                    # 1.4.1: none Available, so the cube comes from elsewhere on the map (issue 19:
                    # the label says so instead of offering to "place" one)
                    ch.append(C(f"place:{k}", msg("Take {piece} from elsewhere on the map into Lima (none is "
                                                  "Available)", piece=ONE_PIECE[k]), ChoiceKind.PIECE, "1.4.1, 3.2.1",
                                HELP_TAKE_CUBE, t, cost, payload={"piece": k}))
        ch.append(C("done", msg("Place no more cubes"), ChoiceKind.DONE, "3.2.1", HELP_DONE))
        return msg("Train in Lima: place up to 6 cubes ({count} placed)", count=fr["placed"]), ch
    sid = fr["civ"]
    ch = civic_choices(state, sid, fr["civ_n"])
    ch.append(C("done", msg("End Civic Action"), ChoiceKind.DONE, "3.2.1", HELP_DONE))
    return msg("Civic Action in {space}", space=SPACE[sid]), ch


def _train_phase_act(state, fr, cid, facts):
    if fr["ph"] == "train":
        if cid == "done":
            fr["ph"] = "main"
            return
        if not fr["placed"]:
            pay(state, GOV, gov_cost(fr), facts, msg("Train in Lima"))
        fr["placed"] += 1
        # the player chose this cube: when none is Available it must come from the map (1.4.1),
        # with no "Place no more" that would leave a cube counted but not placed (issue 19)
        place_or_take(state, GOV, LIMA, cid[6:], 1, facts, msg("Train"), must=True)
        if fr["placed"] >= 6:
            fr["ph"] = "main"
        return
    if cid == "done":
        fr["ph"] = "main"
        return
    if cid == "civic:shift":
        fr["civ_n"] += 1
    civic_apply(state, fr["civ"], cid, facts)


register_op(OpDef("train", GOV, OP["train"], "3.2.1", _train_spaces, _train_select, _train_phase_ask,
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
    pay(state, GOV, gov_cost(fr), facts, msg("Patrol"))
    fr["ph"] = "move"
    fr["fix"] = {}


def _patrol_ask(state, fr):
    ph = fr["ph"]
    if ph == "move":
        ch = [cached(("patrol_from", s), lambda s=s: C(f"from:{s}", msg("Move a cube from {space}", space=SPACE[s]),
                                                        ChoiceKind.SPACE, "3.2.2", HELP_MOVE, {"space": s}))
              for s in _patrol_origins(state, fr)]
        ch.extend(sa_choices(state, fr))
        ch.append(C("done", msg("Stop moving cubes"), ChoiceKind.DONE, "3.2.2", HELP_DONE))
        return msg("Patrol: move cubes along LoCs, Coastal Departments and Lima"), ch
    if ph == "ptype":
        o = fr["cur"]
        ch = [C(f"cube:{k}", msg("Move {piece}", piece=ONE_PIECE[k]), ChoiceKind.PIECE, "3.2.2", HELP_MOVE,
                {"piece": k, "space": o}, payload={"piece": k})
              for k in ("T", "P") if _movable(state, fr, o, k) > 0]
        return msg("Patrol: which cube from {space}?", space=SPACE[o]), ch
    if ph == "pdest":
        o = fr["cur"]
        dests = [d for d in patrol_dests(state, o) if allowed_here(fr, d)]
        if fr.get("dest"):
            dests = [d for d in dests if d == fr["dest"]]
        return msg("Patrol: where does the cube from {space} stop?", space=SPACE[o]), [
            cached(("patrol_to", d), lambda d=d: C(f"to:{d}", msg("To {space}", space=SPACE[d]), ChoiceKind.SPACE,
                                                   "3.2.2", HELP_MOVE, {"space": d}))
            for d in dests]
    # passault
    ch = []
    for loc in sorted(LOCS):
        if fr.get("lim") and fr.get("dest") != loc:
            continue
        sp = state["s"][loc]
        if cubes(sp) and sp["Ga"] and allowed_here(fr, loc):
            ch.append(C(f"assault:{loc}", msg("Free Assault on {space}", space=SPACE[loc]), ChoiceKind.SPACE,
                        "3.2.2, 3.2.4", HELP_SPACE, {"space": loc}))
    ch.extend(sa_choices(state, fr))
    ch.append(C("done", msg("No Assault: finish the Patrol"), ChoiceKind.DONE, "3.2.2", HELP_DONE))
    return msg("Patrol: Assault on one LoC at no cost?"), ch


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
        facts.append(fact("move", msg("{piece} patrols from {source} to {space}.", piece=ONE_PIECE[k], source=SPACE[o],
                                      space=SPACE[d]), piece=k, source=o, space=d))
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
            facts.append(fact("activate", msg_n("{count} Guerrilla Activated on {space} (Patrol).",
                                                "{count} Guerrillas Activated on {space} (Patrol).", n, space=SPACE[loc]),
                              space=loc, count=n))


register_op(OpDef("patrol", GOV, OP["patrol"], "3.2.2", lambda s, f: [], lambda *a: None, _patrol_ask, _patrol_act,
                  start=_patrol_start, min_sel=0,
                  possible=lambda st, fr: fr["free"] or can_pay(st, GOV, gov_cost(fr))))


# ---------------------------------------------------------------- 3.2.3 Sweep

def _sweep_spaces(state, fr):
    if not can_pay(state, GOV, gov_cost(fr)):
        return []
    return [s for s in state["s"] if s not in LOCS and s not in fr["sel"] and allowed_here(fr, s)]


def _sweep_select(state, fr, sid, facts):
    pay(state, GOV, gov_cost(fr), facts, msg("Sweep into {space}", space=SPACE[sid]))
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
    ch = [cached(("sweep_from", o), lambda o=o: C(f"move:{o}", msg("Move a Troop from {space}", space=SPACE[o]),
                                                  ChoiceKind.SPACE, "3.2.3", HELP_MOVE, {"space": o, "piece": "T"},
                                                  payload={"space": o}))
          for o in sweep_origins(state, fr, d)]
    ch.append(C("done", msg("No more Troops into {space}", space=SPACE[d]), ChoiceKind.DONE, "3.2.3", HELP_DONE))
    return msg("Sweep into {space}: move adjacent Troops in", space=SPACE[d]), ch


def _sweep_act(state, fr, cid, facts):
    if cid == "done":
        fr["ph"] = "main"
        return
    o, d = cid[5:], fr["cur"]
    state["s"][o]["T"] -= 1
    state["s"][d]["T"] += 1
    fr["fix"][d] = fr["fix"].get(d, 0) + 1
    facts.append(fact("move", msg("A Troop sweeps from {source} into {space}.", source=SPACE[o], space=SPACE[d]),
                      piece="T", source=o, space=d))


def _sweep_finish(state, fr, facts):
    for d in fr["sel"]:
        sp = state["s"][d]
        n = cubes(sp)
        if d in JUNGLE or sp["sup"] == -2:
            n //= 2
        k = activate(sp, "Gu", n)
        if k:
            facts.append(fact("activate", msg_n("{count} Guerrilla Activated in {space} (Sweep).",
                                                "{count} Guerrillas Activated in {space} (Sweep).", k, space=SPACE[d]),
                              space=d, count=k))
        if cap(state, "P24") == "bottom" and sp["ez"] and sp["P"]:
            shift(state, d, -2, facts, msg("Sinchis abuses (P24)"))


register_op(OpDef("sweep", GOV, OP["sweep"], "3.2.3", _sweep_spaces, _sweep_select, _sweep_ask, _sweep_act,
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
        remove(state, sid, "Ga", k, facts, msg("Assault"), to=hold)
        n -= k
    while n > 0 and sp["Gu"] == 0 and sp["Ga"] == 0 and sp["B"] + sp["D"] > 0:
        n -= 1
        which = remove_base(state, sid, facts, msg("Assault"))
        if which == "D":
            hunt_shift(state, 1, facts, msg("Directives Base removed by Assault"))
        elif cap(state, "P9") == "top":
            hunt_roll(state, facts, msg("Paper trail (P9)"), bonus=1 if cap(state, "P6") == "top" else 0)
    if cap(state, "P31") == "bottom" and sp["ez"]:
        shift(state, sid, -2, facts, msg("army abuses (P31)"))
    refresh_control(state, facts, msg("Assault in {space}", space=SPACE[sid]))


def _assault_select(state, fr, sid, facts):
    pay(state, GOV, gov_cost(fr), facts, msg("Assault in {space}", space=SPACE[sid]))
    if sinchis_possible(state, fr, sid):
        fr["ph"] = "sinchi"
        fr["cur"] = sid
        return
    assault_space(state, fr, sid, facts)


def _assault_ask(state, fr):
    sid = fr["cur"]
    return msg("Assault in {space}: use the Sinchis (P24)?", space=SPACE[sid]), [
        C("sinchi:yes", msg("Police count as Troops in {space} (once per Assault)", space=SPACE[sid]),
          ChoiceKind.CONFIRM, "5.3 (P24)", HELP_SINCHI, {"space": sid}),
        C("sinchi:no", msg("Assault with Troops only"), ChoiceKind.OPTION, "3.2.4", HELP_NO_SINCHI, {"space": sid})]


def _assault_act(state, fr, cid, facts):
    fr["ph"] = "main"
    assault_space(state, fr, fr["cur"], facts, sinchis=cid == "sinchi:yes")


register_op(OpDef("assault", GOV, OP["assault"], "3.2.4", _assault_spaces, _assault_select, _assault_ask,
                  _assault_act))
