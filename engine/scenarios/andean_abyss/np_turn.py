"""8.1-8.4 A Non-player's turn: Event or Operation (8.1), Discord, Pass, and the plans per Operation."""

from __future__ import annotations

import pickle

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import ALL_FACTIONS, AUC, FACTIONS, FARC, GOVT, GOVT_PIECES, INSURGENT_PIECES, A, B, U
from .board import BOARD as BD
from .events import start_event
from .frames import C, frame, logging_to, run_one
from .np_base import CAPS, why
from .np_govt_ops import govt_ops
from .np_insurgent import insurgent_ops
from .operation import start_op
from .state import eligible_options, is_np, is_prop, record_exec
from .texts import FN, SIDE_NAME, card_name


# ====================================================================== 8.1 Event or Operations
def event_effect(st: dict, f: int, side: str) -> dict | None:
    """Run the Event on a copy (Non-player choices) and report what changed (8.1 Ineffective Events)."""
    cp = pickle.loads(pickle.dumps(st, protocol=pickle.HIGHEST_PROTOCOL))
    cp["stack"] = []
    cp["sop"] = {"prop": True}
    facts: list = []
    try:
        with logging_to(None):   # the trial run on the copy reports nothing
            start_event(cp, f, cp["cur"], side, facts, auto="np")
            guard = 0
            while cp["stack"] and guard < 2000:
                guard += 1
                run_one(cp, facts)
    except Exception:  # an Event that cannot be resolved counts as ineffective
        return None
    keys = ("pc", "sup", "ter", "sab", "zones", "res", "aid", "ship", "foreign", "oop", "stay_elig", "mom", "caps")
    changed = any(cp[k] != st[k] for k in keys) or bool(newly_ineligible(st, f, cp))
    return {"changed": changed, "st": cp, "capability": BD.cards[st["cur"]].get("capability", False)}


def newly_ineligible(st, f, after) -> set:
    """Factions an Event marks Ineligible for the next card (cards 23, 24, 63) that would
    otherwise be Eligible then: not the executor and not a Faction that already acted on this
    card (2.3.7 makes both Ineligible anyway). Only these count as an effect (8.1 Ineffective
    Events) or as making a player Ineligible (8.1 restrictions)."""
    acted = set((st.get("sop") or {}).get("executed", ())) | {f}
    return set(after["inel_next"]) - set(st["inel_next"]) - acted


def govt_likes(st, after) -> bool:
    """Derived default Government Event Instruction (rules notes): take the unshaded text if it helps."""
    ts0, ts1 = P.total_support(st), P.total_support(after)
    ins0 = sum(P.count_on_map(st, k) for k in INSURGENT_PIECES)
    ins1 = sum(P.count_on_map(after, k) for k in INSURGENT_PIECES)
    g0 = sum(P.count_on_map(st, k) for k in GOVT_PIECES)
    g1 = sum(P.count_on_map(after, k) for k in GOVT_PIECES)
    if ts1 < ts0 or g1 < g0 - 1:
        return False
    return ts1 > ts0 or ins1 < ins0 or after["res"][GOVT] > st["res"][GOVT] or after["aid"] > st["aid"] or g1 > g0


def insurgent_ok_vs_np_govt(st, f, after) -> bool:
    """8.1: with a Non-player Government, Insurgent Non-players take only Events meeting these tests."""
    slots = (U(f), A(f), B(f))
    pieces_before = sum(st["pc"][i][k] for i in range(BD.n) for k in slots)
    pieces_after = sum(after["pc"][i][k] for i in range(BD.n) for k in slots)
    if pieces_after > pieces_before or after["res"][f] > st["res"][f]:
        return True
    moved = any(st["pc"][i][U(f):B(f) + 1] != after["pc"][i][U(f):B(f) + 1] for i in range(BD.n))
    if moved:
        return True
    if f == AUC and P.total_support(after) > P.total_support(st):
        return True
    if f == FARC and P.total_opposition(after) > P.total_opposition(st):
        return True
    for g in ALL_FACTIONS:
        if g == f or is_np(st, g):
            continue
        if after["res"][g] < st["res"][g]:
            return True
        if sum(P.fpieces(after["pc"][i], g) for i in range(BD.n)) < sum(P.fpieces(st["pc"][i], g) for i in range(BD.n)):
            return True
        if g in newly_ineligible(st, f, after):
            return True
    return False


