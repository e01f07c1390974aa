"""Contract v2 (issue 16.9): every fact of a full game carries its cause; the adversary phase's
steps are named as automatic, with their rule, also when a team question interrupts a step."""

from __future__ import annotations

from engine.bots.base import make_bot
from engine.core.contract import CAUSE_KINDS
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny.game import logged_id

from .conftest import blank, find_tile


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


def _dominate_interrupted(rules, C, kind):
    """The adversary phase run from the end of the window up to a team question raised by the
    dominate step (3.F): the spill-over's tile (A-13) or the counterattack's targets (A-15)."""
    st = blank(rules, players=2)
    if kind == "escalate":
        q = [t for t in st["order"] if C.tiles[t]["quadrant"] == 1]
        tid = next(t for t in q[5:] if len(ADV.escalate_choices(st, t)) >= 3)
        st["tiles"][tid].update({"u": [["garrison", 0], ["garrison", 0]], "tyr": 1})
    else:
        tid = find_tile(C, st, terrain="desert")
        st["tiles"][tid].update({"u": [["outpost", 0], ["cell", 0]], "blue": 3, "gs": {"advisors": 2}})
    st["boxes"]["dominate"] = next(c for c in sorted(C.terrain)
                                   if C.terrain[c]["terrain_card_ref"] == C.tiles[tid]["terrain_card_ref"])
    st["frames"] = {s: [] for s in st["seats"]}
    st["phase"] = "adversary"
    st["adv"] = [{"k": "dominate", "tile": tid}]
    facts: list = []
    rules._advance(st, facts)
    assert st["g"] and st["g"][-1]["k"] == kind
    return tid, facts


def test_dominate_facts_keep_their_rule_when_a_team_question_interrupts_the_step(rules, C):
    """The facts of a dominate step that stops at a team question are the step's (3.F), not
    the decision's that led to the adversary phase (they had no cause before the answer)."""
    for kind in ("escalate", "counterattack"):
        tid, facts = _dominate_interrupted(rules, C, kind)
        dom = [f for f in facts if f.get("tile") == tid]
        assert dom and any(f["type"] in ("dominate", "counterattack") for f in dom), kind
        for f in facts:
            c = f.get("cause")
            assert isinstance(c, dict) and c["kind"] == "rule" and c["rule"] == "3.F", (kind, f)


def test_the_exhausted_terrain_deck_ends_the_game_under_3h(rules, C):
    """3.H with no terrain card left: the players lose (A-18); the fact is the deploy step's."""
    st = blank(rules)
    st["decks"]["terrain"] = []
    st["frames"] = {s: [] for s in st["seats"]}
    st["phase"] = "adversary"
    st["adv"] = [{"k": "shift"}, {"k": "deploy"}]
    facts: list = []
    rules._advance(st, facts)
    assert st["result"] and st["result"]["winner"] == "adversary"
    end = [f for f in facts if f["type"] == "end"]
    assert end and all(f["cause"]["rule"] == "3.H" for f in end), end
