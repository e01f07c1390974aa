"""5.0 Events: all 40 cards (texts paraphrased in data/cards.json, each with its rule).

5.1 the executing faction makes the selections unless the text names the other faction;
5.1.1 Events place only Available pieces and never raise a track above 20 or below 0;
5.1.3 whatever part of a text can be carried out is; 5.2 either side of a dual-use card may
be chosen by either faction; 5.3 Capabilities stay for the game (``state["caps"]``).

Each card side is a small effect script: immediate effects, then (where a decision is
needed) an ``ev`` frame whose ``step`` names the decision, or free Operations pushed as
Operation menus (5.4). Choice ids in ``ev`` frames: ``space:<id>``, ``rm:<id>:<piece>``,
``from:<id>`` / ``from:available``, ``yes`` / ``no``, ``pw:up`` / ``pw:down``, ``done``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from engine.core.contract import ChoiceKind, attribute, cause_die, cause_event, fact
from engine.core.flow import Ask, FrameKind, pop, push
from engine.core.messages import msg, msg_n

from .data import (
    ADJ,
    CAPABILITIES,
    CARDS,
    CONTROLLABLE,
    DEPARTMENTS,
    EZ_MARKERS,
    HIGHLAND,
    IDS,
    LIMA,
    LOCS,
    POP,
)
from .ops import SAS, new_op, op_menu, start_op
from .ops_sp import ambush, gov_targets, terror_in
from .state import (
    GOV,
    SEAT_NAME,
    SP,
    activate,
    bases,
    cap,
    cubes,
    die,
    guerrillas,
    hunt_roll,
    hunt_shift,
    place,
    pw,
    refresh_control,
    remove,
    remove_base,
    remove_guerrillas,
    res,
    rondas,
    set_support,
    shift,
)
from .texts import (
    CARD_TEXT,
    CARD_TITLE,
    HELP_AMOUNT,
    HELP_DONE,
    HELP_FROM_AVAILABLE,
    HELP_NO,
    HELP_PW,
    HELP_REMOVE,
    HELP_SPACE,
    HELP_YES,
    ONE_PIECE,
    SIDE,
    SPACE,
    C,
)

#: card id -> the reason named in its facts ("Event P5: ...")
WHY = {cid: msg("Event {number}: {title}", number=cid, title=CARD_TITLE[cid]) for cid in CARDS}

RUN: dict[tuple[str, str], Callable] = {}
STEP: dict[tuple[str, str], tuple[Callable, Callable]] = {}


def effect(card: str, side: str = "top"):
    def deco(fn):
        RUN[(card, side)] = fn
        return fn
    return deco


def steps(card: str, side: str, ask: Callable, act: Callable) -> None:
    STEP[(card, side)] = (ask, act)


def event_sides(state: dict, seat: str, card: str) -> list[str]:
    c = CARDS[card]
    return ["top", "bottom"] if c.get("dual") else ["top"]


def execute(state: dict, seat: str, card: str, side: str, facts: list) -> None:
    c = CARDS[card]
    txt = c[side]
    start = len(facts)
    facts.append(fact("event", msg("{faction} executes {number} {title} ({side}): {text}", faction=SEAT_NAME[seat],
                                   number=card, title=CARD_TITLE[card], side=SIDE[side], text=CARD_TEXT[(card, side)]),
                      seat=seat, card=card, side=side, rule=txt["rule"]))
    if card in CAPABILITIES:
        # 5.3: in effect for the rest of the game (state["caps"], as engine.coin.capabilities reads it)
        state["caps"][card] = side
        facts.append(fact("capability", msg("Capability {number} ({side}) is in effect for the rest of the game (5.3).",
                                            number=card, side=SIDE[side]), card=card, side=side))
    else:
        RUN[(card, side)](state, seat, facts)
        refresh_control(state, facts, WHY[card])
    # 5.0: what the Event does at once is caused by the Event (decisions it asks for later are
    # the deciding seat's)
    attribute(facts, cause_event(card, side, CARD_TITLE[card]), start)


def ev(state: dict, card: str, side: str, seat: str, step: str, **data) -> dict:
    fr = {"k": "ev", "card": card, "side": side, "seat": seat, "step": step}
    fr.update(data)
    return push(state, fr)


def _ev_ask(state: dict, fr: dict) -> Ask:
    text, choices = STEP[(fr["card"], fr["side"])][0](state, fr)
    rule = CARDS[fr["card"]][fr["side"]]["rule"]
    # the card side's rule for every choice of its steps (rare: events are a few prompts a game)
    choices = [c if c.rule else dataclasses.replace(c, rule=rule) for c in choices]
    return Ask(fr["seat"], msg("{number} {title}: {question}", number=fr["card"], title=CARD_TITLE[fr["card"]],
                               question=text), rule, choices, {"card": fr["card"], "side": fr["side"]})


def _ev_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    STEP[(fr["card"], fr["side"])][1](state, fr, cid, facts)
    refresh_control(state, facts, WHY[fr["card"]])


def spaces_choices(sids, label=None, help_=HELP_SPACE) -> list:
    """``space:<id>`` choices for ``sids`` (board order); ``label(space name)`` -> message (None: the name)."""
    want = set(sids)
    return [C(f"space:{s}", SPACE[s] if label is None else label(SPACE[s]), ChoiceKind.SPACE, "", help_,
              {"space": s}) for s in IDS if s in want]


def no_choice(label):
    return C("no", label, ChoiceKind.PASS, "", HELP_NO, payload={})


YES_NO = [C("yes", msg("Yes"), ChoiceKind.CONFIRM, "", HELP_YES, payload={}),
          C("no", msg("No"), ChoiceKind.PASS, "", HELP_NO, payload={})]


def free_ops(state: dict, seat: str, n: int, where=None, ops=None, sa=None, text=None, rule: str = "5.4",
             extra: dict | None = None, lim: bool = True) -> None:
    for i in range(n, 0, -1):
        if text is not None:
            t = text
        elif lim:
            t = msg("Free Limited Operation ({number} of {count})", number=n - i + 1, count=n)
        else:
            t = msg("Free Operation ({number} of {count})", number=n - i + 1, count=n)
        push(state, op_menu(seat, lim, True, where, sa, ops, optional=True, extra=extra, text=t, rule=rule))


# ---------------------------------------------------------------- P1-P5

@effect("P1", "top")
def _p1t(state, seat, facts):
    if state["s"][LIMA]["ter"]:
        state["s"][LIMA]["ter"] -= 1
        facts.append(fact("marker", msg("A Terror marker is removed from Lima (P1)."), space=LIMA, marker="terror",
                          delta=-1, deltas={"terror_markers": -1}))
    shift(state, LIMA, 2, facts, WHY["P1"])


@effect("P1", "bottom")
def _p1b(state, seat, facts):
    free_ops(state, SP, 1, [LIMA], ["terror"], extra={"markers": 2}, text=msg("Free Terror in Lima placing 2 Terror"))


@effect("P2")
def _noop(state, seat, facts):
    pass


@effect("P3", "top")
def _p3t(state, seat, facts):
    if state["s"][LIMA]["ter"]:
        shift(state, LIMA, 2, facts, WHY["P3"])


@effect("P3", "bottom")
def _p3b(state, seat, facts):
    ev(state, "P3", "bottom", SP, "from")


def _p3b_ask(state, fr):
    srcs = [s for s in IDS if s in ADJ[LIMA] and state["s"][s]["Gu"]]
    return msg("free Terror in Lima using an Underground Guerrilla from"), \
        spaces_choices(srcs, lambda s: msg("Use a Guerrilla in {space}", space=s)) + [no_choice(msg("Do not Terror"))]


def _p3b_act(state, fr, cid, facts):
    pop(state, fr)
    if cid != "no":
        terror_in(state, LIMA, facts, activate_from=cid[6:])


steps("P3", "bottom", _p3b_ask, _p3b_act)


@effect("P4", "top")
def _p4t(state, seat, facts):
    free_ops(state, GOV, 2)


@effect("P4", "bottom")
def _p4b(state, seat, facts):
    ev(state, "P4", "bottom", seat, "place", n=2)


def _p4b_ask(state, fr):
    if not state["avail"]["G"]:
        return msg("no Guerrilla is Available"), []
    opts = [LIMA] + [s for s in IDS if s in LOCS and s in ADJ[LIMA]]
    return msg("place a Guerrilla ({count} left)", count=fr["n"]), spaces_choices(
        opts, lambda s: msg("Place a Guerrilla in {space}", space=s))


def _p4b_act(state, fr, cid, facts):
    place(state, cid[6:], "Gu", 1, facts, WHY["P4"])
    fr["n"] -= 1
    if fr["n"] <= 0:
        pop(state, fr)


steps("P4", "bottom", _p4b_ask, _p4b_act)


@effect("P5", "top")
def _p5t(state, seat, facts):
    lima = state["s"][LIMA]
    remove(state, LIMA, "Ga", lima["Ga"], facts, WHY["P5"])
    n = activate(lima, "Gu")
    if n:
        facts.append(fact("activate", msg_n("{count} Guerrilla in Lima Activated (P5).",
                                            "{count} Guerrillas in Lima Activated (P5).", n), space=LIMA, count=n))


@effect("P5", "bottom")
def _p5b(state, seat, facts):
    free_ops(state, SP, 2, [LIMA], ["terror"], text=msg("Free Terror in Lima"))


# ---------------------------------------------------------------- P7, P8, P10 (Hunt)

def _inv_bonus(state):
    return 1 if cap(state, "P6") == "top" else 0


@effect("P7", "top")
def _p7t(state, seat, facts):
    if any(sp["P"] and sp["Ga"] for sp in state["s"].values()) and not state["captured"]:
        ev(state, "P7", "top", GOV, "yes")


def _p7t_act(state, fr, cid, facts):
    pop(state, fr)
    if cid == "yes":
        hunt_roll(state, facts, WHY["P7"], bonus=_inv_bonus(state))


steps("P7", "top", lambda s, f: (msg("make an Investigate roll?"), YES_NO), _p7t_act)


@effect("P7", "bottom")
def _p7b(state, seat, facts):
    hunt_shift(state, -1, facts, WHY["P7"])


@effect("P8", "top")
def _p8t(state, seat, facts):
    if state["s"][LIMA]["P"] >= 2 and not state["captured"]:
        ev(state, "P8", "top", GOV, "yes")


def _p8t_act(state, fr, cid, facts):
    pop(state, fr)
    if cid == "yes":
        remove(state, LIMA, "P", 2, facts, WHY["P8"])
        hunt_shift(state, 2, facts, WHY["P8"])


steps("P8", "top", lambda s, f: (msg("remove 2 Police from Lima to move the Hunt marker 2 boxes right?"), YES_NO),
      _p8t_act)


def _lima_evade(card):
    def run(state, seat, facts):
        if guerrillas(state["s"][LIMA]) and not state["captured"] and state["hunt"] > 0:
            ev(state, card, "bottom", SP, "lima")

    def ask(state, fr):
        lima = state["s"][LIMA]
        ch = []
        for k in ("Gu", "Ga"):
            if lima[k]:
                ch.append(C(f"rm:lima:{k}", msg("Remove {piece} from Lima", piece=ONE_PIECE[k]), ChoiceKind.PIECE, "",
                            HELP_REMOVE, {"space": LIMA, "piece": k}, payload={"piece": k}))
        return msg("remove a Guerrilla from Lima to move the Hunt marker 1 box left?"), ch + [YES_NO[1]]

    def act(state, fr, cid, facts):
        pop(state, fr)
        if cid != "no":
            remove(state, LIMA, cid.split(":")[2], 1, facts, WHY[card])
            hunt_shift(state, -1, facts, WHY[card])

    RUN[(card, "bottom")] = run
    steps(card, "bottom", ask, act)


_lima_evade("P8")
_lima_evade("P10")


@effect("P10", "top")
def _p10t(state, seat, facts):
    if cap(state, "P6") != "bottom" or state["res"][GOV] >= 2:
        ev(state, "P10", "top", GOV, "yes")


def _p10t_act(state, fr, cid, facts):
    pop(state, fr)
    if cid == "yes":
        sfr = {"k": "sa", "seat": GOV, "sa": "investigate", "sel": [], "ph": "main", "where": None, "op": "event",
               "free": False, "bonus": 2}
        push(state, sfr)
        SAS["investigate"].start(state, sfr, facts)


steps("P10", "top", lambda s, f: (msg("carry out Investigate with +2 on its rolls?"), YES_NO), _p10t_act)


# ---------------------------------------------------------------- P11

@effect("P11", "top")
def _p11t(state, seat, facts):
    if any(rondas(sp) for sp in state["s"].values()):
        ev(state, "P11", "top", seat, "space")


def _p11_ask(state, fr):
    return msg("choose a space with Rondas"), spaces_choices([s for s in IDS if rondas(state["s"][s])])


def _p11t_act(state, fr, cid, facts):
    pop(state, fr)
    sid = cid[6:]
    activate(state["s"][sid], "Ru")
    set_support(state, sid, 0, facts, WHY["P11"])


steps("P11", "top", _p11_ask, _p11t_act)


@effect("P11", "bottom")
def _p11b(state, seat, facts):
    pw(state, -1, msg("journalists killed (P11)"), facts)
    if any(rondas(sp) for sp in state["s"].values()):
        ev(state, "P11", "bottom", seat, "space")


def _p11b_act(state, fr, cid, facts):
    pop(state, fr)
    sid = cid[6:]
    sp = state["s"][sid]
    remove(state, sid, "Ru", sp["Ru"], facts, WHY["P11"])
    remove(state, sid, "Ra", sp["Ra"], facts, WHY["P11"])


steps("P11", "bottom", _p11_ask, _p11b_act)


# ---------------------------------------------------------------- P14, P15, P16

@effect("P14", "top")
def _p14t(state, seat, facts):
    if any(bases(sp) for sp in state["s"].values()):
        ev(state, "P14", "top", seat, "space")


def _p14t_act(state, fr, cid, facts):
    pop(state, fr)
    if remove_base(state, cid[6:], facts, WHY["P14"]) == "D":
        hunt_shift(state, 1, facts, msg("P14: it was the Directives Base"))


steps("P14", "top", lambda s, f: (msg("remove a Base from"), spaces_choices([x for x in IDS if bases(s["s"][x])],
                                                                       lambda n: msg("A Base in {space}", space=n))),
      _p14t_act)


@effect("P14", "bottom")
def _p14b(state, seat, facts):
    free_ops(state, SP, 2, sorted(DEPARTMENTS), text=msg("Comrade Norah: free Limited Operation in a Department"))


def rmg_ask(state, fr):
    where = fr.get("where")
    ch = []
    if fr["n"] > 0:
        for s in IDS:
            if where is not None and s not in where:
                continue
            sp = state["s"][s]
            for k in ("Gu", "Ga"):
                if sp[k]:
                    ch.append(C(f"rm:{s}:{k}", msg("Remove {piece} from {space}", piece=ONE_PIECE[k], space=SPACE[s]),
                                ChoiceKind.PIECE, "", HELP_REMOVE, {"space": s, "piece": k}, payload={"space": s}))
    ch.append(C("done", msg("Remove no more"), ChoiceKind.DONE, "", HELP_DONE))
    return msg_n("remove up to {count} more Guerrilla", "remove up to {count} more Guerrillas", fr["n"]), ch


def rmg_act(state, fr, cid, facts):
    if cid == "done":
        pop(state, fr)
        return
    _, s, k = cid.split(":")
    remove(state, s, k, 1, facts, WHY[fr["card"]])
    fr["n"] -= 1
    if fr["n"] <= 0:
        pop(state, fr)


@effect("P15", "top")
def _p15t(state, seat, facts):
    if state["s"][LIMA]["ter"]:
        state["s"][LIMA]["ter"] -= 1
        facts.append(fact("marker", msg("A Terror marker is removed from Lima (P15)."), space=LIMA, marker="terror",
                          delta=-1, deltas={"terror_markers": -1}))
    if guerrillas(state["s"][LIMA]):
        ev(state, "P15", "top", seat, "rmg", n=2, where=[LIMA])


steps("P15", "top", rmg_ask, rmg_act)


@effect("P15", "bottom")
def _p15b(state, seat, facts):
    place(state, LIMA, "Gu", 1, facts, WHY["P15"])
    free_ops(state, SP, 2, [LIMA], ["terror"], text=msg("Free Terror in Lima"))


@effect("P16", "top")
def _p16(state, seat, facts):
    ev(state, "P16", "top", seat, "rm", todo=["amazonas", "huanuco"])


def _p16_ask(state, fr):
    sid = fr["todo"][0]
    sp = state["s"][sid]
    ch = [C(f"rm:{sid}:{k}", msg("Remove {piece} from {space}", piece=ONE_PIECE[k], space=SPACE[sid]),
            ChoiceKind.PIECE, "", HELP_REMOVE, {"space": sid, "piece": k}) for k in ("Gu", "Ga", "T", "P") if sp[k]]
    return msg("remove a Guerrilla or cube in {space}", space=SPACE[sid]), ch or [
        C("done", msg("Nothing to remove"), ChoiceKind.DONE, "", HELP_DONE)]


def _p16_act(state, fr, cid, facts):
    sid = fr["todo"].pop(0)
    if cid != "done":
        remove(state, sid, cid.split(":")[2], 1, facts, WHY["P16"])
    shift(state, sid, 0, facts, WHY["P16"])
    if not fr["todo"]:
        pop(state, fr)


steps("P16", "top", _p16_ask, _p16_act)


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
    if cid == "yes" and hunt_roll(state, facts, WHY["P32"], bonus=_inv_bonus(state), after_capture_target=True):
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


for _c in CAPABILITIES:
    RUN.setdefault((_c, "top"), _noop)
    RUN.setdefault((_c, "bottom"), _noop)


def _check() -> None:
    for cid, c in CARDS.items():
        if c["kind"] == "propaganda":
            continue
        for side in (["top", "bottom"] if c.get("dual") else ["top"]):
            assert (cid, side) in RUN, (cid, side)


_check()

FRAME_KINDS = [
    FrameKind("ev", ask=_ev_ask, act=_ev_act),
    FrameKind("evauto", auto=lambda s, f, x: _p20_auto(s, f, x), rule="5.0 (P20)",
              title=msg("The Event's second free Operation")),
]

__all__ = ["FRAME_KINDS", "execute", "event_sides"]
