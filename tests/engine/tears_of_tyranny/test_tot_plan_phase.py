"""Issue 16.7: where a seat may plan (``Rules.plan_phase``) and what ``apply_plan`` reports of a
plan's steps (their choices as offered, the facts of each) for the platform's log and draft."""

from __future__ import annotations

import engine
from engine.core.plan import apply_plan


def test_plans_are_offered_in_the_window_and_phase_4_only(rules):
    st = rules.setup(3, {"players": 2})
    assert st["phase"] == "hq" and rules.plan_phase(st) is None  # 2.C: one question each
    for seat in st["seats"]:
        rules.apply_inplace(st, seat, rules.prompt(st).choices_for(seat)[0].id)
    assert rules.plan_phase(st) == "t1:window"  # rule 3: the player window (phases 1-2)
    st["g"].append({"k": "esc_confirm"})  # a team-wide question open (3.F consensus, A-13)
    assert rules.plan_phase(st) is None
    st["g"].pop()
    st["phase"] = "long"
    assert rules.plan_phase(st) == "t1:long"  # phase 4
    st["phase"] = "adversary"
    assert rules.plan_phase(st) is None  # 3: the adversary phase is automatic


def test_a_game_without_plans_offers_none():
    peru = engine.load("peru")
    assert peru.plan_phase(peru.setup(1, {})) is None


def test_apply_plan_reports_each_steps_choice_and_facts(rules):
    st = rules.setup(3, {"players": 1})
    rules.apply_inplace(st, "liberators", rules.prompt(st).choices_for("liberators")[0].id)
    chosen, per_step = [], []
    ids = ["step:refit", "refit:res3"]
    _new, facts = apply_plan(rules, st, "liberators", ids, chosen, per_step)
    assert [c.id for c in chosen] == ids and str(chosen[1].label) == "Refit: gain 3 resources"
    assert len(per_step) == 2 and sum(len(f) for f in per_step) == len(facts)
