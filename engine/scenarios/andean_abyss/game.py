"""2.0 Sequence of Play, 2.1 setup, 6.0 Propaganda Rounds, 7.0 Victory.

The state is one JSON-compatible dict. ``run`` advances the game through every step
that needs no decision and stops at the next frame waiting for a choice.
"""

from __future__ import annotations

from engine.coin.cylinders import adjust, eligible_order
from engine.core import rng as R
from engine.core.contract import IllegalChoice, fact

from . import pieces as P
from .board import BOARD as BD
from .board import FACTIONS, FNAME, INV_SLOT, B
from .frames import FLOW, POLICIES, PROMPTS, C, frame, logging_to, pop, push, resume_once, wait

PROP = 73  # Propaganda cards are 73..76
OPS = {0: ("train", "patrol", "sweep", "assault"), 1: ("rally", "march", "attack", "terror"),
       2: ("rally", "march", "attack", "terror"), 3: ("rally", "march", "attack", "terror")}
SAS = {0: ("airlift", "airstrike", "eradicate"), 1: ("extort", "ambush", "kidnap"),
       2: ("extort", "ambush", "assassinate"), 3: ("cultivate", "process", "bribe")}


# ====================================================================== setup (2.1)
def seat_map(options: dict) -> tuple[list, list]:
    """1.5 / 1.5.1: which seat controls each Faction and which Factions are Non-players."""
    players = int(options.get("players", 4))
    if players not in (1, 2, 3, 4):
        raise ValueError("players must be 1 to 4")
    mode = options.get("spare", "pair" if players in (2, 3) else "nonplayer")
    ctl = list(FACTIONS)
    np = list(options.get("nonplayers", []))
    if players == 4:
        pass
    elif players == 3:
        third = options.get("third", "auc")  # 1.5: the 3rd player may take the Cartels instead
        if mode == "pair":
            if third == "cartels":
                ctl[2] = "cartels"
            else:
                ctl[3] = "auc"
        else:
            np = np or (["auc"] if third == "cartels" else ["cartels"])
    elif players == 2:
        if mode == "pair":
            ctl[2] = "govt"
            ctl[3] = "farc"
        else:
            np = np or ["auc", "cartels"]
    else:
        solo = options.get("solo", "govt")
        np = [f for f in FACTIONS if f != solo]
    npf = sorted(FACTIONS.index(f) for f in np)
    return ctl, npf


def build_deck(st: dict, scn: dict, options: dict) -> list:
    if options.get("deck"):
        deck = []
        p = 0
        for c in options["deck"]:
            if isinstance(c, str) and c.strip().isdigit():
                c = int(c)
            if c in ("P", "p", "propaganda") or (isinstance(c, int) and c >= PROP):
                deck.append(PROP + p)
                p += 1
            else:
                if not (isinstance(c, int) and 1 <= c <= 72):
                    raise ValueError(f"deck: {c!r} is neither a card number 1-72 nor 'P'")
                deck.append(c)
        return deck
    d = scn["deck"]
    rec = st["rng"]
    events = list(range(1, 73))
    R.shuffle(rec, events)
    piles = d["piles"]
    per = d["events_per_pile"]
    prop_in = d.get("propaganda_in_piles", list(range(1, piles + 1)))
    deck = []
    p = 0
    for k in range(piles):
        pile = events[k * per:(k + 1) * per]
        if (k + 1) in prop_in:
            if options.get("seeded"):
                top, bottom = pile[:per - 5], pile[per - 5:] + [PROP + p]
                R.shuffle(rec, bottom)
                pile = top + bottom
            else:
                pile = pile + [PROP + p]
                R.shuffle(rec, pile)
            p += 1
        deck.extend(pile)
    return deck


