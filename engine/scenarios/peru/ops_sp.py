"""3.3 Shining Path Operations: Rally, March, Attack, Terror.

Choice ids (besides ``space:<id>``, ``sa:<name>``, ``done``):

- Rally (3.3.1): ``rally:1`` .. ``rally:<n>`` (place that many Guerrillas), ``rally:base``
  (replace 2 Guerrillas, Active ones first, with a Base; ``rally:base:1u`` / ``rally:base:2u``
  use 1 or 2 Underground ones instead), ``rally:flip`` (flip all Guerrillas Underground).
- March (3.3.2): after choosing the destination, ``move:<origin>:u`` / ``move:<origin>:a``
  (one Underground/Active Guerrilla) and ``done``.
- Attack (3.3.3): ``attack:roll`` or ``sa:ambush``; removals ``kill:P`` / ``kill:T`` /
  ``kill:Ru`` / ``kill:Ra`` (Police before Troops; Rondas at any time).
- Terror (3.3.4): ``space:<id>`` resolves the space; the Government may be asked
  ``from:<id>``/``stop`` for a Rondas when none is in the Rondas box.
"""

from __future__ import annotations

from engine.core.contract import ChoiceKind, cause_die, fact
from engine.core.flow import Ask, FrameKind, pop, push
from engine.core.messages import msg, msg_n

from .data import ADJ_ORDERED, HIGHLAND, LIMA, LOCS, POP
from .ops import (
    OpDef,
    allowed_here,
    ambush_allowed,
    can_pay,
    pay,
    place_or_take,
    register_op,
    sp_cost,
    use_sa,
)
from .state import (
    GOV,
    SP,
    activate,
    bases,
    cap,
    cubes,
    die,
    guerrillas,
    place,
    refresh_control,
    remove,
    remove_guerrillas,
    rondas,
    shift,
)
from .texts import (
    HELP_ATTACK_ROLL,
    HELP_DONE,
    HELP_KILL,
    HELP_MOVE,
    HELP_RALLY_BASE,
    HELP_RALLY_FLIP,
    HELP_RALLY_N,
    ONE_PIECE,
    OP,
    SA_HELP,
    SPACE,
    C,
    cached,
)


def guerrillas_elsewhere(state: dict, sid: str) -> int:
    return sum(guerrillas(sp) for s, sp in state["s"].items() if s != sid)


# ---------------------------------------------------------------- 3.3.1 Rally

def _rally_spaces(state, fr):
    out = []
    for s, sp in state["s"].items():
        if s in LOCS or s in fr["sel"] or not allowed_here(fr, s):
            continue
        if s != LIMA and sp["sup"] > 0:
            continue
        if not can_pay(state, SP, sp_cost(state, fr, s, 1)):
            continue
        if state["avail"]["G"] or guerrillas_elsewhere(state, s) or (bases(sp) and sp["Ga"]) or \
                (guerrillas(sp) >= 2 and bases(sp) < 2 and (state["avail"]["B"] or any(
                    o["B"] for x, o in state["s"].items() if x != s))):
            out.append(s)
    return out


def _rally_select(state, fr, sid, facts):
    pay(state, SP, sp_cost(state, fr, sid, 1), facts, msg("Rally in {space}", space=SPACE[sid]))
    fr["ph"] = "rally"
    fr["cur"] = sid


def rally_max(state: dict, sid: str) -> int:
    sp = state["s"][sid]
    return POP[sid] + bases(sp) if bases(sp) else 1


