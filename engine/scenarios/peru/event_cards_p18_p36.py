"""5.0 Events, cards P18-P36: each card side's script (texts paraphrased in data/cards.json)."""

from __future__ import annotations

from engine.core.contract import ChoiceKind, cause_die, fact
from engine.core.flow import pop, push
from engine.core.messages import msg, msg_n

from .data import (
    CONTROLLABLE,
    DEPARTMENTS,
    EZ_MARKERS,
    HIGHLAND,
    IDS,
    LIMA,
    LOCS,
    POP,
)
from .event_script import (
    WHY,
    YES_NO,
    effect,
    ev,
    free_ops,
    hunt_bonus,
    no_choice,
    rmg_act,
    rmg_ask,
    spaces_choices,
    steps,
)
from .ops import new_op, start_op
from .ops_sp import ambush, gov_targets
from .state import (
    GOV,
    SP,
    bases,
    cubes,
    die,
    guerrillas,
    hunt_roll,
    place,
    pw,
    remove,
    remove_guerrillas,
    res,
    shift,
)
from .texts import (
    HELP_AMOUNT,
    HELP_FROM_AVAILABLE,
    HELP_PW,
    HELP_REMOVE,
    HELP_SPACE,
    SPACE,
    C,
)

# ---------------------------------------------------------------- P18-P23

@effect("P18", "top")
def _p18(state, seat, facts):
    state["once_sa"] = True
    free_ops(state, seat, 2, ["ayacucho"], sa={"names": None, "where": ["ayacucho"], "flag": "once_sa"},
             text=msg("Free Limited Operation in Ayacucho"))


@effect("P19", "top")
def _p19t(state, seat, facts):
    pw(state, 1, msg("prison attack repelled (P19)"), facts)
    opts = [s for s in IDS if s in DEPARTMENTS and cubes(state["s"][s])]
    if opts:
        ev(state, "P19", "top", seat, "space")


def _p19t_act(state, fr, cid, facts):
    pop(state, fr)
    sid = cid[6:]
    remove(state, sid, "Ga", state["s"][sid]["Ga"], facts, WHY["P19"])


steps("P19", "top", lambda s, f: (msg("remove all Active Guerrillas from a Department with cubes"), spaces_choices(
    [x for x in IDS if x in DEPARTMENTS and cubes(s["s"][x])])), _p19t_act)


def _p19b_opts(state):
    return [s for s in IDS if s in DEPARTMENTS and state["s"][s]["Gu"] and gov_targets(state["s"][s])]


@effect("P19", "bottom")
def _p19b(state, seat, facts):
    if _p19b_opts(state):
        ev(state, "P19", "bottom", SP, "space")


def _p19b_act(state, fr, cid, facts):
    pop(state, fr)
    if cid != "no":
        ambush(state, {}, cid[6:], facts, add=2)


steps("P19", "bottom", lambda s, f: (msg("free Ambush adding 2 Guerrillas in"), spaces_choices(
    _p19b_opts(s), lambda n: msg("Ambush in {space}", space=n)) + [no_choice(msg("Do not Ambush"))]), _p19b_act)


@effect("P20", "top")
def _p20(state, seat, facts):
    state["once_sa"] = True
    state["last_sel"] = []
    push(state, {"k": "evauto", "card": "P20", "seat": seat})
    first = "sweep" if seat == GOV else "march"
    fr = new_op(seat, first, True, True, None, {"names": None, "flag": "once_sa", "in_sel": True})
    start_op(state, fr, facts)


def _p20_auto(state, fr, facts):
    pop(state, fr)
    sel = state.get("last_sel") or []
    if sel:
        second = "assault" if fr["seat"] == GOV else "attack"
        start_op(state, new_op(fr["seat"], second, True, True, sel[:1], {"names": None, "where": sel[:1],
                                                                            "flag": "once_sa"}), facts)


@effect("P21", "top")
def _p21t(state, seat, facts):
    s = state["s"]
    sup = sum(POP[x] for x in CONTROLLABLE if s[x]["sup"] > 0)
    opp = sum(POP[x] for x in CONTROLLABLE if s[x]["sup"] < 0)
    if sup > opp:
        pw(state, 1, msg("election won by the underdog (P21)"), facts)


@effect("P21", "bottom")
def _p21b(state, seat, facts):
    free_ops(state, SP, 1, None, ["terror"], extra={"maxsel": 2}, lim=False, text=msg("Free Terror in up to 2 spaces"))


