"""Player panels (1.E, 3.A-3.D): refit, tracks, force management, organics keyed off attributes."""

from __future__ import annotations

from engine.scenarios.tears_of_tyranny.game import attributes, income, plays_limit

from .conftest import blank


def _to_refit(rules, st, seat):
    p = rules.prompt(st)
    assert seat in p.seats
    return p.choices_for(seat)


def test_3a_liberators_pick_two_different_refit_options(rules):
    st = blank(rules)
    ids = [c.id for c in _to_refit(rules, st, "liberators")]
    assert "refit:res3" in ids and "refit:res1" in ids
    st, _ = rules.apply(st, "liberators", "refit:res3")
    ids2 = [c.id for c in rules.prompt(st).choices_for("liberators")]
    assert "refit:res3" not in ids2 and "refit:res1" in ids2
    res = st["pl"]["liberators"]["res"]
    st, _ = rules.apply(st, "liberators", "refit:res1")
    assert st["pl"]["liberators"]["res"] == res + 1
    # after the second option the Liberators are back at their step menu (3): gain resources (3.B)
    # is a step they take when they choose
    p = rules.prompt(st)
    assert p.kind_for("liberators") == "steps" and "step:refit" not in [c.id for c in p.choices_for("liberators")]
    st, _ = rules.apply(st, "liberators", "step:income")
    assert st["pl"]["liberators"]["res"] == res + 1 + income(st["pl"]["liberators"], "liberators")


def _partisans_window(rules, d10):
    st = rules.setup(1, {"players": 3, "script": {"d10": d10}})
    facts = []
    for seat in st["seats"]:
        st, f = rules.apply(st, seat, rules.prompt(st).choices_for(seat)[0].id)
        facts += f
    assert not [f for f in facts if f["type"] == "roll"], "the turn starts without rolling for the Partisans"
    return st


def test_3a_partisans_roll_d10_is_a_step_of_the_menu_before_refit(rules):
    """Partisans panel (1.E): "every turn prior to refit they roll a die to see if a presence token
    is deployed". The roll is the seat's own step (``step:roll``), not rolled for them when the
    turn starts; refit (and so done) is offered only once they have rolled."""
    st = _partisans_window(rules, [6])
    p = rules.prompt(st)
    assert p.kind_for("partisans") == "steps"
    ids = [c.id for c in p.choices_for("partisans")]
    assert "step:roll" in ids and "step:refit" not in ids and "done" not in ids
    assert "step:income" in ids, "the other steps may come before the roll (3: in the order of their choosing)"
    st, facts = rules.apply(st, "partisans", "step:roll")
    roll = [f for f in facts if f["type"] == "roll"]
    assert roll and roll[0]["die"] == 6 and roll[0]["seat"] == "partisans"
    # success: the player places the presence (tile and track row), no silent placement, no skip
    p = rules.prompt(st)
    assert p.kind_for("partisans") == "presence"
    ids = [c.id for c in p.choices_for("partisans")]
    assert ids and all(i.startswith("presence:") for i in ids)
    before = sum(t["pres"].get("partisans", 0) for t in st["tiles"].values())
    st, _ = rules.apply(st, "partisans", ids[-1])
    assert sum(t["pres"].get("partisans", 0) for t in st["tiles"].values()) == before + 1
    ids = [c.id for c in rules.prompt(st).choices_for("partisans")]
    assert "step:roll" not in ids, "once a turn"
    assert "step:refit" in ids
    rules.apply_inplace(st, "partisans", "step:refit")
    assert all(c.id.startswith("refit:") for c in rules.prompt(st).choices_for("partisans"))


def test_3a_partisans_failed_roll_adds_nothing_and_opens_refit(rules):
    st = _partisans_window(rules, [5])
    before = sum(t["pres"].get("partisans", 0) for t in st["tiles"].values())
    st, facts = rules.apply(st, "partisans", "step:roll")
    assert [f["die"] for f in facts if f["type"] == "roll"] == [5]
    assert sum(t["pres"].get("partisans", 0) for t in st["tiles"].values()) == before
    p = rules.prompt(st)
    assert p.kind_for("partisans") == "steps" and "step:refit" in [c.id for c in p.choices_for("partisans")]


