"""8.0 The Non-player bot for a seat: answers np:act and explains the branch that fires."""

from __future__ import annotations

import pickle

from engine.bots.base import Bot, BotDecision

from .board import BOARD as BD
from .board import FNAME
from .frames import logging_to
from .np_policy import derive_counters, derive_plan, np_policy
from .np_turn import np_decide
from .op_common import opf
from .sequence import apply_choice

OP_WORD = {"rally": "Rally", "march": "March", "attack": "Attack", "terror": "Terror", "train": "Train",
           "patrol": "Patrol", "sweep": "Sweep", "assault": "Assault"}


def reason_text(reasons) -> str:
    """Decision reasons as a student reads them: 'rule: branch' joined by '; '."""
    return "; ".join(f"{r} {t}" for t, r in reasons)


class NonPlayerBot(Bot):
    """Seats the section-8 flowcharts.

    On a Non-player seat it answers ``np:act`` (the engine resolves the flowchart); its reason
    is the branch that fires, worked out on a copy of the state (the engine then draws the same
    dice). On a player seat (1.5) it works out, on a copy of the state, the choice the flowchart
    would make at this prompt and answers that (a legal player choice). Nothing is remembered
    between prompts: plans, counters and March destinations are derived from the state, so a
    bot made afresh for every decision (the platform does so) plays the same game.
    """

    kind = "nonplayer"

    def choose(self, state, prompt):
        chs = prompt.choices_for(self.seat)
        ids = [c.id for c in chs]
        if "np:act" in ids:
            return BotDecision("np:act", np_act_reason(state))
        cp = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        fr = cp["stack"][-1]
        if fr["k"] == "elig":
            kind, arg, plan, reasons = np_decide(cp, fr)
            why_ = reason_text(reasons)
            if kind == "event":
                cid = "event" if "event" in ids else f"event:{arg}"
            elif kind == "op":
                cid = f"op:{arg}"
            else:
                cid = "pass"
            if cid in ids:
                return BotDecision(cid, why_)
            return BotDecision("pass" if "pass" in ids else ids[0], why_ + " (not offered: Pass)")
        head = frame_head(cp, fr, str(prompt.text_for(self.seat)))
        if fr["k"] == "op":
            plan, _ = derive_plan(cp, fr)
            fr["plan"] = fr.get("plan") or plan
            derive_counters(cp, fr)
        fr["auto"] = "np"
        drawn: list = []
        with logging_to(drawn):      # 8.2 / 8.3 picks report their dice and walk
            cid = np_policy(cp, fr, chs)
        label = next((str(c.label) for c in chs if c.id == cid), cid)
        dice = "; ".join(str(f["text"]) for f in drawn if f.get("branch") == "random space")
        return BotDecision(cid, f"{head}: {label}" + (f" ({dice})" if dice else ""))


def frame_head(st, fr, ptext="") -> str:
    """'8.7.2 March' - the flowchart box a prompt of a running Operation / Event belongs to."""
    op = fr if fr["k"] == "op" else (opf(st, fr) if fr.get("opi") is not None else None)
    if op is None:
        for g in reversed(st["stack"]):
            if g.get("k") == "op":
                op = g
                break
    if op is not None and op.get("k") == "op":
        _, rule = derive_plan(st, op)
        word = OP_WORD.get(op["op"], op["op"].capitalize())
        if fr["k"] != "op":
            return f"{rule} {word}, by the 8.1.2 priorities ({FRAME_WORD.get(fr['k']) or ptext or fr['k']})"
        return f"{rule} {word}" + (f" then {fr['sa'].capitalize()}" if fr.get("sa") else "")
    f = fr.get("f", 0)
    return (f"8.4 Non-player {FNAME[f]} Event instructions, by the 8.1.2 priorities "
            f"({FRAME_WORD.get(fr['k']) or ptext or fr['k']})")


FRAME_WORD = {"marchgrp": "March group", "rallysp": "Rally space", "sweepsp": "Sweep space", "assaultsp": "Assault removal",
              "attacksp": "Attack removal", "trainsp": "Train placement", "civic": "Civic Action", "extort": "Extort",
              "kidnap": "Kidnap", "assassinate": "Assassinate", "airstrike": "Air Strike (8.8.7)", "airlift": "Air Lift (8.8.7)",
              "eradicate": "Eradicate (8.8.7)", "cultivate": "Cultivate", "process": "Process", "bribe": "Bribe",
              "agitate": "Agitation (8.7.5)", "redeploy": "Redeploy (8.8.9)", "patrolmv": "Patrol move"}


WHERE = __import__("re").compile(r"\(((?:Rally|March|Attack|Terror|Train|Patrol|Sweep|Assault) (?:in|into) [^)]+)\)")


def short_walk(x) -> str:
    """An 8.2 / 8.3 pick in brief: the dice and the space reached."""
    dice = x.get("dice")
    got = BD.name[BD.index[x["space"]]] if x.get("space") in BD.index else x.get("choice", "")
    table = "Random LoC" if x["rule"] == "8.3" else "Random City or Department table"
    roll = f" red {dice[0]}, yellow {dice[1]}, green {dice[2]}" if dice and len(dice) == 3 else ""
    return f"{table}{roll} -> {got}"


def PROMPTS_TEXT(st, fr) -> str:
    from .frames import PROMPTS
    try:
        return str(PROMPTS[fr["k"]](st, fr)[0])
    except Exception:  # a prompt that cannot be shown here: the frame kind is named instead
        return ""


def np_act_reason(state) -> str:
    """The reason of a Non-player seat's ``np:act``: the section-8 branches that fire (8.1 Event
    or Operations, the 8.5-8.8 flowchart box and, through the rule-tagged ``np`` facts, the 8.2 /
    8.3 dice), read off a trial of the same decision on a copy of the state - the engine's RNG is
    in the state, so the copy draws the dice the game will draw."""
    fr = state["stack"][-1]
    f = fr.get("f", 0)
    cp = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    facts = apply_choice(cp, "", "np:act")
    notes = [x for x in facts if x.get("type") == "np"]
    lines = [f"{x['rule']} {x.get('branch') or str(x['text'])}" for x in notes if x.get("branch") != "random space"]
    if fr["k"] != "elig":
        lines.insert(0, frame_head(state, fr, PROMPTS_TEXT(state, fr)))
    where = list(dict.fromkeys(m.group(1) for x in facts if x.get("type") == "track"
                               for m in [WHERE.search(str(x.get("text", "")))] if m))
    sa = [str(x["text"]).split(": ", 1)[-1] for x in facts if x.get("type") == "sa"]
    if where or sa:
        lines.append("; ".join(where[:6] + (["..."] if len(where) > 6 else [])) +
                     (f" (then {', '.join(sa)})" if sa else ""))
    dice = [f"{x['rule']} {short_walk(x)}" for x in notes if x.get("branch") == "random space"]
    lines = list(dict.fromkeys(lines)) + dice[:4] + ([f"({len(dice) - 4} more 8.2 / 8.3 picks in the log)"]
                                                     if len(dice) > 4 else [])
    text = "; ".join(lines)
    return f"Non-player {FNAME[f]}: " + (text or "8.1.2 Procedure Guidelines")
