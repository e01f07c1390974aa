"""``Rules.previews`` (issue 20): the play page previews a seat's whole list of choices at once,
and the games answer the list together (the prompt asked once, the metrics before the choice
read once). The answers must be those of ``preview`` as the contract defines it, choice by
choice: checked against that definition (``validate``, then the choice applied to a copy, the
metric deltas, ``None`` when a fact is a barrier or private) at every position of bot games of
each game, with an illegal choice and another seat's choice in each list.
"""

from __future__ import annotations

import pytest

import engine
from engine.bots.base import make_bot
from engine.core.contract import IllegalChoice


def _defined(rules, state, seat, cid):
    """A choice's preview as the contract defines it (contract v2), asked alone."""
    try:
        rules.validate(state, seat, cid)
    except IllegalChoice:
        return None
    if rules.key == "andean_abyss" and cid == "np:act":  # a Non-player's flowchart may roll dice
        return None
    trial = rules.copy(state)
    before = rules.metrics(trial)
    facts = rules.apply_unchecked(trial, seat, cid)
    if any(f.get("barrier") or f.get("visible_to") is not None for f in facts):
        return None
    after = rules.metrics(trial)
    return {m: after[m] - before[m] for m in after
            if isinstance(after[m], int | float) and not isinstance(after[m], bool) and after[m] != before.get(m)}


@pytest.mark.parametrize("game,options,seed,positions", [
    ("peru", {}, 3, 60), ("andean_abyss", {}, 4, 60), ("tears_of_tyranny", {"players": 4}, 5, 60),
    ("tears_of_tyranny", {"players": 1}, 6, 40)])
def test_a_list_previewed_together_is_each_choice_previewed_alone(game, options, seed, positions):
    rules = engine.load(game)
    state = rules.setup(seed, {**rules.options_for_bots("random"), **options})
    bots = {}
    compared = given = 0
    for _ in range(positions):
        p = rules.prompt(state)
        if p is None:
            break
        for seat in p.seats:
            ids = [c.id for c in p.choices_for(seat)][:40]
            others = [c.id for s in p.seats if s != seat for c in p.choices_for(s)][:2]
            asked = [*ids, *others, "no-such-choice", ""]
            snapshot = rules.serialize(state)
            together = rules.previews(state, seat, asked)
            assert rules.serialize(state) == snapshot  # the state read is never touched
            alone = {cid: _defined(rules, state, seat, cid) for cid in asked}
            assert together == alone, (game, seat, [k for k in asked if together[k] != alone[k]])
            assert together["no-such-choice"] is None and together[""] is None
            compared += len(asked)
            given += sum(v is not None for v in together.values())
        seat = p.seats[0]
        bot = bots.setdefault(seat, make_bot(rules, "random", seat, seed))
        rules.apply_inplace(state, seat, bot.choose(state, p).choice_id)
    assert compared > 100 and given > 5
