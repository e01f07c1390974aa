"""Authored content: counts, required fields, and every effect resolvable by the engine."""

from __future__ import annotations

import pytest

from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import vocab
from engine.scenarios.tears_of_tyranny.data import SEAT_ORDER, validate_content

from .conftest import blank


def test_content_validator_passes(C):
    checks = validate_content(C)
    assert len(checks) > 1000


def test_1_box_counts(C):
    majors = [c for c in C.cards.values() if c["class"] == "major"]
    minors = [c for c in C.cards.values() if c["class"] == "minor"]
    assert (len(majors), len(minors)) == (39, 53)
    assert sum(1 for c in majors if c["earmark"]) == 4
    assert sum(1 for c in minors if c["earmark"]) == 12
    assert len(C.events) == 24 and len(C.influence) == 28 and len(C.terrain) == 56
    assert len(C.map["septets"]) == 16 and len(C.tiles) == 112
    assert len(C.scenarios) == 4 and len(C.panels) == 4


def test_validator_rejects_broken_content(C):
    with pytest.raises(vocab.ContentError):
        vocab.validate_cap_ops([{"op": "teleport"}], "bad")
    with pytest.raises(vocab.ContentError):
        vocab.validate_cap_ops([{"op": "damage"}], "missing n")
    with pytest.raises(vocab.ContentError):
        vocab.validate_board_ops([{"op": "place", "unit": "cell", "sel": "nowhere"}], "bad selector")
    with pytest.raises(vocab.ContentError):
        vocab.validate_target(["moon"], "bad target")


def test_every_card_has_teaching_fields(C):
    for c in list(C.cards.values()) + list(C.events.values()) + list(C.influence.values()):
        assert c["title"] and c["teaching_note"] and c["theme"].startswith("T")


def test_2_scenario_panels_have_background_adjustments_and_victory(C):
    for s in C.scenarios.values():
        assert s["background"] and isinstance(s["rules_adjustments"], dict) and s["victory_conditions"]


@pytest.mark.parametrize("seat", SEAT_ORDER)
def test_every_capability_effect_resolves_in_the_engine(rules, C, seat):
    """Execute every capability card (and each organic op) on a tile rich in pieces."""
    for cid, card in sorted(C.cards.items()):
        st = blank(rules, players=4)
        tid = next(t for t in st["order"] if C.tiles[t]["quadrant"] == st["quad"][seat])
        st["tiles"][tid].update({"u": [["cell", 0], ["outpost", 0], ["garrison", 0]], "red": 2, "blue": 2, "tyr": 1,
                                 "gs": {seat: 3}, "pres": {seat: 2}})
        nb = next(n for n in C.adj[tid] if n in st["tiles"])
        st["tiles"][nb].update({"u": [["cell", 0]], "red": 1, "blue": 1, "gs": {seat: 2}})
        st["pl"][seat]["played"] = [cid]
        fr = {"k": "effect", "ops": card["effect"], "i": 0, "tile": tid, "label": card["title"], "moved": 0, "src": cid}
        st["frames"][seat] = [fr]
        guard = 0
        while st["frames"][seat] and st["result"] is None:
            guard += 1
            assert guard < 50, cid
            if rules._run_effect(st, seat, fr, []):
                st["frames"][seat].pop()
                break
            ch = rules._op_choices(st, seat, fr, fr["ops"][min(fr["i"], len(fr["ops"]) - 1)])
            assert ch, f"{cid}: interactive op without choices"
            rules._apply_op_choice(st, seat, fr, *ch[0].id.partition(":")[::2], [])


