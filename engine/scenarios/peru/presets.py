"""Peru's session-length presets (issue 18; docs/rules-notes/peru.md, "Classroom variant").

Both presets keep the rulebook's rules and change only how many of the three 9-card piles
the deck holds (setup option ``campaigns``, 2.1 Deck Preparation); the last pile always ends
with the final Propaganda card, so the game ends with the final victory check (7.0.2).
Measured figures: docs/benchmarks.md, "Session-length presets".
"""

from __future__ import annotations

from engine.core.contract import Preset
from engine.core.messages import msg

#: Two teams: Government and Shining Path (1.5).
PLAYERS = 2


def presets() -> list[Preset]:
    return [
        Preset("class_50", msg("Two campaigns (about 50 minutes)"), {"campaigns": 2}, PLAYERS, 50,
               msg("Two 9-card piles: President García, then the final Chairman Gonzalo card; "
                   "final victory check after its Political Will phase (7.0.2).")),
        Preset("class_90", msg("Full game (about 90 minutes)"), {"campaigns": 3}, PLAYERS, 90,
               msg("The rulebook game: three 9-card piles, leaving time for the briefing and "
                   "the after-action review.")),
    ]