def setup(seed: int, options: dict | None) -> dict:
    options = dict(options or {})
    key = options.get("scenario", "short" if options.get("short") else "full")
    scns = BD.setup["scenarios"]
    if key not in scns:
        raise ValueError(f"unknown scenario {key!r} (full, short, quick)")
    scn = scns[key]
    base = scns[scn["same_as"]] if "same_as" in scn else scn
    ctl, npf = seat_map(options)
    st = {
        "v": 1, "seq": 0, "scn": key, "opts": {k: options[k] for k in options if k != "script"},
        "rng": R.new_rng(seed, options.get("script")),
        "pc": [[0] * 12 for _ in range(BD.n)], "av": list(BD.inventory), "oop": [0] * 12,
        "sup": [0] * BD.n, "ter": [0] * BD.n, "sab": [0] * BD.n, "zones": [], "fm": 0,
        "res": [base["resources"][f] for f in FACTIONS], "aid": base["aid"],
        "pres": BD.setup["presidents"].index(base["president"]),
        "caps": {}, "mom": [], "ship": [],
        "elig": [True] * 4, "inel_next": [], "stay_elig": [],
        "ctl": ctl, "np": npf,
        "props_total": scn["propaganda"], "props_done": 0, "last_prop": False,
        "skip_victory_once": bool(scn.get("skip_first_victory_phase")),
        "cards_played": 0, "sop": None, "stack": [], "over": None, "log": [],
        "cur": None, "nxt": None, "deck": [],
    }
    for sid, level in base["support"].items():
        st["sup"][BD.index[sid]] = level
    open_dep = options.get("deployment") == "open" and key != "quick"
    for sid, pcs in base["pieces"].items():
        i = BD.index[sid]
        for k, n in pcs.items():
            slot = INV_SLOT[k]
            owner = 0 if slot < 3 else slot // 3
            if open_dep and owner not in npf:
                continue  # 2.1 Open Deployment: player Factions place their own forces
            st["pc"][i][slot] += n
            st["av"][slot] -= n
    for z in base.get("farc_zones", []):
        st["zones"].append(BD.index[z])
    if open_dep:
        for f in (0, 1, 2, 3):  # pushed in reverse: Cartels, AUC, FARC, then Government place
            if f not in npf:
                todo = []
                for k, n in BD.setup["open_deployment"][FACTIONS[f]]:
                    todo += [INV_SLOT[k]] * n
                push(st, {"k": "deploy", "f": f, "todo": todo, "pop_bases": 0})
    deck = build_deck(st, scn, options)
    st["cur"] = deck.pop(0)
    st["nxt"] = deck.pop(0) if deck else None
    st["deck"] = deck
    st["cards_played"] = 1
    facts: list = []
    run(st, facts)
    return st


# ====================================================================== helpers
def is_prop(card) -> bool:
    return card is not None and card >= PROP


def seat_of(st: dict, f: int) -> str:
    return st["ctl"][f]


def is_np(st: dict, f: int) -> bool:
    return f in st["np"]


def cap(st: dict, n: int) -> str:
    """'u' / 's' when Govt Capability card n is in force on that side, else ''."""
    return st["caps"].get(str(n), "")


def mom(st: dict, n: int) -> bool:
    return n in st["mom"]


def final_event_card(st: dict) -> bool:
    """2.3.9: the next card is the final Propaganda card."""
    return is_prop(st["nxt"]) and st["props_done"] + 1 >= st["props_total"]


def card_info(n):
    return BD.cards.get(n)


# ====================================================================== main loop
def run(st: dict, facts: list) -> None:
    """Advance through every step that needs no decision (engine.coin.flow.Flow.run)."""
    FLOW.run(st, facts)


def _auto_ok(st: dict, fr: dict) -> bool:
    # 5.1: a frame inherits "auto" from a Non-player's Event or Operation; where the card
    # names a player Faction to act (fr["f"]), that player's seat decides instead
    return fr["f"] in st["np"] or fr["k"] == "elig"


def current_prompt(st: dict):
    if st["over"] is not None or not st["stack"]:
        return None
    fr = st["stack"][-1]
    text, rule, chs = PROMPTS[fr["k"]](st, fr)
    if fr["k"] != "elig" and fr["f"] in st["np"]:
        chs = [NP_CHOICE]
    return fr, text, rule, chs


NP_CHOICE = C("np:act", "Let the section-8 Non-player rules decide")


