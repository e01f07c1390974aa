"""The Playbook's "Non-Player FARC March Example" (p. 25-26, steps A-G), replayed on its
position with the engine's Non-player FARC March (8.7.2, guidelines per 8.1.2).

The example names the result of each roll, not the dice, so the random picks (8.2 / 8.3) are
answered with the published results; the test also checks that each roll was among the
candidates the example names (e.g. Bogota-Yopal reachable from Arauca or Meta East)."""

from __future__ import annotations

import importlib
import pkgutil

from engine.core import rng as R
from engine.scenarios.andean_abyss.board import BOARD as BD
from engine.scenarios.andean_abyss.frames import logging_to
from engine.scenarios.andean_abyss.np_priorities import PLANS
from engine.scenarios.andean_abyss.np_turn import run_one
from engine.scenarios.andean_abyss.operation import start_op

from .conftest import RULES, pc, put

AA = importlib.import_module("engine.scenarios.andean_abyss")

F = 1
# the published result of every roll, in the order the example takes them (a roll is a pick
# among 2+ equal candidates; a single candidate needs none)
PUBLISHED = ["space:loc_medellin_sincelejo", "space:loc_bogota_neiva",   # B: 2-Econ LoCs in random order
             "from:meta_east",                                           # B: Bogota-Yopal from Meta East
             "space:loc_ibague_medellin", "space:loc_bogota_san_jose",   # C: 1-Econ LoCs, random order
             "from:meta_west",                                           # C: San Jose Road from Meta West
             "space:loc_neiva_pasto", "space:loc_pasto_tumaco",          # D
             "space:santander",                                          # F: Santander rather than Bogota
             "from:arauca",                                              # F: (both enter; order open)
             "space:meta_east"]                                          # G


def example_position():
    """2.1 set-up, then 2 more FARC Guerrillas in each FARC Base space but Huila-Tolima (5)."""
    st = RULES.setup(1, {"players": 1, "deck": [4, 20, 1, 2, "P"]})
    for s in ("choco", "arauca", "meta_east", "meta_west", "guaviare"):
        put(st, s, farc_u=2)
    st["res"][F] = 10
    return st


def march(st):
    """The Non-player FARC March (8.7.2) and its Extort, run by the engine: (frame, facts,
    groups as (origin, destination) in the order they moved)."""
    facts: list = []
    depth = len(st["stack"])
    with logging_to(facts):
        op = start_op(st, F, "march", lim=False, free=False, facts=facts, auto="np")
        op["plan"] = dict(PLANS[F]["march"][0])
        for _ in range(500):
            if len(st["stack"]) <= depth or (st["stack"][-1] is op and op["sa"] is not None):
                break
            run_one(st, facts)
    return op, facts, [tuple(BD.ids[int(x)] for x in g.split(">")) for g in op["groups"]]


def example_position_through_the_api():
    """The same position given to ``setup(seed, {"position": ...})``: the 2.1 set-up described
    by ``Rules.position``, 2 more Underground FARC Guerrillas in the five spaces, 10 Resources."""
    pos = RULES.position(RULES.setup(1, {"players": 1, "deck": [4, 20, 1, 2, "P"]}))
    for s in ("choco", "arauca", "meta_east", "meta_west", "guaviare"):
        pos["spaces"][s]["farc_underground"] = pos["spaces"][s].get("farc_underground", 0) + 2
    pos["resources"]["farc"] = 10
    return RULES.setup(1, {"players": 1, "position": pos})


def replay(monkeypatch, position=example_position):
    rolls = []

    def published(st, seq):
        seq = list(seq)
        if len(seq) == 1:
            return seq[0]
        if len(rolls) == len(PUBLISHED) and st["stack"][-1]["k"] == "extort":
            return seq[0]   # the example ends at "FARC will now Extort": its LoC roll is not published
        assert len(rolls) < len(PUBLISHED), f"a roll the example does not make: {seq}"
        got = PUBLISHED[len(rolls)]
        assert got in seq, f"published {got} is not among the candidates {seq}"
        rolls.append((got, sorted(seq)))
        return got
    for m in pkgutil.iter_modules(AA.__path__):   # every Non-player module that picks with rnd
        mod = importlib.import_module(f"{AA.__name__}.{m.name}")
        if m.name.startswith("np_") and hasattr(mod, "rnd"):
            monkeypatch.setattr(mod, "rnd", published)
    st = position()
    op, facts, groups = march(st)
    moved = [str(f["text"]) for f in facts if f["type"] == "move" or "(March into" in str(f["text"])]
    return st, op, groups, rolls, moved


def test_8_7_2_playbook_farc_march_example_steps_a_to_g(monkeypatch):
    st, op, groups, rolls, moved = replay(monkeypatch)
    assert groups == [
        ("arauca", "loc_arauca_cucuta"),                # A: the only 3-Econ LoC in reach
        ("choco", "loc_medellin_sincelejo"),            # B: 2-Econ LoCs
        ("meta_west", "loc_bogota_neiva"),
        ("meta_east", "loc_bogota_yopal"),              #    roll: Meta East rather than Arauca
        ("choco", "loc_ibague_medellin"),               # C: 1-Econ LoCs, random order (8.3)
        ("meta_west", "loc_bogota_san_jose"),           #    roll among Meta East / West, Guaviare
        ("putumayo", "loc_neiva_pasto"),                # D: the only way onto Neiva-Pasto
        ("narino", "loc_pasto_tumaco"),                 #    roll among Narino's LoCs
        ("meta_west", "neiva"),                         # E: stays Underground - first priority
        ("arauca", "santander"),                        # F: roll Santander (or Bogota): both
        ("meta_east", "santander"),                     #    adjacent origins march in
        ("guaviare", "meta_east"),                      # G: last bullet, from Guaviare
    ]


