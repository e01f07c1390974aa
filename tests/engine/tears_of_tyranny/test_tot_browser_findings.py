"""Rules findings from playing Tears of Tyranny with four teams in the browser (tests/e2e/test_tot_four_teams.py).

Keeping a drawn capability card (3.A "gain capability", A-35): the draw itself is private to the
drawing seat (the ``draw`` fact is ``visible_to`` that seat only; the others read "draw 4 major
cards"), and ``view()`` shows the drawn cards only to their seat. The keep *decision* is logged with
its choice label ("Keep Storm the Outpost (major, cost 4)"), which every other team reads in its log
unless the decision is marked secret (``payload["secret"]``, as the facilitation log redacts it).
"""

from __future__ import annotations

import engine


def _to_first_keep(rules, seed=3):
    st = rules.setup(seed, {"players": 4})
    while True:
        p = rules.prompt(st)
        for seat in p.seats:
            choices = p.choices_for(seat)
            ids = [c.id for c in choices]
            if any(i.startswith("keep:") for i in ids):
                return st, p, seat
        seat = p.seats[0]
        ids = [c.id for c in p.choices_for(seat)]
        pick = next((i for i in ids if i.startswith(("refit:reclaim", "deck:", "step:refit"))), ids[0])
        st, _ = rules.apply(st, seat, pick)


def test_keeping_a_privately_drawn_card_is_a_secret_decision():
    rules = engine.load("tears_of_tyranny")
    st, p, seat = _to_first_keep(rules)
    keeps = [c for c in p.choices_for(seat) if c.id.startswith("keep:")]
    assert keeps, "a keep question"
    # the cards on offer are the seat's secret ...
    for other in st["seats"]:
        if other != seat:
            assert seat not in (rules.view(st, other).get("drawn") or {})
    # ... so the choice that names one of them must not be published in the other seats' logs
    for c in keeps:
        assert c.payload.get("secret") is True or p.context.get("secret") is True, c.label


# ---- per-seat kind and rule in the simultaneous player window (3: "players execute their actions
# simultaneously each phase") ------------------------------------------------------------------------

#: the step a seat stands at -> (decision kind, the rule its question cites)
_STEP_RULE = {"refit": ("refit", "3.A"), "deck": ("deck", "3.A"), "keep": ("keep", "3.A"),
              "forget": ("forget", "1.F"), "fm": ("force_management", "3.C"), "select": ("select", "3.D")}


def _window(rules, seed=3):
    st = rules.setup(seed, {"players": 4})
    for seat in list(st["seats"]):  # 2.C: every HQ
        rules.apply_inplace(st, seat, rules.prompt(st).choices_for(seat)[0].id)
    for seat in st["seats"]:  # 3: each seat picks its step; here every seat refits first (3.A)
        if seat == "partisans":  # ... after the Partisans' d10 for presence (Partisans panel)
            rules.apply_inplace(st, seat, "step:roll")
            if st["frames"][seat][-1]["k"] == "presence":
                rules.apply_inplace(st, seat, rules.prompt(st).choices_for(seat)[0].id)
        if st["frames"][seat][-1]["k"] == "steps":
            rules.apply_inplace(st, seat, "step:refit")
    return st


def test_each_seat_in_the_window_carries_its_own_kind_and_rule():
    """Browser finding: every seat got the first waiting seat's kind and rule, so the Comrades
    answering "which deck" (3.A gain capability) were logged as ``refit`` and their page showed
    "Rule 3.A-3.D, phase 2". Each seat now carries its own step's kind and rule."""
    rules = engine.load("tears_of_tyranny")
    st = _window(rules)
    # the Comrades refit with "gain capability": they now choose a deck (3.A) ...
    gain = next(c.id for c in rules.prompt(st).choices_for("comrades") if "gain" in c.id)
    rules.apply_inplace(st, "comrades", gain)
    # ... the Partisans take resources and reach force management or selection (3.C / 3.D)
    res = next(c.id for c in rules.prompt(st).choices_for("partisans") if "res" in c.id)
    rules.apply_inplace(st, "partisans", res)
    for _ in range(10):  # past a d10 presence (3.A Partisans) and force management (3.C)
        if st["frames"]["partisans"][-1]["k"] == "select":
            break
        ids = [c.id for c in rules.prompt(st).choices_for("partisans")]
        rules.apply_inplace(st, "partisans", "skip" if "skip" in ids else ids[0])
    p = rules.prompt(st)
    assert p.seats[0] == "liberators" and p.kind == "refit", "the shared kind is still the first seat's"
    steps = {s: st["frames"][s][-1]["k"] for s in p.seats}
    assert steps["liberators"] == "refit" and steps["comrades"] == "deck"
    assert steps["partisans"] == "select"
    for seat in p.seats:
        kind, rule = _STEP_RULE[steps[seat]]
        assert p.kind_for(seat) == kind, seat
        assert p.rule_for(seat) == rule, seat
        d = p.to_dict(seat)
        assert (d["kind"], d["rule"]) == (kind, rule), seat
    assert p.kind_for("comrades") == "deck" and p.rule_for("comrades") == "3.A"
    full = p.to_dict()
    assert full["seat_kind"]["comrades"] == "deck" and full["seat_rule"]["partisans"] == "3.D"


def test_a_prompt_without_per_seat_kinds_falls_back_to_kind_and_rule():
    from engine.core.contract import Choice, Prompt

    p = Prompt(("a", "b"), "Go?", "1.2", [Choice("go", "Go")], kind="move")
    assert (p.kind_for("a"), p.rule_for("b")) == ("move", "1.2")
    assert p.to_dict("a")["kind"] == "move" and "seat_kind" not in p.to_dict()
    q = Prompt(("a", "b"), "Go?", "1.2", [Choice("go", "Go")], kind="move",
               seat_kind={"b": "stay"}, seat_rule={"b": "3.4"})
    assert (q.kind_for("a"), q.rule_for("a"), q.kind_for("b"), q.rule_for("b")) == ("move", "1.2", "stay", "3.4")
