"""7.0 Victory: the conditions checked at each Propaganda card (7.2) and the final ranking (7.3)."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import ALL_FACTIONS, FACTIONS, GOVT, GOVT_BASE, POLICE, TROOPS, A, B, U
from .board import BOARD as BD


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
    facts.append(fact("game_over", msg("Game over ({why}): {winner} ranks first", why=why, winner=res['winner']), result=res))


def metrics(state: dict) -> dict:
    """The public measures of a position (Rules.metrics): tracks, margins (7.3), Control, forces."""
    m = P.margins(state)
    out = {"total_support": P.total_support(state), "opposition_plus_bases": P.opposition_plus_bases(state),
           "aid": state["aid"], "shipments": len(state["ship"]),
           "el_presidente": state["pres"], "farc_zones": len(state["zones"])}
    pop_g = pop_f = 0
    for i in P.spaces(state):
        c = P.control(state, i)
        if c == "govt":
            pop_g += BD.pop[i]
        elif c == "farc":
            pop_f += BD.pop[i]
    out["pop_govt_control"] = pop_g
    out["pop_farc_control"] = pop_f
    for f in ALL_FACTIONS:
        k = FACTIONS[f]
        out[f"{k}_resources"] = state["res"][f]
        out[f"{k}_margin"] = m[f]
        if f == GOVT:
            out["govt_bases"] = P.count_on_map(state, GOVT_BASE)
            out["govt_troops"] = P.count_on_map(state, TROOPS)
            out["govt_police"] = P.count_on_map(state, POLICE)
        else:
            out[f"{k}_bases"] = P.count_on_map(state, B(f))
            out[f"{k}_guerrillas"] = P.count_on_map(state, U(f)) + P.count_on_map(state, A(f))
    return out
