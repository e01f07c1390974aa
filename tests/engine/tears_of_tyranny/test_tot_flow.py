"""Sequence of play (3), influence (1.H, 3.E), victory and defeat (4), views and metrics."""

from __future__ import annotations

import json

import pytest

import engine
from engine.core.contract import IllegalChoice
from engine.core.messages import render
from engine.core.simulate import play_game
from engine.scenarios.tears_of_tyranny import board as B

from .conftest import blank


def test_setup_2c_hq_prompt_is_simultaneous_and_order_free(rules):
    st = rules.setup(3, {"players": 3})
    p = rules.prompt(st)
    assert set(p.seats) == {"liberators", "advisors", "partisans"}
    assert p.seat_choices and all(c.id.startswith("hq:") for c in p.choices_for("partisans"))
    # the last seat acts first: allowed in a simultaneous phase
    st, _ = rules.apply(st, "partisans", p.choices_for("partisans")[0].id)
    p = rules.prompt(st)
    assert "partisans" not in p.seats
    with pytest.raises(IllegalChoice):
        rules.apply(st, "partisans", "done")


def test_inactive_seats_are_never_prompted(rules):
    st = rules.setup(5, {"players": 2})
    for _ in range(200):
        p = rules.prompt(st)
        if p is None:
            break
        assert set(p.seats) <= {"liberators", "advisors"}
        rules.apply_inplace(st, p.seats[-1], p.choices_for(p.seats[-1])[-1].id)


def test_2c_initial_deploy_then_turn_1_window(rules):
    st = blank(rules)
    assert st["turn"] == 1 and st["phase"] == "window"
    assert st["boxes"]["develop"] is not None and st["boxes"]["dominate"] is None
    p = rules.prompt(st)
    assert p.kind == "refit" and p.turn == "t1:window"


def test_3b_gain_resources_from_track_and_infrastructure(rules, C):
    st = blank(rules)
    seat = "liberators"
    infra = next(t for t in st["order"] if C.tiles[t]["infrastructure"])
    st["tiles"][infra]["pres"] = {seat: 1}
    res = st["pl"][seat]["res"]
    st["frames"][seat] = [{"k": "income"}]
    rules._settle_seat(st, seat, [])
    assert st["pl"][seat]["res"] == res + 1 + 1
    st["tiles"][infra]["u"] = [["cell", 0]]
    st["frames"][seat] = [{"k": "income"}]
    rules._settle_seat(st, seat, [])
    assert st["pl"][seat]["res"] == res + 2 + 1, "no infrastructure bonus with an adversary in the tile"


def test_1h_influence_card_earned_when_box_full_and_tokens_return(rules):
    st = blank(rules, players=2)
    facts = []
    B.gain_influence(st, 9, "test", facts)
    assert st["inf"]["n_earned"] == 1 and st["inf"]["earned"] == 1 and len(st["inf"]["queue"]) == 1
    assert all("cause" in f for f in facts if f.get("track") == "influence")


def test_2a_level_2_after_card_4_and_level_3_after_card_7(rules):
    st = blank(rules)
    B.gain_influence(st, 4 * 4, "test", [])
    assert st["inf"]["level"] == 1
    B.gain_influence(st, 4, "test", [])
    assert st["inf"]["level"] == 2
    B.gain_influence(st, 4 * 3, "test", [])
    assert st["inf"]["level"] == 3


def test_1h_losing_influence_with_empty_box_the_player_pays_a_resource_or_a_presence(rules):
    """1.H: "If there are no influence tokens in the influence box, then the player must pay one
    resource or remove one presence from the board": the player's choice, offered to them."""
    st = blank(rules)
    pl = st["pl"]["liberators"]
    res = pl["res"]
    assert res > 0
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get("liberators"))
    B.lose_influence(st, 1, "test", [], "liberators")
    p = rules.prompt(st)
    assert p.kind == "influence_debt" and p.seats == ("liberators",) and "1.H" in p.rule
    ids = [c.id for c in p.choices]
    assert ids == ["pay:resource", f"pay:presence:{hq}"]
    st1, _ = rules.apply(st, "liberators", "pay:resource")
    assert st1["pl"]["liberators"]["res"] == res - 1 and st1["tiles"][hq]["pres"]["liberators"] == 2
    st2, facts = rules.apply(st, "liberators", f"pay:presence:{hq}")
    assert st2["pl"]["liberators"]["res"] == res and st2["tiles"][hq]["pres"]["liberators"] == 1
    assert any(f["type"] == "presence" and f["delta"] == -1 for f in facts)


