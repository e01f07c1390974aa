"""Contract v2 for Peru: every fact has a cause and metric deltas that add up, every text is a
message, every choice is structured (kind, targets, rule, help, cost when it spends)."""

from __future__ import annotations

import random

import pytest

from engine.core.contract import CAUSE_KINDS, ChoiceKind
from engine.core.messages import is_msg, render, templates

from .conftest import RULES

KINDS = {k.value for k in ChoiceKind}


def _play(seed: int, check_step) -> int:
    rng = random.Random(seed)
    state = RULES.setup(seed)
    n = 0
    while True:
        p = RULES.prompt(state)
        if p is None:
            return n
        seat = p.seats[0]
        c = rng.choice(p.choices)
        before = RULES.metrics(state)
        state, facts = RULES.apply(state, seat, c.id)
        check_step(p, seat, c, before, RULES.metrics(state), facts)
        n += 1


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_every_fact_has_a_cause_and_the_deltas_add_up_to_the_metrics(seed):
    def check(p, seat, c, before, after, facts):
        total: dict = {}
        for f in facts:
            cause = f.get("cause")
            assert isinstance(cause, dict) and cause.get("kind") in CAUSE_KINDS, f
            if cause["kind"] == "decision":
                assert cause["seat"] == seat, f
            assert is_msg(f["text"]), f
            for m, d in (f.get("deltas") or {}).items():
                assert m in before, (m, f)
                total[m] = total.get(m, 0) + d
        change = {m: after[m] - before[m] for m in after if after[m] != before[m]}
        assert {m: d for m, d in total.items() if d} == change, (c.id, facts)

    assert _play(seed, check) > 100


@pytest.mark.parametrize("seed", [7, 8])
def test_every_prompt_and_choice_is_structured_and_in_words(seed):
    def check(p, seat, c, before, after, facts):
        assert is_msg(p.text) and p.rule
        for ch in p.choices:
            assert is_msg(ch.label), ch
            assert ch.kind in KINDS, ch
            assert ch.rule, ch
            assert is_msg(ch.help) and render(ch.help).endswith("."), ch
            if ch.id.startswith(("space:", "swap:", "civic:", "agitate:", "ez:", "to:")):
                assert "space" in ch.targets, ch
            if ch.cost is not None:
                assert ch.cost and all(k in ("government", "shining_path") and v > 0 for k, v in ch.cost.items()), ch
        # every template is a real sentence, never a bare id
        for t in templates([p.text] + [ch.label for ch in p.choices]):
            assert "_" not in t.replace("{", "").split("}")[-1], t

    _play(seed, check)


def test_costs_match_what_a_choice_spends():
    """3.2.3 Sweep costs 2 per space, 3.3.1 Rally 1 per space: the choice says so before it is chosen."""
    from .conftest import Game
    g = Game(swap="junin")
    g.do("shining_path", "box:op_sa", "op:rally")
    p = RULES.prompt(g.state)
    ch = {c.id: c for c in p.choices}
    assert ch["space:junin"].cost == {"shining_path": 1}
    before = g.state["res"]["shining_path"]
    g.do("shining_path", "space:junin")
    assert g.state["res"]["shining_path"] == before - 1


def _states(seed: int, limit: int):
    rng = random.Random(seed)
    state = RULES.setup(seed)
    for _ in range(limit):
        p = RULES.prompt(state)
        if p is None:
            return
        yield state, p
        state, _ = RULES.apply(state, p.seats[0], rng.choice(p.choices).id)


@pytest.mark.parametrize("seed", [11, 12])
def test_preview_matches_the_actual_deltas(seed):
    seen = 0
    for state, p in _states(seed, 250):
        seat = p.seats[0]
        for c in p.choices:
            pv = RULES.preview(state, seat, c.id)
            if pv is None:
                continue
            seen += 1
            before = RULES.metrics(state)
            new, facts = RULES.apply(state, seat, c.id)
            after = RULES.metrics(new)
            assert pv == {m: after[m] - before[m] for m in after if after[m] != before[m]}, c.id
            assert not any(f.get("barrier") for f in facts)
    assert seen > 100
    assert RULES.preview(RULES.setup(1), "government", "swap:junin") is None   # not the Government's choice


def test_preview_never_leaks_where_the_directives_base_is():
    """A Government preview is the same whichever Base hides the Directives Base (1.4.4)."""
    from .test_state_machine import moved_directives
    compared = 0
    for seed in (21, 22, 23):
        for state, p in _states(seed, 300):
            if p.seats != ("government",) or state["d_revealed"]:
                continue
            alt = moved_directives(state)
            if alt is None:
                continue
            for c in p.choices:
                assert RULES.preview(state, "government", c.id) == RULES.preview(alt, "government", c.id), c.id
                compared += 1
    assert compared > 100


def test_preview_of_a_base_removal_is_withheld():
    """P14 top removes a Base the Government picks: which one it was is hidden, so no preview."""
    from .conftest import event
    g = event("P14", "top", "government")
    assert "space:junin" in g.choices()
    assert RULES.preview(g.state, "government", "space:junin") is None


def test_catalog_names_every_metric_card_and_victory_condition_as_messages():
    cat = RULES.catalog()
    assert set(cat["metrics"]) == set(RULES.metrics(RULES.setup(1)))
    assert len(cat["cards"]) == 40 and all(is_msg(c["title"]) and is_msg(c["top"]["text"]) for c in cat["cards"])
    assert set(cat["victory"]) == {"government", "shining_path"}
    names = {render(m) for m in cat["names"]}
    assert {"Lima", "Junín", "Government", "Shining Path", "Terror", "Political Will", "Rally"} <= names
    assert all(is_msg(m) for m in cat["names"] + list(cat["metrics"].values()) + list(cat["victory"].values()))