def apply_choice(st: dict, seat: str, cid: str) -> list:
    fr = st["stack"][-1]
    facts: list = []
    st["seq"] += 1
    with logging_to(facts):
        if cid == "np:act" and fr["k"] != "elig":
            fr["auto"] = "np"
            import engine.scenarios.andean_abyss.nonplayer  # noqa: F401  (registers the policies)
            FLOW.run(st, facts)
        else:
            FLOW.answer(st, cid, facts)
    return facts


# ====================================================================== 2.3 Event cards
def sop_advance(st: dict, facts: list) -> None:
    s = st["sop"]
    if s is None:
        start_card(st, facts)
        return
    if s["second"] is not None or s["i"] >= len(s["cand"]):
        end_card(st, facts)
        return
    f = s["cand"][s["i"]]
    push(st, {"k": "elig", "f": f, "pos": 1 if s["first"] is None else 2})


def start_card(st: dict, facts: list) -> None:
    card = st["cur"]
    if card is None:
        finish_game(st, facts, "deck exhausted")
        return
    if is_prop(card):
        facts.append(fact("card", f"Propaganda card revealed ({st['props_done'] + 1} of {st['props_total']})",
                          card="propaganda", barrier=True))
        st["props_done"] += 1
        if st["last_prop"]:
            facts.append(fact("propaganda", "Two Propaganda cards in a row: no Propaganda Round (6.0)"))
            if st["props_done"] >= st["props_total"]:
                finish_game(st, facts, "final Propaganda card")
                return
            next_card(st, facts)
            return
        st["last_prop"] = True
        st["sop"] = {"prop": True}
        push(st, {"k": "prop", "ph": "victory", "f": 0})
        return
    st["last_prop"] = False
    c = BD.cards[card]
    order = [FACTIONS.index(x) for x in c["order"]]
    st["sop"] = {"cand": eligible_order(order, dict(enumerate(st["elig"]))), "i": 0, "first": None, "second": None,
                 "executed": [], "shipped": []}
    facts.append(fact("card", f"Card {card} {c['title']} is played; next card: {card_title(st['nxt'])}",
                      card=card, next=st["nxt"], barrier=True))


def card_title(n) -> str:
    if n is None:
        return "none"
    if is_prop(n):
        return "Propaganda!"
    return f"{n} {BD.cards[n]['title']}"


def end_card(st: dict, facts: list) -> None:
    """2.3.7 Adjust Eligibility, 2.3.8 next card."""
    s = st["sop"]
    new = adjust(range(4), s["executed"], st["stay_elig"], st["inel_next"])
    st["elig"] = [new[f] for f in range(4)]
    st["inel_next"] = []
    st["stay_elig"] = []
    next_card(st, facts)


def next_card(st: dict, facts: list) -> None:
    st["sop"] = None
    st["cur"] = st["nxt"]
    st["nxt"] = st["deck"].pop(0) if st["deck"] else None
    if st["cur"] is not None:
        st["cards_played"] += 1


def record_exec(st: dict, f: int, did: str) -> None:
    s = st["sop"]
    if s.get("prop"):
        return
    if f not in s["executed"]:
        s["executed"].append(f)
    if s["first"] is None:
        s["first"] = {"f": f, "did": did}
    elif s["first"]["f"] == f:
        s["first"]["did"] = did
    else:
        s["second"] = {"f": f, "did": did}


def mark_sa(st: dict, f: int) -> None:
    s = st["sop"]
    if s and not s.get("prop") and s["first"] is not None and s["first"]["f"] == f and s["first"]["did"] == "op":
        s["first"]["did"] = "opsa"


