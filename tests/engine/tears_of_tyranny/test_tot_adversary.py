"""Adversary procedures on crafted tiles: 3.H Deploy, 3.G Develop, 3.F Dominate, 3.D threshold."""

from __future__ import annotations

import json

import pytest

from engine.core.contract import IllegalChoice
from engine.core.messages import render
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny.data import THRESHOLD

from .conftest import blank, find_tile


def _inland_far(C, st):
    """An inland tile whose neighbours are inland too."""
    for tid in st["order"]:
        if C.tiles[tid]["quadrant"] == 1 and not C.tiles[tid]["coastal"]:
            if all(not C.tiles[n]["coastal"] for n in C.adj[tid]):
                return tid
    raise LookupError


def test_3h_deploy_coastal_tile_gets_one_cell(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, coastal=True)
    ADV.deploy_tile(st, tid, [])
    assert st["tiles"][tid]["u"] == [["cell", 0]]


def test_3h_deploy_inland_tile_without_nearby_forces_gets_nothing(rules, C):
    st = blank(rules)
    tid = _inland_far(C, st)
    ADV.deploy_tile(st, tid, [])
    assert st["tiles"][tid]["u"] == []


def test_3h_deploy_next_to_outpost_or_garrison_or_in_it(rules, C):
    st = blank(rules)
    tid = _inland_far(C, st)
    nb = next(n for n in C.adj[tid] if n in st["tiles"])
    st["tiles"][nb]["u"] = [["garrison", 0]]
    ADV.deploy_tile(st, tid, [])
    assert B.units(st["tiles"][tid], "cell") == 1
    st = blank(rules)
    st["tiles"][tid]["u"] = [["outpost", 0]]
    ADV.deploy_tile(st, tid, [])
    assert B.units(st["tiles"][tid], "cell") == 1, "A-10 (b): an outpost in the tile itself qualifies"


def test_3h_deploy_prevented(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, coastal=True)
    st["tiles"][tid]["prev"] = ["deploy"]
    ADV.deploy_tile(st, tid, [])
    assert st["tiles"][tid]["u"] == []


@pytest.mark.parametrize("start,expected", [
    ([["cell", 0]], {"cell": 1, "outpost": 1, "garrison": 0}),
    ([["outpost", 0]], {"cell": 0, "outpost": 1, "garrison": 1}),
    ([["garrison", 0]], {"cell": 0, "outpost": 0, "garrison": 2}),
    ([["cell", 0], ["outpost", 0], ["garrison", 0]], {"cell": 1, "outpost": 2, "garrison": 3}),
])
def test_3g_develop_once_per_unit_type(rules, C, start, expected):
    st = blank(rules)
    tid = find_tile(C, st, terrain="desert")
    st["tiles"][tid]["u"] = [list(u) for u in start]
    ADV.develop_tile(st, tid, [])
    got = {k: B.units(st["tiles"][tid], k) for k in ("cell", "outpost", "garrison")}
    assert got == expected


def test_3g_develop_with_garrison_supply_empty_builds_two_outposts(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="desert")
    other = find_tile(C, st, terrain="urban")
    st["tiles"][other]["u"] = [["garrison", 0] for _ in range(20)]
    st["tiles"][tid]["u"] = [["outpost", 0]]
    ADV.develop_tile(st, tid, [])
    assert B.units(st["tiles"][tid], "outpost") == 3 and B.units(st["tiles"][tid], "garrison") == 0


def test_3f_dominate_strength_subtractions(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="jungle")
    t = st["tiles"][tid]
    t["u"] = [["garrison", 1], ["outpost", 0], ["cell", 0]]  # damaged units count fully
    t["blue"] = 2
    t["def"] = 1
    assert ADV.dominate_strength(st, tid) == 6 - 2 - 1 - 1


