"""Shared helpers for the Peru engine tests."""

from __future__ import annotations

import pytest

import engine
from engine.scenarios.peru.state import piece_totals

RULES = engine.load("peru")
EXAMPLE_DECK = ["P36", "P9", "P8", "P12", "P33", "P18", "P38"]
EXAMPLE_DICE = {"hunt": [4, 5, 3], "attack": [2], "rondas": [2, 1, 4]}
SUP = {"AS": 2, "PS": 1, "N": 0, "PO": -1, "AO": -2}
KEYS = ("T", "P", "Ru", "Ra", "Gu", "Ga", "B", "D")


def pieces(spec: str) -> dict:
    """'T7 P4 Gu1' -> {"T": 7, "P": 4, "Gu": 1, others 0}."""
    out = dict.fromkeys(KEYS, 0)
    for tok in spec.split():
        k = tok.rstrip("0123456789")
        out[k] = int(tok[len(k):])
    return out


class Game:
    """Drives a state through choices, checking legality and conservation at every step."""

    def __init__(self, seed: int = 1, options: dict | None = None, swap: str | None = None):
        self.rules = RULES
        self.state = RULES.setup(seed, options or {})
        self.totals = piece_totals(self.state)
        self.facts: list = []
        if swap:
            self.do("shining_path", f"swap:{swap}")

    def choices(self) -> list[str]:
        p = self.rules.prompt(self.state)
        return [c.id for c in p.choices] if p else []

    def seat(self) -> str:
        return self.rules.prompt(self.state).seats[0]

    def do(self, seat: str, *ids: str) -> None:
        for cid in ids:
            p = self.rules.prompt(self.state)
            assert p is not None, f"game over before {cid}"
            assert seat in p.seats, f"{seat} is not to act for {cid}: {p.seats} ({p.text})"
            legal = [c.id for c in p.choices]
            assert cid in legal, f"{cid} not legal at {p.kind} ({p.text}); legal: {legal}"
            self.state, facts = self.rules.apply(self.state, seat, cid)
            self.facts.extend(facts)
            assert piece_totals(self.state) == self.totals
            self.check_control()

    def check_control(self) -> None:
        from engine.scenarios.peru.state import control_of
        for sid, sp in self.state["s"].items():
            assert sp["ctl"] == control_of(sp, sid) or self.in_redeploy(), sid

    def in_redeploy(self) -> bool:
        return any(f["k"] == "redeploy" for f in self.state["stack"])

    def space(self, sid: str) -> dict:
        return self.state["s"][sid]

    def assert_space(self, sid: str, spec: str, sup: str | None = None, ctl: str | None = None,
                     ter: int | None = None, ez: bool | None = None) -> None:
        sp = self.space(sid)
        got = {k: sp[k] for k in KEYS}
        assert got == pieces(spec), f"{sid}: {got} != {spec}"
        if sup is not None:
            assert sp["sup"] == SUP[sup], f"{sid} support {sp['sup']} != {sup}"
        if ctl is not None:
            assert sp["ctl"] == {"GOV": "G", "SP": "S", "-": ""}[ctl], f"{sid} control {sp['ctl']} != {ctl}"
        if ter is not None:
            assert sp["ter"] == ter, f"{sid} terror {sp['ter']} != {ter}"
        if ez is not None:
            assert bool(sp["ez"]) == ez, f"{sid} EZ"

    def tracks(self) -> tuple:
        s = self.state
        return s["pw"], s["res"]["government"], s["res"]["shining_path"], s["hunt"]

    def play_random(self, seed: int, limit: int = 100_000) -> None:
        from engine.bots.base import RandomBot
        bots = {s: RandomBot(self.rules, s, seed) for s in self.rules.seat_ids()}
        for _ in range(limit):
            p = self.rules.prompt(self.state)
            if p is None:
                return
            seat = p.seats[0]
            self.rules.apply_inplace(self.state, seat, bots[seat].choose(self.state, p).choice_id)
        raise AssertionError("game did not end")


@pytest.fixture
def game():
    return Game(swap="junin")


@pytest.fixture
def example():
    return Game(options={"deck_top": EXAMPLE_DECK, "script": EXAMPLE_DICE}, swap="junin")


#: short piece keys of the tests -> field names of a position (docs/scenarios/peru-position.md)
POSITION_FIELD = {"T": "troops", "P": "police", "Ru": "rondas_underground", "Ra": "rondas_active",
                  "Gu": "guerrillas_underground", "Ga": "guerrillas_active", "B": "bases"}
POOL_FIELDS = {"T": ("troops",), "P": ("police",), "R": ("rondas_underground", "rondas_active"),
               "G": ("guerrillas_underground", "guerrillas_active"), "B": ("bases",)}
TOTALS = {"T": 16, "P": 20, "R": 10, "G": 20, "B": 4}


def put(pos: dict, sid: str, **pieces: int) -> None:
    """Set piece counts of a space in a position: ``put(pos, "cusco", Gu=2, Ga=1)``."""
    sp = pos["spaces"].setdefault(sid, {})
    for k, n in pieces.items():
        sp[POSITION_FIELD[k]] = n


def available(pos: dict, pool: str) -> int:
    """Available pieces of ``pool`` ("T", "P", "R", "G", "B") in a position (1.4.1)."""
    on = sum(sp.get(f, 0) for sp in pos["spaces"].values() for f in POOL_FIELDS[pool])
    held = pos.get("held", {})
    on += held.get("P26", 0) if pool == "T" else held.get("P22", 0) if pool == "G" else 0
    on += 1 if pool == "B" and any(sp.get("directives_base") for sp in pos["spaces"].values()) else 0
    return TOTALS[pool] - on


def position_game(card: str, seat: str = "shining_path", edit=None, script: dict | None = None,
                  seed: int = 3) -> Game:
    """Like :func:`card_game`, but the position is changed through the public contract: the
    setup position (2.1, Directives Base in Junin, ``card`` face up) is exported, ``edit(pos)``
    changes it and the game starts from it (Available pieces and Control follow by themselves)."""
    pos = RULES.position(Game(seed=seed, options={"deck_top": [card]}, swap="junin").state)
    if edit:
        edit(pos)
    if seat == "government":
        pos["eligibility"] = {"first": "government", "second": "shining_path"}
    opts: dict = {"position": pos}
    if script:
        opts["script"] = script
    return Game(seed=seed, options=opts)


def position_event(card: str, side: str, seat: str = "shining_path", edit=None, script=None) -> Game:
    g = position_game(card, seat, edit, script)
    g.do(seat, "box:event", f"event:{side}")
    return g


def card_game(card: str, seat: str = "shining_path", prep=None, script: dict | None = None, seed: int = 3) -> Game:
    """A game whose first card is ``card``, with ``seat`` 1st Eligible; ``prep(state)`` may
    change the position first (Control is then recomputed). Prefer :func:`position_game`."""
    opts = {"deck_top": [card]}
    if script:
        opts["script"] = script
    g = Game(seed=seed, options=opts, swap="junin")
    if prep:
        from engine.scenarios.peru.state import refresh_control
        prep(g.state)
        refresh_control(g.state, [], "test set-up")
        g.totals = piece_totals(g.state)
    if seat == "government":
        g.state["elig"] = ["government", "shining_path"]
        g.state["stack"][-1]["seat"] = "government"
    return g


def event(card: str, side: str, seat: str = "shining_path", prep=None, script=None) -> Game:
    g = card_game(card, seat, prep, script)
    g.do(seat, "box:event", f"event:{side}")
    return g