def _rally_ask(state, fr):
    sid = fr["cur"]
    sp = state["s"][sid]
    ch = []
    supply = state["avail"]["G"] + guerrillas_elsewhere(state, sid)
    for n in range(1, min(rally_max(state, sid), supply) + 1):
        ch.append(C(f"rally:{n}", msg_n("Place {count} Guerrilla in {space}", "Place {count} Guerrillas in {space}", n,
                                        space=SPACE[sid]), ChoiceKind.AMOUNT, "3.3.1", HELP_RALLY_N,
                    {"space": sid, "piece": "Gu", "count": n}, payload={"count": n}))
    if guerrillas(sp) >= 2 and bases(sp) < 2 and (state["avail"]["B"] or any(
            o["B"] for s, o in state["s"].items() if s != sid)):
        u_min = max(0, 2 - sp["Ga"])
        lab = msg("Replace 2 Guerrillas with a Base in {space} (Active ones first)", space=SPACE[sid]) \
            if sp["Ga"] and sp["Gu"] else msg("Replace 2 Guerrillas with a Base in {space}", space=SPACE[sid])
        ch.append(C("rally:base", lab, ChoiceKind.OPTION, "3.3.1", HELP_RALLY_BASE, {"space": sid, "piece": "B"},
                    payload={"underground": u_min}))
        # which two Guerrillas go is the Shining Path's choice (3.1)
        for u in range(u_min + 1, min(2, sp["Gu"]) + 1):
            ch.append(C(f"rally:base:{u}u", msg("Replace 2 Guerrillas ({count} of them Underground) with a Base in "
                                                "{space}", count=u, space=SPACE[sid]), ChoiceKind.OPTION, "3.3.1",
                        HELP_RALLY_BASE, {"space": sid, "piece": "B"}, payload={"underground": u}))
    if bases(sp) and sp["Ga"]:
        ch.append(C("rally:flip", msg("Flip all Guerrillas in {space} Underground", space=SPACE[sid]),
                    ChoiceKind.OPTION, "3.3.1", HELP_RALLY_FLIP, {"space": sid}, payload={}))
    return msg("Rally in {space}", space=SPACE[sid]), ch


def _rally_act(state, fr, cid, facts):
    sid = fr["cur"]
    sp = state["s"][sid]
    fr["ph"] = "main"
    what = cid[6:]
    if what == "base" or what.startswith("base:"):
        u = int(what[5:-1]) if what.startswith("base:") else max(0, 2 - sp["Ga"])
        why = msg("Rally (replaced by a Base)")
        remove(state, sid, "Ga", 2 - u, facts, why)
        remove(state, sid, "Gu", u, facts, why)
        place_or_take(state, SP, sid, "B", 1, facts, msg("Rally"))
    elif what == "flip":
        n = sp["Ga"]
        sp["Ga"] = 0
        sp["Gu"] += n
        facts.append(fact("flip", msg_n("{count} Guerrilla flipped Underground in {space} (Rally).",
                                        "{count} Guerrillas flipped Underground in {space} (Rally).", n,
                                        space=SPACE[sid]), space=sid, count=n))
    else:
        place_or_take(state, SP, sid, "Gu", int(what), facts, msg("Rally"))


register_op(OpDef("rally", SP, OP["rally"], "3.3.1", _rally_spaces, _rally_select, _rally_ask, _rally_act))


# ---------------------------------------------------------------- 3.3.2 March

def _movable(fr, sid, key, sp):
    return sp[key] - fr.get("fix", {}).get(sid, {}).get(key, 0)


def march_origins(state: dict, fr: dict, dest: str) -> list[tuple[str, str]]:
    out = []
    fix = fr.get("fix") or {}
    for o in ADJ_ORDERED[dest]:
        sp = state["s"][o]
        f = fix.get(o)
        if sp["Gu"] - (f.get("Gu", 0) if f else 0) > 0:
            out.append((o, "u"))
        if sp["Ga"] - (f.get("Ga", 0) if f else 0) > 0:
            out.append((o, "a"))
    return out


def _march_spaces(state, fr):
    out = []
    for s in state["s"]:
        if s in fr["sel"] or not allowed_here(fr, s):
            continue
        if not can_pay(state, SP, sp_cost(state, fr, s, 0 if s in LOCS else 1)):
            continue
        if march_origins(state, fr, s) if fr.get("fix") else any(
                guerrillas(state["s"][o]) for o in ADJ_ORDERED[s]):
            out.append(s)
    return out


