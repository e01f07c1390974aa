"""Combat adjudication (rulebook 1.G combat, L655-L675): the worked examples as golden tests."""

from __future__ import annotations

from engine.core.messages import render
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny.data import ADVISOR_INFLUENCE, UNIT_INFLUENCE, UNIT_VALUE

from .conftest import blank, find_tile


def test_combat_e1_plus1_defense_tile_with_two_cells_needs_3_damage(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="jungle")
    assert C.tiles[tid]["defense_modifier"] == 1
    st["tiles"][tid]["u"] = [["cell", 0], ["cell", 0]]
    facts = []
    B.player_attack(st, tid, 2, "liberators", facts, "test")
    assert B.units(st["tiles"][tid], "cell") == 1, "2 damage: 1 for the defense, 1 kills one cell"
    st["tiles"][tid]["u"] = [["cell", 0], ["cell", 0]]
    B.player_attack(st, tid, 3, "liberators", facts, "test")
    assert st["tiles"][tid]["u"] == [], "3 damage: 1 for the defense, then 1 + 1"


def test_combat_e1_follow_on_attack_must_overcome_defense_again(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="rural")
    st["tiles"][tid]["u"] = [["outpost", 0]]
    facts = []
    B.player_attack(st, tid, 2, "liberators", facts, "second attack")
    assert st["tiles"][tid]["u"] == [["outpost", 1]], "2 damage against +1 leaves the outpost damaged"
    B.player_attack(st, tid, 1, "liberators", facts, "third attack")
    assert st["tiles"][tid]["u"] == [["outpost", 1]], "1 damage is absorbed by the defense again"
    B.player_attack(st, tid, 2, "liberators", facts, "fourth attack")
    assert st["tiles"][tid]["u"] == [], "E2: 1 defense + 1 remaining health destroys it"


def test_combat_e1_outpost_needs_three_more_after_the_cells(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="jungle")
    st["tiles"][tid]["u"] = [["outpost", 0]]
    B.player_attack(st, tid, 2, "liberators", [], "too weak")
    assert B.units(st["tiles"][tid], "outpost") == 1
    st["tiles"][tid]["u"] = [["outpost", 0]]
    B.player_attack(st, tid, 3, "liberators", [], "1 defense + 2 health")
    assert st["tiles"][tid]["u"] == []


def test_combat_e3_two_damage_kills_cell_and_civilian_and_costs_influence(rules, C):
    st = blank(rules, collateral="flat")
    tid = find_tile(C, st, terrain="desert")
    assert C.tiles[tid]["defense_modifier"] == 0
    t = st["tiles"][tid]
    t["u"] = [["cell", 0]]
    t["blue"] = 1  # a red civilian would add +1 defense
    st["inf"]["earned"] = 2
    facts = []
    B.player_attack(st, tid, 2, "liberators", facts, "E3")
    assert t["u"] == [] and t["blue"] == 0
    assert st["inf"]["earned"] == 1, "general rule: 1 influence per civilian killed"
    assert st["stats"]["civilians_killed"] == 1
    assert any(f.get("track") == "influence" and f["delta"] == -1 and "collateral" in render(f["cause"]) for f in facts)


def test_combat_collateral_penalty_per_player_type(rules, C):
    for seat, expected in (("liberators", 2), ("partisans", 0), ("comrades", 0)):
        st = blank(rules, players=4)
        tid = find_tile(C, st, terrain="desert")
        t = st["tiles"][tid]
        t["u"] = [["cell", 0]]
        t["blue"] = 1
        st["inf"]["earned"] = 5
        B.player_attack(st, tid, 2, seat, [], "E3")
        assert st["inf"]["earned"] == 5 - expected, seat


def test_combat_red_civilian_adds_defense_so_no_collateral(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="desert")
    t = st["tiles"][tid]
    t["u"] = [["cell", 0]]
    t["red"] = 1
    B.player_attack(st, tid, 2, "liberators", [], "red")
    assert t["u"] == [] and t["red"] == 1