@effect("P22", "top")
def _p22t(state, seat, facts):
    free_ops(state, GOV, 1, None, ["assault"], extra={"hold": "P22"}, text=msg("Free Assault in 1 space (El Fronton)"))


@effect("P22", "bottom")
def _p22b(state, seat, facts):
    pw(state, -2, msg("prison massacre (P22)"), facts)
    shift(state, LIMA, 0, facts, WHY["P22"])


@effect("P23", "top")
def _p23t(state, seat, facts):
    res(state, GOV, 8, msg("US aid (P23)"), facts)
    fr = new_op(GOV, "train", True, True, [LIMA], None)
    fr["police_only"] = True
    start_op(state, fr, facts)


@effect("P23", "bottom")
def _p23b(state, seat, facts):
    n = sum(1 for s in ("amazonas", "huanuco") if guerrillas(state["s"][s]) + bases(state["s"][s]))
    res(state, SP, 2 * n, msg("drug trade profits (P23)"), facts)


# ---------------------------------------------------------------- P25-P30

@effect("P25", "top")
def _p25t(state, seat, facts):
    ev(state, "P25", "top", seat, "rmg", n=4 if state["captured"] else 2, where=None)


steps("P25", "top", rmg_ask, rmg_act)


@effect("P25", "bottom")
def _p25b(state, seat, facts):
    need = {s: bases(state["s"][s]) for s in IDS if bases(state["s"][s])}
    if sum(need.values()) <= state["avail"]["G"]:
        for s, b in need.items():
            place(state, s, "Gu", b, facts, WHY["P25"])
    elif state["avail"]["G"]:
        # not enough Available Guerrillas for every Base (Events place only Available pieces,
        # 5.1.1): the executing side chooses which Bases get one
        ev(state, "P25", "bottom", seat, "place", need=need)


def _p25b_ask(state, fr):
    return (msg("place 1 Guerrilla at a Base ({count} Available)", count=state["avail"]["G"]),
            spaces_choices([s for s, n in fr["need"].items() if n], lambda n: msg("Place a Guerrilla at a Base in {space}",
                                                                                 space=n)))


def _p25b_act(state, fr, cid, facts):
    sid = cid[6:]
    place(state, sid, "Gu", 1, facts, WHY["P25"])
    fr["need"][sid] -= 1
    if not state["avail"]["G"] or not any(fr["need"].values()):
        pop(state, fr)


steps("P25", "bottom", _p25b_ask, _p25b_act)


@effect("P26", "top")
def _p26t(state, seat, facts):
    ev(state, "P26", "top", GOV, "space")


def _p26t_ask(state, fr):
    if fr["step"] == "space":
        return msg("place up to 4 Troops in a Department and operate there?"), spaces_choices(
            sorted(DEPARTMENTS)) + [no_choice(msg("Decline"))]
    k = min(4, state["avail"]["T"])
    return msg("how many Troops go to {space}?", space=SPACE[fr["space"]]), [
        C(f"n:{n}", msg_n("{count} Troop", "{count} Troops", n), ChoiceKind.AMOUNT, "", HELP_AMOUNT,
          {"space": fr["space"], "piece": "T", "count": n}, payload={"count": n}) for n in range(k, -1, -1)]


def _p26t_act(state, fr, cid, facts):
    if fr["step"] == "space":
        if cid == "no":
            pop(state, fr)
            return
        fr["space"] = cid[6:]
        fr["step"] = "n"
        return
    pop(state, fr)
    sid = fr["space"]
    place(state, sid, "T", int(cid[2:]), facts, WHY["P26"])
    free_ops(state, GOV, 1, [sid], text=msg("Free Limited Operation in {space}", space=SPACE[sid]))


steps("P26", "top", _p26t_ask, _p26t_act)


@effect("P26", "bottom")
def _p26b(state, seat, facts):
    ev(state, "P26", "bottom", seat, "from", n=3)


def _p26b_ask(state, fr):
    ch = []
    if state["avail"]["T"]:
        ch.append(C("from:available", msg("An Available Troop"), ChoiceKind.PIECE, "", HELP_FROM_AVAILABLE,
                    {"piece": "T"}, payload={}))
    ch += [C(f"from:{s}", msg("A Troop from {space}", space=SPACE[s]), ChoiceKind.SPACE, "", HELP_REMOVE,
             {"space": s, "piece": "T"}, payload={"space": s}) for s in IDS if state["s"][s]["T"]]
    return msg("put a Troop on the card ({count} left)", count=fr["n"]), ch