def _march_select(state, fr, sid, facts):
    pay(state, SP, sp_cost(state, fr, sid, 0 if sid in LOCS else 1), facts, msg("March into {space}", space=SPACE[sid]))
    fr["ph"] = "march"
    fr["cur"] = sid
    fr["grp"] = {}
    fr.setdefault("fix", {})


def _march_ask(state, fr):
    d = fr["cur"]
    ch = [cached(("march", o, t, d), lambda o=o, t=t: C(
        f"move:{o}:{t}", msg("Move {piece} from {space}", piece=ONE_PIECE["Gu" if t == "u" else "Ga"], space=SPACE[o]),
        ChoiceKind.PIECE, "3.3.2", HELP_MOVE, {"space": o, "piece": "Gu" if t == "u" else "Ga", "to": d},
        payload={"space": o, "underground": t == "u"}))
          for o, t in march_origins(state, fr, d)]
    if fr["grp"]:
        ch.append(C("done", msg("No more Guerrillas into {space}", space=SPACE[d]), ChoiceKind.DONE, "3.3.2",
                    HELP_DONE))
    return msg("March into {space}: move Guerrillas in", space=SPACE[d]), ch


def _march_act(state, fr, cid, facts):
    d = fr["cur"]
    if cid == "done":
        sp = state["s"][d]
        exposed = d in LOCS or sp["sup"] > 0
        # origins in space-id order, not in the order moved: the facts must not depend on the
        # order a JSON round trip gives the frame's keys (a replay from the log rebuilds it sorted)
        for o, (n, nu) in sorted(fr["grp"].items()):
            if exposed and nu and n + cubes(sp) + sp["Ra"] > 3:
                k = activate(sp, "Gu", nu)
                fx = fr["fix"].setdefault(d, {})
                fx["Gu"] = fx.get("Gu", 0) - k
                fx["Ga"] = fx.get("Ga", 0) + k
                facts.append(fact("activate", msg_n("{count} Guerrilla marching from {source} into {space} is "
                                                    "Activated (3.3.2).", "{count} Guerrillas marching from {source} "
                                                    "into {space} are Activated (3.3.2).", k, source=SPACE[o],
                                                    space=SPACE[d]), space=d, count=k))
        fr["ph"] = "main"
        return
    _, o, t = cid.split(":")
    key = "Gu" if t == "u" else "Ga"
    state["s"][o][key] -= 1
    state["s"][d][key] += 1
    fx = fr["fix"].setdefault(d, {})
    fx[key] = fx.get(key, 0) + 1
    g = fr["grp"].setdefault(o, [0, 0])
    g[0] += 1
    if t == "u":
        g[1] += 1
    facts.append(fact("move", msg("A Guerrilla marches from {source} into {space}.", source=SPACE[o], space=SPACE[d]),
                      piece=key, source=o, space=d))


register_op(OpDef("march", SP, OP["march"], "3.3.2", _march_spaces, _march_select, _march_ask, _march_act))


# ---------------------------------------------------------------- 3.3.3 Attack (and the removal frame)

def gov_targets(sp: dict) -> int:
    return sp["T"] + sp["P"] + sp["Ru"] + sp["Ra"]


def _attack_spaces(state, fr):
    return [s for s, sp in state["s"].items() if s not in fr["sel"] and allowed_here(fr, s) and guerrillas(sp)
            and gov_targets(sp) and can_pay(state, SP, sp_cost(state, fr, s, 1))]


def _attack_select(state, fr, sid, facts):
    pay(state, SP, sp_cost(state, fr, sid, 1), facts, msg("Attack in {space}", space=SPACE[sid]))
    fr["cur"] = sid
    if ambush_allowed(fr, state) and state["s"][sid]["Gu"] and allowed_sa_space(fr, sid):
        fr["ph"] = "how"
    else:
        attack_roll(state, fr, sid, facts)


