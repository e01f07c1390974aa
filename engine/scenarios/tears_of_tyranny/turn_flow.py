"""The sequence of play (3): the turn's phases, the adversary phase (3.D-3.I) and the end of the turn.

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings.

The sequence of play runs on ``engine/core``'s protocol (issue 16.9): :attr:`TurnFlowMixin.play_flow`
is a :class:`engine.core.flow.Flow` over the stack ``state["adv"]`` whose kinds are the automatic
steps: the phase changes (initial deploy 2.C, a new turn 3, the adversary phase begins 3, the
long-term phase 4, the end of the turn 3) and the adversary's steps in the rulebook's order (the
event 3.D, the influence cards 3.E, dominate 3.F and develop 3.G in each tile of their card, deploy
3.H, shift 3.I). Each kind has its rule and title, so the flow gives the step's facts their cause
(the event step's is its event card, named after the draw); each step ends with the victory check
(4, A-53) caused by rule 4. When the stack is empty its ``idle`` hook pushes the phase change
due (:data:`NEXT_PHASE`); it stops as soon as a player must decide (``_waits``). The team-wide
questions a step raises (the Partisans' HQ shield A-51, the counterattack's targets and the
spill-over 3.F, a payment 1.H, a recruit 1.I) stop it there: the shield's step stays on top and
runs once it is answered; the others' step has ended and the next one runs. ``_advance`` is
then: settle the stacks in the rulebook's order (``frames.py`` holds the two other flows)."""

from __future__ import annotations

from functools import cached_property

from engine.core import rng as R
from engine.core.contract import cause_event, cause_rule
from engine.core.flow import Flow, FrameKind
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

#: the phase change due when the sequence of play's stack is empty, by phase (2.C, 3, phase 4)
NEXT_PHASE = {"hq": "initial_deploy", "window": "adversary_phase", "adversary": "long_phase", "long": "end_turn"}


def adv_stack(state: dict, at=None) -> list:
    """The sequence of play's stack ``state["adv"]`` (the top frame last).

    A state saved before the adversary's steps were frames (a game stopped at a question of the
    adversary phase) kept them as a queue of ``{"s": step, ...}``, the next step first: it is
    turned into the stack here, the first time the flow looks at it."""
    st = state["adv"]
    if st and "k" not in st[0]:
        st[:] = [{("k" if key == "s" else key): v for key, v in fr.items()} for fr in reversed(st)]
    return st


def _next_phase(state: dict, facts: list) -> None:
    state["adv"].append({"k": NEXT_PHASE[state["phase"]]})


def _waits(state: dict) -> bool:
    """The sequence of play stops: the game is over, a team-wide question is open, or a seat has
    something to decide (its window or long-term phase began)."""
    if state["result"] is not None or state["g"]:
        return True
    frames = state["frames"]
    return any(frames[s] for s in state["seats"])


def _event_cause(state: dict, at, fr: dict) -> dict:
    """3.D: the event card drawn (asked after the step ran), named as an automatic step."""
    eid = state["boxes"]["event_discard"][-1] if state["boxes"]["event_discard"] else ""
    c = cause_event(eid, title=C.events[eid]["title"] if eid in C.events else None)
    c.update(rule="3.D", step=msg("Event card (automatic adversary step)"))
    return c


def _tile_cause(state: dict, at, fr: dict) -> dict:
    """3.F / 3.G in one tile."""
    if fr["k"] == "dominate":
        return cause_rule("3.F", msg("Dominate {tile} (automatic adversary step)", tile=T.TILE[fr["tile"]]))
    return cause_rule("3.G", msg("Develop {tile} (automatic adversary step)", tile=T.TILE[fr["tile"]]))


