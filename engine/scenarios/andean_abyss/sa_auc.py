"""4.4 AUC Special Activities: Assassinate (4.4.3); Extort and Ambush as for the FARC."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import AUC, PIECE_KEYS, POLICE
from .frames import C, frame, pop_if, target
from .op_common import IDS
from .ops_insurgent import attack_targets
from .sa_farc import TerrorSA, terror_sa_spaces
from .texts import PN, SN


def assassinate_spaces(st: dict, fr: dict) -> list:
    """4.4.2: AUC Guerrillas outnumber Police and an enemy piece is there."""
    return terror_sa_spaces(st, fr, lambda pc, i: P.guerrillas(pc, AUC) > pc[POLICE] and bool(attack_targets(st, AUC, i)))


@frame("assassinate")
class Assassinate(TerrorSA):
    """4.4.2: in up to 3 AUC Terror spaces where AUC Guerrillas outnumber Police, remove any 1 enemy piece."""

    title, verb, done_label, rule = (msg("AUC Assassinate: which Terror space?"), msg("Assassinate in {space}"),
                                     msg("Done"), "4.4.2")
    spaces = staticmethod(assassinate_spaces)

    @staticmethod
    def auto(st, fr, facts):
        """It ends on entry without a space; after each target it asks again (Done, or another space)."""
        return pop_if(st, fr, fr["ph"] == "a" and not fr["done"] and not assassinate_spaces(st, fr))

    @staticmethod
    def target_prompt(st, fr):
        pc = st["pc"][fr["i"]]
        chs = [C(f"target:{PIECE_KEYS[s]}", msg("Remove {piece}", piece=PN[s])) for s in range(12)
               if pc[s] and s not in (6, 7, 8)]
        return (msg("Assassinate: which enemy piece?"), "4.4.2", chs)

    @staticmethod
    def space_picked(st, fr, facts):
        fr["ph"] = "b"

    @staticmethod
    def target_picked(st, fr, facts, cid):
        i = fr["i"]
        before = len(st["ship"])
        P.remove(st, i, PIECE_KEYS.index(target(cid)), 1, facts, msg("Assassinate"))
        for _ in range(before - len(st["ship"])):
            if len(st["ship"]) < 4 and P.guerrillas(st["pc"][i], AUC):
                st["ship"].append([i, 2])
                facts.append(fact("shipment", msg("Commandeer: AUC takes a Shipment in {space}", space=SN[i]), space=IDS[i]))
        fr["ph"] = "a"
