"""Tears of Tyranny board state helpers: pieces, defense, presence, influence and tyranny tracks.

Rule references are to the rulebook sections (1.A-1.I, 3.A-3.I, 4) and to the ambiguity entries
(A-nn) whose chosen reading is recorded in docs/rules-notes/tears-of-tyranny.md. Every function
here mutates the state dict in place and appends facts; none asks a question.
"""

from __future__ import annotations

from engine.core.contract import fact
from engine.core.messages import msg, msg_n
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import (
    ADVISOR_INFLUENCE,
    BASES_TOTAL,
    G_PER_PLAYER,
    SUPPLY,
    THRESHOLD,
    UNIT_INFLUENCE,
    UNIT_VALUE,
    content,
)

C = content()


# ---- pieces -----------------------------------------------------------------------------------

def units(tile: dict, kind: str) -> int:
    return sum(1 for u in tile["u"] if u[0] == kind)


def has_adversary(tile: dict) -> bool:
    return bool(tile["u"])


def g_total(tile: dict) -> int:
    return sum(tile["gs"].values())


def presence(tile: dict, seat: str) -> int:
    return tile["pres"].get(seat, 0)


def on_map(state: dict, kind: str) -> int:
    return sum(1 for t in state["tiles"].values() for u in t["u"] if u[0] == kind)


def supply(state: dict, kind: str) -> int:
    return SUPPLY[kind] - on_map(state, kind)


def g_supply(state: dict, seat: str) -> int:
    return G_PER_PLAYER - sum(t["gs"].get(seat, 0) for t in state["tiles"].values())


def bases_left(state: dict) -> int:
    return BASES_TOTAL - sum(len(t["bases"]) for t in state["tiles"].values())


def movable_gs(tile: dict, seat: str) -> int:
    """A-42: the G that holds a base stays there permanently."""
    own_bases = sum(1 for b in tile["bases"] if b[0] == seat)
    return max(0, tile["gs"].get(seat, 0) - own_bases)


def presence_total(state: dict, seat: str) -> int:
    return sum(t["pres"].get(seat, 0) for t in state["tiles"].values())


def is_hq(state: dict, tid: str, seat: str) -> bool:
    """6.3: two presence of one player make an HQ; every Advisor presence counts (A-60)."""
    n = state["tiles"][tid]["pres"].get(seat, 0)
    return n >= 2 or (seat == "advisors" and n >= 1)


def tile_defense(state: dict, tid: str, ignore_defense: bool = False, ignore_tyranny: bool = False) -> int:
    """1.G / combat: defense of the adversary in a tile (terrain + red civilians + tyranny)."""
    t = state["tiles"][tid]
    d = 0
    if not ignore_defense:
        d += C.tiles[tid]["defense_modifier"] + t["red"]
    if t["tyr"] and not ignore_tyranny:
        d += 5  # +5 per tile, whatever the number of tokens
    return d


def defense_parts(state: dict, tid: str, ignore_defense: bool = False, ignore_tyranny: bool = False) -> list[dict]:
    """What the tile's defense against a player attack is made of, each part with its rule (the same
    sum as :func:`tile_defense`). Combat adjudication, Defense: "Defense points can be derived from
    the terrain, civilian support, tyranny, or capabilities"; the capability defense (+N for the
    resistance, 1.G hex of protection) counts against the adversary's dominate, not here."""
    t = state["tiles"][tid]
    ct = C.tiles[tid]
    parts = []
    if ignore_defense:
        parts.append({"source": "disregarded", "value": 0,
                      "text": msg("terrain and red-civilian defense disregarded by the capability (1.G combat)")})
    else:
        parts.append({"source": "terrain", "value": ct["defense_modifier"],
                      "text": msg("{terrain} terrain {n} (1.A)", terrain=T.TERRAIN[ct["terrain"]],
                                  n=f"{ct['defense_modifier']:+d}")})
        parts.append({"source": "red_civilians", "value": t["red"],
                      "text": msg("{civilians} {n} (1.C: +1 each)", civilians=T.count(t["red"], "red"),
                                  n=f"{t['red']:+d}")})
    if t["tyr"]:
        if ignore_tyranny:
            parts.append({"source": "tyranny", "value": 0,
                          "text": msg("tyranny disregarded: the capability targets tyranny (1.G combat)")})
        else:
            parts.append({"source": "tyranny", "value": 5, "text": msg("tyranny +5 (1.B; A-14: per tile)")})
    return parts


