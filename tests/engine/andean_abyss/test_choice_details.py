"""Contract v2 item 2 for Andean Abyss: every choice carries its rule, a help message and, when it
spends Resources at once, its cost per Faction (3.2 / 3.3 Operation costs, 4.5.3 Bribe, 6.4
Civic Action and Agitation, 1.5.2 transfers); ``Rules.preview`` gives the metric deltas of a
choice whose effect is certain and public, and nothing for one that rolls, draws or is illegal."""

from __future__ import annotations

from engine.bots.base import RandomBot
from engine.core.messages import is_msg
from engine.scenarios.andean_abyss.board import BOARD as BD
from engine.scenarios.andean_abyss.choices import OP_RULE

from .conftest import RULES, new, play


def _game(seed, limit=2500):
    """(state before, seat, choice, facts) of every decision of a random game."""
    st = RULES.setup(seed)
    bots = {s: RandomBot(RULES, s, seed) for s in RULES.seat_ids()}
    for _ in range(limit):
        p = RULES.prompt(st)
        if p is None:
            return
        seat = p.seats[0]
        cid = bots[seat].choose(st, p).choice_id
        chosen = next(c for c in p.choices if c.id == cid)
        before = RULES.copy(st)
        yield before, p, chosen, RULES.apply_inplace(st, seat, cid)


def test_every_choice_has_a_rule_and_a_help_message():
    seen = 0
    for _st, p, _c, _f in _game(5, limit=1500):
        for c in p.choices:
            assert c.rule, (p.kind, c.id)
            assert is_msg(c.help), (p.kind, c.id)
            if c.id.startswith(("op:", "sa:")):
                assert c.rule == OP_RULE[c.id.split(":")[1]], c.id       # 3.2.x, 3.3.x, 4.x
            seen += 1
    assert seen > 1000


def test_the_cost_of_a_choice_is_what_applying_it_spends():
    """Each choice with a cost (except a March destination, paid once the group is chosen,
    3.3.2) takes exactly that many Resources from that Faction when it is applied."""
    checked = set()
    for seed in (6, 7):
        for _st, p, c, facts in _game(seed):
            if not c.cost or p.kind == "marchgrp":
                continue
            for faction, n in c.cost.items():
                paid = [f["delta"] for f in facts if f.get("track") == f"{faction}_resources" and f["delta"] < 0]
                assert paid and paid[0] == -n, (p.kind, c.id, c.cost, paid)
            checked.add(p.kind)
    assert {"op", "give"} <= checked, checked


def test_3_2_government_operation_costs_per_space():
    st = new([1, 2])                                    # card 1: the Government acts first
    play(st, "op:train")
    p = RULES.prompt(st)
    spaces = [c for c in p.choices if c.id.startswith("space:")]
    assert spaces and all(c.cost == {"govt": 3} and c.rule == "3.2.1" for c in spaces)
    st = new([1, 2])
    assert next(c for c in RULES.prompt(st).choices if c.id == "op:patrol").cost == {"govt": 3}   # 3.2.2
    assert next(c for c in RULES.prompt(st).choices if c.id == "pass").cost is None


def test_3_3_4_terror_costs_nothing_on_a_loc():
    for st, p, _c, _f in _game(8, limit=3000):
        fr = st["stack"][-1]
        if p.kind == "op" and fr["op"] == "terror" and not fr.get("free"):
            f = p.context["faction"]
            spaces = [c for c in p.choices if c.id.startswith("space:")]
            assert spaces
            for c in spaces:
                on_loc = BD.is_loc[BD.index[c.targets["space"]]]
                assert c.cost == (None if on_loc else {f: 1}), (c.id, c.cost)
            return
    raise AssertionError("no Terror in this game")


def test_preview_is_the_metric_change_of_a_certain_public_choice():
    st = new([1, 2])
    seat = RULES.prompt(st).seats[0]
    before = RULES.metrics(st)
    got = RULES.preview(st, seat, "pass")
    assert got["govt_resources"] == 3                    # 2.3.3 a Government Pass: +3 Resources
    trial = RULES.copy(st)
    RULES.apply_inplace(trial, seat, "pass")
    after = RULES.metrics(trial)
    assert got == {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert RULES.metrics(st) == before                   # the previewed state is untouched


def test_preview_over_a_game_matches_the_choice_or_shows_nothing():
    """Over a random game: a choice whose facts reveal a card, a die or hidden information
    previews as nothing; every other previews as exactly its metric change."""
    shown = hidden = 0
    for st, p, c, facts in _game(9, limit=1200):
        got = RULES.preview(st, p.seats[0], c.id)
        if any(f.get("barrier") or f.get("visible_to") is not None for f in facts) or c.id == "np:act":
            assert got is None, (p.kind, c.id)
            hidden += 1
            continue
        trial = RULES.copy(st)
        before = RULES.metrics(trial)
        RULES.apply_inplace(trial, p.seats[0], c.id)
        after = RULES.metrics(trial)
        assert got == {k: after[k] - before[k] for k in after if after[k] != before[k]}, (p.kind, c.id)
        shown += 1
    assert shown > 100 and hidden > 5


def test_preview_of_an_illegal_choice_is_nothing():
    st = new([1, 2])
    seat = RULES.prompt(st).seats[0]
    assert RULES.preview(st, seat, "no-such-choice") is None
    assert RULES.preview(st, "nobody", "pass") is None
    solo = RULES.setup(3, {"players": 1})
    q = RULES.prompt(solo)
    if "np:act" in [c.id for c in q.choices]:            # a Non-player's flowchart may roll and draw
        assert RULES.preview(solo, q.seats[0], "np:act") is None
