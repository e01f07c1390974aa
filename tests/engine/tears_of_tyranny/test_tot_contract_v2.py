"""Contract v2 for Tears of Tyranny (issues 13 and 16.9), as Peru (tests/engine/peru/test_contract_v2.py):

* every fact of full bot games (1 and 4 players) has a cause, and the facts' structured ``deltas``
  add up, decision by decision, to the change of ``Rules.metrics``;
* the adversary phase's steps are attributed as automatic, each with its rule number;
* every prompt text, choice label and help is a message; every choice has a kind, a rule and a
  help, and a cost when it spends resources or influence;
* ``preview`` gives the deltas the choice then causes when they are certain and public, and
  ``None`` when the choice draws a card, rolls a die or is secret.
"""

from __future__ import annotations

import pytest

from engine.bots.base import make_bot
from engine.core.contract import CAUSE_KINDS, ChoiceKind
from engine.core.messages import is_msg, render

KINDS = {str(k) for k in ChoiceKind}


def _game(rules, players: int, seed: int, kind: str):
    state = rules.setup(seed, {**rules.options_for_bots(kind), "players": players})
    bots = {s: make_bot(rules, kind, s, seed) for s in state["seats"]}
    while (p := rules.prompt(state)) is not None:
        seat = p.seats[0]
        yield state, p, seat, bots[seat].choose(state, p).choice_id


@pytest.mark.parametrize("players,seed,kind", [(1, 1, "heuristic"), (4, 2, "random"), (1, 3, "random"),
                                               (4, 5, "random")])
def test_every_fact_has_a_cause_and_the_deltas_add_up_to_the_metrics(rules, players, seed, kind):
    decisions = 0
    adversary_rules = set()
    touched = set()
    for state, _p, seat, cid in _game(rules, players, seed, kind):
        before = rules.metrics(state)
        facts = rules.apply_inplace(state, seat, cid)
        after = rules.metrics(state)
        total: dict = {}
        for f in facts:
            c = f.get("cause")
            assert isinstance(c, dict) and c.get("kind") in CAUSE_KINDS, f
            if c["kind"] == "rule" and c.get("rule", "").startswith("3.") and c.get("step"):
                assert "automatic" in render(c["step"]), c
                adversary_rules.add(c["rule"])
            for k, v in (f.get("deltas") or {}).items():
                assert k in after, (k, f)
                total[k] = total.get(k, 0) + v
        changed = {k: after[k] - before[k] for k in after if after[k] != before[k]}
        assert changed == {k: v for k, v in total.items() if v}, (cid, changed, total,
                                                                  [render(f["text"]) for f in facts])
        touched |= set(changed)
        decisions += 1
    assert decisions > 20
    # the adversary phase ran, each step named as automatic with its rule (3.F dominate ... 3.I shift)
    assert {"3.F", "3.H", "3.I"} <= adversary_rules, adversary_rules
    # the check covered the metrics that move in every game
    assert {"turn", "adversary_cells", "tyranny_on_map", "tyranny_pool"} <= touched, touched


def test_every_prompt_and_choice_is_structured_and_in_words(rules):
    seen_kinds = set()
    costs = 0
    for n, seed in ((4, 7), (1, 8)):
        for state, p, seat, cid in _game(rules, n, seed, "random"):
            assert is_msg(p.text_for(seat)), p.text_for(seat)
            for c in p.choices_for(seat):
                assert is_msg(c.label), (c.id, c.label)
                assert str(c.kind) in KINDS, (c.id, c.kind)
                assert c.rule, c.id
                assert is_msg(c.help) and render(c.help), c.id
                want = _expected_cost(seat, c.id, p.kind_for(seat))
                if want is not None:
                    assert (c.cost or {}) == want, (c.id, c.cost, want)
                    costs += bool(want)
                if c.cost:
                    assert all(isinstance(v, int) and v > 0 for v in c.cost.values()), c.cost
                if c.kind == ChoiceKind.SPACE:
                    assert c.targets.get("tile") in state["tiles"], (c.id, c.targets)
                seen_kinds.add(str(c.kind))
            rules.apply_inplace(state, seat, cid)
    assert {"space", "card", "done", "operation"} <= seen_kinds, seen_kinds
    assert costs > 0


