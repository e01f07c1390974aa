"""Contract v2 catalog: the 72 cards with both sides, the spaces and the names, every text a
message (the i18n extractor reads the data-file texts from here)."""

from __future__ import annotations

from engine.core.messages import is_msg, templates
from engine.scenarios.andean_abyss.board import BOARD as BD

from .conftest import RULES


def test_catalog_has_the_72_cards_with_both_sides_as_messages():
    cat = RULES.catalog()
    cards = cat["cards"]
    assert [c["id"] for c in cards] == list(range(1, 73))
    for c in cards:
        assert is_msg(c["title"]) and c["title"]["msg"] == BD.cards[c["id"]]["title"]
        sides = [s for s in ("unshaded", "shaded") if s in c]
        assert sides == (["unshaded"] if BD.cards[c["id"]].get("single") else ["unshaded", "shaded"])
        for s in sides:
            assert is_msg(c[s]["text"]) and c[s]["text"]["msg"] == BD.cards[c["id"]][s]["text"]


def test_catalog_names_every_space_faction_and_piece():
    cat = RULES.catalog()
    names = set(templates(cat["names"]))
    assert {s["name"] for s in BD.spaces} <= names
    assert {"Government", "FARC", "AUC", "Cartels", "Troops", "Police", "Cartels Base"} <= names
    assert [s["id"] for s in cat["seats"]] == ["govt", "farc", "auc", "cartels"]
    assert all(is_msg(n) for n in cat["names"])
