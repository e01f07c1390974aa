"""1.4-1.12 and 2.1: the position of a Peru game and the small helpers every rule uses.

A state is a plain JSON dict (see :func:`new_state`):

``s``        space id -> {"T","P","Ru","Ra","Gu","Ga","B","D", "sup", "ter", "sab", "ez", "ctl"}
             (T Troops, P Police, Ru/Ra Rondas Underground/Active, Gu/Ga Guerrillas
             Underground/Active, B regular Bases, D the Guzman Directives Base (0/1, secret),
             sup -2..2, ter Terror, sab Sabotage, ez Emergency Zone 0/1, ctl "G"/"S"/"").
``avail``    Available pieces {"T","P","R" (Rondas box),"G","B"}; ``dbox`` regular Bases held in
             the Directives box; ``d_home`` True while the Directives Base is off the map.
``pw``, ``res`` {"government","shining_path"}, ``hunt`` (box index), ``captured``.
``deck`` (secret), ``card`` (face up), ``played``, ``president``, ``caps`` {card: "top"/"bottom"},
``held`` pieces waiting on cards (P22 Guerrillas, P26 Troops) until the next Reset.
``elig`` [1st, 2nd]; ``boxes`` faction -> Initiative Track box this card; ``stack`` the flow.
"""

from __future__ import annotations

from engine.coin import capabilities
from engine.coin import control as coin_control
from engine.coin import support as coin_support
from engine.core.contract import ChoiceKind, cause_die, fact
from engine.core.flow import Ask, FrameKind, pop, push
from engine.core.messages import msg
from engine.core.rng import new_rng, roll, shuffle

from .data import (
    CAPTURED,
    CARDS,
    COASTAL,
    CONTROLLABLE,
    EVENT_IDS,
    HIGHLAND,
    HUNT_TARGETS,
    IDS,
    JUNGLE,
    LIMA,
    LOCS,
    POP,
    SETUP,
    TARGET_AFTER_CAPTURE,
)
from .texts import CONTROLLER, HELP_GPICK, HUNT_BOX, ONE_PIECE, SEAT, SPACE, SUPPORT, TRACK, C, pieces_text

GOV = "government"
SP = "shining_path"
SEATS = (GOV, SP)
OTHER = {GOV: SP, SP: GOV}
SEAT_NAME = SEAT
PIECE_KEYS = ("T", "P", "Ru", "Ra", "Gu", "Ga", "B", "D")
POOL_OF = {"T": "T", "P": "P", "Ru": "R", "Ra": "R", "Gu": "G", "Ga": "G", "B": "B"}
PIECE_NAME = {"T": "Troop", "P": "Police", "Ru": "Underground Rondas", "Ra": "Active Rondas",
              "Gu": "Underground Guerrilla", "Ga": "Active Guerrilla", "B": "Base", "D": "Base"}


class SetupError(ValueError):
    """A setup option was refused (``field``: the option at fault, for the scheduling page)."""

    def __init__(self, message, field: str = "options"):
        super().__init__(str(message))
        self.message = message
        self.field = field


#: piece key -> the metrics (Rules.metrics) that count it on the map
ON_MAP = {"T": ("troops_on_map", "cubes_on_map"), "P": ("police_on_map", "cubes_on_map"),
          "Ru": ("rondas_on_map",), "Ra": ("rondas_on_map",), "Gu": ("guerrillas_on_map",),
          "Ga": ("guerrillas_on_map",), "B": ("bases_on_map",), "D": ("bases_on_map",)}
CONTROL_METRIC = {"G": "government_control_population", "S": "shining_path_control_population"}


def piece_deltas(key: str, n: int) -> dict:
    """Metric deltas of ``n`` pieces of kind ``key`` arriving on (n < 0: leaving) the map."""
    m = ON_MAP[key]
    return {m[0]: n, m[1]: n} if len(m) == 2 else {m[0]: n}


def control_deltas(sid: str, old: str, new: str) -> dict:
    """Metric deltas of a space's Control changing from ``old`` to ``new`` (1.7)."""
    p = POP[sid]
    d: dict = {}
    if p:
        if old:
            d[CONTROL_METRIC[old]] = -p
        if new:
            d[CONTROL_METRIC[new]] = d.get(CONTROL_METRIC[new], 0) + p
    return d


def support_deltas(sid: str, old: int, new: int) -> dict:
    """Metric deltas of a space's Support level changing (Highland Population counts, 6.2)."""
    d: dict = {}
    if sid in HIGHLAND:
        p = POP[sid]
        s = (new > 0) - (old > 0)
        o = (new < 0) - (old < 0)
        if s:
            d["highland_support_population"] = s * p
        if o:
            d["highland_opposition_population"] = o * p
    return d


