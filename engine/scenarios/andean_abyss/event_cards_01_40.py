"""5.0 Events: card effects of cards 1-40 too particular for the effect script primitives."""

from __future__ import annotations

from engine.core.messages import msg

from . import pieces as P
from .board import (
    ACTIVE,
    ALL_FACTIONS,
    AUC,
    AUC_UNDERGROUND,
    CARTELS,
    CARTELS_BASE,
    FACTIONS,
    FARC,
    GOVT,
    INSURGENTS,
    PIECE_KEYS,
    POLICE,
    SLOT_OWNER,
    TROOPS,
    U,
)
from .board import BOARD as BD
from .events import IDS, SPECIAL, _actor, _transfer, _who, ev_cause, matching, pred_ok, slots
from .frames import C, frame, pop, pop_if, push_child, targets
from .op_common import sidx, space_choices
from .operation import start_op
from .ops_govt import assault_removals, assault_targets
from .ops_insurgent import aid_cut, attack_removable, terror_in
from .texts import CARD_TITLE, FN, PN, SN


# ====================================================================== special card logic
def sp_c5u(st, fr, s, facts):
    """Card 5 unshaded: 6 Police onto pipelines, then Activate 3 Guerrillas in/next to them."""
    push_child(st, fr, "c5u", f=fr["f"], left=6, used=[], act=3, ph="police", v=fr["v"])
    return True


@frame("c5u")
class C5u:
    @staticmethod
    def act_spaces(st, fr):
        near = set(fr["used"])
        for j in fr["used"]:
            near.update(P.adj(st, j))
        return [i for i in sorted(near) if any(st["pc"][i][U(g)] for g in INSURGENTS)]

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "police":
            chs = [C(f"space:{IDS[i]}", msg("Police to {space}", space=SN[i]), space=IDS[i]) for i in BD.locs if BD.pipeline[i]]
            chs.append(C("done", msg("No more Police")))
            return (msg("Occidental & Ecopetrol: place Police on pipelines ({left} left)", left=fr['left']), "card 5", chs)
        chs = []
        for i in C5u.act_spaces(st, fr):
            for g in INSURGENTS:
                if st["pc"][i][U(g)]:
                    chs.append(C(f"act:{IDS[i]}:{FACTIONS[g]}", msg("Activate a {faction} Guerrilla in {space}", faction=FN[g], space=SN[i])))
        chs.append(C("done", msg("No more")))
        return (msg("Occidental & Ecopetrol: Activate Guerrillas ({act} left)", act=fr['act']), "card 5", chs)

    @staticmethod
    def auto(st, fr, facts):
        if fr["ph"] == "police" and (fr["left"] <= 0 or not st["av"][POLICE]):
            fr["ph"] = "act"
        if fr["ph"] == "act" and (fr["act"] <= 0 or not C5u.act_spaces(st, fr)):
            pop(st, fr)
            return True
        return False

    @staticmethod
    def act(st, fr, cid, facts):
        if cid == "done":
            if fr["ph"] == "police":
                fr["ph"] = "act"
                return
            pop(st, fr)
            return
        if fr["ph"] == "police":
            i = sidx(cid)
            P.place(st, i, POLICE, 1, facts, msg("Event 5"))
            if i not in fr["used"]:
                fr["used"].append(i)
            fr["left"] -= 1
        else:
            sid, g = targets(cid)
            P.flip(st, BD.index[sid], FACTIONS.index(g), 1, True, facts, msg("Event 5"))
            fr["act"] -= 1


def sp_c16u(st, fr, s, facts):
    """Card 16 unshaded: +5 Resources to the Faction with most pieces in each Mountain Department."""
    for i in P.spaces(st):
        if not BD.mountain[i]:
            continue
        cnt = [P.fpieces(st["pc"][i], g) for g in ALL_FACTIONS]
        m = max(cnt)
        top = [g for g in ALL_FACTIONS if cnt[g] == m]
        g = top[0] if len(top) == 1 else 0
        P.set_res(st, g, 5, facts, msg("Event 16 Coffee Prices ({space})", space=SN[i]))
    return False