def join_plus(items: list):
    """Messages joined as "a + b + c" (a message)."""
    out = items[0]
    for m in items[1:]:
        out = msg("{a} + {b}", a=out, b=m)
    return out


def units_text(units: list):
    """The adversary units of a tile with the damage they carry this turn (it heals at turn end)."""
    out = []
    for kind, dmg in units:
        hp = UNIT_VALUE[kind]
        out.append(msg("{unit} ({damage} damage taken earlier this turn, {left} of {health} health left)",
                       unit=T.UNIT[kind], damage=dmg, left=hp - dmg, health=hp) if dmg
                   else msg("{unit} ({health} health)", unit=T.UNIT[kind], health=hp))
    return out if out else msg("none")


def add_fact(facts: list, type_: str, text, **kw) -> None:
    facts.append(fact(type_, text, **kw))


def tname(tid: str):
    """The tile's name as players say it aloud (unique on the map, issue 16.6) and its terrain."""
    return T.TNAME[tid]


# ---- metric deltas (contract v2: each fact says what it changed in ``Rules.metrics``) -----------

UNIT_METRIC = {"cell": "adversary_cells", "outpost": "adversary_outposts", "garrison": "adversary_garrisons"}


def pres_deltas(seat: str, before: int, after: int) -> dict:
    """Presence of ``seat`` in one tile went from ``before`` to ``after``: presence and HQ count."""
    d = {f"presence_{seat}": after - before}
    hq = (after >= 2) - (before >= 2)
    if hq:
        d[f"hq_{seat}"] = hq
    return d


def g_deltas(seat: str, n: int) -> dict:
    return {"guerrillas": n, f"guerrillas_{seat}": n}


def tyranny_deltas(state: dict, on_map_before: int, **extra) -> dict:
    """The tyranny metrics after a change of the tokens on the map (the state flips at the threshold)."""
    after = tyranny_on_map(state)
    th = threshold(state)
    d = {"tyranny_on_map": after - on_map_before}
    flip = (after >= th) - (on_map_before >= th)
    if flip:
        d["tyranny_state"] = flip
    d.update(extra)
    return d


def merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


# ---- tracks -----------------------------------------------------------------------------------

def tyranny_on_map(state: dict) -> int:
    return sum(t["tyr"] for t in state["tiles"].values())


def threshold(state: dict) -> int:
    """3.D / A-16: the tokens on the map at which the board is in a state of tyranny.

    The rulebook prints 2/5/7/10 for 1/2/3/4 players, on a pool of 5 tokens per player. A scenario
    with a smaller pool (Popular Spring: 4 per player) rescales it in proportion, rounding halves
    up (issue 16.3), stored in the options at setup; a state saved before that carries none and
    reads the printed figure."""
    return state["opts"].get("tyranny_threshold") or THRESHOLD[len(state["seats"])]


def scaled_threshold(players: int, pool_per_player: int) -> int:
    """The printed threshold for ``players`` scaled to a pool of ``pool_per_player`` tokens per
    player (the rulebook's pool is 5), rounding halves up; the printed figure for a pool of 5."""
    return (THRESHOLD[players] * pool_per_player * 2 + 5) // 10


def tyranny_state(state: dict) -> str:
    """3.D adversary / A-16: tyranny when the tokens on the map reach the threshold (:func:`threshold`)."""
    return "tyranny" if tyranny_on_map(state) >= threshold(state) else "freedom"


def place_tyranny(state: dict, tid: str, facts: list, cause) -> bool:
    """Place one token from the pool (3.F); removes presence there (Partisans' returns to track)."""
    if state["tyr_pool"] <= 0:
        return False
    before = tyranny_on_map(state)
    state["tyr_pool"] -= 1
    state["tiles"][tid]["tyr"] += 1
    add_fact(facts, "track", msg("Tyranny token placed in {tile} ({cause}); {pool} left in the pool.", tile=tname(tid),
                                 cause=cause, pool=state["tyr_pool"]),
             track="tyranny_pool", delta=-1, value=state["tyr_pool"], cause=cause, tile=tid,
             deltas=tyranny_deltas(state, before, tyranny_pool=-1))
    remove_all_presence(state, tid, facts, msg("tyranny placed"))
    return True


