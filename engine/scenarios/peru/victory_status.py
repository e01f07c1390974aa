"""7.0 Victory, as progress for the victory panel: Political Will decides (7.0.1, 7.0.2)."""

from __future__ import annotations

from engine.core.messages import msg
from engine.core.victory import AT_LEAST, AT_MOST, LESS_THAN, MORE_THAN, Condition


def conditions(metrics: dict) -> list[Condition]:
    pw = metrics["political_will"]
    will = msg("Political Will")
    propaganda = msg("at the Political Will Phase of each Propaganda Round")
    final = msg("at the end of the final Propaganda Round")
    return [
        Condition("shining_path", "win", msg("Political Will at 2 or less"), will, pw, 2, AT_MOST, "7.0.1", propaganda),
        Condition("government", "win", msg("Political Will at 18 or more"), will, pw, 18, AT_LEAST, "7.0.1", propaganda),
        Condition("shining_path", "win", msg("Political Will below 10"), will, pw, 10, LESS_THAN, "7.0.2", final),
        Condition("government", "win", msg("Political Will above 10"), will, pw, 10, MORE_THAN, "7.0.2", final),
    ]
