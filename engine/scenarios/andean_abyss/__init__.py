"""Andean Abyss (GMT COIN vol. I, 2nd edition) for CoinLab: ``engine.load("andean_abyss")``.

Setting up an example of play exactly
-------------------------------------

``rules.setup(seed, options)`` takes, besides ``scenario`` (``full`` | ``short`` | ``quick``),
``players`` (1-4), ``spare``, ``nonplayers``, ``third``, ``solo``, ``seeded`` and ``deployment``
(see docs/rules-notes/andean-abyss.md, "Options"), two options that remove chance and one that sets the board:

``deck``
    The draw deck, top card first, as a list. Event cards are given by number (``1``-``72``,
    ints or digit strings); a Propaganda card is ``"P"`` (also ``"p"``, ``"propaganda"`` or any
    number from 73). The first entry is the card in play, the second the revealed next card
    (2.3.8). No shuffle happens; the game ends when the list runs out or after the scenario's
    last Propaganda card (2.4.1), whichever comes first. Example::

        {"deck": [1, 23, 5, "P", 44, 71]}

``script``
    Forced random results by tag, each a list consumed in order; when a list is used up the
    seeded RNG takes over again. Tags: ``"die"`` - six-sided die rolls of the rules (3.3.3
    Attack, 4.3.3 Kidnap, Event rolls), values 1-6; ``"space"`` - the red, yellow and green dice
    of each 8.2 Random City or Department roll (also 8.3's random City), in that order;
    ``"loc"`` - the 8.3 equal-chance die among LoCs; ``"np"`` - other Non-player random picks
    (Factions, levels, ties that are not all Cities/Departments or all LoCs), given as 0-based
    indices into the candidate list the engine builds. Example::

        {"script": {"die": [3, 6, 1]}}

``position``
    A described position to start from (contract v2; ``positions.py``, docs/rules-notes/
    andean-abyss.md "Positions"); ``RULES.position(state)`` describes a state the same way.

Example: ``rules.setup(1, {"deck": [37, 52, "P"], "script": {"die": [2]}})`` plays card 37 with
52 revealed, and the first Attack or Kidnap rolls a 2. The ``script`` never appears in
``view()``; choices then replay exactly (``rules.apply(state, seat, choice_id)``).
"""

from .rules import AndeanAbyss

RULES = AndeanAbyss()

__all__ = ["RULES", "AndeanAbyss"]
