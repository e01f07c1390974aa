"""Contract v2 choice details: the rule, the help sentence and the cost of every choice.

The frames build their choices with an id, a label, a kind and targets (``frames.C``); this
module adds, where the prompt is shown, what a student reads before the click:

- ``rule``: the Operation's or Special Activity's own rule for ``op:`` / ``sa:`` choices, the
  prompt's rule otherwise;
- ``help``: one sentence saying what the choice does (``HELP`` by frame kind and verb, then
  ``VERB_HELP`` by verb);
- ``cost``: the Resources the choice spends at once, per Faction (``{"govt": 3}``): 3.2 / 3.3
  Operation costs per space (``op_common.op_cost``: Train, Sweep and Assault 3, less with the
  capabilities of cards 2 / 3; Rally, Attack 1; Terror 1, 0 on a LoC; March 1 per City or
  Department entered, 0 for a LoC), Patrol 3 at once (3.2.2), Civic Action 3 (6.4.1), Bribe 3
  (4.5.3), Agitation 1 (6.4.2); free Operations (Events, Shipments) cost nothing.

Choices are immutable and shared (``frames.C``); the detailed ones are cached the same way.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.contract import Choice
from engine.core.messages import msg

from .board import BOARD as BD
from .board import FACTIONS, GOVT
from .frames import verb
from .op_common import op_cost_with, opf
from .state import cap

#: the rule of each Operation (3.2, 3.3) and Special Activity (4.2-4.5)
OP_RULE = {"train": "3.2.1", "patrol": "3.2.2", "sweep": "3.2.3", "assault": "3.2.4", "rally": "3.3.1",
           "march": "3.3.2", "attack": "3.3.3", "terror": "3.3.4", "airlift": "4.2.1", "airstrike": "4.2.2",
           "eradicate": "4.2.3", "extort": "4.3.1", "ambush": "4.3.2", "kidnap": "4.3.3", "assassinate": "4.4.2",
           "cultivate": "4.5.1", "process": "4.5.2", "bribe": "4.5.3"}

#: what each Operation and Special Activity does, in one sentence
OP_HELP = {
    "train": msg("Place Troops and Police in Cities or spaces with a Government Base, then perhaps build a Base "
                 "or buy Civic Action."),
    "patrol": msg("Move cubes along LoCs and into Cities, Activate Guerrillas there, then perhaps Assault on one LoC."),
    "sweep": msg("Move Troops into the chosen spaces and Activate Guerrillas there, one per cube."),
    "assault": msg("Remove Active Guerrillas, then Bases, in the chosen spaces, as many as your cubes allow."),
    "rally": msg("Place Guerrillas in the chosen spaces, or replace two of them with a Base."),
    "march": msg("Move Guerrillas into adjacent spaces; they may become Active where many move together."),
    "attack": msg("Roll a die in each chosen space: at or under your Guerrillas there, remove two enemy pieces."),
    "terror": msg("Activate a Guerrilla, place a Terror marker and shift the space toward Opposition."),
    "airlift": msg("Move up to three Troops among any spaces."),
    "airstrike": msg("Remove one Active Guerrilla or unprotected Base from a Department or LoC."),
    "eradicate": msg("Remove Cartels pieces from a Department, giving Aid to the Government."),
    "extort": msg("Gain 1 Resource in each space you Control with an Underground Guerrilla, Activating it."),
    "ambush": msg("Attack with automatic success by Activating one Underground Guerrilla."),
    "kidnap": msg("Take Resources from another Faction in a Terror space, or a Shipment, by a die roll."),
    "assassinate": msg("Remove one enemy piece, even a Base, in a Terror space."),
    "cultivate": msg("Place or relocate a Cartels Base in a Department where Cartels Guerrillas stand."),
    "process": msg("Place Shipments with Guerrillas, or remove Cartels Bases for Resources."),
    "bribe": msg("Pay 3 Resources to remove or flip enemy pieces in one space."),
}

EVENT_HELP = msg("Carry out the card's Event instead of an Operation.")

#: (frame kind, verb) -> help; then ``VERB_HELP`` by verb
HELP = {
    ("elig", "pass"): msg("Do nothing this card and gain Resources; you stay Eligible for the next card."),
    ("elig", "np"): msg("Let the Non-player take its turn by the section-8 flowchart."),
    ("op", "space"): msg("Carry out the Operation in this space, paying its cost."),
    ("op", "from"): msg("Move pieces out of this space as part of the Operation."),
    ("op", "none"): msg("Skip the free Assault."),
    ("trainsp", "mix"): msg("Place this many Troops and Police here."),
    ("trainx", "base"): msg("Replace three cubes here with a Government Base."),
    ("trainx", "civic"): msg("Buy Civic Action here: remove Terror or shift toward Support."),
    ("civic", "space"): msg("Pay 3 Resources to remove Terror or shift this space toward Support."),
    ("patrolmv", "space"): msg("Move the cube to this space."),
    ("sweepsp", "from"): msg("Move one Troops cube from this space into the Sweep space."),
    ("sweepsp", "police"): msg("Move one Police cube from this space into the Sweep space."),
    ("marchgrp", "space"): msg("March the group into this adjacent space."),
    ("marchgrp", "u"): msg("Move this many Underground Guerrillas."),
    ("marchgrp", "a"): msg("Move this many Active Guerrillas."),
    ("rallysp", "place"): msg("Place one Guerrilla here."),
    ("rallysp", "many"): msg("Place this many Guerrillas here."),
    ("rallysp", "base"): msg("Replace two of your Guerrillas here with a Base."),
    ("rallysp", "regroup"): msg("Bring your Guerrillas here from anywhere and flip all of them here Underground."),
    ("regroup", "from"): msg("Bring one Guerrilla here from that space."),
    ("attacksp", "attack"): msg("Roll a die: at or under your Guerrillas here, remove up to two enemy pieces."),
    ("attacksp", "ambush"): msg("Activate one Underground Guerrilla to succeed without rolling."),
    ("give", "to"): msg("Choose the Faction that receives your transfer."),
    ("give", "n"): msg("Give this many Resources."),
    ("redeploy", "troops"): msg("Move the Troops of this space to a Government-Controlled City or Base."),
    ("redeploy", "police"): msg("Move the Police of this space to a LoC or a Government-Controlled space."),
    ("redeploy", "space"): msg("Move the cubes to this space."),
    ("zone", "space"): msg("Place the FARC Zone here: Government forces leave and cannot return."),
    ("zoneout", "space"): msg("Move the cube out of the FARC Zone to this space."),
    ("elite", "space"): msg("Rally here for free."),
    ("agitate", "space"): msg("Pay 1 Resource to remove Terror or shift this space toward Opposition."),
    ("drugs", "base"): msg("Place a Base where the Shipment is."),
    ("drugs", "res"): msg("Take 6 Resources for the Shipment."),
    ("ship", "ship"): msg("Remove a Shipment to carry out a free Limited Operation."),
    ("ship", "noship"): msg("Keep your Shipments."),
    ("shipask", "ship"): msg("Give up this Shipment so that the other Faction gets its free Limited Operation."),
    ("shipask", "refuse"): msg("Keep your Shipment."),
    ("bribe", "space"): msg("Pay 3 Resources to Bribe in this space."),
    ("bribe", "rm"): msg("Remove these pieces."),
    ("bribe", "flip"): msg("Flip these Guerrillas."),
    ("bribe", "base"): msg("Remove this Base."),
    ("process", "ship"): msg("Place Shipments with Guerrillas."),
    ("process", "bases"): msg("Remove Cartels Bases for 3 Resources each."),
    ("evsa", "sa"): msg("Carry out this Special Activity for free."),
    ("evchoice", "alt"): msg("Carry out this part of the Event."),
    ("discord", "event"): msg("The Non-player executes the Event."),
    ("discord", "ops"): msg("The Non-player conducts Operations."),
}

VERB_HELP = {
    "space": msg("Choose this space."),
    "from": msg("Choose this space to move from."),
    "to": msg("Choose this Faction."),
    "target": msg("Act against this Faction's pieces or this piece."),
    "piece": msg("Choose this piece."),
    "faction": msg("Choose this Faction."),
    "place": msg("Place this piece here."),
    "remove": msg("Remove this piece."),
    "anywhere": msg("Remove this piece."),
    "flip": msg("Flip this piece."),
    "take": msg("Take this piece off the map to place it elsewhere (1.4.1)."),
    "ask": msg("Ask this Faction to give you Resources or a Shipment."),
    "give": msg("Give Resources or a Shipment to another Faction."),
    "done": msg("Finish this step."),
    "none": msg("Do nothing here."),
    "skip": msg("Do nothing here."),
    "stop": msg("Finish this step."),
    "noship": msg("Keep your Shipments."),
    "refuse": msg("Decline."),
    "n": msg("Choose this number."),
    "many": msg("Choose this number."),
    "level": msg("Choose this level."),
    "alt": msg("Choose this option."),
    "act": msg("Choose this option."),
    "np": msg("Let the Non-player decide by the section-8 flowchart."),
}

_CACHE: dict = {}


#: the frame kinds whose choices may spend Resources (the others never cost anything)
COST_KINDS = frozenset({"elig", "op", "marchgrp", "civic", "agitate", "bribe", "kidnap", "assassinate", "trainx",
                        "give"})


def cost_of(st: dict, fr: dict, c: Choice) -> dict | None:
    """Resources choice ``c`` spends at once, per Faction (None: nothing), 3.2-3.3, 4.5.3, 6.4."""
    fn = coster(st, fr)
    return fn(c) if fn is not None else None


def coster(st: dict, fr: dict):
    """The cost of each choice of frame ``fr`` as a function of the Choice (its named targets),
    with what else it depends on taken now (so that reading a choice later gives the same cost);
    None when no choice of this frame spends anything."""
    k = fr["k"]
    if k not in COST_KINDS:
        return None
    f = fr.get("f", GOVT)
    if k == "elig":
        return _patrol
    if k == "op":
        if fr.get("ph") == "patrol_assault" or fr.get("free"):
            return None
        op, who, cap2, cap3 = fr["op"], FACTIONS[f], cap(st, 2), cap(st, 3)

        def op_space(c):
            sp = c.targets.get("space") if c.id.startswith("space:") else None
            if sp is None:
                return None
            n = op_cost_with(f, op, BD.index[sp], cap2, cap3)
            return spend(who, n) if n else None
        return op_space     # op_cost reads capabilities 2 and 3 (taken above)
    if k == "marchgrp":
        op = opf(st, fr)
        if op is None or op.get("free"):
            return None
        paid, who = tuple(op.get("paid", ())), FACTIONS[f]

        def march_into(c):
            sp = c.targets.get("space") if c.id.startswith("space:") else None
            if sp is None:
                return None
            i = BD.index[sp]
            return None if BD.is_loc[i] or i in paid else spend(who, 1)
        return march_into
    if k in ("kidnap", "assassinate"):
        op = opf(st, fr)
        if op is None or op.get("op") != "terror" or op.get("free"):
            return None
        g, sel = op["f"], tuple(op["sel"])

        def terror_there(c):
            sp = c.targets.get("space") if c.id.startswith("space:") else None
            if sp is None or BD.index[sp] in sel:
                return None
            n = op_cost_with(g, "terror", BD.index[sp], None, None)
            return spend(FACTIONS[g], n) if n else None
        return terror_there
    flat = FLAT_COSTS.get(k)
    if flat is not None and not (k == "bribe" and fr.get("free")):
        v, cost = flat
        return lambda c: cost if verb(c.id) == v else None
    if k == "give" and fr.get("f") is not None:
        who = FACTIONS[fr["f"]]

        def given(c):
            n = c.targets.get("n") if verb(c.id) == "n" else None
            return spend(who, n) if n else None
        return given
    return None


def _patrol(c):
    return PATROL_COST if c.id == "op:patrol" else None


_COSTS: dict = {}


def spend(who: str, n: int) -> dict:
    """``{who: n}``, one shared object per value (so a prompt's costs can be compared by identity)."""
    c = _COSTS.get((who, n))
    if c is None:
        c = _COSTS[(who, n)] = {who: n}
    return c


PATROL_COST = {"govt": 3}        # 3.2.2: Patrol costs 3 in all
CIVIC_COST = {"govt": 3}         # 6.4.1 (and 3.2.1 Train's Civic Action)
AGITATE_COST = {"farc": 1}       # 6.4.2
BRIBE_COST = {"cartels": 3}      # 4.5.3
#: frame kind -> (the verb of its paying choices, their cost)
FLAT_COSTS = {"civic": ("space", CIVIC_COST), "agitate": ("space", AGITATE_COST), "trainx": ("civic", CIVIC_COST),
              "bribe": ("space", BRIBE_COST)}


def _help(k: str, cid: str):
    v = verb(cid)
    if v in ("op", "sa"):
        return OP_HELP.get(cid.partition(":")[2])
    if v == "event":
        return EVENT_HELP
    return HELP.get((k, v)) or VERB_HELP.get(v)


def _rule(cid: str, rule: str) -> str:
    v = verb(cid)
    if v in ("op", "sa"):
        return OP_RULE.get(cid.partition(":")[2], rule)
    if v == "pass":
        return "2.3.3"
    if v == "event":
        return "5.1"
    return rule


class Detailed(list):
    """A prompt's choices, each given its rule, help and cost when it is read (the list holds
    the shared undetailed Choices). A bot that reads one choice details one; the pages and
    tests that read them all get them all. Costs come from the context :func:`coster` took
    when the prompt was made, so reading later gives the same answer.

    A detailed choice is cached by the identity of the shared Choice (``frames.C``, ``once``),
    the frame kind, the rule and the identity of its cost (None, a constant or one interned by
    :func:`spend`): the cache entry holds the Choice, so no other object can take its identity
    meanwhile."""

    __slots__ = ("_k", "_rule", "_fn")

    def __init__(self, chs, k: str, rule: str, fn):
        super().__init__(chs)
        self._k, self._rule, self._fn = k, rule, fn

    def _one(self, c: Choice) -> Choice:
        fn = self._fn
        cost = fn(c) if fn is not None else None     # None, a constant or interned (spend)
        key = (id(c), self._k, self._rule, id(cost))
        hit = _CACHE.get(key)
        if hit is None or hit[0] is not c:
            if len(_CACHE) > 50_000:
                _CACHE.clear()
            hit = _CACHE[key] = (c, replace(c, rule=c.rule or _rule(c.id, self._rule),
                                            help=c.help or _help(self._k, c.id), cost=cost))
        return hit[1]

    def __getitem__(self, i):
        if type(i) is int:
            return self._one(list.__getitem__(self, i))
        if isinstance(i, slice):
            return [self._one(c) for c in list.__getitem__(self, i)]
        return self._one(list.__getitem__(self, i))

    def __iter__(self):
        one = self._one
        for c in list.__iter__(self):
            yield one(c)

    def __reversed__(self):
        one = self._one
        for c in list.__reversed__(self):
            yield one(c)

    def copy(self) -> list:
        return list(self)

    def __reduce__(self):
        return (list, (list(self),))


def detailed(st: dict, fr: dict, rule: str, chs: list) -> list:
    """``chs`` with their rule, help and cost (see the module docstring), detailed on access."""
    return Detailed(chs, fr["k"], rule, coster(st, fr))


__all__ = ["Detailed", "detailed", "cost_of", "coster", "OP_RULE", "OP_HELP", "HELP", "VERB_HELP"]
