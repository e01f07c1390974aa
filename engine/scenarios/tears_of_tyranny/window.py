"""The player window's step menu and the seats' own questions (rule 3; A-30).

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

import itertools

from engine.core.contract import Choice, ChoiceKind
from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.panel import (
    OP_WORDS,
    WINDOW_STEPS,
    forget_candidates,
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
    def _seat_choices(self, state: dict, seat: str):
        fr = state["frames"][seat][-1]
        k = fr["k"]
        pl = state["pl"][seat]
        K = ChoiceKind
        if k == "hq":
            ch = [_c(f"hq:{t}", msg("Headquarters in {tile}", tile=B.tname(t)), {"tile": t}, K.SPACE, "2.C", H["hq"],
                     {"tile": t}) for t in self.hq_candidates(state, seat)]
            return msg("Place your starting headquarters (two presence)."), "2.C", ch, "hq"
        if k == "presence":
            if fr.get("roll"):
                # a successful roll deploys the presence (Partisans panel): where is the player's call
                return (msg("Your d10 roll succeeded: place 1 presence within 1 of your presence; choose the tile "
                            "and the track row it uncovers."), "Partisans panel (3.A, A-44)",
                        self._presence_choices(state, seat, fr["range"]), "presence")
            ch = self._presence_choices(state, seat, fr["range"]) + [
                _c("skip", msg("Do not add presence"), {}, K.PASS, "3.A", H["no_presence"])]
            return msg("Add 1 presence: choose the tile and the track row it uncovers."), "3.A", ch, "presence"
        if k == "refit":
            opts = C.panels[seat]["refit"]["options"]
            used_groups = {o["group"] for o in opts if o["id"] in fr["picked"]}
            ch = []
            for o in opts:
                if o["group"] in used_groups or not self._refit_possible(state, seat, o):
                    continue
                ch.append(_c(f"refit:{o['id']}", self._refit_label(o), {"option": o["id"]}, K.OPTION, "3.A", H["refit"],
                             {"option": o["id"]}))
            if not ch:
                ch = [_c("skip", msg("No refit option is possible"), {}, K.PASS, "3.A", H["no_refit"])]
            if C.panels[seat]["refit"]["picks"] == 2:
                return msg("Refit: choose two different options."), "3.A", ch, "refit"
            return msg("Refit: choose one option."), "3.A", ch, "refit"
        if k == "deck":
            ch = [_c(f"deck:{d}", msg("Draw 4 from the {deck} deck ({n} cards left)", deck=T.DECK[d],
                                      n=len(state["decks"][d])), {"deck": d}, K.OPTION, "3.A", H["deck"], {"deck": d})
                  for d in ("major", "minor") if state["decks"][d]]
            return (msg("Gain capability: which deck do you draw from? Major cards are stronger, but keeping one "
                        "means forgetting another card (1.F)."), "3.A",
                    ch or [_c("skip", msg("Both decks are empty"), {}, K.PASS, "3.A", H["no_deck"])], "deck")
        if k == "keep":
            # secret: the drawn cards are private (the draw fact is visible_to the seat), so is the pick
            ch = [_c(f"keep:{c}", _card_label("keep", c), {"card": c, "secret": True}, K.CARD, "3.A",
                     _card_help(H["keep"], c), {"card": c}) for c in fr["drawn"]]
            return (msg("Keep one of the drawn cards; you then return the rest to the bottom of the deck in the "
                        "order you choose."), "3.A", ch, "keep")
        if k == "steps":
            return self._steps_prompt(state, seat, fr)
        if k == "bottom":
            # secret: which cards were drawn is private (the draw fact is visible to the seat only)
            # issue 16.7: the whole order in one step, the drawn order first (the default)
            ch = []
            for i, order in enumerate(itertools.permutations(fr["cards"])):
                names = [T.CARD_TITLE[c] for c in order]
                ch.append(_c("order:" + ",".join(order),
                             (msg("Drawn order (default): {cards}", cards=names) if i == 0
                              else msg("This order: {cards}", cards=names)),
                             {"cards": list(order), "secret": True}, K.OPTION, "3.A", H["order"],
                             {"cards": list(order)}))
            return (msg("Return the unkept cards to the bottom of the {deck} deck: in which order? (The first one goes "
                        "under first, so it is drawn first of them.)", deck=T.DECK[fr["deck"]]), "3.A", ch, "bottom")
        if k == "forget":
            cands = forget_candidates(pl, fr["kept"])
            # secret (1.F): the hand is hidden, so which card is forgotten is the player's own
            ch = [_c(f"forget:{c}", (_card_label("forget", c) if c in pl["hand"] else _card_label("forget_spent", c)),
                     {"card": c, "secret": True}, K.CARD, "1.F", _card_help(H["forget"], c), {"card": c}) for c in cands]
            return (msg("You kept a major card: forget one other card from your hand (1.F, 3.A).")
                    if any(c in pl["hand"] for c in cands) else
                    msg("You kept a major card: your hand holds no other card, so forget a spent card.")), "1.F", ch, "forget"
        if k == "reclaim":
            ch = [_c(f"reclaim:{c}", _card_label("reclaim", c), {"card": c}, K.CARD, "3.A",
                     _card_help(H["reclaim"], c), {"card": c}) for c in pl["discard"]]
            ch.append(_c("skip", msg("Reclaim nothing"), {}, K.PASS, "3.A", H["no_reclaim"]))
            return msg("Reclaim one spent card to your hand."), "3.A", ch, "reclaim"
        if k == "base_g":
            ch = [_c(f"base_g:{t}", msg("1 guerrilla at your base in {tile}", tile=B.tname(t)), {"tile": t}, K.SPACE,
                     "3.A", H["base_g"], {"tile": t}) for t in self._own_bases(state, seat)]
            return (msg("Gain 1 guerrilla at one of your bases."), "3.A",
                    ch or [_c("skip", msg("No base"), {}, K.PASS, "3.A", H["no_base"])], "base_g")
        if k == "fm":
            ch = self._fm_choices(state, seat, fr.get("only"))
            if fr.get("only"):
                ch.append(_c("done", msg("Done recruiting"), {}, K.DONE, "3.C", H["done_recruit"]))
            else:
                ch.append(_c("skip", msg("No force management"), {}, K.PASS, "3.C", H["no_fm"]))
            return (msg("Force management: recruit, build a base or convert (one action; {resources} left).",
                        resources=T.count(pl["res"], "resource")), "3.C", ch, "force_management")
        if k == "burden":
            ch = []
            for tid in self._burden_tiles(state, seat):
                extra = state["tiles"][tid]["gs"][seat] - 4 - pl.get("upkept", {}).get(tid, 0)
                over = T.count(extra, "guerrilla")
                ch.append(_c(f"upkeep:{tid}", msg("Pay 1 resource to keep a guerrilla in {tile} ({gs} of yours there "
                                                  "beyond the 4 the population feeds for free)", tile=B.tname(tid),
                                                  gs=over), {"tile": tid}, K.SPACE, "A-46", H["upkeep"], {"tile": tid},
                             {"resources": 1}))
                ch.append(_c(f"disband:{tid}", msg("Disband a guerrilla in {tile} ({gs} of yours there beyond the 4 "
                                                   "the population feeds for free)", tile=B.tname(tid), gs=over),
                             {"tile": tid}, K.PIECE, "A-46", H["disband"], {"tile": tid}))
            return (msg("Too many guerrillas burden the population: pay or disband each guerrilla over 4 ({resources} "
                        "left).", resources=T.count(pl["res"], "resource")), "1.D guerrillas (A-46)", ch, "burden")
        if k == "produce":
            ch = self._produce_choices(state, seat, fr) + [
                _c("done", msg("No more base output"), {}, K.DONE, "1.D", H["no_produce"])]
            return (msg("Base output: take guerrillas from your bases, one at a time, as many as you want "
                        "(1.D Guerrilla Base: can, but need not)."), "1.D (A-42)", ch, "produce")
        if k == "lpull":
            ch = [_c(f"into:{n}", msg("Pull the new guerrilla from {src} into {tile}", src=B.tname(fr["tile"]),
                                      tile=B.tname(n)), {"from": fr["tile"], "tile": n}, K.SPACE, "A-48", H["into"],
                     {"from": fr["tile"], "tile": n}) for n in self._lpull_targets(state, fr["tile"])]
            ch.append(_c("skip", msg("Leave it where it was recruited"), {}, K.PASS, "A-48", H["stay"]))
            return (msg("Your guerrilla was recruited next to your presence: you may pull it into a tile with your "
                        "presence."), "Liberators panel (A-48)", ch, "recruit_pull")
        if k == "select":
            ch = []
            limit = plays_limit(pl, seat)
            if len(pl["played"]) < limit:
                for c in pl["hand"]:
                    card = C.cards[c]
                    if card["cost"] <= pl["res"]:
                        ch.append(_c(f"play:{c}", _card_label("play", c), {"card": c}, K.CARD, "3.D",
                                     _card_help(H["play"], c), {"card": c}, {"resources": card["cost"]} if card["cost"] else None))
            ch.append(_c("done", msg("Done selecting capabilities"), {}, K.DONE, "3.D", H["done_select"]))
            return (msg("Select capabilities and pay for them ({played}, {resources} left).",
                        played=_played(pl, limit), resources=T.count(pl["res"], "resource")), "3.D", ch, "select")
        if k == "exec":
            # each seat closes its own part of the window with "done", even with nothing left to
            # execute: the window (and the adversary phase after it) waits for every seat (3)
            ch = self._exec_choices(state, seat, fr["speed"])
            imm = fr["speed"] == "immediate"
            rule = "phase 2" if imm else "phase 4"
            if ch:
                done = msg("Done with this phase")
            else:
                done = msg("Done: nothing immediate left to execute") if imm else msg(
                    "Done: nothing long-term left to execute")
            ch.append(_c("done", done, {}, K.DONE, rule, H["done_exec"]))
            if len(ch) > 1:
                text = msg("Execute your immediate capabilities.") if imm else msg("Execute your long-term capabilities.")
            else:
                text = (msg("Nothing immediate is left for you to execute: say done when you are ready (the phase "
                            "ends when every player is done).") if imm else
                        msg("Nothing long-term is left for you to execute: say done when you are ready (the phase "
                            "ends when every player is done)."))
            return msg("{text} {situation}", text=text, situation=self.situation(state)), rule, ch, "execute"
        if k == "target":
            ch = [_c(f"tile:{t}", self._tile_label(state, t), {"tile": t}, K.SPACE, "1.F", self._target_help(fr),
                     {"tile": t}) for t in self._target_tiles(state, seat, fr)]
            ch.append(_c("decline", msg("Do not execute it"), {}, K.PASS, "1.F", H["decline"]))
            return (msg("Choose the target tile for {capability}: {effect}", capability=fr["label"],
                        effect=self._target_help(fr)), "1.F", ch, "target")
        if k == "effect":
            if fr.get("drive"):
                return (msg("{label}: drive {unit} out of {tile}: into which neighbouring tile?", label=fr["label"],
                            unit=T.A_PIECE[fr["drive"][0][0]], tile=B.tname(fr["tile"])), "Advisors panel (A-28)",
                        self._drive_choices(state, fr), "drive")
            if fr.get("civ"):
                return (msg("{label}: collateral damage in {tile} kills {civilians} more; choose who is hit next.",
                            label=fr["label"], tile=B.tname(fr["tile"]), civilians=T.count(fr["civ"], "civilian")),
                        "1.G collateral (A-25)", self._civ_choices(state, fr), "collateral")
            if fr.get("alloc"):
                return (msg("{label}: assign {n} damage to the adversary units in {tile}.", label=fr["label"],
                            n=fr["alloc"], tile=B.tname(fr["tile"])),
                        "1.G combat (A-57)", self._alloc_choices(state, fr), "allocate")
            op = fr["ops"][fr["i"]]
            ch = self._op_choices(state, seat, fr, op)
            return (msg("{label} in {tile}: {what} ({moved} of up to {n} done; stop whenever you like).",
                        label=fr["label"], tile=B.tname(fr["tile"]), what=OP_WORDS.get(op["op"]) or msg(op["op"]),
                        moved=fr.get("moved", 0), n=op.get("n", 1)), "1.F", ch, op["op"])
        raise AssertionError(k)  # pragma: no cover

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
