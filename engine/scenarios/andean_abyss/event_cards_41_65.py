"""5.0 Events: card effects of cards 41-65 too particular for the effect script primitives."""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg

from . import pieces as P
from .board import (
    AUC,
    AUC_ACTIVE,
    AUC_BASE,
    AUC_UNDERGROUND,
    CARTELS,
    CARTELS_ACTIVE,
    CARTELS_BASE,
    CARTELS_GUERRILLAS,
    CARTELS_UNDERGROUND,
    FACTIONS,
    FARC_BASE,
    GOVT,
    INSURGENT_BASES,
    INSURGENTS,
    POLICE,
)
from .board import BOARD as BD
from .event_cards_01_40 import sp_flip_under, sp_move_guerrillas
from .events import IDS, SPECIAL, _res_die, ev_cause
from .frames import C, frame, pop, pop_if, push_child, resume_once, target, targets
from .ops_govt import assault_removals, assault_remove_one, assault_targets
from .ops_insurgent import aid_cut, terror_in
from .texts import FN, SN


def sp_c45s(st, fr, s, facts):
    n = sum(1 for i in P.spaces(st) if P.fpieces(st["pc"][i], AUC))
    P.set_aid(st, -n, facts, ev_cause(fr))
    _res_die(st, fr, {"who": "govt", "sign": -1}, facts)
    return False


def sp_c46(st, fr, s, facts):
    """Card 46: Terror by any Guerrilla with 2 markers, remove 2 enemy pieces, set Passive Support/Opposition."""
    g = fr["v"].get("x", fr["f"])
    i = fr["v"]["here"]
    terror_in(st, g, i, facts, any_g=True, markers=2)
    if g == AUC:
        aid_cut(st, 1, facts)
    steps = [{"do": "remove", "what": "enemy_of_x", "n": 2, "upto": False}]
    if BD.pop[i] > 0:
        steps.append({"do": "special", "fn": "passive_choice"})
    push_child(st, fr, "ev", f=fr["f"], steps=steps, pc=0, v=fr["v"])
    return True


def sp_passive_choice(st, fr, s, facts):
    push_child(st, fr, "evlevel", f=fr["f"], v=fr["v"])
    return True


@frame("evlevel")
class EvLevel:
    @staticmethod
    def prompt(st, fr):
        return (msg("Set the space to Passive Support or Passive Opposition?"), "card 46",
                [C("level:1", msg("Passive Support")), C("level:-1", msg("Passive Opposition"))])

    @staticmethod
    def act(st, fr, cid, facts):
        P.set_support(st, fr["v"]["here"], int(target(cid)), facts, msg("Event 46 Limpieza"))
        pop(st, fr)


def sp_c47u(st, fr, s, facts):
    for i in P.spaces(st):
        P.flip(st, i, AUC, 99, True, facts, ev_cause(fr))
    for i in P.spaces(st):
        pc = st["pc"][i]
        if pc[POLICE] and (pc[AUC_ACTIVE] or (pc[AUC_BASE] and not pc[AUC_UNDERGROUND])):
            fake = {"police_as_troops": True, "only": 2, "event": True}
            n = assault_removals(st, i, fake)
            while n > 0 and assault_targets(st, i, fake):
                assault_remove_one(st, i, AUC, facts)
                n -= 1
    return False


def sp_c47s(st, fr, s, facts):
    i = BD.index["cucuta"]
    P.place(st, i, AUC_UNDERGROUND, 2, facts, ev_cause(fr))
    if st["pc"][i][AUC_UNDERGROUND]:
        terror_in(st, AUC, i, facts)
        aid_cut(st, 1, facts)
    return sp_flip_under(st, fr, {"faction": "auc", "n": 2}, facts)


def sp_c48u(st, fr, s, facts):
    """Card 48 unshaded: remove the Opposition (Neutral) or 1 FARC Base, executor's choice."""
    i = fr["v"]["here"]
    opts = []
    if st["sup"][i] < 0:
        opts.append(["neutral", msg("Remove the Opposition (Neutral)"), [{"do": "set", "level": 0}]])
    if st["pc"][i][FARC_BASE]:
        opts.append(["base", msg("Remove a FARC Base"), [{"do": "remove", "what": "farc_base", "n": 1, "upto": False}]])
    if not opts:
        return False
    push_child(st, fr, "evchoice", f=fr["f"], v=fr["v"], opts=opts)
    return True


