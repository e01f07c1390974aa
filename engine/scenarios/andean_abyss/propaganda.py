"""6.0 Propaganda Round: Victory (6.1), Sabotage (6.2), Resources (6.3: Earnings, Drug Profits), Support (6.4:
Civic Action, Agitation, Election, Elite Backing), Redeploy (6.5) and Reset (6.6) phases.

Each phase step adds a ``phase`` fact naming the phase and its rule with the metric deltas of its
automatic part; every fact of an automatic step carries ``cause_rule(rule, phase)``."""

from __future__ import annotations

from engine.core.contract import attribute, cause_rule, fact
from engine.core.messages import msg

from . import pieces as P
from .board import (
    ALL_FACTIONS,
    AUC,
    BASES,
    CARTELS,
    CARTELS_BASE,
    FACTIONS,
    FARC,
    FARC_BASE,
    GOVT,
    INSURGENTS,
    PASTRANA,
    SAMPER,
    URIBE,
    A,
    B,
    U,
)
from .board import BOARD as BD
from .frames import C, frame, pop, pop_if, push, push_child, resume_once, target
from .ops_govt import civic_spaces
from .ops_insurgent import rally_space_ok
from .redeploy import start_zone
from .state import cap, card_title, is_np, mom, next_card
from .texts import FN, PN, PRESIDENT_NAME, SN
from .victory import finish_game, victory_met

METRIC_TRACKS = frozenset([f"{k}_resources" for k in FACTIONS] + ["aid", "el_presidente"])
# phase key -> (rule, name): the Propaganda Round in the rulebook's order
PHASES = {
    "victory": ("6.1", msg("Victory Phase")), "sabotage": ("6.2", msg("Sabotage Phase")),
    "sabotage7": ("6.2", msg("Sabotage Phase: card 7 Capability")), "resources": ("6.3", msg("Resources Phase")),
    "drugs": ("6.3.3", msg("Drug Profits")), "civic": ("6.4.1", msg("Support Phase: Civic Action")),
    "agitate": ("6.4.2", msg("Support Phase: Agitation")), "election": ("6.4.3", msg("Support Phase: Election")),
    "elite": ("6.4.5", msg("Support Phase: Elite Backing")), "redeploy": ("6.5", msg("Redeploy Phase")),
    "reset": ("6.6", msg("Reset Phase")),
}


