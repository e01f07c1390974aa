"""2.3.6 Ship: a paid Operation without a Special Activity may be followed by a Shipment-funded extra Special Activity."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from .board import BOARD as BD
from .board import FACTIONS
from .frames import C, frame, pop, push, target, targets
from .op_common import IDS, ship_lenders, ship_owners
from .op_targets import space_candidates
from .operation import start_op
from .state import OPS, final_event_card
from .texts import FN, OP_NAME, SN


@frame("ship")
class Ship:
    """2.3.6 Ship: remove a Shipment for an extra free Limited Operation. The Shipment is one the
    executing Faction owns (or a Faction of the same seat), or another player Faction agrees to
    remove one of its own (``ask:<faction>``, answered by that seat in frame ``shipask``); a
    Shipment held by another Faction's Guerrilla belongs to that Faction (4.5.3), so it is never
    taken without its owner's consent."""

    @staticmethod
    def distinct(st, f):
        seen, out = set(), []
        for k in ship_owners(st, f):
            key = tuple(st["ship"][k])
            if key not in seen:
                seen.add(key)
                out.append(k)
        return out

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        if fr.get("op"):
            chs = []
            for k in Ship.distinct(st, f):
                sp_, g = st["ship"][k]
                chs.append(C(f"ship:{IDS[sp_]}:{FACTIONS[g]}", msg("Remove the {faction} Shipment in {space}", faction=FN[g], space=SN[sp_]),
                             space=IDS[sp_], owner=FACTIONS[g]))
            for g in ship_lenders(st, f, fr.get("refused", ())):
                chs.append(C(f"ask:{FACTIONS[g]}", msg("Ask {faction} to remove one of its Shipments", faction=FN[g])))
            if not Ship.distinct(st, f):
                chs.append(C("noship", msg("Do not Ship")))
            return (msg("{faction}: which Shipment is removed?", faction=FN[f]), "2.3.6", chs)
        chs = [C("noship", msg("Do not Ship"))]
        if ship_owners(st, f) or ship_lenders(st, f, fr.get("refused", ())):
            for o in OPS[f]:
                if final_event_card(st) and o in ("sweep", "march"):
                    continue
                fake = {"sel": [], "free": True}
                if o in ("patrol", "march") or space_candidates(st, f, o, fake):
                    chs.append(C(f"ship:{o}", msg("Remove a Shipment: free Limited {operation}", operation=OP_NAME[o])))
        return (msg("{faction}: remove a Shipment for a free Limited Operation?", faction=FN[f]), "2.3.6", chs)

    @staticmethod
    def auto(st, fr, facts):
        """After the free Operation it ends; a Shipment lent by an asked Faction (shipask) is
        used at once; when every asked Faction refused, it ends."""
        f = fr["f"]
        if fr.get("went"):
            pop(st, fr)
        elif fr.get("lent") is not None:
            Ship.go(st, fr, facts, fr.pop("lent"))
        elif fr.get("op") and not (Ship.distinct(st, f) or ship_lenders(st, f, fr.get("refused", ()))):
            pop(st, fr)
        else:
            return False
        return True

    @staticmethod
    def act(st, fr, cid, facts):
        f = fr["f"]
        if cid == "noship":
            pop(st, fr)
            return
        if cid.startswith("ask:"):
            g = FACTIONS.index(target(cid))
            push(st, {"k": "shipask", "f": g, "to": f, "op": fr["op"]})
            return
        if not fr.get("op"):
            fr["op"] = target(cid)
            ks = Ship.distinct(st, f)
            if len(ks) != 1 or ship_lenders(st, f, fr.get("refused", ())):
                return  # 2.3.6 / 4.5.3: the owner picks which Shipment, or asks another Faction
            k = ks[0]
        else:
            sid, g = targets(cid)
            k = next(k for k in Ship.distinct(st, f)
                     if st["ship"][k][0] == BD.index[sid] and st["ship"][k][1] == FACTIONS.index(g))
        Ship.go(st, fr, facts, k)

    @staticmethod
    def go(st, fr, facts, k):
        f = fr["f"]
        s = st["ship"].pop(k)
        text = (msg("{faction} Ships: Shipment in {space} removed for a free Limited Operation", faction=FN[f],
                    space=SN[s[0]]) if s[1] == f else
                msg("{faction} Ships: Shipment in {space} removed for a free Limited Operation (removed by its owner, "
                    "{owner})", faction=FN[f], space=SN[s[0]], owner=FN[s[1]]))
        facts.append(fact("shipment", text, space=IDS[s[0]], owner=FACTIONS[s[1]]))
        st["sop"].setdefault("shipped", []).append(f)
        fr["went"] = 1
        start_op(st, f, fr["op"], lim=True, free=True, facts=facts)


@frame("shipask")
class ShipAsk:
    """2.3.6: the asked Faction's seat decides whether to remove one of its own Shipments so that
    the executing Faction gets the free Limited Operation."""

    @staticmethod
    def prompt(st, fr):
        g, f = fr["f"], fr["to"]
        seen, chs = set(), []
        for sp_, o in st["ship"]:
            if o == g and sp_ not in seen:
                seen.add(sp_)
                chs.append(C(f"ship:{IDS[sp_]}:{FACTIONS[g]}", msg("Remove your Shipment in {space}", space=SN[sp_]), space=IDS[sp_]))
        chs.append(C("refuse", msg("Refuse")))
        return (msg("{faction}: remove one of your Shipments so that {faction2} gets a free Limited {operation}?",
                    faction=FN[g], faction2=FN[f], operation=OP_NAME[fr["op"]]), "2.3.6", chs)

    @staticmethod
    def act(st, fr, cid, facts):
        pop(st, fr)
        parent = st["stack"][-1]
        if cid == "refuse":
            parent.setdefault("refused", []).append(fr["f"])
            facts.append(fact("shipment", msg("{faction} refuses to remove a Shipment for {faction2}", faction=FN[fr['f']], faction2=FN[fr['to']])))
            return
        sid = target(cid)
        parent["lent"] = next(k for k, s_ in enumerate(st["ship"]) if s_[0] == BD.index[sid] and s_[1] == fr["f"])