def test_combat_quick_reference_table(rules, C):
    """L667-L675: damage/health and the influence change when each piece dies."""
    assert UNIT_VALUE == {"cell": 1, "outpost": 2, "garrison": 3}
    assert UNIT_INFLUENCE == {"cell": 0, "outpost": 1, "garrison": 2}
    assert ADVISOR_INFLUENCE == {"cell": 1, "outpost": 2, "garrison": 5}
    st = blank(rules)
    tid = find_tile(C, st, terrain="desert")
    t = st["tiles"][tid]
    # garrison 3/3: +2 influence
    t["u"] = [["garrison", 0]]
    B.player_attack(st, tid, 3, "liberators", [], "table")
    assert t["u"] == [] and st["inf"]["earned"] == 2
    # outpost 2/2: +1
    t["u"] = [["outpost", 0]]
    B.player_attack(st, tid, 2, "liberators", [], "table")
    assert st["inf"]["earned"] == 3
    # cell 1/1: 0
    t["u"] = [["cell", 0]]
    B.player_attack(st, tid, 1, "liberators", [], "table")
    assert st["inf"]["earned"] == 3
    # G base 2/2: -2 when destroyed; G 1/1
    t["bases"] = [["liberators", 0]]
    t["gs"] = {"liberators": 2}
    B.adversary_attack(st, tid, 3, [], "table")
    assert t["bases"] == [] and t["gs"] == {} and st["inf"]["earned"] == 1
    # red civilian +1 defense for the adversary, tyranny +5
    t["red"] = 2
    assert B.tile_defense(st, tid) == 2
    t["tyr"] = 2
    assert B.tile_defense(st, tid) == 7, "A-14: +5 per tile, not per token"
    # blue civilian +1 for the players: one less dominate strength
    t.update({"red": 0, "tyr": 0, "u": [["outpost", 0]], "blue": 0})
    s0 = ADV.dominate_strength(st, tid)
    t["blue"] = 1
    assert ADV.dominate_strength(st, tid) == s0 - 1


def test_combat_damage_clears_at_end_of_turn(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="jungle")
    st["tiles"][tid]["u"] = [["garrison", 0]]
    B.player_attack(st, tid, 3, "liberators", [], "partial")
    assert st["tiles"][tid]["u"] == [["garrison", 2]]
    rules._end_turn(st, [])
    assert st["tiles"][tid]["u"] == [["garrison", 0]]


def test_combat_tyranny_defense_is_kept_when_ignoring_defense(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="jungle")
    t = st["tiles"][tid]
    t.update({"u": [["cell", 0]], "red": 2, "tyr": 1})
    assert B.tile_defense(st, tid, ignore_defense=True) == 5
    assert B.tile_defense(st, tid, ignore_defense=True, ignore_tyranny=True) == 0


def test_combat_advisors_never_kill_they_displace_and_gain_influence(rules, C):
    st = blank(rules, players=2)
    tid = find_tile(C, st, terrain="desert")
    t = st["tiles"][tid]
    t["u"] = [["outpost", 0]]
    t["blue"] = 3
    B.player_attack(st, tid, 5, "advisors", [], "advisors")
    assert t["u"] == [] and t["blue"] == 3, "no collateral damage"
    assert st["inf"]["earned"] == 2
    assert sum(B.units(st["tiles"][n], "outpost") for n in C.adj[tid] if n in st["tiles"]) == 1


def test_combat_tyranny_cleared_by_force_leaves_the_game(rules, C):
    st = blank(rules)
    tid = find_tile(C, st, terrain="desert")
    t = st["tiles"][tid]
    t.update({"u": [["cell", 0]], "tyr": 1})
    pool = st["tyr_pool"]
    B.player_attack(st, tid, 6, "liberators", [], "clear")
    assert t["tyr"] == 0 and st["tyr_gone"] == 1 and st["tyr_pool"] == pool


def _attack_frame(rules, st, seat, tid, n):
    fr = {"k": "effect", "ops": [{"op": "damage", "n": n}], "i": 0, "tile": tid, "label": f"attack {n}",
          "moved": 0, "src": "test"}
    st["frames"][seat] = [{"k": "select"}, fr]       # the select frame keeps the window open
    rules._settle_seat(st, seat, [])