def sp_c51u(st, fr, s, facts):
    n = 0
    for i in BD.locs:
        if BD.pipeline[i] and st["sab"][i]:
            st["sab"][i] = 0
            n += 1
            facts.append(fact("marker", msg("Sabotage removed from {space} ({why})", space=SN[i], why=ev_cause(fr)), space=IDS[i]))
    if not n:
        P.set_res(st, GOVT, 12, facts, ev_cause(fr))
    return False


def sp_c53(st, fr, s, facts):
    g = fr["v"].get("x", fr["f"])
    push_child(st, fr, "evmove", f=fr["f"], s={"what": f"{FACTIONS[g]}_guerrilla", "n": 2, "from": ["dept"],
                                                  "to": ["dept"], "underground": True}, left=2, v=fr["v"], src=None)
    return True


def sp_c54(st, fr, s, facts):
    """Card 54: remove up to 2 Guerrillas, or instead replace them (the executor's choice)."""
    push_child(st, fr, "evchoice", f=fr["f"], v=fr["v"], opts=[
        ["replace", msg("Replace up to 2 Guerrillas with other Factions' Available Guerrillas"),
         [{"do": "special", "fn": "c54_go", "rep": True}]],
        ["remove", msg("Remove up to 2 Guerrillas"), [{"do": "special", "fn": "c54_go", "rep": False}]]])
    return True


def sp_c54_go(st, fr, s, facts):
    push_child(st, fr, "evpiece", f=fr["f"], mode="anywhere", s={"what": "guerrilla", "n": 2, "where": [],
                                                                       "replace_other": s["rep"]}, v=fr["v"], left=2)
    return True


def sp_c55u(st, fr, s, facts):
    """Card 55 unshaded: the executor removes 2 Shipments of its choice (all when 2 or fewer)."""
    if len(st["ship"]) <= 2:
        for sh in list(st["ship"]):
            st["ship"].remove(sh)
            facts.append(fact("shipment", msg("Shipment in {space} removed ({why})", space=SN[sh[0]], why=ev_cause(fr)), space=IDS[sh[0]]))
        return False
    push_child(st, fr, "c55ship", f=fr["f"], left=2, why=ev_cause(fr))
    return True


@frame("c55ship")
class C55Ship:
    """Card 55 unshaded: which Shipments are removed (``ship:<space>:<owner>``)."""

    @staticmethod
    def prompt(st, fr):
        seen, chs = set(), []
        for sp_, g in st["ship"]:
            if (sp_, g) not in seen:
                seen.add((sp_, g))
                chs.append(C(f"ship:{IDS[sp_]}:{FACTIONS[g]}", msg("Remove the {faction} Shipment in {space}", faction=FN[g], space=SN[sp_]),
                             space=IDS[sp_], owner=FACTIONS[g]))
        return (msg("Card 55: remove a Shipment ({left} left)", left=fr['left']), "card 55", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, fr["left"] <= 0 or not st["ship"])

    @staticmethod
    def act(st, fr, cid, facts):
        sid, g = targets(cid)
        i, g = BD.index[sid], FACTIONS.index(g)
        for sh in st["ship"]:
            if sh[0] == i and sh[1] == g:
                st["ship"].remove(sh)
                break
        facts.append(fact("shipment", msg("Shipment in {space} removed ({why})", space=SN[i], why=fr['why']), space=IDS[i]))
        fr["left"] -= 1


def sp_c56s(st, fr, s, facts):
    n = sum(P.fpieces(st["pc"][i], CARTELS) for i in BD.cities)
    P.set_res(st, CARTELS, 2 * n, facts, ev_cause(fr))
    return False


def sp_c58u(st, fr, s, facts):
    for i in P.spaces(st):
        P.remove(st, i, CARTELS_UNDERGROUND, 99, facts, ev_cause(fr))
        P.remove(st, i, CARTELS_ACTIVE, 99, facts, ev_cause(fr))
    return False


def sp_c59u(st, fr, s, facts):
    for i in P.spaces(st):
        P.flip(st, i, CARTELS, 99, True, facts, ev_cause(fr))
    for i in P.spaces(st):
        fake = {"only": 3, "event": True}
        n = assault_removals(st, i, fake)
        while n > 0 and assault_targets(st, i, fake):
            assault_remove_one(st, i, CARTELS, facts)
            n -= 1
    return False