@frame("prop")
class Prop:
    """6.1-6.6 Propaganda Round phases; decisions are pushed as child frames."""

    @staticmethod
    def auto(st, fr, facts):
        ph = fr["ph"]
        rule, name = PHASES[ph]
        start = len(facts)
        Prop.phase(st, fr, facts)
        deltas: dict = {}
        for f in facts[start:]:     # track facts name the metric they change (farc_resources, aid ...)
            if "delta" in f and f.get("track") in METRIC_TRACKS:
                deltas[f["track"]] = deltas.get(f["track"], 0) + f["delta"]
        facts.insert(start, fact("phase", msg("{phase} ({rule})", phase=name, rule=rule), propaganda_phase=ph, rule=rule,
                                 deltas=deltas))
        attribute(facts, cause_rule(rule, name), start)

    @staticmethod
    def phase(st, fr, facts):
        """One phase's automatic part (decisions are pushed as child frames)."""
        ph = fr["ph"]
        final = st["props_done"] >= st["props_total"]
        if ph == "victory":
            fr["ph"] = "sabotage"
            if st["skip_victory_once"]:
                st["skip_victory_once"] = False
                facts.append(fact("propaganda", msg("Quick-Play: the first Victory Phase is skipped")))
            else:
                met = victory_met(st)
                ends = False
                seats = {}
                for f in ALL_FACTIONS:
                    s = st["ctl"][f] if f not in st["np"] else f"np{f}"
                    seats.setdefault(s, []).append(met[f])
                ends = any(all(v) for v in seats.values())
                if len(st["np"]) == 3:  # 8.9: the solo player never wins during Propaganda
                    ends = any(met[f] for f in st["np"])
                m = P.margins(st)  # 7.3 margins as they stand at the check (Playbook tutorial figures)
                facts.append(fact("propaganda", msg("Victory Phase (6.1): {conditions}", conditions=[
                    msg("{faction} meets its condition ({margin})", faction=FN[f], margin=f"{m[f]:+d}") if met[f] else
                    msg("{faction} does not meet its condition ({margin})", faction=FN[f], margin=f"{m[f]:+d}")
                    for f in ALL_FACTIONS]), phase="victory", margins={FACTIONS[f]: m[f] for f in ALL_FACTIONS}))
                if ends:
                    finish_game(st, facts, msg("victory check (7.2)"), winner_check=True)
                    return
            return
        if ph == "sabotage":
            fr["ph"] = "sabotage7"
            for i in BD.locs:
                if st["sab"][i]:
                    continue
                pc = st["pc"][i]
                g, c = P.all_guerrillas(pc), P.cubes(pc)
                farc_city = any(BD.is_city[j] and P.control(st, j) == "farc" for j in P.adj(st, i))
                if g > c or farc_city or (cap(st, 7) == "s" and g >= 1 and g == c):
                    if P.add_sabotage(st, i, facts):
                        facts[-1]["why"] = msg("Sabotage Phase 6.2")
            return
        if ph == "sabotage7":
            fr["ph"] = "resources"
            if cap(st, 7) == "u" and (sum(st["ter"]) or sum(st["sab"])):
                push(st, {"k": "seventh", "f": GOVT, "left": 3, "auto": "np" if is_np(st, GOVT) else None})
            return
        if ph == "resources":
            fr["ph"] = "drugs"
            earn = sum(BD.econ[i] for i in BD.locs if not st["sab"][i])
            if st["pres"] != SAMPER:
                earn += st["aid"]
            P.set_res(st, GOVT, earn, facts, msg("Government Earnings 6.3.1 (Samper: no Aid)") if st["pres"] == SAMPER
                      else msg("Government Earnings 6.3.1"))
            for f in (FARC, AUC):
                P.set_res(st, f, P.count_on_map(st, B(f)), facts, msg("Insurgent Earnings 6.3.2"))
            mult = 4 if mom(st, 67) else 3
            P.set_res(st, CARTELS, mult * P.count_on_map(st, CARTELS_BASE), facts, msg("Cartels Earnings {mult} x Bases 6.3.2", mult=mult))
            return
        if ph == "drugs":
            for f in INSURGENTS:
                if any(s[1] == f for s in st["ship"]):
                    push(st, {"k": "drugs", "f": f, "auto": "np" if is_np(st, f) else None})
                    return
            fr["ph"] = "civic"
            return
        if ph == "civic":
            fr["ph"] = "agitate"
            if civic_spaces(st) and st["res"][GOVT] >= 3:
                push(st, {"k": "civic", "f": GOVT, "phase": True, "auto": "np" if is_np(st, GOVT) else None, "one_cube": 0})
            return
        if ph == "agitate":
            fr["ph"] = "election"
            if agitate_spaces(st) and st["res"][FARC] >= 1:
                push(st, {"k": "agitate", "f": FARC, "extra": 3 if mom(st, 22) else 0, "done": [],
                          "auto": "np" if is_np(st, FARC) else None})
            return
        if ph == "election":
            fr["ph"] = "elite"
            ts = P.total_support(st)
            if st["pres"] < URIBE and ts <= 60:
                st["pres"] += 1
                names = (PRESIDENT_NAME["samper"], PRESIDENT_NAME["pastrana"], PRESIDENT_NAME["uribe"])
                facts.append(fact("track", msg("Election (6.4.3): Total Support {total} <= 60, El Presidente is now "
                                               "{president}", total=ts, president=names[st["pres"]]),
                                  track="el_presidente", delta=1, value=st["pres"], why=msg("Election 6.4.3")))
                if st["pres"] == PASTRANA:
                    start_zone(st, facts, None, msg("Election: Pastrana places a FARC Zone (6.4.3)"))
                elif st["pres"] == URIBE:
                    for z in list(st["zones"]):
                        st["zones"].remove(z)
                        facts.append(fact("zone", msg("Uribe: FARC Zone removed from {space}", space=SN[z]), space=BD.ids[z]))
            return
        if ph == "elite":
            fr["ph"] = "redeploy"
            cands = [i for i in P.spaces(st) if not BD.is_loc[i] and st["sup"][i] >= 0 and P.control(st, i) == ""
                     and rally_space_ok(st, AUC, i, elite=True)]
            if cands:
                push(st, {"k": "elite", "f": AUC, "auto": "np" if is_np(st, AUC) else None})
            return
        if ph == "redeploy":
            fr["ph"] = "reset"
            if final:
                return
            push(st, {"k": "redeploy", "f": GOVT, "auto": "np" if is_np(st, GOVT) else None, "ph": "must"})
            return
        if ph == "reset":
            pop(st, fr)
            if final:
                finish_game(st, facts, msg("final Propaganda Round completed (7.3)"))
                return
            st["elig"] = [True] * 4
            st["ter"] = [0] * BD.n
            st["sab"] = [0] * BD.n
            if st["mom"]:
                facts.append(fact("momentum", msg("Momentum ends: {cards}", cards=[card_title(c) for c in st["mom"]])))
            st["mom"] = []
            for pc in st["pc"]:
                for f in INSURGENTS:
                    pc[U(f)] += pc[A(f)]
                    pc[A(f)] = 0
            facts.append(fact("propaganda", msg("Reset (6.6): all Eligible, markers removed, Guerrillas Underground")))
            next_card(st, facts)
            return


