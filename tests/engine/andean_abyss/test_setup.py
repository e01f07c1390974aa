"""2.1 Set Up and 1.3 map data: the figures printed on the setup sheet and in README.md."""

from __future__ import annotations

import json

from engine.scenarios.andean_abyss.board import INV_SLOT

from .conftest import BD, RULES, P, conserved


def on_map(st):
    out = {}
    for key, slot in INV_SLOT.items():
        n = sum(p[slot] for p in st["pc"])
        if slot in (3, 6, 9):
            n += sum(p[slot + 1] for p in st["pc"])
        out[key] = n
    return out


def test_1_3_map_has_45_spaces_econ_30_population_40():
    base = [i for i in range(BD.n) if i not in BD.foreign]
    assert len(base) == 45
    assert (len(BD.cities), len(BD.depts_base), len(BD.locs)) == (11, 16, 18)
    assert sum(BD.econ) == 30
    assert sum(BD.pop[i] for i in base) == 40
    assert sum(BD.pop[i] for i in BD.cities) == 25


def test_1_3_6_adjacency_symmetric_and_ayacucho_clique():
    for i, a in enumerate(BD.adj_all):
        assert i not in a
        for j in a:
            assert i in BD.adj_all[j]
    clique = ["atlantico", "cesar", "antioquia", "santander", "loc_ayacucho_santa_marta",
              "loc_ayacucho_bucaramanga", "loc_ayacucho_sincelejo", "loc_ayacucho_cucuta"]
    for a in clique:
        for b in clique:
            if a != b:
                assert BD.index[b] in BD.adj_all[BD.index[a]]


def test_1_3_5_foreign_spaces_only_after_their_cards():
    st = RULES.setup(1, {})
    assert not P.active_space(st, BD.ecuador) and not P.active_space(st, BD.panama)
    assert BD.ecuador not in P.adj(st, BD.index["narino"])
    st["foreign"] = "ecuador"
    assert BD.ecuador in P.adj(st, BD.index["narino"])
    assert "venezuela" in BD.borders[BD.index["guainia"]] and "venezuela" not in BD.borders[BD.index["vaupes"]]


def test_2_1_full_game_figures():
    st = RULES.setup(7, {})
    assert P.total_support(st) == 50
    assert P.opposition_plus_bases(st) == 20
    assert on_map(st) == {"troops": 12, "police": 12, "govt_base": 1, "farc_guerrilla": 12, "farc_base": 6,
                          "auc_guerrilla": 6, "auc_base": 1, "cartels_guerrilla": 2, "cartels_base": 6}
    assert st["av"][0] == 18 and st["av"][3] == 18 and st["av"][11] == 9
    assert st["res"] == [40, 10, 10, 10] and st["aid"] == 9 and st["pres"] == 0
    assert conserved(st)
    assert sum(P.count_on_map(st, k) for k in range(12)) == 58


def test_2_1_full_game_deck_has_4_piles_with_one_propaganda_each():
    st = RULES.setup(3, {})
    deck = [st["cur"], st["nxt"], *st["deck"]]
    assert len(deck) == 64
    for k in range(4):
        pile = deck[16 * k:16 * (k + 1)]
        assert sum(1 for c in pile if c >= 73) == 1
    assert len(set(c for c in deck if c < 73)) == 60


def test_2_4_1_short_game_has_3_propaganda_cards():
    st = RULES.setup(3, {"scenario": "short"})
    deck = [st["cur"], st["nxt"], *st["deck"]]
    assert len(deck) == 48 and sum(1 for c in deck if c >= 73) == 3
    assert st["props_total"] == 3
    assert P.total_support(st) == 50


def test_2_1_quick_play_figures():
    st = RULES.setup(5, {"scenario": "quick"})
    assert P.total_support(st) == 56
    assert P.opposition_plus_bases(st) == 22
    assert on_map(st) == {"troops": 18, "police": 16, "govt_base": 1, "farc_guerrilla": 21, "farc_base": 6,
                          "auc_guerrilla": 9, "auc_base": 2, "cartels_guerrilla": 5, "cartels_base": 7}
    assert st["res"] == [30, 10, 5, 20] and st["pres"] == 1
    assert st["zones"] == [BD.index["meta_west"]]
    deck = [st["cur"], st["nxt"], *st["deck"]]
    assert len(deck) == 26
    assert [i for i, c in enumerate(deck) if c >= 73][0] in range(6, 13)
    assert deck.index(max(c for c in deck if c >= 73)) >= 19
    assert sum(1 for c in deck if c >= 73) == 2
    assert conserved(st)


def test_2_1_fixed_deck_order_option():
    st = RULES.setup(1, {"deck": [19, 23, "P", 5]})
    assert (st["cur"], st["nxt"], st["deck"]) == (19, 23, [73, 5])


def test_2_2_hidden_information_not_in_views():
    st = RULES.setup(9, {})
    for seat in (None, "govt", "farc"):
        v = RULES.view(st, seat)
        text = json.dumps(v)
        assert "deck" not in v and "rng" not in text
        assert v["next"] == st["nxt"] and v["deck_size"] == len(st["deck"])


def test_serialize_round_trip():
    st = RULES.setup(11, {})
    data = json.loads(json.dumps(RULES.serialize(st)))
    st2 = RULES.deserialize(data)
    assert RULES.dumps(st2) == RULES.dumps(st)


def test_board_and_options_and_colours():
    b = RULES.board()
    assert len(b["spaces"]) == 47 and all("x" in s and "adjacent" in s for s in b["spaces"])
    keys = {o.key for o in RULES.options()}
    assert {"scenario", "players", "deck", "script", "seeded"} <= keys
    assert len({s.color for s in RULES.seats}) == 4


def test_2_1_open_deployment_players_place_their_forces():
    from .conftest import ids, play
    st = RULES.setup(4, {"deployment": "open", "players": 3, "spare": "nonplayer"})  # Cartels Non-player
    assert RULES.prompt(st).kind == "deploy" and RULES.prompt(st).seats == ("auc",)
    assert P.count_on_map(st, 11) == 6          # Non-player Cartels set up as standard
    assert P.count_on_map(st, 5) == 0
    play(st, "space:cesar")                      # the AUC Base first
    for _ in range(6):
        play(st, ids(st)[0])
    assert RULES.prompt(st).seats == ("farc",)
    assert all(BD.is_dept[BD.index[c[6:]]] for c in ids(st))
    for _ in range(18):
        play(st, ids(st)[0])
    assert RULES.prompt(st).seats == ("govt",)
    assert not any(st["pc"][BD.index[c[6:]]][5] for c in ids(st))
    for _ in range(25):
        play(st, ids(st)[0])
    assert RULES.prompt(st).kind == "elig" and conserved(st)
    assert P.count_on_map(st, 0) == 12 and P.count_on_map(st, 5) == 6


def test_2_1_fixed_deck_option_sets_card_and_next_card_exactly():
    import pytest

    from .conftest import RULES
    st = RULES.setup(3, {"deck": ["37", 52, "P", 1], "script": {"die": [2]}})
    v = RULES.view(st, "farc")
    assert v["card"] == 37 and v["next"] == 52 and st["deck"] == [73, 1]
    assert "script" not in str(v) and "rng" not in v
    with pytest.raises(ValueError):
        RULES.setup(3, {"deck": [0, 5]})
