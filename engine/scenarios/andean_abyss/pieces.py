"""1.4 Forces, 1.6 Support/Opposition, 1.7 Resources/Aid, 1.8 Control, 7.3 margins.

Small functions over the state dict. Every change returns or appends facts; every
Support/Opposition change names its cause (issue 7, metrics).
"""

from __future__ import annotations

from engine.coin.control import controller
from engine.coin.support import shifted
from engine.coin.tracks import clamp
from engine.core.contract import fact
from engine.core.messages import msg, msg_n

from .board import (
    ACTIVE,
    ALL_FACTIONS,
    AUC_ACTIVE,
    AUC_BASE,
    AUC_UNDERGROUND,
    AVAIL_SLOT,
    BASES,
    BOARD,
    CARTELS,
    CARTELS_ACTIVE,
    CARTELS_BASE,
    CARTELS_UNDERGROUND,
    FACTION_SLOTS,
    FACTIONS,
    FARC_ACTIVE,
    FARC_BASE,
    FARC_UNDERGROUND,
    FOREIGN_IN_PLAY,
    GOVT,
    GOVT_BASE,
    INSURGENTS,
    POLICE,
    SLOT_OWNER,
    TROOPS,
    UNDERGROUND,
    A,
    B,
    U,
)
from .texts import FN, PN, SN, SUPPORT_NAME, with_why

BD = BOARD
N = BD.n


def active_space(st: dict, i: int) -> bool:
    """1.3.5: Ecuador and Panamá are spaces only after cards 33 / 71 (shaded)."""
    if i == BD.ecuador or i == BD.panama:
        return i in _SPACES_BY_FOREIGN[st["foreign"]]
    return True


def adj(st: dict, i: int) -> tuple:
    return BD.adj_by_foreign[st["foreign"]][i]


_SPACES_BY_FOREIGN = {key: tuple(i for i in range(N) if i not in BD.foreign or BD.ids[i] in key.split("+"))
                      for key in FOREIGN_IN_PLAY}


def spaces(st: dict) -> tuple:
    """The spaces in play (1.3.5: Ecuador / Panamá only once their cards made them spaces)."""
    return _SPACES_BY_FOREIGN[st["foreign"]]


def guerrillas(pc: list, f: int) -> int:
    u, a, _ = FACTION_SLOTS[f]
    return pc[u] + pc[a]


def all_guerrillas(pc: list) -> int:
    return pc[FARC_UNDERGROUND] + pc[FARC_ACTIVE] + pc[AUC_UNDERGROUND] + pc[AUC_ACTIVE] + pc[CARTELS_UNDERGROUND] + pc[CARTELS_ACTIVE]


def cubes(pc: list) -> int:
    return pc[TROOPS] + pc[POLICE]


def bases(pc: list) -> int:
    return pc[GOVT_BASE] + pc[FARC_BASE] + pc[AUC_BASE] + pc[CARTELS_BASE]


def fpieces(pc: list, f: int) -> int:
    u, a, b = FACTION_SLOTS[f]      # the Government's: Troops, Police, Base
    return pc[u] + pc[a] + pc[b]


def total_pieces(pc: list) -> int:
    return sum(pc)


def govt_control(pc: list) -> bool:
    g = pc[TROOPS] + pc[POLICE] + pc[GOVT_BASE]
    return g > sum(pc) - g


def farc_control(pc: list) -> bool:
    f = pc[FARC_UNDERGROUND] + pc[FARC_ACTIVE] + pc[FARC_BASE]
    return f > sum(pc) - f


def control(st: dict, i: int) -> str:
    """1.8: 'govt', 'farc' or '' (Cities and Departments only)."""
    if BD.is_loc[i]:
        return ""
    pc = st["pc"][i]
    c = controller({FACTIONS[f]: fpieces(pc, f) for f in ALL_FACTIONS})
    return c if c in ("govt", "farc") else ""


def enemies_of(f: int) -> tuple:
    return tuple(g for g in ALL_FACTIONS if g != f)


def is_zone(st: dict, i: int) -> bool:
    return i in st["zones"]


def can_stack_base(st: dict, i: int) -> bool:
    """1.4.2: at most 2 Bases in a City/Department, none on LoCs."""
    return not BD.is_loc[i] and bases(st["pc"][i]) < 2 and active_space(st, i)


def ecuador_room(st: dict, i: int, f: int) -> bool:
    """Card 33: at most 2 pieces per Faction in Ecuador."""
    return i != BD.ecuador or fpieces(st["pc"][i], f) < 2


