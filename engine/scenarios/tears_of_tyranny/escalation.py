"""3.F Dominate's player decisions: escalation by consensus (A-13), the counterattack (A-15), and the other team-wide questions asked inside the adversary phase.

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.panel import (
    _hit_unit,
)

C = content()


COVER_HELP = msg("A Partisan presence back on your panel covers the rightmost open circle of the row you choose "
                 "(A-44).")
ESC_HELP = msg("Proposes this tile for the extra tyranny token and cell; every other player must agree (3.F, A-13).")
AGREE_HELP = msg("Accepts the proposal; when everyone agrees the token and cell go there (3.F, A-13).")
OBJECT_HELP = msg("Strikes this tile off the candidates; someone then proposes another one (A-13).")
RECRUIT_HELP = msg("The event's recruits go to this headquarters of yours (1.I).")
DEBT_HELP = msg("The influence lost while the box is empty is paid with a resource or one of your presence (1.H, "
                "A-24).")
SHIELD_HELP = msg("Removes one of your presence here, and the adversary's step does not happen in this tile this "
                  "turn (Partisans panel, A-51).")
LET_HELP = msg("Keeps your presence; the adversary's step happens here.")


class EscalationMixin:
    def _esc_label(self, state, tid):
        """A spill-over candidate with what is at stake there (issue 16.8): presence lost, civilians."""
        t = state["tiles"][tid]
        pres = sum(t["pres"].values())
        return msg("{tile}: {presence} presence, {blue} blue and {red} red civilians, {units} adversary units",
                   tile=B.tname(tid), presence=pres, blue=t["blue"], red=t["red"], units=len(t["u"]))

    def escalation_candidates(self, state: dict, fr: dict) -> list[str]:
        """The adjacent map tiles still open for the spill-over (objected tiles are struck off)."""
        return [t for t in ADV.escalate_choices(state, fr["tile"]) if t not in fr.get("struck", [])]

    def _escalation_proposal(self, state, fr, seat, tid, facts) -> None:
        """3.F: "the adjacent tile is chosen by player consensus". The proposal needs every other
        seat's agreement; solo, the proposal is the decision."""
        others = [s for s in state["seats"] if s != seat]
        if not others:
            ADV.escalate_into(state, tid, facts)
            return
        B.add_fact(facts, "consensus", msg("The {seat} propose the spill-over into {tile}.", seat=T.SEAT[seat],
                                           tile=B.tname(tid)), seat=seat, tile=tid)
        state["g"].append({"k": "esc_confirm", "tile": fr["tile"], "struck": fr.get("struck", []), "proposal": tid,
                           "proposer": seat, "pending": others, "text0": fr["text"], "rule": fr["rule"],
                           "text": msg("The {seat} propose that tyranny spills over from {src} into {tile}. Do you "
                                       "agree? An objection strikes the tile off.", seat=T.SEAT[seat],
                                       src=B.tname(fr["tile"]), tile=B.tname(tid))})

    def _escalate(self, state, esc, facts) -> bool:
        """3.F escalation spill-over from ``esc``; False when the team must decide the tile (A-13)."""
        if not esc or state["result"] is not None or state["tyr_pool"] <= 0:
            return True
        self._check_end(state, facts)
        cand = ADV.escalate_choices(state, esc) if state["result"] is None else []
        if len(cand) == 1:
            ADV.escalate_into(state, cand[0], facts)
        elif cand:
            state["g"].append({"k": "escalate", "tile": esc, "struck": [],
                               "text": msg("Tyranny escalates in {tile}: the team chooses, by consensus, the "
                                           "adjacent tile that receives a tyranny token and a cell, and loses its "
                                           "presence. Any player proposes a tile; the others agree or object. {situation}",
                                           tile=B.tname(esc), situation=self.situation(state)),
                               "rule": "3.F (A-13)"})
            return False
        return True

    def _counter_hit(self, state, fr, kind, facts) -> None:
        """3.F guerrilla counterattack: the director's next target (``hit:<unit>``), at bare health."""
        tid = fr["tile"]
        t = state["tiles"][tid]
        seat = fr["seat"]
        _hit_unit(state, tid, kind, fr, facts, seat, ADV.COUNTERATTACK)
        if fr["alloc"] and ADV.counter_choice_needed(t, fr["alloc"]):
            state["g"].append(fr)
            return
        if fr["alloc"]:
            excess = B.allocate(state, tid, fr["alloc"], facts, seat, ADV.COUNTERATTACK)
            if excess:
                B.collateral(state, tid, excess, facts, seat, ADV.COUNTERATTACK)
        B.clear_tyranny_check(state, tid, facts)
        self._escalate(state, fr.get("esc"), facts)

    def _worth_asking(self, state, tid, step) -> bool:
        if step == "develop":
            return bool(state["tiles"][tid]["u"])
        return ADV.dominate_strength(state, tid) >= 1