def allowed_sa_space(fr: dict, sid: str) -> bool:
    w = (fr.get("sa") or {}).get("where")
    return w is None or sid in w


def attack_roll(state: dict, fr: dict, sid: str, facts: list) -> None:
    sp = state["s"][sid]
    activate(sp, "Gu")
    d = die(state, "attack")
    g = guerrillas(sp)
    ok = d <= g
    facts.append(fact("roll", msg("Attack in {space}: rolled {die} against {count} Guerrillas: {outcome}.",
                                  space=SPACE[sid], die=d, count=g, outcome=msg("hit") if ok else msg("miss")),
                      die=d, space=sid, success=ok, barrier=True, cause=cause_die("3.3.3", d)))
    post = {"add": 1 if d == 1 else 0, "rondas": True, "p17": cap(state, "P17") == "top"}
    if ok:
        push(state, kill_frame(sid, 2, post))
    else:
        attack_post(state, sid, post, [], facts)


def ambush(state: dict, fr: dict, sid: str, facts: list, add: int = 1) -> None:
    """4.3.3 Ambush: Activate one Underground Guerrilla, remove up to 2 Government pieces
    without a roll, add a Guerrilla (no Rondas shift: rules notes)."""
    sp = state["s"][sid]
    activate(sp, "Gu", 1)
    facts.append(fact("special_activity", msg("Ambush in {space}.", space=SPACE[sid]), space=sid, sa="ambush"))
    push(state, kill_frame(sid, 2, {"add": add, "rondas": False, "p17": cap(state, "P17") == "top"}))


def kill_frame(sid: str, n: int, post: dict) -> dict:
    return {"k": "kill", "seat": SP, "sid": sid, "n": n, "removed": [], "post": post}


def _kill_ask(state, fr):
    sp = state["s"][fr["sid"]]
    ch = []
    if fr["n"] > 0:
        keys = ("P" if sp["P"] else "T" if sp["T"] else None, "Ru", "Ra")
        for k in keys:
            if k and sp[k]:
                ch.append(cached(("kill", k, fr["sid"]), lambda k=k: C(
                    f"kill:{k}", msg("Remove {piece}", piece=ONE_PIECE[k]), ChoiceKind.PIECE, "3.3.3", HELP_KILL,
                    {"piece": k, "space": fr["sid"]}, payload={"piece": k})))
    # 3.3.3 / 4.3.3 "remove up to two": the Shining Path picks the pieces, but 3.1 ("once
    # targeted, a Faction's pieces are affected to the maximum extent possible") means it
    # removes two while any Government piece is left; no early stop.
    if not ch:
        ch.append(C("done", msg("Continue"), ChoiceKind.DONE, "3.3.3", HELP_DONE))
    return Ask(SP, msg("Remove Government pieces in {space} ({count} left)", space=SPACE[fr["sid"]], count=fr["n"]),
               "3.3.3", ch)


def _kill_act(state, fr, cid, facts):
    sid = fr["sid"]
    if cid != "done":
        key = cid[5:]
        remove(state, sid, key, 1, facts, msg("Attack"))
        fr["removed"].append(key)
        fr["n"] -= 1
        sp = state["s"][sid]
        if fr["n"] > 0 and gov_targets(sp):
            refresh_control(state, facts, msg("Attack in {space}", space=SPACE[sid]))
            return
    pop(state, fr)
    attack_post(state, sid, fr["post"], fr["removed"], facts)
    refresh_control(state, facts, msg("Attack in {space}", space=SPACE[sid]))


def attack_post(state: dict, sid: str, post: dict, removed: list, facts: list) -> None:
    sp = state["s"][sid]
    if post.get("add"):
        place_or_take(state, SP, sid, "Gu", post["add"], facts, msg("Attack/Ambush"))
    if post.get("rondas") and any(k in ("Ru", "Ra") for k in removed):
        activate(sp, "Ru")
        shift(state, sid, 2, facts, msg("Rondas removed by Attack"))
    if post.get("p17") and guerrillas(sp):
        # the Shining Path (executing) chooses which of its Guerrillas is lost
        remove_guerrillas(state, SP, [(sid, 1)], facts, msg("high casualties (P17)"), "5.3 (P17)")


