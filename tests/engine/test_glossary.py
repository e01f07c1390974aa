"""Each game's glossary and rule summaries (issue #19 deliver 1, ``Rules.glossary``): every
text a message, keys unique, every rule a prompt or a choice cites summarised (the nearest
section at least) over bot-played games, and every game's ``catalog()`` holding it."""

import random

import pytest

import engine
from engine.core.glossary import Glossary, RuleSummary, rule_keys
from engine.core.messages import is_msg, msg

GAMES = ["peru", "andean_abyss", "tears_of_tyranny"]


def test_rule_keys_reads_the_references_the_engines_write():
    assert rule_keys("3.2.3, 3.2.4, 3.3.2") == ["3.2.3", "3.2.4", "3.3.2"]
    assert rule_keys("1.G combat (A-57)") == ["1.G"]
    assert rule_keys("Partisans panel (3.A, A-44)") == ["3.A"]
    assert rule_keys("3.A-3.D, phase 2") == ["3.A", "3.D", "phase 2"]
    assert rule_keys("card 7") == [] and rule_keys("") == [] and rule_keys(None) == []


def test_a_summary_falls_back_to_the_nearest_section():
    g = Glossary((), (RuleSummary("3.3", msg("x"), msg("y")), RuleSummary("6", msg("a"), msg("b"))))
    assert g.summary("3.3.1").rule == "3.3" and g.summary("3.3").rule == "3.3"
    assert g.summary("6.5.2").rule == "6" and g.summary("3.2.1") is None
    assert [s.rule for s in g.summaries("3.3.1, 3.3.4, 6.1")] == ["3.3", "6"]


@pytest.mark.parametrize("game", GAMES)
def test_every_entry_is_a_message_with_a_unique_key(game):
    g = engine.load(game).glossary()
    assert len(g.terms) >= 15 and len(g.rules) >= 15
    keys = [t.key for t in g.terms]
    assert len(keys) == len(set(keys))
    assert len({r.rule for r in g.rules}) == len(g.rules)
    for t in g.terms:
        assert is_msg(t.name) and is_msg(t.text) and all(is_msg(a) for a in t.also)
        assert not t.rule or g.summary(t.rule) is not None, f"{game}: {t.key} cites {t.rule}, not summarised"
    for r in g.rules:
        assert is_msg(r.title) and is_msg(r.text) and rule_keys(r.rule) == [r.rule]


def _cited_rules(game: str, seeds=(1, 2), steps=250) -> set[str]:
    rules = engine.load(game)
    cited = set()
    for seed in seeds:
        state = rules.setup(seed, {})
        rng = random.Random(seed)
        for _ in range(steps):
            p = rules.prompt(state)
            if p is None:
                break
            seat = p.seats[0]
            cited.add(p.rule_for(seat))
            choices = p.choices_for(seat)
            cited.update(c.rule for c in choices)
            state, _facts = rules.apply(state, seat, rng.choice(choices).id)
    return {r for r in cited if r}


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_cited_in_play_has_a_summary(game):
    """Bot-played games: each rule a prompt or a choice cites has a summary of its own
    section or the nearest one holding it, so every rule link on the play page leads somewhere."""
    g = engine.load(game).glossary()
    missing = sorted({k for ref in _cited_rules(game) for k in rule_keys(ref) if g.summary(k) is None})
    assert not missing, f"{game}: no summary for {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_serves_its_glossary_from_the_catalog(game):
    cat = engine.load(game).catalog()["glossary"]
    g = engine.load(game).glossary()
    assert g.terms and g.rules, f"{game}: empty glossary"
    assert [t["key"] for t in cat["terms"]] == [t.key for t in g.terms]
    assert [r["rule"] for r in cat["rules"]] == [r.rule for r in g.rules]
    assert all(is_msg(t["text"]) for t in cat["terms"])


def test_peru_glossary_explains_the_piece_letters_of_its_map():
    g = engine.load("peru").glossary()
    letters = {x for t in g.terms for x in t.letters}
    assert {"P", "T", "B", "G", "R"} <= letters
