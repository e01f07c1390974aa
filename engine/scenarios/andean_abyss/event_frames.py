"""5.0 Events: the decision frames effect scripts use (pick spaces, pieces, Factions, free Special Activities)."""

from __future__ import annotations

from engine.core.messages import msg

from . import pieces as P
from .board import BOARD as BD
from .board import FACTIONS, FARC_BASE, GOVT, U
from .events import IDS, matching
from .frames import C, frame, pop, pop_if, push_child, target
from .op_common import sidx, space_choices
from .redeploy import place_zone
from .sa_govt import airlift_from, airstrike_spaces, eradicate_spaces
from .state import mom
from .texts import ASK, ASK_SPACE, CARD_TITLE, FN, OP_NAME, SN, card_name


# ====================================================================== decision frames
def pick_cands(st, fr):
    s = fr["s"]
    c = matching(st, s["where"], fr["v"], exclude=[] if s.get("repeat") else fr["chosen"])
    if fr.get("only") is not None:
        c = [i for i in c if i in fr["only"]]
    if s.get("best") == "econ" and c:
        m = max(BD.econ[i] for i in c)
        c = [i for i in c if BD.econ[i] == m]
    return c


@frame("evpick")
class EvPick:
    """Choose up to n spaces matching the card's condition; each runs the ``then`` steps."""

    @staticmethod
    def prompt(st, fr):
        s = fr["s"]
        chs = space_choices(pick_cands(st, fr), msg("Choose {space}"))
        if s.get("upto") or not chs:
            chs.append(C("done", msg("No more")))
        return (msg("{card}: {ask} ({count} left)", card=CARD_TITLE[fr["v"]["card"]], ask=ASK[s["ask"]] if s.get("ask") else ASK_SPACE,
                    count=s["n"] - len(fr["chosen"])), "5.1", chs)

    @staticmethod
    def auto(st, fr, facts):
        cands = pick_cands(st, fr)
        if len(fr["chosen"]) >= fr["s"]["n"] or not cands:
            pop(st, fr)
            return True
        if len(cands) > 1 or fr["s"].get("upto"):
            return False
        EvPick.act(st, fr, f"space:{IDS[cands[0]]}", facts)  # a forced selection needs no prompt
        return True

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "done":
            pop(st, fr)
            return
        i = sidx(cid)
        fr["chosen"].append(i)
        then = fr["s"].get("then", [])
        if then:
            v = dict(fr["v"])
            if v.get("here") is not None:
                v["outer"] = v["here"]
            v["here"] = i
            v["picked"] = fr["chosen"]
            push_child(st, fr, "ev", f=fr["v"]["f"], steps=then, pc=0, v=v)


@frame("eveach")
class EvEach:
    """Apply the ``then`` steps in every matching space (listed when the step started)."""

    @staticmethod
    def auto(st, fr, facts):
        if not fr["left"]:
            pop(st, fr)
            return
        i = fr["left"].pop(0)
        v = dict(fr["v"])
        v["here"] = i
        push_child(st, fr, "ev", f=fr["v"]["f"], steps=fr["s"]["then"], pc=0, v=v)


@frame("reppick")
class RepPick:
    """Card 54: which other Faction's Available Guerrilla replaces the removed one."""

    @staticmethod
    def prompt(st, fr):
        return (msg("Replace the removed Guerrilla in {space} with whose Guerrilla?", space=SN[fr['i']]), "card 54",
                [C(f"faction:{FACTIONS[g]}", msg("{faction} Guerrilla", faction=FN[g])) for g in fr["gs"] if st["av"][U(g)]])

    @staticmethod
    def act(st, fr, cid, facts):
        P.place(st, fr["i"], U(FACTIONS.index(target(cid))), 1, facts, fr["why"])
        pop(st, fr)


@frame("evfaction")
class EvFaction:
    """The executing Faction picks which Faction the Event affects."""

    @staticmethod
    def prompt(st, fr):
        chs = [C(f"faction:{w}", FN[FACTIONS.index(w)]) for w in fr["s"]["among"]]
        return (msg("{card}: which Faction?", card=CARD_TITLE[fr['v']['card']]), "5.1", chs)

    @staticmethod
    def act(st, fr, cid, facts):
        fr["v"]["x"] = FACTIONS.index(target(cid))
        # propagate to the parent script frame
        for f2 in reversed(st["stack"][:-1]):
            if f2["k"] == "ev":
                f2["v"]["x"] = fr["v"]["x"]
                break
        pop(st, fr)


@frame("evzone")
class EvZone:
    """6.4.4 by Event: the Government picks the Department; a FARC Base may follow."""

    @staticmethod
    def prompt(st, fr):
        return (msg("Government: FARC Zone in which Department?"), "6.4.4", space_choices(fr["cands"], msg("FARC Zone in {space}")))

    @staticmethod
    def auto(st, fr, facts):
        if len(fr["cands"]) != 1:
            return False
        EvZone.act(st, fr, f"space:{IDS[fr['cands'][0]]}", facts)   # a forced selection needs no prompt
        return True

    @staticmethod
    def act(st, fr, cid, facts):
        i = sidx(cid)
        why = msg("Event {card}", card=card_name(fr["card"]))
        place_zone(st, i, facts, why)
        if fr["s"].get("base"):
            P.place(st, i, FARC_BASE, 1, facts, why)
        for f2 in reversed(st["stack"][:-1]):
            if f2["k"] == "ev":
                f2["v"]["zone"] = i
                f2["v"]["here"] = i
                break
        pop(st, fr)


@frame("evsa")
class EvSa:
    """Free Special Activities granted by an Event (5.5), e.g. 3 Air Strikes."""

    @staticmethod
    def prompt(st, fr):
        s = fr["s"]
        chs = []
        kinds = ["airlift", "airstrike", "eradicate"] if s["sa"] == "any" else [s["sa"]]
        for k in kinds:
            ok = {"airlift": lambda: bool(airlift_from(st)),
                  "airstrike": lambda: not mom(st, 12) and bool(airstrike_spaces(st)),
                  "eradicate": lambda: bool(eradicate_spaces(st))}.get(k, lambda: False)()
            if ok:
                chs.append(C(f"sa:{k}", msg("Free {operation}", operation=OP_NAME[k])))
        chs.append(C("done", msg("No more")))
        return (msg("Free Special Activities ({left} left)", left=fr['left']), "5.5", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, fr["left"] <= 0)

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "done":
            pop(st, fr)
            return
        fr["left"] -= 1
        k = target(cid)
        push_child(st, fr, k, f=GOVT, ph="a", n=0, done=[], sel=[])
