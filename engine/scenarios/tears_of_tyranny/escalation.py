"""3.F Dominate's player decisions: escalation by consensus (A-13), the counterattack (A-15), and the other team-wide questions asked inside the adversary phase.

The team-wide questions are frame kinds of ``frames.FramesMixin.team_flow``: their ``ask`` (the
prompt, which is the legality) and ``act`` are here. A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core.contract import Choice, ChoiceKind
from engine.core.flow import Ask
from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.panel import (
    ROWS,
    _hit_unit,
    income,
    plays_limit,
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
    # ---- team-wide questions (the adversary phase and effects) -------------------------------
    def _cover_ask(self, state, seat, fr):
        pl = state["pl"][fr["seat"]]
        ch = [Choice(f"cover:{r}", (msg("Cover a circle of the income row (your income is {n} resources a turn "
                                        "before it is covered)", n=income(pl, fr["seat"])) if r == "resources" else
                                    msg("Cover a circle of the card-plays row (you may play {n} cards a turn "
                                        "before it is covered)", n=plays_limit(pl, fr["seat"]))),
                     {"row": r}, kind=ChoiceKind.OPTION, targets={"row": r}, rule="A-44", help=COVER_HELP)
              for r in ROWS if pl["open"][r] > 1]
        return _team_ask(fr, ch or [Choice("skip", msg("No circle left to cover"), {}, kind=ChoiceKind.PASS,
                                           rule="A-44", help=COVER_HELP)])

    def _cover_act(self, state, seat, fr, cid, facts):
        """A-44: a Partisan presence back on the panel covers a circle of the row chosen."""
        state["g"].pop()
        if cid.startswith("cover:"):
            B.cover_row(state, fr["seat"], cid.split(":", 1)[1], facts)

    def _escalate_ask(self, state, seat, fr):
        return _team_ask(fr, [Choice(f"esc:{t}", msg("Propose {tile} for the spill-over", tile=self._esc_label(state, t)),
                                     {"tile": t}, kind=ChoiceKind.SPACE, targets={"tile": t}, rule="3.F (A-13)",
                                     help=ESC_HELP)
                              for t in self.escalation_candidates(state, fr)])

    def _escalate_act(self, state, seat, fr, cid, facts):
        """3.F (A-13): any seat proposes the spill-over tile."""
        state["g"].pop()
        self._escalation_proposal(state, fr, seat, cid.split(":", 1)[1], facts)

    def _esc_confirm_ask(self, state, seat, fr):
        t = fr["proposal"]
        return _team_ask(fr, [
            Choice("agree", msg("Agree: the spill-over goes into {tile}", tile=B.tname(t)), {"tile": t},
                   kind=ChoiceKind.CONFIRM, targets={"tile": t}, rule="3.F (A-13)", help=AGREE_HELP),
            Choice("object", msg("Object to {tile} (it is struck off; someone proposes another tile)",
                                 tile=B.tname(t)), {"tile": t}, kind=ChoiceKind.OPTION, targets={"tile": t},
                   rule="3.F (A-13)", help=OBJECT_HELP)])

    def _esc_confirm_act(self, state, seat, fr, cid, facts):
        """3.F (A-13): every other seat agrees to the proposal, or objects and strikes the tile off."""
        state["g"].pop()
        if cid == "agree":
            fr["pending"].remove(seat)
            B.add_fact(facts, "consensus", msg("The {seat} agree to the spill-over into {tile}.", seat=T.SEAT[seat],
                                               tile=B.tname(fr["proposal"])), seat=seat, tile=fr["proposal"])
            if fr["pending"]:
                state["g"].append(fr)
            else:
                B.add_fact(facts, "consensus", msg("The team agrees: tyranny spills over into {tile}.",
                                                   tile=B.tname(fr["proposal"])), tile=fr["proposal"])
                ADV.escalate_into(state, fr["proposal"], facts)
            return
        B.add_fact(facts, "consensus", msg("The {seat} object to the spill-over into {tile}; it is struck off "
                                           "the candidates.", seat=T.SEAT[seat], tile=B.tname(fr["proposal"])),
                   seat=seat, tile=fr["proposal"])
        nxt = {"k": "escalate", "tile": fr["tile"], "struck": fr["struck"] + [fr["proposal"]],
               "text": fr["text0"], "rule": fr["rule"]}
        left = self.escalation_candidates(state, nxt)
        if len(left) == 1:
            B.add_fact(facts, "consensus", msg("Only {tile} is left: the spill-over goes there.",
                                               tile=B.tname(left[0])), tile=left[0])
            ADV.escalate_into(state, left[0], facts)
        else:
            state["g"].append(nxt)

    def _counterattack_ask(self, state, seat, fr):
        return _team_ask(fr, self._alloc_choices(state, fr))

    def _counterattack_act(self, state, seat, fr, cid, facts):
        """3.F guerrilla counterattack: the director assigns the next hit."""
        state["g"].pop()
        self._counter_hit(state, fr, cid.split(":", 1)[1], facts)

    def _event_recruit_ask(self, state, seat, fr):
        return _team_ask(fr, [Choice(f"recruit:{t}", msg("Recruit {gs} at your headquarters in {tile}",
                                                         gs=T.count(fr["n"], "guerrilla"), tile=B.tname(t)),
                                     {"tile": t}, kind=ChoiceKind.SPACE, targets={"tile": t}, rule="1.I",
                                     help=RECRUIT_HELP)
                              for t in ADV.recruit_homes(state, fr["seat"])] or [
            Choice("skip", msg("No presence left"), {}, kind=ChoiceKind.PASS, rule="1.I", help=RECRUIT_HELP)])

    def _event_recruit_act(self, state, seat, fr, cid, facts):
        """1.I: an event's recruits go to a headquarters of the seat's choice."""
        state["g"].pop()
        if cid.startswith("recruit:"):
            ADV.recruit_at(state, fr["seat"], cid.split(":", 1)[1], fr["n"], facts, fr["cause"])

    def _influence_debt_ask(self, state, seat, fr):
        who = fr["seat"]
        pl = state["pl"][who]
        ch = [Choice("pay:resource", msg("Pay 1 resource ({resources} left)",
                                         resources=T.count(pl["res"], "resource")), {},
                     kind=ChoiceKind.OPTION, cost={"resources": 1}, rule="1.H (A-24)", help=DEBT_HELP)] \
            if pl["res"] > 0 else []
        own = [t for t in state["order"] if state["tiles"][t]["pres"].get(who)]
        last = sum(state["tiles"][t]["pres"][who] for t in own) == 1
        for t in own:
            if last:
                label = msg("Remove your last presence, from {tile}: you would lose the game (4)", tile=B.tname(t))
            elif who == "partisans":
                label = msg("Remove 1 presence from {tile} (it returns to your panel)", tile=B.tname(t))
            else:
                label = msg("Remove 1 presence from {tile}", tile=B.tname(t))
            ch.append(Choice(f"pay:presence:{t}", label, {"tile": t}, kind=ChoiceKind.SPACE, targets={"tile": t},
                             rule="1.H (A-24)", help=DEBT_HELP))
        return _team_ask(fr, ch or [Choice("skip", msg("Nothing left to pay with"), {}, kind=ChoiceKind.PASS,
                                           rule="1.H (A-24)", help=DEBT_HELP)])

    def _influence_debt_act(self, state, seat, fr, cid, facts):
        """1.H (A-24): influence lost while the box is empty is paid with a resource or a presence."""
        state["g"].pop()
        who = fr["seat"]
        if cid == "pay:resource":
            pl = state["pl"][who]
            pl["res"] -= 1
            B.add_fact(facts, "track", msg("Influence box empty: the {seat} pay 1 resource instead ({cause}).",
                                           seat=T.SEAT[who], cause=fr["cause"]),
                       track="resources", delta=-1, value=pl["res"], cause=fr["cause"], seat=who,
                       deltas={f"resources_{who}": -1})
        elif cid.startswith("pay:presence:"):
            B.remove_one_presence(state, who, cid.split(":", 2)[2], facts,
                                  msg("paid for lost influence: {cause}", cause=fr["cause"]))

    def _shield_ask(self, state, seat, fr):
        return _team_ask(fr, [
            Choice("shield", msg("Give up 1 presence to stop the {step} in {tile}", step=T.STEP[fr["step"]],
                                 tile=B.tname(fr["tile"])), {"tile": fr["tile"]}, kind=ChoiceKind.OPTION,
                   targets={"tile": fr["tile"]}, rule="Partisans panel (A-51)", help=SHIELD_HELP),
            Choice("decline", msg("Let it happen"), {}, kind=ChoiceKind.PASS, rule="Partisans panel (A-51)",
                   help=LET_HELP)])

    def _shield_act(self, state, seat, fr, cid, facts):
        """Partisans panel (A-51): give up a presence to stop the adversary's step at the HQ."""
        state["g"].pop()
        if cid == "shield":
            B.remove_one_presence(state, "partisans", fr["tile"], facts, msg("HQ shield"))
            state["tiles"][fr["tile"]]["prev"].append(fr["step"])
            B.add_fact(facts, "protect", msg("The Partisans give up a presence to stop the {step} in {tile}.",
                                             step=T.STEP[fr["step"]], tile=B.tname(fr["tile"])),
                       tile=fr["tile"], seat="partisans")
        self.play_flow.top(state)["asked"] = True     # the step waits under the question: it runs now

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



def _team_ask(fr: dict, choices: list) -> Ask:
    """A team-wide question: its words and rule are written in the frame when it is raised."""
    return Ask(fr.get("seat", ""), fr["text"], fr["rule"], choices, {"kind": fr["k"]})
