"""Contract v2 for Andean Abyss: structured choices (kind, named targets), attributed facts
(decision, rule step, event, Non-player with its section-8 rule, facilitator) and the
Propaganda phases as facts with their rule numbers and metric deltas."""

from __future__ import annotations

from engine.bots.base import RandomBot
from engine.core.contract import CAUSE_KINDS, ChoiceKind
from engine.scenarios.andean_abyss.board import BOARD as BD

from .conftest import RULES

KINDS = {str(k) for k in ChoiceKind}


def run(seed, options=None, limit=4000):
    st = RULES.setup(seed, options or {})
    bots = {s: RandomBot(RULES, s, seed) for s in RULES.seat_ids()}
    out = []
    for _ in range(limit):
        p = RULES.prompt(st)
        if p is None:
            break
        for c in p.choices:
            out.append(("choice", c))
        cid = bots[p.seats[0]].choose(st, p).choice_id
        for f in RULES.apply_inplace(st, p.seats[0], cid):
            out.append(("fact", f))
    return st, out


def test_every_choice_has_a_kind_and_named_targets():
    _, out = run(2, limit=1500)
    for _, c in (x for x in out if x[0] == "choice"):
        assert c.kind in KINDS, c.id
        if c.kind == "space":
            assert c.targets["space"] in BD.index, c.id
        if c.kind == "operation":
            assert c.targets["operation"] == c.id.split(":")[1]


def test_every_fact_has_a_cause():
    _, out = run(3, limit=3000)
    facts = [f for k, f in out if k == "fact"]
    assert facts
    for f in facts:
        assert isinstance(f.get("cause"), dict) and f["cause"]["kind"] in CAUSE_KINDS, f
    kinds = {f["cause"]["kind"] for f in facts}
    assert {"decision", "rule", "event"} <= kinds
    dice = [f for f in facts if f["type"] == "die"]
    assert dice                                               # 3.3.3 Attack, 4.3.3 Kidnap, Event rolls
    for f in dice:
        assert f["cause"]["kind"] == "die" and f["cause"]["roll"] == f["value"] and f["cause"]["rule"]


def test_8_nonplayer_facts_carry_their_section_8_rule():
    _, out = run(4, {"players": 1}, limit=600)
    np = [f for k, f in out if k == "fact" and f["type"] == "np"]
    assert np
    for f in np:
        assert f["cause"]["kind"] == "bot" and f["cause"]["rule"].startswith("8."), f
        assert f["cause"]["seat"] in ("govt", "farc", "auc", "cartels")


def test_6_propaganda_phases_are_facts_with_rule_numbers_and_deltas():
    st = RULES.setup(1, {"deck": [1, "P", 2, 3, 4, 5]})
    facts = []
    for _ in range(400):
        p = RULES.prompt(st)
        if p is None or st["props_done"] >= 1 and st["sop"] is not None and not st["sop"].get("prop"):
            break
        ids = [c.id for c in p.choices]
        cid = "pass" if "pass" in ids else "done" if "done" in ids else ids[0]
        facts += RULES.apply_inplace(st, p.seats[0], cid)
    phases = [f for f in facts if f["type"] == "phase"]
    rules = [f["rule"] for f in phases]
    for r in ("6.1", "6.2", "6.3", "6.4.3", "6.6"):
        assert r in rules, rules
    assert rules.index("6.1") < rules.index("6.2") < rules.index("6.3") < rules.index("6.6")
    res = next(f for f in phases if f["rule"] == "6.3")
    assert res["deltas"].get("govt_resources", 0) > 0            # 6.3.1 Government Earnings
    assert res["cause"] == {"kind": "rule", "rule": "6.3", "step": res["text"]["args"]["phase"]}
    earn = [f for f in facts if f["type"] == "track" and f.get("track") == "govt_resources"
            and f["cause"].get("rule") == "6.3"]
    assert sum(f["delta"] for f in earn) == res["deltas"]["govt_resources"]