def remove_all_presence(state: dict, tid: str, facts: list, cause) -> None:
    t = state["tiles"][tid]
    for seat in list(t["pres"]):
        n = t["pres"].pop(seat)
        if seat == "partisans":
            for _ in range(n):
                cover_circle(state, seat)
            add_fact(facts, "presence", msg("{n} Partisan presence in {tile} returns to the track ({cause}).", n=n,
                                            tile=tname(tid), cause=cause),
                     seat=seat, tile=tid, delta=-n, deltas=pres_deltas(seat, n, 0))
        else:
            add_fact(facts, "presence", msg("{seat} lose {n} presence in {tile} ({cause}).", seat=T.SEAT[seat], n=n,
                                            tile=tname(tid), cause=cause),
                     seat=seat, tile=tid, delta=-n, deltas=pres_deltas(seat, n, 0))


def remove_one_presence(state: dict, seat: str, tid: str, facts: list, cause) -> None:
    t = state["tiles"][tid]
    before = t["pres"][seat]
    t["pres"][seat] -= 1
    if not t["pres"][seat]:
        del t["pres"][seat]
    if seat == "partisans":
        cover_circle(state, seat)
    add_fact(facts, "presence", msg("{seat} lose 1 presence in {tile} ({cause}).", seat=T.SEAT[seat], tile=tname(tid),
                                    cause=cause),
             seat=seat, tile=tid, delta=-1, deltas=pres_deltas(seat, before, before - 1))


def cover_circle(state: dict, seat: str) -> None:
    """A-44: a Partisan token returned to the panel covers again one uncovered circle; the Partisans
    choose the row (each row keeps its first circle open). With two rows possible they are asked
    (a global ``cover`` frame); with one, it is covered at once."""
    pl = state["pl"][seat]
    rows = [r for r in ("resources", "plays") if pl["open"][r] > 1]
    if len(rows) == 2:
        state["g"].append({"k": "cover", "seat": seat, "rule": "Partisans panel (A-44)",
                           "text": msg("A presence token returns to your panel: which track row does it cover "
                                       "(the rightmost uncovered circle of that row)?")})
    elif rows:
        pl["open"][rows[0]] -= 1


def cover_row(state: dict, seat: str, row: str, facts: list) -> None:
    pl = state["pl"][seat]
    if pl["open"][row] > 1:
        pl["open"][row] -= 1
        add_fact(facts, "track", msg("{seat} cover a circle of the {row} row with the returned presence token.",
                                     seat=T.SEAT[seat], row=T.ROW[row]),
                 seat=seat, track=f"open_{row}", delta=-1, value=pl["open"][row], cause=msg("presence returned (A-44)"))


def default_cover_row(pl: dict) -> str:
    """The row a bot or a test covers when it does not weigh the choice: the one with more open."""
    return "resources" if pl["open"]["resources"] >= pl["open"]["plays"] else "plays"


def clear_tyranny_check(state: dict, tid: str, facts: list) -> None:
    """A-56: a tyranny tile with no adversary units and no red civilians loses its tokens to the game."""
    t = state["tiles"][tid]
    if t["tyr"] and not t["u"] and not t["red"]:
        n = t["tyr"]
        before = tyranny_on_map(state)
        t["tyr"] = 0
        state["tyr_gone"] += n
        add_fact(facts, "track", msg_n("Tyranny in {tile} broken by force: {count} tyranny token leaves the game.",
                                       "Tyranny in {tile} broken by force: {count} tyranny tokens leave the game.",
                                       n, tile=tname(tid)),
                 track="tyranny_map", delta=-n, value=tyranny_on_map(state), cause=msg("cleared by force"), tile=tid,
                 deltas=tyranny_deltas(state, before, tyranny_removed=n))