def _p26b_act(state, fr, cid, facts):
    src = cid[5:]
    if src == "available":
        state["avail"]["T"] -= 1
        state["held"]["P26"] += 1
        facts.append(fact("held", msg("An Available Troop goes to the border (P26)."), card="P26"))
    else:
        remove(state, src, "T", 1, facts, WHY["P26"], to="P26")
    fr["n"] -= 1
    if fr["n"] <= 0:
        pop(state, fr)


steps("P26", "bottom", _p26b_ask, _p26b_act)


@effect("P27", "top")
def _p27t(state, seat, facts):
    res(state, GOV, 4, WHY["P27"], facts)
    for s in IDS:
        sp = state["s"][s]
        if s in LOCS and sp["sab"] and not guerrillas(sp):
            sp["sab"] = 0
            facts.append(fact("marker", msg("Sabotage removed from {space} (P27).", space=SPACE[s]), space=s,
                              marker="sabotage", delta=-1, deltas={"sabotage_markers": -1}))


@effect("P27", "bottom")
def _p27b(state, seat, facts):
    res(state, GOV, -6, msg("heterodox policies fail (P27)"), facts)
    ev(state, "P27", "bottom", seat, "space", n=2)


def _p27b_act(state, fr, cid, facts):
    sid = cid[6:]
    state["s"][sid]["sab"] = 1
    facts.append(fact("marker", msg("Sabotage placed on {space} (P27).", space=SPACE[sid]), space=sid, marker="sabotage",
                      delta=1, deltas={"sabotage_markers": 1}))
    fr["n"] -= 1
    if fr["n"] <= 0:
        pop(state, fr)


steps("P27", "bottom", lambda s, f: (msg("place Sabotage on a LoC"), spaces_choices(
    [x for x in IDS if x in LOCS and not s["s"][x]["sab"]])), _p27b_act)


@effect("P28", "top")
def _p28(state, seat, facts):
    n = min(2, sum(1 for sp in state["s"].values() if sp["ez"] and sp["ter"]))
    if n:
        ev(state, "P28", "top", seat, "pw", n=n)


def _p28_act(state, fr, cid, facts):
    pop(state, fr)
    pw(state, fr["n"] if cid == "pw:up" else -fr["n"], msg("mass graves discovered (P28)"), facts)


steps("P28", "top", lambda s, f: (msg("move Political Will by {count}", count=f["n"]), [
    C("pw:up", msg("Raise Political Will by {count}", count=f["n"]), ChoiceKind.OPTION, "", HELP_PW,
      {"track": "political_will", "delta": f["n"]}, payload={}),
    C("pw:down", msg("Lower Political Will by {count}", count=f["n"]), ChoiceKind.OPTION, "", HELP_PW,
      {"track": "political_will", "delta": -f["n"]}, payload={})]),
    _p28_act)


def ez_count(state):
    return sum(sp["ez"] for sp in state["s"].values())


@effect("P29", "top")
def _p29t(state, seat, facts):
    if ez_count(state) < EZ_MARKERS and any(not state["s"][h]["ez"] for h in HIGHLAND):
        ev(state, "P29", "top", seat, "space")
    else:
        _p29_clear(state, seat, facts)


def _p29_clear(state, seat, facts):
    # "remove 1 Guerrilla from each Emergency Zone": the executing side picks Active or Underground
    remove_guerrillas(state, seat, [(s, 1) for s in IDS if state["s"][s]["ez"]], facts, WHY["P29"], "5.0 (P29)")


def _p29t_act(state, fr, cid, facts):
    pop(state, fr)
    sid = cid[6:]
    state["s"][sid]["ez"] = 1
    facts.append(fact("marker", msg("Emergency Zone placed in {space} (P29).", space=SPACE[sid]), space=sid,
                      marker="emergency_zone", delta=1, deltas={"emergency_zones": 1}))
    _p29_clear(state, fr["seat"], facts)


steps("P29", "top", lambda s, f: (msg("place an Emergency Zone in a Highland space"), spaces_choices(
    [x for x in IDS if x in HIGHLAND and not s["s"][x]["ez"]])), _p29t_act)


@effect("P29", "bottom")
def _p29b(state, seat, facts):
    if ez_count(state):
        ev(state, "P29", "bottom", seat, "space")