# ---------------------------------------------------------------- setup (2.1)

def build_deck(rng: dict, options: dict) -> list[str]:
    """2.1 Deck Preparation: three campaigns of 8 Events, each Propaganda card shuffled into
    the bottom 3 of its campaign (P38, then P39, then P40). ``deck`` fixes the whole order;
    ``deck_top`` fixes the top cards and builds the rest the same way from the other cards."""
    if options.get("deck"):
        deck = [str(c) for c in options["deck"]]
        _check_cards(deck, "deck")
        return deck
    top = [str(c) for c in options.get("deck_top") or []]
    _check_cards(top, "deck_top")
    events = [c for c in EVENT_IDS if c not in top]
    shuffle(rng, events)
    props = [p for p in SETUP["deck"]["campaign_propaganda"] if p not in top]
    per = SETUP["deck"]["events_per_campaign"]
    tail_events = 0
    for c in reversed(top):
        if c in ("P38", "P39", "P40"):
            break
        tail_events += 1
    deck = list(top)
    first = True
    for p in props:
        n = per - tail_events if first else per
        first = False
        pile, events = events[:max(n, 0)], events[max(n, 0):]
        bottom = pile[-2:] + [p] if len(pile) >= 2 else pile + [p]
        head = pile[:-2] if len(pile) >= 2 else []
        shuffle(rng, bottom)
        deck.extend(head + bottom)
    return deck


def _check_cards(cards: list[str], field: str = "deck") -> None:
    for i, c in enumerate(cards):
        if c not in CARDS or c == "P37":
            raise SetupError(msg("Unknown or unusable card in the deck: {card}", card=str(c)), f"{field}[{i}]")
    if len(set(cards)) != len(cards):
        raise SetupError(msg("A card appears twice in the deck."), field)


def new_state(seed: int, options: dict | None = None) -> dict:
    options = dict(options or {})
    rng = new_rng(seed, options.get("script"))
    spaces = {}
    for sid in IDS:
        sp = {k: 0 for k in PIECE_KEYS}
        sp.update(sup=0, ter=0, sab=0, ez=0, ctl="")
        spaces[sid] = sp
    for sid, d in SETUP["spaces"].items():
        sp = spaces[sid]
        sp["sup"] = coin_support.FROM_KEY[d.get("support", "neutral")]
        sp["ez"] = 1 if d.get("ez") else 0
        for k in PIECE_KEYS:
            sp[k] = int(d.get(k, 0))
    t = SETUP["tracks"]
    state = {
        "v": 1, "seed": int(seed), "rng": rng,
        "s": spaces, "avail": dict(SETUP["available"]), "dbox": 0, "d_home": True,
        "pw": t["political_will"], "res": {GOV: t["government_resources"], SP: t["shining_path_resources"]},
        "hunt": t["hunt"], "captured": False, "d_revealed": False,
        "deck": [], "card": None, "played": [], "president": SETUP["president"], "caps": {},
        "held": {"P22": 0, "P26": 0},
        "elig": [SETUP["first_eligible"], GOV if SETUP["first_eligible"] == SP else SP],
        "boxes": {}, "stack": [], "n": 0, "campaign": 1, "over": None, "nprop": 0,
    }
    state["deck"] = build_deck(rng, options)
    for sid in CONTROLLABLE:
        state["s"][sid]["ctl"] = control_of(state["s"][sid], sid)
    return state


# ---------------------------------------------------------------- pieces and Control

def gov_pieces(sp: dict) -> int:
    """1.7: Government pieces that count for Control (Underground Rondas do not)."""
    return sp["T"] + sp["P"] + sp["Ra"]


def sp_pieces(sp: dict) -> int:
    return sp["Gu"] + sp["Ga"] + sp["B"] + sp["D"]


def guerrillas(sp: dict) -> int:
    return sp["Gu"] + sp["Ga"]


def cubes(sp: dict) -> int:
    return sp["T"] + sp["P"]


def rondas(sp: dict) -> int:
    return sp["Ru"] + sp["Ra"]


def bases(sp: dict) -> int:
    return sp["B"] + sp["D"]


def control_of(sp: dict, sid: str) -> str:
    if sid in LOCS:
        return ""
    return coin_control.two_sided(sp["T"] + sp["P"] + sp["Ra"], sp["Gu"] + sp["Ga"] + sp["B"] + sp["D"], "G", "S")


