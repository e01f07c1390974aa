"""2.0 Sequence of Play: setup swap (2.1), card reveal (2.2, 2.3.6), the Initiative Track
(2.3.1-2.3.5) and Propaganda cards (2.4).

Frames: ``next`` (bottom of the stack; reveals the next card), ``card`` (walks the 1st and
2nd Eligible faction through the card), ``box`` (a faction places its cylinder), ``act``
(what it does in that box), ``swap`` (the secret Directives swap, 2.1 / 6.5.3).

Choice ids: ``box:limited_op`` / ``box:event`` / ``box:op_sa``; then ``op:<name>``,
``event:top`` / ``event:bottom`` or ``pass``; ``swap:<id>`` for the Directives Base.
"""

from __future__ import annotations

from engine.coin.eligibility import next_order
from engine.core.contract import ChoiceKind, cause_rule, fact
from engine.core.flow import Ask, FrameKind, pop, push
from engine.core.messages import msg

from .data import CARDS, INITIATIVE_BOXES
from .ops import OPS_OF, new_op, op_possible, start_op
from .state import GOV, SEAT_NAME, SP, refresh_control, res
from .texts import (
    BOX,
    BOX_HELP,
    CARD_SIDE_NAME,
    CARD_TITLE,
    HELP_EVENT,
    HELP_PASS,
    HELP_SWAP,
    OP,
    OP_HELP,
    SIDE,
    SPACE,
    C,
)

BOX_LABEL = BOX
PASS_CHOICE = C("pass", msg("Pass"), ChoiceKind.PASS, "2.3.3", HELP_PASS)


def do_pass(state: dict, seat: str, facts: list) -> None:
    """2.3.3 Passing: Government +2, Shining Path +1 Resources."""
    facts.append(fact("pass", msg("{faction} passes.", faction=SEAT_NAME[seat]), seat=seat))
    res(state, seat, 2 if seat == GOV else 1, msg("{faction} passed", faction=SEAT_NAME[seat]), facts)


# ---------------------------------------------------------------- next card

def _next_auto(state: dict, fr: dict, facts: list) -> None:
    if state["over"] is not None:
        pop(state, fr)
        return
    if not state["deck"]:
        from .propaganda import final_victory
        final_victory(state, facts, "the draw deck ran out")
        return
    c = state["deck"].pop(0)
    state["card"] = c
    state["played"].append(c)
    card = CARDS[c]
    facts.append(fact("card", msg("Card revealed: {number} {title}.", number=c, title=CARD_TITLE[c]), card=c,
                      barrier=True, deltas={"cards_played": 1}))
    if card["kind"] == "propaganda":
        if c != "P40":
            state["president"] = c
            facts.append(fact("president", msg("{title} goes to the Current President box (2.4.1).",
                                               title=CARD_TITLE[c]), card=c))
        state["nprop"] += 1
        push(state, {"k": "prop", "ph": 0, "final": c == "P40"})
    else:
        state["boxes"] = {}
        push(state, {"k": "card", "step": 0})


# ---------------------------------------------------------------- the card round

def _card_auto(state: dict, fr: dict, facts: list) -> None:
    if fr["step"] < 2:
        seat = state["elig"][fr["step"]]
        fr["step"] += 1
        push(state, {"k": "box", "seat": seat})
        return
    old = list(state["elig"])
    state["elig"] = next_order(INITIATIVE_BOXES, state["boxes"], old)
    facts.append(fact("eligibility", msg("1st Eligible: {first}; 2nd Eligible: {second} (2.3.5).",
                                         first=SEAT_NAME[state["elig"][0]], second=SEAT_NAME[state["elig"][1]]),
                      first=state["elig"][0], second=state["elig"][1]))
    pop(state, fr)


def _box_ask(state: dict, fr: dict) -> Ask:
    taken = set(state["boxes"].values())
    ch = [BOX_CHOICE[b] for b in INITIATIVE_BOXES if b not in taken]
    if not state["boxes"]:
        text = msg("{faction} (1st Eligible): choose a box on the Initiative Track", faction=SEAT_NAME[fr["seat"]])
    else:
        text = msg("{faction} (2nd Eligible): choose a box on the Initiative Track", faction=SEAT_NAME[fr["seat"]])
    return Ask(fr["seat"], text, "2.3.2", ch, {"card": state["card"]})


BOX_CHOICE = {b: C(f"box:{b}", BOX[b], ChoiceKind.ACTION, "2.3.2", BOX_HELP[b], {"box": b}) for b in BOX}


