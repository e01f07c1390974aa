"""Hypothesis stateful test: random legal play with invariants after every step."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine.core.contract import facts_for_seat
from engine.scenarios.peru.state import control_of, d_location, piece_totals

from .conftest import RULES

GOV, SP = "government", "shining_path"


def moved_directives(state: dict) -> dict | None:
    """The same position with the secret Directives Base under another Base (or None)."""
    loc = d_location(state)
    if loc is None:
        return None
    other = next((s for s, sp in state["s"].items() if sp["B"] and s != loc), None)
    if other is None:
        return None
    cp = RULES.copy(state)
    cp["s"][loc]["D"], cp["s"][loc]["B"] = 0, cp["s"][loc]["B"] + 1
    cp["s"][other]["D"], cp["s"][other]["B"] = 1, cp["s"][other]["B"] - 1
    return cp


class PeruMachine(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 10**6))
    def start(self, seed):
        self.state = RULES.setup(seed)
        self.totals = piece_totals(self.state)
        self.steps = 0

    @rule(data=st.data())
    def choose(self, data):
        p = RULES.prompt(self.state)
        if p is None:
            return
        seat = p.seats[0]
        c = p.choices[data.draw(st.integers(0, len(p.choices) - 1), label="choice")]
        before = RULES.dumps(self.state)
        new, facts = RULES.apply(self.state, seat, c.id)
        assert RULES.dumps(self.state) == before, "apply must not touch the original state"
        if not self.state["d_revealed"] and not new["d_revealed"]:
            loc = d_location(new)
            for f in facts_for_seat(facts, GOV):
                if f.get("type") == "directives":
                    assert loc is None or loc not in json.dumps(f), f
        self.state = new
        self.steps += 1

    @invariant()
    def pieces_conserved_and_tracks_bounded(self):
        s = self.state
        assert piece_totals(s) == self.totals
        assert 0 <= s["pw"] <= 20 and all(0 <= v <= 20 for v in s["res"].values())
        for sp in s["s"].values():
            assert min(sp[k] for k in ("T", "P", "Ru", "Ra", "Gu", "Ga", "B", "D")) >= 0
            assert sp["B"] + sp["D"] <= 2

    @invariant()
    def control_consistent(self):
        if any(f["k"] == "redeploy" for f in self.state["stack"]):
            return
        for sid, sp in self.state["s"].items():
            assert sp["ctl"] == control_of(sp, sid)

    @invariant()
    def legal_choice_until_the_end(self):
        p = RULES.prompt(self.state)
        if p is None:
            assert RULES.result(self.state) is not None
        else:
            assert p.choices and p.turn

    @invariant()
    def json_round_trip(self):
        assert RULES.loads(RULES.dumps(self.state)) == self.state

    @invariant()
    def government_never_sees_the_directives_base(self):
        s = self.state
        v = RULES.view(s, GOV)
        if not s["d_revealed"]:
            assert v["directives_base"] is None
            assert all("directives_base" not in sp for sp in v["spaces"].values())
            p = RULES.prompt(s)
            alt = moved_directives(s)
            if p is not None and p.seats == (GOV,) and alt is not None:
                q = RULES.prompt(alt)
                assert p.to_dict(GOV) == q.to_dict(GOV)
        assert "deck" not in v and "rng" not in v


PeruMachine.TestCase.settings = settings(max_examples=8, stateful_step_count=400, deadline=None,
                                         suppress_health_check=list(HealthCheck))
TestPeruMachine = PeruMachine.TestCase