def sp_general_offensive(st, fr, s, facts):
    """Card 19 (and 37 unshaded): a free action in every space where the executor can act."""
    f = _actor(fr, s)
    only = s.get("only")
    spaces_ = []
    for i in P.spaces(st):
        pc = st["pc"][i]
        if f == GOVT:
            extra = P.guerrillas(pc, AUC) if s.get("auc_as_troops") else 0
            can_sweep = not BD.is_loc[i] and i not in st["zones"] and any(
                pc[U(g)] for g in INSURGENTS if only is None or g == only) and P.cubes(pc) + extra > 0
            fake = {"only": only, "extra_troops": extra, "event": True}
            can_assault = bool(assault_targets(st, i, fake)) and assault_removals(st, i, fake) > 0
            if can_sweep or can_assault:
                spaces_.append(i)
        else:
            if P.guerrillas(pc, f) and (attack_removable(st, f, i) or pc[U(f)]):
                spaces_.append(i)
    if not spaces_:
        return False
    push_child(st, fr, "genoff", f=f, left=spaces_, only=only, auc=bool(s.get("auc_as_troops")), v=fr["v"])
    return True


@frame("genoff")
class GenOff:
    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        i = fr["left"][0]
        pc = st["pc"][i]
        chs = []
        if f == GOVT:
            extra = P.guerrillas(pc, AUC) if fr["auc"] else 0
            if not BD.is_loc[i] and i not in st["zones"]:
                chs.append(C("sweep", msg("Free Sweep in place in {space}", space=SN[i])))
            fake = {"only": fr["only"], "extra_troops": extra, "event": True}
            if assault_targets(st, i, fake) and assault_removals(st, i, fake) > 0:
                chs.append(C("assault", msg("Free Assault in {space}", space=SN[i])))
        else:
            if attack_removable(st, f, i):
                chs.append(C("attack", msg("Free Attack in {space}", space=SN[i])))
            if pc[U(f)]:
                chs.append(C("terror", msg("Free Terror in {space}", space=SN[i])))
        chs.append(C("skip", msg("Nothing here")))
        return (msg("{card}: what happens in {space}?", card=CARD_TITLE[fr['v']['card']], space=SN[i]), "5.5", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, not fr["left"])

    @staticmethod
    def act(st, fr, cid, facts):
        i = fr["left"].pop(0)
        f = fr["f"]
        extra = P.guerrillas(st["pc"][i], AUC) if fr["auc"] else 0
        if cid == "sweep":
            push_child(st, fr, "sweepsp", f=GOVT, i=i, ph="move", pol=0, nomove=1, only=fr["only"], extra_troops=extra, event=True)
        elif cid == "assault":
            fake = {"only": fr["only"], "extra_troops": extra, "event": True}
            push_child(st, fr, "assaultsp", f=GOVT, i=i, left=assault_removals(st, i, fake), only=fr["only"], extra_troops=extra, event=True)
        elif cid == "attack":
            push_child(st, fr, "attacksp", f=f, i=i, ph="mode")
        elif cid == "terror":
            terror_in(st, f, i, facts)
            if f == AUC:
                fr["terror_n"] = fr.get("terror_n", 0) + 1
        if not fr["left"] and fr.get("terror_n"):
            aid_cut(st, fr["terror_n"], facts)


def sp_move_guerrillas(st, fr, s, facts):
    """Card 20 unshaded (Govt moves FARC Guerrillas), 58/59 shaded relocations, 53."""
    push_child(st, fr, "evmove", f=_actor(fr, s), s=s, left=s["n"], v=fr["v"], src=None)
    return True


