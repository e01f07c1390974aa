"""``coinlab simulate andean_abyss --bots nonplayer``: "complete games with all four factions as
Non-players" (issue #7) means the section-8 Non-player rules are in force for every Faction
(``nonplayers`` = all four), not four player seats that happen to be run by the bot."""

from __future__ import annotations

import engine
from engine.core.simulate import play_game
from engine.scenarios.andean_abyss.board import FACTIONS


def test_nonplayer_bots_make_every_faction_a_section_8_nonplayer():
    rules = engine.load("andean_abyss")
    assert rules.options_for_bots("nonplayer") == {"nonplayers": list(FACTIONS)}
    assert rules.options_for_bots("random") == {}
    state = rules.setup(seed=5, options=rules.options_for_bots("nonplayer"))
    assert sorted(rules.view(state, None)["nonplayers"]) == sorted(FACTIONS)


def test_simulated_nonplayer_game_is_the_all_nonplayer_game_and_finishes():
    rules = engine.load("andean_abyss")
    implied = play_game(rules, 4, "nonplayer")
    explicit = play_game(rules, 4, "nonplayer", {"nonplayers": list(FACTIONS)})
    as_players = play_game(rules, 4, "nonplayer", {"nonplayers": []})
    assert implied == explicit
    assert implied["result"] is not None and implied["result"]["winner"] in FACTIONS
    assert as_players["choices"] != implied["choices"] or as_players["result"] != implied["result"]
