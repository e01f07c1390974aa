"""Issue 15 item 4: a facilitator may direct a Non-player to take a specific legal decision
instead of its section-8 flowchart's (Rules.directable / Rules.apply_directed); what follows
is again the Non-player's own. The facts carry the facilitator's cause and reason."""

from __future__ import annotations

import pytest

from engine.core.contract import IllegalChoice
from engine.scenarios.andean_abyss.board import BOARD as BD

from .conftest import RULES, pc


def solo(seed=3, **opts):
    st = RULES.setup(seed, {"players": 1, **opts})
    return st, RULES.prompt(st).seats[0]


def test_8_facilitator_directs_a_nonplayer_at_its_eligibility():
    st, seat = solo()
    assert [c.id for c in RULES.prompt(st).choices] == ["np:act"]
    ids = [c.id for c in RULES.directable(st, seat)]
    assert ids[0] == "pass" and "op:rally" in ids          # 2.3.4 options as a player sees them
    res = st["res"][3]
    facts = RULES.apply_directed(st, seat, "pass", "Show the class what passing does")
    assert st["res"][3] == res + 1                          # 2.3.3 an Insurgent Pass: +1 Resource
    assert facts[0]["type"] == "directed" and "Show the class" in str(facts[0]["text"])
    assert all(f["cause"] == {"kind": "facilitator", "reason": "Show the class what passing does"} for f in facts)
    assert RULES.prompt(st).seats != (seat,) or RULES.prompt(st).kind != "elig"


def test_8_directed_operation_continues_by_the_flowchart_or_further_directions():
    st, seat = solo()
    RULES.apply_directed(st, seat, "op:rally", "Rally instead of the flowchart's choice")
    p = RULES.prompt(st)
    assert p.seats == (seat,) and [c.id for c in p.choices] == ["np:act"]   # the Non-player's again
    spaces = [c.id for c in RULES.directable(st, seat) if c.id.startswith("space:")]
    assert "space:cali" in spaces
    before = pc(st, "cali")
    RULES.apply_directed(st, seat, "space:cali", "Rally in Cali")
    top = st["stack"][-1]
    assert top["k"] == "rallysp" and top["i"] == BD.index["cali"]   # 3.3.1 Rally in Cali under way
    for _ in range(50):                                     # the flowchart does the rest
        p = RULES.prompt(st)
        if p is None or p.seats != (seat,):
            break
        RULES.apply_inplace(st, seat, "np:act")
    after = pc(st, "cali")
    assert after.get("car_u", 0) + after.get("car_a", 0) > before.get("car_u", 0)   # Guerrillas placed


def test_8_directed_choice_must_be_legal_and_for_a_waiting_nonplayer():
    st, seat = solo()
    with pytest.raises(IllegalChoice):
        RULES.apply_directed(st, seat, "op:train", "not a Cartels Operation")
    with pytest.raises(IllegalChoice):
        RULES.apply_directed(st, "govt", "pass", "the Government is not the one to act")
    assert RULES.directable(st, "govt") == []


def test_8_player_seats_cannot_be_directed():
    st = RULES.setup(3, {})
    seat = RULES.prompt(st).seats[0]
    assert RULES.directable(st, seat) == []
    with pytest.raises(IllegalChoice):
        RULES.apply_directed(st, seat, "pass", "players decide for themselves")


def test_8_directed_decisions_replay_identically():
    st1, seat = solo(seed=11)
    st2 = RULES.copy(st1)
    a = RULES.apply_directed(st1, seat, "op:march", "why not")
    b = RULES.apply_directed(st2, seat, "op:march", "why not")
    assert a == b and RULES.dumps(st1) == RULES.dumps(st2)
