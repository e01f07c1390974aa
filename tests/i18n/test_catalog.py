"""The Spanish catalog is complete (issue 13.1): every site string and every engine message.

- no msgid of ``locale/es/LC_MESSAGES/django.po`` is untranslated or fuzzy, and the committed
  ``.mo`` holds every translation of the ``.po`` (``./scripts/messages`` compiles it);
- a translation names the same ``{fields}`` (and ``%(fields)s``) as its msgid;
- every message template a game produces has a Spanish translation: the templates are
  collected by playing a bot game of each installed game (prompts, choices, facts, views and
  the result along the way) and by walking each game's ``catalog()``, ``board()``, titles
  and the drawing layouts' words (``facilitation.game_texts``).
"""

from __future__ import annotations

import gettext
import random
import re

import pytest

from engine.core import registry
from engine.core.messages import field_names, templates
from facilitation.game_texts import all_texts

from .po import ES_MO, ES_PO, read

PERCENT = re.compile(r"%\((\w+)\)[sdif]")


@pytest.fixture(scope="module")
def spanish():
    return {e.msgid: e for e in read(ES_PO)}


def test_no_spanish_msgid_is_untranslated_or_fuzzy(spanish):
    untranslated = [m for m, e in spanish.items() if not e.translated]
    fuzzy = [m for m, e in spanish.items() if e.fuzzy]
    assert not untranslated, f"untranslated in {ES_PO.name}: {untranslated[:20]}"
    assert not fuzzy, f"fuzzy in {ES_PO.name}: {fuzzy[:20]}"


def test_the_compiled_catalog_holds_every_translation(spanish):
    with ES_MO.open("rb") as f:
        mo = gettext.GNUTranslations(f)
    stale = []
    for m, e in spanish.items():
        got = mo.gettext(m) if e.plural is None else mo.ngettext(m, e.plural, 1)
        if got != e.msgstr[0]:
            stale.append(m)
    assert not stale, f"django.mo is older than django.po (run ./scripts/messages): {stale[:10]}"


def _fields(text: str) -> set[str]:
    try:
        braces = field_names(text)
    except ValueError:  # not a brace template (e.g. an option's help quoting JSON)
        braces = set()
    return braces | set(PERCENT.findall(text))


def test_translations_name_the_same_fields_as_their_msgid(spanish):
    wrong = []
    for m, e in spanish.items():
        if not e.translated:
            continue
        if e.plural is None:
            if _fields(e.msgstr[0]) != _fields(m):
                wrong.append((m, e.msgstr[0]))
        else:
            allowed = _fields(m) | _fields(e.plural)
            if _fields(e.msgstr[-1]) != _fields(e.plural) or any(not _fields(s) <= allowed for s in e.msgstr):
                wrong.append((m, e.msgstr))
    assert not wrong, f"fields differ: {wrong[:10]}"


# ---- the engine's messages -------------------------------------------------------------------

#: Choices per game played to collect messages, and how often a view is read along the way.
MAX_CHOICES = 4000
VIEW_EVERY = 15


def _played_templates(key: str, seed: int = 11) -> set[str]:
    """Every message template seen while playing one bot game of ``key`` (random legal choices)."""
    rules = registry.load(key)
    rng = random.Random(seed)
    state = rules.setup(seed=seed, options=rules.options_for_bots("random"))
    seen: set[str] = set()
    seats = [None, *rules.seat_ids()]
    for step in range(MAX_CHOICES):
        p = rules.prompt(state)
        if step % VIEW_EVERY == 0 or p is None:
            for seat in seats:
                seen.update(templates(rules.view(state, seat)))
        if p is None:
            seen.update(templates(rules.result(state)))
            break
        seen.update(templates(p.to_dict()))
        seat = p.seats[0]
        facts = rules.apply_inplace(state, seat, rng.choice(p.choices_for(seat)).id)
        seen.update(templates(facts))
    return seen


@pytest.mark.parametrize("key", registry.keys())
def test_every_message_a_game_produces_has_a_spanish_translation(key, spanish):
    produced = _played_templates(key)
    missing = sorted(t for t in produced if not (t in spanish and spanish[t].translated)
                     and not any(e.plural == t and e.translated for e in spanish.values()))
    assert not missing, f"{key}: {len(missing)} message templates without Spanish: {missing[:15]}"


def test_every_data_text_of_the_games_has_a_spanish_translation(spanish):
    missing = sorted({t.singular for t in all_texts() if not (t.singular in spanish and spanish[t.singular].translated)})
    assert not missing, f"{len(missing)} data texts without Spanish (catalog(), board(), titles, layouts): {missing[:15]}"
