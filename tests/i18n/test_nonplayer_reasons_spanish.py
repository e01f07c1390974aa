"""Issue 15: the Non-player bot's reasons (section 8) are messages, so an Andean Abyss student
reads them in Spanish: each decision's ``message`` reads in English exactly as its ``reason``,
cites a section-8 rule, and every template in it has a Spanish translation."""

from __future__ import annotations

import gettext
import re

import pytest

from engine.bots.base import make_bot
from engine.core import registry
from engine.core.messages import is_msg, render, templates

from .po import ES_MO, ES_PO, read

SECTION_8 = re.compile(r"(?<![\d.])8\.[1-9](\.\d+)?(?![\d])")


def _decisions(options: dict, seed: int, limit: int = 120) -> list:
    rules = registry.load("andean_abyss")
    state = rules.setup(seed, options)
    out = []
    for _ in range(limit):
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[0]
        d = make_bot(rules, "nonplayer", seat, seed).choose(state, p)
        out.append(d)
        rules.apply_inplace(state, seat, d.choice_id)
    return out


@pytest.mark.parametrize("options,seed", [({"nonplayers": ["govt", "farc", "auc", "cartels"]}, 7),
                                          ({"players": 1}, 3)], ids=["all-nonplayers", "solo-player-seat"])
def test_every_nonplayer_reason_is_a_translated_message_citing_section_8(options, seed):
    spanish = {e.msgid: e for e in read(ES_PO)}
    with open(ES_MO, "rb") as f:
        es = gettext.GNUTranslations(f)
    decisions = _decisions(options, seed)
    assert len(decisions) > 30
    for d in decisions:
        assert is_msg(d.message), d
        assert render(d.message) == d.reason                 # the English text is the message's
        assert SECTION_8.search(d.reason), d.reason
        missing = [t for t in templates(d.message) if not (t in spanish and spanish[t].translated)
                   and not any(e.plural == t and e.translated for e in spanish.values())]
        assert not missing, (missing, d.reason)
        assert render(d.message, es.gettext, es.ngettext) != d.reason, d.reason   # it reads in Spanish


def test_a_bot_without_a_message_keeps_its_plain_reason():
    from engine.bots.base import BotDecision
    d = BotDecision("pass", "only choice")
    assert d.reason == "only choice" and d.message is None


@pytest.mark.parametrize("key,kind,players", [("tears_of_tyranny", "heuristic", 4), ("tears_of_tyranny", "random", 2),
                                              ("peru", "random", None), ("peru", "heuristic", None)])
def test_every_other_bots_reason_is_a_translated_message(key, kind, players):
    """The other bots' reasons (Tears of Tyranny's heuristic team, the random bot) are messages
    too, so the after-action review shows every bot's reason in the reader's language."""
    spanish = {e.msgid: e for e in read(ES_PO)}
    with open(ES_MO, "rb") as f:
        es = gettext.GNUTranslations(f)
    rules = registry.load(key)
    state = rules.setup(5, {"players": players} if players else {})
    bots: dict = {}
    seen = 0
    for _ in range(150):
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[0]
        bot = bots.setdefault(seat, make_bot(rules, kind, seat, 5))
        d = bot.choose(state, p)
        assert is_msg(d.message), d
        assert render(d.message) == d.reason
        missing = [t for t in templates(d.message) if not (t in spanish and spanish[t].translated)]
        assert not missing, (missing, d.reason)
        spanish_reason = render(d.message, es.gettext, es.ngettext)
        assert spanish_reason != d.reason, d.reason
        # no internal step or choice id in the words (the ToT step menu's "refit", "income", "roll")
        assert not set(re.findall(r"[a-z_]+", spanish_reason)) & {"refit", "income", "roll", "produce", "fm"}, \
            spanish_reason
        rules.apply_inplace(state, seat, d.choice_id)
        seen += 1
    assert seen > 40