def np_decide(st: dict, fr: dict) -> tuple:
    """8.1 / 8.8.1-8.8.2: what the flowchart does with the ``elig`` frame ``fr`` (no state change
    except Non-player random draws). Returns (kind, arg, plan, reasons): kind is "pass", "event"
    (arg = side) or "op" (arg = Operation)."""
    f, pos = fr["f"], fr["pos"]
    card = BD.cards[st["cur"]]
    _, ev_ok, op_ok, lim, _ = eligible_options(st, fr)
    reasons = []
    if f == GOVT and is_prop(st["nxt"]) is False and st["nxt"] in CAPS and st["cur"] not in CAPS:
        return ("pass", None, None, [(msg("Pass to be Eligible for the Capability on the next card"), "8.8.1")])
    side = "unshaded" if (f == GOVT or card.get("single")) else "shaded"
    if ev_ok:
        if f == GOVT:
            want = True
        elif pos == 1:
            want = FACTIONS.index(card["order"][0]) == f
        else:
            want = not card.get("np_ops_if_second")
        if card["n"] == 63:
            want = False  # Playbook: Non-players always choose Operations over Narco-War
        if want:
            eff = event_effect(st, f, side)
            if eff is None or not (eff["changed"] or eff["capability"]):
                reasons.append((msg("Event {n} would have no effect: Operations instead", n=card['n']), "8.1"))
            elif card.get("momentum") and side == "shaded" and is_prop(st["nxt"]) and card["n"] not in (22, 67):
                reasons.append((msg("Momentum Event with Propaganda next would not matter: Operations"), "8.1"))
            elif f == GOVT and not (eff["capability"] or govt_likes(st, eff["st"])):
                reasons.append((msg("Event would not help the Government (derived Event Instruction): Operations"),
                                "8.8.2"))
            elif f != GOVT and is_np(st, GOVT) and not insurgent_ok_vs_np_govt(st, f, eff["st"]):
                reasons.append((msg("Event fails the Non-player Government restrictions: Operations"), "8.1"))
            else:
                reasons.append((msg("executes Event {card} ({side})", card=card_name(card["n"]), side=SIDE_NAME[side]), "8.1" if f else "8.8.2"))
                return ("event", side, None, reasons)
    if not op_ok:
        reasons.append((msg("no Operation allowed here: Pass"), "8.1"))
        return ("pass", None, None, reasons)
    d = govt_ops(st, fr) if f == GOVT else insurgent_ops(st, fr)
    return (d[0], d[1], d[2], reasons + [d[3]])


def discord_applies(st: dict, fr: dict) -> bool:
    """8.1 Insurgent Discord: 2 players, Government a player, 2nd Eligible Non-player Insurgent
    with at least 1 Resource and the Event open to it."""
    f = fr["f"]
    players = len({st["ctl"][g] for g in ALL_FACTIONS if g not in st["np"]})
    if players != 2 or 0 in st["np"] or f == GOVT or fr["pos"] != 2 or st["res"][f] < 1:
        return False
    return eligible_options(st, fr)[1]


def np_turn(st: dict, fr: dict, facts: list) -> None:
    """Resolve ``np:act`` for a Non-player Faction's ``elig`` frame."""
    f = fr["f"]
    fr["done"] = 1
    if discord_applies(st, fr):
        from .frames import push
        why(st, facts, f, "Insurgent Discord: the Government chooses Event or Operations", "8.1")
        push(st, {"k": "discord", "f": GOVT, "np": f, "elig": len(st["stack"]) - 1})
        return
    kind, arg, plan, reasons = np_decide(st, fr)
    np_execute(st, fr, facts, kind, arg, plan, reasons)


def np_execute(st, fr, facts, kind, arg, plan, reasons):
    f = fr["f"]
    for text, rule in reasons:
        why(st, facts, f, text, rule)
    if kind == "pass":
        do_pass(st, fr, facts)
    elif kind == "event":
        record_exec(st, f, "event")
        start_event(st, f, st["cur"], arg, facts, auto="np")
    else:
        record_exec(st, f, "op")
        o = start_op(st, f, arg, lim=False, free=False, facts=facts, auto="np")
        o["plan"] = plan
        o["nsp"] = 0


@frame("discord")
class Discord:
    """8.1 Insurgent Discord: the Government player picks Event (with effect) or Operations."""

    @staticmethod
    def prompt(st, fr):
        g = fr["np"]
        chs = []
        eff = event_effect(st, g, "unshaded" if BD.cards[st["cur"]].get("single") else "shaded")
        if eff is not None and (eff["changed"] or eff["capability"]):
            chs.append(C("discord:event", msg("{faction} executes the Event", faction=FN[g])))
        chs.append(C("discord:ops", msg("{faction} conducts Operations", faction=FN[g])))
        return (msg("Insurgent Discord: Non-player {faction} is 2nd Eligible - Event or Operations?", faction=FN[g]), "8.1", chs)

    @staticmethod
    def act(st, fr, cid, facts):
        from .frames import pop
        pop(st, fr)
        efr = st["stack"][fr["elig"]]
        card = BD.cards[st["cur"]]
        if cid == "discord:event":
            side = "unshaded" if card.get("single") else "shaded"
            np_execute(st, efr, facts, "event", side, None, [(msg("executes Event {n} (Insurgent Discord)", n=card['n']), "8.1")])
            return
        d = insurgent_ops(st, efr)
        np_execute(st, efr, facts, d[0], d[1], d[2], [d[3]])


def do_pass(st, fr, facts):
    f = fr["f"]
    P.set_res(st, f, 3 if f == GOVT else 1, facts, msg("Pass, 2.3.3"))
    facts.append(fact("pass", msg("{faction} passes", faction=FN[f]), faction=FACTIONS[f]))
    fr["done"] = 0
    st["sop"]["i"] += 1
    from .frames import pop
    pop(st, fr)
