"""Finding scenarios by key: ``engine.load("peru")``.

Each scenario is a package ``engine.scenarios.<key>`` exposing ``RULES``, an
instance of :class:`engine.core.contract.Rules`.
"""

from __future__ import annotations

import importlib
import pkgutil

from engine.core.contract import Rules

_cache: dict[str, Rules] = {}


class UnknownScenario(KeyError):
    pass


def load(key: str) -> Rules:
    """The rules of scenario ``key`` (raises :class:`UnknownScenario`)."""
    if key in _cache:
        return _cache[key]
    if not isinstance(key, str) or not key.isidentifier():
        raise UnknownScenario(f"Unknown scenario {key!r}.")
    try:
        mod = importlib.import_module(f"engine.scenarios.{key}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("engine.scenarios"):
            raise UnknownScenario(f"Unknown scenario {key!r}. Known: {', '.join(keys())}") from None
        raise
    rules = getattr(mod, "RULES", None)
    if not isinstance(rules, Rules):
        raise UnknownScenario(f"Scenario package {key!r} has no RULES.")
    _cache[key] = rules
    return rules


def keys() -> list[str]:
    pkg = importlib.import_module("engine.scenarios")
    return sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if m.ispkg)


def scenarios() -> list[dict]:
    """Every installed scenario: key, title, seats and player range."""
    out = []
    for k in keys():
        try:
            r = load(k)
        except UnknownScenario:
            continue
        out.append({
            "key": r.key,
            "title": r.title,
            "seats": [{"id": s.id, "title": s.title, "color": s.color} for s in r.seats],
            "min_players": r.min_players,
            "max_players": r.max_players,
        })
    return out
