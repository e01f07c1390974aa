"""Random legal play (Hypothesis RuleBasedStateMachine) with invariants after every step,
and complete Non-player games (section 8) through the simulate harness."""

from __future__ import annotations

import json

import hypothesis.strategies as hs
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine.core.contract import IllegalChoice
from engine.core.simulate import simulate

from .conftest import BD, RULES, P, conserved


class AndeanAbyssPlay(RuleBasedStateMachine):
    state = None

    @initialize(seed=hs.integers(0, 10**6), scenario=hs.sampled_from(["full", "short", "quick"]),
                players=hs.sampled_from([4, 3, 2, 1]), deployment=hs.sampled_from(["standard", "open"]))
    def start(self, seed, scenario, players, deployment):
        opts = {"scenario": scenario, "players": players, "deployment": deployment}
        if players in (2, 3) and seed % 2:
            opts["spare"] = "nonplayer"
        self.state = RULES.setup(seed, opts)

    @rule(k=hs.integers(0, 10**9), on_copy=hs.booleans())
    def choose(self, k, on_copy):
        p = RULES.prompt(self.state)
        if p is None:
            return
        c = p.choices[k % len(p.choices)]
        seat = p.seats[0]
        if on_copy:
            before = RULES.dumps(self.state)
            new, facts = RULES.apply(self.state, seat, c.id)
            assert RULES.dumps(self.state) == before  # apply leaves the original untouched
            self.state = new
        else:
            RULES.apply_inplace(self.state, seat, c.id)

    @rule()
    def illegal_choice_is_rejected(self):
        p = RULES.prompt(self.state)
        if p is None:
            return
        before = RULES.dumps(self.state)
        try:
            RULES.apply(self.state, p.seats[0], "space:nowhere")
            raise AssertionError("illegal choice accepted")
        except IllegalChoice:
            pass
        assert RULES.dumps(self.state) == before

    @invariant()
    def invariants(self):
        st = self.state
        if st is None:
            return
        assert conserved(st)                                   # 1.4.1 pieces conserved
        for i in range(BD.n):
            pc = st["pc"][i]
            assert P.bases(pc) <= 2                             # 1.4.2 stacking
            assert not (BD.is_loc[i] and P.bases(pc))
            assert min(pc) >= 0
            if i in st["zones"]:
                assert pc[2] == 0                               # 6.4.4 no Govt Base in a FARC Zone
                leaving = any(fr["k"] == "zoneout" and fr["i"] == i for fr in st["stack"])
                assert leaving or pc[0] + pc[1] == 0            # cubes only while the Govt Redeploys them
            if i == BD.ecuador:
                assert all(P.fpieces(pc, f) <= 2 for f in range(4))
            assert -2 <= st["sup"][i] <= 2
            assert BD.pop[i] > 0 or st["sup"][i] == 0
        assert all(0 <= r <= 99 for r in st["res"])            # 1.7
        assert 0 <= st["aid"] <= 29
        assert len(st["ship"]) <= 4 and P.markers_used(st) <= 40
        p = RULES.prompt(st)
        assert (p is None) == (st["over"] is not None)         # a legal choice exists until the end
        if p is not None:
            assert p.choices
            ids = [c.id for c in p.choices]
            assert len(ids) == len(set(ids))                   # choice ids are unambiguous
        data = json.loads(json.dumps(RULES.serialize(st)))     # JSON round trip
        assert RULES.dumps(RULES.deserialize(data)) == RULES.dumps(st)


AndeanAbyssPlay.TestCase.settings = settings(max_examples=12, stateful_step_count=120, deadline=None,
                                             suppress_health_check=[HealthCheck.too_slow])
TestAndeanAbyssPlay = AndeanAbyssPlay.TestCase


def test_8_all_nonplayer_games_finish():
    """`coinlab simulate andean_abyss --bots nonplayer` (all four Factions by section 8)."""
    out = simulate(RULES, seed=1, games=20, bots="nonplayer")
    assert out["finished"] == 20
    for r in out["results"]:
        assert r["result"]["winner"] in ("govt", "farc", "auc", "cartels")


def test_8_games_with_four_nonplayer_seats_finish():
    """All four Factions as section-8 Non-players (np:act seats)."""
    opts = {"nonplayers": ["govt", "farc", "auc", "cartels"]}
    out = simulate(RULES, seed=101, games=10, bots="nonplayer", options=opts)
    assert out["finished"] == 10
    again = simulate(RULES, seed=101, games=10, bots="nonplayer", options=opts)
    assert [r["result"] for r in out["results"]] == [r["result"] for r in again["results"]]


def test_random_games_finish_and_are_deterministic():
    a = simulate(RULES, seed=5, games=3, bots="random")
    b = simulate(RULES, seed=5, games=3, bots="random")
    assert a["finished"] == 3
    assert [r["result"] for r in a["results"]] == [r["result"] for r in b["results"]]
    assert [r["choices"] for r in a["results"]] == [r["choices"] for r in b["results"]]
