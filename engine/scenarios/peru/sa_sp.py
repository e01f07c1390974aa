"""4.3 Shining Path Special Activities: Govern, Evade, Ambush.

Choice ids:

- Govern (4.3.1): ``space:<id>``; in Highland ``govern:res`` / ``govern:rondas``; ``done``.
- Evade (4.3.2): ``space:<id>`` (origin), ``g:u`` / ``g:a``, ``to:<id>``; then
  ``hunt:u`` / ``hunt:a`` (remove that Guerrilla from Lima to roll) or ``done``.
- Ambush (4.3.3): chosen inside an Attack space as ``sa:ambush`` (see :mod:`.ops_sp`).
"""

from __future__ import annotations

from engine.core.contract import ChoiceKind, fact
from engine.core.flow import pop
from engine.core.messages import msg

from .data import DEPARTMENTS, HIGHLAND, LIMA, POP
from .ops import (
    SAS,
    SaDef,
    allowed_here,
    move_to_choices,
    register_sa,
    space_step_choices,
    which_guerrilla_choices,
)
from .state import SP, activate, cap, control_of, guerrillas, hunt_roll, remove, res, shift
from .texts import HELP_DONE, HELP_GOVERN_RES, HELP_GOVERN_RONDAS, HELP_HUNT, SA, SA_HELP, SPACE, C

# ---------------------------------------------------------------- 4.3.1 Govern

def govern_spaces(state: dict, fr: dict) -> list[str]:
    if len(fr["sel"]) >= 2:
        return []
    return [s for s, sp in state["s"].items() if s in DEPARTMENTS and s not in fr["sel"] and sp["Gu"]
            and control_of(sp, s) == "S" and allowed_here(fr, s)]


def _gov_can(state, fr):
    return bool(govern_spaces(state, fr))


def _gov_ask(state, fr):
    if fr["ph"] == "main":
        ch = space_step_choices(govern_spaces(state, fr), SAS["govern"], fr)
        return msg("Govern: choose a Department with Shining Path Control and an Underground Guerrilla"), ch
    sid = fr["cur"]
    ch = [C("govern:res", msg("Gain {count} Resources and shift toward Active Support", count=2 * POP[sid]),
            ChoiceKind.OPTION, "4.3.1", HELP_GOVERN_RES, {"space": sid}, payload={})]
    if state["s"][sid]["Ru"]:
        ch.append(C("govern:rondas", msg("Remove an Underground Rondas"), ChoiceKind.OPTION, "4.3.1",
                    HELP_GOVERN_RONDAS, {"space": sid, "piece": "Ru"}, payload={}))
    return msg("Govern in {space}", space=SPACE[sid]), ch


def _gov_act(state, fr, cid, facts):
    if fr["ph"] == "main":
        if cid == "done":
            pop(state, fr)
            return
        sid = cid[6:]
        fr["sel"].append(sid)
        activate(state["s"][sid], "Gu", 1)
        facts.append(fact("activate", msg("A Guerrilla in {space} is Activated (Govern).", space=SPACE[sid]),
                          space=sid, count=1))
        if sid in HIGHLAND:
            fr["cur"] = sid
            fr["ph"] = "gov"
            return
        res(state, SP, 1, msg("Govern in {space}", space=SPACE[sid]), facts)
    else:
        sid = fr["cur"]
        fr["ph"] = "main"
        if cid == "govern:res":
            res(state, SP, 2 * POP[sid], msg("Govern in {space}", space=SPACE[sid]), facts)
            shift(state, sid, 2, facts, msg("Govern"))
        else:
            remove(state, sid, "Ru", 1, facts, msg("Govern"))
    if not govern_spaces(state, fr):
        pop(state, fr)


register_sa(SaDef("govern", SP, SA["govern"], "4.3.1", ("rally", "march", "terror"), _gov_can, _gov_ask, _gov_act))


# ---------------------------------------------------------------- 4.3.2 Evade

