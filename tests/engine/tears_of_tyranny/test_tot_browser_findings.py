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
        pick = next((i for i in ids if i.startswith(("refit:reclaim", "deck:"))), ids[0])
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
