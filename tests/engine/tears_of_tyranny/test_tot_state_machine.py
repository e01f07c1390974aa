"""Random legal play (Hypothesis RuleBasedStateMachine) with invariants after every step."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import engine
from engine.core.messages import is_msg, render
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny.data import CIVILIANS_TOTAL, SUPPLY

RULES = engine.load("tears_of_tyranny")


def _changed(machine) -> bool:
    """The invariants are pure functions of the state: they run on every state the game reaches,
    not again on the same state after a step that was proven to leave it byte for byte as it was
    (a rejected illegal choice, or nothing to do once the game is over), about half of the steps."""
    return not machine.unchanged


class TearsMachine(RuleBasedStateMachine):
    unchanged = False  # the last step left the state as the invariants last passed it

    @initialize(seed=st.integers(0, 10_000), players=st.integers(1, 4))
    def start(self, seed, players):
        self.state = RULES.setup(seed, {"players": players})
        self.tyranny_total = B.tyranny_on_map(self.state) + self.state["tyr_pool"]
        self.steps = 0
        self.unchanged = False

    @precondition(lambda self: RULES.prompt(self.state) is not None)
    @rule(data=st.data())
    def act(self, data):
        p = RULES.prompt(self.state)
        seat = data.draw(st.sampled_from(p.seats))       # any waiting seat, in any order
        choices = p.choices_for(seat)
        c = data.draw(st.sampled_from(choices))
        before = RULES.dumps(self.state)
        new, facts = RULES.apply(self.state, seat, c.id)
        assert RULES.dumps(self.state) == before, "apply must not touch the original state"
        for f in facts:
            assert is_msg(f["text"]) and render(f["text"]) and f["type"]
            if f.get("track") in ("influence", "tyranny_pool", "tyranny_map"):
                assert "cause" in f and "delta" in f and "value" in f
        self.state = new
        self.steps += 1
        self.unchanged = False

    @rule()
    def illegal_choice_is_rejected(self):
        p = RULES.prompt(self.state)
        if p is None:
            self.unchanged = True
            return
        before = RULES.dumps(self.state)
        try:
            RULES.apply(self.state, p.seats[0], "no-such-choice")
        except engine.IllegalChoice:
            pass
        else:  # pragma: no cover
            raise AssertionError("illegal choice accepted")
        assert RULES.dumps(self.state) == before
        self.unchanged = True

    @invariant()
    @precondition(_changed)
    def json_round_trip(self):
        if hasattr(self, "state"):
            text = RULES.dumps(self.state)
            assert RULES.dumps(RULES.loads(text)) == text
            assert RULES.dumps(RULES.copy(self.state)) == text

    @invariant()
    @precondition(_changed)
    def legal_choice_until_the_end(self):
        if hasattr(self, "state"):
            p = RULES.prompt(self.state)
            if p is None:
                assert RULES.result(self.state) is not None
            else:
                assert all(p.choices_for(s) for s in p.seats)

    @invariant()
    @precondition(_changed)
    def pieces_conserved(self):
        if not hasattr(self, "state"):
            return
        s = self.state
        for kind, cap in SUPPLY.items():
            assert 0 <= B.on_map(s, kind) <= cap
        civ = sum(t["red"] + t["blue"] for t in s["tiles"].values())
        assert 0 <= civ <= CIVILIANS_TOTAL
        assert min(min(t["red"], t["blue"]) for t in s["tiles"].values()) >= 0
        assert B.tyranny_on_map(s) + s["tyr_pool"] + s["tyr_gone"] == self.tyranny_total
        for seat in s["seats"]:
            assert B.g_supply(s, seat) >= 0
            assert s["pl"][seat]["res"] >= 0
            for t in s["tiles"].values():
                assert t["gs"].get(seat, 1) > 0 and t["pres"].get(seat, 1) > 0
            # 14 circles per panel, the first of each row open from the start; every presence on the
            # map beyond the HQ's two uncovered a circle, and lost presence never comes back
            opened = sum(s["pl"][seat]["open"].values())
            assert 2 <= opened <= 14
            assert B.presence_total(s, seat) <= opened
        assert 0 <= s["inf"]["earned"] < s["inf"]["cap"]
        assert B.bases_left(s) >= 0

    @invariant()
    @precondition(_changed)
    def views_hide_secrets(self):
        if not hasattr(self, "state"):
            return
        s = self.state
        for seat in s["seats"]:
            v = RULES.view(s, seat)
            text = json.dumps(v)
            assert "rng" not in v
            for other in s["seats"]:
                if other != seat:
                    assert "hand" not in v["players"][other]
            for cid in s["decks"]["terrain"] + s["inf"]["deck"]:
                assert f'"{cid}"' not in text
        m = RULES.metrics(s)
        assert all(isinstance(x, (int, float)) for x in m.values())


TearsMachine.TestCase.settings = settings(max_examples=8, stateful_step_count=150, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
TestTearsOfTyrannyRandomPlay = TearsMachine.TestCase
