"""3.1 shared by every Operation and Special Activity: the Operation frame a child belongs to, space choices, costs, and who may Ship (2.3.6)."""

from __future__ import annotations

from engine.core.messages import msg

from .board import BOARD as BD
from .board import GOVT
from .frames import C, _frozen
from .state import cap, mom
from .texts import SN

IDS = BD.ids


NAME = BD.name


def opf(st: dict, fr: dict):
    """The Operation frame a child frame belongs to (frames refer to each other by stack index)."""
    i = fr.get("opi")
    return st["stack"][i] if i is not None else None


def sp(i: int) -> str:
    return f"space:{IDS[i]}"


def sidx(cid: str) -> int:
    return BD.index[cid.split(":", 1)[1]]


_SPACE_CHOICES: dict = {}


def space_choices(ids, label) -> list:
    """``space:<id>`` choices (cached: Choice objects are immutable). ``label`` is a message
    whose template names the space as ``{space}`` (``msg("Rally in {space}")``)."""
    out = []
    key = _frozen(label)
    for i in ids:
        c = _SPACE_CHOICES.get((key, i))
        if c is None:
            c = _SPACE_CHOICES[(key, i)] = C(f"space:{IDS[i]}", msg(label["msg"], **label.get("args", {}), space=SN[i]),
                                             space=IDS[i])
        out.append(c)
    return out


# ====================================================================== costs
def op_cost(st: dict, f: int, op: str, i: int) -> int:
    """3.2 / 3.3: what Faction ``f``'s Operation ``op`` costs in space ``i``."""
    return op_cost_with(f, op, i, cap(st, 2), cap(st, 3))


def op_cost_with(f: int, op: str, i: int, cap2: str | None, cap3: str | None) -> int:
    """:func:`op_cost` given the sides of capabilities 2 (Sweep) and 3 (Assault) in force."""
    if f == GOVT:
        if op == "sweep" and cap2 == "u":
            return 1
        if op == "assault" and cap3 == "u":
            return 1
        return 3
    if op == "terror" and BD.is_loc[i]:
        return 0
    if op == "march":
        return 0 if BD.is_loc[i] else 1
    return 1


def blocked_target(st: dict, g: int) -> bool:
    """Card 42 shaded (Momentum): no Sweep or Assault may target the executing Faction."""
    return g in st.get("m42", []) and mom(st, 42)


def ship_owners(st: dict, f: int) -> list:
    """Shipments that may pay for f's free LimOp: its own, or those of Factions run by the same seat."""
    seat = st["ctl"][f]
    return [k for k, s in enumerate(st["ship"]) if st["ctl"][s[1]] == seat and s[1] not in st["np"]]


def ship_lenders(st: dict, f: int, refused=()) -> list:
    """2.3.6 'a different Faction may remove its own Shipment': player Factions of other seats
    owning a Shipment (4.5.3: the holder's Faction); Non-players never give (8.1.2)."""
    seat = st["ctl"][f]
    return sorted({s[1] for s in st["ship"] if st["ctl"][s[1]] != seat and s[1] not in st["np"]
                   and s[1] not in refused})
