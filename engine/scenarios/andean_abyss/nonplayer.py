"""8.0 Non-player Factions: flowcharts resolved by the engine with the state's RNG.

A Non-player seat's prompt offers one choice, ``np:act``. Applying it runs the section-8
decision (8.1 Event or Operations, 8.5-8.8 flowcharts) and then drives exactly the
same Operation / Event frames a player would use, picking among their legal choices
with the priorities below (frames marked ``auto``). Facts of type ``np`` name the
flowchart branch that fired. Player seats may also answer ``np:act`` to let the
flowchart decide their turn (used by ``--bots nonplayer``).
"""

from __future__ import annotations

import pickle

from engine.bots.base import Bot, BotDecision
from engine.core import rng as R
from engine.core.contract import fact

from . import pieces as P
from . import random_spaces as RS
from .board import BOARD as BD
from .board import FACTIONS, FNAME, PIECE_KEYS, A, B, U
from .frames import LOG, POLICIES, C, frame, logging_to, wait
from .game import Elig, cap, final_event_card, is_np, is_prop, mom, record_exec
from .ops import (
    assault_removals,
    assault_targets,
    attack_removable,
    eradicate_spaces,
    opf,
    rally_space_ok,
    space_candidates,
    start_op,
    sweep_dest_ok,
)

IDS, NAME = BD.ids, BD.name
CAPS = {1, 2, 3, 7, 9, 10, 11, 13}


def why(st, facts, f, text, rule):
    facts.append(fact("np", f"Non-player {FNAME[f]}: {text} ({rule})", faction=FACTIONS[f], rule=rule, branch=text))


def rnd(st, seq):
    """8.2 / 8.3: a random pick among equal-priority candidates. Cities/Departments go by the
    Random City or Department table, LoCs by 8.3 (random_spaces.py: dice tags ``space``, ``loc``),
    reported with their dice as an ``np`` fact; other candidates take a uniform pick (tag ``np``),
    reported by :func:`random_note`."""
    if len(seq) < 2:
        return seq[R.pick_index(st["rng"], len(seq), tag="np")]
    got, info = RS.pick(st, seq)
    if info is None:
        LOG.rand = len(seq)
    elif LOG.facts is not None:
        fr = st["stack"][-1] if st.get("stack") else {}
        f = fr.get("f", 0)
        LOG.facts.append(fact("np", f"Non-player {FNAME[f]}: {fr.get('k', 'pick')} - {info['text']} ({info['rule']})",
                              faction=FACTIONS[f], rule=info["rule"], branch="random space", frame=fr.get("k"),
                              choice=got, candidates=len(seq), **{k: v for k, v in info.items() if k not in ("text", "rule")}))
    return got


def sp_id(i):
    return f"space:{IDS[i]}"


def rnd_best(st, pairs):
    """The choice of highest key among (key, choice) pairs; equal keys by :func:`rnd` (8.2 / 8.3)."""
    if not pairs:
        return None
    top = max(k for k, _ in pairs)
    return rnd(st, [c for k, c in pairs if k == top])


def random_note(st, fr, cid, n):
    f = fr["f"]
    return fact("np", f"Non-player {FNAME[f]}: {fr['k']} - {cid} picked at random among {n} equal candidates (8.2)",
                faction=FACTIONS[f], rule="8.2", branch="random pick among equal candidates", frame=fr["k"],
                choice=cid)


LOG.note = random_note


# ====================================================================== 8.1 Event or Operations
def event_effect(st: dict, f: int, side: str) -> dict | None:
    """Run the Event on a copy (Non-player choices) and report what changed (8.1 Ineffective Events)."""
    from .events import start_event
    cp = pickle.loads(pickle.dumps(st, protocol=pickle.HIGHEST_PROTOCOL))
    cp["stack"] = []
    cp["sop"] = {"prop": True}
    facts: list = []
    try:
        with logging_to(None):   # the trial run on the copy reports nothing
            start_event(cp, f, cp["cur"], side, facts, auto="np")
            guard = 0
            while cp["stack"] and guard < 2000:
                guard += 1
                run_one(cp, facts)
    except Exception:  # an Event that cannot be resolved counts as ineffective
        return None
    keys = ("pc", "sup", "ter", "sab", "zones", "res", "aid", "ship", "fm", "oop", "stay_elig", "mom", "caps")
    changed = any(cp[k] != st[k] for k in keys) or bool(newly_ineligible(st, f, cp))
    return {"changed": changed, "st": cp, "capability": BD.cards[st["cur"]].get("capability", False)}


def newly_ineligible(st, f, after) -> set:
    """Factions an Event marks Ineligible for the next card (cards 23, 24, 63) that would
    otherwise be Eligible then: not the executor and not a Faction that already acted on this
    card (2.3.7 makes both Ineligible anyway). Only these count as an effect (8.1 Ineffective
    Events) or as making a player Ineligible (8.1 restrictions)."""
    acted = set((st.get("sop") or {}).get("executed", ())) | {f}
    return set(after["inel_next"]) - set(st["inel_next"]) - acted


def run_one(st, facts):
    from .frames import STEPS, auto_pick
    fr = st["stack"][-1]
    if fr.get("w"):
        fr["auto"] = fr.get("auto") or "np"
        cid = auto_pick(st, fr)
        fr["w"] = 0
        STEPS[fr["k"]](st, fr, facts, cid)
    else:
        STEPS[fr["k"]](st, fr, facts, None)


def govt_likes(st, after) -> bool:
    """Derived default Government Event Instruction (rules notes): take the unshaded text if it helps."""
    ts0, ts1 = P.total_support(st), P.total_support(after)
    ins0 = sum(P.count_on_map(st, k) for k in (3, 4, 5, 6, 7, 8, 9, 10, 11))
    ins1 = sum(P.count_on_map(after, k) for k in (3, 4, 5, 6, 7, 8, 9, 10, 11))
    g0 = sum(P.count_on_map(st, k) for k in (0, 1, 2))
    g1 = sum(P.count_on_map(after, k) for k in (0, 1, 2))
    if ts1 < ts0 or g1 < g0 - 1:
        return False
    return ts1 > ts0 or ins1 < ins0 or after["res"][0] > st["res"][0] or after["aid"] > st["aid"] or g1 > g0


def insurgent_ok_vs_np_govt(st, f, after) -> bool:
    """8.1: with a Non-player Government, Insurgent Non-players take only Events meeting these tests."""
    pieces_before = sum(st["pc"][i][k] for i in range(BD.n) for k in (3 * f, 3 * f + 1, 3 * f + 2))
    pieces_after = sum(after["pc"][i][k] for i in range(BD.n) for k in (3 * f, 3 * f + 1, 3 * f + 2))
    if pieces_after > pieces_before or after["res"][f] > st["res"][f]:
        return True
    moved = any(st["pc"][i][3 * f:3 * f + 3] != after["pc"][i][3 * f:3 * f + 3] for i in range(BD.n))
    if moved:
        return True
    if f == 2 and P.total_support(after) > P.total_support(st):
        return True
    if f == 1 and P.total_opposition(after) > P.total_opposition(st):
        return True
    for g in range(4):
        if g == f or is_np(st, g):
            continue
        if after["res"][g] < st["res"][g]:
            return True
        if sum(P.fpieces(after["pc"][i], g) for i in range(BD.n)) < sum(P.fpieces(st["pc"][i], g) for i in range(BD.n)):
            return True
        if g in newly_ineligible(st, f, after):
            return True
    return False


def np_decide(st: dict, fr: dict) -> tuple:
    """8.1 / 8.8.1-8.8.2: what the flowchart does with the ``elig`` frame ``fr`` (no state change
    except Non-player random draws). Returns (kind, arg, plan, reasons): kind is "pass", "event"
    (arg = side) or "op" (arg = Operation)."""
    f, pos = fr["f"], fr["pos"]
    card = BD.cards[st["cur"]]
    _, ev_ok, op_ok, lim, _ = Elig.options(st, fr)
    reasons = []
    if f == 0 and is_prop(st["nxt"]) is False and st["nxt"] in CAPS and st["cur"] not in CAPS:
        return ("pass", None, None, [("Pass to be Eligible for the Capability on the next card", "8.8.1")])
    side = "unshaded" if (f == 0 or card.get("single")) else "shaded"
    if ev_ok:
        if f == 0:
            want = True
        elif pos == 1:
            want = FACTIONS.index(card["order"][0]) == f
        else:
            want = not card.get("np_ops_if_second")
        if card["n"] == 63:
            want = False  # Playbook: Non-players always choose Operations over Narco-War
        if want:
            eff = event_effect(st, f, side)
            if eff is None or not (eff["changed"] or eff["capability"]):
                reasons.append((f"Event {card['n']} would have no effect: Operations instead", "8.1"))
            elif card.get("momentum") and side == "shaded" and is_prop(st["nxt"]) and card["n"] not in (22, 67):
                reasons.append(("Momentum Event with Propaganda next would not matter: Operations", "8.1"))
            elif f == 0 and not (eff["capability"] or govt_likes(st, eff["st"])):
                reasons.append(("Event would not help the Government (derived Event Instruction): Operations",
                                "8.8.2"))
            elif f != 0 and is_np(st, 0) and not insurgent_ok_vs_np_govt(st, f, eff["st"]):
                reasons.append(("Event fails the Non-player Government restrictions: Operations", "8.1"))
            else:
                reasons.append((f"executes Event {card['n']} {card['title']} ({side})", "8.1" if f else "8.8.2"))
                return ("event", side, None, reasons)
    if not op_ok:
        reasons.append(("no Operation allowed here: Pass", "8.1"))
        return ("pass", None, None, reasons)
    d = govt_ops(st, fr) if f == 0 else insurgent_ops(st, fr)
    return (d[0], d[1], d[2], reasons + [d[3]])


def discord_applies(st: dict, fr: dict) -> bool:
    """8.1 Insurgent Discord: 2 players, Government a player, 2nd Eligible Non-player Insurgent
    with at least 1 Resource and the Event open to it."""
    f = fr["f"]
    players = len({st["ctl"][g] for g in range(4) if g not in st["np"]})
    if players != 2 or 0 in st["np"] or f == 0 or fr["pos"] != 2 or st["res"][f] < 1:
        return False
    return Elig.options(st, fr)[1]


def np_turn(st: dict, fr: dict, facts: list) -> None:
    """Resolve ``np:act`` for a Non-player Faction's ``elig`` frame."""
    f = fr["f"]
    fr["done"] = 1
    if discord_applies(st, fr):
        from .frames import push
        why(st, facts, f, "Insurgent Discord: the Government chooses Event or Operations", "8.1")
        push(st, {"k": "discord", "f": 0, "np": f, "elig": len(st["stack"]) - 1})
        return
    kind, arg, plan, reasons = np_decide(st, fr)
    np_execute(st, fr, facts, kind, arg, plan, reasons)


def np_execute(st, fr, facts, kind, arg, plan, reasons):
    f = fr["f"]
    for text, rule in reasons:
        why(st, facts, f, text, rule)
    if kind == "pass":
        do_pass(st, fr, facts)
    elif kind == "event":
        record_exec(st, f, "event")
        from .events import start_event
        start_event(st, f, st["cur"], arg, facts, auto="np")
    else:
        record_exec(st, f, "op")
        o = start_op(st, f, arg, lim=False, free=False, facts=facts, auto="np")
        o["plan"] = plan
        o["nsp"] = 0


