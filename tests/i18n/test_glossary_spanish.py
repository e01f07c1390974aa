"""Every glossary entry and rule summary of every game has its Spanish translation (issue #19:
two languages everywhere), looked up in the compiled catalog the site uses."""

import pytest
from django.utils.translation import trans_real

import engine


@pytest.mark.parametrize("game", ["peru", "andean_abyss", "tears_of_tyranny"])
def test_the_glossary_reads_in_spanish(game):
    g = engine.load(game).glossary()
    texts = [m for t in g.terms for m in (t.name, t.text, *t.also)] + [m for r in g.rules for m in (r.title, r.text)]
    catalog = trans_real.translation("es")._catalog
    missing = [m["msg"] for m in texts if m["msg"] not in catalog or not catalog[m["msg"]]]
    assert not missing, missing[:5]