def test_1h_empty_box_at_0_resources_and_one_presence_tile_has_no_choice(rules):
    """At 0 resources with all presence in one tile the only payment is a presence there."""
    st = blank(rules)
    st["pl"]["liberators"]["res"] = 0
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get("liberators"))
    B.lose_influence(st, 1, "test", [], "liberators")
    assert not st["g"] and st["tiles"][hq]["pres"]["liberators"] == 1


def test_4_victory_level_1_no_adversary_units(rules):
    st = blank(rules, keep_unit=False)
    rules._check_end(st, [])
    assert st["result"]["winner"] == "players" and "level 1" in render(st["result"]["reason"])
    assert rules.prompt(st) is None


def test_4_victory_level_2_and_3(rules):
    st = blank(rules, keep_unit=False)
    st["tiles"][st["order"][0]]["u"] = [["cell", 0]]
    st["inf"]["level"] = 2
    rules._check_end(st, [])
    assert st["result"]["winner"] == "players" and "level 2" in render(st["result"]["reason"])
    st = blank(rules)
    st["tiles"][st["order"][0]]["u"] = [["garrison", 0]]
    st["inf"]["level"] = 3
    rules._check_end(st, [])
    assert st["result"] is None


def test_4_defeat_total_tyranny_wins_ties(rules):
    st = blank(rules)
    st["tyr_pool"] = 0
    rules._check_end(st, [])
    assert st["result"]["winner"] == "adversary" and "total tyranny" in render(st["result"]["reason"])


def test_4_defeat_presence_annihilation(rules):
    st = blank(rules, players=2)
    st["tiles"][st["order"][0]]["u"] = [["cell", 0]]
    for t in st["tiles"].values():
        t["pres"].pop("advisors", None)
    rules._check_end(st, [])
    assert "presence annihilation" in render(st["result"]["reason"])


def test_4_defeat_time_runs_out_when_deploy_finds_the_deck_empty(rules):
    st = blank(rules)
    st["tiles"][st["order"][0]]["u"] = [["garrison", 0]]
    st["decks"]["terrain"] = []
    st["frames"] = {s: [] for s in st["seats"]}
    st["tyr_pool"] = 40
    rules._advance(st, [])
    while st["result"] is None:
        p = rules.prompt(st)
        rules.apply_inplace(st, p.seats[0], p.choices_for(p.seats[0])[0].id)
    assert "terrain deck is exhausted" in render(st["result"]["reason"])


def test_views_hide_hands_deck_orders_and_rng(rules):
    st = rules.setup(2, {"players": 2})
    v = rules.view(st, "advisors")
    text = json.dumps(v)
    assert "rng" not in v and "hand" not in v["players"]["liberators"] and "hand" in v["players"]["advisors"]
    assert isinstance(v["decks"]["terrain"], int)
    for cid in st["decks"]["terrain"] + st["inf"]["deck"] + st["decks"]["event"]:
        assert f'"{cid}"' not in text


def test_metrics_are_numbers_and_public(rules):
    st = blank(rules, players=4)
    m = rules.metrics(st)
    for key in ("influence_earned", "influence_level", "influence_cards_played", "tyranny_on_map", "tyranny_pool",
                "tyranny_state", "adversary_cells", "adversary_outposts", "adversary_garrisons", "guerrillas", "bases",
                "civilians_red", "civilians_blue", "civilians_killed", "presence_comrades", "hq_advisors",
                "resources_partisans"):
        assert isinstance(m[key], (int, float)), key


@pytest.mark.parametrize("players,threshold", [(1, 2), (2, 5), (3, 7), (4, 10)])
def test_3d_metrics_carry_the_threshold_and_a_constant_token_total(rules, players, threshold):
    st = rules.setup(5, {"players": players})
    m = rules.metrics(st)
    assert m["tyranny_threshold"] == threshold
    assert m["tyranny_total"] == 5 * players
    for _ in range(120):
        p = rules.prompt(st)
        if p is None:
            break
        rules.apply_inplace(st, p.seats[0], p.choices_for(p.seats[0])[0].id)
        m = rules.metrics(st)
        assert m["tyranny_total"] == 5 * players
        assert m["tyranny_on_map"] + m["tyranny_pool"] + m["tyranny_removed"] == m["tyranny_total"]


def test_registry_and_seats(rules):
    assert engine.load("tears_of_tyranny") is rules
    assert [s.id for s in rules.seats] == ["liberators", "advisors", "partisans", "comrades"]
    assert len({s.color for s in rules.seats}) == 4
    assert {o.key for o in rules.options()} >= {"players", "terrain_deck", "scenario"}


