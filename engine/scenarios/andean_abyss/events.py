"""5.0 Events: a small effect vocabulary interpreting the card scripts in data/cards.json.

A script is a list of steps (dicts with ``do``). Steps that need a decision push a frame;
the executing Faction decides (5.1) unless the card names another actor. Vocabulary:

``res`` who n · ``res_aid`` cap · ``aid`` n · ``res_die`` who mult · ``aid_die`` sign ·
``res_per`` who n where (n per matching space) · ``res_econ`` mult (in ``here``) ·
``transfer`` src dst n · ``pick`` n where then [upto, best, exact] · ``each`` where then ·
``shift`` n · ``set`` level · ``place`` what n · ``remove`` what n [all] ·
``remove_anywhere`` what n · ``activate`` whose · ``underground`` whose ·
``terror_marker`` n · ``sabotage`` · ``capability`` · ``momentum`` · ``inel_next`` who ·
``stay_elig`` · ``zone`` where base · ``unzone`` · ``foreign`` which · ``free_op`` faction op ·
``free_sa`` sa times · ``choose_faction`` among · ``oop`` what n · ``special`` fn.

``where`` is a list of predicate names (all must hold); see ``PRED``.
"""

from __future__ import annotations

from engine.core import rng as R
from engine.core.contract import fact