def gain_influence(state: dict, n: int, cause, facts: list, seat: str | None = None,
                   by_unit: bool = False) -> None:
    """1.H / 3.E: tokens go pool -> earned box; a full box earns the next influence card (A-22).
    ``by_unit``: earned by destroying or driving out an adversary unit (the attack fact sums it)."""
    inf = state["inf"]
    for _ in range(n):
        if not inf["deck"]:
            break
        inf["earned"] += 1
        add_fact(facts, "track", msg("Influence +1 ({cause}).", cause=cause), track="influence", delta=1,
                 value=inf["earned"], cause=cause, seat=seat, by_unit=by_unit, deltas={"influence_earned": 1})
        if inf["earned"] >= inf["cap"]:
            card = inf["deck"].pop(0)
            inf["queue"].append(card)
            inf["n_earned"] += 1
            inf["earned"] = 0
            add_fact(facts, "track", msg("The earned-influence box is full: its {n} tokens return to the pool.",
                                         n=inf["cap"]),
                     track="influence", delta=-inf["cap"], value=0, cause=msg("influence card earned"), seat=seat,
                     deltas={"influence_earned": -inf["cap"]})
            k = inf["n_earned"]
            d = {"influence_cards_earned": 1}
            new_level = 1 + sum(1 for m in inf["markers"] if k > m)
            if new_level > inf["level"]:
                d["influence_level"] = new_level - inf["level"]
            add_fact(facts, "influence_card", msg("Influence card {k} earned; the tokens return to the pool.", k=k),
                     track="influence_cards_earned", delta=1, value=k, cause=cause, deltas=d)
            if new_level > inf["level"]:
                inf["level"] = new_level
                add_fact(facts, "track", msg("Influence level {level} reached: the victory condition changes.",
                                             level=new_level),
                         track="influence_level", delta=1, value=new_level, cause=cause)


def lose_influence(state: dict, n: int, cause, facts: list, payer: str | None) -> None:
    """1.H / A-24: earned box -> pool; with an empty box the payer pays 1 resource or 1 presence,
    their choice (a global ``influence_debt`` frame) whenever there is one."""
    inf = state["inf"]
    for _ in range(n):
        if inf["earned"] > 0:
            inf["earned"] -= 1
            add_fact(facts, "track", msg("Influence -1 ({cause}).", cause=cause), track="influence", delta=-1,
                     value=inf["earned"], cause=cause, seat=payer, deltas={"influence_earned": -1})
            continue
        who = payer or lead_seat(state)
        pl = state["pl"][who]
        own = [t for t in state["tiles"] if state["tiles"][t]["pres"].get(who)]
        if (pl["res"] > 0 and own) or len(own) >= 2:
            # 1.H: "the player must pay one resource or remove one presence from the board": the
            # player's choice (which presence, too), asked as soon as the current resolution ends
            state["g"].append({"k": "influence_debt", "seat": who, "cause": cause, "rule": "1.H (A-24)",
                               "text": msg("Influence lost ({cause}) with the influence box empty: pay 1 resource "
                                           "or remove 1 of your presence from the board (1.H).", cause=cause)})
            continue
        if pl["res"] > 0:
            pl["res"] -= 1
            add_fact(facts, "track", msg("Influence box empty: the {seat} pay 1 resource instead ({cause}).",
                                         seat=T.SEAT[who], cause=cause),
                     track="resources", delta=-1, value=pl["res"], cause=cause, seat=who,
                     deltas={f"resources_{who}": -1})
        else:
            tiles = sorted((t for t in state["tiles"] if state["tiles"][t]["pres"].get(who)),
                           key=lambda t: (-state["tiles"][t]["pres"][who], t))
            if tiles:
                remove_one_presence(state, who, tiles[0], facts,
                                    msg("paid for lost influence: {cause}", cause=cause))


def lead_seat(state: dict) -> str:
    """The team's spokesperson for team decisions this turn (rotates each turn; A-13, A-24)."""
    seats = state["seats"]
    return seats[max(0, state["turn"] - 1) % len(seats)]


# ---- combat (1.G combat adjudication) --------------------------------------------------------

def destroy_unit(state: dict, tid: str, idx: int, facts: list, seat: str | None, cause) -> None:
    t = state["tiles"][tid]
    kind = t["u"].pop(idx)[0]
    state["stats"][f"{kind}s_destroyed"] += 1
    add_fact(facts, "destroy", msg("In {tile}, {unit} is destroyed ({cause}).", unit=T.A_PIECE[kind], tile=tname(tid),
                                   cause=cause),
             tile=tid, unit=kind, seat=seat, deltas={UNIT_METRIC[kind]: -1})
    if UNIT_INFLUENCE[kind]:
        gain_influence(state, UNIT_INFLUENCE[kind], msg("destroying {unit} in {tile} ({cause})", unit=T.A_PIECE[kind],
                                                        tile=T.TILE[tid], cause=cause), facts, seat, by_unit=True)


