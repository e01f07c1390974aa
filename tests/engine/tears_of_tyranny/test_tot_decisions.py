"""Player decisions the rulebook leaves to the table, asked of the right seat (1.G, A-25)."""

from __future__ import annotations

from engine.bots.base import make_bot
from engine.core.messages import render
from engine.scenarios.tears_of_tyranny import board as B

from .conftest import blank, find_tile


def _attack(rules, st, seat, tid, n):
    st["pl"][seat]["res"] = 10
    st["inf"]["earned"] = max(st["inf"]["earned"], 6)
    st["frames"][seat] = [{"k": "select"}, {"k": "effect", "ops": [{"op": "damage", "n": n}], "i": 0, "tile": tid,
                                            "label": "test strike", "moved": 0, "src": "patrol"}]
    facts: list = []
    rules._settle_seat(st, seat, facts)
    return facts


def test_1g_collateral_victims_chosen_by_the_attacker_when_a_mixed_crowd_partly_dies(rules, C):
    st = blank(rules)
    seat = "liberators"
    tid = find_tile(C, st, terrain="desert")
    t = st["tiles"][tid]
    t.update({"u": [["cell", 0]], "red": 1, "blue": 2})
    d = B.tile_defense(st, tid)
    _attack(rules, st, seat, tid, d + 2)            # 1 kills the cell, 1 excess: who dies?
    p = rules.prompt(st)
    assert p.kind == "collateral" or p.seat_choices
    ids = [c.id for c in p.choices_for(seat)]
    assert ids == ["civ:red", "civ:blue"]
    assert "collateral" in render(p.text_for(seat))
    st, facts = rules.apply(st, seat, "civ:blue")
    t = st["tiles"][tid]
    assert (t["red"], t["blue"]) == (1, 1)
    assert st["stats"]["civilians_killed"] == 1
    assert st["inf"]["earned"] == 6 - B.penalty(st, seat)
    assert any(f["type"] == "collateral" for f in facts)
    assert "civ:red" not in [c.id for c in rules.prompt(st).choices_for(seat)]


def test_1g_no_collateral_question_when_every_civilian_dies_or_the_crowd_is_one_colour(rules, C):
    st = blank(rules)
    seat = "liberators"
    tid = find_tile(C, st, terrain="desert")
    st["tiles"][tid].update({"u": [["cell", 0]], "red": 0, "blue": 2})
    _attack(rules, st, seat, tid, B.tile_defense(st, tid) + 2)
    assert st["tiles"][tid]["blue"] == 1
    assert not [c for c in rules.prompt(st).choices_for(seat) if c.id.startswith("civ:")]
    st = blank(rules)
    st["tiles"][tid].update({"u": [["cell", 0]], "red": 1, "blue": 1})
    _attack(rules, st, seat, tid, B.tile_defense(st, tid) + 3)   # 2 excess: both die
    assert (st["tiles"][tid]["red"], st["tiles"][tid]["blue"]) == (0, 0)
    assert not [c for c in rules.prompt(st).choices_for(seat) if c.id.startswith("civ:")]


def test_1g_several_victims_are_asked_one_at_a_time(rules, C):
    st = blank(rules)
    seat = "liberators"
    tid = find_tile(C, st, terrain="desert")
    st["tiles"][tid].update({"u": [["cell", 0]], "red": 2, "blue": 2})
    _attack(rules, st, seat, tid, B.tile_defense(st, tid) + 3)   # 2 excess among 4
    st, _ = rules.apply(st, seat, "civ:red")
    ids = [c.id for c in rules.prompt(st).choices_for(seat)]
    assert ids == ["civ:red", "civ:blue"]
    st, _ = rules.apply(st, seat, "civ:red")
    t = st["tiles"][tid]
    assert (t["red"], t["blue"]) == (0, 2) and st["stats"]["civilians_killed"] == 2


def test_prompt_computes_waiting_seats_lazily_but_shows_them_all(rules):
    st = rules.setup(2, {"players": 4})
    p = rules.prompt(st)
    assert len(p.seats) == 4
    full = p.to_dict()
    assert set(full["seat_choices"]) == set(p.seats)
    for s in p.seats:
        assert [c.id for c in p.choices_for(s)] == [c["id"] for c in full["seat_choices"][s]]
        assert p.text_for(s)
    assert dict(p.seat_choices).keys() == set(p.seats)


