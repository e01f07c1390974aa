"""5.0 Events, cards P1-P16: each card side's script (texts paraphrased in data/cards.json)."""

from __future__ import annotations

from engine.core.contract import ChoiceKind, fact
from engine.core.flow import pop, push
from engine.core.messages import msg, msg_n

from .data import (
    ADJ,
    DEPARTMENTS,
    IDS,
    LIMA,
    LOCS,
)
from .event_script import (
    RUN,
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
from .ops import SAS
from .ops_sp import terror_in
from .state import (
    GOV,
    SP,
    activate,
    bases,
    cap,
    guerrillas,
    hunt_roll,
    hunt_shift,
    place,
    pw,
    remove,
    remove_base,
    rondas,
    set_support,
    shift,
)
from .texts import (
    HELP_DONE,
    HELP_REMOVE,
    ONE_PIECE,
    SPACE,
    C,
)

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

@effect("P7", "top")
def _p7t(state, seat, facts):
    if any(sp["P"] and sp["Ga"] for sp in state["s"].values()) and not state["captured"]:
        ev(state, "P7", "top", GOV, "yes")


def _p7t_act(state, fr, cid, facts):
    pop(state, fr)
    if cid == "yes":
        hunt_roll(state, facts, WHY["P7"], bonus=hunt_bonus(state))


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
