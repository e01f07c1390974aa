"""3.F Dominate's player decisions: escalation by consensus (A-13), the counterattack (A-15), and the other team-wide questions asked inside the adversary phase.

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core.contract import Choice
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.panel import (
    ROWS,
    _hit_unit,
    income,
    plays_limit,
)

C = content()


class EscalationMixin:
    def _global_choices(self, state: dict, fr: dict) -> list[Choice]:
        if fr["k"] == "cover":
            pl = state["pl"][fr["seat"]]
            ch = [Choice(f"cover:{r}", (f"Cover a circle of the income row (your income is {income(pl, fr['seat'])} "
                                        "resources a turn before it is covered)" if r == "resources" else
                                        "Cover a circle of the card-plays row (you may now play "
                                        f"{plays_limit(pl, fr['seat'])} cards a turn before it is covered)"),
                         {"row": r}) for r in ROWS if pl["open"][r] > 1]
            return ch or [Choice("skip", "No circle left to cover", {})]
        if fr["k"] == "escalate":
            return [Choice(f"esc:{t}", f"Propose {B.tname(t)} for the spill-over", {"tile": t})
                    for t in self.escalation_candidates(state, fr)]
        if fr["k"] == "esc_confirm":
            t = fr["proposal"]
            return [Choice("agree", f"Agree: the spill-over goes into {B.tname(t)}", {"tile": t}),
                    Choice("object", f"Object to {B.tname(t)} (it is struck off; someone proposes another tile)",
                           {"tile": t})]
        if fr["k"] == "counterattack":
            return self._alloc_choices(state, fr)
        if fr["k"] == "event_recruit":
            return [Choice(f"recruit:{t}", f"Recruit {fr['n']} G at your headquarters in {B.tname(t)}", {"tile": t})
                    for t in ADV.recruit_homes(state, fr["seat"])] or [Choice("skip", "No presence left", {})]
        if fr["k"] == "influence_debt":
            who = fr["seat"]
            pl = state["pl"][who]
            ch = [Choice("pay:resource", f"Pay 1 resource ({pl['res']} left)", {})] if pl["res"] > 0 else []
            own = [t for t in state["order"] if state["tiles"][t]["pres"].get(who)]
            last = sum(state["tiles"][t]["pres"][who] for t in own) == 1
            ch += [Choice(f"pay:presence:{t}", f"Remove 1 presence from {B.tname(t)}"
                          + (" (your last: you would lose the game, 4)" if last else "")
                          + (" (it returns to your panel)" if who == "partisans" else ""), {"tile": t}) for t in own]
            return ch or [Choice("skip", "Nothing left to pay with", {})]
        return [Choice("shield", f"Give up 1 presence to stop the {fr['step']} in {B.tname(fr['tile'])}",
                       {"tile": fr["tile"]}),
                Choice("decline", "Let it happen", {})]

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
        B.add_fact(facts, "consensus", f"{seat.title()} propose the spill-over into {B.tname(tid)}.", seat=seat, tile=tid)
        state["g"].append({"k": "esc_confirm", "tile": fr["tile"], "struck": fr.get("struck", []), "proposal": tid,
                           "proposer": seat, "pending": others, "text0": fr["text"], "rule": fr["rule"],
                           "text": f"{seat.title()} propose that tyranny spills over from {B.tname(fr['tile'])} into "
                                   f"{B.tname(tid)}. Do you agree? An objection strikes the tile off."})

    def _apply_global(self, state, seat, cid, facts) -> None:
        fr = state["g"].pop()
        if fr["k"] == "cover":
            if cid.startswith("cover:"):
                B.cover_row(state, fr["seat"], cid.split(":", 1)[1], facts)
        elif fr["k"] == "escalate":
            self._escalation_proposal(state, fr, seat, cid.split(":", 1)[1], facts)
        elif fr["k"] == "esc_confirm":
            if cid == "agree":
                fr["pending"].remove(seat)
                B.add_fact(facts, "consensus", f"{seat.title()} agree to the spill-over into {B.tname(fr['proposal'])}.",
                           seat=seat, tile=fr["proposal"])
                if fr["pending"]:
                    state["g"].append(fr)
                else:
                    B.add_fact(facts, "consensus", f"The team agrees: tyranny spills over into {B.tname(fr['proposal'])}.",
                               tile=fr["proposal"])
                    ADV.escalate_into(state, fr["proposal"], facts)
            else:
                B.add_fact(facts, "consensus", f"{seat.title()} object to the spill-over into {B.tname(fr['proposal'])}; "
                           "it is struck off the candidates.", seat=seat, tile=fr["proposal"])
                nxt = {"k": "escalate", "tile": fr["tile"], "struck": fr["struck"] + [fr["proposal"]],
                       "text": fr["text0"], "rule": fr["rule"]}
                left = self.escalation_candidates(state, nxt)
                if len(left) == 1:
                    B.add_fact(facts, "consensus", f"Only {B.tname(left[0])} is left: the spill-over goes there.",
                               tile=left[0])
                    ADV.escalate_into(state, left[0], facts)
                else:
                    state["g"].append(nxt)
        elif fr["k"] == "event_recruit":
            if cid.startswith("recruit:"):
                ADV.recruit_at(state, fr["seat"], cid.split(":", 1)[1], fr["n"], facts, fr["cause"])
        elif fr["k"] == "influence_debt":
            who = fr["seat"]
            if cid == "pay:resource":
                pl = state["pl"][who]
                pl["res"] -= 1
                B.add_fact(facts, "track", f"Influence box empty: {who.title()} pay 1 resource instead ({fr['cause']}).",
                           track="resources", delta=-1, value=pl["res"], cause=fr["cause"], seat=who)
            elif cid.startswith("pay:presence:"):
                B.remove_one_presence(state, who, cid.split(":", 2)[2], facts, f"paid for lost influence: {fr['cause']}")
        elif fr["k"] == "counterattack":
            self._counter_hit(state, fr, cid.split(":", 1)[1], facts)
        elif fr["k"] == "shield":
            if cid == "shield":
                B.remove_one_presence(state, "partisans", fr["tile"], facts, "HQ shield")
                state["tiles"][fr["tile"]]["prev"].append(fr["step"])
                B.add_fact(facts, "protect", f"Partisans give up a presence to stop the {fr['step']} in {B.tname(fr['tile'])}.",
                           tile=fr["tile"], seat="partisans")
            state["adv"][0]["asked"] = True
        self._check_end(state, facts)

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
                               "text": f"Tyranny escalates in {B.tname(esc)}: the team chooses, by consensus, the "
                                       "adjacent tile that receives a tyranny token and a cell. Any player "
                                       "proposes a tile; the others agree or object.",
                               "rule": "3.F (A-13)"})
            return False
        return True

    def _counter_hit(self, state, fr, kind, facts) -> None:
        """3.F guerrilla counterattack: the director's next target (``hit:<unit>``), at bare health."""
        tid = fr["tile"]
        t = state["tiles"][tid]
        seat = fr["seat"]
        _hit_unit(state, tid, kind, fr, facts, seat, "guerrilla counterattack")
        if fr["alloc"] and ADV.counter_choice_needed(t, fr["alloc"]):
            state["g"].append(fr)
            return
        if fr["alloc"]:
            excess = B.allocate(state, tid, fr["alloc"], facts, seat, "guerrilla counterattack")
            if excess:
                B.collateral(state, tid, excess, facts, seat, "guerrilla counterattack")
        B.clear_tyranny_check(state, tid, facts)
        self._escalate(state, fr.get("esc"), facts)

    def _worth_asking(self, state, tid, step) -> bool:
        if step == "develop":
            return bool(state["tiles"][tid]["u"])
        return ADV.dominate_strength(state, tid) >= 1