def refresh_control(state: dict, facts: list, cause: str) -> None:
    """1.7: adjust Control markers; gaining or losing Shining Path Control moves Political
    Will by the space's Population."""
    for sid in CONTROLLABLE:
        sp = state["s"][sid]
        new = control_of(sp, sid)
        old = sp["ctl"]
        if new == old:
            continue
        sp["ctl"] = new
        f = fact("control", msg("{space} is now controlled by {who}.", space=SPACE[sid], who=CONTROLLER[new]),
                 space=sid, control={"G": GOV, "S": SP, "": None}[new])
        d = control_deltas(sid, old, new)
        if d:
            f["deltas"] = d
        facts.append(f)
        if POP[sid]:
            if old == "S":
                pw(state, POP[sid], msg("Shining Path lost Control of {space} ({why})", space=SPACE[sid], why=cause),
                   facts)
            if new == "S":
                pw(state, -POP[sid], msg("Shining Path gained Control of {space} ({why})", space=SPACE[sid],
                                         why=cause), facts)


def track_fact(track: str, old: int, new: int, why, **extra) -> dict:
    """The fact of a track moving from ``old`` to ``new``; ``why`` (a message) is its ``why`` field."""
    return fact("track", msg("{track} {delta:+d} to {value} ({why})", track=TRACK[track], delta=new - old, value=new,
                             why=why),
                track=track, delta=new - old, value=new, why=why, deltas={track: new - old} if new != old else {},
                **extra)


def pw(state: dict, delta: int, cause, facts: list) -> int:
    """1.10 Political Will, bounded 0-20."""
    old = state["pw"]
    new = max(0, min(20, old + delta))
    state["pw"] = new
    if delta:
        facts.append(track_fact("political_will", old, new, cause))
    return new - old


RES_METRIC = {GOV: "government_resources", SP: "shining_path_resources"}


def res(state: dict, seat: str, delta: int, cause, facts: list) -> int:
    """1.8 Resources, bounded 0-20."""
    old = state["res"][seat]
    new = max(0, min(20, old + delta))
    state["res"][seat] = new
    if delta:
        facts.append(track_fact(RES_METRIC[seat], old, new, cause))
    return new - old


def shift(state: dict, sid: str, target: int, facts: list, cause: str, steps: int = 1) -> bool:
    """1.6: shift toward ``target`` (2 Active Support, -2 Active Opposition, 0 Neutral).
    0-Population spaces and LoCs never shift."""
    if not POP[sid]:
        return False
    sp = state["s"][sid]
    new = coin_support.shifted(sp["sup"], target, steps)
    if new == sp["sup"]:
        return False
    old = sp["sup"]
    sp["sup"] = new
    facts.append(fact("support", msg("{space} shifts to {level} ({why}).", space=SPACE[sid], level=SUPPORT[new],
                                     why=cause), space=sid, level=new, deltas=support_deltas(sid, old, new)))
    return True


def set_support(state: dict, sid: str, level: int, facts: list, cause: str) -> None:
    if POP[sid] and state["s"][sid]["sup"] != level:
        old = state["s"][sid]["sup"]
        state["s"][sid]["sup"] = level
        facts.append(fact("support", msg("{space} set to {level} ({why}).", space=SPACE[sid], level=SUPPORT[level],
                                         why=cause), space=sid, level=level, deltas=support_deltas(sid, old, level)))


def place(state: dict, sid: str, key: str, n: int, facts: list, cause: str) -> int:
    """Place up to ``n`` Available pieces (1.4.1; Events place only Available pieces)."""
    pool = POOL_OF[key]
    k = min(n, state["avail"][pool])
    if key == "B":
        k = min(k, 2 - bases(state["s"][sid]))
    if k > 0:
        state["avail"][pool] -= k
        state["s"][sid][key] += k
        facts.append(fact("place", msg("{pieces} placed in {space} ({why}).", pieces=pieces_text(key, k),
                                       space=SPACE[sid], why=cause),
                          space=sid, piece=key, count=k, deltas=piece_deltas(key, k)))
    return k


def remove(state: dict, sid: str, key: str, n: int, facts: list, cause: str, to: str | None = None) -> int:
    """Remove up to ``n`` pieces to Available (or to a card holding them, ``to``)."""
    sp = state["s"][sid]
    k = min(n, sp[key])
    if k <= 0:
        return 0
    sp[key] -= k
    if key == "D":
        directives_removed(state, sid, facts, cause)
    elif to is not None:
        state["held"][to] += k
    else:
        state["avail"][POOL_OF[key]] += k
    if key != "D":
        d = piece_deltas(key, -k)  # to Available or onto a card: off the map either way
        facts.append(fact("remove", msg("{pieces} removed from {space} ({why}).", pieces=pieces_text(key, k),
                                        space=SPACE[sid], why=cause),
                          space=sid, piece=key, count=k, deltas=d))
    return k


