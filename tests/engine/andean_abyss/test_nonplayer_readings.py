"""Section-8 points the Playbook's 1-player example brought out (paragraphs 11-19), each on a
crafted position: see test_playbook_solo_nonplayers.py for the published play."""

from __future__ import annotations

from engine.scenarios.andean_abyss.np_auc import pol_assassinate
from engine.scenarios.andean_abyss.np_cartels import cultivate_np_ok
from engine.scenarios.andean_abyss.np_propaganda import pol_agitate

from .conftest import BD, RULES, pc, play, put
from .test_nonplayer import position, scarce

F, A, C = 1, 2, 3


def kinds(facts):
    return [(f["type"], str(f["text"])) for f in facts]


def test_8_7_1_farc_extorts_after_all_its_rally_spaces():
    """8.7.1 'Then Extort': every Rally space first, the Special Activity after."""
    st = position([4, 20], F)
    for s in ("meta_west", "meta_east", "guaviare", "arauca", "huila"):
        put(st, s, farc_base=1, farc_u=2)
    st["res"][F] = 20
    facts = play(st, "np:act")
    rally = [n for n, (t, x) in enumerate(kinds(facts)) if t == "track" and "(Rally in" in x]
    sa = [n for n, (t, x) in enumerate(kinds(facts)) if t == "sa"]
    assert len(rally) >= 5 and sa and sa[0] > max(rally)


def test_8_2_farc_rally_all_base_spaces_need_no_dice():
    """8.7.1: 'in all such spaces' - taking them all needs no random order; only the 1 other
    space is rolled for on the table (8.2)."""
    st = position([4, 20], F)
    for s in ("meta_west", "meta_east", "guaviare"):
        put(st, s, farc_base=1)
    put(st, "vichada", farc_u=1)
    put(st, "cesar", farc_u=1)
    st["rng"]["script"] = {"space": [3, 6, 2]}        # Vichada
    facts = play(st, "np:act")
    walks = [f for f in facts if f.get("branch") == "random space"]
    assert [w["space"] for w in walks] == ["vichada"] and walks[0]["dice"] == [3, 6, 2]
    v = pc(st, "vichada")
    assert v.get("farc_u", 0) + v.get("farc_a", 0) == 2 and pc(st, "cesar") == {"farc_u": 1}


def test_8_6_4_auc_terror_one_space_per_bullet_then_assassinate_only_there():
    """8.6.4: 1 space with a FARC Base (fewer Police than AUC Guerrillas), then 1 other with
    any FARC piece, then others; Assassinate only where Terror occurred (4.4.2)."""
    st = position([38, 20], A)          # card 38: the Event does nothing here, so Ops
    for s in ("santander", "huila", "arauca"):
        put(st, s, farc_base=1, auc_u=1)
    put(st, "cesar", farc_u=1, auc_u=1)
    put(st, "atlantico", auc_u=1, car_base=1)
    scarce(st, 6, 3)                    # fewer than 6 AUC Guerrillas Available: no Rally (8.6.1)
    st["res"][A] = 10
    # 1,4,5 -> Santander (1st bullet); 4,1,3 -> Cesar (2nd: FARC piece; Huila/Arauca also
    # qualify but the walk from Cesar's box reaches Cesar first); 3,1,1 -> Atlantico (others)
    st["rng"]["script"] = {"space": [1, 4, 5, 4, 1, 3, 3, 1, 1]}
    facts = play(st, "np:act")
    walks = [f["space"] for f in facts if f.get("branch") == "random space"]
    assert walks == ["santander", "cesar", "atlantico"]
    removed = {f["space"] for f in facts if f["type"] == "remove" and "Assassinate" in str(f["text"])}
    assert removed <= {"santander", "cesar", "atlantico"} and "santander" in removed
    assert pc(st, "huila")["farc_base"] == 1 and pc(st, "arauca")["farc_base"] == 1


