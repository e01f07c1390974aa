"""A game that declares ``texts_are_messages`` (contract v2 item 1) keeps its word: over bot
games every prompt text, choice label and fact text it produces is a message, so the pages can
render it in any language. Games still migrating declare False (Andean Abyss, Tears of Tyranny:
issues 15 and 16) and the Spanish page test (tests/e2e/test_spanish_pages.py) covers the games
that declare True."""

import pytest

import engine
from engine.bots.base import make_bot
from engine.core.messages import is_msg
from engine.core.registry import keys


def _texts_of_a_game(rules, seed: int, limit: int = 3000):
    state = rules.setup(seed, rules.options_for_bots("random"))
    bots = {s: make_bot(rules, "random", s, seed) for s in rules.seat_ids()}
    out = []
    for _ in range(limit):
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[0]
        out.append(("prompt", p.text_for(seat)))
        out += [("label", c.label) for c in p.choices_for(seat)]
        facts = rules.apply_inplace(state, seat, bots[seat].choose(state, p).choice_id)
        out += [("fact", f.get("text")) for f in facts]
    return out


@pytest.mark.parametrize("key", [k for k in keys() if engine.load(k).texts_are_messages])
def test_every_text_of_a_declared_game_is_a_message(key):
    rules = engine.load(key)
    for seed in (1, 2):
        plain = {(kind, str(t)) for kind, t in _texts_of_a_game(rules, seed) if not is_msg(t)}
        assert not plain, f"{key}: texts that are not messages: {sorted(plain)[:10]}"


def test_the_declaration_is_false_where_plain_text_remains():
    """The flag cannot stay False by mistake on a migrated game, nor True on one that is not."""
    for key in keys():
        rules = engine.load(key)
        plain = [t for _kind, t in _texts_of_a_game(rules, 1, limit=400) if not is_msg(t)]
        assert rules.texts_are_messages == (not plain), (key, plain[:5])