def sp_c59s(st, fr, s, facts):
    for i in P.spaces(st):
        P.flip(st, i, CARTELS, 99, False, facts, ev_cause(fr))
    return sp_move_guerrillas(st, fr, {"what": "cartels_guerrilla", "n": 3, "actor": "cartels"}, facts)


def sp_c60u(st, fr, s, facts):
    push_child(st, fr, "evchoice", f=fr["f"], v=fr["v"], opts=[
        ["cities", msg("Remove all Cartels pieces from 2 Cities"),
         [{"do": "pick", "n": 2, "where": ["city", "has:cartels_piece"], "then": [
             {"do": "remove", "what": "cartels_piece", "all": True}]}]],
        ["dept", msg("Remove all Cartels pieces from 1 Department"),
         [{"do": "pick", "n": 1, "where": ["dept", "has:cartels_piece"], "then": [
             {"do": "remove", "what": "cartels_piece", "all": True}]}]]])
    return True


def sp_c60s(st, fr, s, facts):
    push_child(st, fr, "bribe", f=CARTELS, ph="a", n=0, done=[], free=True, sel=[], one=True)
    return True


@frame("evchoice")
class EvChoice:
    """A card offering alternatives: the executing Faction picks one."""

    @staticmethod
    def prompt(st, fr):
        return (msg("Which alternative?"), "5.1", [C(f"alt:{o[0]}", o[1]) for o in fr["opts"]])

    auto = staticmethod(resume_once)

    @staticmethod
    def act(st, fr, cid, facts):
        fr["went"] = 1
        alt = next(o for o in fr["opts"] if o[0] == target(cid))
        push_child(st, fr, "ev", f=fr["f"], steps=alt[2], pc=0, v=fr["v"])


def sp_c63(st, fr, s, facts):
    n = 0
    for i in P.spaces(st):
        pc = st["pc"][i]
        g = P.guerrillas(pc, CARTELS)
        if g:
            k = min(g - 1, pc[CARTELS_ACTIVE])
            P.remove(st, i, CARTELS_ACTIVE, k, facts, ev_cause(fr))
            P.remove(st, i, CARTELS_UNDERGROUND, g - 1 - k, facts, ev_cause(fr))
            terror_in(st, CARTELS, i, facts)
            n += 1
    return False


def sp_c64u(st, fr, s, facts):
    push_child(st, fr, "evpick", f=fr["f"], s={"n": 2, "where": ["cartels_base_and_farc_g"], "then": [
        {"do": "special", "fn": "ship_farc"}], "repeat": True}, v=fr["v"], chosen=[])
    return True


def sp_ship_farc(st, fr, s, facts):
    i = fr["v"]["here"]
    if len(st["ship"]) < 4:
        st["ship"].append([i, 1])
        facts.append(fact("shipment", msg("Shipment placed with FARC in {space} ({why})", space=SN[i], why=ev_cause(fr)), space=IDS[i]))
    return False


def sp_c65(st, fr, s, facts):
    i = fr["v"]["here"]
    opts = []
    if len(st["ship"]) < 4 and P.all_guerrillas(st["pc"][i]):
        opts.append(["ship+", "Place a Shipment here", [{"do": "special", "fn": "ship_any"}]])
    if any(x[0] == i for x in st["ship"]):
        opts.append(["ship-", "Remove a Shipment here", [{"do": "special", "fn": "unship_here"}]])
    steps2 = [{"do": "special", "fn": "c65_base"}]
    if opts:
        push_child(st, fr, "ev", f=fr["f"], steps=steps2, pc=0, v=fr["v"])
        push_child(st, fr, "evchoice", f=fr["f"], v=fr["v"], opts=opts)
        return True
    return sp_c65_base(st, fr, s, facts)


def sp_c65_base(st, fr, s, facts):
    i = fr["v"]["here"]
    opts = []
    if P.can_stack_base(st, i):
        opts.append(["base+", "Place an Insurgent Base here",
                     [{"do": "place", "what": "insurgent_base", "n": 1, "upto": False}]])
    if any(st["pc"][i][k] for k in INSURGENT_BASES):
        opts.append(["base-", "Remove an Insurgent Base here", [{"do": "remove", "what": "insurgent_base", "n": 1,
                                                                  "upto": False}]])
    if not opts:
        return False
    push_child(st, fr, "evchoice", f=fr["f"], v=fr["v"], opts=opts)
    return True


