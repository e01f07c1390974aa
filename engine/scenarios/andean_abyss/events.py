"""5.0 Events: the effect scripts of the 72 cards (data/cards.json) and their simple steps."""

from __future__ import annotations

from engine.core import rng as R
from engine.core.contract import attribute, cause_die, cause_event, fact
from engine.core.messages import msg

from . import pieces as P
from .board import (
    ACTIVE,
    AUC,
    AVAIL_SLOT,
    BASES,
    CARTELS,
    CARTELS_BASE,
    FACTIONS,
    FARC,
    GOVT,
    INSURGENTS,
    PIECE_KEYS,
    SLOT_OWNER,
    UNDERGROUND,
    A,
    B,
    U,
    foreign_with,
)
from .board import BOARD as BD
from .frames import C, frame, pop, pop_if, push, push_child, targets
from .operation import start_op
from .redeploy import zone_candidates
from .state import is_np
from .texts import CARD_TEXT, CARD_TITLE, FN, PN, SIDE_NAME, SINGLE, SN, card_name

IDS, NAME = BD.ids, BD.name


# ====================================================================== predicates
def _who(vars_, key):
    if key == "exec":
        return vars_["f"]
    if key == "x":
        return vars_.get("x", vars_["f"])
    return FACTIONS.index(key)


def has(st, i, what, v):
    pc = st["pc"][i]
    return any(pc[s] for s in slots(what, v))


def slots(what: str, v: dict) -> list:
    """Piece slots matching a piece class (``farc_guerrilla``, ``cube``, ``insurgent``, ``exec_base`` ...)."""
    if what == "troops":
        return [0]
    if what == "police":
        return [1]
    if what == "cube":
        return [0, 1]
    if what == "govt_base":
        return [2]
    if what == "govt_piece":
        return [0, 1, 2]
    if what == "guerrilla":
        return [3, 4, 6, 7, 9, 10]
    if what == "active_guerrilla":
        return [4, 7, 10]
    if what == "insurgent":
        return [3, 4, 5, 6, 7, 8, 9, 10, 11]
    if what == "insurgent_base":
        return [5, 8, 11]
    if what == "any":
        return list(range(12))
    if what == "enemy_of_x":
        g = v.get("x", v["f"])
        return [k for k in range(12) if SLOT_OWNER[k] != g]
    fac, _, kind = what.partition("_")
    g = _who(v, fac)
    if g == GOVT:
        return {"guerrilla": [], "base": [2], "piece": [0, 1, 2]}.get(kind, [])
    return {"guerrilla": [U(g), A(g)], "base": [B(g)], "piece": [U(g), A(g), B(g)], "active": [A(g)],
            "underground": [U(g)]}[kind]


def _adj_econ3(st, i, v=None):
    return any(BD.is_loc[j] and BD.econ[j] == 3 for j in P.adj(st, i))


