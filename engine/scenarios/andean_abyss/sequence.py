"""2.0 Sequence of play: dealing cards (2.2), the Eligible Factions' options (2.3.2-2.3.4), Eligibility adjustment (2.3.7) and the main loop of frames."""

from __future__ import annotations

from engine.coin.cylinders import adjust, eligible_order
from engine.core import rng as R
from engine.core.contract import IllegalChoice, attribute, cause_bot, cause_decision, cause_facilitator, fact
from engine.core.messages import msg

from . import pieces as P
from .board import ALL_FACTIONS, FACTIONS, GOVT
from .board import BOARD as BD
from .events import start_event
from .frames import FLOW, POLICIES, PROMPTS, C, frame, logging_to, pop, push, target
from .np_turn import np_turn
from .operation import op_possible, start_op
from .state import OPS, card_title, eligible_options, is_np, is_prop, next_card, record_exec
from .texts import CARD_TEXT, FN, OP_NAME, card_name
from .victory import finish_game


# ====================================================================== main loop
def run(st: dict, facts: list) -> None:
    """Advance through every step that needs no decision (engine.core.flow.Flow.settle)."""
    FLOW.settle(st, facts)


def _auto_ok(st: dict, fr: dict) -> bool:
    # 5.1: a frame inherits "auto" from a Non-player's Event or Operation; where the card
    # names a player Faction to act (fr["f"]), that player's seat decides instead
    return bool(fr.get("auto")) and (fr["f"] in st["np"] or fr["k"] == "elig")


def current_prompt(st: dict):
    if st["over"] is not None or not st["stack"]:
        return None
    fr = st["stack"][-1]
    text, rule, chs = PROMPTS[fr["k"]](st, fr)
    if fr["k"] != "elig" and fr["f"] in st["np"]:
        chs = [NP_CHOICE]
    return fr, text, rule, chs


NP_CHOICE = C("np:act", msg("Let the section-8 Non-player rules decide"))


def apply_choice(st: dict, seat: str, cid: str) -> list:
    fr = st["stack"][-1]
    facts: list = []
    st["seq"] += 1
    with logging_to(facts):
        if cid == "np:act" and fr["k"] != "elig":
            fr["auto"] = "np"
            FLOW.settle(st, facts)
        else:
            FLOW.act(st, cid, facts)
    # facts without a cause of their own (a rule step, a die, an event, a Non-player's branch)
    # come from this decision
    return attribute(facts, cause_bot(seat, None, "8.1") if cid == "np:act" else cause_decision(seat, cid))


def directed_choices(st: dict) -> list:
    """The legal decisions a facilitator may direct the Non-player now to act to take instead of
    its flowchart's: the choices of the frame on top as a player would see them (2.3.4 at its
    Eligibility, the Operation's or Event's own choices further in). Empty when no Non-player
    decision waits."""
    if st["over"] is not None or not st["stack"]:
        return []
    fr = st["stack"][-1]
    if fr["f"] not in st["np"]:
        return []
    if fr["k"] == "elig":
        return Elig.options_prompt(st, fr)[2]
    return [c for c in PROMPTS[fr["k"]](st, fr)[2] if c.id != "np:act"]


def apply_directed(st: dict, cid: str, reason) -> list:
    """Apply ``cid``, one of :func:`directed_choices`, for the Non-player on top: what follows
    is again the Non-player's own (section 8). Facts carry the facilitator's cause."""
    ids = [c.id for c in directed_choices(st)]
    if cid not in ids:
        raise IllegalChoice(f"'{cid}' is not a decision the Non-player can take now.", code="unknown_choice")
    fr = st["stack"][-1]
    f = fr["f"]
    cause = cause_facilitator(reason)
    facts: list = [fact("directed", msg("The facilitator directs the Non-player {faction}: {choice} ({reason})",
                                            faction=FN[f], choice=cid, reason=reason),
                        faction=FACTIONS[f], choice=cid, cause=cause)]
    st["seq"] += 1
    with logging_to(facts):
        FLOW.act(st, cid, facts)
    return attribute(facts, cause)


# ====================================================================== 2.3 Event cards
def sop_advance(st: dict, facts: list) -> None:
    s = st["sop"]
    if s is None:
        start_card(st, facts)
        return
    if s["second"] is not None or s["i"] >= len(s["cand"]):
        end_card(st, facts)
        return
    f = s["cand"][s["i"]]
    push(st, {"k": "elig", "f": f, "pos": 1 if s["first"] is None else 2})


