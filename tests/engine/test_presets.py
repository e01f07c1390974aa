"""Session-length presets (issue 18 deliver 2): ``Rules.presets()`` of each game, their
options set up a game that random legal play takes to its end, and ``coinlab pace --preset``."""

from __future__ import annotations

import json

import pytest

import engine
from coinlab.cli import main
from engine.bots.base import RandomBot
from engine.core.contract import Preset
from engine.core.messages import english

GAMES = ("peru", "andean_abyss", "tears_of_tyranny")
PRESETS = [(g, p.key) for g in GAMES for p in engine.load(g).presets()]


def test_each_game_offers_a_50_and_a_90_minute_preset():
    for g in GAMES:
        presets = engine.load(g).presets()
        assert [p.period for p in presets] == [50, 90], g
        assert len({p.key for p in presets}) == len(presets)
        for p in presets:
            assert isinstance(p, Preset) and english(p.title) and english(p.help) and p.players >= 1


def test_presets_use_only_declared_options_with_allowed_values():
    for g in GAMES:
        rules = engine.load(g)
        declared = {o.key: o for o in rules.options()}
        for p in rules.presets():
            for k, v in p.options.items():
                assert k in declared, (g, p.key, k)
                if declared[k].choices:
                    assert v in declared[k].choices, (g, p.key, k, v)
            if "players" in p.options:
                assert p.options["players"] == p.players


def test_a_preset_is_found_by_key_and_an_unknown_key_names_the_known_ones():
    rules = engine.load("peru")
    assert rules.preset("class_50").options == {"campaigns": 2}
    with pytest.raises(KeyError, match="class_50, class_90"):
        rules.preset("nope")


@pytest.mark.parametrize("game, key", PRESETS)
def test_a_preset_sets_up_a_game_that_random_play_takes_to_its_end(game, key):
    rules = engine.load(game)
    state = rules.setup(seed=7, options=dict(rules.preset(key).options))
    bots = {s: RandomBot(rules, s, 7) for s in rules.seat_ids()}
    for _ in range(60_000):
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[0]
        rules.apply_inplace(state, seat, bots[seat].choose(state, p).choice_id)
    assert rules.prompt(state) is None and rules.result(state) is not None


def test_pace_command_reads_the_preset_and_lets_options_override(capsys):
    assert main(["pace", "peru", "--preset", "class_50", "--option", "campaigns=1", "--games", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["preset"] == "class_50" and out["options"] == {"campaigns": 1}
    assert main(["pace", "peru", "--preset", "class_90", "--games", "1"]) == 0
    assert '"campaigns": 3' in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no preset"):
        main(["pace", "peru", "--preset", "nope", "--games", "1"])
