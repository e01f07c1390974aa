"""The sequence of play (3): the turn's phases, the adversary phase (3.D-3.I) and the end of the turn.

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core import rng as R
from engine.core.contract import cause_event, cause_rule
from engine.core.messages import is_msg, msg
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content

C = content()


def attribute_all(facts: list, cause: dict, start: int = 0) -> list:
    """Give ``cause`` to every fact from ``start`` on that has no structured cause yet (contract v2).
    A free-text cause written where the fact was made ("event Monsoon Floods", "cleared by
    force") is kept inside the structured one as ``because``."""
    for f in facts[start:]:
        c = f.get("cause")
        if c is None:
            f["cause"] = cause
        elif isinstance(c, str) or is_msg(c):
            f["cause"] = {**cause, "because": c}
    return facts


GAIN_RESOURCES = msg("gain resources (3.B)")
STACKING = msg("guerrilla stacking")


class TurnFlowMixin:
    def _shield_text(self, state, step, tid):
        """The Partisans' HQ shield question with what is at stake (issue 16.8)."""
        if step == "dominate":
            return msg("The adversary is about to dominate {tile}, where you have your HQ, with strength {n} (2 or "
                       "more places tyranny and removes all presence there). Give up 1 presence to stop it?",
                       tile=B.tname(tid), n=ADV.dominate_strength(state, tid))
        return msg("The adversary is about to develop {tile}, where you have your HQ (it adds units: {units}). Give up "
                   "1 presence to stop it?", tile=B.tname(tid), units=B.units_text(state["tiles"][tid]["u"]))

    def _settle_seat(self, state, seat, facts) -> None:
        """Run the automatic steps on top of ``seat``'s stack until a decision is needed (the
        kinds' ``auto`` entries, frames.py)."""
        self.seat_flow.settle(state, facts, seat)

    def _advance(self, state, facts) -> None:
        while state["result"] is None:
            if state["g"]:
                return
            for s in state["seats"]:
                self._settle_seat(state, s, facts)
            if state["result"] is not None:
                return
            if any(state["frames"][s] for s in state["seats"]):
                return
            ph = state["phase"]
            n0 = len(facts)
            if ph == "hq":
                self._initial_deploy(state, facts)
                attribute_all(facts, cause_rule("2.C", msg("Initial deploy (automatic)")), n0)
                n0 = len(facts)
                self._start_turn(state, facts)
                attribute_all(facts, cause_rule("3", msg("A new turn begins (automatic)")), n0)
            elif ph == "window":
                state["phase"] = "adversary"
                self._queue_adversary(state, facts)
                attribute_all(facts, cause_rule("3", msg("Adversary phase begins (automatic)")), n0)
            elif ph == "adversary":
                if not self._run_adversary(state, facts):
                    return
            elif ph == "long":
                self._end_turn(state, facts)
                attribute_all(facts, cause_rule("3", msg("End of the turn: cards spent, damage heals (automatic)")), n0)
                n0 = len(facts)
                if state["result"] is None:
                    self._start_turn(state, facts)
                    attribute_all(facts, cause_rule("3", msg("A new turn begins (automatic)")), n0)
            n0 = len(facts)
            self._check_end(state, facts)
            attribute_all(facts, cause_rule("4", msg("Victory and defeat check (automatic)")), n0)

    def _initial_deploy(self, state, facts) -> None:
        """2.C: the adversary flips the top terrain card, deploys, and moves it to develop."""
        cid = state["decks"]["terrain"].pop(0)
        state["stats"]["terrain_cards"] += 1
        B.add_fact(facts, "terrain", msg("Initial deploy: terrain card {card} (reference {ref}).", card=cid,
                                         ref=C.terrain[cid]["terrain_card_ref"]), card=cid, barrier=True)
        for tid in ADV.card_tiles(state, cid):
            ADV.deploy_tile(state, tid, facts)
        state["boxes"]["develop"] = cid

    def _start_turn(self, state, facts) -> None:
        state["turn"] += 1
        state["phase"] = "window"
        B.add_fact(facts, "turn", msg("Turn {n} begins.", n=state["turn"]), turn=state["turn"], deltas={"turn": 1})
        for seat in state["seats"]:
            pl = state["pl"][seat]
            pl["used"] = []
            pl["done_cards"] = []
            # 3 (Player Phase): "Players can execute the Player Phase and Immediate Capabilities
            # Phase actions in the order of their choosing": the seat picks its next step from a
            # menu (refit 3.A, gain resources 3.B, base output 1.D, force management 3.C, select
            # 3.D, execute phase 2) until it says done
            # the Partisans' d10 for presence is the first step they take from the menu (``step:roll``),
            # before refit; refit and done are not offered until they have rolled
            state["frames"][seat] = [{"k": "steps", "taken": []}]

    def _partisan_roll(self, state, seat, facts) -> None:
        """Partisans panel (1.E, refit): "every turn prior to refit they roll a die to see if a
        presence token is deployed": "ALWAYS ROLL TO ADD 1 PRESENCE. 1-5 FAILURE 6-10 SUCCESS"
        (A-09, A-64). A success deploys the presence: the player chooses where (within 1 of their
        presence) and which track circle it uncovers (A-44); with no legal tile it is lost."""
        roll = R.roll(state["rng"], 10, tag="d10")
        ok = roll >= 6
        B.add_fact(facts, "roll", (msg("The Partisans roll {n} on the d10: a presence is added.", n=roll) if ok else
                                   msg("The Partisans roll {n} on the d10: no presence.", n=roll)),
                   seat=seat, die=roll, barrier=True)
        if ok:
            if self._presence_choices(state, seat, 1):
                state["frames"][seat].append({"k": "presence", "range": 1, "roll": True})
            else:
                B.add_fact(facts, "presence", msg("The Partisans have no legal tile (or no covered circle) for the "
                                                  "presence."), seat=seat)

    def _queue_adversary(self, state, facts) -> None:
        q = [{"s": "event"}, {"s": "influence"}]
        q += [{"s": "dominate", "tile": t} for t in ADV.card_tiles(state, state["boxes"]["dominate"])]
        q += [{"s": "develop", "tile": t} for t in ADV.card_tiles(state, state["boxes"]["develop"])]
        q += [{"s": "deploy"}, {"s": "shift"}]
        state["adv"] = q
        B.add_fact(facts, "phase", msg("Adversary phase (turn {n}).", n=state["turn"]))

    def _run_adversary(self, state, facts) -> bool:
        """Run queued adversary steps; False when a player decision is pending."""
        while state["adv"] and state["result"] is None:
            if state["g"]:
                return False   # a player decision raised by the last step (1.H payment, a recruit, A-44 cover)
            step = state["adv"][0]
            s = step["s"]
            n0 = len(facts)
            if s in ("dominate", "develop"):
                tid = step["tile"]
                t = state["tiles"][tid]
                if (not step.get("asked") and "partisans" in state["seats"] and B.is_hq(state, tid, "partisans")
                        and s not in t["prev"] and self._worth_asking(state, tid, s)):
                    state["g"].append({"k": "shield", "seat": "partisans", "tile": tid, "step": s,
                                       "text": self._shield_text(state, s, tid),
                                       "rule": "Partisans panel (A-51)"})
                    return False
                state["adv"].pop(0)
                if s == "dominate":
                    pending: list = []
                    esc = ADV.dominate_tile(state, tid, facts, pending)
                    if pending and state["result"] is None:
                        # 3.F: the director targets the counterattack; the spill-over is asked after it
                        pending[0]["esc"] = esc
                        state["g"].append(pending[0])
                        # the step's facts are the step's (3.F), not the decision's that led here
                        attribute_all(facts, self._adversary_cause(state, step), n0)
                        return False
                    if not self._escalate(state, esc, facts):
                        attribute_all(facts, self._adversary_cause(state, step), n0)
                        return False
                else:
                    ADV.develop_tile(state, tid, facts)
            else:
                state["adv"].pop(0)
                if s == "event":
                    ADV.run_event(state, facts)
                elif s == "influence":
                    ADV.run_influence_cards(state, facts)
                elif s == "deploy":
                    deck = state["decks"]["terrain"]
                    if not deck:
                        # a scenario panel may turn this moment into its own end (5, A-55): checked first
                        self._scenario_end(state, "deck_exhausted")
                        if state["result"] is None:
                            state["result"] = self._result(state, "adversary",
                                                           msg("time runs out: the terrain deck is exhausted (A-18)"))
                            B.add_fact(facts, "end", msg("The terrain deck is exhausted: the players lose."))
                        else:
                            B.add_fact(facts, "end", msg("The terrain deck is exhausted: {reason}.",
                                                         reason=state["result"]["reason"]))
                        state["phase"] = "over"
                        attribute_all(facts, self._adversary_cause(state, step), n0)
                        return True
                    cid = deck.pop(0)
                    state["stats"]["terrain_cards"] += 1
                    state["boxes"]["deploy"] = cid
                    B.add_fact(facts, "terrain", msg("Deploy: terrain card {card} (stage {stage}, reference {ref}).",
                                                     card=cid, stage=C.terrain[cid]["stage"],
                                                     ref=C.terrain[cid]["terrain_card_ref"]), card=cid, barrier=True)
                    for tid in ADV.card_tiles(state, cid):
                        ADV.deploy_tile(state, tid, facts)
                elif s == "shift":
                    bx = state["boxes"]
                    if bx["dominate"]:
                        bx["terrain_discard"].append(bx["dominate"])
                    bx["dominate"], bx["develop"], bx["deploy"] = bx["develop"], bx["deploy"], None
                    B.add_fact(facts, "terrain", msg("Terrain cards shift: the develop card moves to dominate, the "
                                                     "deploy card to develop."))
            attribute_all(facts, self._adversary_cause(state, step), n0)
            n0 = len(facts)
            self._check_end(state, facts)
            attribute_all(facts, cause_rule("4", msg("Victory and defeat check (automatic)")), n0)
        if state["result"] is None and not state["adv"]:
            state["phase"] = "long"
            for seat in state["seats"]:
                frames = [{"k": "burden"}, {"k": "exec", "speed": "long"}]
                if C.panels[seat]["force_management"]["phase"] == "long":
                    frames.append({"k": "fm"})
                state["frames"][seat] = frames
        return True

    @staticmethod
    def _adversary_cause(state: dict, step: dict) -> dict:
        """The cause of the facts of one adversary-phase step: an automatic step named with its rule
        (issue 16.9), the event card for the event step."""
        s = step["s"]
        if s == "event":
            eid = state["boxes"]["event_discard"][-1] if state["boxes"]["event_discard"] else ""
            c = cause_event(eid, title=C.events[eid]["title"] if eid in C.events else None)
            c.update(rule="3.D", step=msg("Event card (automatic adversary step)"))
            return c
        if s == "influence":
            return cause_rule("3.E", msg("Influence cards earned are executed (automatic adversary step)"))
        if s == "dominate":
            return cause_rule("3.F", msg("Dominate {tile} (automatic adversary step)", tile=T.TILE[step["tile"]]))
        if s == "develop":
            return cause_rule("3.G", msg("Develop {tile} (automatic adversary step)", tile=T.TILE[step["tile"]]))
        if s == "deploy":
            return cause_rule("3.H", msg("Deploy (automatic adversary step)"))
        return cause_rule("3.I", msg("Terrain cards shift (automatic adversary step)"))

    def _end_turn(self, state, facts) -> None:
        """Phase 4 end: cards to the local discard, damage heals, stacking burden (A-46)."""
        for seat in state["seats"]:
            pl = state["pl"][seat]
            pl["discard"] += pl["played"]
            pl["played"] = []
            for tid in state["order"]:
                t = state["tiles"][tid]
                n = t["gs"].get(seat, 0) - pl.get("upkept", {}).get(tid, 0)
                if n > 4:
                    excess = n - 4
                    pay = min(excess, pl["res"])
                    pl["res"] -= pay
                    lose = excess - pay
                    if pay:
                        B.add_fact(facts, "track", msg("The {seat} pay {resources} to keep massed guerrillas in {tile}.",
                                                       seat=T.SEAT[seat], resources=T.count(pay, "resource"),
                                                       tile=B.tname(tid)),
                                   seat=seat, track="resources", delta=-pay, value=pl["res"], cause=STACKING,
                                   deltas={f"resources_{seat}": -pay})
                    if lose:
                        t["gs"][seat] -= lose
                        B.add_fact(facts, "remove", msg("{gs} of the {seat} disband in {tile} (stacking, A-46).",
                                                        gs=T.count(lose, "guerrilla"), seat=T.SEAT[seat],
                                                        tile=B.tname(tid)), seat=seat, tile=tid,
                                   deltas=B.g_deltas(seat, -lose))
            pl.pop("upkept", None)
        for t in state["tiles"].values():
            for u in t["u"]:
                u[1] = 0
            for b in t["bases"]:
                b[1] = 0
            t["def"] = 0
            t["prev"] = []
        state["phase"] = "end"
        if state["result"] is None:
            self._scenario_end(state, "turn_end")
            if state["result"] is not None:
                state["phase"] = "over"
                state["g"] = []
                for s in state["seats"]:
                    state["frames"][s] = []
                B.add_fact(facts, "end", msg("Game over: {winner} win ({reason}).",
                                             winner=T.SIDE[state["result"]["winner"]],
                                             reason=state["result"]["reason"]), barrier=True)
