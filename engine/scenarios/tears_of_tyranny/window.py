"""The player window's step menu (rule 3; A-30) and the words of the seats' own questions.

The questions themselves (prompt = legality) are declared in ``frames.py``; this module holds
the step menu, the situation line (issue 16.8) and the shared labels and help of choices.

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core.contract import Choice, ChoiceKind
from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.panel import (
    WINDOW_STEPS,
    income,
    plays_limit,
)

C = content()


#: help sentences, one shared message each (a Choice is frozen; a message is never mutated)
H = {
    "hq": msg("Your first two presence go here: an HQ, from which your capabilities and refit reach out (2.C)."),
    "presence": msg("Adds 1 presence to this tile and uncovers the next circle of the chosen row of your panel "
                    "(3.A)."),
    "no_presence": msg("Adds no presence this time."),
    "refit": msg("Takes this refit option of your panel; its parts are carried out in order (3.A)."),
    "no_refit": msg("No option of your panel can be carried out now: the refit passes."),
    "deck": msg("Draws 4 cards from this deck; you keep one and return the others to its bottom (3.A)."),
    "no_deck": msg("Both capability decks are empty: nothing to draw."),
    "keep": msg("This card goes to your hand; the others go back under the deck (3.A)."),
    "order": msg("The unkept cards go under the deck in this order; the first one is drawn first of them (3.A)."),
    "forget": msg("This card leaves your hand (or your spent cards) for the bottom of its deck (1.F)."),
    "reclaim": msg("This spent card returns to your hand (3.A)."),
    "no_reclaim": msg("Keeps your spent cards where they are."),
    "base_g": msg("Adds 1 of your guerrillas at this base (3.A)."),
    "no_base": msg("You have no base: nothing to gain."),
    "recruit": msg("Places 1 of your guerrillas in this tile (3.C)."),
    "base": msg("Builds a guerrilla base in this tile; one of your guerrillas there holds it for good (3.C, A-42)."),
    "convert": msg("Turns 1 red civilian in this tile blue (3.C)."),
    "no_fm": msg("Takes no force management action this turn (3.C)."),
    "done_recruit": msg("Stops recruiting; the recruits not placed are lost."),
    "upkeep": msg("Pays 1 resource so this guerrilla stays (A-46)."),
    "disband": msg("Removes this guerrilla instead of paying for it (A-46)."),
    "produce": msg("Takes 1 guerrilla from this base (1.D, A-42)."),
    "no_produce": msg("Takes no more guerrillas from your bases this turn."),
    "into": msg("Moves the new guerrilla next door into this tile with your presence (A-48)."),
    "stay": msg("The new guerrilla stays where it was recruited."),
    "play": msg("Pays the card's cost and plays it this turn; its attributes count at once (3.D, A-31)."),
    "done_select": msg("Stops selecting capability cards for this turn."),
    "done_exec": msg("Closes your part of this phase; the phase ends when every player is done (3)."),
    "decline": msg("The capability is spent without effect."),
    "step": msg("Takes this step of your player window now; the others stay open (3)."),
    "done_window": msg("Closes your player window; the adversary phase waits until every player is done (3)."),
}


def _c(cid, label, payload, kind, rule, help, targets=None, cost=None):
    return Choice(cid, label, payload, kind=kind, targets=targets or {}, cost=cost, rule=rule, help=help)


class WindowMixin:
    @staticmethod
    def _target_help(fr):
        """What the capability being executed will do to the tile chosen (issue 16.8)."""
        src = fr["src"]
        if src in C.cards:
            return T.CARD_TEXT[src]
        return T.describe_cap(fr["ops"]) if fr["ops"] else msg("No effect.")

    def _step_open(self, state, seat, fr, step) -> bool:
        """Whether ``step`` is still on offer: refit, income, output and force management once a
        turn; selecting as long as a card can still be paid for (and played)."""
        pl = state["pl"][seat]
        if step == "select":
            return len(pl["played"]) < plays_limit(pl, seat) and any(C.cards[c]["cost"] <= pl["res"] for c in pl["hand"])
        if step in fr["taken"]:
            return False
        if step == "roll":
            return bool(C.panels[seat]["refit"]["roll"])
        if step == "refit" and C.panels[seat]["refit"]["roll"] and "roll" not in fr["taken"]:
            return False     # Partisans panel: "every turn prior to refit they roll a die" (1.E)
        if step == "produce":
            return bool(C.panels[seat]["base_output"]) and bool(self._produce_choices(state, seat, {"made": {}}))
        if step == "fm":
            return C.panels[seat]["force_management"]["phase"] == "window" and self._fm_possible(state, seat)
        return True

    def _steps_prompt(self, state, seat, fr):
        pl = state["pl"][seat]
        K = ChoiceKind
        ch = [_c(f"step:{st}", self._step_label(state, seat, pl, st), {"step": st}, K.OPERATION, STEP_RULE[st],
                 STEP_HELP[st], {"step": st})
              for st in WINDOW_STEPS if self._step_open(state, seat, fr, st)]
        ch += self._exec_choices(state, seat, "immediate")
        if "refit" in fr["taken"]:
            ch.append(_c("done", msg("Done with the player window") if "income" in fr["taken"] else
                         msg("Done with the player window (your resources, 3.B, are gained first)"), {}, K.DONE, "3",
                         H["done_window"]))
        todo = [st for st in ("roll", "refit", "income") if st not in fr["taken"]
                and (st != "roll" or C.panels[seat]["refit"]["roll"])]
        parts = [WINDOW_TEXT]
        if todo:
            parts.append(msg("Still to do: {steps}.", steps=[TODO[st] for st in todo]))
        if "roll" in todo:
            parts.append(msg("Roll the d10 before you refit (Partisans panel)."))
        if "refit" in todo:
            parts.append(msg("Done is offered once you have refitted (3.A)."))
        parts.append(self.situation(state))
        return _sentences(parts), "3", ch, "steps"

    def _step_label(self, state, seat, pl, st):
        """A step of the player window's menu in words, with what it gives now (issue 16.8)."""
        if st == "income":
            inc = income(pl, seat)
            infra = sum(1 for tid in state["order"] if C.tiles[tid]["infrastructure"] and self.controls(state, seat, tid))
            if infra:
                return msg("Gain resources (3.B): +{income} from your panel's income row, +{infra} from infrastructure "
                           "tiles you control", income=inc, infra=infra)
            return msg("Gain resources (3.B): +{income} from your panel's income row", income=inc)
        if st == "select":
            return msg("Select and pay capabilities (3.D): {played}, {resources} left",
                       played=_played(pl, plays_limit(pl, seat)), resources=T.count(pl["res"], "resource"))
        if st == "refit":
            return STEP_LABEL["refit2"] if C.panels[seat]["refit"]["picks"] == 2 else STEP_LABEL["refit1"]
        return STEP_LABEL[st]

    def situation(self, state: dict):
        """Issue 16.8: what the turn's decisions are about, in one paragraph: how close the map is
        to the state of tyranny (3.D) and the tiles the adversary will dominate this turn with
        their strength (3.F: 2 or more places tyranny), read from the card in the dominate box."""
        on_map = B.tyranny_on_map(state)
        th = B.threshold(state)
        if on_map >= th:
            parts = [msg("Tyranny: {tokens} on the map; the state of tyranny is reached (threshold {threshold}, "
                         "3.D): the next event is drawn in it. {pool} left in the pool (all placed: the players "
                         "lose, 4).", tokens=T.count(on_map, "tyranny token"), threshold=th, pool=state["tyr_pool"])]
        else:
            parts = [msg("Tyranny: {tokens} on the map; {more} more and the next event is drawn in the state of "
                         "tyranny (threshold {threshold}, 3.D). {pool} left in the pool (all placed: the players "
                         "lose, 4).", tokens=T.count(on_map, "tyranny token"), more=th - on_map, threshold=th,
                         pool=state["tyr_pool"])]
        if state["boxes"]["dominate"]:
            doms = []
            for tid in ADV.card_tiles(state, state["boxes"]["dominate"]):
                t = state["tiles"][tid]
                if not t["u"]:
                    continue
                if "dominate" in t["prev"]:
                    doms.append(msg("{tile} (prevented this turn)", tile=B.tname(tid)))
                    continue
                st = ADV.dominate_strength(state, tid)
                if st >= 2:
                    doms.append(msg("{tile} with strength {n} (places tyranny and removes presence)",
                                    tile=B.tname(tid), n=st))
                elif st == 1:
                    doms.append(msg("{tile} with strength {n} (attacks the guerrillas there)", tile=B.tname(tid), n=st))
                else:
                    doms.append(msg("{tile} with strength {n} (does nothing)", tile=B.tname(tid), n=st))
            if doms:
                parts.append(msg("The adversary dominates this turn (3.F): {tiles}.", tiles=_semi(doms)))
            else:
                parts.append(msg("The adversary dominates this turn (3.F): no tile with adversary units."))
        return _sentences(parts)

    def _tile_label(self, state: dict, tid: str):
        """A target tile as the decision needs it (issue 16.8): its name, what stands there, and
        whether the adversary dominates it this turn and with what strength."""
        t = state["tiles"][tid]
        bits = []
        if t["u"]:
            bits.append(msg("units: {units}", units=B.units_text(t["u"])))
        if t["blue"] or t["red"]:
            bits.append(msg("{blue} blue, {red} red civilians", blue=t["blue"], red=t["red"]))
        if t["tyr"]:
            bits.append(msg("under tyranny"))
        bits.append(msg("defense {n}", n=B.tile_defense(state, tid)))
        dom = state["boxes"]["dominate"]
        if dom and t["u"] and tid in ADV.card_tiles(state, dom) and "dominate" not in t["prev"]:
            bits.append(msg("dominated this turn with strength {n}", n=ADV.dominate_strength(state, tid)))
        return msg("{tile}: {details}", tile=B.tname(tid), details=_semi(bits))


