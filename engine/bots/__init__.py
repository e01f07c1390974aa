"""Players the engine can seat.

A bot answers ``choose(state, prompt, seat) -> BotDecision``. ``make_bot`` builds
one by kind: "random" works for every scenario; scenarios add their own kinds
("heuristic", "nonplayer", ...) through ``Rules.bot_kinds()``.
"""

from engine.bots.base import Bot, BotDecision, RandomBot, make_bot  # noqa: F401