def _attack_ask(state, fr):
    sid = fr["cur"]
    return msg("Attack in {space}: roll or Ambush?", space=SPACE[sid]), [
        C("attack:roll", msg("Attack normally (roll a die)"), ChoiceKind.CONFIRM, "3.3.3", HELP_ATTACK_ROLL,
          {"space": sid}, payload={}),
        C("sa:ambush", msg("Ambush (Special Activity): sure hit"), ChoiceKind.SPECIAL_ACTIVITY, "4.3.3",
          SA_HELP["ambush"], {"space": sid, "sa": "ambush"}, payload={"sa": "ambush"})]


def _attack_act(state, fr, cid, facts):
    sid = fr["cur"]
    fr["ph"] = "main"
    if cid == "sa:ambush":
        use_sa(state, fr)
        ambush(state, fr, sid, facts, add=fr.get("ambush_add", 1))
    else:
        attack_roll(state, fr, sid, facts)


register_op(OpDef("attack", SP, OP["attack"], "3.3.3", _attack_spaces, _attack_select, _attack_ask, _attack_act))


# ---------------------------------------------------------------- 3.3.4 Terror

def terror_cost(state: dict, fr: dict, sid: str) -> int:
    return sp_cost(state, fr, sid, 0 if (sid in LOCS or sid in HIGHLAND) else 1)


def _terror_spaces(state, fr):
    return [s for s, sp in state["s"].items() if s not in fr["sel"] and allowed_here(fr, s) and sp["Gu"]
            and can_pay(state, SP, terror_cost(state, fr, s))]


def terror_in(state: dict, sid: str, facts: list, markers: int = 1, activate_from: str | None = None) -> None:
    """3.3.4 procedure in one space (``activate_from``: the space whose Guerrilla is used, P3)."""
    sp = state["s"][sid]
    activate(state["s"][activate_from or sid], "Gu", 1)
    if sid in LOCS:
        if not sp["sab"]:
            sp["sab"] = 1
            facts.append(fact("marker", msg("Sabotage placed on {space}.", space=SPACE[sid]), space=sid,
                              marker="sabotage", delta=1, deltas={"sabotage_markers": 1}))
    else:
        if sid == LIMA:
            sp["ter"] += markers
            facts.append(fact("marker", msg_n("{count} Terror marker placed in Lima.",
                                              "{count} Terror markers placed in Lima.", markers),
                              space=sid, marker="terror", delta=markers, deltas={"terror_markers": markers}))
        elif not sp["ter"]:
            sp["ter"] = 1
            facts.append(fact("marker", msg("Terror placed in {space}.", space=SPACE[sid]), space=sid, marker="terror",
                              delta=1, deltas={"terror_markers": 1}))
        shift(state, sid, -2, facts, msg("Terror"))
    if sid in HIGHLAND:
        if not place(state, sid, "Ru", 1, facts, msg("Terror backlash (3.3.4)")):
            fr = {"k": "take", "seat": GOV, "key": "Ru", "pool": "R", "to": sid, "n": 1,
                  "why": msg("Terror backlash")}
            from .ops import take_sources
            if take_sources(state, fr):
                push(state, fr)


def _terror_select(state, fr, sid, facts):
    pay(state, SP, terror_cost(state, fr, sid), facts, msg("Terror in {space}", space=SPACE[sid]))
    terror_in(state, sid, facts, markers=fr.get("markers", 1))


register_op(OpDef("terror", SP, OP["terror"], "3.3.4", _terror_spaces, _terror_select))

FRAME_KINDS = [FrameKind("kill", ask=_kill_ask, act=_kill_act)]

__all__ = ["FRAME_KINDS", "ambush", "attack_roll", "terror_in", "rondas"]
