"""4.3 FARC Special Activities: Extort (4.3.1, also the AUC's 4.4.1), Ambush (4.3.2 via Attack), Kidnap (4.3.3)."""

from __future__ import annotations

from engine.core import rng as R
from engine.core.contract import cause_die, fact
from engine.core.messages import msg

from . import pieces as P
from .board import (
    AUC,
    AUC_BASE,
    AUC_GUERRILLAS,
    CARTELS,
    CARTELS_BASE,
    FACTIONS,
    FARC,
    PIECE_KEYS,
    POLICE,
    U,
)
from .board import BOARD as BD
from .frames import C, frame, pop, pop_if, push, target
from .op_common import IDS, op_cost, opf, sidx, space_choices
from .op_targets import space_candidates
from .ops_insurgent import terror_in
from .state import is_np
from .texts import FN, PN, SN


def extort_ok(st: dict, f: int, i: int) -> bool:
    pc = st["pc"][i]
    if not pc[U(f)]:
        return False
    mine = P.fpieces(pc, f)
    return mine > sum(pc) - mine


# ====================================================================== 4.3-4.4 Insurgent SAs
@frame("extort")
class Extort:
    """4.3.1: in spaces with an Underground Guerrilla and Control, Activate 1 for +1 Resource."""

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        ids = [i for i in P.spaces(st) if i not in fr["done"] and extort_ok(st, f, i)]
        chs = space_choices(ids, msg("Extort in {space}"))
        chs.append(C("done", msg("Done extorting")))
        return (msg("{faction} Extort", faction=FN[f]), "4.3.1", chs)

    @staticmethod
    def auto(st, fr, facts):
        f = fr["f"]
        return pop_if(st, fr, not any(i not in fr["done"] and extort_ok(st, f, i) for i in P.spaces(st)))

    @staticmethod
    def act(st, fr, cid, facts):
        f = fr["f"]
        if cid == "done":
            pop(st, fr)
            return
        i = sidx(cid)
        fr["done"].append(i)
        P.flip(st, i, f, 1, True, facts, msg("Extort"))
        P.set_res(st, f, 1, facts, msg("Extort in {space}", space=SN[i]))


def terror_spaces_now_or_later(st: dict, op: dict) -> list:
    """4.3.3 / 4.4.2: spaces that were, or will be, selected for this Terror."""
    if op.get("op") != "terror":
        return list(op["sel"])
    later = [] if (op["lim"] and op["sel"]) else space_candidates(st, op["f"], "terror", op)
    return list(op["sel"]) + later


def ensure_terror(st: dict, fr: dict, i: int, facts: list) -> None:
    """Select space i for the Terror now if the Special Activity picked it first."""
    op = opf(st, fr)
    if op is None or i in op["sel"] or op.get("op") != "terror":
        return
    op["sel"].append(i)
    if not op["free"]:
        P.set_res(st, op["f"], -op_cost(st, op["f"], "terror", i), facts, msg("Terror in {space}", space=SN[i]))
    terror_in(st, op["f"], i, facts)
    op["terror_n"] += 1


def terror_sa_spaces(st: dict, fr: dict, ok) -> list:
    """Spaces selected (now or later) for this Terror, not yet used by the Special Activity,
    where ``ok(pc, i)`` holds (4.3.3 / 4.4.2)."""
    op = opf(st, fr) or fr
    done = fr.get("done", [])
    if len(done) >= 3:      # "any of up to 3 spaces" (4.3.3, 4.4.2): after the third only Done is left
        return []
    return [i for i in terror_spaces_now_or_later(st, op) if i not in done and ok(st["pc"][i], i)]


def kidnap_spaces(st: dict, fr: dict) -> list:
    """4.3.3: FARC Guerrillas outnumber Police, in a City, on a LoC or with a Cartels Base."""
    return terror_sa_spaces(st, fr, lambda pc, i: P.guerrillas(pc, FARC) > pc[POLICE]
                            and (BD.is_city[i] or BD.is_loc[i] or bool(pc[CARTELS_BASE])))


