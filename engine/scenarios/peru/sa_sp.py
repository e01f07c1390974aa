"""4.3 Shining Path Special Activities: Govern, Evade, Ambush.

Choice ids:

- Govern (4.3.1): ``space:<id>``; in Highland ``govern:res`` / ``govern:rondas``; ``done``.
- Evade (4.3.2): ``space:<id>`` (origin), ``g:u`` / ``g:a``, ``to:<id>``; then
  ``hunt:u`` / ``hunt:a`` (remove that Guerrilla from Lima to roll) or ``done``.
- Ambush (4.3.3): chosen inside an Attack space as ``sa:ambush`` (see :mod:`.ops_sp`).
"""

from __future__ import annotations

from engine.coin.flow import pop
from engine.core.contract import Choice, fact

from .data import ADJ, DEPARTMENTS, HIGHLAND, LIMA, NAME, POP
from .ops import SaDef, allowed_here, register_sa, space_step_choices
from .state import SP, activate, cap, control_of, guerrillas, hunt_roll, remove, res, shift

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
        ch = space_step_choices(govern_spaces(state, fr), "Govern", fr)
        return "Govern: choose a Department with Shining Path Control and an Underground Guerrilla", ch
    sid = fr["cur"]
    ch = [Choice("govern:res", f"Gain {2 * POP[sid]} Resources and shift toward Active Support", {})]
    if state["s"][sid]["Ru"]:
        ch.append(Choice("govern:rondas", "Remove an Underground Rondas", {}))
    return f"Govern in {NAME[sid]}", ch


def _gov_act(state, fr, cid, facts):
    if fr["ph"] == "main":
        if cid == "done":
            pop(state, fr)
            return
        sid = cid[6:]
        fr["sel"].append(sid)
        activate(state["s"][sid], "Gu", 1)
        facts.append(fact("activate", f"A Guerrilla in {NAME[sid]} is Activated (Govern).", space=sid, count=1))
        if sid in HIGHLAND:
            fr["cur"] = sid
            fr["ph"] = "gov"
            return
        res(state, SP, 1, f"Govern in {NAME[sid]}", facts)
    else:
        sid = fr["cur"]
        fr["ph"] = "main"
        if cid == "govern:res":
            res(state, SP, 2 * POP[sid], f"Govern in {NAME[sid]}", facts)
            shift(state, sid, 2, facts, "Govern")
        else:
            remove(state, sid, "Ru", 1, facts, "Govern")
    if not govern_spaces(state, fr):
        pop(state, fr)


register_sa(SaDef("govern", SP, "Govern", "4.3.1", ("rally", "march", "terror"), _gov_can, _gov_ask, _gov_act))


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
        ch = [Choice(f"space:{s}", f"Evade from {NAME[s]}", {"space": s}) for s in evade_spaces(state, fr)]
        if fr["sel"]:
            lima = state["s"][LIMA]
            if evade_hunt_ok(state):
                if lima["Gu"]:
                    ch.append(Choice("hunt:u", "Remove an Underground Guerrilla in Lima to roll on the Hunt Track", {}))
                if lima["Ga"]:
                    ch.append(Choice("hunt:a", "Remove an Active Guerrilla in Lima to roll on the Hunt Track", {}))
            ch.append(Choice("done", "Finish Evade", {}))
        return "Evade: choose a space to move a Guerrilla from", ch
    sid = fr["cur"]
    if ph == "eg":
        return f"Evade from {NAME[sid]}: which Guerrilla?", [
            Choice("g:u", "An Underground Guerrilla", {}), Choice("g:a", "An Active Guerrilla", {})]
    return f"Evade: move the Guerrilla from {NAME[sid]} to", [
        Choice(f"to:{a}", f"To {NAME[a]}", {"space": a}) for a in state["s"] if a in ADJ[sid]]


def _ev_act(state, fr, cid, facts):
    ph = fr["ph"]
    if ph == "main":
        if cid == "done":
            pop(state, fr)
            return
        if cid.startswith("hunt:"):
            key = "Gu" if cid == "hunt:u" else "Ga"
            remove(state, LIMA, key, 1, facts, "Evade")
            hunt_roll(state, facts, "Evade", direction=-1)
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
    facts.append(fact("move", f"A Guerrilla evades from {NAME[sid]} to {NAME[to]} and goes Underground.",
                      source=sid, space=to, piece="Gu"))
    fr["ph"] = "main"


register_sa(SaDef("evade", SP, "Evade", "4.3.2", ("rally", "march"), _ev_can, _ev_ask, _ev_act))


# ---------------------------------------------------------------- 4.3.3 Ambush (chosen inside Attack)

register_sa(SaDef("ambush", SP, "Ambush", "4.3.3", ("attack",), lambda s, f: False, lambda s, f: ("", []),
                  lambda s, f, c, x: None, inline=True))
