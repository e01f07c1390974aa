"""Mechanics shared by COIN-series games (Peru, Andean Abyss).

Modules:

- :mod:`engine.coin.board`   static map: spaces, kinds, population, adjacency, reachability.
- :mod:`engine.coin.support` the five-level Support/Opposition scale and shifts (COIN 1.6).
- :mod:`engine.coin.control` Control from piece counts for any number of factions (COIN 1.7).
- :mod:`engine.coin.tracks`  bounded tracks (0-20) whose every change is a fact naming its cause.
- :mod:`engine.coin.pieces`  piece pools: Available, placing, removing, taking from the map when
                             none is Available (COIN 1.4.1), Underground/Active flips (1.4.3).
- :mod:`engine.coin.flow`    re-exports :mod:`engine.core.flow` (the one flow mechanism: a stack
                             of frames, each kind declaring its prompt and how a choice applies).
- :mod:`engine.coin.operations` Operations, Special Activities and free Operations as
                             prompt sequences (an :class:`~engine.coin.operations.OperationKit`).
- :mod:`engine.coin.capabilities` Capability Events in effect for the game (COIN 5.3).
- :mod:`engine.coin.eligibility` initiative-track order (Guerrilla Generation 2.3.5).
- :mod:`engine.coin.cylinders` Eligible/Ineligible cylinders and faction order (Andean Abyss 2.3).
- :mod:`engine.coin.cylinders` the classic Eligible/Ineligible sequence of play (added for
                             Andean Abyss).

Nothing here knows about Peru; scenario packages pass their own piece keys and data.
"""