def _box_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    box = cid[4:]
    state["boxes"][fr["seat"]] = box
    facts.append(fact("box", msg("{faction} takes the {box} box.", faction=SEAT_NAME[fr["seat"]], box=BOX[box]),
                      seat=fr["seat"], box=box))
    pop(state, fr)
    push(state, {"k": "act", "seat": fr["seat"], "box": box})


def _act_ask(state: dict, fr: dict) -> Ask:
    seat, box = fr["seat"], fr["box"]
    ch = []
    if box == "event":
        from .events import event_sides
        card = CARDS[state["card"]]
        for side in event_sides(state, seat, state["card"]):
            cid = card["id"]
            ch.append(C(f"event:{side}", msg("Event ({side}): {name}", side=SIDE[side], name=CARD_SIDE_NAME[(cid, side)]),
                        ChoiceKind.EVENT_SIDE, card[side]["rule"], HELP_EVENT, {"card": cid, "side": side},
                        payload={"side": side, "card": cid}))
    else:
        lim = box == "limited_op"
        for op in OPS_OF[seat]:
            if op_possible(state, seat, op, lim, False):
                ch.append(OP_CHOICE[(op, lim)])
    ch.append(PASS_CHOICE)
    return Ask(seat, msg("{faction}: {box} or Pass", faction=SEAT_NAME[seat], box=BOX[box]), "2.3.2", ch, {"box": box})


def _op_choice(op: str, lim: bool):
    from .ops import OPS
    d = OPS[op]
    label = msg("Limited {operation}", operation=OP[op]) if lim else OP[op]
    return C(f"op:{op}", label, ChoiceKind.OPERATION, d.rule, OP_HELP[op], {"op": op})


class _OpChoices(dict):
    """(operation, limited) -> its Choice, built on first use (the operations register later)."""

    def __missing__(self, key):
        c = self[key] = _op_choice(*key)
        return c


OP_CHOICE = _OpChoices()


def _act_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    seat, box = fr["seat"], fr["box"]
    pop(state, fr)
    if cid == "pass":
        do_pass(state, seat, facts)
    elif cid.startswith("op:"):
        lim = box == "limited_op"
        start_op(state, new_op(seat, cid[3:], lim, False, None, None if lim else {"names": None}), facts)
    else:
        from .events import execute
        execute(state, seat, state["card"], cid[6:], facts)


# ---------------------------------------------------------------- the Directives swap (2.1, 1.4.4, 6.5.3)

def swap_spaces(state: dict) -> list[str]:
    return [s for s, sp in state["s"].items() if sp["B"] or sp["D"]]


def _swap_ask(state: dict, fr: dict) -> Ask:
    ch = []
    for s in swap_spaces(state):
        lab = msg("Keep the Directives Base in {space}", space=SPACE[s]) if state["s"][s]["D"] else \
            msg("Put the Directives Base in {space}", space=SPACE[s])
        ch.append(C(f"swap:{s}", lab, ChoiceKind.SPACE, "1.4.4, 6.5.3", HELP_SWAP, {"space": s}))
    return Ask(SP, msg("Secretly choose the Base that hides the Guzman Directives Base"), "1.4.4, 6.5.3", ch)


def _swap_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    pop(state, fr)
    to = cid[5:]
    cur = next((s for s, sp in state["s"].items() if sp["D"]), None)
    if cur != to:
        if cur is not None:
            state["s"][cur]["D"] = 0
            state["s"][cur]["B"] += 1
            state["dbox"] -= 1
        state["s"][to]["B"] -= 1
        state["s"][to]["D"] = 1
        state["dbox"] += 1
        state["d_home"] = False
    state["d_revealed"] = False
    facts.append(fact("directives", msg("The Guzman Directives Base is now hidden in {space}.", space=SPACE[to]),
                      space=to, visible_to=[SP], barrier=True,
                      public={"type": "directives",
                              "text": msg("Shining Path secretly placed the Guzman Directives Base."),
                              "barrier": True, "cause": cause_rule("1.4.4, 6.5.3")}))
    refresh_control(state, facts, msg("Directives swap"))


FRAME_KINDS = [
    FrameKind("next", auto=_next_auto, rule="2.2", title=msg("Reveal the next card")),
    FrameKind("card", auto=_card_auto, rule="2.3", title=msg("Sequence of play")),
    FrameKind("box", ask=_box_ask, act=_box_act, never_empty=True),
    FrameKind("act", ask=_act_ask, act=_act_act, never_empty=True),
    FrameKind("swap", ask=_swap_ask, act=_swap_act),
]