def test_8_7_2_playbook_farc_march_example_set_up_through_the_positions_api(monkeypatch):
    """The published example replays identically from a position given to ``setup``."""
    direct = replay(monkeypatch)
    st, op, groups, rolls, moved = replay(monkeypatch, example_position_through_the_api)
    assert groups == direct[2] and rolls == direct[3] and moved == direct[4]
    assert RULES.position(st) == RULES.position(direct[0])
    assert groups[0] == ("arauca", "loc_arauca_cucuta") and groups[-1] == ("guaviare", "meta_east")


def test_8_7_2_playbook_farc_march_example_rolls_among_the_published_candidates(monkeypatch):
    _, _, _, rolls, _ = replay(monkeypatch)
    by = {got: cands for got, cands in rolls}
    assert [g for g, _ in rolls] == PUBLISHED                                        # every roll taken
    assert by["from:meta_east"] == ["from:arauca", "from:meta_east"]                 # B
    assert by["from:meta_west"] == ["from:guaviare", "from:meta_east", "from:meta_west"]  # C
    assert by["space:santander"] == ["space:bogota", "space:santander"]               # F
    assert by["space:meta_east"] == ["space:meta_east", "space:meta_west", "space:putumayo"]  # G
    # 8.3: LoCs rolled only among the highest Econ still open
    assert "space:loc_arauca_cucuta" not in by                                        # A: alone


def test_8_7_2_playbook_farc_march_example_end_position(monkeypatch):
    st, op, groups, _, moved = replay(monkeypatch)
    # 1 Guerrilla per LoC (8.7.2 first bullet), cost 0; Neiva, Santander, Meta East cost 1 each
    # (10 -> 7 before the Extort)
    assert [t for t in moved if "(March into" in t] == [
        "FARC Resources 10 -> 9 (March into Neiva)", "FARC Resources 9 -> 8 (March into Santander)",
        "FARC Resources 8 -> 7 (March into Meta East)"]
    for loc in ("loc_arauca_cucuta", "loc_medellin_sincelejo", "loc_bogota_neiva", "loc_bogota_yopal",
                "loc_ibague_medellin", "loc_bogota_san_jose", "loc_neiva_pasto", "loc_pasto_tumaco"):
        g = pc(st, loc)
        assert g.get("farc_u", 0) + g.get("farc_a", 0) == 1, loc   # (Extort may flip one after)
    assert "1 Underground FARC Guerrilla moved Meta West -> Neiva (March)" in moved   # E
    s = pc(st, "santander")
    assert s.get("farc_a") == 2 and s.get("farc_u") == 1          # F: 2 enter and go Active (3.3.2)
    # 1 Guerrilla stays with each Base (8.7.2 guidelines)
    for sp in ("choco", "arauca", "meta_west"):
        g = pc(st, sp)
        assert g.get("farc_u", 0) + g.get("farc_a", 0) == 1, sp
    g = pc(st, "guaviare")
    assert g.get("farc_u", 0) + g.get("farc_a", 0) == 1           # G: 3 of its 4 leave
    g = pc(st, "meta_east")
    assert g.get("farc_u", 0) + g.get("farc_a", 0) == 4           # 1 kept + 3 from Guaviare
    assert "3 Underground FARC Guerrilla moved Guaviare -> Meta East (March)" in moved
    # then Extort (8.7.1): the Operation's Special Activity comes after every March move
    assert op["sa"] == "extort"


def test_8_7_2_playbook_farc_march_example_with_real_dice():
    """The same example with the engine's own 8.2 / 8.3 dice: seed 20611 of the RNG happens to
    roll every published result (only the order of the equal-Econ LoCs differs)."""
    st = example_position()
    st["rng"] = R.new_rng(20611)
    op, facts, groups = march(st)
    assert set(groups[:8]) == {("arauca", "loc_arauca_cucuta"), ("choco", "loc_medellin_sincelejo"),
                               ("meta_west", "loc_bogota_neiva"), ("meta_east", "loc_bogota_yopal"),
                               ("choco", "loc_ibague_medellin"), ("meta_west", "loc_bogota_san_jose"),
                               ("putumayo", "loc_neiva_pasto"), ("narino", "loc_pasto_tumaco")}
    econ = [BD.econ[BD.index[d]] for _, d in groups[:8]]
    assert econ == sorted(econ, reverse=True)            # highest Econ first (8.3)
    assert groups[8:] == [("meta_west", "neiva"), ("arauca", "santander"), ("meta_east", "santander"),
                          ("guaviare", "meta_east")]
    assert [str(f["text"]) for f in facts if "(March into" in str(f["text"])][-1].startswith("FARC Resources 8 -> 7")
    walks = [f for f in facts if f["type"] == "np" and f.get("branch") == "random space"]
    assert walks and all(f["rule"] in ("8.2", "8.3") for f in walks)