@frame("deploy")
class Deploy:
    """2.1 Open Deployment: Cartels, AUC, FARC, then Government place their forces."""

    @staticmethod
    def cands(st, fr):
        f, slot = fr["f"], fr["todo"][0]
        base = slot in BASES
        out = []
        for i in P.spaces(st):
            if base and not P.can_stack_base(st, i):
                continue
            if f == FARC and not BD.is_dept[i]:
                continue
            if f == GOVT and (BD.is_loc[i] or st["pc"][i][FARC_BASE] or i in st["zones"]):
                continue
            if f == CARTELS and base:
                left = sum(1 for s_ in fr["todo"] if s_ == 11)
                if 4 - fr["pop_bases"] >= left and not (BD.is_dept[i] and BD.pop[i] > 0):
                    continue
            out.append(i)
        return out

    @staticmethod
    def prompt(st, fr):
        slot = fr["todo"][0]
        chs = [C(f"space:{BD.ids[i]}", msg("Place {piece} in {space}", piece=PN[slot], space=SN[i]), space=BD.ids[i])
               for i in Deploy.cands(st, fr)]
        return (msg("Open Deployment: where does a {piece} go ({count} pieces left)?", piece=PN[slot],
                    count=len(fr["todo"])), "2.1", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, not fr["todo"])

    @staticmethod
    def act(st, fr, cid, facts):
        i = BD.index[target(cid)]
        slot = fr["todo"].pop(0)
        P.place(st, i, slot, 1, facts, msg("Open Deployment 2.1"))
        if slot == CARTELS_BASE and BD.is_dept[i] and BD.pop[i] > 0:
            fr["pop_bases"] += 1


def agitate_spaces(st: dict, extra: bool = False) -> list:
    out = []
    for i in P.spaces(st):
        if BD.pop[i] <= 0 or BD.is_loc[i]:
            continue
        if st["sup"][i] == -2 and not st["ter"][i]:
            continue
        c = P.control(st, i)
        if c == "farc" or (extra and c != "govt" and P.fpieces(st["pc"][i], FARC)):
            out.append(i)
    return out