_CARD_HELP: dict = {}
_CARD_LABEL: dict = {}


def _card_label(kind: str, cid: str):
    """The label of a card choice (a card is chosen with its full line, issue 16.6). Built once."""
    m = _CARD_LABEL.get((kind, cid))
    if m is None:
        line = T.card_line(cid)
        if kind == "keep":
            m = msg("Keep {card}", card=line)
        elif kind == "forget":
            m = msg("Forget {card}", card=line)
        elif kind == "forget_spent":
            m = msg("Forget {card} (spent)", card=line)
        elif kind == "reclaim":
            m = msg("Reclaim {card}", card=line)
        else:
            m = msg("Play {card}", card=line)
        _CARD_LABEL[(kind, cid)] = m
    return m


def _card_help(what, cid: str):
    """A card choice's help: what choosing it does, then what the card does (issue 16.6). Built once."""
    key = (id(what), cid)
    m = _CARD_HELP.get(key)
    if m is None:
        m = _CARD_HELP[key] = msg("{what} The card: {text}", what=what, text=T.CARD_TEXT[cid])
    return m


def _semi(items: list):
    out = items[0]
    for m in items[1:]:
        out = msg("{a}; {b}", a=out, b=m)
    return out


def _sentences(parts: list):
    out = parts[0]
    for m in parts[1:]:
        out = msg("{a} {b}", a=out, b=m)
    return out