def test_3f_dominate_with_2_strength_tyrannizes_and_removes_presence(rules, C):
    st = blank(rules, players=3)
    tid = find_tile(C, st, terrain="desert")
    t = st["tiles"][tid]
    t["u"] = [["outpost", 0]]
    t["pres"] = {"liberators": 1, "partisans": 2}
    pool = st["tyr_pool"]
    open_before = sum(st["pl"]["partisans"]["open"].values())
    ADV.dominate_tile(st, tid, [])
    assert t["tyr"] == 1 and st["tyr_pool"] == pool - 1
    assert t["pres"] == {}
    assert sum(st["pl"]["partisans"]["open"].values()) < open_before or open_before == 2, \
        "Partisan presence returns to the track"


def test_3f_dominate_below_2_no_tyranny_but_attacks_guerrillas(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="rural")
    t = st["tiles"][tid]
    t["u"] = [["outpost", 0]]          # 2 - 1 (rural) = 1
    t["gs"] = {"liberators": 2}
    t["pres"] = {"liberators": 1}
    ADV.dominate_tile(st, tid, [])
    assert t["tyr"] == 0 and t["pres"] == {"liberators": 1}
    # 1 G killed, the surviving G counterattacks with 1 and damages the outpost
    assert t["gs"] == {"liberators": 1}
    assert t["u"] == [["outpost", 1]]


def test_3f_dominate_attacks_bases_first_and_base_loss_costs_2_influence(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="desert")
    t = st["tiles"][tid]
    t["u"] = [["garrison", 0]]   # strength 3
    t["bases"] = [["liberators", 0]]
    t["gs"] = {"liberators": 2}
    st["inf"]["earned"] = 3
    ADV.dominate_tile(st, tid, [])
    assert t["bases"] == [], "2 strength destroys the base (and its G)"
    assert t["gs"] == {}, "the last strength point kills the other G"
    assert st["inf"]["earned"] == 1


def test_3f_counterattack_strength_minus_red_civilians(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="jungle")
    t = st["tiles"][tid]
    t["u"] = [["cell", 0], ["cell", 0]]   # 2 - 1 jungle = 1: no tyranny, 1 G dies
    t["gs"] = {"liberators": 5}
    t["red"] = 1
    ADV.dominate_tile(st, tid, [])
    assert t["gs"] == {"liberators": 4}
    assert t["u"] == [], "4 Gs - 1 red = 3 points: both cells die, 1 point of collateral"
    assert t["red"] == 0


def test_3f_escalation_second_token_red_civilians_and_adjacent_choice(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="desert")
    t = st["tiles"][tid]
    t.update({"u": [["garrison", 0]], "tyr": 1, "blue": 1, "red": 1})
    esc = ADV.dominate_tile(st, tid, [])
    assert esc == tid and t["tyr"] == 2 and t["red"] == 2 and t["blue"] == 0
    nb = ADV.escalate_choices(st, tid)[0]
    st["tiles"][nb]["pres"] = {"liberators": 1}
    ADV.escalate_into(st, nb, [])
    assert st["tiles"][nb]["tyr"] == 1 and B.units(st["tiles"][nb], "cell") == 1
    assert st["tiles"][nb]["pres"] == {}


def test_3f_escalation_is_a_team_prompt_in_the_adversary_phase(rules, C):
    st = blank(rules)
    q = [tid for tid in st["order"]]
    dom_card = next(c for c in sorted(C.terrain) if C.terrain[c]["terrain_card_ref"] == C.tiles[q[5]]["terrain_card_ref"])
    tid = q[5]
    st["tiles"][tid].update({"u": [["garrison", 0]], "tyr": 1})
    st["boxes"]["dominate"] = dom_card
    st["frames"] = {s: [] for s in st["seats"]}
    st["phase"] = "window"
    rules._advance(st, [])
    p = rules.prompt(st)
    assert p.kind == "escalate" and p.seats == ("liberators",)
    assert all(c.id.startswith("esc:") for c in p.choices)
    st2, facts = rules.apply(st, "liberators", p.choices[0].id)
    assert st2["tiles"][p.choices[0].payload["tile"]]["tyr"] >= 1


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_3d_threshold_per_player_count(rules, C, players):
    st = blank(rules, players=players)
    need = THRESHOLD[players]
    assert need == {1: 2, 2: 5, 3: 7, 4: 10}[players]
    tiles = st["order"]
    for i in range(need - 1):
        st["tiles"][tiles[i]]["tyr"] = 1
    assert B.tyranny_state(st) == "freedom"
    st["tiles"][tiles[need]]["tyr"] = 1
    assert B.tyranny_state(st) == "tyranny"