def test_combat_e1_attacker_assigns_damage_to_the_cells_then_outpost_needs_3(rules, C):
    """E1 (L661) through the prompt: +1 tile with 2 cells and an outpost; 3 damage kills both
    cells when the attacker assigns it so, and a further attack needs 3 (1 defense + 2 health)."""
    st = blank(rules)
    seat = "liberators"
    tid = find_tile(C, st, terrain="jungle")
    st["tiles"][tid]["u"] = [["cell", 0], ["cell", 0], ["outpost", 0]]
    st["pl"][seat]["res"] = 10
    _attack_frame(rules, st, seat, tid, 3)
    p = rules.prompt(st)
    assert {c.id for c in p.choices_for(seat)} == {"hit:outpost", "hit:cell"}
    st, _ = rules.apply(st, seat, "hit:cell")
    st, _ = rules.apply(st, seat, "hit:cell")
    assert st["tiles"][tid]["u"] == [["outpost", 0]], "3 damage: 1 defense, then 1 + 1 on the cells"
    _attack_frame(rules, st, seat, tid, 2)
    assert st["tiles"][tid]["u"] == [["outpost", 1]], "2 more: the defense is overcome again, 1 point left"
    st["tiles"][tid]["u"] = [["outpost", 0]]
    _attack_frame(rules, st, seat, tid, 3)
    assert st["tiles"][tid]["u"] == [], "3 more (1 defense + 2 health) destroy the outpost"


def test_combat_a57_no_choice_when_the_attack_kills_everything(rules, C):
    st = blank(rules)
    seat = "liberators"
    tid = find_tile(C, st, terrain="jungle")
    st["tiles"][tid]["u"] = [["cell", 0], ["outpost", 0]]
    st["pl"][seat]["res"] = 10
    _attack_frame(rules, st, seat, tid, 4)
    assert st["tiles"][tid]["u"] == []
    assert rules.prompt(st).choices_for(seat)[0].id.startswith(("play:", "done"))


# ---- the attack fact explains the combat (browser finding: "3 damage against defense 1" said
# nothing about where the 1 came from) ---------------------------------------------------------------

def _attack(st, tid, dmg, seat, **kw):
    facts = []
    B.player_attack(st, tid, dmg, seat, facts, "Crafted strike", **kw)
    att = [f for f in facts if f["type"] == "attack"]
    assert len(att) == 1
    return att[0], facts


def test_attack_fact_names_each_part_of_the_defense_the_earlier_damage_and_the_result(rules, C):
    """1.G combat, Defense: "Defense points can be derived from the terrain, civilian support,
    tyranny, or capabilities" and are overcome on every attack; 3 (damage adversaries): damage
    accumulates through the turn; 1.B: outpost +1 influence; A-25: Liberators -2 per civilian."""
    st = blank(rules, players=4)
    tid = find_tile(C, st, terrain="jungle")
    t = st["tiles"][tid]
    t["u"] = [["outpost", 1], ["cell", 0]]  # the outpost was damaged earlier this turn
    t["red"], t["blue"] = 1, 2
    st["inf"]["earned"] = 10
    f, facts = _attack(st, tid, 7, "liberators")
    assert f["defense"] == 2 and f["through"] == 5
    assert [(p["source"], p["value"]) for p in f["defense_parts"]] == [("terrain", 1), ("red_civilians", 1)]
    text = render(f["text"])
    for bit in ("7 damage against defense 2", "jungle terrain +1 (1.A)", "1 red civilian +1 (1.C",
                "overcome again by every attack (1.G combat)",
                "outpost (1 damage taken earlier this turn, 1 of 2 health left)", "cell (1 health)",
                "destroyed: adversary outpost, adversary cell", "influence +1 (outpost +1",
                "collateral: 3 excess damage kills 3 civilians",
                "the Liberators lose 2 influence per civilian killed (Liberators panel, A-25): -6 influence"):
        assert bit in text, (bit, text)
    assert f["destroyed"] == ["outpost", "cell"] and f["collateral"] == 3
    col = next(x for x in facts if x["type"] == "collateral")
    assert (col["killed"], col["penalty"], col["influence_lost"]) == (3, 2, 6)
    assert st["inf"]["earned"] == 10 + 1 - 6