def directives_removed(state: dict, sid: str, facts: list, cause: str) -> None:
    """1.4.4: the Directives Base goes home; the regular Base held in the box is freed."""
    state["d_home"] = True
    if state["dbox"]:
        state["dbox"] -= 1
        state["avail"]["B"] += 1
    facts.append(fact("reveal", msg("The Base removed from {space} was the Guzman Directives Base ({why}).",
                                    space=SPACE[sid], why=cause),
                      space=sid, piece="D", barrier=True, deltas=piece_deltas("D", -1)))


def remove_base(state: dict, sid: str, facts: list, cause: str) -> str:
    """Remove one face-down Base. With both a regular and the Directives Base in the space the
    remover cannot tell them apart: which one goes is random (rules notes)."""
    sp = state["s"][sid]
    if sp["D"] and sp["B"]:
        key = "D" if roll(state["rng"], 2, tag="base") == 1 else "B"
    else:
        key = "D" if sp["D"] else "B"
    remove(state, sid, key, 1, facts, cause)
    if key == "B":
        facts.append(fact("reveal", msg("The Base removed from {space} was a regular Base.", space=SPACE[sid]),
                          space=sid, piece="B", barrier=True))
    return key


def activate(sp: dict, key_u: str, n: int | None = None) -> int:
    key_a = key_u[0] + "a"
    have = sp[key_u]
    k = have if n is None else min(n, have)
    sp[key_u] -= k
    sp[key_a] += k
    return k


def terrain(sid: str) -> str:
    if sid == LIMA:
        return "lima"
    if sid in LOCS:
        return "loc"
    if sid in HIGHLAND:
        return "highland"
    if sid in JUNGLE:
        return "jungle"
    if sid in COASTAL:
        return "coastal"
    return "?"


def d_location(state: dict) -> str | None:
    for sid in IDS:
        if state["s"][sid]["D"]:
            return sid
    return None


def die(state: dict, tag: str = "die") -> int:
    return roll(state["rng"], 6, tag=tag)


# ---------------------------------------------------------------- Hunt Track (6.7)

def hunt_target(state: dict) -> int | None:
    """Target of the box to the right of the marker (4.2.1, 4.3.2); None when captured."""
    if state["captured"] or state["hunt"] >= CAPTURED:
        return None
    return HUNT_TARGETS[state["hunt"] + 1]


def hunt_shift(state: dict, steps: int, facts: list, cause: str) -> None:
    """6.7.1: move the Hiding marker; reaching Captured triggers 6.7.2."""
    if state["captured"] or steps == 0:
        return
    old = state["hunt"]
    new = max(0, min(CAPTURED, old + steps))
    if new == old:
        return
    state["hunt"] = new
    f = track_fact("hunt_track", old, new, cause)
    f["text"] = msg("Hunt Track {direction} to {box} ({why})", direction=msg("right") if new > old else msg("left"),
                    box=HUNT_BOX[new], why=cause)
    facts.append(f)
    if new >= CAPTURED:
        capture(state, facts)


def hunt_roll(state: dict, facts: list, cause: str, bonus: int = 0, direction: int = 1,
              after_capture_target: bool = False) -> bool:
    """One Hunt roll (4.2.1 Investigate: direction +1; 4.3.2 Evade: direction -1).
    Success when the die (plus bonus) exceeds the box to the right of the marker."""
    if state["captured"]:
        if not after_capture_target:
            return False
        target = TARGET_AFTER_CAPTURE
    else:
        target = hunt_target(state)
        if target is None:
            return False
    if direction < 0 and state["hunt"] == 0:
        return False
    d = die(state, "hunt")
    total = d + bonus
    ok = total > target
    outcome = msg("success") if ok else msg("failure")
    text = msg("Hunt roll {die} +{bonus} against {target}: {outcome} ({why}).", die=d, bonus=bonus, target=target,
               outcome=outcome, why=cause) if bonus else \
        msg("Hunt roll {die} against {target}: {outcome} ({why}).", die=d, target=target, outcome=outcome, why=cause)
    facts.append(fact("roll", text, die=d, bonus=bonus, target=target, success=ok, barrier=True,
                      cause=cause_die("6.7", d)))
    if ok and not state["captured"]:
        hunt_shift(state, direction, facts, cause)
    return ok