def _shield_prompt(rules, C):
    st = blank(rules, players=3)
    tid = st["order"][3]
    card = next(c for c in sorted(C.terrain) if C.terrain[c]["terrain_card_ref"] == C.tiles[tid]["terrain_card_ref"])
    st["tiles"][tid].update({"u": [["outpost", 0], ["cell", 0]], "pres": {"partisans": 2}})
    st["boxes"]["dominate"] = card
    st["frames"] = {s: [] for s in st["seats"]}
    rules._advance(st, [])
    p = rules.prompt(st)
    while p.kind != "shield":  # the event might not ask anything; step to the shield
        st, _ = rules.apply(st, p.seats[0], p.choices[0].id)
        p = rules.prompt(st)
    return st, tid, p


def test_partisan_hq_shield_prompt_and_cancel(rules, C):
    st, tid, p = _shield_prompt(rules, C)
    assert p.seats == ("partisans",) and {c.id for c in p.choices} == {"shield", "decline"}
    # the dominate step waits under the question, on top of the sequence of play's stack
    assert st["adv"][-1] == {"k": "dominate", "tile": tid}
    st, _ = rules.apply(st, "partisans", "shield")
    assert st["tiles"][tid]["tyr"] == 0 and st["tiles"][tid]["pres"] == {"partisans": 1}


def _saved_before_frames(st):
    """``st`` as saved before the adversary's steps were frames (issue 16.9): a queue of
    ``{"s": step, ...}``, the next step first, in a JSON round trip (a session's cached state)."""
    old = json.loads(json.dumps(st))
    old["adv"] = [{("s" if k == "k" else k): v for k, v in fr.items()} for fr in reversed(old["adv"])]
    return old


@pytest.mark.parametrize("answer", ["shield", "decline"])
def test_a_state_saved_with_the_adversary_queue_resumes_as_the_stack_does(rules, C, answer):
    """A game saved at a question of the adversary phase before the steps became frames keeps the
    old queue; answered, it goes on exactly as the same game with the stack (state and facts),
    the answered step marked asked (not asked twice) and the later steps in their order."""
    st, tid, p = _shield_prompt(rules, C)
    assert len(st["adv"]) >= 3
    old = _saved_before_frames(st)
    assert old["adv"][0] == {"s": "dominate", "tile": tid} and old["adv"][-1] == {"s": "shift"}
    assert rules.prompt(old).kind == "shield"
    new_st, new_facts = rules.apply(st, "partisans", answer)
    old_st, old_facts = rules.apply(old, "partisans", answer)
    assert old_st == new_st and old_facts == new_facts
    assert new_st["phase"] in ("long", "over") and not new_st["adv"]


def _escalation_prompt(rules, C, players):
    """A game in the adversary phase stopped at an escalation (3.F) in a tile with 2+ neighbours."""
    st = blank(rules, players=players)
    q = [tid for tid in st["order"] if C.tiles[tid]["quadrant"] == 1]
    tid = next(t for t in q[5:] if len(ADV.escalate_choices(st, t)) >= 3)
    dom_card = next(c for c in sorted(C.terrain) if C.terrain[c]["terrain_card_ref"] == C.tiles[tid]["terrain_card_ref"])
    st["tiles"][tid].update({"u": [["garrison", 0], ["garrison", 0]], "tyr": 1})
    st["boxes"]["dominate"] = dom_card
    st["frames"] = {s: [] for s in st["seats"]}
    st["phase"] = "window"
    rules._advance(st, [])
    p = rules.prompt(st)
    while p.kind != "escalate":   # an event may ask something first (none of them does today)
        st, _ = rules.apply(st, p.seats[0], p.choices_for(p.seats[0])[0].id)
        p = rules.prompt(st)
    return st, tid, p