def test_2b_advanced_terrain_deck_has_12_cards(rules):
    st = rules.setup(1, {"players": 1, "terrain_deck": "advanced"})
    assert len(st["decks"]["terrain"]) == 12
    stages = [rules_stage for rules_stage in (c.split("-")[0] for c in st["decks"]["terrain"])]
    assert stages == ["TI"] * 3 + ["TII"] * 3 + ["TIII"] * 3 + ["TIV"] * 3
    st = rules.setup(1, {"players": 1})
    assert len(st["decks"]["terrain"]) == 16


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_games_complete_under_simulate(rules, players):
    r = play_game(rules, seed=11, bots="random", options={"players": players})
    assert r["result"] is not None and r["result"]["winner"] in ("players", "adversary")


# Heuristic games are slow (a look-ahead per decision): full-length games for 1 and 2 players,
# the shorter Blitz panel (12 terrain cards) for 3 and 4. The long runs live in
# benchmarks/tears_of_tyranny_balance.py.
@pytest.mark.parametrize("players,scenario", [(1, "standard"), (2, "standard"), (3, "blitz"), (4, "blitz")])
def test_heuristic_games_complete_under_simulate(rules, players, scenario):
    r = play_game(rules, seed=11, bots="heuristic", options={"players": players, "scenario": scenario})
    assert r["result"] is not None and r["result"]["winner"] in ("players", "adversary")


def test_determinism_same_seed_same_game(rules):
    a = play_game(rules, seed=4, bots="random", options={"players": 2})
    b = play_game(rules, seed=4, bots="random", options={"players": 2})
    assert a == b


def test_3d_event_state_decided_before_the_draw_and_bottom_boxes_always_run(rules, C):
    from engine.scenarios.tears_of_tyranny import adversary as ADV

    st = blank(rules)
    st["decks"]["event"] = ["E11"] + [e for e in st["decks"]["event"] if e != "E11"]   # Regional Summit
    facts = []
    ADV.run_event(st, facts)
    ev = [f for f in facts if f["type"] == "event"][0]
    assert ev["state"] == "freedom" and ev["barrier"] is True
    assert st["inf"]["earned"] == 2, "freedom primary: +2 influence"
    res = {s: st["pl"][s]["res"] for s in st["seats"]}
    st["decks"]["event"] = ["E11"]
    for tid in st["order"][:2]:
        st["tiles"][tid]["tyr"] = 1                     # 1 player: threshold 2
    ADV.run_event(st, [])
    assert st["inf"]["earned"] == 3, "tyranny primary: +1 influence"
    assert all(st["pl"][s]["res"] == res[s] + 1 for s in st["seats"]), "bottom box always executed"


def test_3e_influence_cards_execute_at_their_position_level(rules):
    from engine.scenarios.tears_of_tyranny import adversary as ADV

    st = blank(rules)
    st["inf"]["deck"] = ["I01"] * 10          # Diaspora Donations: each player gains level+1
    B.gain_influence(st, 4 * 5, "test", [])   # five cards earned
    res = st["pl"]["liberators"]["res"]
    ADV.run_influence_cards(st, [])
    assert len(st["inf"]["played"]) == 5
    assert st["pl"]["liberators"]["res"] == res + 4 * 2 + 3, "cards 1-4 at level 1 (+2), card 5 at level 2 (+3)"


# ---- simultaneous player window (3: "Players execute their actions simultaneously each phase") --

def _window_policy(rules, st, seat):
    """A fixed per-seat policy for the turn-1 window that never draws from the shared card decks
    (the only thing two seats compete for inside one window)."""
    ch = rules.prompt(st).choices_for(seat)
    ok = [c for c in ch if not c.id.startswith("deck:")
          and not (c.id.startswith("refit:") and "capabilit" in render(c.label).lower())]
    pick = ok or ch
    if st["frames"][seat][-1]["k"] == "select" and st["pl"][seat]["played"]:
        return "done"
    return pick[0].id


def _play_window(rules, st, order_fn):
    """Play the turn-1 player window until it closes; ``order_fn(waiting)`` picks the next seat."""
    script = {s: [] for s in st["seats"]}
    while st["phase"] == "window":
        p = rules.prompt(st)
        seat = order_fn(list(p.seats))
        cid = _window_policy(rules, st, seat)
        script[seat].append(cid)
        rules.apply_inplace(st, seat, cid)
    return script