def _p29b_act(state, fr, cid, facts):
    pop(state, fr)
    sid = cid[6:]
    shift(state, sid, -2, facts, WHY["P29"])
    place(state, sid, "Gu", 1, facts, WHY["P29"])


steps("P29", "bottom", lambda s, f: (msg("choose an Emergency Zone"), spaces_choices(
    [x for x in IDS if s["s"][x]["ez"]])), _p29b_act)


@effect("P30", "top")
def _p30t(state, seat, facts):
    res(state, GOV, 4, msg("Soviet aid (P30)"), facts)
    place(state, LIMA, "T", state["avail"]["T"], facts, WHY["P30"])


@effect("P30", "bottom")
def _p30b(state, seat, facts):
    if any(s in DEPARTMENTS and state["s"][s]["T"] for s in IDS):
        ev(state, "P30", "bottom", seat, "space", n=2, done=[])


def _p30b_ask(state, fr):
    return msg("shift a Department with Troops toward Active Opposition"), spaces_choices(
        [x for x in IDS if x in DEPARTMENTS and state["s"][x]["T"] and x not in fr["done"]])


def _p30b_act(state, fr, cid, facts):
    sid = cid[6:]
    fr["done"].append(sid)
    shift(state, sid, -2, facts, WHY["P30"])
    fr["n"] -= 1
    if fr["n"] <= 0:
        pop(state, fr)


steps("P30", "bottom", _p30b_ask, _p30b_act)


# ---------------------------------------------------------------- P32-P36

@effect("P32", "top")
def _p32t(state, seat, facts):
    ev(state, "P32", "top", GOV, "yes")


def _p32t_act(state, fr, cid, facts):
    pop(state, fr)
    if cid == "yes" and hunt_roll(state, facts, WHY["P32"], bonus=hunt_bonus(state), after_capture_target=True):
        pw(state, 2, msg("second-in-command captured (P32)"), facts)


steps("P32", "top", lambda s, f: (msg("make an Investigate roll (+2 Political Will on success)?"), YES_NO), _p32t_act)


@effect("P32", "bottom")
def _p32b(state, seat, facts):
    push(state, {"k": "sa", "seat": SP, "sa": "evade", "sel": [], "ph": "main", "where": None, "op": "event",
                 "free": True})
    free_ops(state, SP, 1, text=msg("Free Limited Operation, then Evade"))


@effect("P33", "top")
def _p33(state, seat, facts):
    d = die(state, "event")
    n = ez_count(state)
    ok = d < n
    facts.append(fact("roll", msg("Autogolpe: rolled {die} against {count} Emergency Zones: {outcome}.", die=d, count=n,
                                  outcome=msg("coup") if ok else msg("no coup")),
                      die=d, success=ok, barrier=True, cause=cause_die("5.0 (P33)", d)))
    if ok:
        pw(state, -2, msg("self-coup (P33)"), facts)
        for h in IDS:
            if h in HIGHLAND and not state["s"][h]["ez"] and ez_count(state) < EZ_MARKERS:
                state["s"][h]["ez"] = 1
                facts.append(fact("marker", msg("Emergency Zone placed in {space} (P33).", space=SPACE[h]), space=h,
                                  marker="emergency_zone", delta=1, deltas={"emergency_zones": 1}))


@effect("P34", "top")
def _p34t(state, seat, facts):
    spaces = [h for h in IDS if h in HIGHLAND and state["s"][h]["ctl"] == "S"]
    if len(spaces) <= state["avail"]["R"]:
        for h in spaces:
            place(state, h, "Ru", 1, facts, WHY["P34"])
    elif state["avail"]["R"]:
        # fewer Rondas in the box than spaces (Events place only Available pieces, 5.1.1):
        # the executing side chooses where they go
        ev(state, "P34", "top", seat, "pick", left=spaces)


def _p34t_ask(state, fr):
    return (msg("place 1 Rondas in a Highland space with Shining Path Control ({count} Available)",
                count=state["avail"]["R"]),
            spaces_choices(fr["left"], lambda n: msg("Place an Underground Rondas in {space}", space=n)))


def _p34t_act(state, fr, cid, facts):
    sid = cid[6:]
    place(state, sid, "Ru", 1, facts, WHY["P34"])
    fr["left"].remove(sid)
    if not fr["left"] or not state["avail"]["R"]:
        pop(state, fr)


steps("P34", "top", _p34t_ask, _p34t_act)


@effect("P34", "bottom")
def _p34b(state, seat, facts):
    n = sum(1 for s in CONTROLLABLE if state["s"][s]["ctl"] == "S")
    res(state, SP, n, msg("war economy (P34)"), facts)


