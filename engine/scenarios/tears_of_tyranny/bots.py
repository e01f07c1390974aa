"""Heuristic players for Tears of Tyranny (placeholder replaced below)."""

from engine.bots.base import Bot, BotDecision


class HeuristicBot(Bot):
    kind = "heuristic"

    def choose(self, state, prompt):
        ch = prompt.choices_for(self.seat)
        return BotDecision(ch[0].id, "first")
