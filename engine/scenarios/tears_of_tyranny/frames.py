"""The states table of Tears of Tyranny: every pending step declared once as a ``FrameKind``.

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
flow on ``engine/core``'s protocol, as in Peru and Andean Abyss). ToT is cooperative and
simultaneous, so it runs two :class:`engine.core.flow.Flow` over named stacks (and a third, the
sequence of play's automatic steps, in ``turn_flow.py``):

- :attr:`seat_flow`: each seat's own stack ``state["frames"][seat]`` (the player window, the
  long-term phase); the stack's name is the seat. A kind's ``ask`` is its prompt *and* its
  legality (``Rules.validate`` accepts exactly the choices it lists), ``act`` applies a choice,
  and ``auto`` (an entry step) pops a frame that has nothing left to ask, so a seat never waits at
  an empty question: gain resources (3.B) is a purely automatic kind;
- :attr:`team_flow`: the team-wide questions ``state["g"]`` raised in the adversary phase or by
  an effect (escalation by consensus 3.F/A-13, the counterattack, the Partisans' HQ shield A-51,
  event recruits 1.I, influence debt 1.H, a returned presence's circle A-44); the name passed is
  the seat answering. While one is open no seat acts. Their ``ask``/``act`` live in
  ``escalation.py``, the seats' below.

Every ToT kind is ``never_empty``: each question offers a pass or ``done``, or its ``auto``
entry step pops it when nothing is left (the flow never builds a prompt just to check; speed).

Causes. An ``act`` leaves its facts' causes to :meth:`TearsOfTyranny.apply_unchecked`, which
gives the seat's decision (a die roll's facts the die's) after the steps the decision set off
have run; facts of an automatic step of the sequence of play are caused by their kind's rule
(``turn_flow.play_flow``). ``_check_end`` (4, A-53) runs after every answer (``game._apply_one``).
"""

from __future__ import annotations

import itertools
from functools import cached_property

from engine.core.contract import ChoiceKind
from engine.core.flow import Ask, Flow, FrameKind
from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.panel import (
    OP_WORDS,
    forget_candidates,
    has_reclaim_circle,
    income,
    plays_limit,
)
from engine.scenarios.tears_of_tyranny.window import H, _c, _card_help, _card_label, _played

C = content()
GAIN_RESOURCES = msg("gain resources (3.B)")
BASE_OUTPUT = msg("base output")


def _seat_stack(state: dict, seat: str) -> list:
    return state["frames"][seat]


def _end_unless(state: dict, seat: str, waiting) -> bool:
    """A seat frame's ``auto`` entry step: the frame waits for its decision while ``waiting`` (a
    truth value: something is left to decide) - False; else it ends here (popped) - True."""
    if waiting:
        return False
    state["frames"][seat].pop()
    return True


def _team_stack(state: dict, seat) -> list:
    return state["g"]


def _over(state: dict) -> bool:
    return state["result"] is not None