def _played(pl: dict, limit: int):
    if limit >= 99:
        return msg("{n} played, no limit", n=len(pl["played"]))
    return msg("{n} of {limit} played", n=len(pl["played"]), limit=limit)


WINDOW_TEXT = msg("Player window: choose your next step, in the order you like (3); execute immediate capabilities "
                  "whenever they are paid for.")
STEP_LABEL = {
    "roll": msg("Roll the d10 for presence (Partisans panel, before refit): 6-10 adds 1 presence"),
    "refit1": msg("Refit (3.A): choose one option"),
    "refit2": msg("Refit (3.A): choose two different options"),
    "produce": msg("Base output (1.D): take guerrillas from your bases"),
    "fm": msg("Force management (3.C): recruit, build a base or convert"),
}
STEP_RULE = {"roll": "Partisans panel (A-09)", "refit": "3.A", "income": "3.B", "produce": "1.D", "fm": "3.C",
             "select": "3.D"}
STEP_HELP = {
    "roll": msg("Rolls the d10 now: on 6 or more you place 1 presence within 1 of yours."),
    "refit": msg("Opens your panel's refit options: cards, presence, resources or guerrillas (3.A)."),
    "income": msg("Adds your income to your resources (3.B)."),
    "produce": msg("Takes new guerrillas from your bases, one at a time (1.D)."),
    "fm": msg("One force management action of your panel: recruit, build a base or convert (3.C)."),
    "select": msg("Pays for capability cards from your hand, to execute them this turn (3.D)."),
}
TODO = {"roll": msg("roll"), "refit": msg("refit"), "income": msg("gain resources")}