def start_card(st: dict, facts: list) -> None:
    card = st["cur"]
    if card is None:
        finish_game(st, facts, msg("deck exhausted"))
        return
    if is_prop(card):
        facts.append(fact("card", msg("Propaganda card revealed ({number} of {total})", number=st["props_done"] + 1,
                                              total=st["props_total"]),
                          card="propaganda", barrier=True))
        st["props_done"] += 1
        if st["last_prop"]:
            facts.append(fact("propaganda", msg("Two Propaganda cards in a row: no Propaganda Round (6.0)")))
            if st["props_done"] >= st["props_total"]:
                finish_game(st, facts, msg("final Propaganda card"))
                return
            next_card(st, facts)
            return
        st["last_prop"] = True
        st["sop"] = {"prop": True}
        push(st, {"k": "prop", "ph": "victory", "f": GOVT})
        return
    st["last_prop"] = False
    c = BD.cards[card]
    order = [FACTIONS.index(x) for x in c["order"]]
    st["sop"] = {"cand": eligible_order(order, dict(enumerate(st["elig"]))), "i": 0, "first": None, "second": None,
                 "executed": [], "shipped": []}
    facts.append(fact("card", msg("Card {card} is played; next card: {next}", card=card_name(card),
                                      next=card_title(st["nxt"])),
                      card=card, next=st["nxt"], barrier=True))


def end_card(st: dict, facts: list) -> None:
    """2.3.7 Adjust Eligibility, 2.3.8 next card."""
    s = st["sop"]
    new = adjust(range(4), s["executed"], st["stay_elig"], st["inel_next"])
    st["elig"] = [new[f] for f in ALL_FACTIONS]
    st["inel_next"] = []
    st["stay_elig"] = []
    next_card(st, facts)


@frame("elig")
class Elig:
    """2.3.2-2.3.4: the 1st or 2nd Eligible Faction chooses Pass, Event or Operation."""

    @staticmethod
    def prompt(st, fr):
        if is_np(st, fr["f"]):
            return (msg("{faction} (Non-player) acts per section 8", faction=FN[fr["f"]]), "8.1",
                    [C("np:act", msg("Resolve the Non-player flowchart"))])
        return Elig.options_prompt(st, fr)

    @staticmethod
    def options_prompt(st, fr):
        """2.3.4 Pass, Event or Operation, as a player sees it (and a facilitator directing a
        Non-player, section 8 set aside)."""
        f = fr["f"]
        card, ev, op, lim, final = eligible_options(st, fr)
        chs = []
        chs.append(C("pass", msg("Pass (+{count} Resources)", count=3 if f == GOVT else 1)))
        if ev:
            if card.get("single"):
                chs.append(C("event", msg("Event: {text}", text=CARD_TEXT[(card["n"], "unshaded")]), card=card["n"]))
            else:
                chs.append(C("event:unshaded", msg("Unshaded Event: {text}", text=CARD_TEXT[(card["n"], "unshaded")]),
                             card=card["n"]))
                chs.append(C("event:shaded", msg("Shaded Event: {text}", text=CARD_TEXT[(card["n"], "shaded")]),
                             card=card["n"]))
        if op:
            for o in OPS[f]:
                if final and o in ("sweep", "march"):
                    continue
                if op_possible(st, f, o, lim):
                    chs.append(C(f"op:{o}", msg("Limited Operation: {operation}", operation=OP_NAME[o]) if lim
                                 else msg("Operation: {operation}", operation=OP_NAME[o]),
                                 limited=lim))
        text = (msg("{faction}, you are 1st Eligible on card {card}: Pass, Event or Operation?", faction=FN[f],
                    card=card_name(card["n"])) if fr["pos"] == 1 else
                msg("{faction}, you are 2nd Eligible on card {card}: Pass, Event or Operation?", faction=FN[f],
                    card=card_name(card["n"])))
        return text, "2.3.4", chs

    @staticmethod
    def auto(st, fr, facts):
        """Once the Faction's Event or Operation has finished, the next candidate's turn (2.3.2)."""
        if fr.get("done"):
            st["sop"]["i"] += 1
            pop(st, fr)
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        f = fr["f"]
        if cid == "pass":
            P.set_res(st, f, 3 if f == GOVT else 1, facts, msg("Pass, 2.3.3"))
            facts.append(fact("pass", msg("{faction} passes", faction=FN[f]), faction=FACTIONS[f]))
            st["sop"]["i"] += 1
            pop(st, fr)
            return
        fr["done"] = 1
        if cid == "np:act":
            np_turn(st, fr, facts)
            return
        if cid.startswith("event"):
            side = "unshaded" if cid in ("event", "event:unshaded") else "shaded"
            record_exec(st, f, "event")
            start_event(st, f, st["cur"], side, facts)
            return
        if cid.startswith("op:"):
            _, ev, _, lim, _ = eligible_options(st, fr)
            record_exec(st, f, "op")
            start_op(st, f, target(cid), lim=lim, free=False, facts=facts)
            return
        raise IllegalChoice(f"unknown choice {cid}")


def _random_policy(st, fr, chs):
    return chs[R.pick_index(st["rng"], len(chs), tag="np")].id


POLICIES["random"] = _random_policy


FLOW.idle = sop_advance


FLOW.done = lambda st: st["over"] is not None


FLOW.auto_ok = _auto_ok
