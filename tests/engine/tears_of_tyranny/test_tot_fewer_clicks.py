"""Issue 16.7: a game that fits a class - single choices applied without asking, unkept cards
ordered in one step (test_tot_decisions.py), a seat's plan submitted as one decision group, and
the decision count of a four-player game measured with the heuristic bots."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from engine.bots.base import make_bot
from engine.core.contract import IllegalChoice
from engine.core.plan import apply_plan, draft_plan

from .conftest import blank

ROOT = Path(__file__).resolve().parents[3]


def test_a_single_non_closing_choice_is_applied_without_asking_and_said(rules):
    """3.A: a refit with only one possible option is no decision; it is applied as part of the
    decision before it, with an ``only_choice`` fact and the cause ``only choice``."""
    st = blank(rules, players=1)
    seat = "liberators"
    # make every refit option but one impossible: no card to reclaim and no presence left to uncover
    p = rules.prompt(st)
    assert p.kind_for(seat) == "refit" and len(p.choices_for(seat)) > 1
    # a single choice inside a frame: a reclaim with nothing to reclaim offers only "skip"
    st["frames"][seat].append({"k": "reclaim"})
    st["pl"][seat]["discard"] = []
    ch = rules.prompt(st).choices_for(seat)
    assert [c.id for c in ch] == ["skip"]
    facts: list = []
    rules._apply_only_choices(st, facts)
    note = [f for f in facts if f["type"] == "only_choice"]
    assert note and note[0]["choice"] == "skip" and note[0]["cause"]["rule"] == "only choice"
    assert rules.prompt(st).kind_for(seat) == "refit"


def test_done_is_still_asked_when_it_is_the_only_choice(rules):
    """A-30: each seat closes its part of the window itself, so it can undo before the adversary phase."""
    st = blank(rules, players=1)
    seat = "liberators"
    st["frames"][seat] = [{"k": "exec", "speed": "immediate"}]
    ch = rules.prompt(st).choices_for(seat)
    assert [c.id for c in ch] == ["done"]
    facts: list = []
    rules._apply_only_choices(st, facts)
    assert not facts and [c.id for c in rules.prompt(st).choices_for(seat)] == ["done"]


def test_a_plan_is_applied_as_one_group_or_refused_whole(rules):
    st = blank(rules, players=1)
    seat = "liberators"
    bot = make_bot(rules, "heuristic", seat, 1)
    ids = draft_plan(rules, st, seat, lambda s, p: bot.choose(s, p).choice_id)
    assert len(ids) >= 2
    new, facts = apply_plan(rules, st, seat, ids)
    # the same as applying them one by one
    one = rules.copy(st)
    for cid in ids:
        rules.apply_inplace(one, seat, cid)
    assert rules.dumps(one) == rules.dumps(new)
    # an illegal step refuses the whole plan and leaves the state untouched
    before = rules.dumps(st)
    with pytest.raises(IllegalChoice) as e:
        apply_plan(rules, st, seat, ids[:1] + ["no-such-choice"])
    assert e.value.code == "illegal_plan" and "Step 2" in e.value.message
    assert rules.dumps(st) == before


def test_a_plan_must_end_at_revealed_information(rules):
    """A card drawn is revealed randomness: what follows is decided after seeing it."""
    st = blank(rules, players=1)
    seat = "liberators"
    p = rules.prompt(st)
    gain = next(c.id for c in p.choices_for(seat) if "gain" in c.id and "base" not in c.id)
    drafted = draft_plan(rules, st, seat, lambda s, q: gain if q.kind_for(seat) == "refit" else
                         ("deck:minor" if q.kind_for(seat) == "deck" else q.choices_for(seat)[0].id))
    assert drafted[-1].startswith("deck:"), "the draft stops at the draw"
    with pytest.raises(IllegalChoice) as e:
        apply_plan(rules, st, seat, drafted + ["keep:whatever"])
    assert "reveals information" in e.value.message


def _decisions_module():
    spec = importlib.util.spec_from_file_location("tot_decisions", ROOT / "benchmarks" / "tears_of_tyranny_decisions.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_four_player_game_fits_a_class(rules):
    """Issue 16.7 target: under 500 decisions in all and under 150 for the busiest seat, every
    rulebook decision still taken by a seat (the plans hold the same choices as step-by-step play)."""
    mod = _decisions_module()
    planned = mod.play(4, 1, "standard", plans=True)
    stepwise = mod.play(4, 1, "standard", plans=False)
    assert planned["choices"] == stepwise["choices"] and planned["winner"] == stepwise["winner"]
    assert planned["decisions"] < 500 and planned["busiest_seat"] < 150, planned
