"""The player window's step menu (3: "Players can execute the Player Phase and Immediate Capabilities
Phase actions in the order of their choosing before advancing to the Adversary Phase")."""

from __future__ import annotations

from engine.bots.base import make_bot
from engine.core.messages import render
from engine.scenarios.tears_of_tyranny.game import income


def _window(rules, players=1, seed=1):
    st = rules.setup(seed, {"players": players, "script": {"d10": [1] * 8}})
    for seat in list(st["seats"]):
        rules.apply_inplace(st, seat, rules.prompt(st).choices_for(seat)[0].id)
    assert st["phase"] == "window"
    return st


def _ids(rules, st, seat):
    return [c.id for c in rules.prompt(st).choices_for(seat)]


def test_3_window_opens_on_a_step_menu_and_done_waits_for_the_refit(rules):
    st = _window(rules)
    seat = "liberators"
    p = rules.prompt(st)
    assert p.kind_for(seat) == "steps" and p.rule_for(seat) == "3"
    ids = _ids(rules, st, seat)
    assert {"step:refit", "step:income"} <= set(ids)
    assert "done" not in ids, "3.A: each player refits; done only after it"


def test_3_resources_before_refit_and_cards_before_force_management(rules):
    """A seat gains its resources (3.B) before refitting (3.A), selects (3.D) before force
    management (3.C): the rulebook order is not imposed."""
    st = _window(rules)
    seat = "liberators"
    res = st["pl"][seat]["res"]
    st, _ = rules.apply(st, seat, "step:income")
    assert st["pl"][seat]["res"] == res + income(st["pl"][seat], seat)
    assert "step:income" not in _ids(rules, st, seat), "3.B once a turn"
    assert rules.prompt(st).kind_for(seat) == "steps"
    st, _ = rules.apply(st, seat, "step:select")
    assert rules.prompt(st).kind_for(seat) == "select"
    card = next(c for c in _ids(rules, st, seat) if c.startswith("play:"))
    st, _ = rules.apply(st, seat, card)
    st, _ = rules.apply(st, seat, "done") if rules.prompt(st).kind_for(seat) == "select" else (st, None)
    assert card[5:] in st["pl"][seat]["played"]
    ids = _ids(rules, st, seat)
    assert "step:refit" in ids, "the refit is still ahead after selecting"
    st, _ = rules.apply(st, seat, "step:refit")
    assert rules.prompt(st).kind_for(seat) == "refit"


def test_3_immediate_capability_executed_before_refit_and_force_management(rules, C):
    st = _window(rules)
    seat = "liberators"
    pl = st["pl"][seat]
    imm = next(c for c in pl["hand"] if C.cards[c]["speed"] == "immediate"
               and rules._card_targets(st, seat, C.cards[c]))
    pl["hand"].remove(imm)
    pl["played"].append(imm)
    ids = _ids(rules, st, seat)
    assert f"exec:{imm}" in ids and "step:refit" in ids
    st, _ = rules.apply(st, seat, f"exec:{imm}")
    assert rules.prompt(st).kind_for(seat) == "target"


def test_3_done_gains_the_resources_not_yet_taken(rules):
    """3.B is not optional: a seat that closes its window without the step gains them then."""
    st = _window(rules, players=2)
    seat = "liberators"
    st, _ = rules.apply(st, seat, "step:refit")
    while rules.prompt(st).kind_for(seat) != "steps":
        ids = _ids(rules, st, seat)
        st, _ = rules.apply(st, seat, next((i for i in ids if i.startswith("refit:res")), ids[0]))
    res = st["pl"][seat]["res"]
    assert "done" in _ids(rules, st, seat)
    st, facts = rules.apply(st, seat, "done")
    assert st["pl"][seat]["res"] == res + income(st["pl"][seat], seat)
    assert any((f.get("cause") or {}).get("because") and render((f.get("cause") or {}).get("because")) == "gain resources (3.B)" for f in facts)
    assert seat not in rules.prompt(st).seats


def test_3_heuristic_bot_takes_the_steps_in_the_rulebook_order(rules):
    st = _window(rules)
    seat = "liberators"
    bot = make_bot(rules, "heuristic", seat, 1)
    assert bot.choose(st, rules.prompt(st)).choice_id == "step:refit"
    st["frames"][seat][-1]["taken"].append("refit")
    assert bot.choose(st, rules.prompt(st)).choice_id == "step:income"

