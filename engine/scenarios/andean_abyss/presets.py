"""Andean Abyss's session-length presets (issue 18; docs/rules-notes/andean-abyss.md,
"Classroom presets").

No rule changes: the presets use the rulebook's Quick-Play scenario (setup sheet: 24 Events
and 2 Propaganda cards, the 2nd one final, 2.4.1; victory by 7.3) and its player counts (1.5, section 8 Non-players for the
Factions no team plays). Measured figures: docs/benchmarks.md, "Session-length presets".
"""

from __future__ import annotations

from engine.core.contract import Preset
from engine.core.messages import msg


def presets() -> list[Preset]:
    return [
        Preset("class_50", msg("Quick-Play, two teams (about 50 minutes)"),
               {"scenario": "quick", "players": 2, "spare": "nonplayer"}, 2, 50,
               msg("Quick-Play scenario; the Government and FARC teams play, the AUC and the "
                   "Cartels are Non-players (section 8). Ends with the final Propaganda round.")),
        Preset("class_90", msg("Quick-Play, four teams (about 90 minutes)"),
               {"scenario": "quick", "players": 4}, 4, 90,
               msg("Quick-Play scenario with a team for each of the four Factions. Ends with the "
                   "final Propaganda round.")),
    ]