def allocate(state: dict, tid: str, points: int, facts: list, seat: str | None, cause) -> int:
    """A-57: spend damage points on units, most valuable kill first; returns the excess."""
    t = state["tiles"][tid]
    while points > 0 and t["u"]:
        order = sorted(range(len(t["u"])), key=lambda i: (-UNIT_VALUE[t["u"][i][0]], -t["u"][i][1]))
        killed = False
        for i in order:
            rem = UNIT_VALUE[t["u"][i][0]] - t["u"][i][1]
            if rem <= points:
                points -= rem
                destroy_unit(state, tid, i, facts, seat, cause)
                killed = True
                break
        if not killed:
            i = order[0]
            t["u"][i][1] += points
            damage_fact(facts, tid, t["u"][i], points)
            points = 0
    return points


def damage_fact(facts: list, tid: str, unit: list, points: int) -> None:
    """A unit damaged but not destroyed: the damage accumulates for the rest of the turn (3, damage
    adversaries) and heals at the end of the turn."""
    kind, total = unit
    add_fact(facts, "damage", msg("In {tile}, {unit} takes {points} damage: {total} of {health} health lost this turn, "
                                  "{left} left (damage accumulates over the turn and heals at its end, 3).",
                                  unit=T.A_PIECE[kind], tile=tname(tid), points=points, total=total,
                                  health=UNIT_VALUE[kind], left=UNIT_VALUE[kind] - total),
             tile=tid, unit=kind, damage=points, damage_this_turn=total, health_left=UNIT_VALUE[kind] - total)


def collateral_choice_needed(t: dict, excess: int) -> bool:
    """A-25: the attacking player picks the victims when some, not all, of a mixed crowd die."""
    return excess > 0 and t["red"] > 0 and t["blue"] > 0 and excess < t["red"] + t["blue"]


def collateral(state: dict, tid: str, excess: int, facts: list, seat: str | None, cause,
               first: str = "red") -> None:
    """Collateral damage: each excess point kills one civilian (``first`` colour first; red when no
    player chooses, A-25) and costs the attacker's panel penalty in influence."""
    t = state["tiles"][tid]
    other = "blue" if first == "red" else "red"
    killed = 0
    d = {"civilians_red": 0, "civilians_blue": 0}
    for _ in range(excess):
        if t[first]:
            t[first] -= 1
            d[f"civilians_{first}"] -= 1
        elif t[other]:
            t[other] -= 1
            d[f"civilians_{other}"] -= 1
        else:
            break
        killed += 1
    if not killed:
        return
    state["stats"]["civilians_killed"] += killed
    d["civilians_killed"] = killed
    pen = penalty(state, seat) if seat else 0
    ptext = penalty_text(state, seat, killed)
    add_fact(facts, "collateral", msg("{civilians} killed in {tile} by collateral damage ({cause}): {penalty}.",
                                      civilians=T.count(killed, "civilian"), tile=tname(tid), cause=cause,
                                      penalty=ptext),
             tile=tid, killed=killed, excess=excess, seat=seat, penalty=pen, influence_lost=pen * killed,
             penalty_text=ptext, rule="1.G combat (A-25)", deltas=d)
    if pen:
        lose_influence(state, pen * killed, msg("collateral damage by the {seat} in {tile}", seat=T.SEAT[seat],
                                                tile=T.TILE[tid]), facts, seat)


def penalty(state: dict, seat: str) -> int:
    if state["opts"]["collateral"] == "flat":
        return 1 if seat in ("liberators", "advisors") else 0
    return C.panels[seat]["collateral_penalty"]


