"""4.2 Government Special Activities: Investigate, Reprisal, Organize.

Choice ids:

- Investigate (4.2.1): starts with its roll; then ``lima:activate`` / ``lima:roll`` / ``done``.
- Reprisal (4.2.2): ``space:<id>``; then ``g:u`` / ``g:a`` (which Guerrilla to relocate) and
  ``to:<id>``; ``done`` ends.
- Organize (4.2.3): ``space:<id>`` then ``org:place`` / ``org:activate``; ``done`` ends.
"""

from __future__ import annotations

from engine.core.contract import ChoiceKind, fact
from engine.core.flow import pop
from engine.core.messages import msg

from .data import HIGHLAND, LIMA
from .ops import (
    SAS,
    SaDef,
    allowed_here,
    move_to_choices,
    pay,
    place_or_take,
    register_sa,
    space_step_choices,
    take_sources,
    which_guerrilla_choices,
)
from .state import GOV, activate, cap, guerrillas, hunt_roll, place, remove, rondas, shift
from .texts import (
    HELP_DONE,
    HELP_LIMA_ACTIVATE,
    HELP_LIMA_ROLL,
    HELP_ORG_ACTIVATE,
    HELP_ORG_PLACE,
    ONE_PIECE,
    SA,
    SPACE,
    C,
)

# ---------------------------------------------------------------- 4.2.1 Investigate

def investigate_bonus(state: dict, extra: int = 0) -> int:
    return extra + (1 if cap(state, "P6") == "top" else 0)


def _inv_can(state, fr):
    return cap(state, "P6") != "bottom" or state["res"][GOV] >= 2


def _inv_start(state, fr, facts):
    if cap(state, "P6") == "bottom":
        pay(state, GOV, 2, facts, msg("Investigate (P6: underfunded unit)"))
    hunt_roll(state, facts, msg("Investigate"), bonus=investigate_bonus(state, fr.get("bonus", 0)))
    fr["ph"] = "lima"


def _inv_ask(state, fr):
    lima = state["s"][LIMA]
    ch = []
    if lima["P"]:
        if lima["Gu"]:
            ch.append(C("lima:activate", msg("Remove a Police in Lima to Activate a Guerrilla there"),
                        ChoiceKind.OPTION, "4.2.1", HELP_LIMA_ACTIVATE, {"space": LIMA, "piece": "P"}, payload={}))
        if state["president"] != "P37" and not state["captured"]:
            ch.append(C("lima:roll", msg("Remove a Police in Lima to roll again"), ChoiceKind.OPTION, "4.2.1",
                        HELP_LIMA_ROLL, {"space": LIMA, "piece": "P"}, payload={}))
    ch.append(C("done", msg("Finish Investigate"), ChoiceKind.DONE, "4.2.1", HELP_DONE))
    return msg("Investigate: use a Police in Lima?"), ch


def _inv_act(state, fr, cid, facts):
    pop(state, fr)
    if cid == "done":
        return
    remove(state, LIMA, "P", 1, facts, msg("Investigate"))
    if cid == "lima:activate":
        activate(state["s"][LIMA], "Gu", 1)
        facts.append(fact("activate", msg("A Guerrilla in Lima is Activated (Investigate)."), space=LIMA, count=1))
    else:
        hunt_roll(state, facts, msg("Investigate, second roll"), bonus=investigate_bonus(state, fr.get("bonus", 0)))


register_sa(SaDef("investigate", GOV, SA["investigate"], "4.2.1", ("train", "patrol", "sweep"), _inv_can, _inv_ask,
                  _inv_act, start=_inv_start,
                  cost=lambda state, fr: {GOV: 2} if cap(state, "P6") == "bottom" else None))


# ---------------------------------------------------------------- 4.2.2 Reprisal

def reprisal_max(state: dict) -> int:
    return 1 if state["president"] == "P38" else 2


def reprisal_spaces(state: dict, fr: dict) -> list[str]:
    if len(fr["sel"]) >= reprisal_max(state):
        return []
    return [
        s for s, sp in state["s"].items() if s in HIGHLAND and sp["ez"] and sp["T"] and s not in fr["sel"]
        and allowed_here(fr, s)]


def _rep_can(state, fr):
    return bool(reprisal_spaces(state, fr))


def _rep_ask(state, fr):
    ph = fr["ph"]
    if ph == "main":
        ch = space_step_choices(reprisal_spaces(state, fr), SAS["reprisal"], fr)
        return msg("Reprisal: choose an Emergency Zone with Troops"), ch
    sid = fr["cur"]
    if ph == "rg":
        return msg("Reprisal in {space}: which Guerrilla is relocated?", space=SPACE[sid]), which_guerrilla_choices(sid, "4.2.2")
    return msg("Reprisal: relocate the Guerrilla from {space} to", space=SPACE[sid]), move_to_choices(state, sid, "4.2.2")


def _rep_rondas(state, sid, facts):
    sp = state["s"][sid]
    if cap(state, "P12") == "top":
        place(state, sid, "Ru", 1, facts, msg("Rondas formed against reprisals (P12)"))
    else:
        half = rondas(sp) // 2
        a = min(half, sp["Ra"])
        remove(state, sid, "Ra", a, facts, msg("Reprisal"))
        remove(state, sid, "Ru", half - a, facts, msg("Reprisal"))
    if sp["Ra"]:
        sp["Ru"] += sp["Ra"]
        sp["Ra"] = 0