def test_3a_partisans_roll_can_be_undone_only_up_to_the_die(rules):
    """The roll is a barrier fact (dice are revealed): it is logged with the seat that rolled."""
    st = _partisans_window(rules, [9])
    _, facts = rules.apply(st, "partisans", "step:roll")
    assert any(f["type"] == "roll" and f.get("barrier") for f in facts)


def test_3a_partisans_roll_every_turn_and_the_bot_rolls_before_refit(rules):
    """"ALWAYS ROLL TO ADD 1 PRESENCE": the roll is on offer again in the next turn's window, and
    the heuristic bot takes it first (its refit then sees the new presence)."""
    from engine.bots.base import make_bot

    st = _partisans_window(rules, [1] * 4)
    bots = {s: make_bot(rules, "heuristic", s, seed=1) for s in st["seats"]}
    assert bots["partisans"].choose(st, rules.prompt(st)).choice_id == "step:roll"
    rolls = 0
    while st["turn"] < 2 or st["phase"] != "window" or st["frames"]["partisans"][-1].get("taken"):
        p = rules.prompt(st)
        seat = "partisans" if "partisans" in p.seats else p.seats[0]
        _, facts = rules.apply(st, seat, bots[seat].choose(st, p).choice_id)
        st = _
        rolls += sum(1 for f in facts if f["type"] == "roll")
    assert rolls == 1 and st["turn"] == 2
    assert "step:roll" in [c.id for c in rules.prompt(st).choices_for("partisans")]


def test_1e_presence_uncovers_track_circles(rules):
    st = blank(rules)
    pl = st["pl"]["liberators"]
    assert income(pl, "liberators") == 1 and plays_limit(pl, "liberators") == 1
    pl["open"] = {"resources": 3, "plays": 4}
    assert income(pl, "liberators") == 2, "third circle is the Flexibility attribute"
    assert attributes(pl, "liberators") == {"flexibility": 1}
    assert plays_limit(pl, "liberators") == 3
    pa = st["pl"]
    st2 = blank(rules, players=2)
    adv = st2["pl"]["advisors"]
    adv["open"]["plays"] = 6
    assert plays_limit(adv, "advisors") == 99, "Advisors: unlimited once the card row is empty"
    assert pa


def test_3d_select_pays_and_grants_attributes(rules):
    st = blank(rules)
    seat = "liberators"
    st["frames"][seat] = [{"k": "exec", "speed": "immediate"}, {"k": "select"}]
    st["pl"][seat]["res"] = 10
    ids = [c.id for c in rules.prompt(st).choices_for(seat)]
    assert "play:L-m2" in ids and "done" in ids
    st, facts = rules.apply(st, seat, "play:L-m2")
    assert st["pl"][seat]["res"] == 10 - 1 and attributes(st["pl"][seat], seat)["flexibility"] == 2
    assert any(f.get("track") == "resources" for f in facts)
    # card plays limit 1: selection ends by itself; the paid card and the patrol (2x Flexibility)
    # are now offered for execution
    ids = [c.id for c in rules.prompt(st).choices_for(seat)]
    assert not [i for i in ids if i.startswith("play:")]
    assert {"exec:L-m2", "patrol", "done"} <= set(ids)


def test_1f_patrol_offered_only_when_attributes_meet_the_requirement(rules):
    st = blank(rules)
    seat = "liberators"
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    st["tiles"][hq]["gs"] = {seat: 1}
    st["frames"][seat] = [{"k": "exec", "speed": "immediate"}]
    st["pl"][seat]["played"] = ["L-m3"]           # flexibility + charisma: no patrol step met
    assert "patrol" not in [c.id for c in rules._exec_choices(st, seat, "immediate")]
    st["pl"][seat]["played"] = ["L-m2"]           # 2x flexibility: patrol step 1 (pull)
    assert "patrol" in [c.id for c in rules._exec_choices(st, seat, "immediate")]