def test_3f_escalation_consensus_any_seat_proposes_all_others_confirm(rules, C):
    """3.F: the adjacent tile "is chosen by player consensus" (A-13): any seat may propose, and the
    spill-over happens only when every other seat has agreed."""
    st, tid, p = _escalation_prompt(rules, C, players=3)
    assert set(p.seats) == set(st["seats"])
    cand = [c.payload["tile"] for c in p.choices]
    assert cand == ADV.escalate_choices(st, tid)
    target = cand[1]
    pool = st["tyr_pool"]
    st, _ = rules.apply(st, "partisans", f"esc:{target}")      # the third seat proposes
    p = rules.prompt(st)
    assert p.kind == "esc_confirm" and set(p.seats) == {"liberators", "advisors"}
    assert {c.id for c in p.choices} == {"agree", "object"}
    with pytest.raises(IllegalChoice):
        rules.apply(st, "partisans", "agree")                   # the proposer does not vote again
    st, _ = rules.apply(st, "advisors", "agree")
    assert st["tiles"][target]["tyr"] == 0, "no spill-over before the whole team agrees"
    p = rules.prompt(st)
    assert p.seats == ("liberators",)
    with pytest.raises(IllegalChoice):
        rules.apply(st, "advisors", "agree")                    # a seat that answered cannot answer again
    st, facts = rules.apply(st, "liberators", "agree")
    assert st["tiles"][target]["tyr"] == 1
    assert any(f["type"] == "deploy" and f.get("tile") == target and "Escalation" in render(f["text"]) for f in facts)
    assert st["tyr_pool"] == pool - 1
    assert rules.prompt(st) is None or rules.prompt(st).kind not in ("escalate", "esc_confirm")


def test_3f_escalation_objection_strikes_the_tile_and_reopens_proposals(rules, C):
    st, tid, p = _escalation_prompt(rules, C, players=2)
    cand = [c.payload["tile"] for c in p.choices]
    st, _ = rules.apply(st, "liberators", f"esc:{cand[0]}")
    st, _ = rules.apply(st, "advisors", "object")
    p = rules.prompt(st)
    assert p.kind == "escalate" and set(p.seats) == {"liberators", "advisors"}
    left = [c.payload["tile"] for c in p.choices]
    assert cand[0] not in left and left == cand[1:]
    assert st["tiles"][cand[0]]["tyr"] == 0
    # objections strike tiles until one is left, which then takes the spill-over without a vote
    while True:
        p = rules.prompt(st)
        if p is None or p.kind not in ("escalate", "esc_confirm"):
            break
        if p.kind == "escalate":
            st, _ = rules.apply(st, "advisors", p.choices[0].id)
        else:
            st, _ = rules.apply(st, "liberators", "object")
    assert st["tiles"][cand[-1]]["tyr"] == 1
    assert all(st["tiles"][t]["tyr"] == 0 for t in cand[:-1])


def test_3f_escalation_solo_the_player_decides_alone(rules, C):
    st, tid, p = _escalation_prompt(rules, C, players=1)
    assert p.seats == ("liberators",)
    target = p.choices[-1].payload["tile"]
    st, _ = rules.apply(st, "liberators", f"esc:{target}")
    assert st["tiles"][target]["tyr"] == 1


