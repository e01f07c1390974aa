"""6.0 Propaganda Round and 7.0 Victory.

The ``prop`` frame walks the phases: 6.1.1 DIRCOTE Investigates, 6.1.2 Guzman Directives
Executed (two free Limited Operations), 6.1.3 Rondas React, 6.2 Political Will (6.2.5 early
victory, 6.2.6 game end), 6.3 Resources, 6.4 Support (Civic Action, Agitate), 6.5 Redeploy,
Emergency Zones, the Directives swap and Control, 6.6 Reset. The final card (P40) stops
after 6.2 (2.4.2).

Choice ids: ``civic:<id>`` (spend 2 in that space), ``agitate:<id>`` (spend 1), ``done``;
Redeploy ``move:<from>:<to>`` (a Troop that must leave), ``from:<id>`` then ``to:<id>``
(a Police), ``done``; Emergency Zones ``ez:<id>``, ``done``.
"""

from __future__ import annotations

import math

from engine.core.contract import ChoiceKind, cause_die, cause_rule, fact
from engine.core.flow import Ask, FrameKind, pop, push
from engine.core.messages import msg, msg_n

from .data import ADJ, COASTAL, CONTROLLABLE, DRUG_TRADE, EZ_MARKERS, HIGHLAND, IDS, LIMA, LOCS, POP
from .ops import op_menu
from .ops_gov import civic_max_shifts, civic_ok
from .sequence import swap_spaces
from .state import (
    GOV,
    SP,
    activate,
    bases,
    cap,
    cubes,
    d_location,
    die,
    guerrillas,
    hunt_roll,
    place,
    pw,
    refresh_control,
    remove_guerrillas,
    res,
    rondas,
    shift,
    sp_pieces,
)
from .texts import HELP_AGITATE, HELP_CIVIC, HELP_DONE, HELP_EZ, HELP_MOVE, SPACE, C, cached

#: the steps of the ``prop`` frame (its ``ph`` before the step): rule and name, the cause of
#: the facts each automatic step produces
PHASES = [
    cause_rule("6.1.1", msg("DIRCOTE Investigates")),
    cause_rule("6.1.2", msg("Guzman Directives Executed")),
    cause_rule("6.1.3", msg("Rondas React")),
    cause_rule("6.2", msg("Political Will Phase")),
    cause_rule("6.3", msg("Resources Phase")),
    cause_rule("6.4", msg("Support Phase")),
    cause_rule("6.5.1", msg("Redeploy Phase")),
    cause_rule("6.5.2", msg("Emergency Zones")),
    cause_rule("6.5.3", msg("Guzman Directives Base swap")),
    cause_rule("6.5.4", msg("Control adjusted after Redeploy")),
    cause_rule("6.6", msg("Reset Phase")),
]


def prop_cause(state: dict, fr: dict) -> dict:
    return PHASES[min(fr["ph"], len(PHASES) - 1)]


def _prop_auto(state: dict, fr: dict, facts: list) -> None:
    ph = fr["ph"]
    fr["ph"] += 1
    if ph == 0:
        facts.append(fact("phase", msg("Propaganda Round: Conflict Phase (6.1)."), phase="6.1"))
        if not state["captured"]:
            hunt_roll(state, facts, msg("DIRCOTE Investigates (6.1.1)"), bonus=1 if cap(state, "P6") == "top" else 0)
    elif ph == 1:
        directives(state, facts)
    elif ph == 2:
        rondas_react(state, facts)
    elif ph == 3:
        political_will_phase(state, fr, facts)
    elif ph == 4:
        resources_phase(state, facts)
    elif ph == 5:
        facts.append(fact("phase", msg("Support Phase (6.4)."), phase="6.4"))
        push(state, {"k": "agitate", "n": {}})
        push(state, {"k": "civic", "n": {}})
    elif ph == 6:
        facts.append(fact("phase", msg("Redeploy Phase (6.5)."), phase="6.5"))
        push(state, {"k": "redeploy", "ph": "troops" if troop_sources(state) else "police"})
    elif ph == 7:
        emergency_zones(state, facts)
    elif ph == 8:
        if not state["captured"] and swap_spaces(state):
            push(state, {"k": "swap"})
        else:
            state["d_revealed"] = False
    elif ph == 9:
        refresh_control(state, facts, msg("Redeploy (6.5.4)"))
    else:
        reset(state, facts)
        pop(state, fr)


# ---------------------------------------------------------------- 6.1.2 Directives