def test_a28_advisors_choose_the_tile_a_displaced_unit_is_driven_into(rules, C):
    st = blank(rules, players=2)
    seat = "advisors"
    tid = find_tile(C, st, terrain="desert")
    st["tiles"][tid]["u"] = [["outpost", 0]]
    _attack(rules, st, seat, tid, B.tile_defense(st, tid) + 2)
    before = 6                                        # _attack fills the box to 6
    p = rules.prompt(st)
    ids = [c.id for c in p.choices_for(seat)]
    nbrs = B.drive_targets(st, tid)
    assert len(nbrs) > 1 and ids == [f"drive:{n}" for n in nbrs]
    assert st["inf"]["n_earned"] * st["inf"]["cap"] + st["inf"]["earned"] > before, "the influence is earned when the unit is driven off"
    dest = nbrs[-1]
    st, facts = rules.apply(st, seat, f"drive:{dest}")
    assert st["tiles"][tid]["u"] == [] and ["outpost", 0] in st["tiles"][dest]["u"]
    assert any(f.get("to") == dest for f in facts)
    assert not [c for c in rules.prompt(st).choices_for(seat) if c.id.startswith("drive:")]


def test_a28_with_no_one_to_ask_the_unit_goes_to_the_least_occupied_neighbour(rules, C):
    st = blank(rules, players=2)
    tid = find_tile(C, st, terrain="desert")
    st["tiles"][tid]["u"] = [["cell", 0]]
    dest = B.default_drive_target(st, tid)
    B.player_attack(st, tid, B.tile_defense(st, tid) + 1, "advisors", [], "test")
    assert ["cell", 0] in st["tiles"][dest]["u"]


def test_a44_partisans_choose_the_row_a_returned_presence_token_covers(rules):
    st = blank(rules, players=3)
    seat = "partisans"
    pl = st["pl"][seat]
    pl["open"] = {"resources": 3, "plays": 2}
    tid = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    B.remove_one_presence(st, seat, tid, [], "test")
    p = rules.prompt(st)
    assert p.seats == (seat,) and p.kind == "cover"
    assert [c.id for c in p.choices_for(seat)] == ["cover:resources", "cover:plays"]
    st, facts = rules.apply(st, seat, "cover:plays")
    assert st["pl"][seat]["open"] == {"resources": 3, "plays": 1}
    assert any((f.get("cause") or {}).get("because") and render((f.get("cause") or {}).get("because")) == "presence returned (A-44)" for f in facts)


def test_a44_one_possible_row_is_covered_without_asking(rules):
    st = blank(rules, players=3)
    seat = "partisans"
    st["pl"][seat]["open"] = {"resources": 1, "plays": 3}
    tid = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    B.remove_one_presence(st, seat, tid, [], "test")
    assert not st["g"] and st["pl"][seat]["open"] == {"resources": 1, "plays": 2}


def test_a48_liberators_may_pull_a_g_recruited_next_to_their_presence(rules, C):
    st = blank(rules)
    seat = "liberators"
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    st["pl"][seat]["res"] = 5
    st["frames"][seat] = [{"k": "select"}, {"k": "fm"}]
    for n in C.adj[hq]:
        if n in st["tiles"]:
            st["tiles"][n]["blue"] = 1
    rec = [c for c in rules.prompt(st).choices_for(seat)
           if c.id.startswith("recruit:") and c.payload["tile"] != hq]
    assert rec, "a neighbouring jungle/rural tile with blue civilians"
    src = rec[0].payload["tile"]
    st, _ = rules.apply(st, seat, rec[0].id)
    p = rules.prompt(st)
    ids = [c.id for c in p.choices_for(seat)]
    assert f"into:{hq}" in ids and "skip" in ids
    st, facts = rules.apply(st, seat, f"into:{hq}")
    assert st["tiles"][hq]["gs"].get(seat) == 1 and not st["tiles"][src]["gs"].get(seat)
    st2 = blank(rules)
    st2["pl"][seat]["res"] = 5
    st2["frames"][seat] = [{"k": "select"}, {"k": "fm"}]
    for n in C.adj[hq]:
        if n in st2["tiles"]:
            st2["tiles"][n]["blue"] = 1
    st2, _ = rules.apply(st2, seat, rec[0].id)
    st2, _ = rules.apply(st2, seat, "skip")
    assert st2["tiles"][src]["gs"].get(seat) == 1


def test_a48_no_pull_question_for_a_g_recruited_in_a_presence_tile(rules, C):
    st = blank(rules)
    seat = "liberators"
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    st["tiles"][hq]["blue"] = 1
    st["pl"][seat]["res"] = 5
    st["frames"][seat] = [{"k": "select"}, {"k": "fm"}]
    ch = [c for c in rules.prompt(st).choices_for(seat) if c.id == f"recruit:{hq}"]
    if C.tiles[hq]["terrain"] in ("jungle", "rural"):
        assert ch
        st, _ = rules.apply(st, seat, ch[0].id)
        assert not [c for c in rules.prompt(st).choices_for(seat) if c.id.startswith("into:")]


