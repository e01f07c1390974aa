"""4 Victory and defeat, and the scenario panels' own end conditions (A-53, A-55).

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content

C = content()


class VictoryMixin:
    def _check_end(self, state, facts) -> None:
        """A-53: checked after every atomic resolution; defeat wins ties."""
        if state["result"] is not None or state["phase"] == "hq":
            return
        if state["tyr_pool"] <= 0:
            state["result"] = self._result(state, "adversary", msg("total tyranny: every available tyranny token is on the map"))
        else:
            held = {s for t in state["tiles"].values() for s in t["pres"]}
            for seat in state["seats"]:
                if seat not in held:
                    state["result"] = self._result(state, "adversary", msg("presence annihilation: the {seat} have no presence left", seat=T.SEAT[seat]))
                    break
        if state["result"] is None:
            inf = state["inf"]
            lvl = inf["level"]
            n = {"cell": 0, "outpost": 0, "garrison": 0}
            for t in state["tiles"].values():
                for u in t["u"]:
                    n[u[0]] += 1
            if len(inf["played"]) >= inf["total"]:
                state["result"] = self._result(state, "players", msg("level 4: every influence card has been played"))
            elif lvl == 1 and not (n["cell"] + n["outpost"] + n["garrison"]):
                state["result"] = self._result(state, "players", msg("level 1: no adversary units remain"))
            elif lvl == 2 and not (n["outpost"] + n["garrison"]):
                state["result"] = self._result(state, "players", msg("level 2: no outposts or garrisons remain"))
            elif lvl == 3 and not n["garrison"]:
                state["result"] = self._result(state, "players", msg("level 3: no garrisons remain"))
        if state["result"] is None:
            self._scenario_end(state, "always")
        if state["result"] is not None:
            state["phase"] = "over"
            state["g"] = []
            for s in state["seats"]:
                state["frames"][s] = []
            B.add_fact(facts, "end", msg("Game over: {winner} win ({reason}).", winner=T.SIDE[state["result"]["winner"]],
                                         reason=state["result"]["reason"]), barrier=True)

    def scenario_condition_met(self, state, cond) -> bool:
        """5 (A-55): one end condition of the scenario panel in play."""
        inf = state["inf"]
        chk = cond["check"]
        if chk == "level_below_by_turn":
            return state["turn"] >= cond["turn"] and inf["level"] < cond["level"]
        if chk == "level_at_least":
            return inf["level"] >= cond["level"]
        if chk == "no_tyranny":
            return B.tyranny_on_map(state) == 0 and inf["level"] >= cond["level"]
        if chk == "civilians_killed":
            return state["stats"]["civilians_killed"] >= cond["per_player"] * len(state["seats"])
        if chk == "blue_share":
            blue = sum(t["blue"] for t in state["tiles"].values())
            red = sum(t["red"] for t in state["tiles"].values())
            return blue > 0 and blue >= cond["ratio"] * red and inf["level"] >= cond["level"]
        raise AssertionError(chk)  # pragma: no cover - validated in data.validate

    def _scenario_end(self, state, when) -> None:
        """The scenario panel's own victory and defeat conditions (defeats first, A-53)."""
        conds = [c for c in C.scenarios[state["opts"]["scenario"]].get("victory", []) if c["when"] == when]
        for cond in sorted(conds, key=lambda c: c["outcome"] != "adversary"):
            if self.scenario_condition_met(state, cond):
                state["result"] = self._result(state, cond["outcome"], msg("scenario: {reason}", reason=msg(cond["reason"])))
                return

    def _result(self, state, winner, reason) -> dict:
        inf = state["inf"]
        score = inf["n_earned"] * 10 + inf["earned"] - 5 * B.tyranny_on_map(state)
        return {"winner": winner, "reason": reason, "turn": state["turn"], "influence_level": inf["level"],
                "influence_cards_played": len(inf["played"]),
                "ranking": ["players", "adversary"] if winner == "players" else ["adversary", "players"],
                "margin": {"influence_cards_earned": inf["n_earned"], "tyranny_pool_left": state["tyr_pool"],
                           "score": score},
                "seats": list(state["seats"])}

    def result(self, state) -> dict | None:
        return state["result"]