def penalty_text(state: dict, seat: str | None, killed: int):
    """The influence the attacker loses for ``killed`` civilians, with the rule that sets it (A-25)."""
    if not seat:
        return msg("no player attacked, so no influence is lost")
    pen = penalty(state, seat)
    flat = state["opts"]["collateral"] == "flat"
    if not pen:
        if flat:
            return msg("the {seat} lose no influence for collateral damage (flat rule option: -1 for the "
                       "Liberators and Advisors, A-25)", seat=T.SEAT[seat])
        return msg("the {seat} lose no influence for collateral damage ({seat} panel, A-25)", seat=T.SEAT[seat])
    if flat:
        return msg("the {seat} lose {n} influence per civilian killed (flat rule option: -1 for the Liberators and "
                   "Advisors, A-25): -{total} influence", seat=T.SEAT[seat], n=pen, total=pen * killed)
    return msg("the {seat} lose {n} influence per civilian killed ({seat} panel, A-25): -{total} influence",
               seat=T.SEAT[seat], n=pen, total=pen * killed)


def _seat_or_attacker(seat: str | None):
    return T.SEAT[seat] if seat else msg("attacker")


def player_attack(state: dict, tid: str, dmg: int, seat: str | None, facts: list, cause,
                  ignore_defense: bool = False, ignore_tyranny: bool = False, pending: dict | None = None,
                  by_guerrillas: bool = False) -> None:
    """1.G: an attack first overcomes the tile's defense; the rest damages units; excess beyond all
    remaining health is collateral damage. Every attack overcomes the defense again.

    With ``pending``, the decisions the attacker must take are not made here but recorded for the
    caller to ask: ``pending["civ"]`` collateral victims to pick (A-25), ``pending["drive"]``
    units the Advisors drive out, whose destination they pick (A-28).

    ``by_guerrillas``: the damage is done by guerrillas (a "+1 damage per G" capability, an event's
    guerrilla attack). Combat, Damage: "to damage an adversary the advisors must apply capabilities
    indirectly through their proxy guerillas"; Advisors panel: "Gs and CIVILIANS can still Damage and
    Kill/Destroy". Such an attack damages and destroys even when the Advisors direct it (issue 16.2)."""
    t = state["tiles"][tid]
    f = attack_fact(state, tid, dmg, seat, cause, ignore_defense, ignore_tyranny, by_guerrillas=by_guerrillas)
    facts.append(f)
    start = len(facts)
    eff = dmg - f["defense"]
    if eff <= 0:
        return
    if seat == "advisors" and not by_guerrillas:
        advisor_strike(state, tid, eff, facts, cause, pending)
        finish_attack_fact(f, facts[start:], None)
        return
    excess = allocate(state, tid, eff, facts, seat, cause)
    if excess and pending is not None and collateral_choice_needed(t, excess):
        pending["civ"] = excess
        finish_attack_fact(f, facts[start:], msg("{n} excess damage kills {civilians}: the {seat} choose who is hit "
                                                 "(A-25); {penalty}", n=excess,
                                                 civilians=T.count(excess, "civilian"),
                                                 seat=_seat_or_attacker(seat),
                                                 penalty=penalty_text(state, seat, excess)))
        return
    if excess:
        collateral(state, tid, excess, facts, seat, cause)
    finish_attack_fact(f, facts[start:], None)
    clear_tyranny_check(state, tid, facts)


def attack_fact(state: dict, tid: str, dmg: int, seat: str | None, cause, ignore_defense: bool = False,
                ignore_tyranny: bool = False, assign: bool = False, by_guerrillas: bool = False) -> dict:
    """The ``attack`` fact: the damage, the tile's defense part by part, and the units with the
    damage they already carry this turn (1.G combat). :func:`finish_attack_fact` adds the result.
    ``assign``: the attacker assigns the damage that gets through, unit by unit (A-57)."""
    t = state["tiles"][tid]
    parts = defense_parts(state, tid, ignore_defense, ignore_tyranny)
    d = sum(p["value"] for p in parts)
    eff = dmg - d
    if eff <= 0:
        outcome = msg("The defense absorbs all of it: no effect.")
    elif seat == "advisors" and not by_guerrillas:
        outcome = msg("{n} damage gets through, but the Advisors do no damage: each unit it would destroy is driven "
                      "out of the tile and earns influence (Advisors panel, A-28).", n=eff)
    elif assign and seat == "advisors":
        outcome = msg("{n} damage gets through: the Advisors assign it among the units (A-57). The damage is done by "
                      "the Advisors' proxy guerrillas, so it damages and destroys (Advisors panel).", n=eff)
    elif assign:
        outcome = msg("{n} damage gets through: the {seat} assign it among the units (A-57).", n=eff,
                      seat=_seat_or_attacker(seat))
    else:
        outcome = msg("{n} damage gets through to the units (most valuable kill first, A-57).", n=eff)
    text = msg("{cause}: {damage} damage against defense {defense} in {tile}. Defense = {parts}, overcome again by "
               "every attack (1.G combat). Units: {units}. {outcome}", cause=cause, damage=dmg, defense=d,
               tile=tname(tid), parts=join_plus([p["text"] for p in parts]), units=units_text(t["u"]),
               outcome=outcome)
    return fact("attack", text, tile=tid, damage=dmg, defense=d, defense_parts=parts, through=max(0, eff),
                units_before=[list(u) for u in t["u"]], seat=seat, rule="1.G combat")