def _base_at_hq(st, seat: str, gs: int) -> str:
    """The seat's headquarters tile, given a base built this game and ``gs`` guerrillas."""
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    st["tiles"][hq]["gs"] = {seat: gs}
    st["tiles"][hq]["bases"] = [[seat, 0]]
    st["pl"][seat]["base_built"] = {hq: 0}
    return hq


def test_a42_comrades_decide_whether_to_pay_for_base_output(rules):
    st = blank(rules, players=4)
    seat = "comrades"
    hq = _base_at_hq(st, seat, gs=2)
    st["pl"][seat]["res"] = 3
    st["frames"][seat] = [{"k": "select"}, {"k": "produce"}]
    rules._settle_seat(st, seat, [])
    ids = [c.id for c in rules.prompt(st).choices_for(seat)]
    assert ids == [f"produce:{hq}", "done"]
    st, facts = rules.apply(st, seat, f"produce:{hq}")
    assert st["tiles"][hq]["gs"][seat] == 3 and st["pl"][seat]["res"] == 2
    assert any((f.get("cause") or {}).get("because") and render((f.get("cause") or {}).get("because")) == "base output" for f in facts)
    assert not [c for c in rules.prompt(st).choices_for(seat) if c.id.startswith("produce:")], "1 G per base per turn"


def test_1d_free_base_output_is_the_players_choice(rules):
    """1.D Guerrilla Base: Gs "can, but are not required to" be generated from a base: the Partisans'
    free output (up to 2) is asked G by G, and "done" leaves the rest unproduced."""
    st = blank(rules, players=3)
    seat = "partisans"
    hq = _base_at_hq(st, seat, gs=1)
    res = st["pl"][seat]["res"]
    st["frames"][seat] = [{"k": "select"}, {"k": "produce"}]
    rules._settle_seat(st, seat, [])
    assert st["tiles"][hq]["gs"][seat] == 1, "nothing is produced without asking"
    p = rules.prompt(st)
    assert p.kind_for(seat) == "produce" and "1.D" in p.rule_for(seat)
    assert [c.id for c in p.choices_for(seat)] == [f"produce:{hq}", "done"]
    st, facts = rules.apply(st, seat, f"produce:{hq}")
    assert st["tiles"][hq]["gs"][seat] == 2 and st["pl"][seat]["res"] == res, "free: no resource paid"
    assert not any(f.get("track") == "resources" for f in facts)
    st, _ = rules.apply(st, seat, "done")
    assert st["tiles"][hq]["gs"][seat] == 2 and st["frames"][seat][-1]["k"] == "select"


def test_1d_bot_takes_free_base_output(rules):
    st = blank(rules, players=3)
    seat = "partisans"
    hq = _base_at_hq(st, seat, gs=1)
    st["frames"][seat] = [{"k": "select"}, {"k": "produce"}]
    rules._settle_seat(st, seat, [])
    bot = make_bot(rules, "heuristic", seat, 1)
    assert bot.choose(st, rules.prompt(st)).choice_id == f"produce:{hq}"


def _draw_for(rules, seat, deck="minor", players=1):
    st = blank(rules, players=players)
    st["frames"][seat] = [{"k": "select"}, {"k": "deck", "n": 1}]
    st, _ = rules.apply(st, seat, f"deck:{deck}")
    return st


def test_3a_unkept_cards_return_in_the_order_the_player_chooses(rules):
    """3.A Gain Capability: the remaining cards go to the bottom of the deck; their order is not
    fixed by the rulebook, so the player sets it (secret choices, like the draw)."""
    seat = "liberators"
    st = _draw_for(rules, seat)
    drawn = list(st["frames"][seat][-1]["drawn"])
    assert len(drawn) == 4
    before = list(st["decks"]["minor"])
    st, _ = rules.apply(st, seat, f"keep:{drawn[0]}")
    p = rules.prompt(st)
    assert p.kind_for(seat) == "bottom" and p.rule_for(seat) == "3.A"
    ch = p.choices_for(seat)
    # issue 16.7: the whole order in one step, every order offered, the drawn order first (default)
    import itertools
    assert [c.id for c in ch] == ["order:" + ",".join(o) for o in itertools.permutations(drawn[1:])]
    assert "default" in str(ch[0].label)
    assert all(c.payload.get("secret") for c in ch)
    assert rules.view(st, seat)["drawn"][seat] == drawn[1:]
    # reverse of the drawn order: the last drawn goes under first
    st, facts = rules.apply(st, seat, f"order:{drawn[3]},{drawn[2]},{drawn[1]}")
    assert st["decks"]["minor"] == before + [drawn[3], drawn[2], drawn[1]], "one step places them all"
    assert any(f["type"] == "bottom" and f["n"] == 3 for f in facts)
    assert st["frames"][seat][-1]["k"] == "select"