def capture(state: dict, facts: list) -> None:
    """6.7.2 Guzman captured."""
    state["captured"] = True
    why = msg("Guzman captured")
    facts.append(fact("capture", msg("Guzman is captured!"), barrier=True, deltas={"guzman_captured": 1}))
    pw(state, 5, why, facts)
    remove_guerrillas(state, GOV, [(sid, guerrillas(state["s"][sid]) // 2) for sid in IDS],
                      facts, why, "6.7.2")
    loc = d_location(state)
    if loc:
        sp = state["s"][loc]
        sp["D"] = 0
        sp["B"] += 1
        if state["dbox"]:
            state["dbox"] -= 1
        else:
            state["avail"]["B"] -= 1 if state["avail"]["B"] else 0
        state["d_home"] = True
        facts.append(fact("reveal", msg("The Guzman Directives Base in {space} is revealed and replaced by a "
                                        "regular Base.", space=SPACE[loc]), space=loc, barrier=True))
    elif state["dbox"]:
        state["avail"]["B"] += state["dbox"]
        state["dbox"] = 0
    refresh_control(state, facts, why)


# ---------------------------------------------------------------- choosing which Guerrillas go

def remove_guerrillas(state: dict, seat: str, queue: list, facts: list, cause: str, rule: str) -> None:
    """Remove ``n`` Guerrillas in each ``(space, n)`` of ``queue``. Where the space holds both
    Active and Underground Guerrillas and not all of them go, ``seat`` chooses each one (the
    rulebook does not say which); otherwise the removal is forced and done at once."""
    fr = {"k": "gpick", "seat": seat, "q": [[sid, n] for sid, n in queue if n > 0], "cause": cause, "rule": rule}
    if _gpick_forced(state, fr, facts):
        push(state, fr)


def _gpick_forced(state: dict, fr: dict, facts: list) -> bool:
    """Do the removals that need no decision; True while a choice is pending."""
    q = fr["q"]
    while q:
        sid, n = q[0]
        sp = state["s"][sid]
        n = min(n, guerrillas(sp))
        if n <= 0:
            q.pop(0)
            continue
        if sp["Ga"] and sp["Gu"] and n < guerrillas(sp):
            q[0][1] = n
            return True
        key = "Ga" if sp["Ga"] else "Gu"
        remove(state, sid, key, n, facts, fr["cause"])
        refresh_control(state, facts, fr["cause"])
        q.pop(0)
    return False


def _gpick_ask(state: dict, fr: dict) -> Ask:
    sid, n = fr["q"][0]
    sp = state["s"][sid]
    ch = []
    for k in ("Ga", "Gu"):
        if sp[k]:
            ch.append(C(f"remove:{k}", msg("Remove {piece}", piece=ONE_PIECE[k]), ChoiceKind.PIECE, fr["rule"],
                        HELP_GPICK, {"space": sid, "piece": k}))
    return Ask(fr["seat"], msg("{why}: remove a Guerrilla in {space} ({count} to remove)", why=fr["cause"],
                               space=SPACE[sid], count=n), fr["rule"], ch, {"space": sid, "count": n})


def _gpick_act(state: dict, fr: dict, cid: str, facts: list) -> None:
    sid = fr["q"][0][0]
    remove(state, sid, cid[7:], 1, facts, fr["cause"])
    refresh_control(state, facts, fr["cause"])
    fr["q"][0][1] -= 1
    if not _gpick_forced(state, fr, facts):
        pop(state, fr)


GPICK_KIND = FrameKind("gpick", ask=_gpick_ask, act=_gpick_act)


# ---------------------------------------------------------------- capabilities and presidents

def cap(state: dict, card: str) -> str | None:
    """The side of a Capability in play ("top"/"bottom") or None (5.3)."""
    return capabilities.side(state, card)


def piece_totals(state: dict) -> dict[str, int]:
    """Totals for conservation checks (each must equal its setup total)."""
    t = {"T": state["avail"]["T"] + state["held"]["P26"], "P": state["avail"]["P"], "R": state["avail"]["R"],
         "G": state["avail"]["G"] + state["held"]["P22"], "B": state["avail"]["B"] + state["dbox"],
         "D": 1 if state["d_home"] else 0}
    for sp in state["s"].values():
        t["T"] += sp["T"]
        t["P"] += sp["P"]
        t["R"] += sp["Ru"] + sp["Ra"]
        t["G"] += sp["Gu"] + sp["Ga"]
        t["B"] += sp["B"]
        t["D"] += sp["D"]
    return t
