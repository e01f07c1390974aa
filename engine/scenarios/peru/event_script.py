"""5.0 Events: the small scripting kit the card scripts are written in.

``effect(card, side)`` registers a card side's immediate script in ``RUN``; ``steps(card, side,
ask, act)`` registers the prompt and the handler of its decision frame (``ev`` frames, see
``events``); the helpers build the choices most cards offer (spaces, yes/no, "remove up to N
Guerrillas") and push free Operations (5.4). The scripts themselves live in
``event_cards_p01_p16`` and ``event_cards_p18_p36``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.contract import ChoiceKind
from engine.core.flow import pop, push
from engine.core.messages import msg, msg_n

from .data import (
    CARDS,
    IDS,
)
from .ops import op_menu
from .state import (
    cap,
    remove,
)
from .texts import (
    CARD_TITLE,
    HELP_DONE,
    HELP_NO,
    HELP_REMOVE,
    HELP_SPACE,
    HELP_YES,
    ONE_PIECE,
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


def ev(state: dict, card: str, side: str, seat: str, step: str, **data) -> dict:
    fr = {"k": "ev", "card": card, "side": side, "seat": seat, "step": step}
    fr.update(data)
    return push(state, fr)


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




def no_effect(state, seat, facts):
    pass


def hunt_bonus(state):
    """P6 DIRCOTE (Capability, top side, 4.2.1): +1 to the Investigate roll of an Event's Hunt."""
    return 1 if cap(state, "P6") == "top" else 0


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