def finish_attack_fact(f: dict, after: list, extra) -> None:
    """Complete the attack fact with what the attack did (the facts that followed it)."""
    destroyed = [x["unit"] for x in after if x["type"] == "destroy"]
    driven = [x["unit"] for x in after if x["type"] == "move" and x.get("unit")]
    damaged = [msg("{unit} {n} of {health} this turn", unit=T.UNIT[x["unit"]], n=x["damage_this_turn"],
                   health=x["damage_this_turn"] + x["health_left"])
               for x in after if x["type"] == "damage" and "damage_this_turn" in x]
    gained = sum(x["delta"] for x in after if x.get("track") == "influence" and x["delta"] > 0 and x.get("by_unit"))
    out = []
    if destroyed:
        out.append(msg("destroyed: {units}", units=[T.UNIT.get(u, T.UNIT["g"]) for u in destroyed]))
    if driven:
        out.append(msg("driven out: {units}", units=[T.UNIT[u] for u in driven]))
    if driven:
        out.append(msg("influence +{n} (destroyed outpost +1, garrison +2, cell 0, 1.B; driven out by the Advisors "
                       "1/2/5, A-28)", n=gained))
    elif destroyed:
        out.append(msg("influence +{n} (outpost +1, garrison +2, cell 0, 1.B)", n=gained))
    if damaged:
        out.append(msg("damaged: {units} (kept until the end of the turn, 3)", units=damaged))
    for x in after:
        if x["type"] == "collateral":
            out.append(msg("collateral: {n} excess damage kills {civilians}, {penalty}", n=x["excess"],
                           civilians=T.count(x["killed"], "civilian"), penalty=x["penalty_text"]))
    if extra:
        out.append(extra)
    if out:
        res = out[0]
        for m in out[1:]:
            res = msg("{a}; {b}", a=res, b=m)
        f["text"] = msg("{text} Result: {result}.", text=f["text"], result=res)
    f["destroyed"] = destroyed
    f["collateral"] = sum(x.get("killed", 0) for x in after if x["type"] == "collateral")


def drive_targets(state: dict, tid: str) -> list[str]:
    """The neighbouring tiles in play a displaced unit may be driven into (A-28)."""
    return [n for n in C.adj[tid] if n in state["tiles"]]


def default_drive_target(state: dict, tid: str) -> str | None:
    """When nobody chooses: the neighbour with the least player presence (then the lowest id)."""
    dest = sorted(drive_targets(state, tid), key=lambda n: (sum(state["tiles"][n]["pres"].values()), n))
    return dest[0] if dest else None


def drive_unit(state: dict, tid: str, unit: list, dest: str | None, facts: list) -> None:
    """Place a unit the Advisors displaced from ``tid`` into ``dest`` (None: it leaves the map)."""
    if dest:
        state["tiles"][dest]["u"].append(unit)
        add_fact(facts, "move", msg("The Advisors drive {unit} out of {tile} into {dest}.", unit=T.A_PIECE[unit[0]],
                                    tile=tname(tid), dest=tname(dest)),
                 tile=tid, unit=unit[0], to=dest, deltas={UNIT_METRIC[unit[0]]: 1})
    else:
        add_fact(facts, "move", msg("The Advisors drive {unit} out of {tile}.", unit=T.A_PIECE[unit[0]],
                                    tile=tname(tid)), tile=tid, unit=unit[0], to=dest)