class FramesMixin:
    # ---- the two flows -----------------------------------------------------------------------
    @cached_property
    def seat_flow(self) -> Flow:
        """Each seat's own stack (its name: the seat)."""
        K = FrameKind
        return Flow([
            K("hq", ask=self._hq_ask, act=self._hq_act, never_empty=True),
            K("steps", ask=self._steps_ask, act=self._steps_act, never_empty=True),
            K("income", auto=self._income_auto),
            K("presence", ask=self._presence_ask, act=self._presence_act, auto=self._presence_auto,
              never_empty=True),
            K("refit", ask=self._refit_ask, act=self._refit_act, never_empty=True),
            K("reclaim", ask=self._reclaim_ask, act=self._reclaim_act, auto=self._reclaim_auto, never_empty=True),
            K("deck", ask=self._deck_ask, act=self._deck_act, auto=self._deck_auto, never_empty=True),
            K("keep", ask=self._keep_ask, act=self._keep_act, never_empty=True),
            K("bottom", ask=self._bottom_ask, act=self._bottom_act, never_empty=True),
            K("forget", ask=self._forget_ask, act=self._forget_act, auto=self._forget_auto, never_empty=True),
            K("base_g", ask=self._base_g_ask, act=self._base_g_act, never_empty=True),
            K("produce", ask=self._produce_ask, act=self._produce_act, auto=self._produce_auto, never_empty=True),
            K("fm", ask=self._fm_ask, act=self._fm_act, auto=self._fm_auto, never_empty=True),
            K("lpull", ask=self._lpull_ask, act=self._lpull_act, never_empty=True),
            K("select", ask=self._select_ask, act=self._select_act, auto=self._select_auto, never_empty=True),
            K("exec", ask=self._exec_ask, act=self._exec_act, never_empty=True),
            K("target", ask=self._target_ask, act=self._target_act, auto=self._target_auto, never_empty=True),
            K("effect", ask=self._effect_ask, act=self._effect_act, auto=self._effect_auto, never_empty=True),
            K("burden", ask=self._burden_ask, act=self._burden_act, auto=self._burden_auto, never_empty=True),
        ], done=_over, stack=_seat_stack)

    @cached_property
    def team_flow(self) -> Flow:
        """The team-wide questions (its name: the seat answering)."""
        K = FrameKind
        return Flow([
            K("cover", ask=self._cover_ask, act=self._cover_act, never_empty=True),
            K("escalate", ask=self._escalate_ask, act=self._escalate_act, never_empty=True),
            K("esc_confirm", ask=self._esc_confirm_ask, act=self._esc_confirm_act, never_empty=True),
            K("counterattack", ask=self._counterattack_ask, act=self._counterattack_act, never_empty=True),
            K("event_recruit", ask=self._event_recruit_ask, act=self._event_recruit_act, never_empty=True),
            K("influence_debt", ask=self._influence_debt_ask, act=self._influence_debt_act, never_empty=True),
            K("shield", ask=self._shield_ask, act=self._shield_act, never_empty=True),
        ], done=_over, stack=_team_stack)

    # ---- set-up: the starting HQ (2.C) -------------------------------------------------------
    def _hq_ask(self, state, seat, fr):
        ch = [_c(f"hq:{t}", msg("Headquarters in {tile}", tile=B.tname(t)), {"tile": t}, ChoiceKind.SPACE, "2.C",
                 H["hq"], {"tile": t}) for t in self.hq_candidates(state, seat)]
        return _ask(seat, msg("Place your starting headquarters (two presence)."), "2.C", ch, "hq")

    def _hq_act(self, state, seat, fr, cid, facts):
        state["frames"][seat].pop()
        tid = cid.partition(":")[2]
        state["tiles"][tid]["pres"][seat] = 2
        B.add_fact(facts, "presence", msg("The {seat} set up their headquarters in {tile}.", seat=T.SEAT[seat],
                                          tile=B.tname(tid)), seat=seat, tile=tid, delta=2,
                   deltas=B.pres_deltas(seat, 0, 2))

    # ---- the player window's step menu (3, A-30) ---------------------------------------------
    def _steps_ask(self, state, seat, fr):
        text, rule, ch, kind = self._steps_prompt(state, seat, fr)
        return _ask(seat, text, rule, ch, kind)

    def _steps_act(self, state, seat, fr, cid, facts):
        stack = state["frames"][seat]
        head, _, rest = cid.partition(":")
        if head == "done":
            stack.pop()
            if "income" not in fr["taken"]:
                stack.append({"k": "income"})     # 3.B: every player gains resources
        elif head == "step":
            fr["taken"].append(rest)
            if rest == "roll":
                self._partisan_roll(state, seat, facts)
            elif rest == "refit":
                stack.append({"k": "refit", "picked": []})
                if has_reclaim_circle(state["pl"][seat], seat) and state["pl"][seat]["discard"]:
                    stack.append({"k": "reclaim"})   # at the start of refit
            else:
                stack.append({"k": rest} if rest != "produce" else {"k": "produce"})
        else:
            self._start_exec(state, seat, "immediate", head, rest)

    def _income_auto(self, state, seat, fr, facts):
        """3.B Gain resources: the panel's income row plus 1 per infrastructure tile controlled."""
        state["frames"][seat].pop()
        pl = state["pl"][seat]
        inc = income(pl, seat)
        infra = sum(1 for tid in state["order"] if C.tiles[tid]["infrastructure"] and self.controls(state, seat, tid))
        pl["res"] += inc + infra
        B.add_fact(facts, "track", (msg("The {seat} gain {resources} and {infra} from infrastructure.",
                                        seat=T.SEAT[seat], resources=T.count(inc, "resource"), infra=infra)
                                    if infra else
                                    msg("The {seat} gain {resources}.", seat=T.SEAT[seat],
                                        resources=T.count(inc, "resource"))),
                   seat=seat, track="resources", delta=inc + infra, value=pl["res"], cause=GAIN_RESOURCES,
                   deltas={f"resources_{seat}": inc + infra})

    # ---- refit (3.A) and its parts -----------------------------------------------------------
    def _presence_ask(self, state, seat, fr):
        if fr.get("roll"):
            # a successful roll deploys the presence (Partisans panel): where is the player's call
            return _ask(seat, msg("Your d10 roll succeeded: place 1 presence within 1 of your presence; choose the tile "
                                  "and the track row it uncovers."), "Partisans panel (3.A, A-44)",
                        self._presence_choices(state, seat, fr["range"]), "presence")
        ch = self._presence_choices(state, seat, fr["range"]) + [
            _c("skip", msg("Do not add presence"), {}, ChoiceKind.PASS, "3.A", H["no_presence"])]
        return _ask(seat, msg("Add 1 presence: choose the tile and the track row it uncovers."), "3.A", ch, "presence")

    def _presence_auto(self, state, seat, fr, facts):
        return _end_unless(state, seat, self._presence_choices(state, seat, fr["range"]))

    def _presence_act(self, state, seat, fr, cid, facts):
        state["frames"][seat].pop()
        head, _, rest = cid.partition(":")
        if head == "presence":
            tid, row = rest.split(":")
            self._add_presence(state, seat, tid, row, facts)

    def _refit_ask(self, state, seat, fr):
        opts = C.panels[seat]["refit"]["options"]
        used_groups = {o["group"] for o in opts if o["id"] in fr["picked"]}
        ch = []
        for o in opts:
            if o["group"] in used_groups or not self._refit_possible(state, seat, o):
                continue
            ch.append(_c(f"refit:{o['id']}", self._refit_label(o), {"option": o["id"]}, ChoiceKind.OPTION, "3.A",
                         H["refit"], {"option": o["id"]}))
        if not ch:
            ch = [_c("skip", msg("No refit option is possible"), {}, ChoiceKind.PASS, "3.A", H["no_refit"])]
        if C.panels[seat]["refit"]["picks"] == 2:
            return _ask(seat, msg("Refit: choose two different options."), "3.A", ch, "refit")
        return _ask(seat, msg("Refit: choose one option."), "3.A", ch, "refit")

    def _refit_act(self, state, seat, fr, cid, facts):
        stack = state["frames"][seat]
        head, _, rest = cid.partition(":")
        if head == "skip":
            stack.pop()
            return
        o = next(x for x in C.panels[seat]["refit"]["options"] if x["id"] == rest)
        fr["picked"].append(rest)
        B.add_fact(facts, "refit", msg("The {seat} take a refit option. {option}.", seat=T.SEAT[seat],
                                       option=self._refit_label(o)), seat=seat, option=rest)
        if len(fr["picked"]) >= C.panels[seat]["refit"]["picks"]:
            stack.pop()
        for part in reversed(o["parts"]):
            self._push_refit_part(state, seat, part, facts)

    def _reclaim_ask(self, state, seat, fr):
        pl = state["pl"][seat]
        ch = [_c(f"reclaim:{c}", _card_label("reclaim", c), {"card": c}, ChoiceKind.CARD, "3.A",
                 _card_help(H["reclaim"], c), {"card": c}) for c in pl["discard"]]
        ch.append(_c("skip", msg("Reclaim nothing"), {}, ChoiceKind.PASS, "3.A", H["no_reclaim"]))
        return _ask(seat, msg("Reclaim one spent card to your hand."), "3.A", ch, "reclaim")

    def _reclaim_auto(self, state, seat, fr, facts):
        return _end_unless(state, seat, state["pl"][seat]["discard"])

    def _reclaim_act(self, state, seat, fr, cid, facts):
        state["frames"][seat].pop()
        head, _, rest = cid.partition(":")
        if head == "reclaim":
            pl = state["pl"][seat]
            pl["discard"].remove(rest)
            pl["hand"].append(rest)
            B.add_fact(facts, "reclaim", msg("The {seat} reclaim {card}.", seat=T.SEAT[seat],
                                             card=T.CARD_TITLE[rest]), seat=seat, card=rest)

    def _deck_ask(self, state, seat, fr):
        ch = [_c(f"deck:{d}", msg("Draw 4 from the {deck} deck ({n} cards left)", deck=T.DECK[d],
                                  n=len(state["decks"][d])), {"deck": d}, ChoiceKind.OPTION, "3.A", H["deck"],
                 {"deck": d})
              for d in ("major", "minor") if state["decks"][d]]
        return _ask(seat, msg("Gain capability: which deck do you draw from? Major cards are stronger, but keeping one "
                              "means forgetting another card (1.F)."), "3.A",
                    ch or [_c("skip", msg("Both decks are empty"), {}, ChoiceKind.PASS, "3.A", H["no_deck"])], "deck")

    def _deck_auto(self, state, seat, fr, facts):
        return _end_unless(state, seat, state["decks"]["major"] or state["decks"]["minor"])

    def _deck_act(self, state, seat, fr, cid, facts):
        stack = state["frames"][seat]
        stack.pop()
        head, _, rest = cid.partition(":")
        if head != "deck":
            return
        deck = state["decks"][rest]
        drawn = deck[:4]
        del deck[:4]
        facts.append({"type": "draw", "text": msg("The {seat} draw {cards}.", seat=T.SEAT[seat],
                                                  cards=[T.CARD_TITLE[c] for c in drawn]),
                      "seat": seat, "cards": drawn, "barrier": True, "visible_to": [seat],
                      "public": {"type": "draw", "text": msg("The {seat} draw {cards} from the {deck} deck.",
                                                             seat=T.SEAT[seat], cards=T.count(len(drawn), "card"),
                                                             deck=T.DECK[rest]),
                                 "seat": seat, "barrier": True}})
        if drawn:
            stack.append({"k": "keep", "drawn": drawn, "deck": rest, "n": fr["n"]})

    def _keep_ask(self, state, seat, fr):
        # secret: the drawn cards are private (the draw fact is visible_to the seat), so is the pick
        ch = [_c(f"keep:{c}", _card_label("keep", c), {"card": c, "secret": True}, ChoiceKind.CARD, "3.A",
                 _card_help(H["keep"], c), {"card": c}) for c in fr["drawn"]]
        return _ask(seat, msg("Keep one of the drawn cards; you then return the rest to the bottom of the deck in the "
                              "order you choose."), "3.A", ch, "keep")

    def _keep_act(self, state, seat, fr, cid, facts):
        stack = state["frames"][seat]
        pl = state["pl"][seat]
        rest = cid.partition(":")[2]
        stack.pop()
        fr["drawn"].remove(rest)
        pl["hand"].append(rest)
        B.add_fact(facts, "keep", msg("The {seat} keep a card.", seat=T.SEAT[seat]), seat=seat)
        last = not (fr["n"] > 1 and fr["drawn"])
        if not last:
            stack.append({"k": "keep", "drawn": fr["drawn"], "deck": fr["deck"], "n": fr["n"] - 1})
        if last and fr["drawn"]:
            # 3.A Gain Capability: "The remaining three cards are returned to the bottom of the
            # deck"; the rulebook does not fix their order, so the player sets it (asked after
            # the forget question below, 1.F)
            self._return_unkept(state, seat, fr["deck"], fr["drawn"], facts)
        if C.cards[rest]["class"] == "major" and [c for c in pl["hand"] + pl["discard"] if c != rest]:
            stack.append({"k": "forget", "kept": rest})

    def _bottom_ask(self, state, seat, fr):
        # secret: which cards were drawn is private (the draw fact is visible to the seat only)
        # issue 16.7: the whole order in one step, the drawn order first (the default)
        ch = []
        for i, order in enumerate(itertools.permutations(fr["cards"])):
            names = [T.CARD_TITLE[c] for c in order]
            ch.append(_c("order:" + ",".join(order),
                         (msg("Drawn order (default): {cards}", cards=names) if i == 0
                          else msg("This order: {cards}", cards=names)),
                         {"cards": list(order), "secret": True}, ChoiceKind.OPTION, "3.A", H["order"],
                         {"cards": list(order)}))
        return _ask(seat, msg("Return the unkept cards to the bottom of the {deck} deck: in which order? (The first one "
                              "goes under first, so it is drawn first of them.)", deck=T.DECK[fr["deck"]]), "3.A", ch,
                    "bottom")

    def _bottom_act(self, state, seat, fr, cid, facts):
        state["frames"][seat].pop()
        head, _, rest = cid.partition(":")
        if head == "order":
            order = rest.split(",")
            state["decks"][fr["deck"]].extend(order)
            n = fr.get("placed", 0) + len(order)
            B.add_fact(facts, "bottom", msg("The {seat} return {cards} they did not keep to the bottom of the {deck} "
                                            "deck.", seat=T.SEAT[seat], cards=T.count(n, "card"),
                                            deck=T.DECK[fr["deck"]]), seat=seat, deck=fr["deck"], n=n)
            return
        fr["cards"].remove(rest)
        state["decks"][fr["deck"]].append(rest)
        fr["placed"] = fr.get("placed", 0) + 1
        self._return_unkept(state, seat, fr["deck"], fr["cards"], facts, fr["placed"])

    def _forget_ask(self, state, seat, fr):
        pl = state["pl"][seat]
        cands = forget_candidates(pl, fr["kept"])
        # secret (1.F): the hand is hidden, so which card is forgotten is the player's own
        ch = [_c(f"forget:{c}", (_card_label("forget", c) if c in pl["hand"] else _card_label("forget_spent", c)),
                 {"card": c, "secret": True}, ChoiceKind.CARD, "1.F", _card_help(H["forget"], c), {"card": c})
              for c in cands]
        return _ask(seat, (msg("You kept a major card: forget one other card from your hand (1.F, 3.A).")
                           if any(c in pl["hand"] for c in cands) else
                           msg("You kept a major card: your hand holds no other card, so forget a spent card.")),
                    "1.F", ch, "forget")

    def _forget_auto(self, state, seat, fr, facts):
        return _end_unless(state, seat, forget_candidates(state["pl"][seat], fr["kept"]))

    def _forget_act(self, state, seat, fr, cid, facts):
        state["frames"][seat].pop()
        pl = state["pl"][seat]
        rest = cid.partition(":")[2]
        if rest in pl["hand"]:
            pl["hand"].remove(rest)
        else:
            pl["discard"].remove(rest)
        state["decks"][C.cards[rest]["class"]].append(rest)
        # 1.F: the other seats learn that a card was forgotten, not which (hands are hidden)
        B.add_fact(facts, "forget", msg("The {seat} forget {card}.", seat=T.SEAT[seat], card=T.CARD_TITLE[rest]),
                   seat=seat, card=rest, visible_to=[seat],
                   public={"type": "forget", "text": msg("The {seat} forget a card.", seat=T.SEAT[seat]),
                           "seat": seat})

    def _base_g_ask(self, state, seat, fr):
        ch = [_c(f"base_g:{t}", msg("1 guerrilla at your base in {tile}", tile=B.tname(t)), {"tile": t},
                 ChoiceKind.SPACE, "3.A", H["base_g"], {"tile": t}) for t in self._own_bases(state, seat)]
        return _ask(seat, msg("Gain 1 guerrilla at one of your bases."), "3.A",
                    ch or [_c("skip", msg("No base"), {}, ChoiceKind.PASS, "3.A", H["no_base"])], "base_g")

    def _base_g_act(self, state, seat, fr, cid, facts):
        state["frames"][seat].pop()
        head, _, rest = cid.partition(":")
        if head == "base_g":
            self._place_g(state, seat, rest, 1, facts, msg("refit: 1 at a base"))

    # ---- base output (1.D, A-42) and force management (3.C) ----------------------------------
    def _produce_ask(self, state, seat, fr):
        ch = self._produce_choices(state, seat, fr) + [
            _c("done", msg("No more base output"), {}, ChoiceKind.DONE, "1.D", H["no_produce"])]
        return _ask(seat, msg("Base output: take guerrillas from your bases, one at a time, as many as you want "
                              "(1.D Guerrilla Base: can, but need not)."), "1.D (A-42)", ch, "produce")

    def _produce_auto(self, state, seat, fr, facts):
        # 1.D Guerrilla Base: "Guerrillas can, but are not required to, generated from a
        # guerrilla base each turn": free output (Liberators, Partisans) is asked G by G
        # like paid output (the Comrades), never taken for the player
        if C.panels[seat]["base_output"] and self._produce_choices(state, seat, fr):
            return False
        state["frames"][seat].pop()
        return True

    def _produce_act(self, state, seat, fr, cid, facts):
        head, _, rest = cid.partition(":")
        if head == "done":
            state["frames"][seat].pop()
            return
        pl = state["pl"][seat]
        bo = C.panels[seat]["base_output"]
        if bo["cost"]:
            pl["res"] -= bo["cost"]
            B.add_fact(facts, "track", msg("The {seat} pay {resources} for base output in {tile}.",
                                           seat=T.SEAT[seat], resources=T.count(bo["cost"], "resource"),
                                           tile=B.tname(rest)),
                       seat=seat, track="resources", delta=-bo["cost"], value=pl["res"], cause=BASE_OUTPUT,
                       deltas={f"resources_{seat}": -bo["cost"]})
        self._place_g(state, seat, rest, 1, facts, BASE_OUTPUT)
        fr.setdefault("made", {})[rest] = fr.get("made", {}).get(rest, 0) + 1

    def _fm_ask(self, state, seat, fr):
        pl = state["pl"][seat]
        ch = self._fm_choices(state, seat, fr.get("only"))
        if fr.get("only"):
            ch.append(_c("done", msg("Done recruiting"), {}, ChoiceKind.DONE, "3.C", H["done_recruit"]))
        else:
            ch.append(_c("skip", msg("No force management"), {}, ChoiceKind.PASS, "3.C", H["no_fm"]))
        return _ask(seat, msg("Force management: recruit, build a base or convert (one action; {resources} left).",
                              resources=T.count(pl["res"], "resource")), "3.C", ch, "force_management")

    def _fm_auto(self, state, seat, fr, facts):
        return _end_unless(state, seat, self._fm_possible(state, seat, "recruit" if fr.get("only") else None))

    def _fm_act(self, state, seat, fr, cid, facts):
        head, _, rest = cid.partition(":")
        self._apply_fm(state, seat, fr, head, rest, facts)

    def _lpull_ask(self, state, seat, fr):
        ch = [_c(f"into:{n}", msg("Pull the new guerrilla from {src} into {tile}", src=B.tname(fr["tile"]),
                                  tile=B.tname(n)), {"from": fr["tile"], "tile": n}, ChoiceKind.SPACE, "A-48",
                 H["into"], {"from": fr["tile"], "tile": n}) for n in self._lpull_targets(state, fr["tile"])]
        ch.append(_c("skip", msg("Leave it where it was recruited"), {}, ChoiceKind.PASS, "A-48", H["stay"]))
        return _ask(seat, msg("Your guerrilla was recruited next to your presence: you may pull it into a tile with your "
                              "presence."), "Liberators panel (A-48)", ch, "recruit_pull")

    def _lpull_act(self, state, seat, fr, cid, facts):
        state["frames"][seat].pop()
        head, _, rest = cid.partition(":")
        if head == "into":
            self._move_piece(state, seat, "own_g", fr["tile"], rest, facts)

    # ---- capabilities: select (3.D), execute (phase 2, phase 4), target and effect (1.F, 1.G) -
    def _select_ask(self, state, seat, fr):
        pl = state["pl"][seat]
        ch = []
        limit = plays_limit(pl, seat)
        if len(pl["played"]) < limit:
            for c in pl["hand"]:
                card = C.cards[c]
                if card["cost"] <= pl["res"]:
                    ch.append(_c(f"play:{c}", _card_label("play", c), {"card": c}, ChoiceKind.CARD, "3.D",
                                 _card_help(H["play"], c), {"card": c},
                                 {"resources": card["cost"]} if card["cost"] else None))
        ch.append(_c("done", msg("Done selecting capabilities"), {}, ChoiceKind.DONE, "3.D", H["done_select"]))
        return _ask(seat, msg("Select capabilities and pay for them ({played}, {resources} left).",
                              played=_played(pl, limit), resources=T.count(pl["res"], "resource")), "3.D", ch,
                    "select")

    def _select_auto(self, state, seat, fr, facts):
        # nothing can be paid for: only done is left
        return _end_unless(state, seat, len(self._select_ask(state, seat, fr).choices) != 1)

    def _select_act(self, state, seat, fr, cid, facts):
        head, _, rest = cid.partition(":")
        if head == "done":
            state["frames"][seat].pop()
            return
        pl = state["pl"][seat]
        card = C.cards[rest]
        pl["res"] -= card["cost"]
        pl["hand"].remove(rest)
        pl["played"].append(rest)
        state["stats"]["cards_played"] += 1
        B.add_fact(facts, "play", msg("The {seat} play {card} for {resources} (attributes: {attributes}).",
                                      seat=T.SEAT[seat], card=T.CARD_TITLE[rest],
                                      resources=T.count(card["cost"], "resource"),
                                      attributes=[T.ATTRIBUTE[a] for a in card["attributes"]]),
                   seat=seat, card=rest, track="resources", delta=-card["cost"], value=pl["res"],
                   cause=msg("paid for {card}", card=T.CARD_TITLE[rest]),
                   deltas={f"resources_{seat}": -card["cost"]})

    def _exec_ask(self, state, seat, fr):
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
        ch.append(_c("done", done, {}, ChoiceKind.DONE, rule, H["done_exec"]))
        if len(ch) > 1:
            text = msg("Execute your immediate capabilities.") if imm else msg("Execute your long-term capabilities.")
        else:
            text = (msg("Nothing immediate is left for you to execute: say done when you are ready (the phase "
                        "ends when every player is done).") if imm else
                    msg("Nothing long-term is left for you to execute: say done when you are ready (the phase "
                        "ends when every player is done)."))
        return _ask(seat, msg("{text} {situation}", text=text, situation=self.situation(state)), rule, ch, "execute")

    def _exec_act(self, state, seat, fr, cid, facts):
        head, _, rest = cid.partition(":")
        if head == "done":
            state["frames"][seat].pop()
        else:
            self._start_exec(state, seat, fr["speed"], head, rest)

    def _target_ask(self, state, seat, fr):
        ch = [_c(f"tile:{t}", self._tile_label(state, t), {"tile": t}, ChoiceKind.SPACE, "1.F", self._target_help(fr),
                 {"tile": t}) for t in self._target_tiles(state, seat, fr)]
        ch.append(_c("decline", msg("Do not execute it"), {}, ChoiceKind.PASS, "1.F", H["decline"]))
        return _ask(seat, msg("Choose the target tile for {capability}: {effect}", capability=fr["label"],
                              effect=self._target_help(fr)), "1.F", ch, "target")

    def _target_auto(self, state, seat, fr, facts):
        if self._target_tiles(state, seat, fr):
            return False
        state["frames"][seat].pop()          # no tile in range: the capability is spent without effect
        if fr["src"] in C.cards:
            state["pl"][seat]["done_cards"].append(fr["src"])
        return True

    def _target_act(self, state, seat, fr, cid, facts):
        stack = state["frames"][seat]
        head, _, rest = cid.partition(":")
        stack.pop()
        if fr["src"] in C.cards:
            state["pl"][seat]["done_cards"].append(fr["src"])
        if head == "tile":
            B.add_fact(facts, "execute", msg("The {seat} execute {capability} in {tile}.", seat=T.SEAT[seat],
                                             capability=fr["label"], tile=B.tname(rest)), seat=seat, tile=rest,
                       source=fr["src"])
            stack.append({"k": "effect", "ops": fr["ops"], "i": 0, "tile": rest, "label": fr["label"], "moved": 0,
                          "src": fr["src"]})
        else:
            B.add_fact(facts, "execute", msg("The {seat} decline to execute {capability}.", seat=T.SEAT[seat],
                                             capability=fr["label"]), seat=seat)

    def _effect_ask(self, state, seat, fr):
        if fr.get("drive"):
            return _ask(seat, msg("{label}: drive {unit} out of {tile}: into which neighbouring tile?",
                                  label=fr["label"], unit=T.A_PIECE[fr["drive"][0][0]], tile=B.tname(fr["tile"])),
                        "Advisors panel (A-28)", self._drive_choices(state, fr), "drive")
        if fr.get("civ"):
            return _ask(seat, msg("{label}: collateral damage in {tile} kills {civilians} more; choose who is hit next.",
                                  label=fr["label"], tile=B.tname(fr["tile"]), civilians=T.count(fr["civ"], "civilian")),
                        "1.G collateral (A-25)", self._civ_choices(state, fr), "collateral")
        if fr.get("alloc"):
            return _ask(seat, msg("{label}: assign {n} damage to the adversary units in {tile}.", label=fr["label"],
                                  n=fr["alloc"], tile=B.tname(fr["tile"])),
                        "1.G combat (A-57)", self._alloc_choices(state, fr), "allocate")
        op = fr["ops"][fr["i"]]
        ch = self._op_choices(state, seat, fr, op)
        return _ask(seat, msg("{label} in {tile}: {what} ({moved} of up to {n} done; stop whenever you like).",
                              label=fr["label"], tile=B.tname(fr["tile"]), what=OP_WORDS.get(op["op"]) or msg(op["op"]),
                              moved=fr.get("moved", 0), n=op.get("n", 1)), "1.F", ch, op["op"])

    def _effect_auto(self, state, seat, fr, facts):
        """The effect's automatic steps (damage, placements ...) up to its next question (1.F)."""
        return _end_unless(state, seat, not self._run_effect(state, seat, fr, facts))

    def _effect_act(self, state, seat, fr, cid, facts):
        head, _, rest = cid.partition(":")
        self._apply_op_choice(state, seat, fr, head, rest, facts)

    # ---- end of turn: massed guerrillas (A-46) -----------------------------------------------
    def _burden_ask(self, state, seat, fr):
        pl = state["pl"][seat]
        ch = []
        for tid in self._burden_tiles(state, seat):
            extra = state["tiles"][tid]["gs"][seat] - 4 - pl.get("upkept", {}).get(tid, 0)
            over = T.count(extra, "guerrilla")
            ch.append(_c(f"upkeep:{tid}", msg("Pay 1 resource to keep a guerrilla in {tile} ({gs} of yours there "
                                              "beyond the 4 the population feeds for free)", tile=B.tname(tid),
                                              gs=over), {"tile": tid}, ChoiceKind.SPACE, "A-46", H["upkeep"],
                         {"tile": tid}, {"resources": 1}))
            ch.append(_c(f"disband:{tid}", msg("Disband a guerrilla in {tile} ({gs} of yours there beyond the 4 "
                                               "the population feeds for free)", tile=B.tname(tid), gs=over),
                         {"tile": tid}, ChoiceKind.PIECE, "A-46", H["disband"], {"tile": tid}))
        return _ask(seat, msg("Too many guerrillas burden the population: pay or disband each guerrilla over 4 "
                              "({resources} left).", resources=T.count(pl["res"], "resource")),
                    "1.D guerrillas (A-46)", ch, "burden")

    def _burden_auto(self, state, seat, fr, facts):
        # nothing to pay, or nothing to pay with: the end of turn disbands
        return _end_unless(state, seat, self._burden_tiles(state, seat) and state["pl"][seat]["res"] > 0)

    def _burden_act(self, state, seat, fr, cid, facts):
        head, _, rest = cid.partition(":")
        pl = state["pl"][seat]
        t = state["tiles"][rest]
        if head == "upkeep":
            pl["res"] -= 1
            up = pl.setdefault("upkept", {})
            up[rest] = up.get(rest, 0) + 1
            B.add_fact(facts, "track", msg("The {seat} pay 1 resource to keep a massed guerrilla in {tile}.",
                                           seat=T.SEAT[seat], tile=B.tname(rest)),
                       seat=seat, track="resources", delta=-1, value=pl["res"], cause=msg("guerrilla stacking"),
                       deltas={f"resources_{seat}": -1})
        else:
            t["gs"][seat] -= 1
            B.add_fact(facts, "remove", msg("A guerrilla of the {seat} disbands in {tile} (stacking, A-46).",
                                            seat=T.SEAT[seat], tile=B.tname(rest)), seat=seat, tile=rest,
                       deltas=B.g_deltas(seat, -1))
        if not self._burden_tiles(state, seat) or pl["res"] <= 0:
            state["frames"][seat].pop()


def _ask(seat: str, text, rule: str, choices: list, kind: str) -> Ask:
    """A seat's question; ``kind`` is the decision's machine name (``Prompt.kind_for``)."""
    return Ask(seat, text, rule, choices, {"kind": kind})