@effect("P35", "top")
def _p35t(state, seat, facts):
    ev(state, "P35", "top", GOV, "space")


def _p35t_ask(state, fr):
    ch = []
    for h in IDS:
        if h not in HIGHLAND:
            continue
        if state["s"][h]["ez"]:
            ch.append(C(f"space:{h}", msg("Remove the Emergency Zone in {space}", space=SPACE[h]), ChoiceKind.SPACE, "",
                        HELP_SPACE, {"space": h}))
        elif ez_count(state) < EZ_MARKERS:
            ch.append(C(f"space:{h}", msg("Add an Emergency Zone in {space}", space=SPACE[h]), ChoiceKind.SPACE, "",
                        HELP_SPACE, {"space": h}))
    return msg("add or remove one Emergency Zone"), ch + [no_choice(msg("No change"))]


def _p35t_act(state, fr, cid, facts):
    pop(state, fr)
    if cid != "no":
        h = cid[6:]
        sp = state["s"][h]
        sp["ez"] = 1 - sp["ez"]
        facts.append(fact("marker", msg("Emergency Zone placed in {space} (P35).", space=SPACE[h]) if sp["ez"] else
                          msg("Emergency Zone removed from {space} (P35).", space=SPACE[h]),
                          space=h, marker="emergency_zone", delta=1 if sp["ez"] else -1,
                          deltas={"emergency_zones": 1 if sp["ez"] else -1}))


steps("P35", "top", _p35t_ask, _p35t_act)


@effect("P35", "bottom")
def _p35b(state, seat, facts):
    if ez_count(state):
        ev(state, "P35", "bottom", SP, "yes")


def _p35b_ask(state, fr):
    if fr["step"] == "yes":
        return msg("place 1 Guerrilla in each Emergency Zone?"), YES_NO
    return (msg("place 1 Guerrilla in an Emergency Zone ({count} Available)", count=state["avail"]["G"]),
            spaces_choices(fr["left"], lambda n: msg("Place a Guerrilla in {space}", space=n)))


def _p35b_act(state, fr, cid, facts):
    if fr["step"] == "yes":
        if cid != "yes":
            pop(state, fr)
            return
        ezs = [s for s in IDS if state["s"][s]["ez"]]
        if len(ezs) <= state["avail"]["G"]:
            pop(state, fr)
            for s in ezs:
                place(state, s, "Gu", 1, facts, WHY["P35"])
            return
        # fewer Available Guerrillas than Emergency Zones (5.1.1): the Shining Path picks where
        fr["step"] = "pick"
        fr["left"] = ezs
        if not state["avail"]["G"]:
            pop(state, fr)
        return
    sid = cid[6:]
    place(state, sid, "Gu", 1, facts, WHY["P35"])
    fr["left"].remove(sid)
    if not fr["left"] or not state["avail"]["G"]:
        pop(state, fr)


steps("P35", "bottom", _p35b_ask, _p35b_act)


def _p36_opts(state, need_g):
    return [h for h in IDS if h in HIGHLAND and (guerrillas(state["s"][h]) or not need_g)]


@effect("P36", "top")
def _p36t(state, seat, facts):
    if _p36_opts(state, True):
        ev(state, "P36", "top", seat, "space")


def _p36t_ask(state, fr):
    if fr["step"] == "space":
        return msg("remove up to 2 Guerrillas from a Highland space"), spaces_choices(_p36_opts(state, True))
    return rmg_ask(state, fr)


def _p36t_act(state, fr, cid, facts):
    if fr["step"] == "space":
        fr["step"] = "rmg"
        fr["n"] = 2
        fr["where"] = [cid[6:]]
        return
    rmg_act(state, fr, cid, facts)


steps("P36", "top", _p36t_ask, _p36t_act)


@effect("P36", "bottom")
def _p36b(state, seat, facts):
    ev(state, "P36", "bottom", SP, "space")


def _p36b_act(state, fr, cid, facts):
    pop(state, fr)
    if cid != "no":
        free_ops(state, SP, 2, [cid[6:]], text=msg("Free Limited Operation in {space}", space=SPACE[cid[6:]]))


steps("P36", "bottom", lambda s, f: (msg("choose a Highland space for up to 2 free Limited Operations"),
                                     spaces_choices(_p36_opts(s, False)) + [no_choice(msg("Decline"))]),
      _p36b_act)
