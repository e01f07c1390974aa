"""Contract v2 (issue 16.9): every fact of a full game carries its cause; the adversary phase's
steps are named as automatic, with their rule."""

from __future__ import annotations

from engine.bots.base import make_bot
from engine.core.contract import CAUSE_KINDS
from engine.scenarios.tears_of_tyranny.game import logged_id


def _play(rules, players, seed):
    st = rules.setup(seed, {"players": players})
    bots = {s: make_bot(rules, "heuristic", s, seed) for s in rules.seat_ids()}
    while (p := rules.prompt(st)) is not None:
        seat = p.seats[0]
        cid = bots[seat].choose(st, p).choice_id
        yield seat, cid, rules.apply_inplace(st, seat, cid)


def test_every_fact_of_a_full_game_has_a_structured_cause(rules):
    kinds = set()
    steps = set()
    for seat, cid, facts in _play(rules, 2, 4):
        for f in facts:
            c = f.get("cause")
            assert isinstance(c, dict) and c.get("kind") in CAUSE_KINDS, f
            kinds.add(c["kind"])
            if c["kind"] == "decision":
                # a secret choice (a kept or forgotten card) is named by its kind only
                assert (c["seat"], c["choice"]) == (seat, logged_id(cid))
            if c["kind"] == "rule" and c.get("step"):
                steps.add((c["rule"], str(c["step"])))
    assert {"decision", "rule", "event"} <= kinds, kinds
    rules_seen = {r for r, _ in steps}
    assert {"3.F", "3.G", "3.H", "3.I", "4"} <= rules_seen, rules_seen
    assert all("automatic" in s for r, s in steps if r.startswith("3."))