# ---------------------------------------------------------------- pieces
def place(st: dict, i: int, slot: int, n: int, facts: list, why: str = "") -> int:
    """Place up to ``n`` pieces of ``slot`` from Available (1.4.1); returns how many."""
    avail_slot = AVAIL_SLOT[slot]
    f = SLOT_OWNER[slot]
    if slot in ACTIVE:  # placing is always Underground (1.4.3)
        slot -= 1
    k = min(n, st["av"][avail_slot])
    if f == GOVT and is_zone(st, i):
        k = 0
    if slot in BASES:
        k = min(k, 2 - bases(st["pc"][i])) if not BD.is_loc[i] else 0
    if i == BD.ecuador:
        k = min(k, 2 - fpieces(st["pc"][i], f))
    if k <= 0:
        return 0
    st["av"][avail_slot] -= k
    st["pc"][i][slot] += k
    facts.append(fact("place", with_why(msg("{count} {piece} placed in {space}", count=k, piece=PN[slot], space=SN[i]), why),
                      space=BD.ids[i], piece=slot, n=k))
    return k


def remove(st: dict, i: int, slot: int, n: int, facts: list, why: str = "", oop: bool = False) -> int:
    """Remove up to ``n`` pieces of ``slot`` to Available (Shipments follow 4.5.3)."""
    pc = st["pc"][i]
    k = min(n, pc[slot])
    if k <= 0:
        return 0
    pc[slot] -= k
    avail_slot = AVAIL_SLOT[slot]
    if oop:
        st["oop"][avail_slot] += k
    else:
        st["av"][avail_slot] += k
    facts.append(fact("remove", with_why(msg("{count} {piece} removed from {space}", count=k, piece=PN[slot], space=SN[i]),
                                         why),
                      space=BD.ids[i], piece=slot, n=k))
    if slot in UNDERGROUND or slot in ACTIVE:   # a Guerrilla left
        fix_shipments(st, i, facts)
    return k


def move(st: dict, src: int, dst: int, slot: int, n: int, facts: list, why: str = "") -> int:
    pc = st["pc"][src]
    k = min(n, pc[slot])
    if k <= 0:
        return 0
    pc[slot] -= k
    st["pc"][dst][slot] += k
    facts.append(fact("move", with_why(msg("{count} {piece} moved {source} -> {destination}", count=k, piece=PN[slot],
                                           source=SN[src], destination=SN[dst]), why), src=BD.ids[src], dst=BD.ids[dst], piece=slot, n=k))
    if SLOT_OWNER[slot] != GOVT:
        carry_shipments(st, src, dst, SLOT_OWNER[slot], k)
    return k


def flip(st: dict, i: int, f: int, n: int, to_active: bool, facts: list, why: str = "") -> int:
    pc = st["pc"][i]
    s_from, s_to = (U(f), A(f)) if to_active else (A(f), U(f))
    k = min(n, pc[s_from])
    if k <= 0:
        return 0
    pc[s_from] -= k
    pc[s_to] += k
    text = (msg("{count} {faction} Guerrilla(s) Activated in {space}", count=k, faction=FN[f], space=SN[i]) if to_active
            else msg("{count} {faction} Guerrilla(s) flipped Underground in {space}", count=k, faction=FN[f], space=SN[i]))
    facts.append(fact("flip", with_why(text, why),
                      space=BD.ids[i], faction=f, n=k, active=to_active))
    return k


def remove_piece_of(st: dict, i: int, f: int, facts: list, why: str = "", underground_ok: bool = False,
                    prefer_police: bool = True) -> int:
    """Remove one piece of faction f, Bases last (3.2.4 note); returns slot or -1."""
    pc = st["pc"][i]
    if f == GOVT:
        order = (POLICE, TROOPS) if prefer_police else (TROOPS, POLICE)
        for s in order:
            if pc[s]:
                remove(st, i, s, 1, facts, why)
                return s
        if pc[GOVT_BASE]:
            remove(st, i, GOVT_BASE, 1, facts, why)
            return GOVT_BASE
        return -1
    if pc[A(f)]:
        remove(st, i, A(f), 1, facts, why)
        return A(f)
    if pc[U(f)]:
        if underground_ok:
            remove(st, i, U(f), 1, facts, why)
            return U(f)
        return -1
    if pc[B(f)]:
        remove(st, i, B(f), 1, facts, why)
        return B(f)
    return -1


# ---------------------------------------------------------------- shipments (4.5.3)
def shipments_in(st: dict, i: int) -> list:
    return [s for s in st["ship"] if s[0] == i]


def fix_shipments(st: dict, i: int, facts: list) -> None:
    """A Shipment whose holder's Faction has no Guerrilla left passes to another Guerrilla or is removed."""
    pc = st["pc"][i]
    for s in list(st["ship"]):
        if s[0] != i:
            continue
        if guerrillas(pc, s[1]):
            continue
        for g in INSURGENTS:
            if guerrillas(pc, g):
                facts.append(fact("shipment", msg("Shipment in {space} passes from {faction} to {other}", space=SN[i],
                                                      faction=FN[s[1]], other=FN[g]),
                                  space=BD.ids[i], owner=g))
                s[1] = g
                break
        else:
            st["ship"].remove(s)
            facts.append(fact("shipment", msg("Shipment in {space} removed (no Guerrilla to hold it)", space=SN[i]),
                              space=BD.ids[i], owner=None))