PRED = {
    "city": lambda st, i, v: BD.is_city[i],
    "dept": lambda st, i, v: BD.is_dept[i],
    "loc": lambda st, i, v: BD.is_loc[i],
    "citydept": lambda st, i, v: not BD.is_loc[i],
    "mountain": lambda st, i, v: BD.mountain[i],
    "forest": lambda st, i, v: BD.forest[i],
    "pipeline": lambda st, i, v: BD.pipeline[i],
    "populated": lambda st, i, v: BD.pop[i] > 0 and not BD.is_loc[i],
    "pop0": lambda st, i, v: BD.pop[i] == 0 and BD.is_dept[i],
    "coastal": lambda st, i, v: BD.coastal[i],
    "unsabotaged": lambda st, i, v: not st["sab"][i],
    "sabotaged": lambda st, i, v: bool(st["sab"][i]),
    "no_cubes": lambda st, i, v: not P.cubes(st["pc"][i]),
    "no_pieces": lambda st, i, v: not sum(st["pc"][i]),
    "not_zone": lambda st, i, v: i not in st["zones"],
    "zone": lambda st, i, v: i in st["zones"],
    "base_room": lambda st, i, v: P.can_stack_base(st, i),
    "support": lambda st, i, v: st["sup"][i] > 0,
    "opposition": lambda st, i, v: st["sup"][i] < 0,
    "neutral": lambda st, i, v: st["sup"][i] == 0 and BD.pop[i] > 0 and not BD.is_loc[i],
    "passive_opposition": lambda st, i, v: st["sup"][i] == -1,
    "not_opposition": lambda st, i, v: st["sup"][i] >= 0 and BD.pop[i] > 0 and not BD.is_loc[i],
    "neutral_or_passive_support": lambda st, i, v: st["sup"][i] in (0, 1) and BD.pop[i] > 0,
    "neutral_or_opposition": lambda st, i, v: st["sup"][i] <= 0 and BD.pop[i] > 0,
    "neutral_or_passive_opposition": lambda st, i, v: st["sup"][i] in (0, -1) and BD.pop[i] > 0,
    "can_shift_support": lambda st, i, v: P.can_shift(st, i, 1),
    "can_shift_opposition": lambda st, i, v: P.can_shift(st, i, -1),
    "adj_sabotage": lambda st, i, v: any(st["sab"][j] for j in P.adj(st, i)),
    "adj_econ3": _adj_econ3,
    "adj_here": lambda st, i, v: v.get("here") is not None and i in P.adj(st, v["here"]),
    "not_here": lambda st, i, v: i != v.get("here"),
    "venezuela": lambda st, i, v: "venezuela" in BD.borders[i],
    "ecuador_border": lambda st, i, v: "ecuador" in BD.borders[i],
    "not_bogota": lambda st, i, v: i != BD.bogota,
    "antioquia_area": lambda st, i, v: i == BD.index["antioquia"] or (
        BD.is_dept[i] and i in P.adj(st, BD.index["antioquia"])),
    "cucuta": lambda st, i, v: i == BD.index["cucuta"],
    "choco": lambda st, i, v: i == BD.index["choco"],
    "ecuador": lambda st, i, v: i == BD.ecuador,
    "panama": lambda st, i, v: i == BD.panama,
    "cubes_or_support": lambda st, i, v: P.cubes(st["pc"][i]) > 0 or st["sup"][i] > 0,
    "cubes_and_terror": lambda st, i, v: P.cubes(st["pc"][i]) > 0 and st["ter"][i] > 0,
    "has_farc_pieces": lambda st, i, v: P.fpieces(st["pc"][i], FARC) > 0,
    "auc_and_cartels": lambda st, i, v: P.fpieces(st["pc"][i], AUC) > 0 and P.fpieces(st["pc"][i], CARTELS) > 0,
    "cartels_base_and_farc_g": lambda st, i, v: st["pc"][i][CARTELS_BASE] > 0 and P.guerrillas(st["pc"][i], FARC) > 0,
    "cartels_base_and_guerrilla": lambda st, i, v: st["pc"][i][CARTELS_BASE] > 0 and P.all_guerrillas(st["pc"][i]) > 0,
    "no_cartels": lambda st, i, v: P.fpieces(st["pc"][i], CARTELS) == 0,
    "no_guerrillas": lambda st, i, v: P.all_guerrillas(st["pc"][i]) == 0,
    "cartels_g_and_farc": lambda st, i, v: P.guerrillas(st["pc"][i], CARTELS) > 0 and P.fpieces(st["pc"][i], FARC) > 0,
    "farc_adjacent_pipeline": lambda st, i, v: P.guerrillas(st["pc"][i], FARC) > 0 or any(
        P.guerrillas(st["pc"][j], FARC) for j in P.adj(st, i)),
    "ecuador_room_exec": lambda st, i, v: P.ecuador_room(st, i, v["f"]),
}


def pred_ok(st, i, where, v) -> bool:
    if not P.active_space(st, i):
        return False
    for w in where:
        if w.startswith("has:"):
            if not has(st, i, w[4:], v):
                continue_ok = False
                return continue_ok
        elif w.startswith("not_has:"):
            if has(st, i, w[8:], v):
                return False
        elif w.startswith("any:"):
            if not any(pred_ok(st, i, [x], v) for x in w[4:].split("|")):
                return False
        elif not PRED[w](st, i, v):
            return False
    return True


