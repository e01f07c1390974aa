"""7.0 Victory: the conditions checked at each Propaganda card (7.2) and the final ranking (7.3)."""

from __future__ import annotations

from engine.core.contract import fact

from . import pieces as P
from .board import ALL_FACTIONS, FACTIONS


# ====================================================================== 6.0 Propaganda
def victory_met(st: dict) -> list:
    m = P.margins(st)
    return [m[f] > 0 for f in ALL_FACTIONS]


def finish_game(st: dict, facts: list, why: str, winner_check: bool = False) -> None:
    m = P.margins(st)
    # 1.5.1: a player running two Factions uses the lower margin
    seat_margin = {}
    for f in ALL_FACTIONS:
        s = st["ctl"][f] if f not in st["np"] else f"np:{FACTIONS[f]}"
        seat_margin[s] = min(seat_margin.get(s, 999), m[f])
    # 7.1 ties: Non-players, then Cartels, then AUC, then FARC (the Government last); the same
    # order breaks a tie between two Non-players
    tie = {"cartels": 0, "auc": 1, "farc": 2, "govt": 3}

    def key(f):
        s = st["ctl"][f] if f not in st["np"] else f"np:{FACTIONS[f]}"
        return (-seat_margin[s], 0 if f in st["np"] else 1, tie[FACTIONS[f]])
    ranking = sorted(range(4), key=key)
    res = {"reason": why, "margins": {FACTIONS[f]: m[f] for f in ALL_FACTIONS},
           "ranking": [FACTIONS[f] for f in ranking], "winner": FACTIONS[ranking[0]]}
    if winner_check:
        res["victory_check"] = True
    # 7.1: a Non-player passing a victory check makes all players lose; among the Non-players
    # that passed, the highest margin (7.1 tie order) is the winner, not the first in Faction order
    np_won = [f for f in ranking if f in st["np"] and winner_check and m[f] > 0]
    if np_won:
        res["players_lose"] = True
        res["winner"] = FACTIONS[np_won[0]]
    if len(st["np"]) == 3:  # 8.9 1-player victory
        pf = [f for f in ALL_FACTIONS if f not in st["np"]][0]
        deg = m[pf] - max(m[f] for f in st["np"])
        res["solo_margin"] = deg
        res["solo_result"] = ("Failure" if deg <= 0 else "Stalemate" if deg <= 3 else
                              "Progress" if deg <= 8 else "Triumph")
    st["over"] = res
    st["stack"] = []
    facts.append(fact("game_over", f"Game over ({why}): {res['winner']} ranks first", result=res))