from . import pieces as P
from .board import BOARD as BD
from .board import FACTIONS, FNAME, PIECE_KEYS, PIECE_NAMES, A, B, U
from .frames import C, frame, pop, push, resume_once, wait
from .game import is_np
from .ops import (
    assault_removals,
    assault_targets,
    attack_removable,
    place_zone,
    sidx,
    space_choices,
    start_op,
    terror_in,
    zone_candidates,
)

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
        return [k for k in range(12) if (0 if k < 3 else k // 3) != g]
    fac, _, kind = what.partition("_")
    g = _who(v, fac)
    if g == 0:
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
    "has_farc_pieces": lambda st, i, v: P.fpieces(st["pc"][i], 1) > 0,
    "auc_and_cartels": lambda st, i, v: P.fpieces(st["pc"][i], 2) > 0 and P.fpieces(st["pc"][i], 3) > 0,
    "cartels_base_and_farc_g": lambda st, i, v: st["pc"][i][11] > 0 and P.guerrillas(st["pc"][i], 1) > 0,
    "cartels_base_and_guerrilla": lambda st, i, v: st["pc"][i][11] > 0 and P.all_guerrillas(st["pc"][i]) > 0,
    "no_cartels": lambda st, i, v: P.fpieces(st["pc"][i], 3) == 0,
    "no_guerrillas": lambda st, i, v: P.all_guerrillas(st["pc"][i]) == 0,
    "cartels_g_and_farc": lambda st, i, v: P.guerrillas(st["pc"][i], 3) > 0 and P.fpieces(st["pc"][i], 1) > 0,
    "farc_adjacent_pipeline": lambda st, i, v: P.guerrillas(st["pc"][i], 1) > 0 or any(
        P.guerrillas(st["pc"][j], 1) for j in P.adj(st, i)),
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
def start_event(st: dict, f: int, card: int, side: str, facts: list, auto=None) -> None:
    c = BD.cards[card]
    txt = c[side]["text"]
    facts.append(fact("event", f"{FNAME[f]} executes {card} {c['title']} ({'single' if c.get('single') else side}): {txt}",
                      faction=FACTIONS[f], card=card, side=side))
    steps = list(c[side]["effect"])
    if c.get("capability"):
        st["caps"][str(card)] = "u" if side == "unshaded" else "s"
        facts.append(fact("capability", f"Capability {c['title']} ({side}) now in force", card=card, side=side))
    if c.get("momentum") and side == "shaded":
        st["mom"].append(card)
        if card == 42:
            st.setdefault("m42", []).append(f)
        facts.append(fact("momentum", f"Momentum {c['title']} in force until the next Propaganda Reset", card=card))
    push(st, {"k": "ev", "f": f, "steps": steps, "pc": 0, "v": {"f": f, "card": card}, "auto": auto})


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
    def prompt(st, fr):
        return ("", "5.1", [])

    @staticmethod
    def step(st, fr, facts, cid):
        run_steps(st, fr, facts)


def child(st, fr, steps, **vars_):
    v = dict(fr["v"])
    if "here" in vars_ and fr["v"].get("here") is not None:
        v["outer"] = fr["v"]["here"]
    v.update(vars_)
    push(st, {"k": "ev", "f": fr["f"], "steps": steps, "pc": 0, "v": v, "auto": fr.get("auto")})


# ====================================================================== simple steps
def _res(st, fr, s, facts):
    P.set_res(st, _who(fr["v"], s["who"]), s["n"], facts, ev_cause(fr))


def ev_cause(fr):
    c = fr["v"]["card"]
    return f"Event {c} {BD.cards[c]['title']}"


def _res_aid(st, fr, s, facts):
    P.set_res(st, 0, min(st["aid"], s["cap"]), facts, ev_cause(fr))


def _aid(st, fr, s, facts):
    P.set_aid(st, s["n"], facts, ev_cause(fr))


def _res_die(st, fr, s, facts):
    d = R.roll(st["rng"], 6)
    facts.append(fact("die", f"{ev_cause(fr)}: rolled {d}", value=d, barrier=True))
    P.set_res(st, _who(fr["v"], s["who"]), s.get("mult", 1) * d * s.get("sign", 1), facts, ev_cause(fr))


def _aid_die(st, fr, s, facts):
    d = R.roll(st["rng"], 6)
    facts.append(fact("die", f"{ev_cause(fr)}: rolled {d}", value=d, barrier=True))
    P.set_aid(st, d * s.get("sign", 1), facts, ev_cause(fr))


def _res_per(st, fr, s, facts):
    n = 0
    for i in matching(st, s["where"], fr["v"]):
        n += s["n"] * (sum(st["pc"][i][k] for k in slots(s["count"], fr["v"])) if s.get("count") else 1)
    P.set_res(st, _who(fr["v"], s["who"]), n, facts, ev_cause(fr))


def _res_econ(st, fr, s, facts):
    P.set_res(st, 0, s["mult"] * BD.econ[fr["v"]["here"]], facts, ev_cause(fr))


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
        facts.append(fact("eligibility", f"{FNAME[g]} is Ineligible through the next card ({ev_cause(fr)})"))


def _stay_elig(st, fr, s, facts):
    st["stay_elig"].append(fr["f"])
    facts.append(fact("eligibility", f"{FNAME[fr['f']]} stays Eligible ({ev_cause(fr)})"))


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
    bit = 1 if s["which"] == "ecuador" else 2
    if not st["fm"] & bit:
        st["fm"] |= bit
        facts.append(fact("map", f"{s['which'].capitalize()} is now a space for the rest of the game ({ev_cause(fr)})"))


def _oop(st, fr, s, facts):
    slot = slots(s["what"], fr["v"])[0]
    k = min(s["n"], st["av"][slot])
    st["av"][slot] -= k
    st["oop"][slot] += k
    if k:
        facts.append(fact("remove", f"{k} Available {PIECE_NAMES[slot]} removed from the game ({ev_cause(fr)})"))


def _unzone(st, fr, s, facts):
    i = fr["v"]["here"]
    if i in st["zones"]:
        st["zones"].remove(i)
        facts.append(fact("zone", f"FARC Zone removed from {NAME[i]} ({ev_cause(fr)})", space=IDS[i]))


def _remove_all(st, fr, s, facts):
    i = fr["v"]["here"]
    for k in slots(s["what"], fr["v"]):
        P.remove(st, i, k, 99, facts, ev_cause(fr))


# ---------------------------------------------------------------- steps pushing frames
def _pick(st, fr, s, facts):
    push(st, {"k": "evpick", "f": _actor(fr, s), "s": s, "v": fr["v"], "chosen": [], "auto": fr.get("auto")})
    return True


def _actor(fr, s):
    return _who(fr["v"], s["actor"]) if s.get("actor") else fr["f"]


def _each(st, fr, s, facts):
    sps = matching(st, s["where"], fr["v"])
    if not sps:
        return False
    push(st, {"k": "eveach", "f": fr["f"], "s": s, "left": sps, "v": fr["v"], "auto": fr.get("auto")})
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
    push(st, {"k": "evpiece", "f": _actor(fr, s), "mode": "place", "s": s, "v": fr["v"], "left": s["n"],
              "auto": fr.get("auto")})
    return True


def _remove(st, fr, s, facts):
    if s.get("all"):
        _remove_all(st, fr, s, facts)
        return False
    push(st, {"k": "evpiece", "f": _actor(fr, s), "mode": "remove", "s": s, "v": fr["v"], "left": s["n"],
              "auto": fr.get("auto")})
    return True


def _remove_anywhere(st, fr, s, facts):
    push(st, {"k": "evpiece", "f": _actor(fr, s), "mode": "anywhere", "s": s, "v": fr["v"], "left": s["n"],
              "auto": fr.get("auto")})
    return True


def _choose_faction(st, fr, s, facts):
    push(st, {"k": "evfaction", "f": fr["f"], "s": s, "v": fr["v"], "auto": fr.get("auto")})
    return True


def _zone(st, fr, s, facts):
    only = matching(st, s.get("where", ["dept"]), fr["v"])
    cands = zone_candidates(st, only)
    if not cands:
        return False
    push(st, {"k": "evzone", "f": 0, "cands": cands, "s": s, "v": fr["v"], "card": fr["v"]["card"],
              "auto": "np" if is_np(st, 0) or fr.get("auto") else None})
    return True


def _free_op(st, fr, s, facts):
    g = _who(fr["v"], s["faction"])
    extra = {k: s[k] for k in ("only", "no_activate") if k in s}
    if s.get("here"):
        extra["only_spaces"] = [fr["v"]["here"]]
    start_op(st, g, s["op"], lim=False, free=True, facts=facts, auto=fr.get("auto"), no_sa=True, **extra)
    return True


def _free_sa(st, fr, s, facts):
    push(st, {"k": "evsa", "f": 0 if s["sa"] in ("airstrike", "airlift", "eradicate", "any") else fr["f"],
              "s": s, "left": s.get("times", 1), "v": fr["v"], "auto": fr.get("auto")})
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


# ====================================================================== decision frames
def pick_cands(st, fr):
    s = fr["s"]
    c = matching(st, s["where"], fr["v"], exclude=[] if s.get("repeat") else fr["chosen"])
    if fr.get("only") is not None:
        c = [i for i in c if i in fr["only"]]
    if s.get("best") == "econ" and c:
        m = max(BD.econ[i] for i in c)
        c = [i for i in c if BD.econ[i] == m]
    return c


@frame("evpick")
class EvPick:
    """Choose up to n spaces matching the card's condition; each runs the ``then`` steps."""

    @staticmethod
    def prompt(st, fr):
        s = fr["s"]
        chs = space_choices(pick_cands(st, fr), "Choose")
        if s.get("upto") or not chs:
            chs.append(C("done", "No more"))
        return (f"{BD.cards[fr['v']['card']]['title']}: {s.get('ask', 'choose a space')} "
                f"({s['n'] - len(fr['chosen'])} left)", "5.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            cands = pick_cands(st, fr)
            if len(fr["chosen"]) >= fr["s"]["n"] or not cands:
                pop(st, fr)
                return
            if len(cands) > 1 or fr["s"].get("upto"):
                wait(fr)
                return
            cid = f"space:{IDS[cands[0]]}"  # a forced selection needs no prompt
        if cid == "done":
            pop(st, fr)
            return
        i = sidx(cid)
        fr["chosen"].append(i)
        then = fr["s"].get("then", [])
        if then:
            v = dict(fr["v"])
            if v.get("here") is not None:
                v["outer"] = v["here"]
            v["here"] = i
            v["picked"] = fr["chosen"]
            push(st, {"k": "ev", "f": fr["v"]["f"], "steps": then, "pc": 0, "v": v, "auto": fr.get("auto")})


@frame("eveach")
class EvEach:
    """Apply the ``then`` steps in every matching space (listed when the step started)."""

    @staticmethod
    def prompt(st, fr):
        return ("", "5.1", [])

    @staticmethod
    def step(st, fr, facts, cid):
        if not fr["left"]:
            pop(st, fr)
            return
        i = fr["left"].pop(0)
        v = dict(fr["v"])
        v["here"] = i
        push(st, {"k": "ev", "f": fr["v"]["f"], "steps": fr["s"]["then"], "pc": 0, "v": v, "auto": fr.get("auto")})


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
                ak = k - 1 if k in (4, 7, 10) else k
                if k in (4, 7, 10) or not st["av"][ak]:
                    continue
                if k in (2, 5, 8, 11) and not P.can_stack_base(st, i):
                    continue
                if k < 3 and i in st["zones"]:
                    continue
                if i == BD.ecuador and P.fpieces(st["pc"][i], 0 if k < 3 else k // 3) >= 2:
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
            ak = k - 1 if k in (4, 7, 10) else k
            owner = 0 if k < 3 else k // 3
            if owner != fr["f"] or st["av"][ak] or k in (4, 7, 10):
                continue
            if k in (2, 5, 8, 11) and not P.can_stack_base(st, i):
                continue
            if k < 3 and i in st["zones"]:
                continue
            for j in P.spaces(st):
                if j == i:
                    continue
                for kk in ((ak, ak + 1) if ak in (3, 6, 9) else (ak,)):
                    if st["pc"][j][kk]:
                        out.append((j, kk))
        return out

    @staticmethod
    def prompt(st, fr):
        chs = []
        verb = {"place": "Place", "remove": "Remove", "anywhere": "Remove", "flip": "Flip Underground"}[fr["mode"]]
        for i, k in EvPiece.cands(st, fr):
            chs.append(C(f"{fr['mode']}:{IDS[i]}:{PIECE_KEYS[k]}", f"{verb} {PIECE_NAMES[k]} in {NAME[i]}",
                         space=IDS[i], piece=PIECE_KEYS[k]))
        for j, k in EvPiece.takes(st, fr):
            chs.append(C(f"take:{IDS[j]}:{PIECE_KEYS[k]}", f"Take {PIECE_NAMES[k]} off {NAME[j]} (Available again, 1.4.1)",
                         space=IDS[j], piece=PIECE_KEYS[k]))
        if fr["s"].get("upto", True) or not chs:
            chs.append(C("done", "No more"))
        return (f"{BD.cards[fr['v']['card']]['title']}: {verb.lower()} pieces ({fr['left']} left)", "5.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["left"] <= 0 or not (EvPiece.cands(st, fr) or EvPiece.takes(st, fr)):
                pop(st, fr)
                return
            wait(fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        _, sid, key = cid.split(":")
        i, k = BD.index[sid], PIECE_KEYS.index(key)
        if cid.startswith("take:"):
            P.remove(st, i, k, 1, facts, "taken off the map to be placed (1.4.1)")
            wait(fr)
            return
        why = f"Event {fr['v']['card']} {BD.cards[fr['v']['card']]['title']}"
        if fr["mode"] == "place":
            P.place(st, i, k, 1, facts, why)
        elif fr["mode"] == "flip":
            P.flip(st, i, k // 3, 1, False, facts, why)
        else:
            P.remove(st, i, k, 1, facts, why)
            rep = fr["s"].get("replace")
            if rep:
                for rk in slots(rep, fr["v"]):
                    if P.place(st, i, rk, 1, facts, why + " (replacement)"):
                        break
            if fr["s"].get("replace_other"):
                gs = [g for g in (1, 2, 3) if g != k // 3 and st["av"][U(g)]]
                if len(gs) == 1:
                    P.place(st, i, U(gs[0]), 1, facts, why + " (replacement)")
                elif gs:  # the executor picks whose Guerrilla replaces it (card 54)
                    push(st, {"k": "reppick", "f": fr["f"], "i": i, "gs": gs, "why": why + " (replacement)",
                              "auto": fr.get("auto")})
        fr["left"] -= 1


@frame("reppick")
class RepPick:
    """Card 54: which other Faction's Available Guerrilla replaces the removed one."""

    @staticmethod
    def prompt(st, fr):
        return (f"Replace the removed Guerrilla in {NAME[fr['i']]} with whose Guerrilla?", "card 54",
                [C(f"faction:{FACTIONS[g]}", f"{FNAME[g]} Guerrilla") for g in fr["gs"] if st["av"][U(g)]])

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            wait(fr)
            return
        P.place(st, fr["i"], U(FACTIONS.index(cid[8:])), 1, facts, fr["why"])
        pop(st, fr)


@frame("evfaction")
class EvFaction:
    """The executing Faction picks which Faction the Event affects."""

    @staticmethod
    def prompt(st, fr):
        chs = [C(f"faction:{w}", FNAME[FACTIONS.index(w)]) for w in fr["s"]["among"]]
        return (f"{BD.cards[fr['v']['card']]['title']}: which Faction?", "5.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            wait(fr)
            return
        fr["v"]["x"] = FACTIONS.index(cid[8:])
        # propagate to the parent script frame
        for f2 in reversed(st["stack"][:-1]):
            if f2["k"] == "ev":
                f2["v"]["x"] = fr["v"]["x"]
                break
        pop(st, fr)


@frame("evzone")
class EvZone:
    """6.4.4 by Event: the Government picks the Department; a FARC Base may follow."""

    @staticmethod
    def prompt(st, fr):
        return ("Government: FARC Zone in which Department?", "6.4.4", space_choices(fr["cands"], "FARC Zone in"))

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if len(fr["cands"]) == 1:
                cid = f"space:{IDS[fr['cands'][0]]}"
            else:
                wait(fr)
                return
        i = sidx(cid)
        why = f"Event {fr['card']} {BD.cards[fr['card']]['title']}"
        place_zone(st, i, facts, why)
        if fr["s"].get("base"):
            P.place(st, i, 5, 1, facts, why)
        for f2 in reversed(st["stack"][:-1]):
            if f2["k"] == "ev":
                f2["v"]["zone"] = i
                f2["v"]["here"] = i
                break
        pop(st, fr)


@frame("evsa")
class EvSa:
    """Free Special Activities granted by an Event (5.5), e.g. 3 Air Strikes."""

    @staticmethod
    def prompt(st, fr):
        from .game import mom
        from .ops import airlift_from, airstrike_spaces, eradicate_spaces
        s = fr["s"]
        chs = []
        kinds = ["airlift", "airstrike", "eradicate"] if s["sa"] == "any" else [s["sa"]]
        for k in kinds:
            ok = {"airlift": lambda: bool(airlift_from(st)),
                  "airstrike": lambda: not mom(st, 12) and bool(airstrike_spaces(st)),
                  "eradicate": lambda: bool(eradicate_spaces(st))}.get(k, lambda: False)()
            if ok:
                chs.append(C(f"sa:{k}", f"Free {k.capitalize()}"))
        chs.append(C("done", "No more"))
        return (f"Free Special Activities ({fr['left']} left)", "5.5", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["left"] <= 0:
                pop(st, fr)
                return
            wait(fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        fr["left"] -= 1
        k = cid[3:]
        push(st, {"k": k, "f": 0, "ph": "a", "n": 0, "done": [], "auto": fr.get("auto"), "sel": []})


# ====================================================================== special card logic
def sp_c5u(st, fr, s, facts):
    """Card 5 unshaded: 6 Police onto pipelines, then Activate 3 Guerrillas in/next to them."""
    push(st, {"k": "c5u", "f": fr["f"], "left": 6, "used": [], "act": 3, "ph": "police", "v": fr["v"],
              "auto": fr.get("auto")})
    return True


@frame("c5u")
class C5u:
    @staticmethod
    def act_spaces(st, fr):
        near = set(fr["used"])
        for j in fr["used"]:
            near.update(P.adj(st, j))
        return [i for i in sorted(near) if any(st["pc"][i][U(g)] for g in (1, 2, 3))]

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "police":
            chs = [C(f"space:{IDS[i]}", f"Police to {NAME[i]}", space=IDS[i]) for i in BD.locs if BD.pipeline[i]]
            chs.append(C("done", "No more Police"))
            return (f"Occidental & Ecopetrol: place Police on pipelines ({fr['left']} left)", "card 5", chs)
        chs = []
        for i in C5u.act_spaces(st, fr):
            for g in (1, 2, 3):
                if st["pc"][i][U(g)]:
                    chs.append(C(f"act:{IDS[i]}:{FACTIONS[g]}", f"Activate a {FNAME[g]} Guerrilla in {NAME[i]}"))
        chs.append(C("done", "No more"))
        return (f"Occidental & Ecopetrol: Activate Guerrillas ({fr['act']} left)", "card 5", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["ph"] == "police" and (fr["left"] <= 0 or not st["av"][1]):
                fr["ph"] = "act"
            if fr["ph"] == "act" and (fr["act"] <= 0 or not C5u.act_spaces(st, fr)):
                pop(st, fr)
                return
            wait(fr)
            return
        if cid == "done":
            if fr["ph"] == "police":
                fr["ph"] = "act"
                return C5u.step(st, fr, facts, None)
            pop(st, fr)
            return
        if fr["ph"] == "police":
            i = sidx(cid)
            P.place(st, i, 1, 1, facts, "Event 5")
            if i not in fr["used"]:
                fr["used"].append(i)
            fr["left"] -= 1
        else:
            _, sid, g = cid.split(":")
            P.flip(st, BD.index[sid], FACTIONS.index(g), 1, True, facts, "Event 5")
            fr["act"] -= 1
        return C5u.step(st, fr, facts, None)


def sp_c16u(st, fr, s, facts):
    """Card 16 unshaded: +5 Resources to the Faction with most pieces in each Mountain Department."""
    for i in P.spaces(st):
        if not BD.mountain[i]:
            continue
        cnt = [P.fpieces(st["pc"][i], g) for g in range(4)]
        m = max(cnt)
        top = [g for g in range(4) if cnt[g] == m]
        g = top[0] if len(top) == 1 else 0
        P.set_res(st, g, 5, facts, f"Event 16 Coffee Prices ({NAME[i]})")
    return False


def sp_general_offensive(st, fr, s, facts):
    """Card 19 (and 37 unshaded): a free action in every space where the executor can act."""
    f = _actor(fr, s)
    only = s.get("only")
    spaces_ = []
    for i in P.spaces(st):
        pc = st["pc"][i]
        if f == 0:
            extra = P.guerrillas(pc, 2) if s.get("auc_as_troops") else 0
            can_sweep = not BD.is_loc[i] and i not in st["zones"] and any(
                pc[U(g)] for g in (1, 2, 3) if only is None or g == only) and P.cubes(pc) + extra > 0
            fake = {"only": only, "extra_troops": extra, "event": True}
            can_assault = bool(assault_targets(st, i, fake)) and assault_removals(st, i, fake) > 0
            if can_sweep or can_assault:
                spaces_.append(i)
        else:
            if P.guerrillas(pc, f) and (attack_removable(st, f, i) or pc[U(f)]):
                spaces_.append(i)
    if not spaces_:
        return False
    push(st, {"k": "genoff", "f": f, "left": spaces_, "only": only, "auc": bool(s.get("auc_as_troops")),
              "v": fr["v"], "auto": fr.get("auto")})
    return True


@frame("genoff")
class GenOff:
    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        i = fr["left"][0]
        pc = st["pc"][i]
        chs = []
        if f == 0:
            extra = P.guerrillas(pc, 2) if fr["auc"] else 0
            if not BD.is_loc[i] and i not in st["zones"]:
                chs.append(C("sweep", f"Free Sweep in place in {NAME[i]}"))
            fake = {"only": fr["only"], "extra_troops": extra, "event": True}
            if assault_targets(st, i, fake) and assault_removals(st, i, fake) > 0:
                chs.append(C("assault", f"Free Assault in {NAME[i]}"))
        else:
            if attack_removable(st, f, i):
                chs.append(C("attack", f"Free Attack in {NAME[i]}"))
            if pc[U(f)]:
                chs.append(C("terror", f"Free Terror in {NAME[i]}"))
        chs.append(C("skip", "Nothing here"))
        return (f"{BD.cards[fr['v']['card']]['title']}: what happens in {NAME[i]}?", "5.5", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if not fr["left"]:
                pop(st, fr)
                return
            wait(fr)
            return
        i = fr["left"].pop(0)
        f = fr["f"]
        extra = P.guerrillas(st["pc"][i], 2) if fr["auc"] else 0
        if cid == "sweep":
            push(st, {"k": "sweepsp", "f": 0, "i": i, "auto": fr.get("auto"), "ph": "move", "pol": 0, "nomove": 1,
                      "only": fr["only"], "extra_troops": extra, "event": True})
        elif cid == "assault":
            fake = {"only": fr["only"], "extra_troops": extra, "event": True}
            push(st, {"k": "assaultsp", "f": 0, "i": i, "left": assault_removals(st, i, fake), "auto": fr.get("auto"),
                      "only": fr["only"], "extra_troops": extra, "event": True})
        elif cid == "attack":
            push(st, {"k": "attacksp", "f": f, "i": i, "auto": fr.get("auto"), "ph": "mode"})
        elif cid == "terror":
            terror_in(st, f, i, facts)
            if f == 2:
                fr["terror_n"] = fr.get("terror_n", 0) + 1
        if not fr["left"] and fr.get("terror_n"):
            from .ops import aid_cut
            aid_cut(st, fr["terror_n"], facts)


def sp_move_guerrillas(st, fr, s, facts):
    """Card 20 unshaded (Govt moves FARC Guerrillas), 58/59 shaded relocations, 53."""
    push(st, {"k": "evmove", "f": _actor(fr, s), "s": s, "left": s["n"], "v": fr["v"], "src": None,
              "auto": fr.get("auto")})
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
        g = 0 if k < 3 else k // 3
        cand = P.adj(st, src) if fr["s"].get("adjacent") else [j for j in P.spaces(st) if j != src]
        out = []
        for j in cand:
            if g == 0 and j in st["zones"]:
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
            chs = [C(f"from:{IDS[i]}:{PIECE_KEYS[k]}", f"Move {PIECE_NAMES[k]} from {NAME[i]}", space=IDS[i])
                   for i, k in EvMove.sources(st, fr)]
            chs.append(C("done", "No more"))
            return (f"{BD.cards[fr['v']['card']]['title']}: move pieces ({fr['left']} left)", "5.1", chs)
        return ("Move it where?", "5.1", space_choices(EvMove.dests(st, fr), "To"))

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["left"] <= 0 or not EvMove.sources(st, fr):
                pop(st, fr)
                return
            wait(fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        if cid.startswith("from:"):
            _, sid, key = cid.split(":")
            fr["src"], fr["slot"] = BD.index[sid], PIECE_KEYS.index(key)
            if not EvMove.dests(st, fr):
                fr["src"] = None
                fr["left"] -= 1
            wait(fr)
            return
        j = sidx(cid)
        k = fr["slot"]
        P.move(st, fr["src"], j, k, 1, facts, ev_cause(fr))
        if fr["s"].get("underground") and k in (4, 7, 10):
            P.flip(st, j, k // 3, 1, False, facts, ev_cause(fr))
        fr["src"] = None
        fr["left"] -= 1
        wait(fr) if fr["left"] > 0 and EvMove.sources(st, fr) else pop(st, fr)


def sp_flip_under(st, fr, s, facts):
    """Flip up to n Guerrillas of a Faction Underground, anywhere."""
    g = _who(fr["v"], s["faction"])
    n = s["n"]
    push(st, {"k": "evpiece", "f": fr["f"], "mode": "flip", "s": {"what": f"{FACTIONS[g]}_active", "n": n},
              "v": fr["v"], "left": n, "auto": fr.get("auto")})
    return True


def sp_c26s(st, fr, s, facts):
    for _ in matching(st, ["cartels_base_and_farc_g"], fr["v"]):
        _transfer(st, fr, {"src": "cartels", "dst": "farc", "n": 6}, facts)
    return False


def sp_each_attack(st, fr, s, facts):
    """Card 26 unshaded: Cartels Attack FARC in every space with both."""
    sps = [i for i in matching(st, ["cartels_g_and_farc"], fr["v"])]
    for i in reversed(sps):
        push(st, {"k": "attacksp", "f": 3, "i": i, "auto": fr.get("auto"), "ph": "mode", "only": 1})
    return bool(sps)


def sp_c29u(st, fr, s, facts):
    i = fr["v"]["here"]
    P.flip(st, i, 1, 99, True, facts, ev_cause(fr))
    fake = {"event": True}
    n = assault_removals(st, i, fake)
    if n > 0 and assault_targets(st, i, fake):
        push(st, {"k": "assaultsp", "f": 0, "i": i, "left": n, "auto": fr.get("auto"), "event": True})
        return True
    return False


def sp_ambush2(st, fr, s, facts):
    """Card 29 shaded: two free Ambushes by the chosen Faction in one space (no Activation)."""
    g = fr["v"].get("x", fr["f"])
    i = fr["v"]["here"]
    for _ in range(s.get("times", 2)):
        if not attack_removable(st, g, i):
            break
        push(st, {"k": "attacksp", "f": g, "i": i, "auto": fr.get("auto"), "ph": "remove", "left": 2,
                  "roll1": True})
    return True


def sp_c36(st, fr, s, facts):
    z = fr["v"].get("zone")
    if z is None:
        return False
    cands = [j for j in P.adj(st, z) if P.can_shift(st, j, 1)]
    if not cands:
        return False
    push(st, {"k": "evpick", "f": fr["f"], "s": {"n": 2, "where": ["adj_here", "can_shift_support"],
                                                   "then": [{"do": "shift", "n": 1}]},
              "v": dict(fr["v"], here=z), "chosen": [], "auto": fr.get("auto")})
    return True


def sp_march_then_ambush(st, fr, s, facts):
    """Card 37 shaded: free AUC March, then a free Ambush in one destination."""
    push(st, {"k": "ev", "f": fr["f"], "steps": [{"do": "special", "fn": "ambush_in_dests"}], "pc": 0,
              "v": fr["v"], "auto": fr.get("auto")})
    start_op(st, 2, "march", lim=False, free=True, facts=facts, auto=fr.get("auto"), no_sa=True)
    return True


def sp_ambush_in_dests(st, fr, s, facts):
    dests = st.get("last_march") or []
    cands = [i for i in dests if st["pc"][i][6] and attack_removable(st, 2, i)]
    if not cands:
        return False
    push(st, {"k": "evpick", "f": 2, "s": {"n": 1, "where": [], "then": [
        {"do": "special", "fn": "ambush_here"}], "upto": True}, "v": dict(fr["v"], only=cands), "chosen": [],
        "auto": fr.get("auto"), "only": cands})
    return True


def sp_ambush_here(st, fr, s, facts):
    i = fr["v"]["here"]
    if st["pc"][i][6]:
        P.flip(st, i, 2, 1, True, facts, "Ambush (Event)")
    push(st, {"k": "attacksp", "f": 2, "i": i, "auto": fr.get("auto"), "ph": "remove", "left": 2, "roll1": True})
    return True


def sp_c40s(st, fr, s, facts):
    """Card 40 shaded: move all cubes in the Department to Cities (each cube to any City, the
    executor's choice), then AUC pieces into 2 Cities."""
    push(st, {"k": "evpick", "f": fr["f"], "s": {"n": 2, "where": ["city"], "then": [
        {"do": "place", "what": "auc_piece", "n": 1}]}, "v": fr["v"], "chosen": [], "auto": fr.get("auto")})
    push(st, {"k": "c40cube", "f": fr["f"], "i": fr["v"]["here"], "why": ev_cause(fr), "auto": fr.get("auto")})
    return True


@frame("c40cube")
class C40Cube:
    """Card 40 shaded: the executor sends each cube of the Department to a City of its choice."""

    @staticmethod
    def slot(st, fr):
        pc = st["pc"][fr["i"]]
        return 0 if pc[0] else 1 if pc[1] else None

    @staticmethod
    def prompt(st, fr):
        what = "Troops" if C40Cube.slot(st, fr) == 0 else "Police"
        cities = [j for j in BD.cities if j not in st["zones"]]
        return (f"Card 40: move 1 {what} cube from {NAME[fr['i']]} to which City?", "card 40",
                space_choices(cities, f"{what} to"))

    @staticmethod
    def step(st, fr, facts, cid):
        k = C40Cube.slot(st, fr)
        if cid is None:
            if k is None:
                pop(st, fr)
            else:
                wait(fr)
            return
        P.move(st, fr["i"], sidx(cid), k, 1, facts, fr["why"])


def sp_c45s(st, fr, s, facts):
    n = sum(1 for i in P.spaces(st) if P.fpieces(st["pc"][i], 2))
    P.set_aid(st, -n, facts, ev_cause(fr))
    _res_die(st, fr, {"who": "govt", "sign": -1}, facts)
    return False


def sp_c46(st, fr, s, facts):
    """Card 46: Terror by any Guerrilla with 2 markers, remove 2 enemy pieces, set Passive Support/Opposition."""
    g = fr["v"].get("x", fr["f"])
    i = fr["v"]["here"]
    terror_in(st, g, i, facts, any_g=True, markers=2)
    if g == 2:
        from .ops import aid_cut
        aid_cut(st, 1, facts)
    steps = [{"do": "remove", "what": "enemy_of_x", "n": 2, "upto": False}]
    if BD.pop[i] > 0:
        steps.append({"do": "special", "fn": "passive_choice"})
    push(st, {"k": "ev", "f": fr["f"], "steps": steps, "pc": 0, "v": fr["v"], "auto": fr.get("auto")})
    return True


def sp_passive_choice(st, fr, s, facts):
    push(st, {"k": "evlevel", "f": fr["f"], "v": fr["v"], "auto": fr.get("auto")})
    return True


@frame("evlevel")
class EvLevel:
    @staticmethod
    def prompt(st, fr):
        return ("Set the space to Passive Support or Passive Opposition?", "card 46",
                [C("level:1", "Passive Support"), C("level:-1", "Passive Opposition")])

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            wait(fr)
            return
        P.set_support(st, fr["v"]["here"], int(cid[6:]), facts, "Event 46 Limpieza")
        pop(st, fr)


def sp_c47u(st, fr, s, facts):
    for i in P.spaces(st):
        P.flip(st, i, 2, 99, True, facts, ev_cause(fr))
    for i in P.spaces(st):
        pc = st["pc"][i]
        if pc[1] and (pc[7] or (pc[8] and not pc[6])):
            fake = {"police_as_troops": True, "only": 2, "event": True}
            n = assault_removals(st, i, fake)
            while n > 0 and assault_targets(st, i, fake):
                from .ops import assault_remove_one
                assault_remove_one(st, i, 2, facts)
                n -= 1
    return False


def sp_c47s(st, fr, s, facts):
    i = BD.index["cucuta"]
    P.place(st, i, 6, 2, facts, ev_cause(fr))
    if st["pc"][i][6]:
        terror_in(st, 2, i, facts)
        from .ops import aid_cut
        aid_cut(st, 1, facts)
    return sp_flip_under(st, fr, {"faction": "auc", "n": 2}, facts)


def sp_c48u(st, fr, s, facts):
    """Card 48 unshaded: remove the Opposition (Neutral) or 1 FARC Base, executor's choice."""
    i = fr["v"]["here"]
    opts = []
    if st["sup"][i] < 0:
        opts.append(["neutral", "Remove the Opposition (Neutral)", [{"do": "set", "level": 0}]])
    if st["pc"][i][5]:
        opts.append(["base", "Remove a FARC Base", [{"do": "remove", "what": "farc_base", "n": 1, "upto": False}]])
    if not opts:
        return False
    push(st, {"k": "evchoice", "f": fr["f"], "v": fr["v"], "opts": opts, "auto": fr.get("auto")})
    return True


def sp_c51u(st, fr, s, facts):
    n = 0
    for i in BD.locs:
        if BD.pipeline[i] and st["sab"][i]:
            st["sab"][i] = 0
            n += 1
            facts.append(fact("marker", f"Sabotage removed from {NAME[i]} ({ev_cause(fr)})", space=IDS[i]))
    if not n:
        P.set_res(st, 0, 12, facts, ev_cause(fr))
    return False


def sp_c53(st, fr, s, facts):
    g = fr["v"].get("x", fr["f"])
    push(st, {"k": "evmove", "f": fr["f"], "s": {"what": f"{FACTIONS[g]}_guerrilla", "n": 2, "from": ["dept"],
                                                  "to": ["dept"], "underground": True},
              "left": 2, "v": fr["v"], "src": None, "auto": fr.get("auto")})
    return True


def sp_c54(st, fr, s, facts):
    """Card 54: remove up to 2 Guerrillas, or instead replace them (the executor's choice)."""
    push(st, {"k": "evchoice", "f": fr["f"], "v": fr["v"], "auto": fr.get("auto"), "opts": [
        ["replace", "Replace up to 2 Guerrillas with other Factions' Available Guerrillas",
         [{"do": "special", "fn": "c54_go", "rep": True}]],
        ["remove", "Remove up to 2 Guerrillas", [{"do": "special", "fn": "c54_go", "rep": False}]]]})
    return True


def sp_c54_go(st, fr, s, facts):
    push(st, {"k": "evpiece", "f": fr["f"], "mode": "anywhere", "s": {"what": "guerrilla", "n": 2, "where": [],
                                                                       "replace_other": s["rep"]},
              "v": fr["v"], "left": 2, "auto": fr.get("auto")})
    return True


def sp_c55u(st, fr, s, facts):
    """Card 55 unshaded: the executor removes 2 Shipments of its choice (all when 2 or fewer)."""
    if len(st["ship"]) <= 2:
        for sh in list(st["ship"]):
            st["ship"].remove(sh)
            facts.append(fact("shipment", f"Shipment in {NAME[sh[0]]} removed ({ev_cause(fr)})", space=IDS[sh[0]]))
        return False
    push(st, {"k": "c55ship", "f": fr["f"], "left": 2, "why": ev_cause(fr), "auto": fr.get("auto")})
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
                chs.append(C(f"ship:{IDS[sp_]}:{FACTIONS[g]}", f"Remove the {FNAME[g]} Shipment in {NAME[sp_]}",
                             space=IDS[sp_], owner=FACTIONS[g]))
        return (f"Card 55: remove a Shipment ({fr['left']} left)", "card 55", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["left"] <= 0 or not st["ship"]:
                pop(st, fr)
            else:
                wait(fr)
            return
        _, sid, g = cid.split(":")
        i, g = BD.index[sid], FACTIONS.index(g)
        for sh in st["ship"]:
            if sh[0] == i and sh[1] == g:
                st["ship"].remove(sh)
                break
        facts.append(fact("shipment", f"Shipment in {NAME[i]} removed ({fr['why']})", space=IDS[i]))
        fr["left"] -= 1


def sp_c56s(st, fr, s, facts):
    n = sum(P.fpieces(st["pc"][i], 3) for i in BD.cities)
    P.set_res(st, 3, 2 * n, facts, ev_cause(fr))
    return False


def sp_c58u(st, fr, s, facts):
    for i in P.spaces(st):
        P.remove(st, i, 9, 99, facts, ev_cause(fr))
        P.remove(st, i, 10, 99, facts, ev_cause(fr))
    return False


def sp_c59u(st, fr, s, facts):
    from .ops import assault_remove_one
    for i in P.spaces(st):
        P.flip(st, i, 3, 99, True, facts, ev_cause(fr))
    for i in P.spaces(st):
        fake = {"only": 3, "event": True}
        n = assault_removals(st, i, fake)
        while n > 0 and assault_targets(st, i, fake):
            assault_remove_one(st, i, 3, facts)
            n -= 1
    return False


def sp_c59s(st, fr, s, facts):
    for i in P.spaces(st):
        P.flip(st, i, 3, 99, False, facts, ev_cause(fr))
    return sp_move_guerrillas(st, fr, {"what": "cartels_guerrilla", "n": 3, "actor": "cartels"}, facts)


def sp_c60u(st, fr, s, facts):
    push(st, {"k": "evchoice", "f": fr["f"], "v": fr["v"], "opts": [
        ["cities", "Remove all Cartels pieces from 2 Cities",
         [{"do": "pick", "n": 2, "where": ["city", "has:cartels_piece"], "then": [
             {"do": "remove", "what": "cartels_piece", "all": True}]}]],
        ["dept", "Remove all Cartels pieces from 1 Department",
         [{"do": "pick", "n": 1, "where": ["dept", "has:cartels_piece"], "then": [
             {"do": "remove", "what": "cartels_piece", "all": True}]}]]], "auto": fr.get("auto")})
    return True


def sp_c60s(st, fr, s, facts):
    push(st, {"k": "bribe", "f": 3, "ph": "a", "n": 0, "done": [], "auto": fr.get("auto"), "free": True,
              "sel": [], "one": True})
    return True


@frame("evchoice")
class EvChoice:
    """A card offering alternatives: the executing Faction picks one."""

    @staticmethod
    def prompt(st, fr):
        return ("Which alternative?", "5.1", [C(f"alt:{o[0]}", o[1]) for o in fr["opts"]])

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            resume_once(st, fr)
            return
        fr["went"] = 1
        alt = next(o for o in fr["opts"] if o[0] == cid[4:])
        push(st, {"k": "ev", "f": fr["f"], "steps": alt[2], "pc": 0, "v": fr["v"], "auto": fr.get("auto")})


def sp_c63(st, fr, s, facts):
    n = 0
    for i in P.spaces(st):
        pc = st["pc"][i]
        g = P.guerrillas(pc, 3)
        if g:
            k = min(g - 1, pc[10])
            P.remove(st, i, 10, k, facts, ev_cause(fr))
            P.remove(st, i, 9, g - 1 - k, facts, ev_cause(fr))
            terror_in(st, 3, i, facts)
            n += 1
    return False


def sp_c64u(st, fr, s, facts):
    push(st, {"k": "evpick", "f": fr["f"], "s": {"n": 2, "where": ["cartels_base_and_farc_g"], "then": [
        {"do": "special", "fn": "ship_farc"}], "repeat": True}, "v": fr["v"], "chosen": [], "auto": fr.get("auto")})
    return True


def sp_ship_farc(st, fr, s, facts):
    i = fr["v"]["here"]
    if len(st["ship"]) < 4:
        st["ship"].append([i, 1])
        facts.append(fact("shipment", f"Shipment placed with FARC in {NAME[i]} ({ev_cause(fr)})", space=IDS[i]))
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
        push(st, {"k": "ev", "f": fr["f"], "steps": steps2, "pc": 0, "v": fr["v"], "auto": fr.get("auto")})
        push(st, {"k": "evchoice", "f": fr["f"], "v": fr["v"], "opts": opts, "auto": fr.get("auto")})
        return True
    return sp_c65_base(st, fr, s, facts)


def sp_c65_base(st, fr, s, facts):
    i = fr["v"]["here"]
    opts = []
    if P.can_stack_base(st, i):
        opts.append(["base+", "Place an Insurgent Base here",
                     [{"do": "place", "what": "insurgent_base", "n": 1, "upto": False}]])
    if any(st["pc"][i][k] for k in (5, 8, 11)):
        opts.append(["base-", "Remove an Insurgent Base here", [{"do": "remove", "what": "insurgent_base", "n": 1,
                                                                  "upto": False}]])
    if not opts:
        return False
    push(st, {"k": "evchoice", "f": fr["f"], "v": fr["v"], "opts": opts, "auto": fr.get("auto")})
    return True


def sp_ship_any(st, fr, s, facts):
    i = fr["v"]["here"]
    for g in (1, 2, 3):
        if P.guerrillas(st["pc"][i], g) and len(st["ship"]) < 4:
            st["ship"].append([i, g])
            facts.append(fact("shipment", f"Shipment placed with {FNAME[g]} in {NAME[i]} ({ev_cause(fr)})"))
            break
    return False


def sp_unship_here(st, fr, s, facts):
    i = fr["v"]["here"]
    for x in st["ship"]:
        if x[0] == i:
            st["ship"].remove(x)
            facts.append(fact("shipment", f"Shipment removed in {NAME[i]} ({ev_cause(fr)})"))
            break
    return False


def c66s_spaces(st, done=()):
    return [i for i in P.spaces(st) if BD.forest[i] and BD.is_dept[i] and st["pc"][i][11]
            and P.bases(st["pc"][i]) < 2 and i not in done]


def sp_c66s(st, fr, s, facts):
    """Card 66 shaded: 1 more Cartels Base in each Forest Department with one (stacking
    permitting); when Bases run short the executor picks the Departments."""
    sps = c66s_spaces(st)
    if len(sps) <= st["av"][11]:
        for i in sps:
            P.place(st, i, 11, 1, facts, ev_cause(fr))
        return False
    push(st, {"k": "c66pick", "f": fr["f"], "done": [], "why": ev_cause(fr), "auto": fr.get("auto")})
    return True


@frame("c66pick")
class C66Pick:
    """Card 66 shaded with too few Available Cartels Bases: which Forest Department gets one."""

    @staticmethod
    def prompt(st, fr):
        return (f"Card 66: place a Cartels Base ({st['av'][11]} Available) in which Forest Department?", "card 66",
                space_choices(c66s_spaces(st, fr["done"]), "Cartels Base in"))

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if not st["av"][11] or not c66s_spaces(st, fr["done"]):
                pop(st, fr)
            else:
                wait(fr)
            return
        i = sidx(cid)
        fr["done"].append(i)
        P.place(st, i, 11, 1, facts, fr["why"])


def sp_c68u(st, fr, s, facts):
    push(st, {"k": "evchoice", "f": fr["f"], "v": fr["v"], "opts": [
        ["pieces", "Remove 2 Cartels pieces from coastal spaces",
         [{"do": "remove_anywhere", "what": "cartels_piece", "n": 2, "where": ["coastal"], "upto": False}]],
        ["ships", "Remove up to 2 Shipments in coastal spaces", [{"do": "special", "fn": "unship_coastal"}]]],
        "auto": fr.get("auto")})
    return True


def sp_unship_coastal(st, fr, s, facts):
    k = 0
    for x in list(st["ship"]):
        if BD.coastal[x[0]] and k < 2:
            st["ship"].remove(x)
            k += 1
            facts.append(fact("shipment", f"Shipment removed in {NAME[x[0]]} ({ev_cause(fr)})"))
    return False


def sp_c69(st, fr, s, facts):
    push(st, {"k": "c69", "f": fr["f"], "v": fr["v"], "ph": "src", "auto": fr.get("auto")})
    return True


def dept_reach3(st, src):
    seen = set()
    frontier = [j for j in P.adj(st, src) if BD.is_dept[j]]
    seen.update(frontier)
    for _ in range(2):
        nxt = []
        for i in frontier:
            for j in P.adj(st, i):
                if BD.is_dept[j] and j not in seen:
                    seen.add(j)
                    nxt.append(j)
        frontier = nxt
    seen.discard(src)
    return sorted(seen)


@frame("c69")
class C69:
    """Card 69: move cubes/Guerrillas to a Department within 3 Departments, then a free Op there."""

    @staticmethod
    def own(st, f, i):
        pc = st["pc"][i]
        return P.cubes(pc) if f == 0 else P.guerrillas(pc, f)

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        if fr["ph"] == "src":
            chs = space_choices([i for i in P.spaces(st) if C69.own(st, f, i) and dept_reach3(st, i)], "Move from")
            chs.append(C("done", "Nothing"))
            return ("Riverines & Fast Boats: move from which space?", "card 69", chs)
        if fr["ph"] == "dst":
            ds = [j for j in dept_reach3(st, fr["src"]) if not (f == 0 and j in st["zones"])]
            return ("Riverines & Fast Boats: to which Department?", "card 69", space_choices(ds, "To"))
        ops = ("train", "sweep", "assault") if f == 0 else ("rally", "attack", "terror")
        chs = [C(f"op:{o}", f"Free {o.capitalize()} there") for o in ops]
        chs.append(C("done", "No Operation"))
        return ("Riverines & Fast Boats: free Operation in the destination?", "card 69", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        f = fr["f"]
        if cid is None:
            if fr["ph"] == "end":
                pop(st, fr)
                return
            wait(fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        if fr["ph"] == "src":
            fr["src"] = sidx(cid)
            fr["ph"] = "dst"
            wait(fr)
            return
        if fr["ph"] == "dst":
            j = sidx(cid)
            fr["dst"] = j
            for k in ((0, 1) if f == 0 else (U(f), A(f))):
                P.move(st, fr["src"], j, k, 99, facts, "Event 69")
            fr["ph"] = "op"
            wait(fr)
            return
        fr["ph"] = "end"
        start_op(st, f, cid[3:], lim=False, free=True, facts=facts, auto=fr.get("auto"), no_sa=True,
                 only_spaces=[fr["dst"]])


def sp_c70s(st, fr, s, facts):
    g = fr["v"].get("x", fr["f"])
    n = 0
    for i in P.spaces(st):
        if BD.forest[i] and BD.is_dept[i] and P.guerrillas(st["pc"][i], g):
            terror_in(st, g, i, facts, any_g=True)
            n += 1
    if n:
        P.set_res(st, g, 3 * n, facts, ev_cause(fr))
        if g == 2:
            from .ops import aid_cut
            aid_cut(st, n, facts)
    return False


def sp_c71u(st, fr, s, facts):
    """Card 71 unshaded: the executor removes a Guerrilla from Chocó; its Faction loses 5 Resources."""
    i = BD.index["choco"]
    opts = []
    for g in (1, 2, 3):
        if P.guerrillas(st["pc"][i], g):
            opts.append([FACTIONS[g], f"Remove a {FNAME[g]} Guerrilla",
                         [{"do": "special", "fn": "c71_remove", "g": g}]])
    if not opts:
        return False
    push(st, {"k": "evchoice", "f": fr["f"], "v": fr["v"], "opts": opts, "auto": fr.get("auto")})
    return True


def sp_c71_remove(st, fr, s, facts):
    i, g = BD.index["choco"], s["g"]
    P.remove(st, i, A(g) if st["pc"][i][A(g)] else U(g), 1, facts, ev_cause(fr))
    P.set_res(st, g, -5, facts, ev_cause(fr))
    return False


def sp_c72u(st, fr, s, facts):
    """Card 72 unshaded: each Cartels Guerrilla in the space is replaced by a FARC or AUC
    Guerrilla (the executor picks the Faction of each; removed when none is Available)."""
    i = fr["v"]["here"]
    pc = st["pc"][i]
    n = pc[9] + pc[10]
    P.remove(st, i, 9, 99, facts, ev_cause(fr))
    P.remove(st, i, 10, 99, facts, ev_cause(fr))
    push(st, {"k": "c72rep", "f": fr["f"], "i": i, "left": n, "why": ev_cause(fr), "auto": fr.get("auto")})
    return True


@frame("c72rep")
class C72Rep:
    """Card 72 unshaded: FARC or AUC Guerrilla for each replaced Cartels Guerrilla."""

    @staticmethod
    def opts(st):
        return [g for g in (1, 2) if st["av"][U(g)]]

    @staticmethod
    def prompt(st, fr):
        return (f"Card 72: replace a Cartels Guerrilla in {NAME[fr['i']]} with whose Guerrilla ({fr['left']} left)?",
                "card 72", [C(f"faction:{FACTIONS[g]}", f"{FNAME[g]} Guerrilla") for g in C72Rep.opts(st)])

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            os_ = C72Rep.opts(st)
            if fr["left"] <= 0 or not os_:
                pop(st, fr)
                return
            if len(os_) == 1:
                n = min(fr["left"], st["av"][U(os_[0])])
                P.place(st, fr["i"], U(os_[0]), n, facts, fr["why"])
                fr["left"] -= n
                return
            wait(fr)
            return
        P.place(st, fr["i"], U(FACTIONS.index(cid[8:])), 1, facts, fr["why"])
        fr["left"] -= 1


def sp_c72s(st, fr, s, facts):
    """Card 72 shaded: every Available Cartels Guerrilla goes into Cartels Base spaces, spread as
    the executor likes."""
    if not st["av"][9] or not any(st["pc"][i][11] for i in P.spaces(st)):
        return False
    push(st, {"k": "c72place", "f": fr["f"], "why": ev_cause(fr), "auto": fr.get("auto")})
    return True


@frame("c72place")
class C72Place:
    """Card 72 shaded: where the next Available Cartels Guerrilla goes."""

    @staticmethod
    def prompt(st, fr):
        sps = [i for i in P.spaces(st) if st["pc"][i][11]]
        return (f"Card 72: place a Cartels Guerrilla ({st['av'][9]} left) in which Cartels Base space?", "card 72",
                space_choices(sps, "Cartels Guerrilla to"))

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            sps = [i for i in P.spaces(st) if st["pc"][i][11]]
            if not st["av"][9] or not sps:
                pop(st, fr)
            elif len(sps) == 1:
                P.place(st, sps[0], 9, st["av"][9], facts, fr["why"])
            else:
                wait(fr)
            return
        P.place(st, sidx(cid), 9, 1, facts, fr["why"])


def sp_c30u(st, fr, s, facts):
    if not st["zones"]:
        return False
    push(st, {"k": "evpick", "f": fr["f"], "s": {"n": 1, "where": ["zone"], "then": [
        {"do": "unzone"}, {"do": "remove", "what": "farc_base", "n": 1, "upto": False}]},
        "v": fr["v"], "chosen": [], "auto": fr.get("auto")})
    return True


def sp_c28s(st, fr, s, facts):
    for j in P.adj(st, BD.index["cucuta"]):
        if BD.is_loc[j] and not sum(st["pc"][j]):
            P.add_sabotage(st, j, facts)
    return False


def sp_c62s(st, fr, s, facts):
    for sid in ("guainia", "vaupes", "amazonas"):
        P.place(st, BD.index[sid], 11, 1, facts, ev_cause(fr))
    return False


def sp_c35u(st, fr, s, facts):
    i = fr["v"]["here"]
    n = st["pc"][i][11]
    P.remove(st, i, 11, n, facts, ev_cause(fr))
    P.place(st, i, 1, n, facts, ev_cause(fr))
    return False


def sp_c57s(st, fr, s, facts):
    """Card 57 shaded: the Police gives way to an Available Cartels piece, Base or Guerrilla as the
    executor chooses (asked when both fit; a Non-player takes the Base, pol_evchoice)."""
    i = fr["v"]["here"]
    P.remove(st, i, 1, 1, facts, ev_cause(fr))
    pc = st["pc"][i]
    room = i != BD.ecuador or P.fpieces(pc, 3) < 2          # 1.3.5 Ecuador: 2 pieces a Faction
    opts = []
    if room and st["av"][11] and not BD.is_loc[i] and P.bases(pc) < 2:   # 1.4.2: 2 Bases a space
        opts.append(["base", f"A Cartels Base in {BD.name[i]}", [{"do": "special", "fn": "c57_put", "slot": 11}]])
    if room and st["av"][9]:
        opts.append(["guerrilla", f"A Cartels Guerrilla in {BD.name[i]}",
                     [{"do": "special", "fn": "c57_put", "slot": 9}]])
    if len(opts) == 2:
        push(st, {"k": "evchoice", "f": fr["f"], "v": fr["v"], "opts": opts, "auto": fr.get("auto")})
        return True
    if opts:
        P.place(st, i, opts[0][2][0]["slot"], 1, facts, ev_cause(fr))
    return False


def sp_c57_put(st, fr, s, facts):
    P.place(st, fr["v"]["here"], s["slot"], 1, facts, ev_cause(fr))
    return False


def sp_c50s(st, fr, s, facts):
    push(st, {"k": "evchoice", "f": fr["f"], "v": fr["v"], "opts": [
        ["remove", "Remove 2 Police", [{"do": "remove_anywhere", "what": "police", "n": 2, "upto": False}]],
        ["replace", "Replace 2 Police with AUC Guerrillas",
         [{"do": "remove_anywhere", "what": "police", "n": 2, "upto": False, "replace": "auc_guerrilla"}]]],
        "auto": fr.get("auto")})
    return True


SPECIAL = {
    "c5u": sp_c5u, "c16u": sp_c16u, "general_offensive": sp_general_offensive, "move_guerrillas": sp_move_guerrillas,
    "flip_under": sp_flip_under, "c26s": sp_c26s, "each_attack": sp_each_attack, "c29u": sp_c29u,
    "ambush2": sp_ambush2, "c36": sp_c36, "march_then_ambush": sp_march_then_ambush,
    "ambush_in_dests": sp_ambush_in_dests, "ambush_here": sp_ambush_here, "c40s": sp_c40s, "c45s": sp_c45s,
    "c46": sp_c46, "passive_choice": sp_passive_choice, "c47u": sp_c47u, "c47s": sp_c47s, "c48u": sp_c48u,
    "c51u": sp_c51u, "c53": sp_c53, "c54": sp_c54, "c54_go": sp_c54_go, "c55u": sp_c55u, "c56s": sp_c56s, "c58u": sp_c58u,
    "c59u": sp_c59u, "c59s": sp_c59s, "c60u": sp_c60u, "c60s": sp_c60s, "c63": sp_c63, "c64u": sp_c64u,
    "ship_farc": sp_ship_farc, "c65": sp_c65, "c65_base": sp_c65_base, "ship_any": sp_ship_any,
    "unship_here": sp_unship_here, "c66s": sp_c66s, "c68u": sp_c68u, "unship_coastal": sp_unship_coastal,
    "c69": sp_c69, "c70s": sp_c70s, "c71u": sp_c71u, "c71_remove": sp_c71_remove, "c72u": sp_c72u, "c72s": sp_c72s, "c30u": sp_c30u,
    "c28s": sp_c28s, "c62s": sp_c62s, "c35u": sp_c35u, "c57s": sp_c57s, "c57_put": sp_c57_put, "c50s": sp_c50s,
}