def test_3f_counterattack_fact_is_itemised(rules, C):
    """3.F/A-15: the counterattack fact names strength, the red-civilian reduction, what gets through,
    the units destroyed and the collateral with the director's penalty (A-25), like a player attack."""
    st = blank(rules)
    tid = find_tile(C, st, terrain="jungle")
    t = st["tiles"][tid]
    t["u"] = [["cell", 0], ["cell", 0]]
    t["gs"] = {"liberators": 5}
    t["red"] = 1
    facts: list = []
    ADV.dominate_tile(st, tid, facts)
    ca = [f for f in facts if f["type"] == "counterattack"]
    assert len(ca) == 1
    f = ca[0]
    assert f["strength"] == 4 and f["defense"] == 1 and f["through"] == 3
    assert [p["source"] for p in f["defense_parts"]] == ["red_civilians"]
    assert "A-15" in f["rule"] and "A-15" in render(f["text"])
    assert f["units_before"] == [["cell", 0], ["cell", 0]]
    assert f["destroyed"] == ["cell", "cell"]
    assert f["collateral"] == 1
    assert "collateral: 1 excess damage kills 1 civilian" in render(f["text"])
    assert "Liberators" in render(f["text"]) and "A-25" in render(f["text"])
    assert f["seat"] == "liberators"


def test_3f_counterattack_fact_when_red_civilians_absorb_it(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="jungle")
    t = st["tiles"][tid]
    t["u"] = [["cell", 0], ["cell", 0]]   # 1 G dies, 1 survives
    t["gs"] = {"liberators": 2}
    t["red"] = 2
    facts: list = []
    ADV.dominate_tile(st, tid, facts)
    f = next(f for f in facts if f["type"] == "counterattack")
    assert f["through"] == 0 and f["destroyed"] == [] and "Nothing gets through" in render(f["text"])
    assert t["u"] == [["cell", 0], ["cell", 0]]


def test_3f_counterattack_full_defense_option_lists_tile_defense(rules, C):
    st = blank(rules, counterattack="full_defense")
    assert st["opts"]["counterattack"] == "full_defense"
    tid = find_tile(C, st, terrain="jungle")
    t = st["tiles"][tid]
    t["u"] = [["cell", 0], ["cell", 0]]
    t["gs"] = {"liberators": 6}
    facts: list = []
    ADV.dominate_tile(st, tid, facts)
    f = next(f for f in facts if f["type"] == "counterattack")
    assert {p["source"] for p in f["defense_parts"]} >= {"terrain", "red_civilians"}
    assert f["defense"] == sum(p["value"] for p in f["defense_parts"])
    assert f["through"] == max(0, 5 - f["defense"])


def _counterattack_prompt(rules, C, players=2, units=(("outpost", 0), ("cell", 0)), gs=None):
    """A game stopped at a guerrilla counterattack (3.F) whose targets the director must choose."""
    st = blank(rules, players=players)
    tid = find_tile(C, st, terrain="desert")
    card = next(c for c in sorted(C.terrain) if C.terrain[c]["terrain_card_ref"] == C.tiles[tid]["terrain_card_ref"])
    # strength 3 - 3 blue civilians = 0: no tyranny, no attack on the Gs, who all counterattack
    st["tiles"][tid].update({"u": [list(u) for u in units], "blue": 3, "gs": gs or {"advisors": 2}})
    st["boxes"]["dominate"] = card
    st["frames"] = {s: [] for s in st["seats"]}
    # the adversary phase at its dominate step in that tile (no event first: it could change the tile)
    st["phase"] = "adversary"
    st["adv"] = [{"k": "dominate", "tile": tid}]
    rules._advance(st, [])
    p = rules.prompt(st)
    while p is not None and p.kind != "counterattack" and st["phase"] == "adversary":
        st, _ = rules.apply(st, p.seats[0], p.choices_for(p.seats[0])[0].id)
        p = rules.prompt(st)
    return st, tid, p