def _replay_window(rules, st, script, order_fn):
    left = {s: list(v) for s, v in script.items()}
    while st["phase"] == "window":
        p = rules.prompt(st)
        seat = order_fn([s for s in p.seats if left[s]])
        rules.apply_inplace(st, seat, left[seat].pop(0))
    assert not any(left.values()), "every seat used exactly its own decisions"
    return st


def test_3_window_any_order_of_seats_gives_the_same_result(rules):
    """3.A-3.D and phase 2 run simultaneously: each seat decides on its own, in any interleaving,
    and the window closes (the adversary phase begins) only when every seat is done."""
    base = rules.setup(7, {"players": 4})
    for seat in base["seats"]:
        rules.apply_inplace(base, seat, rules.prompt(base).choices_for(seat)[0].id)
    assert base["phase"] == "window" and base["turn"] == 1
    st = rules.copy(base)
    script = _play_window(rules, st, lambda w: w[0])           # panel order, seat by seat
    assert all(len(v) >= 3 for v in script.values())
    assert all(v[-1] == "done" for v in script.values()), "each seat ends its window with its own done"
    ref = rules.dumps(st)
    orders = [lambda w: w[-1],                                  # the last seat first
              lambda w: w[len(w) // 2],                         # from the middle
              ]
    import random as _random
    rnd = _random.Random(3)
    orders.append(lambda w: rnd.choice(w))                      # a random interleaving
    for order in orders:
        st2 = _replay_window(rules, rules.copy(base), script, order)
        assert rules.dumps(st2) == ref


def test_3_window_a_seat_cannot_act_for_another_nor_after_its_done(rules):
    st = blank(rules, players=2)
    p = rules.prompt(st)
    assert set(p.seats) == {"liberators", "advisors"}
    lib = {c.id for c in p.choices_for("liberators")}
    adv_only = [c.id for c in p.choices_for("advisors") if c.id not in lib]
    assert adv_only, "the two panels offer different refit options"
    with pytest.raises(IllegalChoice) as e:
        rules.apply(st, "liberators", adv_only[0])              # the Liberators answer for the Advisors
    assert e.value.code == "unknown_choice"
    with pytest.raises(IllegalChoice) as e:
        rules.apply(st, "partisans", p.choices_for("liberators")[0].id)   # a seat not in play
    assert e.value.code == "not_your_turn"
    # the Advisors finish their whole window while the Liberators have not acted yet
    while "advisors" in rules.prompt(st).seats:
        st, _ = rules.apply(st, "advisors", _window_policy(rules, st, "advisors"))
    p = rules.prompt(st)
    assert p.seats == ("liberators",) and st["phase"] == "window", "the window waits for every seat"
    assert p.kind == "refit", "the Liberators' own decisions are untouched"
    with pytest.raises(IllegalChoice) as e:
        rules.apply(st, "advisors", "done")                     # a done seat cannot act again
    assert e.value.code == "not_your_turn"
    while st["phase"] == "window":
        st, _ = rules.apply(st, "liberators", _window_policy(rules, st, "liberators"))
    assert st["phase"] != "window"


def test_1a_infrastructure_equal_presence_gives_no_one_the_bonus(rules, C):
    """1.A Infrastructure: the player with the most presence gets the bonus; equal presence, no one."""
    st = blank(rules, players=2)
    infra = next(t for t in st["order"] if C.tiles[t]["infrastructure"])
    st["tiles"][infra]["pres"] = {"liberators": 1, "advisors": 1}
    assert not rules.controls(st, "liberators", infra) and not rules.controls(st, "advisors", infra)
    st["tiles"][infra]["pres"] = {"liberators": 2, "advisors": 1}
    assert rules.controls(st, "liberators", infra) and not rules.controls(st, "advisors", infra)


def test_3f_no_domination_in_the_first_round_and_3i_cards_shift(rules):
    """3.F "There will be no domination in the first round"; 3.I develop -> dominate, deploy ->
    develop at the end of the adversary phase."""
    st = blank(rules)
    develop_card = st["boxes"]["develop"]
    assert st["boxes"]["dominate"] is None and develop_card
    st["frames"] = {s: [] for s in st["seats"]}
    facts: list = []
    rules._advance(st, facts)
    assert not [f for f in facts if f["type"] == "dominate"]
    assert any(f["type"] == "terrain" and render(f["text"]).startswith("Deploy") for f in facts)
    assert st["boxes"]["dominate"] == develop_card
    assert st["boxes"]["develop"] is not None and st["boxes"]["deploy"] is None
    assert st["phase"] == "long"
