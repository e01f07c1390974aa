"""2.1 Setup: seats and Non-players (1.5), the scenario's deck (2.1-2.2) and the starting forces."""

from __future__ import annotations

from engine.core import rng as R

from . import positions
from .board import AUC, CARTELS, FACTIONS, INV_SLOT, SLOT_OWNER
from .board import BOARD as BD
from .frames import push
from .sequence import run
from .state import PROP


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
                ctl[AUC] = "cartels"
            else:
                ctl[CARTELS] = "auc"
        else:
            np = np or (["auc"] if third == "cartels" else ["cartels"])
    elif players == 2:
        if mode == "pair":
            ctl[AUC] = "govt"
            ctl[CARTELS] = "farc"
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
    position = options.pop("position", None)
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
        "sup": [0] * BD.n, "ter": [0] * BD.n, "sab": [0] * BD.n, "zones": [], "foreign": "",
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
            owner = SLOT_OWNER[slot]
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
    if position is not None:
        positions.apply(st, position)
    facts: list = []
    run(st, facts)
    return st
