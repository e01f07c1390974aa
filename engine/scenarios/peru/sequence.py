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
from engine.coin.flow import Ask, FrameKind, pop, push
from engine.core.contract import Choice, fact

from .data import CARDS, INITIATIVE_BOXES, NAME
from .ops import OPS, OPS_OF, new_op, op_possible, start_op
from .state import GOV, SEAT_NAME, SP, refresh_control, res

BOX_LABEL = {"limited_op": "Limited Operation", "event": "Event", "op_sa": "Operation & Special Activity"}


def do_pass(state: dict, seat: str, facts: list) -> None:
    """2.3.3 Passing: Government +2, Shining Path +1 Resources."""
    facts.append(fact("pass", f"{SEAT_NAME[seat]} passes.", seat=seat))
    res(state, seat, 2 if seat == GOV else 1, f"{SEAT_NAME[seat]} passed", facts)


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
    facts.append(fact("card", f"Card revealed: {c} {card['title']}.", card=c, barrier=True))
    if card["kind"] == "propaganda":
        if c != "P40":
            state["president"] = c
            facts.append(fact("president", f"{card['title']} goes to the Current President box (2.4.1).", card=c))
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
    facts.append(fact("eligibility", f"1st Eligible: {SEAT_NAME[state['elig'][0]]}; 2nd Eligible: "
                      f"{SEAT_NAME[state['elig'][1]]} (2.3.5).", first=state["elig"][0], second=state["elig"][1]))
    pop(state, fr)


def _box_ask(state: dict, fr: dict) -> Ask:
    taken = set(state["boxes"].values())
    ch = [Choice(f"box:{b}", BOX_LABEL[b], {"box": b}) for b in INITIATIVE_BOXES if b not in taken]
    which = "1st" if not state["boxes"] else "2nd"
    return Ask(fr["seat"], f"{SEAT_NAME[fr['seat']]} ({which} Eligible): choose a box on the Initiative Track",
               "2.3.2", ch, {"card": state["card"]})


def _box_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    box = cid[4:]
    state["boxes"][fr["seat"]] = box
    facts.append(fact("box", f"{SEAT_NAME[fr['seat']]} takes the {BOX_LABEL[box]} box.", seat=fr["seat"], box=box))
    pop(state, fr)
    push(state, {"k": "act", "seat": fr["seat"], "box": box})


def _act_ask(state: dict, fr: dict) -> Ask:
    seat, box = fr["seat"], fr["box"]
    ch = []
    if box == "event":
        from .events import event_sides
        card = CARDS[state["card"]]
        for side in event_sides(state, seat, state["card"]):
            name = card[side]["name"]
            ch.append(Choice(f"event:{side}", f"Event ({side}): {name}", {"side": side, "card": card["id"]}))
    else:
        lim = box == "limited_op"
        for op in OPS_OF[seat]:
            if op_possible(state, seat, op, lim, False):
                ch.append(Choice(f"op:{op}", ("Limited " if lim else "") + OPS[op].label, {"op": op}))
    ch.append(Choice("pass", "Pass", {}))
    return Ask(seat, f"{SEAT_NAME[seat]}: {BOX_LABEL[box]} or Pass", "2.3.2", ch, {"box": box})


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
        lab = f"Keep the Directives Base in {NAME[s]}" if state["s"][s]["D"] else \
            f"Put the Directives Base in {NAME[s]}"
        ch.append(Choice(f"swap:{s}", lab, {"space": s}))
    return Ask(SP, "Secretly choose the Base that hides the Guzman Directives Base", "1.4.4, 6.5.3", ch)


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
    facts.append(fact("directives", f"The Guzman Directives Base is now hidden in {NAME[to]}.", space=to,
                      visible_to=[SP], barrier=True,
                      public={"type": "directives", "text": "Shining Path secretly placed the Guzman Directives Base.",
                              "barrier": True}))
    refresh_control(state, facts, "Directives swap")


FRAME_KINDS = [
    FrameKind("next", auto=_next_auto),
    FrameKind("card", auto=_card_auto),
    FrameKind("box", ask=_box_ask, act=_box_act, never_empty=True),
    FrameKind("act", ask=_act_ask, act=_act_act, never_empty=True),
    FrameKind("swap", ask=_swap_ask, act=_swap_act),
]
