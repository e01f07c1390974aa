"""8.0 The Non-player bot for a seat: answers np:act and explains the branch that fires."""

from __future__ import annotations

import pickle

from engine.bots.base import Bot, BotDecision
from engine.core.messages import is_msg, msg, msg_n

from .board import BOARD as BD
from .frames import logging_to
from .np_policy import derive_counters, derive_plan, np_policy
from .np_turn import np_decide
from .op_common import opf
from .sequence import apply_choice
from .texts import FN, OP_NAME, SN


def joined(parts: list):
    """Messages (or plain strings) joined by '; ' as one message, or None for none."""
    out = None
    for part in reversed(parts):
        out = part if out is None else msg("{first}; {rest}", first=part, rest=out)
    return out


def unique(parts: list) -> list:
    """``parts`` without repeats (two messages that read the same count once)."""
    seen, out = set(), []
    for x in parts:
        key = str(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def decision(cid: str, reason) -> BotDecision:
    """A decision whose reason is a message: its English text and the message itself."""
    return BotDecision(cid, str(reason), reason)


def reason_text(reasons):
    """Decision reasons as a student reads them: 'rule branch' joined by '; ' (a message)."""
    return joined([msg("{rule} {branch}", rule=r, branch=t) for t, r in reasons]) or ""


class NonPlayerBot(Bot):
    """Seats the section-8 flowcharts.

    On a Non-player seat it answers ``np:act`` (the engine resolves the flowchart); its reason
    is the branch that fires, worked out on a copy of the state (the engine then draws the same
    dice). On a player seat (1.5) it works out, on a copy of the state, the choice the flowchart
    would make at this prompt and answers that (a legal player choice). Nothing is remembered
    between prompts: plans, counters and March destinations are derived from the state, so a
    bot made afresh for every decision (the platform does so) plays the same game. Every reason
    is a message citing its section-8 rule, so it reads in the viewer's language.
    """

    kind = "nonplayer"

    def choose(self, state, prompt):
        chs = prompt.choices_for(self.seat)
        ids = [c.id for c in chs]
        if "np:act" in ids:
            return decision("np:act", np_act_reason(state))
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
                return decision(cid, why_)
            return decision("pass" if "pass" in ids else ids[0], msg("{reasons} (not offered: Pass)", reasons=why_))
        head = frame_head(cp, fr, prompt.text_for(self.seat))
        if fr["k"] == "op":
            plan, _ = derive_plan(cp, fr)
            fr["plan"] = fr.get("plan") or plan
            derive_counters(cp, fr)
        fr["auto"] = "np"
        drawn: list = []
        with logging_to(drawn):      # 8.2 / 8.3 picks report their dice and walk
            cid = np_policy(cp, fr, chs)
        label = next((c.label for c in chs if c.id == cid), cid)
        dice = joined([f["text"] for f in drawn if f.get("branch") == "random space"])
        return decision(cid, msg("{head}: {choice} ({dice})", head=head, choice=label, dice=dice) if dice else
                        msg("{head}: {choice}", head=head, choice=label))


def frame_head(st, fr, ptext=""):
    """'8.7.2 March' - the flowchart box a prompt of a running Operation / Event belongs to (a message)."""
    op = fr if fr["k"] == "op" else (opf(st, fr) if fr.get("opi") is not None else None)
    if op is None:
        for g in reversed(st["stack"]):
            if g.get("k") == "op":
                op = g
                break
    step = FRAME_WORD.get(fr["k"]) or ptext or fr["k"]
    if op is not None and op.get("k") == "op":
        _, rule = derive_plan(st, op)
        word = OP_NAME.get(op["op"], op["op"])
        if fr["k"] != "op":
            return msg("{rule} {operation}, by the 8.1.2 priorities ({step})", rule=rule, operation=word, step=step)
        if fr.get("sa"):
            return msg("{rule} {operation} then {activity}", rule=rule, operation=word,
                       activity=OP_NAME.get(fr["sa"], fr["sa"]))
        return msg("{rule} {operation}", rule=rule, operation=word)
    return msg("8.4 Non-player {faction} Event instructions, by the 8.1.2 priorities ({step})",
               faction=FN[fr.get("f", 0)], step=step)


FRAME_WORD = {"marchgrp": msg("March group"), "rallysp": msg("Rally space"), "sweepsp": msg("Sweep space"),
              "assaultsp": msg("Assault removal"), "attacksp": msg("Attack removal"), "trainsp": msg("Train placement"),
              "civic": msg("Civic Action"), "extort": OP_NAME["extort"], "kidnap": OP_NAME["kidnap"],
              "assassinate": OP_NAME["assassinate"], "airstrike": msg("Air Strike (8.8.7)"),
              "airlift": msg("Air Lift (8.8.7)"), "eradicate": msg("Eradicate (8.8.7)"), "cultivate": OP_NAME["cultivate"],
              "process": OP_NAME["process"], "bribe": OP_NAME["bribe"], "agitate": msg("Agitation (8.7.5)"),
              "redeploy": msg("Redeploy (8.8.9)"), "patrolmv": msg("Patrol move")}

def sa_name(x):
    """The Special Activity an ``sa`` fact reports (an Ambush, 4.3.2, with its space)."""
    args = x["text"].get("args", {})
    if x.get("sa") == "ambush" and "space" in args:
        return msg("Ambush in {space}", space=args["space"])
    return args.get("activity") or OP_NAME.get(x.get("sa"), x.get("sa", ""))


#: the reasons of Operation payments that name where an Operation went ("Rally in Huila")
WHERE = frozenset({"{operation} in {space}", "March into {space}", "Terror in {space}"})


def short_walk(x):
    """An 8.2 / 8.3 pick in brief: the dice and the space reached (a message)."""
    dice = x.get("dice")
    got = SN[BD.index[x["space"]]] if x.get("space") in BD.index else x.get("choice", "")
    loc = x["rule"] == "8.3"
    if dice and len(dice) == 3:
        red, yellow, green = dice
        return (msg("Random LoC red {red}, yellow {yellow}, green {green} -> {space}", red=red, yellow=yellow,
                    green=green, space=got) if loc else
                msg("Random City or Department table red {red}, yellow {yellow}, green {green} -> {space}",
                    red=red, yellow=yellow, green=green, space=got))
    return (msg("Random LoC -> {space}", space=got) if loc else
            msg("Random City or Department table -> {space}", space=got))


def PROMPTS_TEXT(st, fr):
    from .frames import PROMPTS
    try:
        return PROMPTS[fr["k"]](st, fr)[0]
    except Exception:  # a prompt that cannot be shown here: the frame kind is named instead
        return ""


def np_act_reason(state):
    """The reason of a Non-player seat's ``np:act`` (a message): the section-8 branches that fire
    (8.1 Event or Operations, the 8.5-8.8 flowchart box and, through the rule-tagged ``np``
    facts, the 8.2 / 8.3 dice), read off a trial of the same decision on a copy of the state -
    the engine's RNG is in the state, so the copy draws the dice the game will draw."""
    fr = state["stack"][-1]
    f = fr.get("f", 0)
    cp = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    facts = apply_choice(cp, "", "np:act")
    notes = [x for x in facts if x.get("type") == "np"]
    lines = [msg("{rule} {branch}", rule=x["rule"], branch=x.get("branch") or x["text"]) for x in notes
             if x.get("branch") != "random space"]
    if fr["k"] != "elig":
        lines.insert(0, frame_head(state, fr, PROMPTS_TEXT(state, fr)))
    where = unique([x["why"] for x in facts if x.get("type") == "track" and is_msg(x.get("why"))
                    and x["why"]["msg"] in WHERE])
    sa = [sa_name(x) for x in facts if x.get("type") == "sa"]
    if where or sa:
        places = joined(where[:6] + (["..."] if len(where) > 6 else []))
        then = joined(sa)
        lines.append(msg("{places} (then {activities})", places=places or "", activities=then) if sa else places)
    dice = [msg("{rule} {walk}", rule=x["rule"], walk=short_walk(x)) for x in notes if x.get("branch") == "random space"]
    more = len(dice) - 4
    lines = unique(lines) + dice[:4] + ([msg_n("({count} more 8.2 / 8.3 pick in the log)",
                                               "({count} more 8.2 / 8.3 picks in the log)", more)] if more > 0 else [])
    return msg("Non-player {faction}: {reasons}", faction=FN[f], reasons=joined(lines) or msg("8.1.2 Procedure Guidelines"))