def advisor_strike(state: dict, tid: str, eff: int, facts: list, cause, pending: dict | None = None) -> None:
    """Advisors panel / A-28: no damage; each unit the attack would kill earns 1/2/5 (or 1/2/3)
    influence and is moved to a neighbouring tile instead. Insufficient damage does nothing.

    With ``pending``, a unit with more than one neighbour to go to is parked in
    ``pending["drive"]`` for the Advisors to choose its destination."""
    t = state["tiles"][tid]
    table = ADVISOR_INFLUENCE if state["opts"]["advisor_table"] == "125" else {"cell": 1, "outpost": 2, "garrison": 3}
    while t["u"]:
        order = sorted(range(len(t["u"])), key=lambda i: -UNIT_VALUE[t["u"][i][0]])
        pick = None
        for i in order:
            if UNIT_VALUE[t["u"][i][0]] - t["u"][i][1] <= eff:
                pick = i
                break
        if pick is None:
            break
        eff -= UNIT_VALUE[t["u"][pick][0]] - t["u"][pick][1]
        unit = t["u"].pop(pick)
        if pending is not None and len(drive_targets(state, tid)) > 1:
            pending.setdefault("drive", []).append(unit)
            # off the map until the Advisors name the tile it goes to (drive_unit puts it back)
            add_fact(facts, "move", msg("The Advisors drive {unit} out of {tile}.", unit=T.A_PIECE[unit[0]],
                                        tile=tname(tid)), tile=tid, unit=unit[0],
                     deltas={UNIT_METRIC[unit[0]]: -1})
        else:
            dest = default_drive_target(state, tid)
            if dest is None:
                facts_len = len(facts)
                drive_unit(state, tid, unit, None, facts)
                facts[facts_len]["deltas"] = {UNIT_METRIC[unit[0]]: -1}
            else:
                drive_unit(state, tid, unit, dest, facts)
                facts[-1]["deltas"] = {}
        gain_influence(state, table[unit[0]], msg("the Advisors drove {unit} out of {tile}", unit=T.A_PIECE[unit[0]],
                                                  tile=T.TILE[tid]), facts, "advisors", by_unit=True)
    clear_tyranny_check(state, tid, facts)


def adversary_attack(state: dict, tid: str, strength: int, facts: list, cause) -> None:
    """3.F: the adversary attacks bases first (2 each, 1 damages), then Gs (1 each). No collateral."""
    t = state["tiles"][tid]
    while strength > 0 and t["bases"]:
        b = t["bases"][0]
        cost = 2 - b[1]
        if strength >= cost:
            strength -= cost
            t["bases"].pop(0)
            owner = b[0]
            d = {"bases": -1}
            if t["gs"].get(owner):
                t["gs"][owner] -= 1
                if not t["gs"][owner]:
                    del t["gs"][owner]
                d.update(g_deltas(owner, -1))
            state["stats"]["bases_lost"] += 1
            add_fact(facts, "destroy", msg("The {seat}' guerrilla base in {tile} is destroyed with its guerrilla "
                                           "({cause}).", seat=T.SEAT[owner], tile=tname(tid), cause=cause),
                     tile=tid, unit="base", seat=owner, deltas=d)
            lose_influence(state, 2, msg("base lost in {tile}", tile=T.TILE[tid]), facts, owner)
        else:
            b[1] += strength
            add_fact(facts, "damage", msg("Guerrilla base in {tile} damaged ({cause}).", tile=tname(tid), cause=cause),
                     tile=tid, unit="base")
            strength = 0
    while strength > 0 and t["gs"]:
        owner = max(sorted(t["gs"]), key=lambda s: t["gs"][s])
        t["gs"][owner] -= 1
        if not t["gs"][owner]:
            del t["gs"][owner]
        strength -= 1
        state["stats"]["guerrillas_lost"] += 1
        add_fact(facts, "destroy", msg("One of the {seat}' guerrillas is killed in {tile} ({cause}).",
                                       seat=T.SEAT[owner], tile=tname(tid), cause=cause),
                 tile=tid, unit="g", seat=owner, deltas=g_deltas(owner, -1))


def director(tile: dict) -> str | None:
    """A-15: the owner of the most Gs in the tile directs a counterattack (ties: seat order)."""
    if not tile["gs"]:
        return None
    from engine.scenarios.tears_of_tyranny.data import SEAT_ORDER
    return max(sorted(tile["gs"], key=SEAT_ORDER.index), key=lambda s: (tile["gs"][s], -SEAT_ORDER.index(s)))