def test_a_card_played_declares_its_cost_and_the_target_prompt_names_the_effect(rules):
    """Issue 16.8: the target prompt says what the capability will do; a card's cost is structured."""
    seen_play = seen_target = False
    for state, p, seat, cid in _game(rules, 2, 11, "random"):
        for c in p.choices_for(seat):
            if c.id.startswith("play:"):
                card = rules_card(c.id[5:])
                assert (c.cost or {}).get("resources", 0) == card["cost"] or (not c.cost and not card["cost"])
                assert c.targets == {"card": c.id[5:]}
                seen_play = True
        if p.kind_for(seat) == "target":
            text = render(p.text_for(seat))
            fr = state["frames"][seat][-1]
            if fr["src"] in CARDS():
                assert CARDS()[fr["src"]]["text"].rstrip(".") in text, text
            seen_target = True
        if seen_play and seen_target:
            break
        rules.apply_inplace(state, seat, cid)
    assert seen_play and seen_target


def _expected_cost(seat: str, cid: str, kind: str) -> dict | None:
    """What a spending choice must declare, read from the cards and panels (None: not a spending kind)."""
    from engine.scenarios.tears_of_tyranny.data import content

    c = content()
    head, _, rest = cid.partition(":")
    if head == "play":
        return {"resources": c.cards[rest]["cost"]} if c.cards[rest]["cost"] else {}
    if head in ("upkeep",) or cid == "pay:resource":
        return {"resources": 1}
    if head == "produce":
        cost = c.panels[seat]["base_output"]["cost"]
        return {"resources": cost} if cost else {}
    opts = {o["id"]: o for o in c.panels[seat]["force_management"]["options"]}
    if head in opts and kind == "force_management":
        o = opts[head]
        return {k: v for k, v in (("resources", o["cost"]), ("influence", o.get("influence", 0))) if v}
    return None


def CARDS():
    from engine.scenarios.tears_of_tyranny.data import content

    return content().cards


def rules_card(cid):
    return CARDS()[cid]


def test_preview_equals_the_real_deltas_when_it_is_given(rules):
    given = none = 0
    for state, _p, seat, cid in _game(rules, 4, 3, "random"):
        snapshot = rules.serialize(state)
        pv = rules.preview(state, seat, cid)
        assert rules.serialize(state) == snapshot          # preview never touches the state it reads
        facts = rules.apply_inplace(state, seat, cid)
        if pv is None:
            none += 1
            continue
        # the preview is the change the choice then makes
        total: dict = {}
        for f in facts:
            for k, v in (f.get("deltas") or {}).items():
                total[k] = total.get(k, 0) + v
        assert pv == {k: v for k, v in total.items() if v}, (cid, pv, total)
        assert not any(f.get("barrier") or f.get("visible_to") is not None for f in facts)
        given += 1
        if given > 150 and none > 5:
            break
    assert given > 20 and none > 0


def test_preview_is_none_for_a_draw_and_an_illegal_choice(rules):
    state = rules.setup(5, {"players": 1})
    seat = state["seats"][0]
    bot = make_bot(rules, "heuristic", seat, 5)
    # play until the seat is asked which deck to draw from (3.A gain capability)
    for _ in range(200):
        p = rules.prompt(state)
        ids = [c.id for c in p.choices_for(seat)]
        if "deck:major" in ids or "deck:minor" in ids:
            break
        rules.apply_inplace(state, seat, bot.choose(state, p).choice_id)
    else:  # pragma: no cover
        pytest.fail("no deck choice reached")
    before = rules.serialize(state)
    deck = next(i for i in ids if i.startswith("deck:"))
    assert rules.preview(state, seat, deck) is None           # draws hidden cards (a barrier)
    assert rules.serialize(state) == before                   # the state is untouched
    rules.apply_inplace(state, seat, deck)
    keep = [c.id for c in rules.prompt(state).choices_for(seat) if c.id.startswith("keep:")]
    # keeping a card changes nothing on the board: the preview says so, and names no card
    assert keep and rules.preview(state, seat, keep[0]) == {}
    assert rules.preview(state, seat, "tile:nowhere") is None     # not legal now