def sp_ship_any(st, fr, s, facts):
    i = fr["v"]["here"]
    for g in INSURGENTS:
        if P.guerrillas(st["pc"][i], g) and len(st["ship"]) < 4:
            st["ship"].append([i, g])
            facts.append(fact("shipment", msg("Shipment placed with {faction} in {space} ({why})", faction=FN[g], space=SN[i], why=ev_cause(fr))))
            break
    return False


def sp_unship_here(st, fr, s, facts):
    i = fr["v"]["here"]
    for x in st["ship"]:
        if x[0] == i:
            st["ship"].remove(x)
            facts.append(fact("shipment", msg("Shipment removed in {space} ({why})", space=SN[i], why=ev_cause(fr))))
            break
    return False


def sp_c62s(st, fr, s, facts):
    for sid in ("guainia", "vaupes", "amazonas"):
        P.place(st, BD.index[sid], CARTELS_BASE, 1, facts, ev_cause(fr))
    return False


def sp_c57s(st, fr, s, facts):
    """Card 57 shaded: the Police gives way to an Available Cartels piece, Base or Guerrilla as the
    executor chooses (asked when both fit; a Non-player takes the Base, pol_evchoice)."""
    i = fr["v"]["here"]
    P.remove(st, i, POLICE, 1, facts, ev_cause(fr))
    pc = st["pc"][i]
    room = i != BD.ecuador or P.fpieces(pc, CARTELS) < 2          # 1.3.5 Ecuador: 2 pieces a Faction
    opts = []
    if room and st["av"][CARTELS_BASE] and not BD.is_loc[i] and P.bases(pc) < 2:   # 1.4.2: 2 Bases a space
        opts.append(["base", msg("A Cartels Base in {space}", space=SN[i]), [{"do": "special", "fn": "c57_put", "slot": 11}]])
    if room and st["av"][CARTELS_GUERRILLAS]:
        opts.append(["guerrilla", msg("A Cartels Guerrilla in {space}", space=SN[i]),
                     [{"do": "special", "fn": "c57_put", "slot": 9}]])
    if len(opts) == 2:
        push_child(st, fr, "evchoice", f=fr["f"], v=fr["v"], opts=opts)
        return True
    if opts:
        P.place(st, i, opts[0][2][0]["slot"], 1, facts, ev_cause(fr))
    return False


def sp_c57_put(st, fr, s, facts):
    P.place(st, fr["v"]["here"], s["slot"], 1, facts, ev_cause(fr))
    return False


def sp_c50s(st, fr, s, facts):
    push_child(st, fr, "evchoice", f=fr["f"], v=fr["v"], opts=[
        ["remove", msg("Remove 2 Police"), [{"do": "remove_anywhere", "what": "police", "n": 2, "upto": False}]],
        ["replace", msg("Replace 2 Police with AUC Guerrillas"),
         [{"do": "remove_anywhere", "what": "police", "n": 2, "upto": False, "replace": "auc_guerrilla"}]]])
    return True


SPECIAL.update({
    "c45s": sp_c45s,
    "c46": sp_c46,
    "passive_choice": sp_passive_choice,
    "c47u": sp_c47u,
    "c47s": sp_c47s,
    "c48u": sp_c48u,
    "c51u": sp_c51u,
    "c53": sp_c53,
    "c54": sp_c54,
    "c54_go": sp_c54_go,
    "c55u": sp_c55u,
    "c56s": sp_c56s,
    "c58u": sp_c58u,
    "c59u": sp_c59u,
    "c59s": sp_c59s,
    "c60u": sp_c60u,
    "c60s": sp_c60s,
    "c63": sp_c63,
    "c64u": sp_c64u,
    "ship_farc": sp_ship_farc,
    "c65": sp_c65,
    "c65_base": sp_c65_base,
    "ship_any": sp_ship_any,
    "unship_here": sp_unship_here,
    "c62s": sp_c62s,
    "c57s": sp_c57s,
    "c57_put": sp_c57_put,
    "c50s": sp_c50s,
})
