"""2.3 What the sequence of play records: cards in play, Capabilities (5.3), Momentum (5.4), who runs a Faction, and which Factions executed what on the current card."""

from __future__ import annotations

from engine.core.messages import msg

from .board import AUC, CARTELS, FARC, GOVT
from .board import BOARD as BD
from .texts import PROPAGANDA, card_name

PROP = 73  # Propaganda cards are 73..76


# 3.0 the Operations and 4.0 the Special Activities of each Faction
OPS = {GOVT: ("train", "patrol", "sweep", "assault"), FARC: ("rally", "march", "attack", "terror"),
       AUC: ("rally", "march", "attack", "terror"), CARTELS: ("rally", "march", "attack", "terror")}


SAS = {GOVT: ("airlift", "airstrike", "eradicate"), FARC: ("extort", "ambush", "kidnap"),
       AUC: ("extort", "ambush", "assassinate"), CARTELS: ("cultivate", "process", "bribe")}


# ====================================================================== helpers
def is_prop(card) -> bool:
    return card is not None and card >= PROP


def seat_of(st: dict, f: int) -> str:
    return st["ctl"][f]


def is_np(st: dict, f: int) -> bool:
    return f in st["np"]


def cap(st: dict, n: int) -> str:
    """'u' / 's' when Govt Capability card n is in force on that side, else ''."""
    return st["caps"].get(str(n), "")


def mom(st: dict, n: int) -> bool:
    return n in st["mom"]


def final_event_card(st: dict) -> bool:
    """2.3.9: the next card is the final Propaganda card."""
    return is_prop(st["nxt"]) and st["props_done"] + 1 >= st["props_total"]


def card_info(n):
    return BD.cards.get(n)


def card_title(n):
    """The name of card ``n`` as a message (``12 Peace Commission``, ``Propaganda!``, ``none``)."""
    if n is None:
        return NO_CARD
    if is_prop(n):
        return PROPAGANDA
    return card_name(n)


NO_CARD = msg("none")


def record_exec(st: dict, f: int, did: str) -> None:
    s = st["sop"]
    if s.get("prop"):
        return
    if f not in s["executed"]:
        s["executed"].append(f)
    if s["first"] is None:
        s["first"] = {"f": f, "did": did}
    elif s["first"]["f"] == f:
        s["first"]["did"] = did
    else:
        s["second"] = {"f": f, "did": did}


def mark_sa(st: dict, f: int) -> None:
    s = st["sop"]
    if s and not s.get("prop") and s["first"] is not None and s["first"]["f"] == f and s["first"]["did"] == "op":
        s["first"]["did"] = "opsa"


def eligible_options(st: dict, fr: dict) -> tuple:
    """2.3.4: (card, Event allowed, Operation allowed, Limited only, final card) for the Eligible
    Faction of the ``elig`` frame ``fr``."""
    f, pos = fr["f"], fr["pos"]
    s = st["sop"]
    card = BD.cards[st["cur"]]
    ev = op = False
    lim = False
    if pos == 1:
        ev = op = True
    else:
        did = s["first"]["did"]
        if did == "op":
            op, lim = True, True
        elif did == "opsa":
            op, lim, ev = True, True, True
        else:
            op = True
    final = final_event_card(st) and not is_np(st, f)
    if final:
        lim = True
    return card, ev, op, lim, final


def next_card(st: dict, facts: list) -> None:
    """2.3.8: the revealed next card becomes the card in play and the deck reveals another."""
    st["sop"] = None
    st["cur"] = st["nxt"]
    st["nxt"] = st["deck"].pop(0) if st["deck"] else None
    if st["cur"] is not None:
        st["cards_played"] += 1
