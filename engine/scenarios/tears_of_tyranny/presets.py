"""Tears of Tyranny's session-length presets (issue 18; docs/rules-notes/tears-of-tyranny.md,
"Classroom presets").

No rule changes: both presets use the Blitz scenario panel (5: the 12-card terrain deck of
2.B and 2 extra starting resources), so unless a side wins earlier (4) the game ends when the
adversary's deployment finds the terrain deck empty (time runs out, A-18), where the panel's
own check decides: the team wins at influence level 2 or higher. The player counts are the
rulebook's (1.A). Measured figures: docs/benchmarks.md,
"Session-length presets".
"""

from __future__ import annotations

from engine.core.contract import Preset
from engine.core.messages import msg


def presets() -> list[Preset]:
    return [
        Preset("class_50", msg("Blitz, one team per session (about 50 minutes)"),
               {"scenario": "blitz", "players": 1}, 1, 50,
               msg("Blitz scenario with one quadrant: each team plays its own session, side by "
                   "side. With more teams in one session no rulebook option fits 50 minutes.")),
        Preset("class_90", msg("Blitz, four teams (about 90 minutes)"),
               {"scenario": "blitz", "players": 4}, 4, 90,
               msg("Blitz scenario with a team in each of the four quadrants; the game ends by "
                   "victory or when the 12-card terrain deck runs out (the Blitz panel's final check).")),
    ]