def test_every_board_effect_resolves(rules, C):
    for players in (1, 4):
        st = blank(rules, players=players)
        for i, tid in enumerate(st["order"][:20]):
            st["tiles"][tid].update({"u": [["cell", 0], ["outpost", 0]] if i % 2 else [["garrison", 0]],
                                     "red": 1, "blue": 1, "gs": {st["seats"][0]: 1}, "tyr": i % 5 == 0})
            if i % 3 == 0:
                st["tiles"][tid]["pres"] = {st["seats"][0]: 2}
                st["tiles"][tid]["bases"] = [[st["seats"][0], 0]]
        st["boxes"].update({"deploy": "TI-01", "develop": "TII-01", "dominate": "TIII-01"})
        st["tyr_pool"] = 50
        for e in C.events.values():
            for box in ("freedom", "tyranny", "bottom_1", "bottom_2"):
                ADV.run_board_ops(st, e[box], [], e["id"])
        for card in C.influence.values():
            for k in (1, 2, 3):
                ADV.run_board_ops(st, card[f"level_{k}"], [], card["id"])
        for sel in vocab.SELECTORS:
            assert isinstance(ADV.select_tiles(st, sel), list)


def test_2c_every_quadrant_offers_a_starting_hq_for_every_player_type(rules, C):
    for q in (1, 2, 3, 4):
        for seat in SEAT_ORDER:
            roles = [s for s in SEAT_ORDER if s != seat][: q - 1]
            roles.insert(q - 1, seat)
            st = rules.setup(1, {"players": q, "roles": sorted(roles, key=SEAT_ORDER.index)})
            if st["quad"][seat] == q:
                assert rules.hq_candidates(st, seat), (q, seat)


def test_1a_coastal_flags_follow_the_coast_border_pieces(C):
    for t in C.tiles.values():
        assert t["coastal"] == (t["edge"] is not None)
    q1_coastal = {t["id"] for t in C.tiles.values() if t["quadrant"] == 1 and t["coastal"]}
    assert 6 <= len(q1_coastal) <= 14


def test_board_static_data(rules):
    b = rules.board()
    assert len(b["tiles"]) == 112
    assert all("x" in t and "adjacent" in t for t in b["tiles"])
    assert len(b["layouts"]["1"]) == 28 and len(b["layouts"]["4"]) == 112


def test_content_texts_have_no_doubled_periods_or_other_defects(C):
    """Browser finding: card faces ended in ".." ("+1 influence..") when a conditional effect
    (``if_attr``) was rendered as a sentence inside a sentence, and event boxes read "in in each
    quadrant". The generated texts are clean and the validator (section 11) checks every text."""
    for cid, card in C.cards.items():
        assert not vocab.text_defects(card["text"]), (cid, card["text"])
        assert ".." not in card["text"] and ".;" not in card["text"], (cid, card["text"])
    for eid, ev in C.events.items():
        for box, text in ev["text"].items():
            assert not vocab.text_defects(text), (eid, box, text)
    for iid, inf in C.influence.items():
        for box, text in inf["text"].items():
            assert not vocab.text_defects(text), (iid, box, text)
    # the renderer itself: a conditional effect is a clause, and the sentence ends once
    text = vocab.describe_cap([{"op": "damage", "n": 2},
                               {"op": "if_attr", "attr": "risk", "n": 2, "then": [{"op": "influence", "n": 1}]}])
    assert text == "2 damage; then if you have 2x Risk: +1 influence."


@pytest.mark.parametrize("bad, defect", [
    ("+1 influence..", "doubled period"),
    ("2 damage.; then +1 influence.", "two punctuation marks in a row"),
    ("kill 1 civilian .", "space before punctuation"),
    ("push  1 guerrilla.", "doubled space"),
    ("turn blue in in each quadrant.", "doubled word"),
    ("recruit 1 guerrilla (free.", "unbalanced parentheses"),
    (" trailing space. ", "leading or trailing whitespace"),
])
def test_text_validator_rejects_obvious_defects(bad, defect):
    assert defect in vocab.text_defects(bad)
    with pytest.raises(vocab.ContentError):
        vocab.validate_text(bad, "crafted")


def test_text_validator_accepts_clean_text_and_an_ellipsis():
    assert vocab.text_defects("Wait for it... then strike (2 damage).") == []
    assert vocab.text_defects("2 damage; then if you have 2x Risk: +1 influence.") == []