def test_3c_comrades_recruit_up_to_five(rules):
    st = blank(rules, players=4)
    seat = "comrades"
    st["pl"][seat]["res"] = 10
    st["frames"][seat] = [{"k": "fm"}]
    for i in range(5):
        ch = [c for c in rules.prompt(st).choices_for(seat) if c.id.startswith("recruit:")]
        assert ch, i
        st, _ = rules.apply(st, seat, ch[0].id)
    assert sum(t["gs"].get(seat, 0) for t in st["tiles"].values()) == 5
    assert st["pl"][seat]["res"] == 5
    assert not st["frames"][seat]


def test_3c_advisors_force_management_spends_influence_in_phase_4(rules, C):
    st = blank(rules, players=2)
    assert C.panels["advisors"]["force_management"]["phase"] == "long"
    seat = "advisors"
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    st["tiles"][hq]["blue"] = 1
    st["frames"][seat] = [{"k": "fm"}]
    assert not [c for c in rules._fm_choices(st, seat) if c.id.startswith("recruit:")], "no influence to spend"
    st["inf"]["earned"] = 2
    ch = [c for c in rules._fm_choices(st, seat) if c.id.startswith("recruit:")]
    assert ch
    st, _ = rules.apply(st, seat, ch[0].id)
    assert st["inf"]["earned"] == 1


def test_a43_presence_moves_with_own_guerrilla(rules):
    st = blank(rules)
    seat = "liberators"
    hq = next(t for t in st["order"] if st["tiles"][t]["pres"].get(seat))
    st["tiles"][hq]["gs"] = {seat: 2}
    fr = {"k": "effect", "ops": [{"op": "push", "what": "own_g", "n": 1}], "i": 0, "tile": hq, "label": "t",
          "moved": 0, "src": "patrol"}
    st["pl"][seat]["res"] = 10
    st["frames"][seat] = [{"k": "select"}, fr]      # the window stays open after the push
    ch = [c for c in rules.prompt(st).choices_for(seat) if c.id.startswith("push:own_g+p:")]
    assert ch
    st, _ = rules.apply(st, seat, ch[0].id)
    dest = ch[0].payload["to"]
    assert st["tiles"][dest]["pres"][seat] == 1 and st["tiles"][hq]["pres"][seat] == 1
    assert st["tiles"][dest]["gs"][seat] == 1


def test_1f_keeping_a_major_forgets_a_card_from_the_hand(rules):
    """1.F: a player who draws a major "must 'forget' ... a capability card already in their hand"
    (3.A: "discard a capability card in their hand"): spent cards are not offered while the hand
    holds another card; with an empty hand a spent card goes instead (A-35)."""
    st = blank(rules)
    pl = st["pl"]["liberators"]
    assert pl["hand"]
    pl["discard"] = [pl["hand"].pop()]
    # the Liberators refit: gain a capability from the major deck, keep a major
    ids = [c.id for c in rules.prompt(st).choices_for("liberators")]
    gain = next(i for i in ids if "gain" in i and "base" not in i)
    rules.apply_inplace(st, "liberators", gain)
    rules.apply_inplace(st, "liberators", "deck:major")
    keep = rules.prompt(st).choices_for("liberators")[0].id
    rules.apply_inplace(st, "liberators", keep)
    while rules.prompt(st).kind_for("liberators") == "bottom":
        rules.apply_inplace(st, "liberators", rules.prompt(st).choices_for("liberators")[0].id)
    p = rules.prompt(st)
    assert p.kind_for("liberators") == "forget"
    offered = {c.id.split(":", 1)[1] for c in p.choices_for("liberators")}
    kept = keep.split(":", 1)[1]
    assert offered == set(pl["hand"]) - {kept}, "only cards in the hand (1.F)"
    assert not offered & set(pl["discard"])


def test_1f_forget_falls_back_to_a_spent_card_when_the_hand_is_empty():
    from engine.scenarios.tears_of_tyranny.game import forget_candidates

    assert forget_candidates({"hand": ["new"], "discard": ["old"]}, "new") == ["old"]
    assert forget_candidates({"hand": ["new", "a"], "discard": ["old"]}, "new") == ["a"]
