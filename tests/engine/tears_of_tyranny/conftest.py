"""Fixtures for Tears of Tyranny engine tests: crafted boards on top of a real setup."""

from __future__ import annotations

import pytest

import engine
from engine.scenarios.tears_of_tyranny.data import content


@pytest.fixture(scope="session")
def rules():
    return engine.load("tears_of_tyranny")


@pytest.fixture(scope="session")
def C():
    return content()


def blank(rules, players=1, seed=1, keep_unit=True, **opts):
    """A set-up game with every tile emptied (pieces removed), HQs placed, in turn 1's window.

    ``keep_unit`` leaves one adversary cell in the last tile (deepest inland of the last
    quadrant) so that the level-1 victory does not end the game at the first action."""
    st = rules.setup(seed, {"players": players, **opts})
    for seat in list(st["seats"]):
        p = rules.prompt(st)
        ch = p.choices_for(seat)
        rules.apply_inplace(st, seat, ch[0].id)
    # the window opens on each seat's step menu (3); most tests start from the refit (3.A)
    for seat in st["seats"]:
        if st["frames"][seat] and st["frames"][seat][-1]["k"] == "steps":
            if seat == "partisans":   # the Partisans roll their d10 before refit: taken as failed here
                st["frames"][seat][-1]["taken"].append("roll")
            rules.apply_inplace(st, seat, "step:refit")
    for t in st["tiles"].values():
        t.update({"u": [], "red": 0, "blue": 0, "tyr": 0, "gs": {}, "bases": [], "def": 0, "prev": []})
    if keep_unit:
        st["tiles"][st["order"][-1]]["u"] = [["cell", 0]]
    return st


def find_tile(C, st, terrain=None, coastal=None, defense=None, quadrant=1, avoid=()):
    """The first tile of ``quadrant`` with the given static properties."""
    for tid in st["order"]:
        t = C.tiles[tid]
        if t["quadrant"] != quadrant or tid in avoid:
            continue
        if terrain and t["terrain"] != terrain:
            continue
        if coastal is not None and t["coastal"] != coastal:
            continue
        if defense is not None and t["defense_modifier"] != defense:
            continue
        return tid
    raise LookupError("no such tile")


def crafted(rules, players=1, **opts):
    return blank(rules, players, **opts)
