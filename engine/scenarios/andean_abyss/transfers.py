"""1.5.2 Negotiation: voluntary transfers of Resources or Shipments between player Factions."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import ALL_FACTIONS, FACTIONS
from .frames import C, frame, pop, target
from .op_common import IDS
from .texts import FN, SN


def transfer_targets(st: dict, f: int) -> list:
    """1.5.2: a player Faction may give Resources or Shipments during its own execution, to a
    Faction not run by the same player (1.5.1)."""
    if f in st["np"] or st["opts"].get("transfers") is False:
        return []
    if not st["res"][f] and not any(x[1] == f for x in st["ship"]):
        return []
    return [g for g in ALL_FACTIONS if g != f and st["ctl"][g] != st["ctl"][f]]


def transfer_donors(st: dict, f: int, fr: dict) -> list:
    """1.5.2: during f's execution, player Factions of other seats may give to f (asked once per
    Operation; their own seat then decides what, if anything, to give)."""
    if st["opts"].get("transfers") is False or f in st["np"]:
        return []
    out = []
    for g in ALL_FACTIONS:
        if g == f or g in st["np"] or st["ctl"][g] == st["ctl"][f] or g in fr.get("asked", ()):
            continue
        if st["res"][g] or any(x[1] == g and P.guerrillas(st["pc"][x[0]], f) for x in st["ship"]):
            out.append(g)
    return out


#: ``n:<n>``: give n Resources (1.7: a Faction holds 0-99), built once
RESOURCE_CHOICES = [C(f"n:{n}", msg("{count} Resources", count=n), n=n) for n in range(100)]


@frame("give")
class Give:
    """1.5.2 Negotiation: voluntary transfer of Resources or a Shipment."""

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        if fr["to"] is None:
            chs = [C(f"to:{FACTIONS[g]}", msg("Give to {faction}", faction=FN[g])) for g in transfer_targets(st, f)]
            chs.append(C("done", msg("No transfer")))
            return (msg("{faction}: transfer to which Faction?", faction=FN[f]), "1.5.2", chs)
        g = fr["to"]
        chs = RESOURCE_CHOICES[1:st["res"][f] + 1]
        for k, x in enumerate(st["ship"]):
            if x[1] == f and P.guerrillas(st["pc"][x[0]], g):
                chs.append(C(f"ship:{k}", msg("The Shipment in {space}", space=SN[x[0]]), space=IDS[x[0]]))
        chs.append(C("done", msg("Nothing")))
        if fr.get("asked"):
            return (msg("{faction} asks {faction2} for a transfer: what do you give?", faction=FN[g], faction2=FN[f]), "1.5.2", chs)
        return (msg("{faction}: what goes to {faction2}?", faction=FN[f], faction2=FN[g]), "1.5.2", chs)

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "done":
            pop(st, fr)
            return
        f = fr["f"]
        if cid.startswith("to:"):
            fr["to"] = FACTIONS.index(target(cid))
            return
        g = fr["to"]
        if cid.startswith("n:"):
            n = int(target(cid))
            P.set_res(st, f, -n, facts, msg("transfer to {faction} (1.5.2)", faction=FN[g]))
            P.set_res(st, g, n, facts, msg("transfer from {faction} (1.5.2)", faction=FN[f]))
        else:
            x = st["ship"][int(target(cid))]
            x[1] = g
            facts.append(fact("shipment", msg("{faction} gives the Shipment in {space} to {faction2} (1.5.2)", faction=FN[f], space=SN[x[0]], faction2=FN[g]),
                              space=IDS[x[0]], owner=FACTIONS[g]))
        pop(st, fr)