def matching(st, where, v, exclude=()) -> list:
    return [i for i in P.spaces(st) if i not in exclude and pred_ok(st, i, where, v)]


# ====================================================================== start / frames
#: how an Event's piece step words its choices and its question (capitalised, lower case)
PIECE_VERB = {"place": (msg("Place"), msg("place")), "remove": (msg("Remove"), msg("remove")),
              "anywhere": (msg("Remove"), msg("remove")), "flip": (msg("Flip Underground"), msg("flip Underground"))}
def start_event(st: dict, f: int, card: int, side: str, facts: list, auto=None) -> None:
    start = len(facts)
    c = BD.cards[card]
    facts.append(fact("event", msg("{faction} executes {card} ({side}): {text}", faction=FN[f], card=card_name(card),
                                   side=SIDE_NAME.get(side) if not c.get("single") else SINGLE, text=CARD_TEXT[(card, side)]),
                      faction=FACTIONS[f], card=card, side=side))
    steps = list(c[side]["effect"])
    if c.get("capability"):
        st["caps"][str(card)] = "u" if side == "unshaded" else "s"
        facts.append(fact("capability", msg("Capability {title} ({side}) now in force", title=CARD_TITLE[card], side=SIDE_NAME[side]), card=card, side=side))
    if c.get("momentum") and side == "shaded":
        st["mom"].append(card)
        if card == 42:
            st.setdefault("m42", []).append(f)
        facts.append(fact("momentum", msg("Momentum {title} in force until the next Propaganda Reset", title=CARD_TITLE[card]), card=card))
    attribute(facts, cause_event(card, side), start)
    push(st, {"k": "ev", "f": f, "steps": steps, "pc": 0, "v": {"f": f, "card": card, "side": side}, "auto": auto})


def run_steps(st, fr, facts):
    """Run steps until one needs a frame (returns) or the script ends (pops)."""
    steps = fr["steps"]
    while fr["pc"] < len(steps):
        s = steps[fr["pc"]]
        fr["pc"] += 1
        if DO[s["do"]](st, fr, s, facts):
            return  # a child frame was pushed
    pop(st, fr)


@frame("ev")
class Ev:
    """A running effect script."""

    @staticmethod
    def auto(st, fr, facts):
        start = len(facts)
        run_steps(st, fr, facts)
        v = fr["v"]
        attribute(facts, cause_event(v["card"], v.get("side", "")), start)


def child(st, fr, steps, **vars_):
    v = dict(fr["v"])
    if "here" in vars_ and fr["v"].get("here") is not None:
        v["outer"] = fr["v"]["here"]
    v.update(vars_)
    push_child(st, fr, "ev", f=fr["f"], steps=steps, pc=0, v=v)


# ====================================================================== simple steps
def _res(st, fr, s, facts):
    P.set_res(st, _who(fr["v"], s["who"]), s["n"], facts, ev_cause(fr))


def ev_cause(fr):
    c = fr["v"]["card"]
    return msg("Event {card}", card=card_name(c))


def _res_aid(st, fr, s, facts):
    P.set_res(st, GOVT, min(st["aid"], s["cap"]), facts, ev_cause(fr))


def _aid(st, fr, s, facts):
    P.set_aid(st, s["n"], facts, ev_cause(fr))


def _res_die(st, fr, s, facts):
    d = R.roll(st["rng"], 6)
    facts.append(fact("die", msg("{why}: rolled {d}", why=ev_cause(fr), d=d), value=d, barrier=True, cause=cause_die("5.1", d)))
    P.set_res(st, _who(fr["v"], s["who"]), s.get("mult", 1) * d * s.get("sign", 1), facts, ev_cause(fr))


def _aid_die(st, fr, s, facts):
    d = R.roll(st["rng"], 6)
    facts.append(fact("die", msg("{why}: rolled {d}", why=ev_cause(fr), d=d), value=d, barrier=True, cause=cause_die("5.1", d)))
    P.set_aid(st, d * s.get("sign", 1), facts, ev_cause(fr))


