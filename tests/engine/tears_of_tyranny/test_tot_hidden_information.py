"""What is public at the table, and no fact, decision or view tells another seat more.

The rule, from the rulebook:

* 1.F "External capabilities": capability cards are held in the player's *hand*; the rulebook
  never shows a hand to the table, and the engine's ``view`` gives other seats only its size.
* 3.A "Gain capability": the player draws four cards and chooses one; the rest return to the
  bottom of the deck. The four drawn cards are the drawing player's alone (the ``draw`` fact is
  ``visible_to`` that seat; the others read "draw 4 major cards").
* 3.D / 1.F: a card *played* is paid for on the table ("the player places the required resources
  on the card") and is then "locally" discarded: played and spent cards are public, and so is
  taking a spent card back (reclaim, 3.A).
* 1.F: keeping a major card forces the player to "forget" another card; which card is forgotten
  is the player's secret when it comes from the hand (others see that a card was forgotten).

So, for a seat S and one resolved decision (the state before and after it), a card is *secret to
S* when it is in S's hand or S's private draw before or after the decision, and in S's played or
spent cards neither before nor after it. Nothing another seat can read may name a secret card:
the facts as ``facts_for_seat`` gives them to that seat, the decision (its label and payload,
unless the choice is marked secret, which the facilitation log then redacts), the prompt context,
and ``view(state, other)``.
"""

from __future__ import annotations

import re

import pytest

import engine
from engine.core.contract import facts_for_seat
from engine.core.messages import render
from engine.scenarios.tears_of_tyranny.data import content

C = content()
_TITLE = {C.cards[c]["title"]: c for c in C.cards}
_WORDS = re.compile(r"[\w-]+")
#: longest title first: "Safe House Network" names that card, not also "Safe House"
_TITLES = sorted(((t, set(_WORDS.findall(t))) for t in _TITLE), key=lambda tw: -len(tw[0]))


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _strings(v)


def _named(obj) -> set:
    """Every capability card ``obj`` names, by id or by title."""
    text = "\n".join(_strings(obj))
    words = set(_WORDS.findall(text))
    out = words & C.cards.keys()
    for title, tw in _TITLES:
        if tw <= words and title in text:
            out.add(_TITLE[title])
            text = text.replace(title, "\x00")
    return out


def _private(state, seat) -> set:
    pl = state["pl"][seat]
    drawn = {c for fr in state["frames"].get(seat, []) if fr["k"] == "keep" for c in fr["drawn"]}
    return set(pl["hand"]) | drawn


def _public(state, seat) -> set:
    pl = state["pl"][seat]
    return set(pl["played"]) | set(pl["discard"])


def _secret_cards(before, after, seat) -> set:
    return (_private(before, seat) | _private(after, seat)) - _public(before, seat) - _public(after, seat)


def _play_and_audit(seed: int, max_steps: int = 20_000) -> dict:
    rules = engine.load("tears_of_tyranny")
    state = rules.setup(seed, {"players": 4})
    seats = list(state["seats"])
    bots = {s: rules.bot_kinds()["heuristic"](rules, s, seed) for s in seats}
    seen = {"facts": 0, "forget": 0, "draw": 0, "steps": 0}
    turn = 0
    while True:
        p = rules.prompt(state)
        if p is None:
            break
        seat = p.seats[turn % len(p.seats)]  # the seats of a simultaneous phase act in turn
        turn += 1
        choice = p.find(seat, bots[seat].choose(state, p).choice_id)
        before = rules.copy(state)
        facts = rules.apply_inplace(state, seat, choice.id)
        seen["steps"] += 1
        seen["facts"] += len(facts)
        seen["forget"] += sum(f["type"] == "forget" for f in facts)
        seen["draw"] += sum(f["type"] == "draw" for f in facts)
        secret = {owner: _secret_cards(before, state, owner) for owner in seats}
        for other in seats:
            named = _named(facts_for_seat(facts, other))
            for owner in seats:
                if owner != other:
                    assert not named & secret[owner], (seed, seen["steps"], owner, other, named & secret[owner], facts)
        if not choice.payload.get("secret") and not p.context.get("secret"):
            # the decision as the facilitation log shows it to the other seats
            named = _named([choice.label, choice.payload, p.kind_for(seat), p.rule_for(seat)])
            assert not named & secret[seat], (seed, seen["steps"], seat, choice)
        assert not _named(p.context) & set().union(*secret.values()), (seed, seen["steps"], p.context)
        if seen["steps"] % 25 == 0 or p.kind_for(seat) in ("keep", "forget", "deck"):
            for other in seats:
                hidden = set().union(*(_private(state, o) - _public(state, o) for o in seats if o != other))
                assert not _named(rules.view(state, other)) & hidden, (seed, seen["steps"], other)
        assert seen["steps"] < max_steps, "the game does not end"
    assert rules.result(state) is not None
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_complete_four_player_games_leak_no_hand_or_draw_to_other_seats(seed):
    seen = _play_and_audit(seed)
    # the audit saw the moments that matter: private draws (3.A) and forgotten cards (1.F)
    assert seen["draw"] >= 4 and seen["forget"] >= 1, seen


def test_forgetting_a_card_is_secret_to_the_other_seats():
    """Browser finding: "Comrades forget Border Crossing Contract" was published to every team.
    The owner reads which card; the others read that a card was forgotten; the decision is secret."""
    rules = engine.load("tears_of_tyranny")
    st = rules.setup(3, {"players": 4})
    for seat in list(st["seats"]):
        rules.apply_inplace(st, seat, rules.prompt(st).choices_for(seat)[0].id)
    # the Comrades gain a capability from the major deck and keep a major card (1.F: forget one)
    rules.apply_inplace(st, "comrades", "step:refit")
    p = rules.prompt(st)
    rules.apply_inplace(st, "comrades", next(c.id for c in p.choices_for("comrades") if "gain" in c.id))
    rules.apply_inplace(st, "comrades", "deck:major")
    p = rules.prompt(st)
    rules.apply_inplace(st, "comrades", next(c.id for c in p.choices_for("comrades") if c.id.startswith("keep:")))
    p = rules.prompt(st)
    forgets = [c for c in p.choices_for("comrades") if c.id.startswith("forget:")]
    assert forgets and p.kind_for("comrades") == "forget" and p.rule_for("comrades") == "1.F"
    pick = next(c for c in forgets if c.payload["card"] in st["pl"]["comrades"]["hand"])
    assert pick.payload.get("secret") is True, "the facilitation log redacts a secret decision"
    card = pick.payload["card"]
    title = C.cards[card]["title"]
    facts = rules.apply_inplace(st, "comrades", pick.id)
    mine = [f for f in facts_for_seat(facts, "comrades") if f["type"] == "forget"]
    assert len(mine) == 1 and title in render(mine[0]["text"]) and mine[0]["card"] == card
    for other in ("liberators", "advisors", "partisans"):
        theirs = [f for f in facts_for_seat(facts, other) if f["type"] == "forget"]
        assert len(theirs) == 1 and render(theirs[0]["text"]) == "The Comrades forget a card.", theirs
        assert card not in _named(facts_for_seat(facts, other))
