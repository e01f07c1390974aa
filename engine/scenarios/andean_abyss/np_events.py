"""8.4 Non-players inside Events: which spaces, pieces, Factions and free actions an Event's choices get."""

from __future__ import annotations

from . import pieces as P
from .board import AUC, CARTELS, FACTIONS, FARC, GOVT, PIECE_KEYS, UNDERGROUND, U
from .board import BOARD as BD
from .frames import target, targets
from .np_base import rnd
from .np_govt_sa import govt_sa
from .ops_govt import assault_targets
from .state import is_np


def pol_ship(st, fr, chs, ids):
    return "noship"   # 8.1: Non-players never Ship


def pol_shipask(st, fr, chs, ids):
    return "refuse"   # 8.1.2: Non-players voluntarily transfer nothing


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
        piece = targets(c)[1]
        own = piece.startswith(FACTIONS[me]) or (me == GOVT and piece in ("troops", "police", "govt_base"))
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
        top = max(BD.pop[BD.index[target(c)]] for c in real)
        real = [c for c in real if BD.pop[BD.index[target(c)]] == top]
    left = fr["s"].get("n", 1) - len(fr.get("chosen", ()))
    if not fr["s"].get("repeat") and then and all(t.get("do") == "sabotage" for t in then) \
            and all(BD.is_loc[BD.index[target(c)]] for c in real):
        top = max(BD.econ[BD.index[target(c)]] for c in real)
        group = [c for c in real if BD.econ[BD.index[target(c)]] == top]
        if len(group) <= left:
            return group[0]    # 8.3 highest Econ first, and all of them get Sabotaged: no dice
    return rnd(st, real)


def pol_give(st, fr, chs, ids):
    return "done"  # 8.1.2: Non-players voluntarily transfer nothing


def faction_rank(st, g):
    """8.8.3 / 8.5.3 tie order of enemy Factions: a player before a Non-player, then FARC, AUC,
    Cartels."""
    return (1 if is_np(st, g) else 0, g)


def pol_evfaction(st, fr, chs, ids):
    """Events naming 'an Insurgent Faction': the executor picks itself when it may (8.1: it places
    or moves pieces, gains Resources); a Government picks a player before a Non-player, then
    FARC, AUC, Cartels (8.8.3)."""
    me = f"faction:{FACTIONS[fr['f']]}"
    if me in ids:
        return me
    opts = [FACTIONS.index(target(c)) for c in ids if c.startswith("faction:")]
    return f"faction:{FACTIONS[min(opts, key=lambda g: faction_rank(st, g))]}" if opts else ids[0]


def pol_evlevel(st, fr, chs, ids):
    """Card 46: Passive Support for the Government (8.4.3: greatest shift toward Active Support)
    and the AUC (8.1: toward Support), Passive Opposition for the FARC; the Cartels take the
    greater change in Total Support and Opposition (8.4.3)."""
    f = fr["f"]
    if f in (GOVT, AUC):
        return "level:1"
    if f == FARC:
        return "level:-1"
    i = fr["v"].get("here")
    cur = st["sup"][i] if i is not None else 0
    up, down = abs(1 - cur), abs(-1 - cur)
    return "level:1" if up > down else "level:-1" if down > up else rnd(st, ["level:1", "level:-1"])


def pol_evchoice(st, fr, chs, ids):
    """Event alternatives (8.4.2: place or relocate as many pieces as allowed; 8.1.2: remove enemy
    Bases first): card 48 removes the FARC Base, 54 replaces rather than removes, 65 places (an
    Insurgent) or removes (the Government), 60 clears the option holding more Cartels pieces."""
    govt = fr["f"] == GOVT
    for pref in (("alt:base",), ("alt:replace",), ("alt:ship-", "alt:base-") if govt else ("alt:ship+", "alt:base+")):
        for c in pref:
            if c in ids:
                return c
    if "alt:cities" in ids and "alt:dept" in ids:
        n = sorted((P.fpieces(st["pc"][i], CARTELS) for i in BD.cities), reverse=True)
        d = max((P.fpieces(st["pc"][i], CARTELS) for i in BD.depts), default=0)
        return "alt:cities" if sum(n[:2]) >= d else "alt:dept"
    return rnd(st, ids)


def pol_evsa(st, fr, chs, ids):
    """Free Special Activities (5.5): as many as allowed (8.4.2); when the card lets a
    Non-player Government pick the kind, the 8.8.7 order."""
    real = [c for c in ids if c != "done"]
    if fr["f"] == GOVT and len(real) > 1:
        s = govt_sa(st, ids)
        if s:
            return s
    return real[0] if real else "done"