@frame("seventh")
class Seventh:
    """Card 7 unshaded: remove 1-3 Terror/Sabotage markers in the Sabotage Phase."""

    @staticmethod
    def prompt(st, fr):
        chs = [C(f"space:{BD.ids[i]}", msg("Remove a marker from {space}", space=SN[i]), space=BD.ids[i])
               for i in range(BD.n) if st["ter"][i] or st["sab"][i]]
        chs.append(C("done", msg("Done")))
        return (msg("7th Special Forces: remove Terror or Sabotage markers"), "card 7", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, fr["left"] <= 0 or not (sum(st["ter"]) or sum(st["sab"])))

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "done":
            pop(st, fr)
            return
        i = BD.index[target(cid)]
        if st["sab"][i]:
            st["sab"][i] = 0
        else:
            st["ter"][i] -= 1
        fr["left"] -= 1
        facts.append(fact("marker", msg("7th Special Forces: marker removed from {space}", space=SN[i]), space=BD.ids[i]))


@frame("drugs")
class Drugs:
    """6.3.3 Drug Profits: each Shipment gives a Base at its location or +6 Resources."""

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        s = next(x for x in st["ship"] if x[1] == f)
        i = s[0]
        chs = [C("res", msg("+6 Resources"))]
        if st["av"][B(f)] and P.can_stack_base(st, i):
            chs.insert(0, C("base", msg("Place a Base in {space}", space=SN[i]), space=BD.ids[i]))
        return (msg("{faction}: Shipment in {space} - a Base there or +6 Resources?", faction=FN[f], space=SN[i]), "6.3.3", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, not any(x[1] == fr["f"] for x in st["ship"]))

    @staticmethod
    def act(st, fr, cid, facts):
        f = fr["f"]
        s = next(x for x in st["ship"] if x[1] == f)
        st["ship"].remove(s)
        if cid == "base":
            P.place(st, s[0], B(f), 1, facts, msg("Drug Profits 6.3.3"))
        else:
            P.set_res(st, f, 6, facts, msg("Drug Profits 6.3.3"))


@frame("agitate")
class Agitate:
    """6.4.2 Agitation (with card 22 shaded: up to 3 extra spaces)."""

    @staticmethod
    def cands(st, fr):
        base = set(agitate_spaces(st))
        extra = set(agitate_spaces(st, True)) - base if fr["extra"] > 0 else set()
        return sorted(base | extra), extra

    @staticmethod
    def prompt(st, fr):
        cands, extra = Agitate.cands(st, fr)
        chs = [C(f"space:{BD.ids[i]}", msg("Agitate in {space} (1 Resource)", space=SN[i]), space=BD.ids[i]) for i in cands]
        chs.append(C("done", msg("Done agitating")))
        return (msg("FARC: spend 1 Resource per Terror removed or shift toward Active Opposition"), "6.4.2", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, not (st["res"][FARC] >= 1 and Agitate.cands(st, fr)[0]))

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "done":
            pop(st, fr)
            return
        i = BD.index[target(cid)]
        _, extra = Agitate.cands(st, fr)
        if i in extra and i not in fr["done"]:
            fr["extra"] -= 1
        if i not in fr["done"]:
            fr["done"].append(i)
        P.set_res(st, FARC, -1, facts, msg("Agitation 6.4.2"))
        if st["ter"][i]:
            st["ter"][i] -= 1
            facts.append(fact("marker", msg("Agitation removes a Terror marker in {space}", space=SN[i]), space=BD.ids[i]))
        else:
            P.shift(st, i, -1, facts, msg("Agitation 6.4.2"))


@frame("elite")
class Elite:
    """6.4.5 Elite Backing: AUC may free Rally in 1 space."""

    @staticmethod
    def prompt(st, fr):
        chs = [C(f"space:{BD.ids[i]}", msg("Free Rally in {space}", space=SN[i]), space=BD.ids[i]) for i in P.spaces(st)
               if not BD.is_loc[i] and st["sup"][i] >= 0 and P.control(st, i) == "" and rally_space_ok(st, AUC, i, elite=True)]
        chs.append(C("none", msg("No Elite Backing")))
        return (msg("AUC: Elite Backing - free Rally in one space without Opposition or Control?"), "6.4.5", chs)

    auto = staticmethod(resume_once)

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "none":
            pop(st, fr)
            return
        fr["went"] = 1
        i = BD.index[target(cid)]
        push_child(st, fr, "rallysp", f=AUC, i=i, free=True)