def _res_per(st, fr, s, facts):
    n = 0
    for i in matching(st, s["where"], fr["v"]):
        n += s["n"] * (sum(st["pc"][i][k] for k in slots(s["count"], fr["v"])) if s.get("count") else 1)
    P.set_res(st, _who(fr["v"], s["who"]), n, facts, ev_cause(fr))


def _res_econ(st, fr, s, facts):
    P.set_res(st, GOVT, s["mult"] * BD.econ[fr["v"]["here"]], facts, ev_cause(fr))


def _transfer(st, fr, s, facts):
    a, b = _who(fr["v"], s["src"]), _who(fr["v"], s["dst"])
    n = min(s["n"], st["res"][a])
    P.set_res(st, a, -n, facts, ev_cause(fr))
    P.set_res(st, b, n, facts, ev_cause(fr))


def _shift(st, fr, s, facts):
    P.shift(st, fr["v"]["here"], s["n"], facts, ev_cause(fr))


def _set(st, fr, s, facts):
    P.set_support(st, fr["v"]["here"], s["level"], facts, ev_cause(fr))


def _terror_marker(st, fr, s, facts):
    P.add_terror(st, fr["v"]["here"], facts, s.get("n", 1))


def _sabotage(st, fr, s, facts):
    P.add_sabotage(st, fr["v"]["here"], facts)


def _noop(st, fr, s, facts):
    return False


def _inel_next(st, fr, s, facts):
    for w in s["who"]:
        g = _who(fr["v"], w)
        if g not in st["inel_next"]:
            st["inel_next"].append(g)
        facts.append(fact("eligibility", msg("{faction} is Ineligible through the next card ({why})", faction=FN[g], why=ev_cause(fr))))


def _stay_elig(st, fr, s, facts):
    st["stay_elig"].append(fr["f"])
    facts.append(fact("eligibility", msg("{faction} stays Eligible ({why})", faction=FN[fr['f']], why=ev_cause(fr))))


def _activate(st, fr, s, facts):
    i = fr["v"]["here"]
    for w in s["whose"]:
        g = _who(fr["v"], w)
        P.flip(st, i, g, 99, True, facts, ev_cause(fr))


def _underground(st, fr, s, facts):
    i = fr["v"]["here"]
    for w in s["whose"]:
        P.flip(st, i, _who(fr["v"], w), 99, False, facts, ev_cause(fr))


def _foreign(st, fr, s, facts):
    now = foreign_with(st["foreign"], s["which"])
    if now != st["foreign"]:
        st["foreign"] = now
        facts.append(fact("map", msg("{space} is now a space for the rest of the game ({why})", space=SN[BD.index[s["which"]]],
                                      why=ev_cause(fr))))


def _oop(st, fr, s, facts):
    slot = slots(s["what"], fr["v"])[0]
    k = min(s["n"], st["av"][slot])
    st["av"][slot] -= k
    st["oop"][slot] += k
    if k:
        facts.append(fact("remove", msg("{count} Available {piece} removed from the game ({why})", count=k, piece=PN[slot], why=ev_cause(fr))))


def _unzone(st, fr, s, facts):
    i = fr["v"]["here"]
    if i in st["zones"]:
        st["zones"].remove(i)
        facts.append(fact("zone", msg("FARC Zone removed from {space} ({why})", space=SN[i], why=ev_cause(fr)), space=IDS[i]))


def _remove_all(st, fr, s, facts):
    i = fr["v"]["here"]
    for k in slots(s["what"], fr["v"]):
        P.remove(st, i, k, 99, facts, ev_cause(fr))


# ---------------------------------------------------------------- steps pushing frames
def _pick(st, fr, s, facts):
    push_child(st, fr, "evpick", f=_actor(fr, s), s=s, v=fr["v"], chosen=[])
    return True


def _actor(fr, s):
    return _who(fr["v"], s["actor"]) if s.get("actor") else fr["f"]


def _each(st, fr, s, facts):
    sps = matching(st, s["where"], fr["v"])
    if not sps:
        return False
    push_child(st, fr, "eveach", f=fr["f"], s=s, left=sps, v=fr["v"])
    return True