class TerrorSA:
    """4.3.3 Kidnap / 4.4.2 Assassinate: in up to 3 spaces selected (now or later) for the Terror
    - selecting the Terror there at once if the Special Activity picks the space first - then a
    target in each space. Subclasses name the spaces, the words, and what a space's pick does."""

    title = verb = done_label = rule = ""
    spaces: staticmethod          # (st, fr) -> eligible space indexes; set by each subclass

    @classmethod
    def prompt(cls, st, fr):
        if fr["ph"] == "a":
            chs = space_choices(cls.spaces(st, fr), cls.verb)
            chs.append(C("done", cls.done_label))
            return (cls.title, cls.rule, chs)
        return cls.target_prompt(st, fr)

    @classmethod
    def auto(cls, st, fr, facts):
        """Choosing spaces (phase "a"): it ends after 3 spaces or when no space is left."""
        return pop_if(st, fr, fr["ph"] == "a" and (len(fr["done"]) >= 3 or not cls.spaces(st, fr)))

    @classmethod
    def act(cls, st, fr, cid, facts):
        if cid == "done":
            pop(st, fr)
            return
        if fr["ph"] == "a":
            i = fr["i"] = sidx(cid)
            ensure_terror(st, fr, i, facts)
            fr["done"].append(i)
            cls.space_picked(st, fr, facts)
            return
        cls.target_picked(st, fr, facts, cid)


@frame("kidnap")
class Kidnap(TerrorSA):
    """4.3.3: in up to 3 Terror spaces, take a die roll of Resources (or a Shipment) from Govt or Cartels."""

    title, verb, done_label, rule = (msg("FARC Kidnap: which Terror space?"), msg("Kidnap in {space}"),
                                     msg("Done kidnapping"), "4.3.3")
    spaces = staticmethod(kidnap_spaces)

    @staticmethod
    def target_prompt(st, fr):
        return (msg("Kidnap: target?"), "4.3.3", [C(f"target:{FACTIONS[g]}", FN[g]) for g in fr["ts"]])

    @staticmethod
    def space_picked(st, fr, facts):
        i = fr["i"]
        ts = []
        if BD.is_city[i] or BD.is_loc[i]:
            ts.append(0)
        if st["pc"][i][CARTELS_BASE]:
            ts.append(3)
        if len(ts) > 1:
            fr["ts"] = ts
            fr["ph"] = "b"
            return
        Kidnap.hit(st, fr, ts[0], facts)

    @staticmethod
    def target_picked(st, fr, facts, cid):
        Kidnap.hit(st, fr, FACTIONS.index(target(cid)), facts)

    @staticmethod
    def hit(st, fr, g, facts):
        i = fr["i"]
        fr["ph"] = "a"
        held = [s for s in st["ship"] if s[0] == i and s[1] == CARTELS]
        if g == CARTELS and held:
            held[0][1] = 1
            facts.append(fact("shipment", msg("Drug Ransom: FARC takes a Cartels Shipment in {space}", space=SN[i]), space=IDS[i]))
            return
        die = R.roll(st["rng"], 6)
        facts.append(fact("die", msg("Kidnap in {space}: rolled {die}", space=SN[i], die=die), value=die, barrier=True,
                          cause=cause_die("4.3.3", die)))
        take = min(die, st["res"][g])
        P.set_res(st, g, -take, facts, msg("Kidnap in {space}", space=SN[i]))
        P.set_res(st, FARC, take, facts, msg("Kidnap in {space}", space=SN[i]))
        if die == 6:
            opts = kidnap6_options(st, i)
            if len(opts) > 1:  # 4.3.3: AUC places the piece, so the AUC seat picks which
                push(st, {"k": "kidnap6", "f": AUC, "i": i, "auto": "np" if is_np(st, AUC) else None})
            elif opts:
                P.place(st, i, opts[0], 1, facts, msg("Kidnap roll of 6: AUC grows"))


def kidnap6_options(st: dict, i: int) -> list:
    out = [6] if st["av"][AUC_GUERRILLAS] else []
    if st["av"][AUC_BASE] and P.can_stack_base(st, i):
        out.append(8)
    return out


@frame("kidnap6")
class Kidnap6:
    """4.3.3: a Kidnap roll of 6 - AUC places 1 Available piece (Guerrilla or Base) in the space."""

    @staticmethod
    def prompt(st, fr):
        return (msg("AUC: a Kidnap roll of 6 in {space} - place which AUC piece?", space=SN[fr['i']]), "4.3.3",
                [C(f"piece:{PIECE_KEYS[k]}", msg("Place {piece}", piece=PN[k])) for k in kidnap6_options(st, fr["i"])])

    @staticmethod
    def act(st, fr, cid, facts):
        P.place(st, fr["i"], PIECE_KEYS.index(target(cid)), 1, facts, msg("Kidnap roll of 6: AUC grows"))
        pop(st, fr)