@frame("discord")
class Discord:
    """8.1 Insurgent Discord: the Government player picks Event (with effect) or Operations."""

    @staticmethod
    def prompt(st, fr):
        g = fr["np"]
        chs = []
        eff = event_effect(st, g, "unshaded" if BD.cards[st["cur"]].get("single") else "shaded")
        if eff is not None and (eff["changed"] or eff["capability"]):
            chs.append(C("discord:event", f"{FNAME[g]} executes the Event"))
        chs.append(C("discord:ops", f"{FNAME[g]} conducts Operations"))
        return (f"Insurgent Discord: Non-player {FNAME[g]} is 2nd Eligible - Event or Operations?", "8.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            wait(fr)
            return
        from .frames import pop
        pop(st, fr)
        efr = st["stack"][fr["elig"]]
        card = BD.cards[st["cur"]]
        if cid == "discord:event":
            side = "unshaded" if card.get("single") else "shaded"
            np_execute(st, efr, facts, "event", side, None, [(f"executes Event {card['n']} (Insurgent Discord)", "8.1")])
            return
        d = insurgent_ops(st, efr)
        np_execute(st, efr, facts, d[0], d[1], d[2], [d[3]])


def do_pass(st, fr, facts):
    f = fr["f"]
    P.set_res(st, f, 3 if f == 0 else 1, facts, "Pass, 2.3.3")
    facts.append(fact("pass", f"{FNAME[f]} passes", faction=FACTIONS[f]))
    fr["done"] = 0
    st["sop"]["i"] += 1
    from .frames import pop
    pop(st, fr)


def begin(st, fr, facts, f, op, plan, rule, text):
    return ("op", op, plan, (text, rule))


# ====================================================================== 8.5-8.7 Insurgents
def avail_pieces(st, f):
    return st["av"][U(f)] + st["av"][B(f)]


def could_base(st, f, need=2):
    return st["av"][B(f)] > 0 and any(
        P.guerrillas(st["pc"][i], f) >= need and P.can_stack_base(st, i) and rally_space_ok(st, f, i)
        for i in P.spaces(st))


PLANS = {
    3: {"rally": ({"max": 3, "sa": ["cultivate", "process"]}, "8.5.1"), "march": ({"max": 3, "sa": ["process"]}, "8.5.2"),
        "terror": ({"max": 3, "sa": ["bribe"]}, "8.5.3")},
    2: {"rally": ({"max": 3, "sa": ["extort"]}, "8.6.1"), "march": ({"max": 3, "sa": ["extort"]}, "8.6.2"),
        "attack": ({"max": 3, "sa": ["ambush"]}, "8.6.3"), "terror": ({"max": 3, "sa": ["assassinate"]}, "8.6.4")},
    1: {"rally": ({"max": 99, "sa": ["extort"]}, "8.7.1"), "march": ({"max": 4, "sa": ["extort"]}, "8.7.2"),
        "attack": ({"max": 99, "sa": ["ambush"]}, "8.7.3"), "terror": ({"max": 99, "sa": ["kidnap"]}, "8.7.4")},
}


def feasible(st, f, op) -> bool:
    """8.1.1 Op Not Possible: can the flowchart Operation be carried out in at least one space?"""
    if op == "march":
        return any(any(march_target(st, f, j) for j in P.adj(st, i))
                   for _, i, _ in march_groups(st, f, [f"from:{IDS[i]}" for i in P.spaces(st)], {}))
    fr = {"sel": [], "free": False}
    return any(rank_space(st, f, op, i) is not None for i in space_candidates(st, f, op, fr))


FLOW_ORDER = ("rally", "march", "attack", "terror")   # the Insurgent flowcharts' boxes, top down


def insurgent_ops(st, fr, facts=None):
    """8.5-8.7, then 8.1.1 Op Not Possible: when the chosen Operation is impossible, follow the
    "if none" arrow *up one box* to the next higher Operation on the chart (Terror -> Attack ->
    March -> Rally; the Cartels chart has no Attack), again if that one is impossible too, and
    Pass when Rally is impossible (Playbook, "What if a Non-Player Faction Cannot Execute its
    Assigned Operation?": "follow the curved 'if none' arrow up one box ... If Rally is assigned
    but impossible, Pass instead")."""
    d = insurgent_flowchart(st, fr)
    if d[0] != "op" or feasible(st, fr["f"], d[1]):
        return d
    f = fr["f"]
    for op in reversed(FLOW_ORDER[:FLOW_ORDER.index(d[1])]):
        if op in PLANS[f] and feasible(st, f, op):
            plan, rule = PLANS[f][op]
            return ("op", op, plan, (f"{d[3][0]} impossible: {op.capitalize()} instead ('if none', up the chart)",
                                     "8.1.1"))
    return ("pass", None, None, (f"{d[3][0]} impossible and none above it on the chart: Pass", "8.1.1"))


def insurgent_flowchart(st, fr, facts=None):
    f = fr["f"]
    if st["res"][f] == 0:
        return ("pass", None, None, ("0 Resources: Pass", "8.1"))
    sps = P.spaces(st)
    if f == 3:
        if avail_pieces(st, 3) >= 10 or could_base(st, 3):
            return begin(st, fr, facts, 3, "rally", {"max": 3, "sa": ["cultivate", "process"]}, "8.5.1",
                         "Rally (10+ pieces Available or a Base possible)")
        if len(st["ship"]) < 4:
            return begin(st, fr, facts, 3, "march", {"max": 3, "sa": ["process"]}, "8.5.2", "March (Shipment available)")
        return begin(st, fr, facts, 3, "terror", {"max": 3, "sa": ["bribe"]}, "8.5.3", "Terror")
    if f == 2:
        if st["av"][U(2)] >= 6 or could_base(st, 2, 3):
            return begin(st, fr, facts, 2, "rally", {"max": 3, "sa": ["extort"]}, "8.6.1",
                         "Rally (6+ Guerrillas Available or a Base possible)")
        fb = [i for i in sps if st["pc"][i][5]]
        with_auc = [i for i in fb if P.guerrillas(st["pc"][i], 2)]
        if fb and len(with_auc) * 2 < len(fb):
            return begin(st, fr, facts, 2, "march", {"max": 3, "sa": ["extort"]}, "8.6.2",
                         "March (fewer than half of FARC Base spaces hold AUC Guerrillas)")
        if not any(st["pc"][i][6] for i in fb):
            return begin(st, fr, facts, 2, "attack", {"max": 3, "sa": ["ambush"]}, "8.6.3", "Attack")
        return begin(st, fr, facts, 2, "terror", {"max": 3, "sa": ["assassinate"]}, "8.6.4", "Terror")
    # FARC 8.7
    if st["av"][U(1)] >= 9 or could_base(st, 1):
        return begin(st, fr, facts, 1, "rally", {"max": 99, "sa": ["extort"]}, "8.7.1",
                     "Rally (9+ Guerrillas Available or a Base possible)")
    strong = any((BD.is_loc[i] or st["sup"][i] > 0) and (st["pc"][i][3] or P.fpieces(st["pc"][i], 1) >= 3) for i in sps)
    if not strong:
        return begin(st, fr, facts, 1, "march", {"max": 4, "sa": ["extort"]}, "8.7.2",
                     "March (no Support space or LoC holds FARC strength)")
    if st["res"][1] > st["res"][0]:
        return begin(st, fr, facts, 1, "attack", {"max": 99, "sa": ["ambush"]}, "8.7.3", "Attack (more Resources than Govt)")
    return begin(st, fr, facts, 1, "terror", {"max": 99, "sa": ["kidnap"]}, "8.7.4", "Terror")


def march_target(st, f, i):
    pc = st["pc"][i]
    if f == 3:
        return not BD.is_loc[i] and P.bases(pc) < 2 and any(P.guerrillas(st["pc"][j], 3) >= 2 for j in P.adj(st, i))
    if f == 2:
        return not BD.is_loc[i] and P.fpieces(pc, 1) and not P.guerrillas(pc, 2)
    if BD.is_loc[i]:
        return not st["sab"][i] and not P.guerrillas(pc, 1) and not final_event_card(st)
    return BD.pop[i] > 0 and st["sup"][i] >= 0 and P.control(st, i) != "farc"


def rank_space(st, f, op, i):
    """Higher tuple = higher priority for an Operation space (None = do not select)."""
    pc = st["pc"][i]
    if op == "rally":
        # 8.5.1 / 8.6.1 / 8.7.1 bullets in order; ties random (8.2)
        g = P.guerrillas(pc, f)
        if pc[B(f)] and P.cubes(pc) and pc[A(f)] and (f == 1 or not pc[U(f)]):
            return (5, 0)      # flip Underground (Cartels/AUC: where all are Active)
        # replace 2 Guerrillas with a Base (8.5.1 / 8.7.1: 2 Guerrillas "without Shipments")
        free = g - (sum(1 for x in st["ship"] if x[0] == i and x[1] == f) if f in (1, 3) else 0)
        if free >= (3 if f == 2 else 2) and P.bases(pc) < 2 and st["av"][B(f)]:
            return (4, 0)
        if not st["av"][U(f)]:
            return None
        if f == 2 and pc[5]:
            return (3, 0)      # AUC: FARC Base spaces, then AUC Base spaces
        if pc[B(f)] and (f != 3 or g == 0):
            return (2, 0)      # Base spaces (Cartels: only those without Cartels Guerrillas)
        if f == 3:             # 8.5.1 last bullet: 1 Department where Cultivate could then place a Base
            ok = BD.is_dept[i] and BD.pop[i] > 0 and P.bases(pc) < 2 and g + 1 > pc[1]
            return (1, 0) if ok else None
        if g in (1, 2) and (f != 2 or st["av"][B(2)]):
            return (1, 0)      # the "other" space: where 1 or 2 Guerrillas already are
        return (0, 0)          # otherwise random
    if op == "attack":
        g = P.guerrillas(pc, f)
        tgt = attack_removable(st, f, i)
        if not tgt:
            return None
        ship = any(s[0] == i and s[1] != f for s in st["ship"])
        if f == 1:
            # 8.7.3: everywhere with 3+ FARC Guerrillas, then 1 City or Department (else LoC)
            # with an Underground Guerrilla for the Ambush
            if g >= 3:
                return (3, 1 if ship else 0, g)
            if pc[U(f)]:       # equal candidates: random (8.2), not by Guerrilla count
                return (0 if BD.is_loc[i] else 1, 1 if ship else 0)
            return None
        if f == 2 and not ship and not any(k <= 5 for k in tgt):
            return None        # 8.6.3: the AUC targets Shipments, then FARC, then Government only
        if g >= 3 or pc[U(f)]:
            return (g, 1 if ship else 0)   # 8.6.3 (and Cartels by Event): most Guerrillas first
        return None
    if op == "terror":
        if BD.is_loc[i]:
            return (3, BD.econ[i]) if f == 1 and not st["sab"][i] else None
        if BD.pop[i] <= 0:
            return (2, 0) if f == 1 and kidnap_could(st, i) else None
        s = st["sup"][i]
        if f == 1:
            # 8.7.4: after the LoCs, spaces where Kidnap could take Resources or a Shipment (at
            # any level: the bullet names none), then the other spaces with Population not at
            # Active Opposition
            if kidnap_could(st, i):
                return (2, BD.pop[i])
            return (1, BD.pop[i]) if s > -2 else None
        if f == 2:
            if pc[5] and pc[1] < P.guerrillas(pc, 2):
                return (3, BD.pop[i])
            if is_np(st, 0) and s > 0:
                return None
            return (2 if P.fpieces(pc, 1) else 1, BD.pop[i]) if s != 0 else (0, BD.pop[i])
        # Cartels 8.5.3: Support, then Opposition, then Neutral spaces (Opposition first with a
        # Non-player Government and a player FARC); spaces of one level are equal (8.2 picks)
        order = (-1, 1, 0) if (is_np(st, 0) and not is_np(st, 1)) else (1, -1, 0)
        return (3 - order.index(1 if s > 0 else -1 if s < 0 else 0), 0)
    if op == "assault":
        n = assault_removals(st, i)
        if n <= 0 or not assault_targets(st, i):
            return None
        if BD.is_loc[i]:
            if cap(st, 3) != "u":
                return None
            return (0, 0, 0, 0, BD.econ[i])  # 8.8.3: Tapias LoCs after every City/Department
        return assault_priority(st, i, n) + (BD.pop[i],)
    if op == "train":
        if P.is_zone(st, i) or BD.is_loc[i]:
            return None
        if not (BD.is_city[i] or pc[2]):
            return None
        g = pc[0] + pc[1] + pc[2]
        others = sum(pc) - g
        change = BD.pop[i] if (g <= others and g + 6 > others) else -1   # 8.8.4: most Population
        # then Police or Troops where there are none yet (Police first), then random (8.2)
        return (change, 2 if not pc[1] else 1 if not pc[0] else 0)
    if op == "sweep":
        return sweep_rank(st, i)
    return (0,)


def sweep_spare(st, j) -> int:
    """8.8.6: Troops that may leave space ``j`` for a Sweep without removing Government Control,
    leaving a Support space with fewer than 3 cubes, or a LoC with fewer cubes than Guerrillas
    (+1 with 7th Special Forces shaded)."""
    pc = st["pc"][j]
    n = 0
    while n < pc[0]:
        after = [pc[0] - n - 1] + pc[1:]
        if P.govt_control(pc) and not P.govt_control(after):
            break
        if st["sup"][j] > 0 and P.cubes(after) < 3:
            break
        if BD.is_loc[j] and P.cubes(after) < P.all_guerrillas(pc) + (1 if cap(st, 7) == "s" else 0):
            break
        n += 1
    return n


def sweep_rank(st, i):
    """8.8.6 Sweep spaces: first where all Guerrillas can be Activated, then where Government
    Control can be added; within those Cities, then Departments; then Support, then cubes
    already present, then elsewhere; then the largest Population. None: nothing to gain."""
    from .ops import sweep_dest_ok, sweep_sources
    if BD.is_loc[i] or not sweep_dest_ok(st, i):
        return None
    pc = st["pc"][i]
    und = sum(pc[k] for k in (3, 6, 9))
    inflow = sum(sweep_spare(st, j) for j in sweep_sources(st, i, None))
    cubes = P.cubes(pc) + inflow
    all_act = und > 0 and (cubes // 2 if BD.forest[i] else cubes) >= und
    g = P.fpieces(pc, 0)
    others = sum(pc) - g
    add_ctl = BD.pop[i] > 0 and not P.govt_control(pc) and g + inflow > others
    if not (und or add_ctl):
        return None
    return (1 if all_act else 0, 1 if add_ctl else 0, 1 if BD.is_city[i] else 0, 1 if st["sup"][i] > 0 else 0,
            1 if P.cubes(pc) else 0, BD.pop[i])


def kidnap_could(st, i) -> bool:
    """4.3.3 / 8.7.4: FARC Guerrillas outnumber Police and a target has Resources or a
    Shipment: the Government in a City or on a LoC, the Cartels where they have a Base."""
    pc = st["pc"][i]
    if P.guerrillas(pc, 1) <= pc[1]:
        return False
    if (BD.is_city[i] or BD.is_loc[i]) and st["res"][0] > 0:
        return True
    return bool(pc[11]) and (st["res"][3] > 0 or any(x[0] == i and x[1] == 3 for x in st["ship"]))


def assault_priority(st, i, n):
    """8.8.3 order: most Insurgent Bases removed, then Government Control gained (Population),
    then most Shipments removed, then the last Insurgent piece removed (1 = yes)."""
    pc = st["pc"][i]
    left = n
    removed = 0
    bases = 0
    ships = 0
    gone = []
    # cheapest factions first: their Bases fall once their (all Active) Guerrillas are gone
    for g in sorted((1, 2, 3), key=lambda g: pc[A(g)]):
        if left <= 0:
            break
        k = min(left, pc[A(g)])
        left -= k
        removed += k
        if k == pc[A(g)] and not pc[U(g)]:
            if pc[A(g)]:
                gone.append(g)
            b = min(left, pc[B(g)])
            left -= b
            removed += b
            bases += b
    for s_ in st["ship"]:
        if s_[0] == i and s_[1] in gone and not pc[U(s_[1])]:
            ships += 1
    ins = sum(pc[3:])
    g0 = P.fpieces(pc, 0)
    gain = BD.pop[i] if (g0 <= ins and g0 > ins - removed) else 0
    last = 1 if removed >= ins and ins > 0 else 0
    return (bases, gain, ships, last)


# ====================================================================== 8.8 Government
def govt_ops(st, fr, facts=None):
    sps = P.spaces(st)
    res = st["res"][0]
    cost = 1 if cap(st, 3) == "u" else 3

    def assault_gain(i):
        pc = st["pc"][i]
        if BD.is_loc[i] or mom(st, 17) and BD.is_dept[i]:
            return 0, False
        n = assault_removals(st, i)
        ts = assault_targets(st, i)
        if n <= 0 or not ts:
            return 0, False
        act = sum(pc[k] for k in (4, 7, 10))
        ship = any(s[0] == i for s in st["ship"]) and act >= 1
        player_base = any(pc[B(g)] and not P.guerrillas(pc, g) and not is_np(st, g) for g in (1, 2, 3))
        return min(n, act), ship or player_base
    total = 0
    special = False
    for i in sps:
        k, s = assault_gain(i)
        total += k
        special = special or s
    if res >= cost and (special or total >= 4):
        return begin(st, fr, facts, 0, "assault", {"max": max(1, 9 // cost), "sa": ["pre"]}, "8.8.3",
                     "Assault (would remove a Shipment, a player's Base or 4+ Guerrillas)")
    avail = st["av"][0] + st["av"][1] + st["av"][2]
    # 8.8.4 / 8.8.8: Civic Action in a space without Terror that leaves 15+ Resources after
    # paying for its Train space - judged, like the 3rd Train bullet it serves, after the Train
    # has placed its cubes where it may (a City or a Govt-Base Department, 8.1.2 mix)
    can_civic = any(civic_levels(st, i, train_placed(st, i), res - 3) for i in sps)
    if res >= 3 and (avail >= 10 or can_civic):
        return begin(st, fr, facts, 0, "train", {"max": 3, "sa": ["mid"]}, "8.8.4", "Train (10+ pieces Available or Civic Action)")
    loc_threat = any(BD.is_loc[i] and (P.all_guerrillas(st["pc"][i]) and (
        sum(st["pc"][i][k] for k in (3, 6, 9)) or P.all_guerrillas(st["pc"][i]) > P.cubes(st["pc"][i]))) for i in sps)
    if loc_threat and res >= 3:
        return begin(st, fr, facts, 0, "patrol", {"max": 99, "sa": ["post"]}, "8.8.5", "Patrol (Guerrillas threaten LoCs)")
    scost = 1 if cap(st, 2) == "u" else 3
    if res >= scost and not final_event_card(st) or res >= scost:
        if any(sweep_rank(st, i) is not None for i in space_candidates(st, 0, "sweep", {"sel": [], "free": False})):
            return begin(st, fr, facts, 0, "sweep", {"max": max(1, 12 // scost), "sa": ["pre"]}, "8.8.6", "Sweep")
    if res >= 3 and avail:
        return begin(st, fr, facts, 0, "train", {"max": 4, "sa": ["mid"]}, "8.8.4", "Train ('if none' arrow)")
    return ("pass", None, None, ("cannot afford an Operation: Pass", "8.1"))


def govt_sa(st, chs_ids, op_fr=None):
    """8.8.7: Eradicate (player Cartels with 8+ Bases), else Air Strike, else Air Lift, else Eradicate.
    ``op_fr``: the accompanying Operation's frame (Eradicate never in an Assault space)."""
    cb = P.count_on_map(st, 11)
    order = []
    if not is_np(st, 3) and cb >= 8:
        order.append("sa:eradicate")
    order += ["sa:airstrike", "sa:airlift", "sa:eradicate"]
    for o in order:
        if o == "sa:airstrike" and o in chs_ids and airstrike_pick(st) is None:
            continue  # 8.8.7: no Base of a player AUC/FARC nor last Insurgent piece: Air Lift
        if o == "sa:eradicate" and o in chs_ids and not (set(eradicate_spaces(st)) - eradicate_skip(st, op_fr)):
            continue  # 8.8.7: only a Department not selected (or about to be) for the Assault
        if o in chs_ids:
            return o
    return None


def eradicate_skip(st, op_fr) -> set:
    """8.8.7: Departments Eradicate must leave alone - those selected, or about to be selected per
    8.8.3, for the accompanying Assault."""
    if not op_fr or op_fr.get("k") != "op":
        return set()
    skip = set(op_fr.get("sel", ()))
    if op_fr.get("op") == "assault":
        left = (op_fr.get("plan") or {}).get("max", 3) - len(op_fr.get("sel", ()))
        if left > 0:
            skip |= assault_plan_spaces(st, left)
    return skip


def airstrike_pick(st, spaces=None):
    """8.8.7 Air Strike target as (space, Faction): a player AUC's Base, then a player FARC's
    Base; otherwise the last Insurgent piece of a space, first on the highest-Econ LoC (with an
    Active Guerrilla), then in the highest-Population Department, a player's piece before a
    Non-player's, then random. None: no such target (Air Lift instead)."""
    from .ops import airstrike_spaces, airstrike_targets
    sps = airstrike_spaces(st) if spaces is None else spaces
    for g in (2, 1):
        if is_np(st, g):
            continue
        cands = [i for i in sps if g in airstrike_targets(st, i) and st["pc"][i][B(g)] and not P.guerrillas(st["pc"][i], g)]
        if cands:
            return rnd(st, cands), g
    pairs, tgt = [], {}
    for i in sps:
        pc = st["pc"][i]
        if sum(pc[3:]) != 1:
            continue
        g = tgt[sp_id(i)] = airstrike_targets(st, i)[0]
        pairs.append(((1 if BD.is_loc[i] else 0, BD.econ[i] if BD.is_loc[i] else BD.pop[i], 0 if is_np(st, g) else 1),
                      sp_id(i)))
    c = rnd_best(st, pairs)
    return (BD.index[c[6:]], tgt[c]) if c else None


# ====================================================================== policies
def np_policy(st, fr, chs):
    k = fr["k"]
    ids = [c.id for c in chs]
    fn = KIND.get(k)
    if fn is not None:
        r = fn(st, fr, chs, ids)
        if r is not None and r in ids:
            return r
    real = [c for c in ids if c not in ("done", "none", "skip", "noship", "np:act", "give")]
    return rnd(st, real) if real else ids[0]


def pol_op(st, fr, chs, ids):
    f, op = fr["f"], fr["op"]
    plan = fr.get("plan") or {"max": 99, "sa": ["mid"] if f == 0 else list(SA_DEFAULT.get(op, []))}
    fr.setdefault("nsp", 0)
    if fr["ph"] == "patrol_assault":
        # 8.8.5: Assault on the LoC that removes the most Insurgents; equal LoCs by 8.3
        pairs = []
        for c in ids:
            if c.startswith("space:"):
                i = BD.index[c[6:]]
                pairs.append((min(assault_removals(st, i), sum(st["pc"][i][k] for k in (4, 7, 10, 5, 8, 11))), c))
        return rnd_best(st, pairs) or "none"
    if f == 0 and op == "train":
        return train_step(st, fr, ids)
    want_sa = [f"sa:{s}" for s in plan.get("sa", []) if f"sa:{s}" in ids and (s != "cultivate" or cultivate_np_ok(st, fr))]
    if f == 0 and fr["sa"] is None:
        pre = (plan.get("sa") or [""])[0]
        if pre == "pre" or (pre == "mid" and fr["sel"]) or (pre == "post" and fr.get("np_moves_done")):
            s = govt_sa(st, ids, fr)
            if s:
                return s
    if f != 0 and fr["sa"] is None and op in ("rally", "march", "terror") and fr["sel"]:
        for s in want_sa:
            # 8.5-8.7: "Then" Extort / Cultivate / Process / Assassinate ...: after the Operation's spaces
            if s != "sa:ambush" and not cand_spaces(ids) and op != "march":
                return s
    if op == "patrol":
        return patrol_step(st, fr, ids)
    if op == "march":
        c = march_step(st, fr, ids)
        if c == "done" and f != 0 and fr["sa"] is None:   # 8.5.2 / 8.6.2 / 8.7.2: then the SA
            for s in want_sa:
                if s != "sa:ambush":
                    return s
        return c
    if fr["nsp"] < plan["max"]:
        best = None
        ranked = []
        for c in ids:
            if not c.startswith("space:"):
                continue
            r = rank_space(st, f, op, BD.index[c[6:]])
            if r is not None:
                ranked.append((r, c))
        if ranked and f == 1 and op == "terror" and any(r[0] == 2 for r, _ in ranked):
            # 8.7.4 second bullet: Kidnap spaces only "until there are 3 such spaces (including
            # LoCs)"; past that, a Kidnap space is taken only as a space of the last bullet
            if sum(1 for j in fr["sel"] if kidnap_could(st, j)) >= 3:
                ranked = [((1,) + r[1:] if r[0] == 2 else r, c) for r, c in ranked
                          if r[0] != 2 or (BD.pop[BD.index[c[6:]]] > 0 and st["sup"][BD.index[c[6:]]] > -2)]
        if ranked and f == 2 and op == "terror":
            # 8.6.4: 1 space with a FARC Base and fewer Police than AUC Guerrillas, then 1 other
            # with any FARC piece, then others; each a random pick among its candidates (8.2)
            def bullet(c):
                pc = st["pc"][BD.index[c[6:]]]
                return 0 if pc[5] and pc[1] < P.guerrillas(pc, 2) else 1 if P.fpieces(pc, 1) else 2
            stage = fr.get("np_stage", 0)
            want = next(w for w in range(stage, 3) if w == 2 or any(bullet(c) <= w for _, c in ranked))
            fr["np_stage"] = min(want + 1, 2)
            best = (((2 - want, 0), 0), rnd(st, [c for _, c in ranked if bullet(c) <= want]))
            ranked = []
        if ranked:
            top = max(r for r, _ in ranked)
            tied = [c for r, c in ranked if r == top]
            # a FARC bullet naming "all such spaces" (rank 2+) takes them all: the order needs
            # no dice; a limited choice among equal spaces goes by 8.2 / 8.3 (rnd)
            other = ((op == "rally" and f in (1, 3)) or (op == "attack" and f == 1)) and top[0] <= 1
            if other and f == 3 and any(BD.is_dept[j] and BD.pop[j] > 0 and P.bases(st["pc"][j]) < 2
                                        and P.guerrillas(st["pc"][j], 3) > st["pc"][j][1] for j in fr["sel"]):
                fr["np_other"] = 1     # 8.5.1: a Rally space already lets Cultivate place a Base
            if not (other and fr.get("np_other")):     # no roll for a space that will not be taken
                best = ((top, 0), tied[0] if plan["max"] >= 99 and top[0] >= 2 else rnd(st, tied))
        if best is not None and ((op == "rally" and f in (1, 3)) or (op == "attack" and f == 1)) \
                and best[0][0][0] <= 1:
            # 8.7.1 / 8.5.1: only 1 "other" Rally space beyond the listed priorities; 8.7.3:
            # only 1 space with an Underground Guerrilla (for the Ambush) beyond the 3+ ones
            if fr.get("np_other"):
                best = None
            else:
                fr["np_other"] = 1
        if best is not None:
            fr["nsp"] += 1
            return best[1]
    if f != 0 and fr["sa"] is None:
        for s in want_sa:
            if s != "sa:ambush":
                return s
    if f == 0 and fr["sa"] is None and (plan.get("sa") or [""])[0] in ("mid", "post"):
        s = govt_sa(st, ids, fr)
        if s:
            return s
    return "done" if "done" in ids else None


def train_mix(st) -> tuple:
    """8.1.2: up to 6 cubes, alternating Police and Troops (Police first when even)."""
    at, ap = st["av"][0], st["av"][1]
    tot = min(6, at + ap)
    p = min(ap, (tot + 1) // 2)
    t = min(at, tot - p)
    p = min(ap, tot - t)
    return t, p


def civic_levels(st, i, pc=None, res=None) -> int:
    """8.8.4 / 8.8.8: Support levels Civic Action in Train could buy in space ``i`` (no Terror,
    Troops, Police and Govt Control, never below 15 Resources); 0 when none."""
    pc = st["pc"][i] if pc is None else pc
    res = st["res"][0] if res is None else res
    if BD.is_loc[i] or BD.pop[i] <= 0 or st["ter"][i] or st["sup"][i] >= 2 or not P.active_space(st, i):
        return 0
    if not P.govt_control(pc):
        return 0
    if cap(st, 1) == "s":
        if pc[0] < 2 or pc[1] < 2:
            return 0
    elif not (pc[0] and pc[1]):
        return 0
    return max(0, min(2 - st["sup"][i], (res - 15) // 3))


def train_placed(st, i) -> list:
    """Pieces of space ``i`` once a Train has placed its cubes there (3.2.1: Cities and
    Departments with a Govt Base, not a FARC Zone; 8.1.2 mix of the Available cubes)."""
    pc = st["pc"][i]
    if BD.is_loc[i] or not (BD.is_city[i] or pc[2]) or P.is_zone(st, i):
        return pc
    t, p = train_mix(st)
    return [pc[0] + t, pc[1] + p] + pc[2:]


def train_extra_civic(st, fr, ids):
    """8.8.4 third bullet: 1 additional Train space where Civic Action is possible (after placing
    up to 6 cubes per 8.1.2 there if able), for the largest shift (levels x Population)."""
    from .ops import op_cost
    pairs = []
    for c in ids:
        if not c.startswith("space:"):
            continue
        i = BD.index[c[6:]]
        pc = list(st["pc"][i])
        if BD.is_city[i] or pc[2]:
            t, p = train_mix(st)
            pc[0] += t
            pc[1] += p
        lv = civic_levels(st, i, pc, st["res"][0] - op_cost(st, 0, "train", i))
        if lv > 0:
            pairs.append((lv * BD.pop[i], c))
    return rnd_best(st, pairs)


def train_base_dept(st, ids):
    """8.8.4 last bullet: the Department with the highest Population (1+) without a Govt Base,
    with room for a Base and at least 5 cubes."""
    if not st["av"][2]:
        return None
    cands = []
    for c in ids:
        if not c.startswith("space:"):
            continue
        i = BD.index[c[6:]]
        pc = st["pc"][i]
        if BD.is_dept[i] and BD.pop[i] > 0 and not pc[2] and P.can_stack_base(st, i) and P.cubes(pc) >= 5:
            cands.append((BD.pop[i], c))
    if not cands:
        return None
    top = max(k for k, _ in cands)
    return rnd(st, [c for k, c in cands if k == top])


def train_step(st, fr, ids):
    """8.8.4 Train, bullet by bullet: up to 3 spaces with exactly 6 cubes (8.1.2), then a Special
    Activity (8.8.7), then Civic Action in a Train space or 1 additional space, and if no Civic
    Action is possible, a Base in the highest-Population Department with 5+ cubes."""
    ph = fr.setdefault("np_ph", "place")
    if ph == "place":
        if fr["nsp"] < 3 and st["av"][0] + st["av"][1]:
            pairs = [(r, c) for c in ids if c.startswith("space:")
                     for r in (rank_space(st, 0, "train", BD.index[c[6:]]),) if r is not None]
            if pairs:
                fr["nsp"] += 1
                return rnd_best(st, pairs)
        fr["np_ph"] = ph = "sa"
    if ph == "sa":
        fr["np_ph"] = ph = "civic"
        if fr["sa"] is None:
            s = govt_sa(st, ids)
            if s:
                return s
    if ph == "civic":
        fr["np_ph"] = "end"
        if not any(civic_levels(st, i) for i in fr["sel"]):
            c = train_extra_civic(st, fr, ids)
            if c is None:
                c = train_base_dept(st, ids)
            if c is not None:
                return c
    return "done" if "done" in ids else None


SA_DEFAULT = {"rally": ["extort", "cultivate", "process"], "march": ["extort", "process"],
              "attack": ["ambush"], "terror": ["kidnap", "assassinate", "bribe"]}


def cand_spaces(ids):
    return [c for c in ids if c.startswith("space:")]


def patrol_plan(st, fr, ids):
    """8.8.5 Patrol movement: the next (origin, slot, destination), or None.

    Police then Troops, never the last cube of a type from a City or Department, each cube once:
    first bring each LoC's cubes up to its Guerrillas (+1 with 7th Special Forces shaded) from the
    space with most cubes able to reach it; then from Govt-Controlled spaces with 4+ cubes (largest
    surplus above Control first) until Cities have 3+ cubes, Govt Control, Troops and Police; then
    1 Police to each 3-Econ LoC without Police."""
    from .ops import patrol_reach
    origins = [BD.index[c[5:]] for c in ids if c.startswith("from:")]
    pcs = st["pc"]
    moved = fr["moved"]

    def movable(i, slot):
        if BD.is_loc[i]:
            return 0
        return pcs[i][slot] - 1 - moved.get(str(i), 0)   # cubes that arrived stay put

    def pick(dest, origin_ok, slots=(1, 0)):
        best = None
        for i in origins:
            if i == dest or not origin_ok(i) or dest not in patrol_reach(st, i):
                continue
            for slot in slots:
                if movable(i, slot) > 0:
                    key = (P.cubes(pcs[i]), slot)
                    if best is None or key > best[0]:
                        best = (key, (i, slot, dest))
                    break
        return best[1] if best else None

    extra = 1 if cap(st, 7) == "s" else 0
    for j in sorted(BD.locs, key=lambda j: -BD.econ[j]):
        if P.all_guerrillas(pcs[j]) + extra > P.cubes(pcs[j]) and P.all_guerrillas(pcs[j]):
            got = pick(j, lambda i: True)
            if got:
                return got

    def surplus(i):
        pc = pcs[i]
        g = P.fpieces(pc, 0)
        return g - (sum(pc) - g) - 1

    def donor(i):
        return P.cubes(pcs[i]) >= 4 and P.govt_control(pcs[i]) and surplus(i) > 0
    for j in sorted(BD.cities, key=lambda j: -BD.pop[j]):
        pc = pcs[j]
        if P.cubes(pc) >= 3 and P.govt_control(pc) and pc[0] and pc[1]:
            continue
        slots = (1, 0) if not pc[1] else (0, 1) if not pc[0] else (1, 0)
        got = pick(j, donor, slots)
        if got:
            return got
    for j in BD.locs:
        if BD.econ[j] == 3 and not pcs[j][1]:
            got = pick(j, lambda i: True, (1,))
            if got:
                return got
    return None


def patrol_step(st, fr, ids):
    """8.8.5: move cubes per :func:`patrol_plan`, then add a Special Activity, then Done."""
    moves = fr.setdefault("np_moves", 0)
    if moves < 30 and not fr.get("np_moves_done"):
        plan = patrol_plan(st, fr, ids)
        if plan:
            fr["np_moves"] = moves + 1
            fr["np_patrol"] = [plan[1], plan[2]]
            return f"from:{IDS[plan[0]]}"
    fr["np_moves_done"] = 1
    if fr["sa"] is None:
        s = govt_sa(st, ids)
        if s:
            return s
    return "done"


def cartels_march_step(st, fr, ids):
    """8.5.2: March into 1 Department or City with fewer than 2 Bases next to a space with 2+
    Cartels Guerrillas (random among them, 8.2), with all adjacent Cartels Guerrillas but the last
    1 where a Cartels Base is."""
    groups = march_groups(st, 3, ids, fr["moved"])
    dst = cartels_dest(st, fr, groups)
    if dst is None:
        return "done" if "done" in ids else None
    fr["np_cdest"] = dst
    used = [int(g.split(">")[0]) for g in fr.get("groups", ())]
    for c, i, _ in groups:
        if i != dst and dst in P.adj(st, i) and i not in used:   # one group per origin (3.3.2)
            fr.setdefault("np_pref", {})[str(i)] = dst
            fr["nsp"] += 1
            return c
    return "done" if "done" in ids else None


def cartels_dest(st, op, groups):
    """8.5.2: the single March destination - the one already entered, else a random candidate
    (8.2); from the state alone (the frame's ``sel`` and the RNG)."""
    if op.get("np_cdest") is not None:
        return op["np_cdest"]
    if op["sel"]:
        return op["sel"][0]
    cands = [j for j in P.spaces(st) if march_target(st, 3, j)
             and any(i != j and j in P.adj(st, i) for _, i, _ in groups)]
    return rnd(st, cands) if cands else None


def march_step(st, fr, ids):
    f = fr["f"]
    if f == 3:
        return cartels_march_step(st, fr, ids)
    if f == 1:
        return farc_march_step(st, fr, ids)
    if f == 2 and not fr.get("np_closer"):
        # 8.6.2 first bullet: 1 destination, entered by every adjacent group (one per origin)
        groups = march_groups(st, 2, ids, fr["moved"])
        dst = auc_dest(st, fr, groups)
        if dst is not None:
            fr["np_adest"] = dst
            used = [int(g.split(">")[0]) for g in fr.get("groups", ())]
            for c, i, _ in groups:
                if i != dst and dst in P.adj(st, i) and i not in used:
                    fr.setdefault("np_pref", {})[str(i)] = dst
                    fr["nsp"] += 1
                    return c
    if fr["nsp"] >= (fr.get("plan") or {}).get("max", 3) and f != 2:
        return "done" if "done" in ids else None
    best = None
    for c, i, spare in (march_groups(st, f, ids, fr["moved"]) if f != 2 else ()):
        if not any(march_target(st, f, j) for j in P.adj(st, i)):
            continue
        if best is None or spare > best[0]:
            best = (spare, c)
    if best:
        fr["nsp"] += 1
        return best[1]
    if f == 2 and not fr.get("np_closer"):
        c = auc_march_closer(st, fr, ids)
        if c is not None:
            fr["np_closer"] = 1
            fr["nsp"] += 1
            return c
    return "done" if "done" in ids else None


def farc_march_step(st, fr, ids):
    """8.7.2: the origin of the next move of :func:`farc_march_next`; the move is kept in the
    Operation frame for the destination prompt (the engine's own frame; a player seat's bot
    derives the same move again from the unchanged state)."""
    nxt = farc_march_next(st, fr)
    if nxt is None or f"from:{IDS[nxt[0]]}" not in ids:
        return "done" if "done" in ids else None
    src, dst, bullet, _ = nxt
    fr["np_next"] = [src, dst, bullet]
    if bullet == 3:
        fr["np_final"] = 1
    fr["nsp"] += 1
    return f"from:{IDS[src]}"


# ---------------------------------------------------------------- 8.7.2 FARC March, move by move
def farc_spare(st, op) -> dict:
    """8.7.2 guidelines: origin -> FARC Guerrillas free to March (Active Opposition, 0-Population
    Department or Sabotaged LoC origins; Guerrillas that already moved stay, 3.3.2; 1 stays
    where any Base is). Read from the state only."""
    from .ops import march_origins
    out = {}
    for i in march_origins(st, op):
        if farc_march_origin(st, i):
            n = P.guerrillas(st["pc"][i], 1) - op["moved"].get(str(i), 0) - march_keep(st, 1, st["pc"][i])
            if n > 0:
                out[i] = n
    return out


def farc_bullet2_dest(st, j) -> bool:
    """8.7.2 second bullet: a space without FARC Control, Population 1+, at Support or Neutral."""
    return not BD.is_loc[j] and BD.pop[j] >= 1 and st["sup"][j] >= 0 and P.control(st, j) != "farc"


def farc_final_done(st, op) -> bool:
    """Has the 8.7.2 last bullet ("1 more space") been taken? The engine marks it in the
    Operation frame; a player seat's frame (the bot only reads the state) shows it by a space
    entered at Opposition, which the second bullet never enters (a reading, rules notes)."""
    if op.get("np_final"):
        return True
    return any(not BD.is_loc[j] and st["sup"][j] < 0 for j in op["sel"])


def farc_march_next(st, op):
    """8.7.2: the next FARC March move as (origin, destination, bullet, why) or None, derived
    from the state alone (the Operation frame's ``moved`` / ``groups`` / ``sel`` and the RNG), so
    the same call at the origin prompt and at the destination prompt gives the same move.

    Bullet 1 (unless the next Propaganda is final, 2.4.1): LoCs without Sabotage nor a FARC
    Guerrilla that an origin reaches, highest Econ first, equal ones by 8.3; then the origin among
    those adjacent by 8.2; 1 Guerrilla each. Bullet 2: up to 3 spaces per
    :func:`farc_bullet2_dest`, a space where the Guerrillas stay Underground first (3.3.2), equal
    ones by 8.2; every adjacent origin then Marches in (in random order, 8.2) before the next
    space. Bullet 3: 1 more space with Population 1+ next to the origin with the most Guerrillas
    that would move (8.2 among equals). Playbook p. 25-26, steps A-G."""
    from .ops import march_dests
    if farc_final_done(st, op):
        return None
    spare = farc_spare(st, op)
    if not spare:
        return None
    done = set(op.get("groups", ()))
    reach = {i: [j for j in march_dests(st, 1, i, op) if f"{i}>{j}" not in done] for i in spare}

    def origins_to(j):
        return [i for i in spare if j in reach[i]]

    def pick_origin(j):
        return BD.index[rnd(st, [f"from:{IDS[i]}" for i in origins_to(j)])[5:]]
    if not final_event_card(st):
        locs = [j for j in BD.locs if not st["sab"][j] and not P.guerrillas(st["pc"][j], 1) and origins_to(j)]
        if locs:
            top = max(BD.econ[j] for j in locs)
            dst = BD.index[rnd(st, [sp_id(j) for j in locs if BD.econ[j] == top])[6:]]
            return pick_origin(dst), dst, 1, f"1 Guerrilla onto the {top}-Econ LoC {NAME[dst]} (highest Econ first)"
    entered = [j for j in dict.fromkeys(op["sel"]) if not BD.is_loc[j]]
    for j in entered:          # a second-bullet space takes every adjacent origin before the next
        if origins_to(j):
            return pick_origin(j), j, 2, f"into {NAME[j]} with every adjacent origin (second bullet)"
    if len(entered) < 3:
        cands = [j for j in P.spaces(st) if farc_bullet2_dest(st, j) and j not in entered and origins_to(j)]
        hidden = [j for j in cands if march_room(st, 1, j) > 0]
        pool = hidden or cands
        if pool:
            dst = BD.index[rnd(st, [sp_id(j) for j in pool])[6:]]
            how = "the Guerrillas stay Underground there" if hidden else "no candidate keeps them Underground"
            return (pick_origin(dst), dst, 2,
                    f"into {NAME[dst]}, Support or Neutral without FARC Control ({how}; space {len(entered) + 1} of up to 3)")
    most = max(spare.values())
    srcs = [i for i, n in spare.items() if n == most and any(BD.pop[j] >= 1 and not BD.is_loc[j] for j in reach[i])]
    if not srcs:
        return None
    src = BD.index[rnd(st, [f"from:{IDS[i]}" for i in srcs])[5:]]
    dst = BD.index[rnd(st, [sp_id(j) for j in reach[src] if BD.pop[j] >= 1 and not BD.is_loc[j]])[6:]]
    return src, dst, 3, f"1 more space, {NAME[dst]}, from {NAME[src]} with the most Guerrillas that would move (last bullet)"


def farc_distance(st) -> dict:
    """Steps from each space to the nearest FARC Base (any FARC piece when there is no Base)."""
    sps = P.spaces(st)
    seeds = [i for i in sps if st["pc"][i][5]] or [i for i in sps if P.fpieces(st["pc"][i], 1)]
    dist = {i: 0 for i in seeds}
    todo = list(seeds)
    while todo:
        nxt = []
        for i in todo:
            for j in P.adj(st, i):
                if j not in dist:
                    dist[j] = dist[i] + 1
                    nxt.append(j)
        todo = nxt
    return dist


def auc_dest(st, op, groups):
    """8.6.2 first bullet: the single March destination - a City or Department with a FARC piece
    and no AUC Guerrilla, next to a group that may move; a FARC Base if possible, then one where the
    moving Guerrillas stay Underground (8.1.2), then random (8.2). The one already entered, if any
    (from the frame: ``np_adest``, else its first selected space)."""
    if op.get("np_adest") is not None:
        return op["np_adest"]
    if op.get("sel"):
        return op["sel"][0]
    pairs = []
    for j in P.spaces(st):
        if not march_target(st, 2, j):
            continue
        near = [i for _, i, _ in groups if i != j and j in P.adj(st, i)]
        if near:
            hidden = any(st["pc"][i][U(2)] for i in near) and march_room(st, 2, j) > 0
            pairs.append(((1 if st["pc"][j][5] else 0, 1 if hidden else 0), f"space:{IDS[j]}"))
    c = rnd_best(st, pairs)
    return BD.index[c[6:]] if c else None


def auc_march_closer(st, fr, ids):
    """8.6.2 second bullet: the largest AUC group yet to move marches 1 space closer to a FARC
    piece (a Base if possible), leaving 1 Guerrilla with an AUC Base or any FARC piece."""
    best = None
    for c, i, spare in march_groups(st, 2, ids, fr["moved"]):
        if auc_closer_cands(st, i) and (best is None or spare > best[0]):
            best = (spare, c)
    if best is None:
        return None
    fr.setdefault("np_pref", {})[str(BD.index[best[1][5:]])] = auc_closer_dest(st, BD.index[best[1][5:]])
    return best[1]


def auc_closer_cands(st, i) -> list:
    """8.6.2 second bullet: the adjacent spaces 1 step closer to a FARC piece (a Base first)."""
    dist = farc_distance(st)
    if i not in dist:
        return []
    return [j for j in P.adj(st, i) if dist.get(j, 99) < dist[i]]


def auc_closer_dest(st, i):
    """One of :func:`auc_closer_cands`, equal ones at random (8.2 / 8.3; it used to be the
    most populous)."""
    closer = auc_closer_cands(st, i)
    if len(closer) < 2:
        return closer[0] if closer else None
    return BD.index[rnd(st, [f"space:{IDS[j]}" for j in closer])[6:]]


def farc_march_origin(st, i) -> bool:
    """8.7.2 guidelines: FARC March only from Active Opposition, 0-Population Departments or
    Sabotaged LoCs."""
    return st["sup"][i] == -2 or (BD.is_dept[i] and BD.pop[i] == 0) or bool(st["sab"][i])


def march_groups(st, f, ids, moved) -> list:
    """(choice id, origin, Guerrillas free to move) for each ``from:`` choice that has any:
    Guerrillas that already moved this March stay (3.3.2), and the Non-player leaves the one of
    :func:`march_keep`; FARC origins per :func:`farc_march_origin`."""
    out = []
    for c in ids:
        if not c.startswith("from:"):
            continue
        i = BD.index[c[5:]]
        if f == 1 and not farc_march_origin(st, i):
            continue
        pc = st["pc"][i]
        spare = P.guerrillas(pc, f) - moved.get(str(i), 0) - march_keep(st, f, pc)
        if spare > 0:
            out.append((c, i, spare))
    return out


def march_keep(st, f, pc) -> int:
    """Guerrillas a Non-player leaves in a March origin: FARC 1 where any Faction has a Base
    (8.7.2), AUC 1 with an AUC Base or any FARC piece (8.6.2), Cartels 1 with a Cartels Base
    (8.5.2)."""
    if f == 1:
        return 1 if P.bases(pc) else 0
    if f == 2:
        return 1 if pc[8] or P.fpieces(pc, 1) else 0
    return 1 if pc[11] else 0


def march_room(st, f, dst) -> int:
    """3.3.2: how many Guerrillas may March into ``dst`` and stay Underground (99: any)."""
    dpc = st["pc"][dst]
    s = st["sup"][dst]
    exposed = BD.is_loc[dst] or s > 0 or (f == 2 and s < 0)
    if not exposed:
        return 99
    return max(0, 3 - P.cubes(dpc) - (P.guerrillas(dpc, 1) if f == 2 else 0))


def march_dest_plan(st, f, op, src):
    """The destination the Non-player planned for the group leaving ``src``, from the state
    alone: the engine keeps it in the Operation frame (``np_next`` / ``np_pref``); on a player
    seat (whose frame the bot cannot write) the same flowchart step is worked out again from the
    unchanged state and RNG, which gives the same move (8.5.2 / 8.6.2 / 8.7.2)."""
    if op is None:
        return None
    nxt = op.get("np_next")
    if f == 1:
        if not (nxt and nxt[0] == src):
            nxt = farc_march_next(st, op)
        return nxt[1] if nxt and nxt[0] == src else None
    pref = op.get("np_pref", {}).get(str(src))
    if pref is not None:
        return pref
    if f == 3:
        return cartels_dest(st, op, march_groups(st, 3, [f"from:{IDS[i]}" for i in P.spaces(st)], op["moved"]))
    if f == 2:
        if op.get("np_closer") or not any(march_target(st, 2, j) for j in P.adj(st, src)):
            return auc_closer_dest(st, src)
        dst = auc_dest(st, op, march_groups(st, 2, [f"from:{IDS[i]}" for i in P.spaces(st)], op["moved"]))
        return dst if dst is not None and dst in P.adj(st, src) else auc_closer_dest(st, src)
    return None


def pol_marchgrp(st, fr, chs, ids):
    """8.1.2 March: destinations where the moving Guerrillas stay Underground first (8.6.2 first
    bullet, 8.7.2 second bullet), then random (8.2); move as many Underground Guerrillas as can
    stay Underground (with Active ones filling the rest of that room); where Activation cannot be
    avoided, Active Guerrillas first; the Guerrilla left behind (8.5.2-8.7.2) is an Underground one
    if possible."""
    f = fr["f"]
    op = opf(st, fr)
    src = fr["src"]
    pc = st["pc"][src]
    if fr["dst"] is None:
        pref = march_dest_plan(st, f, op, src)
        if pref is not None and f"space:{IDS[pref]}" in ids:
            return f"space:{IDS[pref]}"
        cands = [c for c in ids if c.startswith("space:") and march_target(st, f, BD.index[c[6:]])]
        cands = cands or [c for c in ids if c.startswith("space:")]
        if pc[U(f)]:
            hidden = [c for c in cands if march_room(st, f, BD.index[c[6:]]) > 0]
            cands = hidden or cands
        return rnd(st, cands)
    keep = march_keep(st, f, pc)
    dst = fr["dst"]
    room = march_room(st, f, dst)
    if f == 1 and BD.is_loc[dst]:
        room = 1  # 8.7.2: 1 Guerrilla onto each LoC
    mu_ids = [int(c[2:]) for c in ids if c.startswith("u:")]
    if fr["nu"] is None:
        mu = max(mu_ids)
        free_u = max(0, mu - keep)                       # the one left behind is Underground
        if room > 0:
            return f"u:{min(free_u, room)}"
        # Activation unavoidable: Active Guerrillas move first, Underground ones only when no
        # Active one can go
        return "u:0" if pc[A(f)] else f"u:{free_u}"
    nas = [int(c[2:]) for c in ids if c.startswith("a:")]
    left_u = pc[U(f)] - fr["nu"]
    keep_a = max(0, keep - left_u)                       # Underground ones stay behind first
    n = max(0, min(max(nas), pc[A(f)] - keep_a))
    if room > 0 and room < 99:
        n = min(n, max(0, room - fr["nu"]))
    n = max(n, min(nas))
    return f"a:{n}"


def pol_trainsp(st, fr, chs, ids):
    t, p = train_mix(st)
    return f"mix:{t}-{p}"


def pol_trainx(st, fr, chs, ids):
    # 8.8.4 / 8.8.8: Civic Action for the largest shift possible in a space with no Terror
    # (never below 15 Resources)
    civ = []
    for c in ids:
        if c.startswith("civic:"):
            lv = civic_levels(st, BD.index[c[6:]])
            if lv:
                civ.append((lv * BD.pop[BD.index[c[6:]]], c))
    if civ:  # Train is never in the final Propaganda Round
        return max(civ)[1]
    # 8.8.4: a Base only in the highest-Population Department (Population 1+) without a Govt
    # Base, with room and at least 5 cubes
    base = [(BD.pop[BD.index[c[5:]]], c) for c in ids if c.startswith("base:")
            and BD.is_dept[BD.index[c[5:]]] and BD.pop[BD.index[c[5:]]] > 0
            and not st["pc"][BD.index[c[5:]]][2] and P.cubes(st["pc"][BD.index[c[5:]]]) >= 5]
    if base:
        return max(base)[1]
    return "done"


def pol_civic(st, fr, chs, ids):
    """8.8.8 Civic Action (never below 15 Resources but in the final Propaganda Round): first to
    Passive Support wherever possible - spaces without Terror first, then the largest reduction
    of Opposition, then the largest increase of Support, then random; then to Active Support,
    highest Population first. (In a Train, the frame offers only the chosen space.)"""
    final = st["props_done"] >= st["props_total"]
    if not final and st["res"][0] - 3 < 15:
        return "done"
    pairs = []
    for c in ids:
        if c.startswith("space:"):
            i = BD.index[c[6:]]
            s = st["sup"][i]
            if s < 1:
                key = (1, 0 if st["ter"][i] else 1, BD.pop[i] * -min(s, 0), BD.pop[i])
            else:
                key = (0, 0, 0, BD.pop[i])
            pairs.append((key, c))
    return rnd_best(st, pairs) or "done"


def pol_agitate(st, fr, chs, ids):
    """8.7.5: fewest Terror markers, then Support, then highest Population, then randomly (8.2);
    Terror removed only where a shift would be achieved."""
    pairs = []
    for c in ids:
        if c.startswith("space:"):
            i = BD.index[c[6:]]
            if st["ter"][i] and (st["res"][1] < st["ter"][i] + 1 or st["sup"][i] <= -2):
                continue  # 8.7.5: remove Terror only if a shift would be achieved
            pairs.append(((-st["ter"][i], 1 if st["sup"][i] > 0 else 0, BD.pop[i]), c))
    if not pairs:
        return "done"
    need = sum(st["ter"][BD.index[c[6:]]] + st["sup"][BD.index[c[6:]]] + 2 for _, c in pairs)
    if st["res"][1] >= need and not mom(st, 22):
        return max(pairs)[1]   # enough to Agitate everywhere: the order changes nothing, no dice
    return rnd_best(st, pairs)


def pol_sweepsp(st, fr, chs, ids):
    i = fr["i"]
    pc = st["pc"][i]
    if fr["ph"] == "move":
        und = sum(pc[k] for k in (3, 6, 9))
        need = und * (2 if BD.forest[i] else 1)
        others = sum(pc) - pc[0] - pc[1] - pc[2]
        if P.cubes(pc) < max(need, others + 1 - pc[2]) or not pc[0]:
            for c in ids:
                # 8.8.6: never remove Government Control, leave a Support space below 3 cubes
                # or a LoC with fewer cubes than Guerrillas
                if c.startswith("from:") and sweep_spare(st, BD.index[c[5:]]) > 0:
                    return c
        pol = [c for c in ids if c.startswith("police:")]
        if pol and not pc[1]:
            return pol[0]
        return "done"
    return target_order(st, ids)


def target_order(st, ids):
    for g in sorted((1, 2, 3), key=lambda g: (is_np(st, g), g)):
        t = f"target:{FACTIONS[g]}"
        if t in ids:
            return t
    return None


# 8.7.3 (FARC: AUC, Government, Cartels), 8.6.3 (AUC: FARC, Government - never the Cartels but
# to take a Shipment); Cartels by Event
ATTACK_ORDER = {1: (2, 0, 3), 2: (1, 0), 3: (1, 2, 0)}


def pol_attacksp(st, fr, chs, ids):
    """8.6.3 / 8.7.3: take Shipments first, then the Factions in flowchart order; within a Faction
    Bases, Police, Troops, Underground, then Active Guerrillas (8.1.2)."""
    if fr["ph"] == "mode":
        return "ambush" if "ambush" in ids and ambush_here(st, fr) else "attack"
    i = fr["i"]
    holders = {x[1] for x in st["ship"] if x[0] == i and x[1] != fr["f"]}
    order = []
    facs = sorted(holders) + [g for g in ATTACK_ORDER[fr["f"]] if g not in holders]
    for g in facs:
        if g == 0:
            order += [2, 1, 0]
        else:
            order += [B(g), U(g), A(g)] if g not in holders else [U(g), A(g), B(g)]
    for slot in order:
        t = f"target:{PIECE_KEYS[slot]}"
        if t in ids:
            return t
    return "done"


def ambush_here(st, fr) -> bool:
    """8.6.3 / 8.7.3 Ambush: in the Attack space with the fewest own Guerrillas (ties: where a
    Shipment is targeted, then by the Faction order of the targets); the candidates are this space
    and the spaces the flowchart would still Attack that have an Underground Guerrilla."""
    f, i = fr["f"], fr["i"]
    op = opf(st, fr) or {}
    order = ATTACK_ORDER.get(f, (1, 2, 0, 3))

    def key(j):
        pc = st["pc"][j]
        ship = any(s[0] == j and s[1] != f for s in st["ship"])
        first = next((k for k, g in enumerate(order) if P.fpieces(pc, g)), 9)
        return (P.guerrillas(pc, f), 0 if ship else 1, first)
    cands = [i] + [j for j in P.spaces(st) if j != i and j not in op.get("sel", ())
                   and st["pc"][j][U(f)] and rank_space(st, f, "attack", j) is not None]
    return min(cands, key=key) == i or key(i) == min(key(j) for j in cands)


def pol_rallysp(st, fr, chs, ids):
    f, i = fr["f"], fr["i"]
    pc = st["pc"][i]
    if "regroup" in ids and pc[A(f)] and not pc[U(f)] and P.cubes(pc):
        return "regroup"
    elite = fr.get("free") and fr.get("opi") is None  # 8.6.1 Elite Backing: a Base if possible
    if "base" in ids and (elite or P.guerrillas(pc, f) >= (3 if f == 2 else 2)):
        return "base"
    many = [c for c in ids if c.startswith("many:")]
    if many:
        return max(many, key=lambda c: int(c[5:]))
    if "place" in ids:
        return "place"
    return ids[0]


def pol_regroup(st, fr, chs, ids):
    if fr["n"] >= 3:
        return "done"
    for c in ids:
        if c.startswith("from:"):
            j = BD.index[c[5:]]
            if not st["pc"][j][B(fr["f"])]:
                return c
    return "done"


def pol_drugs(st, fr, chs, ids):
    return "base" if "base" in ids else "res"


def pol_extort(st, fr, chs, ids):
    real = [c for c in ids if c.startswith("space:")]
    if fr["f"] == 1:
        # 8.7.1: each space with 2+ Underground FARC Guerrillas, and 1 LoC (lowest Econ first)
        done = fr["done"]
        real = [c for c in real if BD.index[c[6:]] not in done]
        sps = [c for c in real if not BD.is_loc[BD.index[c[6:]]] and st["pc"][BD.index[c[6:]]][3] >= 2]
        locs = [] if any(BD.is_loc[j] for j in done) else \
            [c for c in real if BD.is_loc[BD.index[c[6:]]]]
        if locs and not sps:
            # the lowest Econ first; equal LoCs by 8.3
            low = min(BD.econ[BD.index[c[6:]]] for c in locs)
            locs = [rnd(st, [c for c in locs if BD.econ[BD.index[c[6:]]] == low])]
        real = sps + locs
    return real[0] if real else "done"


def pol_bribe(st, fr, chs, ids):
    if fr["ph"] == "a":
        if fr.get("free") is None and st["res"][3] < 3:
            return "done"
        # 8.5.3: spaces with Cartels and enemy pieces, a player's first, then Government, FARC,
        # AUC; equal spaces by the 8.2 table
        pairs = []
        for c in ids:
            pc = st["pc"][BD.index[c[6:]]] if c.startswith("space:") else None
            if pc is None or not P.fpieces(pc, 3):
                continue
            key = min(((is_np(st, g), g) for g in range(3) if P.fpieces(pc, g)), default=(2, 9))
            pairs.append(((-int(key[0]), -key[1]), c))
        return rnd_best(st, pairs) or "done"
    for pref in ("base:", "rm:police", "rm:troops", "rm:farc_underground", "rm:auc_underground", "rm:farc_active",
                 "rm:auc_active"):
        for c in ids:
            if c.startswith(pref):
                return c
    return "done"


def pol_airstrike(st, fr, chs, ids):
    """8.8.7 Air Strike: the target of :func:`airstrike_pick` (card 27 unshaded may give more
    than one strike: the same order each time)."""
    if fr["ph"] == "a":
        got = airstrike_pick(st, [BD.index[c[6:]] for c in ids if c.startswith("space:")])
        if got is None:
            real = [c for c in ids if c.startswith("space:")]
            return rnd(st, real) if real else None
        fr["np_target"] = got[1]
        return f"space:{IDS[got[0]]}"
    g = fr.get("np_target")
    if g is None and fr.get("i") is not None:      # a player seat's bot: the same pick again
        got = airstrike_pick(st, [fr["i"]])
        g = got[1] if got else None
    if g is not None and f"target:{FACTIONS[g]}" in ids:
        return f"target:{FACTIONS[g]}"
    return target_order(st, ids)


def _lift_surplus(st, i):
    """Troops above those needed to keep Government Control (8.8.7 Air Lift origin)."""
    pc = st["pc"][i]
    g = P.fpieces(pc, 0)
    return min(pc[0], g - (sum(pc) - g) - 1)


def _would_build_base(st, i):
    pc = st["pc"][i]
    return BD.is_dept[i] and not pc[2] and P.can_stack_base(st, i) and st["av"][2] > 0


def _airlift_dest(st, fr, ids):
    """8.8.7 Air Lift destination for the accompanying Operation."""
    op = opf(st, fr)
    kind = op["op"] if op else "train"
    n = min(3, st["pc"][fr["src"]][0]) if cap(st, 10) != "s" else 1
    cands = [BD.index[c[6:]] for c in ids]
    if kind in ("assault", "sweep"):
        short = []
        for i in cands:
            pc = st["pc"][i]
            if BD.is_loc[i] or P.is_zone(st, i):
                continue
            if kind == "assault":
                need = sum(pc[k] for k in (4, 7, 10)) + sum(pc[B(g)] for g in (1, 2, 3) if not P.guerrillas(pc, g))
                if need and assault_removals(st, i) < need:
                    short.append((P.bases(pc) - pc[2], BD.pop[i], i))
            else:
                und = sum(pc[k] for k in (3, 6, 9))
                have = P.cubes(pc) // 2 if BD.forest[i] else P.cubes(pc)
                if und and have < und and sweep_dest_ok(st, i):
                    short.append((1 if BD.is_city[i] else 0, 1 if st["sup"][i] > 0 else 0,
                                  1 if P.cubes(pc) else 0, BD.pop[i], i))
        if short:
            return max(short)[-1], "the highest-priority space short of cubes"
        pol = [i for i in cands if not BD.is_loc[i] and st["pc"][i][1] and not st["pc"][i][0]]
        if pol:
            return rnd(st, pol), "Police but no Troops"
        return None, ""
    civic = []
    for i in cands:
        pc = st["pc"][i]
        if BD.is_loc[i] or BD.pop[i] <= 0 or st["sup"][i] >= 2 or pc[0] or not pc[1]:
            continue
        g = P.fpieces(pc, 0) + n
        if g > sum(pc) - P.fpieces(pc, 0):
            civic.append((2 - st["sup"][i], BD.pop[i], i))
    if civic:
        return max(civic)[-1], "Troops enable Civic Action"
    base = [(BD.pop[i], i) for i in cands if BD.pop[i] > 0 and _would_build_base(st, i)
            and P.cubes(st["pc"][i]) < 5 <= P.cubes(st["pc"][i]) + n]
    if base:
        return max(base)[-1], "Troops enable a Government Base"
    pol = [i for i in cands if not BD.is_loc[i] and st["pc"][i][1] and not st["pc"][i][0]]
    if pol:
        return rnd(st, pol), "Police but no Troops"
    ctl = []
    for i in cands:
        pc = st["pc"][i]
        if BD.pop[i] >= 1 and not BD.is_loc[i] and not P.govt_control(pc):
            g = P.fpieces(pc, 0) + n
            if g > sum(pc) - P.fpieces(pc, 0):
                ctl.append((BD.pop[i], i))
    if ctl:
        return max(ctl)[-1], "add Government Control"
    return None, ""


def pol_airlift(st, fr, chs, ids):
    """8.8.7 Air Lift: origin with 4+ cubes and Govt Control, most Troops above those keeping
    Control, preferring spaces where no Base would be built; destination per the Operation."""
    if fr["ph"] == "a":
        best = None
        for c in ids:
            i = BD.index[c[6:]]
            pc = st["pc"][i]
            if BD.is_loc[i] or P.cubes(pc) < 4 or not P.govt_control(pc):
                continue
            key = (_lift_surplus(st, i), 0 if _would_build_base(st, i) else 1, pc[0])
            if key[0] > 0 and (best is None or key > best[0]):
                best = (key, c)
        return best[1] if best else ids[0]
    if fr["ph"] == "b":
        i, _ = _airlift_dest(st, fr, ids)
        return f"space:{IDS[i]}" if i is not None else None
    sur = _lift_surplus(st, fr["src"])
    top = max(int(c[2:]) for c in ids)
    want = min(top, sur) if sur > 0 else top
    return f"n:{want}" if f"n:{want}" in ids else f"n:{top}"


def assault_plan_spaces(st, n) -> set:
    """The Cities and Departments an 8.8.3 Assault of ``n`` spaces would select (all spaces tied
    at the cut-off included, as the 8.2 table has not picked among them yet)."""
    ranked = sorted(((r, i) for i in P.spaces(st) if not BD.is_loc[i]
                     for r in (rank_space(st, 0, "assault", i),) if r is not None), reverse=True)
    if len(ranked) <= n:
        return {i for _, i in ranked}
    cut = ranked[n - 1][0]
    return {i for r, i in ranked if r >= cut}


def pol_eradicate(st, fr, chs, ids):
    """8.8.7 Eradicate: the Department where the most Cartels Bases go, not one selected (or about
    to be selected, 8.8.3) for the accompanying Assault; then the smallest Population, then an
    Opposition Department, then at random (8.2)."""
    if fr["ph"] != "a":
        return None
    skip = eradicate_skip(st, opf(st, fr))
    pairs = []
    for c in ids:
        if c.startswith("space:"):
            i = BD.index[c[6:]]
            pairs.append(((0 if i in skip else 1, st["pc"][i][11], -BD.pop[i], 1 if st["sup"][i] < 0 else 0), c))
    return rnd_best(st, pairs)


def pol_redeploy(st, fr, chs, ids):
    """8.8.9: Troops go first where a Govt Base, then a City (highest Population first) lacks
    3 cubes; otherwise to Bogotá."""
    if fr["ph"] == "must":
        need = []
        for c in ids:
            if not c.startswith("space:"):
                continue
            j = BD.index[c[6:]]
            pc = st["pc"][j]
            if P.cubes(pc) < 3 or not P.govt_control(pc):   # 3+ cubes and Government Control
                need.append(((1 if pc[2] else 0), BD.pop[j], c))
        if need:
            return max(need)[2]
        # then 1 Troop to each City (or Base Department) that only has Police
        only_police = [(BD.pop[BD.index[c[6:]]], c) for c in ids if c.startswith("space:")
                       and st["pc"][BD.index[c[6:]]][1] and not st["pc"][BD.index[c[6:]]][0]]
        if only_police:
            return max(only_police)[1]
        b = f"space:{IDS[BD.bogota]}"
        return b if b in ids else ids[0]
    if fr["ph"] == "from":
        plan = police_redeploy_step(st, fr, ids)
        if plan is None:
            return "done"
        fr["np_dest"] = plan[1]
        return f"police:{IDS[plan[0]]}"
    if fr["ph"] == "to":
        dst = fr.get("np_dest")
        if dst is None:
            # a player seat's bot: the same step again from the state (nothing moved since)
            srcs = [f"police:{IDS[i]}" for i in P.spaces(st) if st["pc"][i][1] and any(j != i for j in fr["pdest"])]
            plan = police_redeploy_step(st, fr, srcs)
            dst = plan[1] if plan and plan[0] == fr["src"] else None
        fr["np_dest"] = None
        c = f"space:{IDS[dst]}" if dst is not None else None
        return c if c in ids else None
    return None


def police_redeploy_step(st, fr, ids):
    """8.8.9 Police Redeploy: the next (origin, destination) or None when no bullet applies.

    Each Police moves at most once, from the space with the most unmoved Police, never taking
    the last Police from a City or Department; destinations in bullet order: keep Govt Control
    of Population 1+ Departments without a Govt Base, match the larger of the AUC or Cartels
    Guerrillas in Cities and Departments, 1 Police in each Population 1+ space without any, 1 on
    each Econ 3 LoC, then 3 cubes in each Support Department without a Govt Base."""
    moved = fr.get("parr", {})      # Police that arrived this Redeploy (the frame records them)
    dests = [j for j in fr["pdest"]]
    pcs = st["pc"]

    def unmoved(i):
        return pcs[i][1] - moved.get(str(i), 0)

    def sources(j):
        out = []
        for c in ids:
            if not c.startswith("police:"):
                continue
            i = BD.index[c[7:]]
            if i == j or unmoved(i) <= 0 or (not BD.is_loc[i] and pcs[i][1] <= 1):
                continue
            out.append((unmoved(i), i))
        return max(out)[1] if out else None

    def others(pc):
        return sum(pc) - P.fpieces(pc, 0)

    bullets = [
        lambda j, pc: (BD.is_dept[j] and BD.pop[j] >= 1 and not pc[2] and not P.govt_control(pc)
                       and others(pc) - P.fpieces(pc, 0) < 3),
        lambda j, pc: not BD.is_loc[j] and pc[1] < max(P.guerrillas(pc, 2), P.guerrillas(pc, 3)),
        lambda j, pc: not BD.is_loc[j] and BD.pop[j] >= 1 and not pc[1],
        lambda j, pc: BD.is_loc[j] and BD.econ[j] == 3 and not pc[1],
        lambda j, pc: BD.is_dept[j] and st["sup"][j] > 0 and not pc[2] and P.cubes(pc) < 3,
    ]
    for test in bullets:
        want = sorted((j for j in dests if test(j, pcs[j])), key=lambda j: -BD.pop[j])
        for j in want:
            i = sources(j)
            if i is not None and f"police:{IDS[i]}" in ids:
                return i, j
    return None


def pol_zoneout(st, fr, chs, ids):
    """6.4.4 by 8.8.9's Redeploy priorities: cubes go where a Govt Base, then a City (highest
    Population first) has fewer than 3 cubes, then Police where there are none; else Bogota."""
    need = []
    for c in ids:
        j = BD.index[c[6:]]
        pc = st["pc"][j]
        if not BD.is_loc[j] and P.cubes(pc) < 3:
            need.append(((1 if pc[2] else 0), BD.pop[j], c))
        elif BD.is_loc[j] and not pc[1] and BD.econ[j] == 3:
            need.append((0, 0, c))
    if need:
        return max(need)[2]
    b = f"space:{IDS[BD.bogota]}"
    return b if b in ids else rnd(st, ids)


def pol_elite(st, fr, chs, ids):
    """8.6.1 Elite Backing: a space where the free Rally places a Base (2+ AUC Guerrillas, room,
    a Base Available), otherwise the Rally priorities of 8.6.1; ties random (8.2)."""
    real = [c for c in ids if c.startswith("space:")]
    if not real:
        return "none"

    def key(c):
        i = BD.index[c[6:]]
        base = st["av"][8] and P.guerrillas(st["pc"][i], 2) >= 2 and P.can_stack_base(st, i)
        return (1 if base else 0, rank_space(st, 2, "rally", i) or (-1, 0))
    top = max(key(c) for c in real)
    return rnd(st, [c for c in real if key(c) == top])


def pol_ship(st, fr, chs, ids):
    return "noship"   # 8.1: Non-players never Ship


def pol_shipask(st, fr, chs, ids):
    return "refuse"   # 8.1.2: Non-players voluntarily transfer nothing


def pol_assaultsp(st, fr, chs, ids):
    return target_order(st, ids)


def cultivate_np_ok(st, op) -> bool:
    """8.5.1 Cultivate bullets: a new Base in a Department selected for Rally, or a Base moved
    from a space with 2 Cartels Bases to a City or Department with none; otherwise Process."""
    from .ops import cultivate_dests
    dests = cultivate_dests(st, op)
    if st["av"][11] and any(BD.is_dept[i] and i in op.get("sel", ()) for i in dests):
        return True
    return any(not st["pc"][i][11] for i in dests) and any(st["pc"][j][11] >= 2 for j in P.spaces(st))


def pol_cultivate(st, fr, chs, ids):
    """8.5.1: Cultivate a new Base in a Rally Department, else relocate from a space with 2 Bases
    to one with no Cartels Base."""
    if fr["ph"] == "a":
        op = st["stack"][fr["opi"]] if fr.get("opi") is not None else {}
        sel = op.get("sel", [])
        best = [c for c in ids if c.startswith("space:") and BD.index[c[6:]] in sel and BD.is_dept[BD.index[c[6:]]]]
        empty = [c for c in ids if c.startswith("space:") and not st["pc"][BD.index[c[6:]]][11]]
        pool = (best if best and st["av"][11] else []) or empty or [c for c in ids if c.startswith("space:")]
        return rnd(st, pool)
    if "place" in ids:
        return "place"
    two = [c for c in ids if c.startswith("from:") and st["pc"][BD.index[c[5:]]][11] >= 2]
    # "from a space with 2 Cartels Bases": equal candidates, so 8.2 decides (a single one rolls nothing)
    return (two[0] if len(two) == 1 else rnd(st, two)) if two else None


def pol_process(st, fr, chs, ids):
    """8.5.1: 2 Shipments with Cartels Guerrillas (Underground first), else sell 1 Base from a 2-Base space."""
    if fr["ph"] == "a":
        return "ship" if "ship" in ids else "bases"
    if fr["ph"] == "ship":
        # each into a random space with a Cartels Guerrilla and Base, Underground Guerrillas first
        own = [c for c in ids if c.endswith(":cartels")]
        hidden = [c for c in own if st["pc"][BD.index[c.split(":")[1]]][9]]
        return rnd(st, hidden or own) if own else ("done" if "done" in ids else ids[0])
    if fr["n"] >= 1:
        return "done"
    two = [c for c in ids if c.startswith("space:") and st["pc"][BD.index[c[6:]]][11] >= 2]
    return rnd(st, two) if two else "done"


def pol_assassinate(st, fr, chs, ids):
    """8.6.4: Assassinate wherever Terror occurred (only spaces already selected); remove to take
    Shipments, then FARC, then Government, then Cartels (Bases first, 8.1.2)."""
    if fr["ph"] == "a":
        op = opf(st, fr)
        sel = op["sel"] if op else ()
        real = [c for c in ids if c.startswith("space:") and BD.index[c[6:]] in sel]
        return real[0] if real else "done"
    holders = [g for g in (1, 3) if any(x[0] == fr["i"] and x[1] == g for x in st["ship"])]
    first = tuple(f"{FACTIONS[g]}_{k}" for g in holders for k in ("underground", "active"))
    for key in first + ("farc_base", "farc_underground", "farc_active", "govt_base", "police", "troops",
                        "cartels_base", "cartels_underground", "cartels_active"):
        if f"target:{key}" in ids:
            return f"target:{key}"
    return None


def pol_kidnap(st, fr, chs, ids):
    """8.7.4: Kidnap on LoCs, then Cities (Government), then Departments with Cartels Bases."""
    if fr["ph"] == "a":
        real = [c for c in ids if c.startswith("space:")]
        real = [c for c in real if (BD.is_city[BD.index[c[6:]]] or BD.is_loc[BD.index[c[6:]]]) and st["res"][0]
                or st["pc"][BD.index[c[6:]]][11] and (st["res"][3] or any(
                    x[0] == BD.index[c[6:]] and x[1] == 3 for x in st["ship"]))]
        # LoCs, then Cities, then Departments with Cartels Bases; equal spaces by 8.3 / 8.2
        return rnd_best(st, [(-(0 if BD.is_loc[BD.index[c[6:]]] else 1 if BD.is_city[BD.index[c[6:]]] else 2), c)
                             for c in real]) or "done"
    return "target:govt" if "target:govt" in ids and st["res"][0] else None


def pol_patrolmv(st, fr, chs, ids):
    """8.8.5: the cube and destination planned by :func:`patrol_plan`; otherwise Police before
    Troops, to the LoC where Guerrillas most outnumber cubes, else a 3-Econ LoC without Police."""
    op = opf(st, fr)
    plan = (op or {}).get("np_patrol")
    if plan is None and op is not None and not op.get("np_moves_done"):
        # a player seat's bot: the move planned at the origin prompt, again from the state
        from .frames import PROMPTS
        got = patrol_plan(st, op, [c.id for c in PROMPTS["op"](st, op)[2]])
        plan = [got[1], got[2]] if got and got[0] == fr.get("src", got[0]) else None
    if plan:
        slot, dest = plan
        if fr["slot"] is None:
            c = f"piece:{PIECE_KEYS[slot]}"
            if c in ids:
                return c
        elif f"space:{IDS[dest]}" in ids:
            op["np_patrol"] = None
            return f"space:{IDS[dest]}"
    if fr["slot"] is None:
        return "piece:police" if "piece:police" in ids else "piece:troops"
    best = None
    for c in ids:
        if not c.startswith("space:"):
            continue
        j = BD.index[c[6:]]
        pc = st["pc"][j]
        gap = P.all_guerrillas(pc) - P.cubes(pc)
        key = (BD.is_loc[j], gap > 0, gap, BD.econ[j] == 3 and not pc[1], BD.econ[j])
        if best is None or key > best[0]:
            best = (key, c)
    return best[1] if best else None


def pol_evpiece(st, fr, chs, ids):
    """8.1.2 / 8.4.2: place Bases before Guerrillas or cubes; remove enemy Bases, then Police, Troops,
    Underground and finally Active Guerrillas; an Insurgent removes its own Active ones first."""
    real = [c for c in ids if c.count(":") == 2]
    if not real:
        return None
    me = fr["f"]
    if fr["mode"] == "place":
        order = ("base", "police", "troops", "underground")
    else:
        order = ("base", "police", "troops", "underground", "active")

    def key(c):
        piece = c.split(":")[2]
        own = piece.startswith(FACTIONS[me]) or (me == 0 and piece in ("troops", "police", "govt_base"))
        rank = next((k for k, w in enumerate(order) if piece.endswith(w)), 9)
        if fr["mode"] != "place" and own:
            rank = 10 + (0 if piece.endswith("active") else 1)
        return rank
    best = min(key(c) for c in real)
    return rnd(st, [c for c in real if key(c) == best])


def pol_evpick(st, fr, chs, ids):
    """8.4.3: spaces for shifts by the greatest change (highest Population); otherwise random."""
    real = [c for c in ids if c.startswith("space:")]
    if not real:
        return None
    then = fr["s"].get("then", [])
    if any(t.get("do") in ("shift", "set") for t in then):
        top = max(BD.pop[BD.index[c[6:]]] for c in real)
        real = [c for c in real if BD.pop[BD.index[c[6:]]] == top]
    left = fr["s"].get("n", 1) - len(fr.get("chosen", ()))
    if not fr["s"].get("repeat") and then and all(t.get("do") == "sabotage" for t in then) \
            and all(BD.is_loc[BD.index[c[6:]]] for c in real):
        top = max(BD.econ[BD.index[c[6:]]] for c in real)
        group = [c for c in real if BD.econ[BD.index[c[6:]]] == top]
        if len(group) <= left:
            return group[0]    # 8.3 highest Econ first, and all of them get Sabotaged: no dice
    return rnd(st, real)


def pol_give(st, fr, chs, ids):
    return "done"  # 8.1.2: Non-players voluntarily transfer nothing


def pol_basecubes(st, fr, chs, ids):
    """8.1.2: the Government removes Troops and Police alternately, starting with whichever it
    has most of in the space, keeping the last Police as long as possible."""
    pc = st["pc"][fr["i"]]
    if "piece:troops" in ids and (pc[0] >= pc[1] or pc[1] <= 1):
        return "piece:troops"
    return "piece:police" if "piece:police" in ids else ids[0]


def faction_rank(st, g):
    """8.8.3 / 8.5.3 tie order of enemy Factions: a player before a Non-player, then FARC, AUC,
    Cartels."""
    return (1 if is_np(st, g) else 0, g)


def pol_patrolact(st, fr, chs, ids):
    """3.2.2 Patrol Activation on a LoC: player Guerrillas first, then FARC, AUC, Cartels
    (the 8.8.3 target order)."""
    return target_order(st, ids)


def pol_kidnap6(st, fr, chs, ids):
    """4.3.3 roll of 6: the Non-player AUC places a Base before a Guerrilla (8.1.2)."""
    return "piece:auc_base" if "piece:auc_base" in ids else ids[0]


def pol_evfaction(st, fr, chs, ids):
    """Events naming 'an Insurgent Faction': the executor picks itself when it may (8.1: it places
    or moves pieces, gains Resources); a Government picks a player before a Non-player, then
    FARC, AUC, Cartels (8.8.3)."""
    me = f"faction:{FACTIONS[fr['f']]}"
    if me in ids:
        return me
    opts = [FACTIONS.index(c[8:]) for c in ids if c.startswith("faction:")]
    return f"faction:{FACTIONS[min(opts, key=lambda g: faction_rank(st, g))]}" if opts else ids[0]


def pol_evlevel(st, fr, chs, ids):
    """Card 46: Passive Support for the Government (8.4.3: greatest shift toward Active Support)
    and the AUC (8.1: toward Support), Passive Opposition for the FARC; the Cartels take the
    greater change in Total Support and Opposition (8.4.3)."""
    f = fr["f"]
    if f in (0, 2):
        return "level:1"
    if f == 1:
        return "level:-1"
    i = fr["v"].get("here")
    cur = st["sup"][i] if i is not None else 0
    up, down = abs(1 - cur), abs(-1 - cur)
    return "level:1" if up > down else "level:-1" if down > up else rnd(st, ["level:1", "level:-1"])


def pol_evchoice(st, fr, chs, ids):
    """Event alternatives (8.4.2: place or relocate as many pieces as allowed; 8.1.2: remove enemy
    Bases first): card 48 removes the FARC Base, 54 replaces rather than removes, 65 places (an
    Insurgent) or removes (the Government), 60 clears the option holding more Cartels pieces."""
    govt = fr["f"] == 0
    for pref in (("alt:base",), ("alt:replace",), ("alt:ship-", "alt:base-") if govt else ("alt:ship+", "alt:base+")):
        for c in pref:
            if c in ids:
                return c
    if "alt:cities" in ids and "alt:dept" in ids:
        n = sorted((P.fpieces(st["pc"][i], 3) for i in BD.cities), reverse=True)
        d = max((P.fpieces(st["pc"][i], 3) for i in BD.depts), default=0)
        return "alt:cities" if sum(n[:2]) >= d else "alt:dept"
    return rnd(st, ids)


def pol_evsa(st, fr, chs, ids):
    """Free Special Activities (5.5): as many as allowed (8.4.2); when the card lets a
    Non-player Government pick the kind, the 8.8.7 order."""
    real = [c for c in ids if c != "done"]
    if fr["f"] == 0 and len(real) > 1:
        s = govt_sa(st, ids)
        if s:
            return s
    return real[0] if real else "done"


def pol_zone(st, fr, chs, ids):
    """6.4.4 Government FARC Zone among the Departments with most FARC pieces: a Non-player
    Government takes the one costing it least (fewest Government pieces to Redeploy or remove),
    then the smallest Population (8.4.3: smallest shift toward Opposition), then random (8.2)."""
    cands = [c for c in ids if c.startswith("space:")]
    if not cands:
        return ids[0]

    def key(c):
        i = BD.index[c[6:]]
        return (P.fpieces(st["pc"][i], 0), BD.pop[i])
    low = min(key(c) for c in cands)
    return rnd(st, [c for c in cands if key(c) == low])


def pol_genoff(st, fr, chs, ids):
    """Card 19 General Offensive: the Government Assaults where it can, else Sweeps in place
    (8.8.3 before 8.8.6); an Insurgent Attacks where it has 3+ Guerrillas (8.6.3 / 8.7.3),
    else makes Terror with an Underground Guerrilla (8.5.3-8.7.4), else Attacks, else nothing."""
    if fr["f"] == 0:
        order = ("assault", "sweep")
    else:
        i = fr["left"][0]
        order = ("attack", "terror") if P.guerrillas(st["pc"][i], fr["f"]) >= 3 else ("terror", "attack")
    for c in order:
        if c in ids:
            return c
    return "skip"


def pol_reppick(st, fr, chs, ids):
    """Card 54 replacement: another Non-player's Guerrilla before a player's (8.4 note:
    Non-players assist one another), then FARC, AUC, Cartels."""
    opts = [FACTIONS.index(c[8:]) for c in ids if c.startswith("faction:")]
    return f"faction:{FACTIONS[min(opts, key=lambda g: (0 if is_np(st, g) else 1, g))]}" if opts else ids[0]


def pol_c72rep(st, fr, chs, ids):
    """Card 72 unshaded: a Non-player's Guerrilla rather than a player's (8.4 note); then a
    Government executor prefers the AUC to the FARC (whose forces drive its victory, 7.2), an
    Insurgent executor takes FARC, then AUC."""
    opts = [FACTIONS.index(c[8:]) for c in ids if c.startswith("faction:")]
    sign = -1 if fr["f"] == 0 else 1
    return f"faction:{FACTIONS[min(opts, key=lambda g: (0 if is_np(st, g) else 1, sign * g))]}" if opts else ids[0]


def pol_c72place(st, fr, chs, ids):
    """Card 72 shaded: each Guerrilla to a Cartels Base space with the fewest Cartels Guerrillas
    (8.5.1's bare Base spaces first), then random (8.2)."""
    cands = [c for c in ids if c.startswith("space:")]
    low = min(P.guerrillas(st["pc"][BD.index[c[6:]]], 3) for c in cands)
    return rnd(st, [c for c in cands if P.guerrillas(st["pc"][BD.index[c[6:]]], 3) == low])


def pol_c55ship(st, fr, chs, ids):
    """Card 55 unshaded (Government): player-owned Shipments first, then random (8.2)."""
    own = [c for c in ids if c.startswith("ship:")]
    pl = [c for c in own if not is_np(st, FACTIONS.index(c.split(":")[2]))]
    return rnd(st, pl or own)


def pol_c5u(st, fr, chs, ids):
    """Card 5 unshaded: Police onto the highest-Econ pipelines first (8.3), as many as allowed
    (8.4.2); then Activate player Guerrillas before Non-players', FARC, AUC, Cartels (8.8.3)."""
    sps = [c for c in ids if c.startswith("space:")]
    if sps:
        top = max(BD.econ[BD.index[c[6:]]] for c in sps)
        return rnd(st, [c for c in sps if BD.econ[BD.index[c[6:]]] == top])
    acts = [c for c in ids if c.startswith("act:")]
    if acts:
        return min(acts, key=lambda c: faction_rank(st, FACTIONS.index(c.split(":")[2])))
    return "done" if "done" in ids else ids[0]


def pol_seventh(st, fr, chs, ids):
    """8.8.9 Sabotage Phase with 7th Special Forces unshaded: Sabotage off the three 3-Econ LoCs,
    then Terror where Civic Action would come first (8.8.8: toward Passive Support, largest
    Opposition reduction, then Support increase), then other Sabotage, highest Econ first."""
    cands = [BD.index[c[6:]] for c in ids if c.startswith("space:")]
    if not cands:
        return "done"

    def key(i):
        if BD.is_loc[i] and st["sab"][i]:
            return (2 if BD.econ[i] == 3 else 0, BD.econ[i], 0)
        from .ops import civic_ok
        ok = civic_ok(st, i, True)
        return (1, 1 if ok else 0, (1 if st["sup"][i] < 1 else 0, -st["sup"][i], BD.pop[i]))
    best = max(key(i) for i in cands)
    return rnd(st, [f"space:{IDS[i]}" for i in cands if key(i) == best])


def pol_c69(st, fr, chs, ids):
    """Card 69: move as many pieces as allowed (8.4.2) from the space with most of them, to a
    random Department (8.2), then the free Operation the flowchart would favour there: Assault,
    then Sweep, then Train (8.8.3-8.8.6); Rally, then Attack, then Terror for an Insurgent."""
    from .ops import assault_targets
    f = fr["f"]
    if fr["ph"] == "src":
        sps = [c for c in ids if c.startswith("space:")]
        if not sps:
            return "done"
        most = max(P.fpieces(st["pc"][BD.index[c[6:]]], f) for c in sps)
        return rnd(st, [c for c in sps if P.fpieces(st["pc"][BD.index[c[6:]]], f) == most])
    if fr["ph"] == "dst":
        return rnd(st, [c for c in ids if c.startswith("space:")])
    i = fr.get("dst")
    pc = st["pc"][i] if i is not None else None
    if f == 0:
        if pc is not None and assault_targets(st, i):
            return "op:assault"
        if pc is not None and sum(pc[k] for k in (3, 6, 9)):
            return "op:sweep"
        return "op:train"
    if pc is not None and pc[U(f)] and st["sup"][i] != 0:
        return "op:terror"
    return "op:rally" if "op:rally" in ids else "done"


def pol_c40cube(st, fr, chs, ids):
    """Card 40 shaded: each cube to a random City (8.4.3, 8.2)."""
    return rnd(st, [c for c in ids if c.startswith("space:")])


def pol_c66pick(st, fr, chs, ids):
    """Card 66 shaded with too few Bases: random Forest Departments (8.4.3, 8.2)."""
    return rnd(st, [c for c in ids if c.startswith("space:")])


def pol_evmove(st, fr, chs, ids):
    """Event relocations (8.4.2: as many pieces as allowed; 8.4.3: random spaces, 8.2): the
    executor's own pieces to a random destination; a Government moving Insurgents (card 20)
    takes them from the space where they are most numerous."""
    if fr["src"] is None:
        srcs = [c for c in ids if c.startswith("from:")]
        if not srcs:
            return "done"
        if fr["f"] == 0:
            most = max(st["pc"][BD.index[c.split(":")[1]]][PIECE_KEYS.index(c.split(":")[2])] for c in srcs)
            srcs = [c for c in srcs if st["pc"][BD.index[c.split(":")[1]]][PIECE_KEYS.index(c.split(":")[2])] == most]
        return rnd(st, srcs)
    return rnd(st, [c for c in ids if c.startswith("space:")])


KIND = {"give": pol_give, "op": pol_op, "patrolmv": pol_patrolmv, "evpiece": pol_evpiece, "evpick": pol_evpick, "cultivate": pol_cultivate, "process": pol_process, "assassinate": pol_assassinate,
        "kidnap": pol_kidnap, "marchgrp": pol_marchgrp, "trainsp": pol_trainsp, "trainx": pol_trainx, "civic": pol_civic,
        "agitate": pol_agitate, "sweepsp": pol_sweepsp, "attacksp": pol_attacksp, "rallysp": pol_rallysp,
        "regroup": pol_regroup, "drugs": pol_drugs, "extort": pol_extort, "bribe": pol_bribe,
        "airstrike": pol_airstrike, "airlift": pol_airlift, "eradicate": pol_eradicate, "redeploy": pol_redeploy,
        "elite": pol_elite, "zoneout": pol_zoneout, "ship": pol_ship, "shipask": pol_shipask, "assaultsp": pol_assaultsp,
        "basecubes": pol_basecubes, "patrolact": pol_patrolact, "kidnap6": pol_kidnap6, "evfaction": pol_evfaction,
        "evlevel": pol_evlevel, "evchoice": pol_evchoice, "evsa": pol_evsa, "zone": pol_zone, "evzone": pol_zone,
        "genoff": pol_genoff, "reppick": pol_reppick, "c72rep": pol_c72rep, "c72place": pol_c72place,
        "c55ship": pol_c55ship, "c5u": pol_c5u, "seventh": pol_seventh, "c69": pol_c69, "c40cube": pol_c40cube,
        "c66pick": pol_c66pick, "evmove": pol_evmove}

POLICIES["np"] = np_policy


# ====================================================================== the bot
GOVT_RULES = {"assault": "8.8.3", "train": "8.8.4", "patrol": "8.8.5", "sweep": "8.8.6"}


def derive_plan(st, fr) -> tuple:
    """(plan, rule) of an Operation frame the flowchart started on a player seat, from the state
    alone (a bot is made afresh for each decision, so it keeps nothing between prompts): the
    Insurgent plans are fixed per Operation (8.5-8.7); the Government's per 8.8.3-8.8.6 (Train as
    in its first box, 3 spaces)."""
    f, op = fr["f"], fr["op"]
    if f != 0:
        plan, rule = PLANS[f].get(op, ({"max": 99, "sa": list(SA_DEFAULT.get(op, []))}, "8.1.2"))
        return dict(plan), rule
    if op == "assault":
        return {"max": max(1, 9 // (1 if cap(st, 3) == "u" else 3)), "sa": ["pre"]}, "8.8.3"
    if op == "sweep":
        return {"max": max(1, 12 // (1 if cap(st, 2) == "u" else 3)), "sa": ["pre"]}, "8.8.6"
    if op == "patrol":
        return {"max": 99, "sa": ["post"]}, "8.8.5"
    return {"max": 3, "sa": ["mid"]}, GOVT_RULES.get(op, "8.8.4")


def derive_counters(st, fr) -> None:
    """The policy's per-Operation counters, worked out from the frame (spaces chosen, groups
    moved, Special Activity taken) instead of being remembered by the bot."""
    op = fr["op"]
    fr["nsp"] = len(fr.get("groups", ())) if op == "march" else len(fr["sel"])
    if op == "train" and fr["f"] == 0:
        fr["np_ph"] = "place" if fr["sa"] is None else "civic"
    if op == "march" and fr["f"] == 2 and fr.get("groups"):
        # 8.6.2: the "1 space closer" group is the one that entered no first-bullet target
        fr["np_closer"] = int(any(not march_target(st, 2, int(g.split(">")[1])) and
                                  not P.fpieces(st["pc"][int(g.split(">")[1])], 1) for g in fr["groups"]))
    f = fr["f"]
    if (op == "rally" and f in (1, 3)) or (op == "attack" and f == 1):
        fr["np_other"] = int(any((rank_space(st, f, op, i) or (9,))[0] <= 1 for i in fr["sel"]))


OP_WORD = {"rally": "Rally", "march": "March", "attack": "Attack", "terror": "Terror", "train": "Train",
           "patrol": "Patrol", "sweep": "Sweep", "assault": "Assault"}


def reason_text(reasons) -> str:
    """Decision reasons as a student reads them: 'rule: branch' joined by '; '."""
    return "; ".join(f"{r} {t}" for t, r in reasons)


class NonPlayerBot(Bot):
    """Seats the section-8 flowcharts.

    On a Non-player seat it answers ``np:act`` (the engine resolves the flowchart); its reason
    is the branch that fires, worked out on a copy of the state (the engine then draws the same
    dice). On a player seat (1.5) it works out, on a copy of the state, the choice the flowchart
    would make at this prompt and answers that (a legal player choice). Nothing is remembered
    between prompts: plans, counters and March destinations are derived from the state, so a
    bot made afresh for every decision (the platform does so) plays the same game.
    """

    kind = "nonplayer"

    def choose(self, state, prompt):
        chs = prompt.choices_for(self.seat)
        ids = [c.id for c in chs]
        if "np:act" in ids:
            return BotDecision("np:act", np_act_reason(state))
        cp = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        fr = cp["stack"][-1]
        if fr["k"] == "elig":
            kind, arg, plan, reasons = np_decide(cp, fr)
            why_ = reason_text(reasons)
            if kind == "event":
                cid = "event" if "event" in ids else f"event:{arg}"
            elif kind == "op":
                cid = f"op:{arg}"
            else:
                cid = "pass"
            if cid in ids:
                return BotDecision(cid, why_)
            return BotDecision("pass" if "pass" in ids else ids[0], why_ + " (not offered: Pass)")
        head = frame_head(cp, fr, prompt.text_for(self.seat))
        if fr["k"] == "op":
            plan, _ = derive_plan(cp, fr)
            fr["plan"] = fr.get("plan") or plan
            derive_counters(cp, fr)
        fr["auto"] = "np"
        drawn: list = []
        with logging_to(drawn):      # 8.2 / 8.3 picks report their dice and walk
            cid = np_policy(cp, fr, chs)
        label = next((c.label for c in chs if c.id == cid), cid)
        dice = "; ".join(f["text"] for f in drawn if f.get("branch") == "random space")
        return BotDecision(cid, f"{head}: {label}" + (f" ({dice})" if dice else ""))


def frame_head(st, fr, ptext="") -> str:
    """'8.7.2 March' - the flowchart box a prompt of a running Operation / Event belongs to."""
    from .ops import opf
    op = fr if fr["k"] == "op" else (opf(st, fr) if fr.get("opi") is not None else None)
    if op is None:
        for g in reversed(st["stack"]):
            if g.get("k") == "op":
                op = g
                break
    if op is not None and op.get("k") == "op":
        _, rule = derive_plan(st, op)
        word = OP_WORD.get(op["op"], op["op"].capitalize())
        if fr["k"] != "op":
            return f"{rule} {word}, by the 8.1.2 priorities ({FRAME_WORD.get(fr['k']) or ptext or fr['k']})"
        return f"{rule} {word}" + (f" then {fr['sa'].capitalize()}" if fr.get("sa") else "")
    f = fr.get("f", 0)
    return (f"8.4 Non-player {FNAME[f]} Event instructions, by the 8.1.2 priorities "
            f"({FRAME_WORD.get(fr['k']) or ptext or fr['k']})")


FRAME_WORD = {"marchgrp": "March group", "rallysp": "Rally space", "sweepsp": "Sweep space", "assaultsp": "Assault removal",
              "attacksp": "Attack removal", "trainsp": "Train placement", "civic": "Civic Action", "extort": "Extort",
              "kidnap": "Kidnap", "assassinate": "Assassinate", "airstrike": "Air Strike (8.8.7)", "airlift": "Air Lift (8.8.7)",
              "eradicate": "Eradicate (8.8.7)", "cultivate": "Cultivate", "process": "Process", "bribe": "Bribe",
              "agitate": "Agitation (8.7.5)", "redeploy": "Redeploy (8.8.9)", "patrolmv": "Patrol move"}


WHERE = __import__("re").compile(r"\(((?:Rally|March|Attack|Terror|Train|Patrol|Sweep|Assault) (?:in|into) [^)]+)\)")


def short_walk(x) -> str:
    """An 8.2 / 8.3 pick in brief: the dice and the space reached."""
    dice = x.get("dice")
    got = BD.name[BD.index[x["space"]]] if x.get("space") in BD.index else x.get("choice", "")
    table = "Random LoC" if x["rule"] == "8.3" else "Random City or Department table"
    roll = f" red {dice[0]}, yellow {dice[1]}, green {dice[2]}" if dice and len(dice) == 3 else ""
    return f"{table}{roll} -> {got}"


def PROMPTS_TEXT(st, fr) -> str:
    from .frames import PROMPTS
    try:
        return PROMPTS[fr["k"]](st, fr)[0]
    except Exception:  # a prompt that cannot be shown here: the frame kind is named instead
        return ""


def np_act_reason(state) -> str:
    """The reason of a Non-player seat's ``np:act``: the section-8 branches that fire (8.1 Event
    or Operations, the 8.5-8.8 flowchart box and, through the rule-tagged ``np`` facts, the 8.2 /
    8.3 dice), read off a trial of the same decision on a copy of the state - the engine's RNG is
    in the state, so the copy draws the dice the game will draw."""
    fr = state["stack"][-1]
    f = fr.get("f", 0)
    cp = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    from .game import apply_choice
    facts = apply_choice(cp, "", "np:act")
    notes = [x for x in facts if x.get("type") == "np"]
    lines = [f"{x['rule']} {x.get('branch') or x['text']}" for x in notes if x.get("branch") != "random space"]
    if fr["k"] != "elig":
        lines.insert(0, frame_head(state, fr, PROMPTS_TEXT(state, fr)))
    where = list(dict.fromkeys(m.group(1) for x in facts if x.get("type") == "track"
                               for m in [WHERE.search(x.get("text", ""))] if m))
    sa = [x["text"].split(": ", 1)[-1] for x in facts if x.get("type") == "sa"]
    if where or sa:
        lines.append("; ".join(where[:6] + (["..."] if len(where) > 6 else [])) +
                     (f" (then {', '.join(sa)})" if sa else ""))
    dice = [f"{x['rule']} {short_walk(x)}" for x in notes if x.get("branch") == "random space"]
    lines = list(dict.fromkeys(lines)) + dice[:4] + ([f"({len(dice) - 4} more 8.2 / 8.3 picks in the log)"]
                                                     if len(dice) > 4 else [])
    text = "; ".join(lines)
    return f"Non-player {FNAME[f]}: " + (text or "8.1.2 Procedure Guidelines")