def _rep_act(state, fr, cid, facts):
    ph = fr["ph"]
    if ph == "main":
        if cid == "done":
            pop(state, fr)
            return
        sid = cid[6:]
        fr["sel"].append(sid)
        fr["cur"] = sid
        sp = state["s"][sid]
        if not sp["ter"]:
            sp["ter"] = 1
            facts.append(fact("marker", msg("Terror placed in {space} (Reprisal).", space=SPACE[sid]), space=sid,
                              marker="terror", delta=1, deltas={"terror_markers": 1}))
        shift(state, sid, 0, facts, msg("Reprisal"))
        if sp["Gu"] and sp["Ga"]:
            fr["ph"] = "rg"
        elif guerrillas(sp):
            fr["g"] = "Gu" if sp["Gu"] else "Ga"
            fr["ph"] = "rto"
        else:
            _rep_rondas(state, sid, facts)
        _maybe_end(state, fr)
        return
    if ph == "rg":
        fr["g"] = "Gu" if cid == "g:u" else "Ga"
        fr["ph"] = "rto"
        return
    to = cid[3:]
    sid = fr["cur"]
    state["s"][sid][fr["g"]] -= 1
    state["s"][to][fr["g"]] += 1
    facts.append(fact("move", msg("Reprisal relocates {piece} from {source} to {space}.", piece=ONE_PIECE[fr["g"]],
                                  source=SPACE[sid], space=SPACE[to]), source=sid, space=to, piece=fr["g"]))
    _rep_rondas(state, sid, facts)
    fr["ph"] = "main"
    _maybe_end(state, fr)


def _maybe_end(state, fr):
    if fr["ph"] == "main" and not reprisal_spaces(state, fr):
        pop(state, fr)


register_sa(SaDef("reprisal", GOV, SA["reprisal"], "4.2.2", ("patrol", "sweep", "assault"), _rep_can, _rep_ask,
                  _rep_act))


# ---------------------------------------------------------------- 4.2.3 Organize

def organize_max(state: dict) -> int:
    return 2 if state["president"] == "P39" else 1


def organize_options(state: dict, sid: str) -> list[str]:
    sp = state["s"][sid]
    out = []
    if sp["ctl"] != "G":
        return out
    fr = {"pool": "R", "to": sid}
    if state["avail"]["R"] or take_sources(state, fr):
        out.append("place")
    if sp["T"] and (sp["Ru"] or sp["ter"]):
        out.append("activate")
    return out


def organize_spaces(state: dict, fr: dict) -> list[str]:
    if len(fr["sel"]) >= organize_max(state):
        return []
    no_opp = cap(state, "P13") == "bottom"
    out = []
    for s, sp in state["s"].items():
        if s not in HIGHLAND or not sp["ez"] or s in fr["sel"] or not allowed_here(fr, s):
            continue
        if sp["sup"] == -2 or (no_opp and sp["sup"] < 0):
            continue
        if organize_options(state, s):
            out.append(s)
    return out


def _org_can(state, fr):
    return bool(organize_spaces(state, fr))


def _org_ask(state, fr):
    if fr["ph"] == "main":
        ch = space_step_choices(organize_spaces(state, fr), SAS["organize"], fr)
        return msg("Organize: choose an Emergency Zone"), ch
    sid = fr["cur"]
    return msg("Organize in {space}", space=SPACE[sid]), [ORG_CHOICE[o] for o in organize_options(state, sid)]


ORG_CHOICE = {
    "place": C("org:place", msg("Place 1 Rondas"), ChoiceKind.OPTION, "4.2.3", HELP_ORG_PLACE, {"piece": "Ru"}, payload={}),
    "activate": C("org:activate", msg("Activate all Rondas and remove Terror"), ChoiceKind.OPTION, "4.2.3",
                  HELP_ORG_ACTIVATE, payload={}),
}


def _org_act(state, fr, cid, facts):
    if fr["ph"] == "main":
        if cid == "done":
            pop(state, fr)
            return
        sid = cid[6:]
        fr["sel"].append(sid)
        fr["cur"] = sid
        fr["ph"] = "org"
        return
    sid = fr["cur"]
    sp = state["s"][sid]
    fr["ph"] = "main"
    if cid == "org:place":
        active = not (cap(state, "P12") == "bottom" and sp["ter"])
        place_or_take(state, GOV, sid, "Ra" if active else "Ru", 1, facts, msg("Organize"))
    else:
        n = activate(sp, "Ru")
        t = sp["ter"]
        sp["ter"] = 0
        facts.append(fact("organize", msg("Organize in {space}: {rondas} Rondas Activated, {terror} Terror removed.",
                                          space=SPACE[sid], rondas=n, terror=t),
                          space=sid, deltas={"terror_markers": -t} if t else {}))
    if not organize_spaces(state, fr):
        pop(state, fr)


register_sa(SaDef("organize", GOV, SA["organize"], "4.2.3", ("train", "patrol", "sweep", "assault"), _org_can,
                  _org_ask, _org_act))