def test_8_7_5_agitation_removes_terror_only_where_a_shift_follows():
    """8.7.5: a FARC-Controlled space already at Active Opposition keeps its Terror marker."""
    st = position([4, 20], F)
    put(st, "meta_west", farc_u=2, sup=-2)
    put(st, "meta_east", farc_u=2, sup=0)
    mw = BD.index["meta_west"]
    st["ter"][mw] = 1
    st["res"][F] = 10
    fr = {"k": "agitate", "f": F, "auto": "np"}
    assert pol_agitate(st, fr, None, ["space:meta_west", "space:meta_east", "done"]) == "space:meta_east"
    assert pol_agitate(st, fr, None, ["space:meta_west", "done"]) == "done"
    st["sup"][mw] = -1                          # a shift would follow: remove the Terror
    assert pol_agitate(st, fr, None, ["space:meta_west", "done"]) == "space:meta_west"


def test_8_5_1_cultivate_relocates_only_onto_a_space_without_a_cartels_base():
    """8.5.1 Cultivate, 2nd bullet: a Base moves from a space with 2 Cartels Bases to one with
    none; when every space where Cultivate is possible already has a Cartels Base, no
    Cultivate (the Cartels Process instead)."""
    st = position([4, 20], C)
    put(st, "medellin", car_u=1, car_base=2)
    put(st, "atlantico", car_u=1, car_base=1)
    op = {"k": "op", "f": C, "op": "rally", "sel": [BD.index["medellin"]]}
    assert not cultivate_np_ok(st, op)
    put(st, "cesar", car_u=1)                  # a space with Guerrillas and no Cartels Base
    assert cultivate_np_ok(st, op)


def test_8_6_4_assassinate_space_must_be_a_terror_space():
    st = position([38, 20], A)
    put(st, "santander", farc_base=1, auc_u=2)
    put(st, "huila", farc_base=1, auc_u=2)
    st["stack"].append({"k": "op", "f": A, "op": "terror", "sel": [BD.index["huila"]]})
    fr = {"k": "assassinate", "f": A, "ph": "a", "opi": len(st["stack"]) - 1}
    assert pol_assassinate(st, fr, None, ["space:santander", "space:huila", "done"]) == "space:huila"
    st["stack"][-1]["sel"] = []
    assert pol_assassinate(st, fr, None, ["space:santander", "space:huila", "done"]) == "done"
    assert RULES is not None


def test_8_7_1_farc_extort_takes_one_loc_besides_its_spaces():
    """8.7.1 Extort: each space with 2+ Underground FARC Guerrillas, and 1 LoC, lowest Econ first."""
    from engine.scenarios.andean_abyss.np_insurgent import pol_extort
    st = position([4, 20], F)
    put(st, "huila", farc_u=2)
    put(st, "loc_bogota_san_jose", farc_u=1)
    put(st, "loc_arauca_cucuta", farc_u=1)
    ids_ = ["space:huila", "space:loc_bogota_san_jose", "space:loc_arauca_cucuta", "done"]
    fr = {"k": "extort", "f": F, "done": []}
    assert pol_extort(st, fr, None, ids_) == "space:huila"
    fr["done"] = [BD.index["huila"]]
    assert pol_extort(st, fr, None, ids_) == "space:loc_bogota_san_jose"      # Econ 1 before 3
    fr["done"].append(BD.index["loc_bogota_san_jose"])
    assert pol_extort(st, fr, None, ids_) == "done"                            # only 1 LoC


def test_8_7_2_farc_marches_first_then_extorts():
    """8.7.2 'Then Extort per 8.7.1': every March move comes before the Special Activity (the
    Playbook's Non-player FARC March example ends 'FARC will now Extort')."""
    from engine.scenarios.andean_abyss.frames import logging_to
    from engine.scenarios.andean_abyss.np_priorities import PLANS
    from engine.scenarios.andean_abyss.np_turn import run_one
    from engine.scenarios.andean_abyss.operation import start_op
    st = RULES.setup(1, {"players": 1, "deck": [4, 20, 1, 2, "P"]})
    for s in ("choco", "arauca", "meta_east", "meta_west", "guaviare"):
        put(st, s, farc_u=2)
    facts: list = []
    depth = len(st["stack"])
    with logging_to(facts):
        op = start_op(st, F, "march", lim=False, free=False, facts=facts, auto="np")
        op["plan"] = dict(PLANS[F]["march"][0])
        for _ in range(500):
            if len(st["stack"]) <= depth:
                break
            run_one(st, facts)
    moves = [n for n, f in enumerate(facts) if f["type"] == "move"]
    sa = [n for n, f in enumerate(facts) if f["type"] == "sa"]
    assert moves and sa and sa[0] > max(moves)