def directives(state: dict, facts: list) -> None:
    if state["captured"]:
        return
    loc = d_location(state)
    if loc is None:
        facts.append(fact("directives", msg("Bases flipped: the Guzman Directives Base is not on the map (6.1.2)."),
                          barrier=True))
        return
    state["d_revealed"] = True
    facts.append(fact("directives", msg("Bases flipped: the Guzman Directives Base is in {space} (6.1.2).",
                                        space=SPACE[loc]), space=loc, barrier=True))
    with_sa = cap(state, "P9") == "bottom"
    state["once_sa"] = with_sa
    adj = [s for s in IDS if s in ADJ[loc]]

    def sa(where):
        return {"names": None, "flag": "once_sa", "where": where} if with_sa else None

    push(state, op_menu(SP, True, True, adj, sa(adj), optional=True,
                        text=msg("Guzman Directives: free Limited Operation in a space next to {space}",
                                 space=SPACE[loc]),
                        rule="6.1.2"))
    push(state, op_menu(SP, True, True, [loc], sa([loc]), optional=True,
                        text=msg("Guzman Directives: free Limited Operation in {space}", space=SPACE[loc]),
                        rule="6.1.2"))


# ---------------------------------------------------------------- 6.1.3 Rondas React

def rondas_react(state: dict, facts: list) -> None:
    for sid in IDS:
        sp = state["s"][sid]
        n = rondas(sp)
        if not n:
            continue
        d = die(state, "rondas")
        ok = d <= n
        facts.append(fact("roll", msg("Rondas React in {space}: rolled {die} against {count} Rondas: {outcome}.",
                                      space=SPACE[sid], die=d, count=n,
                                      outcome=msg("they rise") if ok else msg("no effect")),
                          die=d, space=sid, success=ok, barrier=True, cause=cause_die("6.1.3", d)))
        if ok:
            activate(sp, "Ru")
            shift(state, sid, 2, facts, msg("Rondas React"))
            refresh_control(state, facts, msg("Rondas React in {space}", space=SPACE[sid]))
    # "remove one Guerrilla for every two Active Rondas": which ones is the Government's choice
    remove_guerrillas(state, GOV, [(sid, state["s"][sid]["Ra"] // 2) for sid in IDS if rondas(state["s"][sid])],
                      facts, msg("Rondas React"), "6.1.3")


# ---------------------------------------------------------------- 6.2 Political Will and 7.0 Victory

def political_will_terms(state: dict) -> dict[str, int]:
    s = state["s"]
    sup = sum(POP[h] for h in HIGHLAND if s[h]["sup"] > 0)
    opp = sum(POP[h] for h in HIGHLAND if s[h]["sup"] < 0)
    nb = sum(bases(sp) for sp in s.values())
    terror = s[LIMA]["ter"] + sum(s[c]["ter"] for c in COASTAL)
    ez = [sid for sid in IDS if s[sid]["ez"]]
    ez_ok = not ez or sum(1 for e in ez if s[e]["ctl"] == "G") >= math.ceil(len(ez) / 2)
    return {"andean": sup - opp, "bases": -(nb // 2), "terror": -terror,
            "lima_support": 2 if s[LIMA]["sup"] > 0 else 0, "emergency_zones": 2 if ez_ok else 0}


def political_will_phase(state: dict, fr: dict, facts: list) -> None:
    facts.append(fact("phase", msg("Political Will Phase (6.2)."), phase="6.2"))
    terms = political_will_terms(state)
    net = sum(terms.values())
    parts = [msg("{term} {value:+d}", term=PW_TERM[k], value=v) for k, v in terms.items() if v]
    pw(state, net, msg("Political Will Phase: {terms}", terms=parts) if parts else
       msg("Political Will Phase: no change"), facts)
    if net and facts and facts[-1].get("track") == "political_will":
        facts[-1]["terms"] = terms
    if state["pw"] <= 2:
        end_game(state, facts, SP, msg("Political Will 0-2 at the Political Will Phase (6.2.5)"))
    elif state["pw"] >= 18:
        end_game(state, facts, GOV, msg("Political Will 18-20 at the Political Will Phase (6.2.5)"))
    elif fr.get("final"):
        final_victory(state, facts, msg("the final Propaganda card (6.2.6)"))


#: the terms of 6.2 (names of ``political_will_terms`` keys)
PW_TERM = {"andean": msg("Andean Highland Support minus Opposition"), "bases": msg("Bases on the map"),
           "terror": msg("Terror in Lima and Coastal Departments"), "lima_support": msg("Lima at Support"),
           "emergency_zones": msg("Emergency Zones under Government Control")}


def final_victory(state: dict, facts: list, why: str) -> None:
    """7.0.2: below 10 Shining Path, above 10 Government, exactly 10 a tie."""
    p = state["pw"]
    end_game(state, facts, SP if p < 10 else GOV if p > 10 else None,
             msg("Final victory after {why} (7.0.2)", why=why))


WINS = {GOV: msg("The Government wins"), SP: msg("The Shining Path wins"), None: msg("The game is tied")}


def end_game(state: dict, facts: list, winner: str | None, reason) -> None:
    state["over"] = {"winner": winner, "reason": reason, "political_will": state["pw"]}
    state["stack"] = []
    facts.append(fact("game_over", msg("{outcome} ({why}); Political Will {value}.", outcome=WINS[winner], why=reason,
                                       value=state["pw"]), winner=winner, barrier=True))


# ---------------------------------------------------------------- 6.3 Resources

def resources_phase(state: dict, facts: list) -> None:
    facts.append(fact("phase", msg("Resources Phase (6.3)."), phase="6.3"))
    s = state["s"]
    for loc in sorted(LOCS):
        if not s[loc]["sab"] and guerrillas(s[loc]) > cubes(s[loc]):
            s[loc]["sab"] = 1
            facts.append(fact("marker", msg("Sabotage placed on {space} (6.3.1).", space=SPACE[loc]), space=loc,
                              marker="sabotage", delta=1, deltas={"sabotage_markers": 1}))
    g = sum(POP[c] for c in (LIMA, *sorted(COASTAL)) if s[c]["ctl"] == "G")
    g += sum(2 for loc in LOCS if not s[loc]["sab"])
    res(state, GOV, g, msg("Government earnings (6.3.2)"), facts)
    e = sum(1 for c in CONTROLLABLE if s[c]["ctl"] == "S") + sum(bases(sp) for sp in s.values())
    e += sum(1 for d in DRUG_TRADE if s[d]["ctl"] == "S")
    res(state, SP, e, msg("Shining Path earnings and drug trade (6.3.3, 6.3.4)"), facts)


# ---------------------------------------------------------------- 6.4 Support

def _civic_spaces(state: dict, fr: dict) -> list[tuple[str, str]]:
    if state["res"][GOV] < 2:
        return []
    out = []
    for sid in CONTROLLABLE:
        if not civic_ok(state, sid):
            continue
        sp = state["s"][sid]
        if sp["ter"]:
            out.append((sid, "terror"))
        elif POP[sid] and sp["sup"] < 2 and fr["n"].get(sid, 0) < civic_max_shifts(state, sid):
            out.append((sid, "shift"))
    return out


def _civic_ask(state: dict, fr: dict) -> Ask:
    ch = [C(f"civic:{sid}", msg("Pay 2 in {space}: remove a Terror marker", space=SPACE[sid]) if w == "terror" else
            msg("Pay 2 in {space}: shift toward Active Support", space=SPACE[sid]), ChoiceKind.SPACE, "6.4.1",
            HELP_CIVIC, {"space": sid}, {GOV: 2}, payload={"space": sid, "effect": w})
          for sid, w in _civic_spaces(state, fr)]
    ch.append(C("done", msg("No more Civic Action"), ChoiceKind.DONE, "6.4.1", HELP_DONE))
    return Ask(GOV, msg("Support Phase: Civic Action (2 Resources each)"), "6.4.1", ch)


def _civic_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    if cid == "done":
        pop(state, fr)
        return
    sid = cid[6:]
    sp = state["s"][sid]
    res(state, GOV, -2, msg("Civic Action in {space}", space=SPACE[sid]), facts)
    if sp["ter"]:
        sp["ter"] -= 1
        facts.append(fact("marker", msg("Terror removed from {space} (Civic Action).", space=SPACE[sid]), space=sid,
                          marker="terror", delta=-1, deltas={"terror_markers": -1}))
    else:
        fr["n"][sid] = fr["n"].get(sid, 0) + 1
        shift(state, sid, 2, facts, msg("Civic Action"))


def _agitate_spaces(state: dict, fr: dict) -> list[tuple[str, str]]:
    if state["res"][SP] < 1:
        return []
    out = []
    for sid in CONTROLLABLE:
        sp = state["s"][sid]
        if sp["ctl"] != "S":
            continue
        if sp["ter"]:
            out.append((sid, "terror"))
        elif POP[sid] and sp["sup"] > -2 and fr["n"].get(sid, 0) < 2:
            out.append((sid, "shift"))
    return out


def _agitate_ask(state: dict, fr: dict) -> Ask:
    ch = [C(f"agitate:{sid}", msg("Pay 1 in {space}: remove a Terror marker", space=SPACE[sid]) if w == "terror" else
            msg("Pay 1 in {space}: shift toward Active Opposition", space=SPACE[sid]), ChoiceKind.SPACE, "6.4.2",
            HELP_AGITATE, {"space": sid}, {SP: 1}, payload={"space": sid, "effect": w})
          for sid, w in _agitate_spaces(state, fr)]
    ch.append(C("done", msg("No more Agitation"), ChoiceKind.DONE, "6.4.2", HELP_DONE))
    return Ask(SP, msg("Support Phase: Agitate (1 Resource each)"), "6.4.2", ch)


def _agitate_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    if cid == "done":
        pop(state, fr)
        return
    sid = cid[8:]
    sp = state["s"][sid]
    res(state, SP, -1, msg("Agitate in {space}", space=SPACE[sid]), facts)
    if sid not in fr["n"]:
        fr["n"][sid] = 0
        if cap(state, "P13") == "top":
            place(state, sid, "Ru", 1, facts, msg("popular committees spark backlash (P13)"))
    if sp["ter"]:
        sp["ter"] -= 1
        facts.append(fact("marker", msg("Terror removed from {space} (Agitate).", space=SPACE[sid]), space=sid,
                          marker="terror", delta=-1, deltas={"terror_markers": -1}))
    else:
        fr["n"][sid] += 1
        shift(state, sid, -2, facts, msg("Agitate"))


# ---------------------------------------------------------------- 6.5 Redeploy and Emergency Zones

def troop_sources(state: dict) -> list[str]:
    return [s for s in IDS if state["s"][s]["T"] and (s in LOCS or (s != LIMA and state["s"][s]["ctl"] == "S"))]


def redeploy_dests(state: dict, exclude: str | None = None) -> list[str]:
    return [s for s in IDS if s != exclude and s not in LOCS and (s == LIMA or state["s"][s]["ctl"] == "G")]


def _redeploy_ask(state: dict, fr: dict) -> Ask:
    if fr["ph"] == "troops":
        ch = [cached(("redeploy", o, d), lambda o=o, d=d: C(
            f"move:{o}:{d}", msg("Move a Troop from {source} to {space}", source=SPACE[o], space=SPACE[d]),
            ChoiceKind.PIECE, "6.5.1", HELP_MOVE, {"piece": "T", "source": o, "space": d},
            payload={"space": d, "source": o}))
              for o in troop_sources(state) for d in redeploy_dests(state, o)]
        return Ask(GOV, msg("Redeploy: Troops must leave LoCs and Shining Path Departments"), "6.5.1", ch)
    if fr["ph"] == "police":
        ch = [cached(("redeploy_from", s), lambda s=s: C(
            f"from:{s}", msg("Move a Police from {space}", space=SPACE[s]), ChoiceKind.SPACE, "6.5.1", HELP_MOVE,
            {"space": s, "piece": "P"}, payload={"space": s})) for s in IDS if state["s"][s]["P"]]
        ch.append(C("done", msg("No more Police moves"), ChoiceKind.DONE, "6.5.1", HELP_DONE))
        return Ask(GOV, msg("Redeploy: move Police (optional)"), "6.5.1", ch)
    o = fr["cur"]
    dests = [s for s in IDS if s != o and (s in LOCS or s == LIMA or state["s"][s]["ctl"] == "G")]
    return Ask(GOV, msg("Redeploy: where does the Police from {space} go?", space=SPACE[o]), "6.5.1",
               [cached(("redeploy_to", d), lambda d=d: C(f"to:{d}", msg("To {space}", space=SPACE[d]), ChoiceKind.SPACE,
                                                         "6.5.1", HELP_MOVE, {"space": d})) for d in dests])


def _redeploy_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    if cid == "done":
        pop(state, fr)
        refresh_control(state, facts, msg("Redeploy (6.5.1)"))
        return
    if cid.startswith("move:"):
        _, o, d = cid.split(":")
        state["s"][o]["T"] -= 1
        state["s"][d]["T"] += 1
        facts.append(fact("move", msg("A Troop redeploys from {source} to {space}.", source=SPACE[o], space=SPACE[d]),
                          piece="T", source=o, space=d))
        if not troop_sources(state):
            fr["ph"] = "police"
        return
    if cid.startswith("from:"):
        fr["cur"] = cid[5:]
        fr["ph"] = "pdest"
        return
    o, d = fr["cur"], cid[3:]
    state["s"][o]["P"] -= 1
    state["s"][d]["P"] += 1
    facts.append(fact("move", msg("A Police redeploys from {source} to {space}.", source=SPACE[o], space=SPACE[d]),
                      piece="P", source=o, space=d))
    fr["ph"] = "police"


def emergency_zones(state: dict, facts: list) -> None:
    """6.5.2: remove where Government Control, Support and no Shining Path piece; then the
    Government may place markers in Highland Departments with Shining Path pieces."""
    for sid in IDS:
        sp = state["s"][sid]
        if sp["ez"] and sp["ctl"] == "G" and sp["sup"] > 0 and sp_pieces(sp) == 0:
            sp["ez"] = 0
            facts.append(fact("marker", msg("Emergency Zone removed from {space} (6.5.2).", space=SPACE[sid]),
                              space=sid, marker="emergency_zone", delta=-1, deltas={"emergency_zones": -1}))
    if _ez_candidates(state):
        push(state, {"k": "ez"})


def ez_count(state: dict) -> int:
    return sum(sp["ez"] for sp in state["s"].values())


def _ez_candidates(state: dict) -> list[str]:
    if ez_count(state) >= EZ_MARKERS:
        return []
    return [s for s in IDS if s in HIGHLAND and not state["s"][s]["ez"] and sp_pieces(state["s"][s])]


def _ez_ask(state: dict, fr: dict) -> Ask:
    ch = [C(f"ez:{s}", msg("Place an Emergency Zone in {space}", space=SPACE[s]), ChoiceKind.SPACE, "6.5.2", HELP_EZ,
            {"space": s}) for s in _ez_candidates(state)]
    ch.append(C("done", msg("No more Emergency Zones"), ChoiceKind.DONE, "6.5.2", HELP_DONE))
    return Ask(GOV, msg("Emergency Zones: place markers in Highland Departments with Shining Path pieces"), "6.5.2",
               ch)


def _ez_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    if cid == "done":
        pop(state, fr)
        return
    sid = cid[3:]
    state["s"][sid]["ez"] = 1
    facts.append(fact("marker", msg("Emergency Zone placed in {space} (6.5.2).", space=SPACE[sid]), space=sid,
                      marker="emergency_zone", delta=1, deltas={"emergency_zones": 1}))


# ---------------------------------------------------------------- 6.6 Reset

def reset(state: dict, facts: list) -> None:
    ter = sum(sp["ter"] for sp in state["s"].values())
    sab = sum(sp["sab"] for sp in state["s"].values())
    for sp in state["s"].values():
        sp["ter"] = 0
        sp["sab"] = 0
        sp["Gu"] += sp["Ga"]
        sp["Ga"] = 0
    if state["held"]["P22"]:
        state["avail"]["G"] += state["held"]["P22"]
        facts.append(fact("held", msg_n("{count} Guerrilla leaves El Fronton (P22) and becomes Available.",
                                        "{count} Guerrillas leave El Fronton (P22) and become Available.",
                                        state["held"]["P22"]), card="P22"))
        state["held"]["P22"] = 0
    if state["held"]["P26"]:
        state["s"][LIMA]["T"] += state["held"]["P26"]
        n = state["held"]["P26"]
        facts.append(fact("held", msg_n("{count} Troop returns from the border (P26) to Lima.",
                                        "{count} Troops return from the border (P26) to Lima.", n),
                          card="P26", deltas={"troops_on_map": n, "cubes_on_map": n}))
        state["held"]["P26"] = 0
    refresh_control(state, facts, msg("Reset (6.6)"))
    d = {}
    if ter:
        d["terror_markers"] = -ter
    if sab:
        d["sabotage_markers"] = -sab
    facts.append(fact("phase", msg("Reset: Terror and Sabotage removed, Guerrillas Underground (6.6)."), phase="6.6",
                      deltas=d))


FRAME_KINDS = [
    FrameKind("prop", auto=_prop_auto, cause=prop_cause),
    FrameKind("civic", ask=_civic_ask, act=_civic_act, never_empty=True),
    FrameKind("agitate", ask=_agitate_ask, act=_agitate_act, never_empty=True),
    FrameKind("redeploy", ask=_redeploy_ask, act=_redeploy_act),
    FrameKind("ez", ask=_ez_ask, act=_ez_act, never_empty=True),
]
