"""6.5 Redeploy Phase: where Government forces go (6.5.1-6.5.4), and FARC Zones (6.4.4: placed by the
Election, 6.4.3, or by Events; the Government then moves its cubes out)."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import BOARD as BD
from .board import FARC, FARC_BASE, GOVT, GOVT_BASE, POLICE, TROOPS
from .frames import C, frame, once, pop, push, target, verb
from .op_common import IDS, sidx, space_choices
from .state import is_np
from .texts import PN, SN


@frame("redeploy")
class Redeploy:
    """6.5 Redeploy: Troops must leave LoCs and base-less Departments; other moves optional."""

    @staticmethod
    def must_from(st):
        return [i for i in P.spaces(st) if st["pc"][i][TROOPS] and (BD.is_loc[i] or (BD.is_dept[i] and not st["pc"][i][GOVT_BASE]))]

    @staticmethod
    def dests(st, troops: bool):
        out = []
        for i in P.spaces(st):
            if P.is_zone(st, i):
                continue
            if troops:
                if (BD.is_city[i] or st["pc"][i][GOVT_BASE]) and P.control(st, i) == "govt":
                    out.append(i)
            elif BD.is_loc[i] or P.control(st, i) == "govt":
                out.append(i)
        return out

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "must":
            src = Redeploy.must_from(st)[0]
            ds = fr["dests"]
            chs = [once(("redeploy-must", src, j), lambda src, j: C(f"space:{BD.ids[j]}", msg("1 Troops from {space} to {space2}",
                   space=SN[src], space2=SN[j]), space=BD.ids[j]), src, j) for j in ds]
            return (msg("Redeploy: move the Troops in {space} to a Govt-Controlled City or Base", space=SN[src]), "6.5.1", chs)
        if fr["ph"] == "from":
            chs = []
            for i in P.spaces(st):
                pc = st["pc"][i]
                if pc[TROOPS] and any(j != i for j in fr["tdest"]):  # 6.5.2: any other Troops
                    chs.append(once(("redeploy-troops", i), lambda i: C(f"troops:{BD.ids[i]}", msg("Move Troops from {space}",
                                                                                     space=SN[i]), space=BD.ids[i]), i))
                if pc[POLICE] and any(j != i for j in fr["pdest"]):
                    chs.append(once(("redeploy-police", i), lambda i: C(f"police:{BD.ids[i]}", msg("Move Police from {space}",
                                                                                     space=SN[i]), space=BD.ids[i]), i))
            chs.append(C("done", msg("Done redeploying")))
            return (msg("Redeploy: optionally move Troops to Govt-Controlled Cities/Bases and Police to LoCs or "
                        "Govt-Controlled spaces"),
                    "6.5.2", chs)
        src = fr["src"]
        ds = fr["tdest"] if fr["slot"] == TROOPS else fr["pdest"]
        chs = [once(("redeploy-to", j), lambda j: C(f"space:{BD.ids[j]}", msg("To {space}", space=SN[j]), space=BD.ids[j]), j)
               for j in ds if j != src]
        return (msg("Redeploy: where does the cube from {space} go?", space=SN[src]), "6.5", chs)

    @staticmethod
    def auto(st, fr, facts):
        """On entry, the destinations (control is judged before any movement, 6.5); the
        optional moves once no Troops must leave."""
        if "dests" not in fr:
            fr["dests"] = Redeploy.dests(st, True) or [BD.bogota]
            fr["tdest"] = Redeploy.dests(st, True)
            fr["pdest"] = Redeploy.dests(st, False)
        if fr["ph"] == "must" and not Redeploy.must_from(st):
            fr["ph"] = "from"
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        if fr["ph"] == "must":
            src = Redeploy.must_from(st)[0]
            j = BD.index[target(cid)]
            P.move(st, src, j, TROOPS, 1, facts, msg("Redeploy 6.5.1"))
            return
        if fr["ph"] == "from":
            if cid == "done":
                pop(st, fr)
                return
            kind, sid = verb(cid), target(cid)
            fr["src"] = BD.index[sid]
            fr["slot"] = TROOPS if kind == "troops" else POLICE
            fr["ph"] = "to"
            fr["n"] = fr.get("n", 0) + 1
            return
        j = BD.index[target(cid)]
        P.move(st, fr["src"], j, fr["slot"], 1, facts, msg("Redeploy 6.5"))
        if fr["slot"] == POLICE:      # Police arrivals, so a Police moves once (8.8.9; read by the bots)
            fr.setdefault("parr", {})[str(j)] = fr.get("parr", {}).get(str(j), 0) + 1
        fr["ph"] = "from"
        if fr["n"] >= 60:
            pop(st, fr)


# ====================================================================== 6.4.4 FARC Zones
def zone_candidates(st: dict, only=None) -> list:
    cands = [i for i in P.spaces(st) if BD.is_dept[i] and i not in st["zones"] and (only is None or i in only)]
    if not cands:
        return []
    best = max(P.fpieces(st["pc"][i], FARC) for i in cands)
    return [i for i in cands if P.fpieces(st["pc"][i], FARC) == best]


def start_zone(st: dict, facts: list, only, why: str, then_base: bool = False) -> None:
    cands = zone_candidates(st, only)
    if not cands:
        return
    push(st, {"k": "zone", "f": GOVT, "cands": cands, "why": why, "base": then_base,
              "auto": "np" if is_np(st, GOVT) else None})


def place_zone(st: dict, i: int, facts: list, why: str) -> None:
    st["zones"].append(i)
    facts.append(fact("zone", msg("FARC Zone placed in {space} ({why})", space=SN[i], why=why), space=IDS[i]))
    pc = st["pc"][i]
    if pc[TROOPS] or pc[POLICE]:
        # 6.4.4: the Government Redeploys the cubes (6.5 destinations); Control is judged now
        td = [j for j in Redeploy.dests(st, True) if j != i] or [BD.bogota]
        pd = [j for j in Redeploy.dests(st, False) if j != i]
        push(st, {"k": "zoneout", "f": GOVT, "i": i, "td": td, "pd": pd, "auto": "np" if is_np(st, GOVT) else None})
    P.remove(st, i, GOVT_BASE, 2, facts, msg("no Government Bases in a FARC Zone 6.4.4"))


@frame("zoneout")
class ZoneOut:
    """6.4.4: the Government Redeploys (6.5) each cube out of the new FARC Zone: Troops to a
    Govt-Controlled City or Govt Base space (else Bogota), Police to a LoC or Govt-Controlled space."""

    @staticmethod
    def slot(st, fr):
        pc = st["pc"][fr["i"]]
        return 0 if pc[TROOPS] else 1 if pc[POLICE] else None

    @staticmethod
    def prompt(st, fr):
        slot = ZoneOut.slot(st, fr)
        what = PN[slot]
        ds = fr["td"] if slot == TROOPS else fr["pd"]
        return (msg("Government: Redeploy 1 {what} cube out of the FARC Zone in {space}: to where?", what=what, space=SN[fr['i']]),
                "6.4.4", space_choices(ds, msg("{what} to {space}", what=what)))

    @staticmethod
    def auto(st, fr, facts):
        slot = ZoneOut.slot(st, fr)
        if slot is None:
            pop(st, fr)
            return True
        ds = fr["td"] if slot == TROOPS else fr["pd"]
        if len(ds) <= 1:  # a single destination (or none: Police are removed to Available)
            n = st["pc"][fr["i"]][slot]
            if ds:
                P.move(st, fr["i"], ds[0], slot, n, facts, msg("Redeploy out of the FARC Zone 6.4.4"))
            else:
                P.remove(st, fr["i"], slot, n, facts, msg("no space to Redeploy to (6.4.4)"))
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        P.move(st, fr["i"], sidx(cid), ZoneOut.slot(st, fr), 1, facts, msg("Redeploy out of the FARC Zone 6.4.4"))


@frame("zone")
class Zone:
    """6.4.4: the Government picks the Department (most FARC pieces) for a FARC Zone."""

    @staticmethod
    def prompt(st, fr):
        return (msg("Government: place the FARC Zone in which Department?"), "6.4.4",
                space_choices(fr["cands"], msg("FARC Zone in {space}")))

    @staticmethod
    def auto(st, fr, facts):
        if len(fr["cands"]) != 1:
            return False
        Zone.do(st, fr, fr["cands"][0], facts)
        return True

    @staticmethod
    def act(st, fr, cid, facts):
        Zone.do(st, fr, sidx(cid), facts)

    @staticmethod
    def do(st, fr, i, facts):
        place_zone(st, i, facts, fr["why"])
        if fr.get("base"):
            P.place(st, i, FARC_BASE, 1, facts, fr["why"])
        pop(st, fr)
        fr["zone"] = i
        st.setdefault("last_zone", None)
        st["last_zone"] = i
