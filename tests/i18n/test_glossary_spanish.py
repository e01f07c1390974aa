"""Every glossary entry and rule summary of every game has its Spanish translation (issue #19:
two languages everywhere), read from the compiled catalog the site uses."""

import pytest
from django.utils import translation

import engine
from facilitation.text import tr


@pytest.mark.parametrize("game", ["peru", "andean_abyss", "tears_of_tyranny"])
def test_the_glossary_reads_in_spanish(game):
    g = engine.load(game).glossary()
    texts = [m for t in g.terms for m in (t.name, t.text, *t.also)] + [m for r in g.rules for m in (r.title, r.text)]
    with translation.override("es"):
        untranslated = [str(m) for m in texts if tr(m) == str(m) and len(str(m)) > 12]
    assert not untranslated, untranslated[:5]
