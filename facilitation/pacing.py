"""Session length estimates for the scheduling page and ``coinlab pace --from-logs``.

The engine counts decisions in bot-played games (:mod:`engine.core.pace`); this module gives
it the time per decision seen in logged sessions: the median ``decision_ms`` of the human
decisions of the game (a team's thinking time, measured by the play page from the moment
the prompt was shown). Decisions over :data:`LONGEST_COUNTED_MS` are left out (a pause, a
briefing, a team that left the room), as are sessions' bot moves.
"""

from __future__ import annotations

import statistics

from django.core.cache import cache

from engine.core.pace import TimeModel

from .models import SessionEvent

#: A decision that took longer than this is not thinking time (docs/pacing.md).
LONGEST_COUNTED_MS = 10 * 60 * 1000
#: How many of the latest logged decisions the median is taken over.
SAMPLE = 5000


def time_model(game_key: str) -> TimeModel:
    """The time model for ``game_key``: scaled to logged decision times when there are any."""
    ms = list(
        SessionEvent.objects.filter(session__scenario_key=game_key, kind=SessionEvent.Kind.DECISION,
                                    actor__isnull=False, decision_ms__isnull=False,
                                    decision_ms__gt=0, decision_ms__lte=LONGEST_COUNTED_MS)
        .order_by("-id").values_list("decision_ms", flat=True)[:SAMPLE])
    if not ms:
        return TimeModel()
    return TimeModel.observed(statistics.median(ms) / 1000.0, len(ms))


def pace_bot_kind(rules) -> str:
    """The bots that play the priced games: the game's heuristic bot, else random play. Never
    Andean Abyss's section-8 Non-player bot: it makes every Faction a Non-player, which leaves
    the seats almost nothing to decide (2 minutes for a 90-minute preset; docs/benchmarks.md
    prices Andean Abyss with random bots for that reason)."""
    return "heuristic" if "heuristic" in rules.bot_kinds() else "random"


def session_estimate(game_key: str, options: dict | None = None, games: int = 12) -> dict:
    """``engine.core.pace.estimate`` with the logged time model, cached for an hour per game
    and options (the bot games are deterministic; the logged times change slowly)."""
    import hashlib
    import json

    import engine
    from engine.core.pace import estimate

    rules = engine.load(game_key)
    bots = pace_bot_kind(rules)
    digest = hashlib.sha256(json.dumps(options or {}, sort_keys=True).encode()).hexdigest()[:32]
    key = f"pace:{game_key}:{games}:{bots}:{digest}"
    hit = cache.get(key)
    if hit is not None:
        return hit
    out = estimate(rules, options=options, games=games, model=time_model(game_key), bots=bots)
    cache.set(key, out, 3600)
    return out