def test_3f_counterattack_targets_are_the_directors_choice(rules, C):
    """3.F: "The remaining guerilla strength can be targeted against the adversary at the player's
    discretion": 2 points against an outpost (2) and a cell (1) kill either but not both, so the
    directing player (most surviving Gs, A-15) is asked; it was allocated automatically before."""
    st, tid, p = _counterattack_prompt(rules, C)
    assert p is not None and p.kind == "counterattack" and p.seats == ("advisors",)
    assert "3.F" in p.rule
    assert {c.id for c in p.choices} == {"hit:outpost", "hit:cell"}
    # the director spares the outpost and kills the cell: the last point damages the outpost
    st2, facts = rules.apply(st, "advisors", "hit:cell")
    t = st2["tiles"][tid]
    assert t["u"] == [["outpost", 1]]
    assert any(f["type"] == "destroy" and f.get("unit") == "cell" for f in facts)
    # the other choice destroys the outpost (influence +1, 1.B) and leaves the cell
    st3, facts = rules.apply(st, "advisors", "hit:outpost")
    assert st3["tiles"][tid]["u"] == [["cell", 0]]
    assert st3["inf"]["earned"] + st3["inf"]["n_earned"] * st3["inf"]["cap"] > \
        st["inf"]["earned"] + st["inf"]["n_earned"] * st["inf"]["cap"]
    # only the director answers
    with pytest.raises(IllegalChoice):
        rules.apply(st, "liberators", "hit:cell")


def test_3f_counterattack_without_a_real_choice_is_not_asked(rules, C):
    """2 points against 3 cells: every allocation is the same, nothing to ask."""
    st, tid, p = _counterattack_prompt(rules, C, units=(("cell", 0), ("cell", 0), ("cell", 0)))
    assert p is None or p.kind != "counterattack"


def test_1i_event_recruit_at_headquarters_asks_which_hq_when_there_are_two(rules, C):
    """An event's "each player recruits 1 guerrilla at their headquarters": with two HQs (2+ presence
    each) the player chooses where; it was the first in tile order before."""
    st = blank(rules)
    a, b = st["order"][2], st["order"][9]
    for t in st["tiles"].values():
        t["pres"].pop("liberators", None)
    st["tiles"][a]["pres"]["liberators"] = 2
    st["tiles"][b]["pres"]["liberators"] = 2
    ADV.run_board_ops(st, [{"op": "each_recruit", "n": 1}], [], "event Border Skirmish")
    p = rules.prompt(st)
    assert p.kind == "event_recruit" and p.seats == ("liberators",)
    assert {c.id for c in p.choices} == {f"recruit:{a}", f"recruit:{b}"}
    st2, facts = rules.apply(st, "liberators", f"recruit:{b}")
    assert st2["tiles"][b]["gs"].get("liberators") == 1 and not st2["tiles"][a]["gs"].get("liberators")


def test_1i_event_recruit_with_one_hq_needs_no_decision(rules, C):
    st = blank(rules)
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get("liberators"))
    ADV.run_board_ops(st, [{"op": "each_recruit", "n": 1}], [], "event")
    assert not st["g"] and st["tiles"][hq]["gs"].get("liberators") == 1


def test_1h_a_decision_raised_in_the_adversary_phase_is_asked_before_the_next_step(rules, C):
    """A payment (1.H) or a recruit raised by the event is answered before dominate goes on."""
    st = blank(rules)
    st["frames"] = {s: [] for s in st["seats"]}
    st["phase"] = "adversary"
    tid = find_tile(C, st, terrain="desert")
    st["tiles"][tid].update({"u": [["garrison", 0]]})
    st["adv"] = [{"k": "dominate", "tile": tid}]
    st["g"].append({"k": "influence_debt", "seat": "liberators", "cause": "test", "rule": "1.H", "text": "pay"})
    rules._advance(st, [])
    assert st["adv"] == [{"k": "dominate", "tile": tid}] and st["tiles"][tid]["tyr"] == 0
    st, _ = rules.apply(st, "liberators", "pay:resource")
    assert st["tiles"][tid]["tyr"] == 1, "the dominate step runs once the payment is made"
