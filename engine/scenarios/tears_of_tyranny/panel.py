"""Player-panel arithmetic (1.E: income, card plays, attributes) and small helpers the rules
modules share (card lines for choices, a lazy per-seat mapping for simultaneous prompts)."""

from __future__ import annotations

from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.texts import card_line  # noqa: F401  (re-exported)

C = content()
ROWS = ("resources", "plays")
VAL = {"cell": 1, "outpost": 2, "garrison": 3}

#: what a step of an effect asks the player to do (issue 16.6: "Patrol: pull (0/2)" said too little)
OP_WORDS = {"pull": msg("pull pieces one at a time into this tile from next door"),
            "push": msg("push pieces one at a time out of this tile into a neighbouring tile"),
            "presence": msg("place your presence here")}


# ---- panel arithmetic (1.E.i) -----------------------------------------------------------------

# the steps of a seat's player window, in the rulebook's order (3.A-3.D); the seat takes them in
# any order (3: "in the order of their choosing")
WINDOW_STEPS = ("roll", "refit", "income", "produce", "fm", "select")


def income(pl: dict, seat: str) -> int:
    row = C.panels[seat]["track"]["resources"][:pl["open"]["resources"]]
    return max(v for v in row if isinstance(v, int))


def plays_limit(pl: dict, seat: str) -> int:
    row = C.panels[seat]["track"]["plays"][:pl["open"]["plays"]]
    if "unlimited" in row:
        return 99
    return max(v for v in row if isinstance(v, int))


def has_reclaim_circle(pl: dict, seat: str) -> bool:
    return "reclaim" in C.panels[seat]["track"]["plays"][:pl["open"]["plays"]]


def forget_candidates(pl: dict, kept: str) -> list[str]:
    """1.F / 3.A: keeping a major means forgetting "a capability card already in their hand" (the
    kept card excepted). Only when the hand holds no other card does a spent card (local discard)
    go instead (A-35's reading, kept as the fallback so the rule always costs a card)."""
    hand = [c for c in pl["hand"] if c != kept]
    return hand or [c for c in pl["discard"] if c != kept]


def attributes(pl: dict, seat: str) -> dict:
    """A-31: attributes of every card paid this turn + 1X per uncovered attribute circle."""
    out: dict = {}
    for cid in pl["played"]:
        for a in C.cards[cid]["attributes"]:
            out[a] = out.get(a, 0) + 1
    for v in C.panels[seat]["track"]["resources"][:pl["open"]["resources"]]:
        if isinstance(v, str):
            out[v] = out.get(v, 0) + 1
    return out


def meets(attrs: dict, req: dict) -> bool:
    return all(attrs.get(a, 0) >= n for a, n in req.items())


def covered(pl: dict, seat: str) -> dict:
    tr = C.panels[seat]["track"]
    return {r: len(tr[r]) - pl["open"][r] for r in ROWS}


def _hit_unit(state, tid: str, kind: str, fr: dict, facts: list, seat: str, label: str) -> None:
    """Damage the chosen kind of unit on the tile from the frame's damage left to allocate
    (``fr["alloc"]``): the most damaged unit of that kind first, destroyed when its health is
    overcome, else the damage stays on it (combat, 3.E; the counterattack, 3.F)."""
    t = state["tiles"][tid]
    i = max((i for i, u in enumerate(t["u"]) if u[0] == kind), key=lambda i: t["u"][i][1])
    rem = VAL[kind] - t["u"][i][1]
    use = min(rem, fr["alloc"])
    fr["alloc"] -= use
    if use >= rem:
        B.destroy_unit(state, tid, i, facts, seat, label)
    else:
        t["u"][i][1] += use
        B.damage_fact(facts, tid, t["u"][i], use)

class _PerSeat(dict):
    """seat -> value, each value computed on first access (a read-only, lazily filled dict)."""

    def __init__(self, seats, load):
        super().__init__()
        self._seats = tuple(seats)
        self._load = load

    def _one(self, seat):
        if not dict.__contains__(self, seat):
            dict.__setitem__(self, seat, self._load(seat))
        return dict.__getitem__(self, seat)

    def _all(self):
        for s in self._seats:
            self._one(s)

    def __getitem__(self, seat):
        if seat not in self._seats:
            raise KeyError(seat)
        return self._one(seat)

    def get(self, seat, default=None):
        return self._one(seat) if seat in self._seats else default

    def __contains__(self, seat):
        return seat in self._seats

    def __len__(self):
        return len(self._seats)

    def __iter__(self):
        return iter(self._seats)

    def keys(self):
        self._all()
        return dict.keys(self)

    def values(self):
        self._all()
        return dict.values(self)

    def items(self):
        self._all()
        return dict.items(self)

    def __eq__(self, other):
        self._all()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self):
        self._all()
        return dict.__repr__(self)

    def __reduce__(self):
        self._all()
        return (dict, (dict(self.items()),))