def _place(st, fr, s, facts):
    i = fr["v"]["here"]
    ks = slots(s["what"], fr["v"])
    probe = {"mode": "place", "s": s, "v": fr["v"], "f": _actor(fr, s), "auto": fr.get("auto")}
    if len(ks) == 1 and not s.get("all") and EvPiece.takes(st, probe) and not EvPiece.cands(st, probe):
        pass  # 1.4.1: none Available - let the player take its own pieces back first (below)
    elif len(ks) == 1 or s.get("all"):
        for k in ks:
            P.place(st, i, k, s["n"], facts, ev_cause(fr))
        return False
    push_child(st, fr, "evpiece", f=_actor(fr, s), mode="place", s=s, v=fr["v"], left=s["n"])
    return True


def _remove(st, fr, s, facts):
    if s.get("all"):
        _remove_all(st, fr, s, facts)
        return False
    push_child(st, fr, "evpiece", f=_actor(fr, s), mode="remove", s=s, v=fr["v"], left=s["n"])
    return True


def _remove_anywhere(st, fr, s, facts):
    push_child(st, fr, "evpiece", f=_actor(fr, s), mode="anywhere", s=s, v=fr["v"], left=s["n"])
    return True


def _choose_faction(st, fr, s, facts):
    push_child(st, fr, "evfaction", f=fr["f"], s=s, v=fr["v"])
    return True


def _zone(st, fr, s, facts):
    only = matching(st, s.get("where", ["dept"]), fr["v"])
    cands = zone_candidates(st, only)
    if not cands:
        return False
    push(st, {"k": "evzone", "f": GOVT, "cands": cands, "s": s, "v": fr["v"], "card": fr["v"]["card"],
              "auto": "np" if is_np(st, GOVT) or fr.get("auto") else None})
    return True


def _free_op(st, fr, s, facts):
    g = _who(fr["v"], s["faction"])
    extra = {k: s[k] for k in ("only", "no_activate") if k in s}
    if s.get("here"):
        extra["only_spaces"] = [fr["v"]["here"]]
    start_op(st, g, s["op"], lim=False, free=True, facts=facts, auto=fr.get("auto"), no_sa=True, **extra)
    return True


def _free_sa(st, fr, s, facts):
    push_child(st, fr, "evsa", f=0 if s["sa"] in ("airstrike", "airlift", "eradicate", "any") else fr["f"], s=s, left=s.get("times", 1), v=fr["v"])
    return True


def _special(st, fr, s, facts):
    return SPECIAL[s["fn"]](st, fr, s, facts)


DO = {"res": _res, "res_aid": _res_aid, "aid": _aid, "res_die": _res_die, "aid_die": _aid_die, "res_per": _res_per,
      "res_econ": _res_econ, "transfer": _transfer, "shift": _shift, "set": _set, "terror_marker": _terror_marker,
      "sabotage": _sabotage, "capability": _noop, "momentum": _noop, "inel_next": _inel_next,
      "stay_elig": _stay_elig, "activate": _activate, "underground": _underground, "foreign": _foreign, "oop": _oop,
      "unzone": _unzone, "pick": _pick, "each": _each, "place": _place, "remove": _remove,
      "remove_anywhere": _remove_anywhere, "choose_faction": _choose_faction, "zone": _zone, "free_op": _free_op,
      "free_sa": _free_sa, "special": _special}


