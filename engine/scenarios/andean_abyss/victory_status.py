"""7.2 Victory conditions, as progress for the victory panel (checked at each Propaganda Round;
after the final one the highest victory margin wins, 7.3)."""

from __future__ import annotations

from engine.core.messages import msg
from engine.core.victory import MORE_THAN, Condition


def conditions(metrics: dict) -> list[Condition]:
    when = msg("at each Propaganda Round; after the last, the highest margin wins (7.3)")
    return [
        Condition("govt", "win", msg("Total Support above 60"), msg("Total Support"),
                  metrics["total_support"], 60, MORE_THAN, "7.2", when),
        Condition("farc", "win", msg("Total Opposition plus FARC Bases above 25"), msg("Opposition + FARC Bases"),
                  metrics["opposition_plus_bases"], 25, MORE_THAN, "7.2", when),
        Condition("auc", "win", msg("more AUC Bases than FARC Bases"), msg("AUC Bases"),
                  metrics["auc_bases"], metrics["farc_bases"], MORE_THAN, "7.2", when),
        Condition("cartels", "win", msg("more than 10 Cartels Bases"), msg("Cartels Bases"),
                  metrics["cartels_bases"], 10, MORE_THAN, "7.2", when),
        Condition("cartels", "win", msg("and Cartels Resources above 40"), msg("Cartels Resources"),
                  metrics["cartels_resources"], 40, MORE_THAN, "7.2", when),
    ]
