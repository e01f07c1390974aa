"""4. Victory and defeat, as progress for the victory panel. The players' condition depends on
the influence level (the rulebook's victory conditions by level); the adversary wins by total
tyranny (every available tyranny token on the map)."""

from __future__ import annotations

from engine.core.messages import msg
from engine.core.victory import AT_LEAST, AT_MOST, Condition


def conditions(metrics: dict, influence: dict) -> list[Condition]:
    level = metrics["influence_level"]
    now = msg("as soon as it holds")
    cells, outposts, garrisons = metrics["adversary_cells"], metrics["adversary_outposts"], metrics["adversary_garrisons"]
    available = metrics["tyranny_total"] - metrics["tyranny_removed"]
    return [
        Condition("players", "win", msg("Influence level 1: no adversaries in the operational area"),
                  msg("Adversary units on the map"), cells + outposts + garrisons, 0, AT_MOST, "4", now, level == 1),
        Condition("players", "win", msg("Influence level 2: no adversary outposts or garrisons"),
                  msg("Adversary outposts and garrisons"), outposts + garrisons, 0, AT_MOST, "4", now, level == 2),
        Condition("players", "win", msg("Influence level 3: no adversary garrisons"),
                  msg("Adversary garrisons"), garrisons, 0, AT_MOST, "4", now, level == 3),
        Condition("players", "win", msg("Influence level 4: every influence card played"),
                  msg("Influence cards played"), metrics["influence_cards_played"], influence.get("total", 0),
                  AT_LEAST, "4", now, level >= 4),
        Condition("adversary", "win", msg("Total tyranny: every available tyranny token on the map"),
                  msg("Tyranny tokens on the map"), metrics["tyranny_on_map"], available, AT_LEAST, "4", now),
        Condition("adversary", "state", msg("State of tyranny (not yet a defeat): over half the tokens on the map"),
                  msg("Tyranny tokens on the map"), metrics["tyranny_on_map"], metrics["tyranny_threshold"],
                  AT_LEAST, "1.H", now),
    ]