def test_attack_fact_tyranny_and_disregarded_defense(rules, C):
    """1.G combat: a card may disregard defense modifiers, never tyranny unless it targets tyranny;
    1.B / A-14: tyranny +5 per tile."""
    st = blank(rules, players=4)
    tid = find_tile(C, st, terrain="rural")
    t = st["tiles"][tid]
    t["u"], t["red"], t["tyr"] = [["garrison", 0]], 2, 2
    f, _ = _attack(st, tid, 4, "comrades")
    assert [(p["source"], p["value"]) for p in f["defense_parts"]] == [
        ("terrain", 1), ("red_civilians", 2), ("tyranny", 5)]
    assert f["defense"] == 8 == B.tile_defense(st, tid)
    assert "tyranny +5 (1.B; A-14: per tile)" in render(f["text"]) and "no effect" in render(f["text"])
    f, _ = _attack(st, tid, 7, "comrades", ignore_defense=True)
    assert f["defense"] == 5 and "disregarded by the capability" in render(f["text"])
    assert "garrison 2 of 3 this turn" in render(f["text"]), "damage that gets through is kept for the turn"
    f, _ = _attack(st, tid, 1, "comrades", ignore_defense=True, ignore_tyranny=True)
    assert f["defense"] == 0 and "tyranny disregarded: the capability targets tyranny" in render(f["text"])
    assert "destroyed: adversary garrison" in render(f["text"]), "2 earlier damage + 1: the garrison's 3 health are gone"
    assert "influence +2" in render(f["text"])


def test_collateral_penalty_is_explained_per_player_type(rules, C):
    """A-25 panel values: Liberators -2, Advisors -3, Partisans and
    Comrades 0 (1.G combat: they "do not lose influence"); the flat option: -1 for Liberators and
    Advisors."""
    for seat, opt, words in (("comrades", "panel", "the Comrades lose no influence for collateral damage"),
                             ("partisans", "panel", "the Partisans lose no influence"),
                             ("liberators", "flat", "the Liberators lose 1 influence per civilian killed "
                                                    "(flat rule option")):
        st = blank(rules, players=4, collateral=opt)
        tid = find_tile(C, st, terrain="desert")
        t = st["tiles"][tid]
        t["u"], t["blue"] = [["cell", 0]], 2
        st["inf"]["earned"] = 5
        f, facts = _attack(st, tid, 3, seat)
        assert "collateral: 2 excess damage kills 2 civilians" in render(f["text"]), f["text"]
        assert words in render(f["text"]), (seat, f["text"])
        col = next(x for x in facts if x["type"] == "collateral")
        assert words in render(col["text"]) and col["rule"] == "1.G combat (A-25)"


def test_advisors_attack_fact_says_they_drive_units_out(rules, C):
    st = blank(rules, players=4)
    tid = find_tile(C, st, terrain="desert")
    st["tiles"][tid]["u"] = [["outpost", 0]]
    f, _ = _attack(st, tid, 2, "advisors")
    assert "the Advisors do no damage" in render(f["text"]) and "A-28" in render(f["text"])
    assert "driven out: adversary outpost" in render(f["text"])


def test_a_damaged_unit_reports_the_damage_accumulated_this_turn(rules, C):
    """3 (damage adversaries): "Damage accumulates throughout the entire turn"."""
    st = blank(rules, players=4)
    tid = find_tile(C, st, terrain="desert")
    st["tiles"][tid]["u"] = [["garrison", 0]]
    _f, facts = _attack(st, tid, 1, "liberators")
    dmg = next(x for x in facts if x["type"] == "damage")
    assert (dmg["damage_this_turn"], dmg["health_left"]) == (1, 2)
    f, facts = _attack(st, tid, 1, "liberators")
    dmg = next(x for x in facts if x["type"] == "damage")
    assert (dmg["damage_this_turn"], dmg["health_left"]) == (2, 1)
    assert "2 of 3 health lost this turn" in render(dmg["text"])
    assert "garrison (1 damage taken earlier this turn, 2 of 3 health left)" in render(f["text"])


def test_defense_parts_add_up_to_the_tile_defense_everywhere(rules, C):
    st = rules.setup(5, {"players": 4})
    for i, tid in enumerate(st["order"]):
        t = st["tiles"][tid]
        t["red"], t["tyr"] = i % 3, (i % 5 == 0)
        for ign in (False, True):
            for ign_t in (False, True):
                parts = B.defense_parts(st, tid, ign, ign_t)
                assert sum(p["value"] for p in parts) == B.tile_defense(st, tid, ign, ign_t), tid


def test_an_attack_the_player_assigns_explains_the_defense(rules, C):
    st = blank(rules, players=4)
    tid = find_tile(C, st, terrain="jungle")
    st["tiles"][tid]["u"] = [["garrison", 0], ["cell", 0]]
    f = B.attack_fact(st, tid, 3, "liberators", "Crafted strike", assign=True)
    assert f["defense"] == 1 and "jungle terrain +1 (1.A)" in render(f["text"])
    assert "2 damage gets through: the Liberators assign it among the units (A-57)" in render(f["text"])
