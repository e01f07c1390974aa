"""Tears of Tyranny (NPS, 2022): cooperative irregular-warfare game for 1-4 players.

``engine.load("tears_of_tyranny")`` returns :data:`RULES`. Rules modules: ``game`` (setup, sequence
of play, victory), ``board`` (pieces, combat, tracks), ``adversary`` (dominate, develop, deploy,
events, influence cards), ``vocab`` (effect vocabulary), ``data`` (authored content + validator),
``bots`` (heuristic players). Content is authored by ``tools/content/tears_of_tyranny_authoring.py`` into ``data/*.json``.
"""

from engine.scenarios.tears_of_tyranny.game import TearsOfTyranny

RULES = TearsOfTyranny()

__all__ = ["RULES", "TearsOfTyranny"]