def evade_max(state: dict) -> int:
    return 2 if cap(state, "P17") == "bottom" else 1


def evade_spaces(state: dict, fr: dict) -> list[str]:
    if len(fr["sel"]) >= evade_max(state):
        return []
    return [s for s, sp in state["s"].items() if guerrillas(sp) and s not in fr["sel"] and allowed_here(fr, s)]


def evade_hunt_ok(state: dict) -> bool:
    return not state["captured"] and state["hunt"] > 0 and guerrillas(state["s"][LIMA]) > 0


def _ev_can(state, fr):
    return bool(evade_spaces(state, fr))


def _ev_ask(state, fr):
    ph = fr["ph"]
    if ph == "main":
        ch = [C(f"space:{s}", msg("Evade from {space}", space=SPACE[s]), ChoiceKind.SPACE, "4.3.2", SA_HELP["evade"],
                {"space": s}) for s in evade_spaces(state, fr)]
        if fr["sel"]:
            lima = state["s"][LIMA]
            if evade_hunt_ok(state):
                if lima["Gu"]:
                    ch.append(C("hunt:u", msg("Remove an Underground Guerrilla in Lima to roll on the Hunt Track"),
                                ChoiceKind.PIECE, "4.3.2", HELP_HUNT, {"space": LIMA, "piece": "Gu"}, payload={}))
                if lima["Ga"]:
                    ch.append(C("hunt:a", msg("Remove an Active Guerrilla in Lima to roll on the Hunt Track"),
                                ChoiceKind.PIECE, "4.3.2", HELP_HUNT, {"space": LIMA, "piece": "Ga"}, payload={}))
            ch.append(C("done", msg("Finish Evade"), ChoiceKind.DONE, "4.3.2", HELP_DONE))
        return msg("Evade: choose a space to move a Guerrilla from"), ch
    sid = fr["cur"]
    if ph == "eg":
        return msg("Evade from {space}: which Guerrilla?", space=SPACE[sid]), which_guerrilla_choices(sid, "4.3.2")
    return msg("Evade: move the Guerrilla from {space} to", space=SPACE[sid]), move_to_choices(state, sid, "4.3.2")


def _ev_act(state, fr, cid, facts):
    ph = fr["ph"]
    if ph == "main":
        if cid == "done":
            pop(state, fr)
            return
        if cid.startswith("hunt:"):
            key = "Gu" if cid == "hunt:u" else "Ga"
            remove(state, LIMA, key, 1, facts, msg("Evade"))
            hunt_roll(state, facts, msg("Evade"), direction=-1)
            pop(state, fr)
            return
        sid = cid[6:]
        fr["sel"].append(sid)
        fr["cur"] = sid
        sp = state["s"][sid]
        if sp["Gu"] and sp["Ga"]:
            fr["ph"] = "eg"
        else:
            fr["g"] = "Gu" if sp["Gu"] else "Ga"
            fr["ph"] = "eto"
        return
    if ph == "eg":
        fr["g"] = "Gu" if cid == "g:u" else "Ga"
        fr["ph"] = "eto"
        return
    to = cid[3:]
    sid = fr["cur"]
    state["s"][sid][fr["g"]] -= 1
    state["s"][to]["Gu"] += 1
    facts.append(fact("move", msg("A Guerrilla evades from {source} to {space} and goes Underground.",
                                  source=SPACE[sid], space=SPACE[to]), source=sid, space=to, piece="Gu"))
    fr["ph"] = "main"


register_sa(SaDef("evade", SP, SA["evade"], "4.3.2", ("rally", "march"), _ev_can, _ev_ask, _ev_act))


# ---------------------------------------------------------------- 4.3.3 Ambush (chosen inside Attack)

register_sa(SaDef("ambush", SP, SA["ambush"], "4.3.3", ("attack",), lambda s, f: False, lambda s, f: ("", []),
                  lambda s, f, c, x: None, inline=True))