def carry_shipments(st: dict, src: int, dst: int, f: int, k: int) -> None:
    """Shipments move with their Guerrillas; a group that leaves nobody behind takes them all."""
    held = [s for s in st["ship"] if s[0] == src and s[1] == f]
    if not held:
        return
    if guerrillas(st["pc"][src], f) == 0:
        for s in held:
            s[0] = dst
    else:
        for s in held[:k]:
            s[0] = dst


def total_shipments(st: dict) -> int:
    return len(st["ship"])


# ---------------------------------------------------------------- tracks
def set_res(st: dict, f: int, delta: int, facts: list, why: str) -> int:
    old = st["res"][f]
    new = clamp(old + delta, 0, 99)
    if new != old:
        st["res"][f] = new
        facts.append(fact("track", msg("{faction} Resources {old} -> {new} ({why})", faction=FN[f], old=old, new=new, why=why), track=f"{FACTIONS[f]}_resources",
                          delta=new - old, value=new, why=why))
    return new - old


def set_aid(st: dict, delta: int, facts: list, why: str) -> int:
    old = st["aid"]
    new = clamp(old + delta, 0, 29)
    if new != old:
        st["aid"] = new
        facts.append(fact("track", msg("Aid {old} -> {new} ({why})", old=old, new=new, why=why), track="aid", delta=new - old, value=new, why=why))
    return new - old


def set_support(st: dict, i: int, level: int, facts: list, why: str) -> bool:
    """1.6: only Cities/Departments with Population hold Support/Opposition."""
    if BD.pop[i] <= 0 or BD.is_loc[i]:
        return False
    level = max(-2, min(2, level))
    old = st["sup"][i]
    if old == level:
        return False
    st["sup"][i] = level
    ts, ob = total_support(st), opposition_plus_bases(st)
    facts.append(fact("support", msg("{space}: {old} -> {new} ({why})", space=SN[i], old=SUPPORT_NAME[old],
                                              new=SUPPORT_NAME[level], why=why),
                      space=BD.ids[i], old=old, new=level, why=why, track="support",
                      total_support=ts, opposition_plus_bases=ob))
    return True


def shift(st: dict, i: int, d: int, facts: list, why: str) -> bool:
    """Shift ``d`` levels (negative: toward Active Opposition), engine/coin/support.py."""
    return set_support(st, i, shifted(st["sup"][i], 2 if d > 0 else -2, abs(d)), facts, why)


def can_shift(st: dict, i: int, d: int) -> bool:
    if BD.pop[i] <= 0 or BD.is_loc[i] or not active_space(st, i):
        return False
    return -2 <= st["sup"][i] + d <= 2


def markers_used(st: dict) -> int:
    return sum(st["ter"]) + sum(st["sab"])


def add_terror(st: dict, i: int, facts: list, n: int = 1) -> int:
    k = 0
    for _ in range(n):
        if markers_used(st) >= 40:
            break
        st["ter"][i] += 1
        k += 1
    if k:
        facts.append(fact("marker", msg_n("{count} Terror marker placed in {space}", "{count} Terror markers placed in {space}", k,
                                            space=SN[i]), space=BD.ids[i], marker="terror", n=k))
    return k


def add_sabotage(st: dict, i: int, facts: list) -> bool:
    if st["sab"][i] or markers_used(st) >= 40:
        return False
    st["sab"][i] = 1
    facts.append(fact("marker", msg("Sabotage placed on {space}", space=SN[i]), space=BD.ids[i], marker="sabotage", n=1))
    return True


# ---------------------------------------------------------------- totals (1.6.3, 7.2, 7.3)
def total_support(st: dict) -> int:
    sup = st["sup"]
    return sum(BD.pop[i] * sup[i] for i in range(N) if sup[i] > 0)


def total_opposition(st: dict) -> int:
    sup = st["sup"]
    return -sum(BD.pop[i] * sup[i] for i in range(N) if sup[i] < 0)


def count_on_map(st: dict, slot: int) -> int:
    return sum(p[slot] for p in st["pc"])


def opposition_plus_bases(st: dict) -> int:
    return total_opposition(st) + count_on_map(st, FARC_BASE)


def margins(st: dict) -> list:
    """7.3 victory margins, Government, FARC, AUC, Cartels."""
    cb = count_on_map(st, CARTELS_BASE)
    return [total_support(st) - 60, opposition_plus_bases(st) - 25,
            count_on_map(st, AUC_BASE) - count_on_map(st, FARC_BASE), min(cb - 10, st["res"][CARTELS] - 40)]