@frame("evmove")
class EvMove:
    @staticmethod
    def sources(st, fr):
        ks = slots(fr["s"]["what"], fr["v"])
        return [(i, k) for i in P.spaces(st) for k in ks if st["pc"][i][k]
                and (not fr["s"].get("from") or pred_ok(st, i, fr["s"]["from"], fr["v"]))]

    @staticmethod
    def dests(st, fr):
        src = fr["src"]
        k = fr["slot"]
        g = SLOT_OWNER[k]
        cand = P.adj(st, src) if fr["s"].get("adjacent") else [j for j in P.spaces(st) if j != src]
        out = []
        for j in cand:
            if g == GOVT and j in st["zones"]:
                continue
            if j == BD.ecuador and P.fpieces(st["pc"][j], g) >= 2:
                continue
            if fr["s"].get("to") and not pred_ok(st, j, fr["s"]["to"], fr["v"]):
                continue
            out.append(j)
        return out

    @staticmethod
    def prompt(st, fr):
        if fr["src"] is None:
            chs = [C(f"from:{IDS[i]}:{PIECE_KEYS[k]}", msg("Move {piece} from {space}", piece=PN[k], space=SN[i]), space=IDS[i])
                   for i, k in EvMove.sources(st, fr)]
            chs.append(C("done", msg("No more")))
            return (msg("{card}: move pieces ({left} left)", card=CARD_TITLE[fr['v']['card']], left=fr['left']), "5.1", chs)
        return (msg("Move it where?"), "5.1", space_choices(EvMove.dests(st, fr), msg("To {space}")))

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, fr["src"] is None and not fr.get("stuck") and (fr["left"] <= 0 or not EvMove.sources(st, fr)))

    @staticmethod
    def act(st, fr, cid, facts):
        fr.pop("stuck", None)
        if cid == "done":
            pop(st, fr)
            return
        if cid.startswith("from:"):
            sid, key = targets(cid)
            fr["src"], fr["slot"] = BD.index[sid], PIECE_KEYS.index(key)
            if not EvMove.dests(st, fr):     # nowhere to go: that piece's move is spent, ask again
                fr["src"] = None
                fr["left"] -= 1
                fr["stuck"] = 1
            return
        j = sidx(cid)
        k = fr["slot"]
        P.move(st, fr["src"], j, k, 1, facts, ev_cause(fr))
        if fr["s"].get("underground") and k in ACTIVE:
            P.flip(st, j, SLOT_OWNER[k], 1, False, facts, ev_cause(fr))
        fr["src"] = None
        fr["left"] -= 1


def sp_flip_under(st, fr, s, facts):
    """Flip up to n Guerrillas of a Faction Underground, anywhere."""
    g = _who(fr["v"], s["faction"])
    n = s["n"]
    push_child(st, fr, "evpiece", f=fr["f"], mode="flip", s={"what": f"{FACTIONS[g]}_active", "n": n}, v=fr["v"], left=n)
    return True


def sp_c26s(st, fr, s, facts):
    for _ in matching(st, ["cartels_base_and_farc_g"], fr["v"]):
        _transfer(st, fr, {"src": "cartels", "dst": "farc", "n": 6}, facts)
    return False


def sp_each_attack(st, fr, s, facts):
    """Card 26 unshaded: Cartels Attack FARC in every space with both."""
    sps = [i for i in matching(st, ["cartels_g_and_farc"], fr["v"])]
    for i in reversed(sps):
        push_child(st, fr, "attacksp", f=CARTELS, i=i, ph="mode", only=1)
    return bool(sps)


def sp_c29u(st, fr, s, facts):
    i = fr["v"]["here"]
    P.flip(st, i, FARC, 99, True, facts, ev_cause(fr))
    fake = {"event": True}
    n = assault_removals(st, i, fake)
    if n > 0 and assault_targets(st, i, fake):
        push_child(st, fr, "assaultsp", f=GOVT, i=i, left=n, event=True)
        return True
    return False


def sp_ambush2(st, fr, s, facts):
    """Card 29 shaded: two free Ambushes by the chosen Faction in one space (no Activation)."""
    g = fr["v"].get("x", fr["f"])
    i = fr["v"]["here"]
    for _ in range(s.get("times", 2)):
        if not attack_removable(st, g, i):
            break
        push_child(st, fr, "attacksp", f=g, i=i, ph="remove", left=2, roll1=True)
    return True


def sp_c36(st, fr, s, facts):
    z = fr["v"].get("zone")
    if z is None:
        return False
    cands = [j for j in P.adj(st, z) if P.can_shift(st, j, 1)]
    if not cands:
        return False
    push_child(st, fr, "evpick", f=fr["f"], s={"n": 2, "where": ["adj_here", "can_shift_support"],
                                                   "then": [{"do": "shift", "n": 1}]}, v=dict(fr["v"], here=z), chosen=[])
    return True