@frame("evpiece")
class EvPiece:
    """Place or remove pieces one at a time (the executing Faction picks the kind / space)."""

    @staticmethod
    def cands(st, fr):
        s = fr["s"]
        ks = slots(s["what"], fr["v"])
        if fr["mode"] == "place":
            i = fr["v"]["here"]
            out = []
            for k in ks:
                ak = AVAIL_SLOT[k]
                if k in ACTIVE or not st["av"][ak]:
                    continue
                if k in BASES and not P.can_stack_base(st, i):
                    continue
                if SLOT_OWNER[k] == GOVT and i in st["zones"]:
                    continue
                if i == BD.ecuador and P.fpieces(st["pc"][i], SLOT_OWNER[k]) >= 2:
                    continue
                out.append((i, k))
            return out
        if fr["mode"] == "flip":
            return [(i, k) for i in P.spaces(st) for k in ks if st["pc"][i][k]]
        where = [fr["v"]["here"]] if fr["mode"] == "remove" else matching(st, s.get("where", []), fr["v"])
        out = []
        for i in where:
            for k in ks:
                if st["pc"][i][k]:
                    out.append((i, k))
        return out

    @staticmethod
    def takes(st, fr):
        """1.4.1: a player Faction placing its own pieces, none Available, may first take some of
        them off the map (elsewhere) to make them Available."""
        if fr["mode"] != "place" or fr.get("auto") or fr["f"] in st["np"]:
            return []
        i = fr["v"]["here"]
        out = []
        for k in slots(fr["s"]["what"], fr["v"]):
            ak = AVAIL_SLOT[k]
            owner = SLOT_OWNER[k]
            if owner != fr["f"] or st["av"][ak] or k in ACTIVE:
                continue
            if k in BASES and not P.can_stack_base(st, i):
                continue
            if SLOT_OWNER[k] == GOVT and i in st["zones"]:
                continue
            for j in P.spaces(st):
                if j == i:
                    continue
                for kk in ((ak, ak + 1) if ak in UNDERGROUND else (ak,)):
                    if st["pc"][j][kk]:
                        out.append((j, kk))
        return out

    @staticmethod
    def prompt(st, fr):
        chs = []
        verb = PIECE_VERB[fr["mode"]]
        for i, k in EvPiece.cands(st, fr):
            chs.append(C(f"{fr['mode']}:{IDS[i]}:{PIECE_KEYS[k]}", msg("{verb} {piece} in {space}", verb=verb[0], piece=PN[k], space=SN[i]),
                         space=IDS[i], piece=PIECE_KEYS[k]))
        for j, k in EvPiece.takes(st, fr):
            chs.append(C(f"take:{IDS[j]}:{PIECE_KEYS[k]}", msg("Take {piece} off {space} (Available again, 1.4.1)", piece=PN[k], space=SN[j]),
                         space=IDS[j], piece=PIECE_KEYS[k]))
        if fr["s"].get("upto", True) or not chs:
            chs.append(C("done", msg("No more")))
        return (msg("{card}: {verb} pieces ({count} left)", card=CARD_TITLE[fr["v"]["card"]], verb=verb[1],
                    count=fr["left"]), "5.1", chs)

    @staticmethod
    def auto(st, fr, facts):
        return pop_if(st, fr, not fr.get("took") and (fr["left"] <= 0 or not (EvPiece.cands(st, fr) or EvPiece.takes(st, fr))))

    @staticmethod
    def act(st, fr, cid, facts):
        fr.pop("took", None)
        if cid == "done":
            pop(st, fr)
            return
        sid, key = targets(cid)
        i, k = BD.index[sid], PIECE_KEYS.index(key)
        if cid.startswith("take:"):
            P.remove(st, i, k, 1, facts, msg("taken off the map to be placed (1.4.1)"))
            fr["took"] = 1          # 1.4.1: then place it (asked even if nothing fits now)
            return
        why = ev_cause(fr)
        again = msg("{why} (replacement)", why=why)
        if fr["mode"] == "place":
            P.place(st, i, k, 1, facts, why)
        elif fr["mode"] == "flip":
            P.flip(st, i, SLOT_OWNER[k], 1, False, facts, why)
        else:
            P.remove(st, i, k, 1, facts, why)
            rep = fr["s"].get("replace")
            if rep:
                for rk in slots(rep, fr["v"]):
                    if P.place(st, i, rk, 1, facts, again):
                        break
            if fr["s"].get("replace_other"):
                gs = [g for g in INSURGENTS if g != SLOT_OWNER[k] and st["av"][U(g)]]
                if len(gs) == 1:
                    P.place(st, i, U(gs[0]), 1, facts, again)
                elif gs:  # the executor picks whose Guerrilla replaces it (card 54)
                    push_child(st, fr, "reppick", f=fr["f"], i=i, gs=gs, why=again)
        fr["left"] -= 1


# card -> special effect function; each event_cards_* module registers its own
SPECIAL: dict = {}
