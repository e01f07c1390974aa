"""The player window's step menu and the seats' own questions (rule 3; A-30).

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

import itertools

from engine.core.contract import Choice
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import vocab as V
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.panel import (
    OP_WORDS,
    WINDOW_STEPS,
    card_line,
    forget_candidates,
    income,
    plays_limit,
)

C = content()


class WindowMixin:
    def _seat_choices(self, state: dict, seat: str):
        fr = state["frames"][seat][-1]
        k = fr["k"]
        pl = state["pl"][seat]
        if k == "hq":
            ch = [Choice(f"hq:{t}", f"Headquarters in {B.tname(t)}", {"tile": t}) for t in self.hq_candidates(state, seat)]
            return "Place your starting headquarters (two presence).", "2.C", ch, "hq"
        if k == "presence":
            if fr.get("roll"):
                # a successful roll deploys the presence (Partisans panel): where is the player's call
                return ("Your d10 roll succeeded: place 1 presence within 1 of your presence; choose the tile "
                        "and the track row it uncovers."), "Partisans panel (3.A, A-44)", \
                    self._presence_choices(state, seat, fr["range"]), "presence"
            ch = self._presence_choices(state, seat, fr["range"]) + [Choice("skip", "Do not add presence", {})]
            return "Add 1 presence: choose the tile and the track row it uncovers.", "3.A", ch, "presence"
        if k == "refit":
            opts = C.panels[seat]["refit"]["options"]
            used_groups = {o["group"] for o in opts if o["id"] in fr["picked"]}
            ch = []
            for o in opts:
                if o["group"] in used_groups or not self._refit_possible(state, seat, o):
                    continue
                ch.append(Choice(f"refit:{o['id']}", self._refit_label(o), {"option": o["id"]}))
            if not ch:
                ch = [Choice("skip", "No refit option is possible", {})]
            n = C.panels[seat]["refit"]["picks"]
            return f"Refit: choose {'two different options' if n == 2 else 'one option'}.", "3.A", ch, "refit"
        if k == "deck":
            ch = [Choice(f"deck:{d}", f"Draw 4 from the {d} deck", {"deck": d})
                  for d in ("major", "minor") if state["decks"][d]]
            return "Gain capability: which deck do you draw from?", "3.A", ch or [Choice("skip", "Both decks are empty", {})], "deck"
        if k == "keep":
            # secret: the drawn cards are private (the draw fact is visible_to the seat), so is the pick
            ch = [Choice(f"keep:{c}", f"Keep {card_line(c)}", {"card": c, "secret": True}, help=C.cards[c]["text"])
                  for c in fr["drawn"]]
            return ("Keep one of the drawn cards; you then return the rest to the bottom of the deck in the "
                    "order you choose."), "3.A", ch, "keep"
        if k == "steps":
            return self._steps_prompt(state, seat, fr)
        if k == "bottom":
            # secret: which cards were drawn is private (the draw fact is visible to the seat only)
            # issue 16.7: the whole order in one step, the drawn order first (the default)
            ch = []
            for i, order in enumerate(itertools.permutations(fr["cards"])):
                names = ", then ".join(C.cards[c]["title"] for c in order)
                ch.append(Choice("order:" + ",".join(order),
                                 (f"Drawn order (default): {names}" if i == 0 else f"This order: {names}"),
                                 {"cards": list(order), "secret": True}))
            return (f"Return the unkept cards to the bottom of the {fr['deck']} deck: in which order? "
                    "(The first one goes under first, so it is drawn first of them.)"), "3.A", ch, "bottom"
        if k == "forget":
            cands = forget_candidates(pl, fr["kept"])
            # secret (1.F): the hand is hidden, so which card is forgotten is the player's own
            ch = [Choice(f"forget:{c}", f"Forget {card_line(c)}" + ("" if c in pl["hand"] else " (spent)"),
                         {"card": c, "secret": True}, help=C.cards[c]["text"]) for c in cands]
            return ("You kept a major card: forget one other card from your hand (1.F, 3.A)."
                    if any(c in pl["hand"] for c in cands) else
                    "You kept a major card: your hand holds no other card, so forget a spent card."), "1.F", ch, "forget"
        if k == "reclaim":
            ch = [Choice(f"reclaim:{c}", f"Reclaim {card_line(c)}", {"card": c}, help=C.cards[c]["text"])
                  for c in pl["discard"]]
            ch.append(Choice("skip", "Reclaim nothing", {}))
            return "Reclaim one spent card to your hand.", "3.A", ch, "reclaim"
        if k == "base_g":
            ch = [Choice(f"base_g:{t}", f"1 G at your base in {B.tname(t)}", {"tile": t}) for t in self._own_bases(state, seat)]
            return "Gain 1 guerrilla at one of your bases.", "3.A", ch or [Choice("skip", "No base", {})], "base_g"
        if k == "fm":
            ch = self._fm_choices(state, seat, fr.get("only"))
            ch.append(Choice("skip" if not fr.get("only") else "done", "No force management" if not fr.get("only") else "Done recruiting", {}))
            return "Force management: recruit, build a base or convert (one action).", "3.C", ch, "force_management"
        if k == "burden":
            ch = []
            for tid in self._burden_tiles(state, seat):
                extra = state["tiles"][tid]["gs"][seat] - 4 - pl.get("upkept", {}).get(tid, 0)
                over = (f"{V.count(extra, 'guerrilla')} of yours there beyond the 4 the population feeds "
                        "for free")
                ch.append(Choice(f"upkeep:{tid}", f"Pay 1 resource to keep a G in {B.tname(tid)} ({over})", {"tile": tid}))
                ch.append(Choice(f"disband:{tid}", f"Disband a G in {B.tname(tid)} ({over})", {"tile": tid}))
            return (f"Too many guerrillas burden the population: pay or disband each G over 4 ({V.count(pl['res'], 'resource')} left).",
                    "1.D guerrillas (A-46)", ch, "burden")
        if k == "produce":
            ch = self._produce_choices(state, seat, fr) + [Choice("done", "No more base output", {})]
            return ("Base output: take guerrillas from your bases, one at a time, as many as you want "
                    "(1.D Guerrilla Base: can, but need not)."), "1.D (A-42)", ch, "produce"
        if k == "lpull":
            ch = [Choice(f"into:{n}", f"Pull the new G from {B.tname(fr['tile'])} into {B.tname(n)}",
                         {"from": fr["tile"], "tile": n}) for n in self._lpull_targets(state, fr["tile"])]
            ch.append(Choice("skip", "Leave it where it was recruited", {}))
            return ("Your G was recruited next to your presence: you may pull it into a tile with your presence.",
                    "Liberators panel (A-48)", ch, "recruit_pull")
        if k == "select":
            ch = []
            if len(pl["played"]) < plays_limit(pl, seat):
                for c in pl["hand"]:
                    card = C.cards[c]
                    if card["cost"] <= pl["res"]:
                        ch.append(Choice(f"play:{c}", f"Play {card_line(c)}", {"card": c}, help=card["text"]))
            ch.append(Choice("done", "Done selecting capabilities", {}))
            return (f"Select capabilities and pay for them ({len(pl['played'])}/{plays_limit(pl, seat) if plays_limit(pl, seat) < 99 else 'any'} "
                    f"played, {V.count(pl['res'], 'resource')} left)."), "3.D", ch, "select"
        if k == "exec":
            # each seat closes its own part of the window with "done", even with nothing left to
            # execute: the window (and the adversary phase after it) waits for every seat (3)
            ch = self._exec_choices(state, seat, fr["speed"])
            label = "immediate" if fr["speed"] == "immediate" else "long-term"
            ch.append(Choice("done", "Done with this phase" if ch else f"Done: nothing {label} left to execute", {}))
            text = (f"Execute your {label} capabilities." if len(ch) > 1 else
                    f"Nothing {label} is left for you to execute: say done when you are ready "
                    "(the phase ends when every player is done).")
            return text, "phase 2" if label == "immediate" else "phase 4", ch, "execute"
        if k == "target":
            ch = [Choice(f"tile:{t}", self._tile_label(state, t), {"tile": t}, kind="space", targets={"tile": t})
                  for t in self._target_tiles(state, seat, fr)]
            ch.append(Choice("decline", "Do not execute it", {}))
            return f"Choose the target tile for {fr['label']}.", "1.F", ch, "target"
        if k == "effect":
            if fr.get("drive"):
                return (f"{fr['label']}: drive the {fr['drive'][0][0]} out of {B.tname(fr['tile'])}: into which "
                        "neighbouring tile?", "Advisors panel (A-28)", self._drive_choices(state, fr), "drive")
            if fr.get("civ"):
                return (f"{fr['label']}: collateral damage in {B.tname(fr['tile'])} kills {fr['civ']} more {'civilian' if fr['civ'] == 1 else 'civilians'}; "
                        "choose who is hit next.", "1.G collateral (A-25)", self._civ_choices(state, fr), "collateral")
            if fr.get("alloc"):
                return (f"{fr['label']}: assign {fr['alloc']} damage to the adversary units in {B.tname(fr['tile'])}.",
                        "1.G combat (A-57)", self._alloc_choices(state, fr), "allocate")
            op = fr["ops"][fr["i"]]
            ch = self._op_choices(state, seat, fr, op)
            return (f"{fr['label']} in {B.tname(fr['tile'])}: {OP_WORDS.get(op['op'], op['op'])} "
                    f"({fr.get('moved', 0)} of up to {op.get('n', 1)} done; stop whenever you like)."), "1.F", ch, op["op"]
        raise AssertionError(k)  # pragma: no cover

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
            return C.panels[seat]["force_management"]["phase"] == "window" and bool(self._fm_choices(state, seat))
        return True

    def _steps_prompt(self, state, seat, fr):
        pl = state["pl"][seat]
        infra = sum(1 for tid in state["order"] if C.tiles[tid]["infrastructure"] and self.controls(state, seat, tid))
        labels = {
            "roll": "Roll the d10 for presence (Partisans panel, before refit): 6-10 adds 1 presence",
            "refit": "Refit (3.A): " + ("choose two different options" if C.panels[seat]["refit"]["picks"] == 2
                                         else "choose one option"),
            "income": f"Gain resources (3.B): +{income(pl, seat)}" + (f" +{infra} infrastructure" if infra else ""),
            "produce": "Base output (1.D): take guerrillas from your bases",
            "fm": "Force management (3.C): recruit, build a base or convert",
            "select": f"Select and pay capabilities (3.D): {len(pl['played'])}/"
                      f"{plays_limit(pl, seat) if plays_limit(pl, seat) < 99 else 'any'} played, {V.count(pl['res'], 'resource')} left",
        }
        ch = [Choice(f"step:{st}", labels[st], {"step": st}) for st in WINDOW_STEPS if self._step_open(state, seat, fr, st)]
        ch += self._exec_choices(state, seat, "immediate")
        if "refit" in fr["taken"]:
            ch.append(Choice("done", "Done with the player window" + (
                "" if "income" in fr["taken"] else " (your resources, 3.B, are gained first)"), {}))
        todo = [st for st in ("roll", "refit", "income") if st not in fr["taken"]
                and (st != "roll" or C.panels[seat]["refit"]["roll"])]
        text = ("Player window: choose your next step, in the order you like (3); execute immediate capabilities "
                "whenever they are paid for." + (f" Still to do: {', '.join(todo)}." if todo else "")
                + (" Roll the d10 before you refit (Partisans panel)." if "roll" in todo else "")
                + ("" if "refit" not in todo else " Done is offered once you have refitted (3.A).")
                + " " + self.situation(state))
        return text, "3", ch, "steps"

    def situation(self, state: dict) -> str:
        """Issue 16.8: what the turn's decisions are about, in one paragraph: how close the map is
        to the state of tyranny (3.D) and the tiles the adversary will dominate this turn with
        their strength (3.F: 2 or more places tyranny), read from the card in the dominate box."""
        on_map = B.tyranny_on_map(state)
        th = B.threshold(state)
        parts = [(f"Tyranny: {V.count(on_map, 'tyranny token')} on the map; the next event is drawn in the state "
                  f"of tyranny at {th} ({'reached' if on_map >= th else f'{th - on_map} more to go'}, 3.D); "
                  f"{state['tyr_pool']} left in the pool (all placed: the players lose, 4).")]
        if state["boxes"]["dominate"]:
            doms = []
            for tid in ADV.card_tiles(state, state["boxes"]["dominate"]):
                t = state["tiles"][tid]
                if not t["u"]:
                    continue
                if "dominate" in t["prev"]:
                    doms.append(f"{B.tname(tid)} (prevented this turn)")
                    continue
                st = ADV.dominate_strength(state, tid)
                what = ("places tyranny and removes presence" if st >= 2 else
                        "attacks the guerrillas there" if st == 1 else "does nothing")
                doms.append(f"{B.tname(tid)} with strength {st} ({what})")
            parts.append("The adversary dominates this turn (3.F): " + ("; ".join(doms) if doms else
                         "no tile with adversary units") + ".")
        return " ".join(parts)

    def _tile_label(self, state: dict, tid: str) -> str:
        """A target tile as the decision needs it (issue 16.8): its name, what stands there, and
        whether the adversary dominates it this turn and with what strength."""
        t = state["tiles"][tid]
        bits = []
        if t["u"]:
            bits.append(B.units_text(t["u"]))
        if t["blue"] or t["red"]:
            bits.append(f"{t['blue']} blue, {t['red']} red civilians")
        if t["tyr"]:
            bits.append("under tyranny")
        dom = state["boxes"]["dominate"]
        if dom and t["u"] and tid in ADV.card_tiles(state, dom) and "dominate" not in t["prev"]:
            bits.append(f"dominated this turn with strength {ADV.dominate_strength(state, tid)}")
        return B.tname(tid) + (f": {'; '.join(bits)}" if bits else "")