class TurnFlowMixin:
    def _shield_text(self, state, step, tid):
        """The Partisans' HQ shield question with what is at stake (issue 16.8)."""
        if step == "dominate":
            return msg("The adversary is about to dominate {tile}, where you have your HQ, with strength {n} (2 or "
                       "more places tyranny and removes all presence there). Give up 1 presence to stop it?",
                       tile=B.tname(tid), n=ADV.dominate_strength(state, tid))
        return msg("The adversary is about to develop {tile}, where you have your HQ (it adds units: {units}). Give up "
                   "1 presence to stop it?", tile=B.tname(tid), units=B.units_text(state["tiles"][tid]["u"]))

    # ---- the sequence of play on engine/core's protocol (issue 16.9) ----------------------------
    @cached_property
    def play_flow(self) -> Flow:
        """The sequence of play's own stack ``state["adv"]``: the adversary phase's steps (3.D-3.I)
        and the phase changes (2.C, 3, phase 4), each an automatic kind with its rule and title
        (the flow gives the step's facts that cause; the event step's is its event card). When
        the stack is empty the next phase's frame is pushed (:func:`_next_phase`); play stops
        when a player must decide (:func:`_waits`)."""
        K = FrameKind
        return Flow([
            K("initial_deploy", auto=self._initial_deploy_auto, rule="2.C", title=msg("Initial deploy (automatic)")),
            K("new_turn", auto=self._new_turn_auto, rule="3", title=msg("A new turn begins (automatic)")),
            K("adversary_phase", auto=self._adversary_phase_auto, rule="3",
              title=msg("Adversary phase begins (automatic)")),
            K("event", auto=self._event_auto, cause=_event_cause, cause_after=True),
            K("influence", auto=self._influence_auto, rule="3.E",
              title=msg("Influence cards earned are executed (automatic adversary step)")),
            K("dominate", auto=self._dominate_auto, cause=_tile_cause),
            K("develop", auto=self._develop_auto, cause=_tile_cause),
            K("deploy", auto=self._deploy_auto, rule="3.H", title=msg("Deploy (automatic adversary step)")),
            K("shift", auto=self._shift_auto, rule="3.I", title=msg("Terrain cards shift (automatic adversary step)")),
            K("long_phase", auto=self._long_phase_auto, rule="phase 4", title=msg("Phase 4: Long-term")),
            K("end_turn", auto=self._end_turn_auto, rule="3",
              title=msg("End of the turn: cards spent, damage heals (automatic)")),
        ], idle=_next_phase, done=_waits, stack=adv_stack, stamp=attribute_all)

    def _settle_seat(self, state, seat, facts) -> None:
        """Run the automatic steps on top of ``seat``'s stack until a decision is needed (the
        kinds' ``auto`` entries, frames.py)."""
        self.seat_flow.settle(state, facts, seat)

    def _advance(self, state, facts) -> None:
        """Settle the stacks in the rulebook's order (3): an open team-wide question waits for its
        answer; then each seat's own stack, in seat order; when no seat has anything left, the
        sequence of play (:attr:`play_flow`) runs its steps until a player must decide again."""
        seat_flow, play_flow = self.seat_flow, self.play_flow
        while state["result"] is None and not state["g"]:
            for s in state["seats"]:
                seat_flow.settle(state, facts, s)
            if state["result"] is not None or any(state["frames"][s] for s in state["seats"]):
                return
            play_flow.settle(state, facts)

    def _checked(self, state, facts) -> None:
        """4 (A-53): the victory and defeat check after an automatic step, caused by rule 4."""
        n0 = len(facts)
        self._check_end(state, facts)
        attribute_all(facts, cause_rule("4", msg("Victory and defeat check (automatic)")), n0)

    # the phase changes -------------------------------------------------------------------------
    def _initial_deploy_auto(self, state, at, fr, facts) -> None:
        """2.C, then turn 1 begins."""
        state["adv"].pop()
        self._initial_deploy(state, facts)
        state["adv"].append({"k": "new_turn"})

    def _new_turn_auto(self, state, at, fr, facts) -> None:
        state["adv"].pop()
        self._start_turn(state, facts)
        self._checked(state, facts)

    def _adversary_phase_auto(self, state, at, fr, facts) -> None:
        """3: the players' window is over; the adversary's steps in the rulebook's order, the tiles
        of the dominate and develop cards in card order (A-01, A-20): the last pushed runs first."""
        stack = state["adv"]
        stack.pop()
        state["phase"] = "adversary"
        bx = state["boxes"]
        steps = [{"k": "event"}, {"k": "influence"}]
        steps += [{"k": "dominate", "tile": t} for t in ADV.card_tiles(state, bx["dominate"])]
        steps += [{"k": "develop", "tile": t} for t in ADV.card_tiles(state, bx["develop"])]
        steps += [{"k": "deploy"}, {"k": "shift"}]
        stack.extend(reversed(steps))
        B.add_fact(facts, "phase", msg("Adversary phase (turn {n}).", n=state["turn"]))
        self._checked(state, facts)

    def _long_phase_auto(self, state, at, fr, facts) -> None:
        """Phase 4 (long-term capabilities) once the adversary's steps are done: each seat's
        burden of massed guerrillas (A-46), its long-term capabilities, and force management where
        its panel puts it in this phase (3.C)."""
        state["adv"].pop()
        state["phase"] = "long"
        for seat in state["seats"]:
            frames = [{"k": "burden"}, {"k": "exec", "speed": "long"}]
            if C.panels[seat]["force_management"]["phase"] == "long":
                frames.append({"k": "fm"})
            state["frames"][seat] = frames
        self._checked(state, facts)

    def _end_turn_auto(self, state, at, fr, facts) -> None:
        state["adv"].pop()
        self._end_turn(state, facts)
        if state["result"] is None:
            state["adv"].append({"k": "new_turn"})

    # the adversary phase (3.D-3.I) -------------------------------------------------------------
    def _event_auto(self, state, at, fr, facts) -> None:
        """3.D: the event card (adversary.run_event)."""
        state["adv"].pop()
        ADV.run_event(state, facts)
        self._checked(state, facts)

    def _influence_auto(self, state, at, fr, facts) -> None:
        """3.E: the influence cards earned (adversary.run_influence_cards)."""
        state["adv"].pop()
        ADV.run_influence_cards(state, facts)
        self._checked(state, facts)

    def _shield_asked(self, state, fr) -> bool:
        """Partisans panel (A-51): before dominate or develop in a tile with their HQ, where the
        step would do something, the Partisans are asked once whether to give up a presence to
        stop it; the step's frame stays on the stack under the question (``asked`` once answered)."""
        step, tid = fr["k"], fr["tile"]
        if (fr.get("asked") or "partisans" not in state["seats"] or not B.is_hq(state, tid, "partisans")
                or step in state["tiles"][tid]["prev"] or not self._worth_asking(state, tid, step)):
            return False
        state["g"].append({"k": "shield", "seat": "partisans", "tile": tid, "step": step,
                           "text": self._shield_text(state, step, tid), "rule": "Partisans panel (A-51)"})
        return True

    def _dominate_auto(self, state, at, fr, facts) -> None:
        """3.F in one tile (adversary.dominate_tile); the counterattack's targets (A-15) and the
        spill-over's tile (A-13) are the players' questions."""
        if self._shield_asked(state, fr):
            return
        state["adv"].pop()
        pending: list = []
        esc = ADV.dominate_tile(state, fr["tile"], facts, pending)
        if pending and state["result"] is None:
            # 3.F: the director targets the counterattack; the spill-over is asked after it
            # (escalation.counter_hit). The victory check waits for the answer, as it always has.
            pending[0]["esc"] = esc
            state["g"].append(pending[0])
            return
        if self._escalate(state, esc, facts):
            self._checked(state, facts)

    def _develop_auto(self, state, at, fr, facts) -> None:
        """3.G in one tile (adversary.develop_tile)."""
        if self._shield_asked(state, fr):
            return
        state["adv"].pop()
        ADV.develop_tile(state, fr["tile"], facts)
        self._checked(state, facts)

    def _deploy_auto(self, state, at, fr, facts) -> None:
        """3.H: the next terrain card deploys; with none left time runs out (A-18), unless a
        scenario panel makes this moment its own end (5, A-55): checked first."""
        state["adv"].pop()
        deck = state["decks"]["terrain"]
        if not deck:
            self._scenario_end(state, "deck_exhausted")
            if state["result"] is None:
                state["result"] = self._result(state, "adversary",
                                               msg("time runs out: the terrain deck is exhausted (A-18)"))
                B.add_fact(facts, "end", msg("The terrain deck is exhausted: the players lose."))
            else:
                B.add_fact(facts, "end", msg("The terrain deck is exhausted: {reason}.",
                                             reason=state["result"]["reason"]))
            state["phase"] = "over"
            return
        cid = deck.pop(0)
        state["stats"]["terrain_cards"] += 1
        state["boxes"]["deploy"] = cid
        B.add_fact(facts, "terrain", msg("Deploy: terrain card {card} (stage {stage}, reference {ref}).",
                                         card=cid, stage=C.terrain[cid]["stage"],
                                         ref=C.terrain[cid]["terrain_card_ref"]), card=cid, barrier=True)
        for tid in ADV.card_tiles(state, cid):
            ADV.deploy_tile(state, tid, facts)
        self._checked(state, facts)

    def _shift_auto(self, state, at, fr, facts) -> None:
        """3.I: the develop card moves to dominate, the deploy card to develop."""
        state["adv"].pop()
        bx = state["boxes"]
        if bx["dominate"]:
            bx["terrain_discard"].append(bx["dominate"])
        bx["dominate"], bx["develop"], bx["deploy"] = bx["develop"], bx["deploy"], None
        B.add_fact(facts, "terrain", msg("Terrain cards shift: the develop card moves to dominate, the "
                                         "deploy card to develop."))
        self._checked(state, facts)

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