@frame("elig")
class Elig:
    """2.3.2-2.3.4: the 1st or 2nd Eligible Faction chooses Pass, Event or Operation."""

    @staticmethod
    def options(st, fr):
        f, pos = fr["f"], fr["pos"]
        s = st["sop"]
        card = BD.cards[st["cur"]]
        ev = op = False
        lim = False
        if pos == 1:
            ev = op = True
        else:
            did = s["first"]["did"]
            if did == "op":
                op, lim = True, True
            elif did == "opsa":
                op, lim, ev = True, True, True
            else:
                op = True
        final = final_event_card(st) and not is_np(st, f)
        if final:
            lim = True
        return card, ev, op, lim, final

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        card, ev, op, lim, final = Elig.options(st, fr)
        chs = []
        if is_np(st, f):
            return (f"{FNAME[f]} (Non-player) acts per section 8", "8.1", [C("np:act", "Resolve the Non-player flowchart")])
        chs.append(C("pass", f"Pass (+{3 if f == 0 else 1} Resources)"))
        if ev:
            if card.get("single"):
                chs.append(C("event", f"Event: {card['unshaded']['text']}", card=card["n"]))
            else:
                chs.append(C("event:unshaded", f"Unshaded Event: {card['unshaded']['text']}", card=card["n"]))
                chs.append(C("event:shaded", f"Shaded Event: {card['shaded']['text']}", card=card["n"]))
        if op:
            from .ops import op_possible
            for o in OPS[0 if f == 0 else 1]:
                if final and o in ("sweep", "march"):
                    continue
                if op_possible(st, f, o, lim):
                    chs.append(C(f"op:{o}", ("Limited Operation: " if lim else "Operation: ") + o.capitalize(),
                                 limited=lim))
        pos = "1st" if fr["pos"] == 1 else "2nd"
        return (f"{FNAME[f]}, you are {pos} Eligible on card {card['n']} {card['title']}: Pass, Event or Operation?",
                "2.3.4", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        f = fr["f"]
        if cid is None:
            if fr.get("done"):
                s = st["sop"]
                s["i"] += 1
                pop(st, fr)
                return
            wait(fr)
            return
        if cid == "pass":
            P.set_res(st, f, 3 if f == 0 else 1, facts, "Pass, 2.3.3")
            facts.append(fact("pass", f"{FNAME[f]} passes", faction=FACTIONS[f]))
            st["sop"]["i"] += 1
            pop(st, fr)
            return
        fr["done"] = 1
        if cid == "np:act":
            from .nonplayer import np_turn
            np_turn(st, fr, facts)
            return
        if cid.startswith("event"):
            side = "unshaded" if cid in ("event", "event:unshaded") else "shaded"
            record_exec(st, f, "event")
            from .events import start_event
            start_event(st, f, st["cur"], side, facts)
            return
        if cid.startswith("op:"):
            _, ev, _, lim, _ = Elig.options(st, fr)
            record_exec(st, f, "op")
            from .ops import start_op
            start_op(st, f, cid[3:], lim=lim, free=False, facts=facts)
            return
        raise IllegalChoice(f"unknown choice {cid}")


# ====================================================================== 6.0 Propaganda
def victory_met(st: dict) -> list:
    m = P.margins(st)
    return [m[f] > 0 for f in range(4)]


def finish_game(st: dict, facts: list, why: str, winner_check: bool = False) -> None:
    m = P.margins(st)
    # 1.5.1: a player running two Factions uses the lower margin
    seat_margin = {}
    for f in range(4):
        s = st["ctl"][f] if f not in st["np"] else f"np:{FACTIONS[f]}"
        seat_margin[s] = min(seat_margin.get(s, 999), m[f])
    # 7.1 ties: Non-players, then Cartels, then AUC, then FARC (the Government last); the same
    # order breaks a tie between two Non-players
    tie = {"cartels": 0, "auc": 1, "farc": 2, "govt": 3}

    def key(f):
        s = st["ctl"][f] if f not in st["np"] else f"np:{FACTIONS[f]}"
        return (-seat_margin[s], 0 if f in st["np"] else 1, tie[FACTIONS[f]])
    ranking = sorted(range(4), key=key)
    res = {"reason": why, "margins": {FACTIONS[f]: m[f] for f in range(4)},
           "ranking": [FACTIONS[f] for f in ranking], "winner": FACTIONS[ranking[0]]}
    if winner_check:
        res["victory_check"] = True
    # 7.1: a Non-player passing a victory check makes all players lose; among the Non-players
    # that passed, the highest margin (7.1 tie order) is the winner, not the first in Faction order
    np_won = [f for f in ranking if f in st["np"] and winner_check and m[f] > 0]
    if np_won:
        res["players_lose"] = True
        res["winner"] = FACTIONS[np_won[0]]
    if len(st["np"]) == 3:  # 8.9 1-player victory
        pf = [f for f in range(4) if f not in st["np"]][0]
        deg = m[pf] - max(m[f] for f in st["np"])
        res["solo_margin"] = deg
        res["solo_result"] = ("Failure" if deg <= 0 else "Stalemate" if deg <= 3 else
                              "Progress" if deg <= 8 else "Triumph")
    st["over"] = res
    st["stack"] = []
    facts.append(fact("game_over", f"Game over ({why}): {res['winner']} ranks first", result=res))


@frame("prop")
class Prop:
    """6.1-6.6 Propaganda Round phases; decisions are pushed as child frames."""

    @staticmethod
    def prompt(st, fr):
        return ("", "6.0", [])

    @staticmethod
    def step(st, fr, facts, cid):
        ph = fr["ph"]
        final = st["props_done"] >= st["props_total"]
        if ph == "victory":
            fr["ph"] = "sabotage"
            if st["skip_victory_once"]:
                st["skip_victory_once"] = False
                facts.append(fact("propaganda", "Quick-Play: the first Victory Phase is skipped"))
            else:
                met = victory_met(st)
                ends = False
                seats = {}
                for f in range(4):
                    s = st["ctl"][f] if f not in st["np"] else f"np{f}"
                    seats.setdefault(s, []).append(met[f])
                ends = any(all(v) for v in seats.values())
                if len(st["np"]) == 3:  # 8.9: the solo player never wins during Propaganda
                    ends = any(met[f] for f in st["np"])
                m = P.margins(st)  # 7.3 margins as they stand at the check (Playbook tutorial figures)
                facts.append(fact("propaganda", "Victory Phase (6.1): " + ", ".join(
                    f"{FNAME[f]} {'meets' if met[f] else 'does not meet'} its condition ({m[f]:+d})"
                    for f in range(4)), phase="victory", margins={FACTIONS[f]: m[f] for f in range(4)}))
                if ends:
                    finish_game(st, facts, "victory check (7.2)", winner_check=True)
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
                        facts[-1]["cause"] = "Sabotage Phase 6.2"
            return
        if ph == "sabotage7":
            fr["ph"] = "resources"
            if cap(st, 7) == "u" and (sum(st["ter"]) or sum(st["sab"])):
                push(st, {"k": "seventh", "f": 0, "left": 3, "auto": "np" if is_np(st, 0) else None})
            return
        if ph == "resources":
            fr["ph"] = "drugs"
            earn = sum(BD.econ[i] for i in BD.locs if not st["sab"][i])
            if st["pres"] != 0:
                earn += st["aid"]
            P.set_res(st, 0, earn, facts, "Government Earnings 6.3.1" + (" (Samper: no Aid)" if st["pres"] == 0 else ""))
            for f in (1, 2):
                P.set_res(st, f, P.count_on_map(st, B(f)), facts, "Insurgent Earnings 6.3.2")
            mult = 4 if mom(st, 67) else 3
            P.set_res(st, 3, mult * P.count_on_map(st, 11), facts, f"Cartels Earnings {mult} x Bases 6.3.2")
            return
        if ph == "drugs":
            for f in (1, 2, 3):
                if any(s[1] == f for s in st["ship"]):
                    push(st, {"k": "drugs", "f": f, "auto": "np" if is_np(st, f) else None})
                    return
            fr["ph"] = "civic"
            return
        if ph == "civic":
            fr["ph"] = "agitate"
            from .ops import civic_spaces
            if civic_spaces(st) and st["res"][0] >= 3:
                push(st, {"k": "civic", "f": 0, "phase": True, "auto": "np" if is_np(st, 0) else None, "one_cube": 0})
            return
        if ph == "agitate":
            fr["ph"] = "election"
            if agitate_spaces(st) and st["res"][1] >= 1:
                push(st, {"k": "agitate", "f": 1, "extra": 3 if mom(st, 22) else 0, "done": [],
                          "auto": "np" if is_np(st, 1) else None})
            return
        if ph == "election":
            fr["ph"] = "elite"
            ts = P.total_support(st)
            if st["pres"] < 2 and ts <= 60:
                st["pres"] += 1
                names = ("Samper", "Pastrana", "Uribe")
                facts.append(fact("track", f"Election (6.4.3): Total Support {ts} <= 60, El Presidente is now {names[st['pres']]}",
                                  track="el_presidente", value=st["pres"], cause="Election 6.4.3"))
                if st["pres"] == 1:
                    from .ops import start_zone
                    start_zone(st, facts, None, "Election: Pastrana places a FARC Zone (6.4.3)")
                elif st["pres"] == 2:
                    for z in list(st["zones"]):
                        st["zones"].remove(z)
                        facts.append(fact("zone", f"Uribe: FARC Zone removed from {BD.name[z]}", space=BD.ids[z]))
            return
        if ph == "elite":
            fr["ph"] = "redeploy"
            from .ops import rally_space_ok
            cands = [i for i in P.spaces(st) if not BD.is_loc[i] and st["sup"][i] >= 0 and P.control(st, i) == ""
                     and rally_space_ok(st, 2, i, elite=True)]
            if cands:
                push(st, {"k": "elite", "f": 2, "auto": "np" if is_np(st, 2) else None})
            return
        if ph == "redeploy":
            fr["ph"] = "reset"
            if final:
                return
            push(st, {"k": "redeploy", "f": 0, "auto": "np" if is_np(st, 0) else None, "ph": "must"})
            return
        if ph == "reset":
            pop(st, fr)
            if final:
                finish_game(st, facts, "final Propaganda Round completed (7.3)")
                return
            st["elig"] = [True] * 4
            st["ter"] = [0] * BD.n
            st["sab"] = [0] * BD.n
            if st["mom"]:
                facts.append(fact("momentum", "Momentum ends: " + ", ".join(card_title(c) for c in st["mom"])))
            st["mom"] = []
            for pc in st["pc"]:
                for f in (1, 2, 3):
                    pc[3 * f] += pc[3 * f + 1]
                    pc[3 * f + 1] = 0
            facts.append(fact("propaganda", "Reset (6.6): all Eligible, markers removed, Guerrillas Underground"))
            next_card(st, facts)
            return


@frame("deploy")
class Deploy:
    """2.1 Open Deployment: Cartels, AUC, FARC, then Government place their forces."""

    @staticmethod
    def cands(st, fr):
        f, slot = fr["f"], fr["todo"][0]
        base = slot in (2, 5, 8, 11)
        out = []
        for i in P.spaces(st):
            if base and not P.can_stack_base(st, i):
                continue
            if f == 1 and not BD.is_dept[i]:
                continue
            if f == 0 and (BD.is_loc[i] or st["pc"][i][5] or i in st["zones"]):
                continue
            if f == 3 and base:
                left = sum(1 for s_ in fr["todo"] if s_ == 11)
                if 4 - fr["pop_bases"] >= left and not (BD.is_dept[i] and BD.pop[i] > 0):
                    continue
            out.append(i)
        return out

    @staticmethod
    def prompt(st, fr):
        slot = fr["todo"][0]
        from .board import PIECE_NAMES
        chs = [C(f"space:{BD.ids[i]}", f"Place {PIECE_NAMES[slot]} in {BD.name[i]}", space=BD.ids[i])
               for i in Deploy.cands(st, fr)]
        return (f"Open Deployment: where does a {PIECE_NAMES[slot]} go ({len(fr['todo'])} pieces left)?", "2.1", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if not fr["todo"]:
                pop(st, fr)
            else:
                wait(fr)
            return
        i = BD.index[cid[6:]]
        slot = fr["todo"].pop(0)
        P.place(st, i, slot, 1, facts, "Open Deployment 2.1")
        if slot == 11 and BD.is_dept[i] and BD.pop[i] > 0:
            fr["pop_bases"] += 1


def agitate_spaces(st: dict, extra: bool = False) -> list:
    out = []
    for i in P.spaces(st):
        if BD.pop[i] <= 0 or BD.is_loc[i]:
            continue
        if st["sup"][i] == -2 and not st["ter"][i]:
            continue
        c = P.control(st, i)
        if c == "farc" or (extra and c != "govt" and P.fpieces(st["pc"][i], 1)):
            out.append(i)
    return out


@frame("seventh")
class Seventh:
    """Card 7 unshaded: remove 1-3 Terror/Sabotage markers in the Sabotage Phase."""

    @staticmethod
    def prompt(st, fr):
        chs = [C(f"space:{BD.ids[i]}", f"Remove a marker from {BD.name[i]}", space=BD.ids[i])
               for i in range(BD.n) if st["ter"][i] or st["sab"][i]]
        chs.append(C("done", "Done"))
        return ("7th Special Forces: remove Terror or Sabotage markers", "card 7", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if fr["left"] <= 0 or not (sum(st["ter"]) or sum(st["sab"])):
                pop(st, fr)
            else:
                wait(fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        i = BD.index[cid[6:]]
        if st["sab"][i]:
            st["sab"][i] = 0
        else:
            st["ter"][i] -= 1
        fr["left"] -= 1
        facts.append(fact("marker", f"7th Special Forces: marker removed from {BD.name[i]}", space=BD.ids[i]))


@frame("drugs")
class Drugs:
    """6.3.3 Drug Profits: each Shipment gives a Base at its location or +6 Resources."""

    @staticmethod
    def prompt(st, fr):
        f = fr["f"]
        s = next(x for x in st["ship"] if x[1] == f)
        i = s[0]
        chs = [C("res", "+6 Resources")]
        if st["av"][B(f)] and P.can_stack_base(st, i):
            chs.insert(0, C("base", f"Place a Base in {BD.name[i]}", space=BD.ids[i]))
        return (f"{FNAME[f]}: Shipment in {BD.name[i]} - a Base there or +6 Resources?", "6.3.3", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if any(x[1] == fr["f"] for x in st["ship"]):
                wait(fr)
            else:
                pop(st, fr)
            return
        f = fr["f"]
        s = next(x for x in st["ship"] if x[1] == f)
        st["ship"].remove(s)
        if cid == "base":
            P.place(st, s[0], B(f), 1, facts, "Drug Profits 6.3.3")
        else:
            P.set_res(st, f, 6, facts, "Drug Profits 6.3.3")


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
        chs = [C(f"space:{BD.ids[i]}", f"Agitate in {BD.name[i]} (1 Resource)", space=BD.ids[i]) for i in cands]
        chs.append(C("done", "Done agitating"))
        return ("FARC: spend 1 Resource per Terror removed or shift toward Active Opposition", "6.4.2", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if st["res"][1] >= 1 and Agitate.cands(st, fr)[0]:
                wait(fr)
            else:
                pop(st, fr)
            return
        if cid == "done":
            pop(st, fr)
            return
        i = BD.index[cid[6:]]
        _, extra = Agitate.cands(st, fr)
        if i in extra and i not in fr["done"]:
            fr["extra"] -= 1
        if i not in fr["done"]:
            fr["done"].append(i)
        P.set_res(st, 1, -1, facts, "Agitation 6.4.2")
        if st["ter"][i]:
            st["ter"][i] -= 1
            facts.append(fact("marker", f"Agitation removes a Terror marker in {BD.name[i]}", space=BD.ids[i]))
        else:
            P.shift(st, i, -1, facts, "Agitation 6.4.2")


@frame("elite")
class Elite:
    """6.4.5 Elite Backing: AUC may free Rally in 1 space."""

    @staticmethod
    def prompt(st, fr):
        from .ops import rally_space_ok
        chs = [C(f"space:{BD.ids[i]}", f"Free Rally in {BD.name[i]}", space=BD.ids[i]) for i in P.spaces(st)
               if not BD.is_loc[i] and st["sup"][i] >= 0 and P.control(st, i) == "" and rally_space_ok(st, 2, i, elite=True)]
        chs.append(C("none", "No Elite Backing"))
        return ("AUC: Elite Backing - free Rally in one space without Opposition or Control?", "6.4.5", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            resume_once(st, fr)
            return
        if cid == "none":
            pop(st, fr)
            return
        fr["went"] = 1
        i = BD.index[cid[6:]]
        push(st, {"k": "rallysp", "f": 2, "i": i, "free": True, "auto": fr.get("auto")})


@frame("redeploy")
class Redeploy:
    """6.5 Redeploy: Troops must leave LoCs and base-less Departments; other moves optional."""

    @staticmethod
    def must_from(st):
        return [i for i in P.spaces(st) if st["pc"][i][0] and (BD.is_loc[i] or (BD.is_dept[i] and not st["pc"][i][2]))]

    @staticmethod
    def dests(st, troops: bool):
        out = []
        for i in P.spaces(st):
            if P.is_zone(st, i):
                continue
            if troops:
                if (BD.is_city[i] or st["pc"][i][2]) and P.control(st, i) == "govt":
                    out.append(i)
            elif BD.is_loc[i] or P.control(st, i) == "govt":
                out.append(i)
        return out

    @staticmethod
    def prompt(st, fr):
        if fr["ph"] == "must":
            src = Redeploy.must_from(st)[0]
            ds = fr["dests"]
            chs = [C(f"space:{BD.ids[j]}", f"1 Troops from {BD.name[src]} to {BD.name[j]}", space=BD.ids[j]) for j in ds]
            return (f"Redeploy: move the Troops in {BD.name[src]} to a Govt-Controlled City or Base", "6.5.1", chs)
        if fr["ph"] == "from":
            chs = []
            for i in P.spaces(st):
                pc = st["pc"][i]
                if pc[0] and any(j != i for j in fr["tdest"]):  # 6.5.2: any other Troops
                    chs.append(C(f"troops:{BD.ids[i]}", f"Move Troops from {BD.name[i]}", space=BD.ids[i]))
                if pc[1] and any(j != i for j in fr["pdest"]):
                    chs.append(C(f"police:{BD.ids[i]}", f"Move Police from {BD.name[i]}", space=BD.ids[i]))
            chs.append(C("done", "Done redeploying"))
            return ("Redeploy: optionally move Troops to Govt-Controlled Cities/Bases and Police to LoCs or Govt-Controlled spaces",
                    "6.5.2", chs)
        src = fr["src"]
        ds = fr["tdest"] if fr["slot"] == 0 else fr["pdest"]
        chs = [C(f"space:{BD.ids[j]}", f"To {BD.name[j]}", space=BD.ids[j]) for j in ds if j != src]
        return (f"Redeploy: where does the cube from {BD.name[src]} go?", "6.5", chs)

    @staticmethod
    def step(st, fr, facts, cid):
        if cid is None:
            if "dests" not in fr:  # control is judged before any movement (6.5)
                fr["dests"] = Redeploy.dests(st, True) or [BD.bogota]
                fr["tdest"] = Redeploy.dests(st, True)
                fr["pdest"] = Redeploy.dests(st, False)
            if fr["ph"] == "must" and not Redeploy.must_from(st):
                fr["ph"] = "from"
            wait(fr)
            return
        if fr["ph"] == "must":
            src = Redeploy.must_from(st)[0]
            j = BD.index[cid[6:]]
            P.move(st, src, j, 0, 1, facts, "Redeploy 6.5.1")
            if not Redeploy.must_from(st):
                fr["ph"] = "from"
            wait(fr)
            return
        if fr["ph"] == "from":
            if cid == "done":
                pop(st, fr)
                return
            kind, sid = cid.split(":")
            fr["src"] = BD.index[sid]
            fr["slot"] = 0 if kind == "troops" else 1
            fr["ph"] = "to"
            fr["n"] = fr.get("n", 0) + 1
            wait(fr)
            return
        j = BD.index[cid[6:]]
        P.move(st, fr["src"], j, fr["slot"], 1, facts, "Redeploy 6.5")
        if fr["slot"] == 1:      # Police arrivals, so a Police moves once (8.8.9; read by the bots)
            fr.setdefault("parr", {})[str(j)] = fr.get("parr", {}).get(str(j), 0) + 1
        fr["ph"] = "from" if fr["n"] < 60 else "from"
        if fr["n"] >= 60:
            pop(st, fr)
            return
        wait(fr)


def _random_policy(st, fr, chs):
    return chs[R.pick_index(st["rng"], len(chs), tag="np")].id


POLICIES["random"] = _random_policy


FLOW.idle = sop_advance
FLOW.done = lambda st: st["over"] is not None
FLOW.auto_ok = _auto_ok