def test_3a_bot_returns_unkept_cards_in_drawn_order(rules):
    seat = "liberators"
    st = _draw_for(rules, seat)
    drawn = list(st["frames"][seat][-1]["drawn"])
    before = list(st["decks"]["minor"])
    st, _ = rules.apply(st, seat, f"keep:{drawn[1]}")
    bot = make_bot(rules, "heuristic", seat, 1)
    while rules.prompt(st).kind_for(seat) == "bottom":
        st, _ = rules.apply(st, seat, bot.choose(st, rules.prompt(st)).choice_id)
    assert st["decks"]["minor"] == before + [drawn[0], drawn[2], drawn[3]]


def test_a46_each_g_over_four_is_paid_for_or_disbanded_by_its_owner(rules):
    st = blank(rules)
    seat = "liberators"
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    st["tiles"][hq]["gs"] = {seat: 6}
    st["pl"][seat]["res"] = 5
    st["frames"][seat] = [{"k": "refit", "picked": []}, {"k": "burden"}]     # the window stays open
    ids = [c.id for c in rules.prompt(st).choices_for(seat)]
    assert ids == [f"upkeep:{hq}", f"disband:{hq}"]
    st, _ = rules.apply(st, seat, f"upkeep:{hq}")
    assert st["pl"][seat]["res"] == 4 and st["tiles"][hq]["gs"][seat] == 6
    st, _ = rules.apply(st, seat, f"disband:{hq}")
    assert st["tiles"][hq]["gs"][seat] == 5
    assert st["frames"][seat][-1]["k"] == "refit"
    facts: list = []
    rules._end_turn(st, facts)
    assert st["tiles"][hq]["gs"][seat] == 5 and st["pl"][seat]["res"] == 4, "the paid G is not charged twice"
    assert "upkept" not in st["pl"][seat]


def test_a46_without_resources_the_extra_gs_disband_without_a_question(rules):
    st = blank(rules)
    seat = "liberators"
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    st["tiles"][hq]["gs"] = {seat: 6}
    st["pl"][seat]["res"] = 0
    st["frames"][seat] = [{"k": "burden"}]
    rules._settle_seat(st, seat, [])
    assert not st["frames"][seat]
    rules._end_turn(st, [])
    assert st["tiles"][hq]["gs"][seat] == 4


def _recruited_next_to_hq(rules, C, hq_units):
    """Liberators recruit a G next to their HQ (A-48) and are asked whether to pull it in."""
    st = blank(rules)
    seat = "liberators"
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    st["tiles"][hq]["u"] = [list(u) for u in hq_units]
    st["pl"][seat]["res"] = 5
    st["frames"][seat] = [{"k": "select"}, {"k": "fm"}]
    for n in C.adj[hq]:
        if n in st["tiles"]:
            st["tiles"][n]["blue"] = 1
    rec = next(c for c in rules.prompt(st).choices_for(seat)
               if c.id.startswith("recruit:") and c.payload["tile"] != hq)
    st, _ = rules.apply(st, seat, rec.id)
    p = rules.prompt(st)
    assert p.kind == "recruit_pull" or f"into:{hq}" in [c.id for c in p.choices_for(seat)]
    return st, p, hq


def test_a48_heuristic_pulls_the_new_g_beside_presence_facing_the_adversary(rules, C):
    """Liberators panel: the optional pull is taken when the G adds to the patrol's damage
    (+1 per G in the presence tile) against adversary units there."""
    st, p, hq = _recruited_next_to_hq(rules, C, [["outpost", 0]])
    bot = make_bot(rules, "heuristic", "liberators", 1)
    assert bot.choose(st, p).choice_id == f"into:{hq}"


def test_a48_heuristic_leaves_the_new_g_when_the_pull_gains_nothing(rules, C):
    st, p, hq = _recruited_next_to_hq(rules, C, [])
    bot = make_bot(rules, "heuristic", "liberators", 1)
    assert bot.choose(st, p).choice_id == "skip"
