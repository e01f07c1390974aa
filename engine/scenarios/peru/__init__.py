"""The Guerrilla Generation: Peru (rules of play: docs/rules-notes/peru.md).

Seats: ``government`` and ``shining_path``. One module per rulebook section:
:mod:`.state` (1.x, 2.1 setup), :mod:`.sequence` (2.x), :mod:`.ops_gov` (3.2), :mod:`.ops_sp`
(3.3), :mod:`.sa_gov` (4.2), :mod:`.sa_sp` (4.3), :mod:`.events` (5.x, all 40 cards),
:mod:`.propaganda` (6.x, 7.x). Shared COIN machinery is in :mod:`engine.coin`.

Stable choice ids (a logged decision reads as plain words):

=====================  =====================================================================
``swap:<space>``       Shining Path hides the Guzman Directives Base under that Base (2.1, 6.5.3)
``box:limited_op``     place the cylinder in a box of the Initiative Track (2.3.2);
``box:event``          likewise ``box:op_sa``
``op:<name>``          train, patrol, sweep, assault, rally, march, attack, terror
``event:top|bottom``   execute that side of the current card (5.2)
``pass``               pass (2.3.3); ``skip`` declines a free Operation offered by an Event
``space:<space>``      select a space for the Operation / Special Activity / Event under way
``sa:<name>``          start the Special Activity: investigate, reprisal, organize, govern,
                       evade, ambush
``done``               finish the current step
``place:T|P``          Train: one Troop / Police into Lima; ``civic:<space>``, ``civic:terror``,
                       ``civic:shift`` Civic Action
``from:<space>``       origin of a moving piece (Patrol, Redeploy Police) or the space a piece
                       is taken from when none is Available (1.4.1); ``stop`` places no more
``cube:T|P``, ``to:<space>``  the cube that moves and where it stops
``move:<origin>``      Sweep: one Troop into the destination; ``move:<o>:u|a`` March: one
                       Underground/Active Guerrilla; ``move:<o>:<d>`` Redeploy: one Troop
``rally:<n>``          place n Guerrillas; ``rally:base``; ``rally:flip``
``attack:roll``        Attack with the die (or ``sa:ambush``); ``kill:P|T|Ru|Ra`` removals
``govern:res|rondas``  Govern effect; ``g:u|a`` which Guerrilla moves (Evade, Reprisal);
                       ``hunt:u|a`` Evade's Lima roll; ``lima:activate|roll`` Investigate
``org:place|activate`` Organize
``agitate:<space>``    Agitate; ``ez:<space>`` place an Emergency Zone (6.5.2)
``rm:<space>:<piece>``, ``yes``/``no``, ``pw:up|down``  Event decisions
=====================  =====================================================================

Contract v2 (docs/architecture/peru-migration.md): every text is a message (names in
:mod:`.texts`), every choice carries kind, targets, cost, rule and help, every fact a cause and
its metric deltas; positions (:mod:`.position`, docs/scenarios/peru-position.md) start a game
from a described board. The flow runs on :mod:`engine.core.flow`.
"""

from .rules import PeruRules

RULES = PeruRules()

__all__ = ["RULES", "PeruRules"]