def sp_march_then_ambush(st, fr, s, facts):
    """Card 37 shaded: free AUC March, then a free Ambush in one destination."""
    push_child(st, fr, "ev", f=fr["f"], steps=[{"do": "special", "fn": "ambush_in_dests"}], pc=0, v=fr["v"])
    start_op(st, AUC, "march", lim=False, free=True, facts=facts, auto=fr.get("auto"), no_sa=True)
    return True


def sp_ambush_in_dests(st, fr, s, facts):
    dests = st.get("last_march") or []
    cands = [i for i in dests if st["pc"][i][AUC_UNDERGROUND] and attack_removable(st, AUC, i)]
    if not cands:
        return False
    push_child(st, fr, "evpick", f=AUC, s={"n": 1, "where": [], "then": [
        {"do": "special", "fn": "ambush_here"}], "upto": True}, v=dict(fr["v"], only=cands), chosen=[], only=cands)
    return True


def sp_ambush_here(st, fr, s, facts):
    i = fr["v"]["here"]
    if st["pc"][i][AUC_UNDERGROUND]:
        P.flip(st, i, AUC, 1, True, facts, msg("Ambush (Event)"))
    push_child(st, fr, "attacksp", f=AUC, i=i, ph="remove", left=2, roll1=True)
    return True


def sp_c40s(st, fr, s, facts):
    """Card 40 shaded: move all cubes in the Department to Cities (each cube to any City, the
    executor's choice), then AUC pieces into 2 Cities."""
    push_child(st, fr, "evpick", f=fr["f"], s={"n": 2, "where": ["city"], "then": [
        {"do": "place", "what": "auc_piece", "n": 1}]}, v=fr["v"], chosen=[])
    push_child(st, fr, "c40cube", f=fr["f"], i=fr["v"]["here"], why=ev_cause(fr))
    return True


@frame("c40cube")
class C40Cube:
    """Card 40 shaded: the executor sends each cube of the Department to a City of its choice."""

    @staticmethod
    def slot(st, fr):
        pc = st["pc"][fr["i"]]
        return 0 if pc[TROOPS] else 1 if pc[POLICE] else None

    @staticmethod
    def prompt(st, fr):
        what = PN[C40Cube.slot(st, fr)]
        cities = [j for j in BD.cities if j not in st["zones"]]
        return (msg("Card 40: move 1 {what} cube from {space} to which City?", what=what, space=SN[fr['i']]), "card 40",
                space_choices(cities, msg("{what} to {space}", what=what)))

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, C40Cube.slot(st, fr) is None)

    @staticmethod
    def act(st, fr, cid, facts):
        P.move(st, fr["i"], sidx(cid), C40Cube.slot(st, fr), 1, facts, fr["why"])


def sp_c30u(st, fr, s, facts):
    if not st["zones"]:
        return False
    push_child(st, fr, "evpick", f=fr["f"], s={"n": 1, "where": ["zone"], "then": [
        {"do": "unzone"}, {"do": "remove", "what": "farc_base", "n": 1, "upto": False}]}, v=fr["v"], chosen=[])
    return True


def sp_c28s(st, fr, s, facts):
    for j in P.adj(st, BD.index["cucuta"]):
        if BD.is_loc[j] and not sum(st["pc"][j]):
            P.add_sabotage(st, j, facts)
    return False


def sp_c35u(st, fr, s, facts):
    i = fr["v"]["here"]
    n = st["pc"][i][CARTELS_BASE]
    P.remove(st, i, CARTELS_BASE, n, facts, ev_cause(fr))
    P.place(st, i, POLICE, n, facts, ev_cause(fr))
    return False


SPECIAL.update({
    "c5u": sp_c5u,
    "c16u": sp_c16u,
    "general_offensive": sp_general_offensive,
    "move_guerrillas": sp_move_guerrillas,
    "flip_under": sp_flip_under,
    "c26s": sp_c26s,
    "each_attack": sp_each_attack,
    "c29u": sp_c29u,
    "ambush2": sp_ambush2,
    "c36": sp_c36,
    "march_then_ambush": sp_march_then_ambush,
    "ambush_in_dests": sp_ambush_in_dests,
    "ambush_here": sp_ambush_here,
    "c40s": sp_c40s,
    "c30u": sp_c30u,
    "c28s": sp_c28s,
    "c35u": sp_c35u,
})