def pol_genoff(st, fr, chs, ids):
    """Card 19 General Offensive: the Government Assaults where it can, else Sweeps in place
    (8.8.3 before 8.8.6); an Insurgent Attacks where it has 3+ Guerrillas (8.6.3 / 8.7.3),
    else makes Terror with an Underground Guerrilla (8.5.3-8.7.4), else Attacks, else nothing."""
    if fr["f"] == GOVT:
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
    opts = [FACTIONS.index(target(c)) for c in ids if c.startswith("faction:")]
    return f"faction:{FACTIONS[min(opts, key=lambda g: (0 if is_np(st, g) else 1, g))]}" if opts else ids[0]


def pol_c72rep(st, fr, chs, ids):
    """Card 72 unshaded: a Non-player's Guerrilla rather than a player's (8.4 note); then a
    Government executor prefers the AUC to the FARC (whose forces drive its victory, 7.2), an
    Insurgent executor takes FARC, then AUC."""
    opts = [FACTIONS.index(target(c)) for c in ids if c.startswith("faction:")]
    sign = -1 if fr["f"] == GOVT else 1
    return f"faction:{FACTIONS[min(opts, key=lambda g: (0 if is_np(st, g) else 1, sign * g))]}" if opts else ids[0]


def pol_c72place(st, fr, chs, ids):
    """Card 72 shaded: each Guerrilla to a Cartels Base space with the fewest Cartels Guerrillas
    (8.5.1's bare Base spaces first), then random (8.2)."""
    cands = [c for c in ids if c.startswith("space:")]
    low = min(P.guerrillas(st["pc"][BD.index[target(c)]], CARTELS) for c in cands)
    return rnd(st, [c for c in cands if P.guerrillas(st["pc"][BD.index[target(c)]], CARTELS) == low])


def pol_c55ship(st, fr, chs, ids):
    """Card 55 unshaded (Government): player-owned Shipments first, then random (8.2)."""
    own = [c for c in ids if c.startswith("ship:")]
    pl = [c for c in own if not is_np(st, FACTIONS.index(targets(c)[1]))]
    return rnd(st, pl or own)


def pol_c5u(st, fr, chs, ids):
    """Card 5 unshaded: Police onto the highest-Econ pipelines first (8.3), as many as allowed
    (8.4.2); then Activate player Guerrillas before Non-players', FARC, AUC, Cartels (8.8.3)."""
    sps = [c for c in ids if c.startswith("space:")]
    if sps:
        top = max(BD.econ[BD.index[target(c)]] for c in sps)
        return rnd(st, [c for c in sps if BD.econ[BD.index[target(c)]] == top])
    acts = [c for c in ids if c.startswith("act:")]
    if acts:
        return min(acts, key=lambda c: faction_rank(st, FACTIONS.index(targets(c)[1])))
    return "done" if "done" in ids else ids[0]


def pol_c69(st, fr, chs, ids):
    """Card 69: move as many pieces as allowed (8.4.2) from the space with most of them, to a
    random Department (8.2), then the free Operation the flowchart would favour there: Assault,
    then Sweep, then Train (8.8.3-8.8.6); Rally, then Attack, then Terror for an Insurgent."""
    f = fr["f"]
    if fr["ph"] == "src":
        sps = [c for c in ids if c.startswith("space:")]
        if not sps:
            return "done"
        most = max(P.fpieces(st["pc"][BD.index[target(c)]], f) for c in sps)
        return rnd(st, [c for c in sps if P.fpieces(st["pc"][BD.index[target(c)]], f) == most])
    if fr["ph"] == "dst":
        return rnd(st, [c for c in ids if c.startswith("space:")])
    i = fr.get("dst")
    pc = st["pc"][i] if i is not None else None
    if f == GOVT:
        if pc is not None and assault_targets(st, i):
            return "op:assault"
        if pc is not None and sum(pc[k] for k in UNDERGROUND):
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
        if fr["f"] == GOVT:
            most = max(st["pc"][BD.index[target(c)]][PIECE_KEYS.index(targets(c)[1])] for c in srcs)
            srcs = [c for c in srcs if st["pc"][BD.index[target(c)]][PIECE_KEYS.index(targets(c)[1])] == most]
        return rnd(st, srcs)
    return rnd(st, [c for c in ids if c.startswith("space:")])
