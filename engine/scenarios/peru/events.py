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

from engine.core.contract import attribute, cause_event, fact
from engine.core.flow import Ask, FrameKind
from engine.core.messages import msg

from . import event_cards_p01_p16, event_cards_p18_p36  # noqa: F401  (they register the card scripts)
from .data import (
    CAPABILITIES,
    CARDS,
)
from .event_cards_p18_p36 import _p20_auto
from .event_script import RUN, STEP, WHY, no_effect
from .state import (
    SEAT_NAME,
    refresh_control,
)
from .texts import (
    CARD_TEXT,
    CARD_TITLE,
    SIDE,
)


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


for _c in CAPABILITIES:
    RUN.setdefault((_c, "top"), no_effect)
    RUN.setdefault((_c, "bottom"), no_effect)


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
