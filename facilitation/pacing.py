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


def options_digest(options: dict | None) -> str:
    """A short stable name of an option set, for cache keys."""
    import hashlib
    import json

    return hashlib.sha256(json.dumps(options or {}, sort_keys=True).encode()).hexdigest()[:32]


def _played_key(game_key: str, options: dict | None, games: int, bots: str) -> str:
    from .eventlog import rules_fingerprint

    return f"pace-games:{rules_fingerprint(game_key)}:{game_key}:{games}:{bots}:{options_digest(options)}"


def played_games(game_key: str, options: dict | None = None, games: int = 12, *, play: bool = True) -> list | None:
    """The bot-played games a session estimate counts (``engine.core.pace.game_decisions``),
    kept in the cache with no expiry under the engine's rules fingerprint: they depend only on
    the rules, the options and the seeds, so they are played once per engine version (a
    four-player Tears of Tyranny game is about 4.5 s of CPU: six of them are too slow for a
    request, see ``warm_estimates``). With ``play=False``: None when they are not kept yet."""
    import engine
    from engine.core.pace import game_decisions

    rules = engine.load(game_key)
    bots = pace_bot_kind(rules)
    key = _played_key(game_key, options, games, bots)
    hit = cache.get(key)
    if hit is not None or not play:
        return hit
    played = [game_decisions(rules, 1 + g, options, bots) for g in range(games)]
    cache.set(key, played, None)
    return played


def session_estimate(game_key: str, options: dict | None = None, games: int = 12, *,
                     play: bool = True) -> dict | None:
    """``engine.core.pace.estimate`` with the logged time model, cached for an hour per game
    and options (the logged times change slowly); the bot games under it are kept for the
    engine version (:func:`played_games`). With ``play=False`` (a web request): None when those
    games are not played yet (``tasks.request_pace_games`` has a worker play them)."""
    import engine
    from engine.core.pace import estimate

    rules = engine.load(game_key)
    bots = pace_bot_kind(rules)
    key = f"pace:{game_key}:{games}:{bots}:{options_digest(options)}"
    hit = cache.get(key)
    if hit is not None:
        return hit
    decisions = played_games(game_key, options, games, play=play)
    if decisions is None:
        return None
    out = estimate(rules, options=options, games=games, model=time_model(game_key), bots=bots, decisions=decisions)
    cache.set(key, out, 3600)
    return out


def estimate_options(game_key: str) -> list[dict]:
    """The option sets the scheduling page prices for ``game_key``: its defaults and each
    length preset's options."""
    import engine

    rules = engine.load(game_key)
    return [{}] + [dict(p.options) for p in rules.presets()]


def warm_estimates(games: int, game_keys: list[str] | None = None) -> int:
    """Play and keep the bot games of every estimate the scheduling page shows (each game's
    defaults and length presets), so no instructor waits for them; returns how many option
    sets were warmed. Run by ``manage.py pace_warm`` (deploy step, ``./scripts/run``); an estimate
    asked for before that is played by a Celery worker (``tasks.request_pace_games``)."""
    from engine.core import registry

    n = 0
    for key in game_keys or registry.keys():
        for options in estimate_options(key):
            played_games(key, options, games)
            n += 1
    return n
