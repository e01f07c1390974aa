"""Tears of Tyranny adversary procedures: 3.F Dominate, 3.G Develop, 3.H Deploy, 3.I Shift,
plus the event cards (3.D) and influence cards (3.E), which use the board-op vocabulary.

Decisions the adversary phase needs from the players (escalation tile, Partisan HQ shield) are
returned as *global frames*; everything else resolves automatically in a fixed tile order
(quadrant, then reference number: A-20).
"""

from __future__ import annotations

from engine.core import rng as R
from engine.core.contract import fact
from engine.core.messages import msg, msg_n
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import UNIT_VALUE, content

C = content()


def card_tiles(state: dict, card_id: str | None) -> list[str]:
    """A-01: a terrain card names one tile per quadrant in play, by reference number."""
    if not card_id:
        return []
    ref = C.terrain[card_id]["terrain_card_ref"]
    return [C.ref_tile[(q, ref)] for q in range(1, len(state["seats"]) + 1)]


def deploy_eligible(state: dict, tid: str) -> bool:
    """3.H / A-10 (b): coastal/border, or an outpost/garrison in or next to the tile."""
    if C.tiles[tid]["coastal"]:
        return True
    for n in [tid, *C.adj[tid]]:
        t = state["tiles"].get(n)
        if t and any(u[0] in ("outpost", "garrison") for u in t["u"]):
            return True
    return False


def deploy_tile(state: dict, tid: str, facts: list) -> None:
    t = state["tiles"][tid]
    if "deploy" in t["prev"]:
        B.add_fact(facts, "prevented", msg("Deploy prevented in {tile}.", tile=B.tname(tid)), tile=tid)
        return
    if not deploy_eligible(state, tid):
        B.add_fact(facts, "deploy", msg("No deploy in {tile}: not next to coast, border or adversary forces.",
                                       tile=B.tname(tid)), tile=tid)
        return
    if B.supply(state, "cell") <= 0:
        return
    t["u"].append(["cell", 0])
    B.add_fact(facts, "deploy", msg("Adversary cell deployed in {tile}.", tile=B.tname(tid)), tile=tid, unit="cell",
               deltas={"adversary_cells": 1})


def develop_tile(state: dict, tid: str, facts: list) -> None:
    """3.G / A-11 (c): once per unit type present at the start of the step."""
    t = state["tiles"][tid]
    if "develop" in t["prev"]:
        B.add_fact(facts, "prevented", msg("Develop prevented in {tile}.", tile=B.tname(tid)), tile=tid)
        return
    has = {k: B.units(t, k) > 0 for k in ("cell", "outpost", "garrison")}
    added = []
    if has["cell"] and B.supply(state, "outpost") > 0:
        t["u"].append(["outpost", 0])
        added.append("outpost")
    for src in ("outpost", "garrison"):
        if has[src]:
            if B.supply(state, "garrison") > 0:
                t["u"].append(["garrison", 0])
                added.append("garrison")
            elif src == "outpost":
                for _ in range(min(2, B.supply(state, "outpost"))):
                    t["u"].append(["outpost", 0])
                    added.append("outpost")
    if added:
        d: dict = {}
        for k in added:
            d[B.UNIT_METRIC[k]] = d.get(B.UNIT_METRIC[k], 0) + 1
        B.add_fact(facts, "develop", msg("The adversary develops {tile}: {added} added.", tile=B.tname(tid),
                                         added=[T.UNIT[k] for k in added]), tile=tid, added=added, deltas=d)


def dominate_strength(state: dict, tid: str) -> int:
    """3.F: unit damage values - blue civilians - 1 for difficult terrain - immediate defense bonus."""
    t = state["tiles"][tid]
    s = sum(UNIT_VALUE[u[0]] for u in t["u"])
    s -= t["blue"]
    if C.tiles[tid]["terrain"] in ("jungle", "rural"):
        s -= 1
    s -= t["def"]
    return s


def dominate_tile(state: dict, tid: str, facts: list, pending: list | None = None) -> str | None:
    """3.F Dominate one tile. Returns the tile needing an escalation choice, if any.

    With ``pending`` (a list), a counterattack whose targets are the directing player's to choose
    (3.F: "targeted against the adversary at the player's discretion") is not allocated here: its
    decision is appended to ``pending`` for the game to ask."""
    t = state["tiles"][tid]
    if "dominate" in t["prev"]:
        B.add_fact(facts, "prevented", msg("Dominate prevented in {tile}.", tile=B.tname(tid)), tile=tid)
        return None
    s = dominate_strength(state, tid)
    B.add_fact(facts, "dominate", msg("The adversary dominates {tile} with strength {n}.", tile=B.tname(tid), n=s),
               tile=tid, strength=s)
    escalate = None
    if s >= 2:
        if t["tyr"]:
            # escalation replaces the first token; civilians of the dominated tile turn red
            B.place_tyranny(state, tid, facts, msg("escalation in {tile}", tile=T.TILE[tid]))
            if t["blue"]:
                B.add_fact(facts, "civilians", msg("All civilians in {tile} turn red (escalation).", tile=B.tname(tid)),
                           tile=tid, deltas={"civilians_red": t["blue"], "civilians_blue": -t["blue"]})
            t["red"] += t["blue"]
            t["blue"] = 0
            escalate = tid
        else:
            B.place_tyranny(state, tid, facts, msg("dominate in {tile}", tile=T.TILE[tid]))
        B.remove_all_presence(state, tid, facts, msg("tyranny"))
    if s >= 1:
        B.adversary_attack(state, tid, s, facts, msg("dominate in {tile}", tile=T.TILE[tid]))
    counterattack(state, tid, facts, pending)
    if escalate and state["tyr_pool"] > 0:
        return escalate
    return None


def counter_choice_needed(tile: dict, pts: int) -> bool:
    """3.F: the director chooses the targets when the points cannot kill every unit and the
    units differ (otherwise every allocation is the same)."""
    rem = sum(UNIT_VALUE[u[0]] - u[1] for u in tile["u"])
    return 0 < pts < rem and len({(u[0], u[1]) for u in tile["u"]}) > 1


def counterattack(state: dict, tid: str, facts: list, pending: list | None = None) -> None:
    """3.F / A-15 (a)+(c): surviving Gs strike back, 1 each minus 1 per red civilian, at bare health;
    every point is spent and the excess is collateral damage, borne by the directing player.

    The ``counterattack`` fact is itemised like a player's ``attack`` fact (1.G combat): the
    strength (1 per surviving G), what it is reduced by part by part, what gets through, and the
    result (units destroyed or damaged, collateral with the director's penalty, A-25)."""
    t = state["tiles"][tid]
    gs = B.g_total(t)
    if not gs or not t["u"]:
        return
    full = state["opts"]["counterattack"] == "full_defense"
    if full:
        # rule option: the whole tile defense counts against the counterattack (1.G combat)
        parts = B.defense_parts(state, tid)
        for p in parts:
            p["text"] = msg("{text} [rule option: full defense]", text=p["text"])
    else:
        parts = [{"source": "red_civilians", "value": t["red"],
                  "text": msg("{civilians} -{n} (3.F/A-15: -1 per red civilian; terrain and tyranny do not count)",
                              civilians=T.count(t["red"], "red"), n=t["red"])}]
    d = sum(p["value"] for p in parts)
    pts = gs - d
    seat = B.director(t)
    ask = pending is not None and seat is not None and counter_choice_needed(t, pts)
    if pts <= 0:
        outcome = msg("Nothing gets through: no counterattack.")
    elif ask:
        outcome = msg("{n} damage gets through at bare health (no defense for the units); the {seat} choose the "
                      "targets (3.F: at the player's discretion); every point is spent (A-15).", n=pts,
                      seat=T.SEAT[seat])
    elif counter_choice_needed(t, pts):
        outcome = msg("{n} damage gets through at bare health (no defense for the units), most valuable kill first; "
                      "every point is spent and the excess is collateral damage (A-15, A-57).", n=pts)
    else:
        outcome = msg("{n} damage gets through at bare health (no defense for the units); every point is spent and "
                      "the excess is collateral damage (A-15, A-57).", n=pts)
    if seat:
        text = msg("Guerrilla counterattack in {tile} (3.F, A-15): {gs} strike with {n} (1 per guerrilla), reduced by "
                   "{parts}. Units: {units}. Directed by the {seat} (most surviving guerrillas, ties in panel order), "
                   "who bear any collateral penalty (A-15, A-25). {outcome}", tile=B.tname(tid),
                   gs=msg_n("{count} surviving guerrilla", "{count} surviving guerrillas", gs), n=gs,
                   parts=B.join_plus([p["text"] for p in parts]), units=B.units_text(t["u"]), seat=T.SEAT[seat],
                   outcome=outcome)
    else:  # pragma: no cover - gs > 0 always gives a director
        text = msg("Guerrilla counterattack in {tile} (3.F, A-15). {outcome}", tile=B.tname(tid), outcome=outcome)
    f = fact("counterattack", text, tile=tid, strength=gs, damage=max(0, pts), defense=d, defense_parts=parts,
             through=max(0, pts), units_before=[list(u) for u in t["u"]], seat=seat, rule="3.F (A-15)")
    facts.append(f)
    if pts <= 0:
        f["destroyed"], f["collateral"] = [], 0
        return
    if ask:
        pending.append({"k": "counterattack", "seat": seat, "tile": tid, "alloc": pts,
                        "label": msg("Guerrilla counterattack"), "rule": "3.F (A-15)",
                        "text": msg("Guerrilla counterattack in {tile}: {n} damage at bare health. You direct it "
                                    "(most surviving guerrillas): choose which adversary unit takes the damage next.",
                                    tile=B.tname(tid), n=pts)})
        return
    start = len(facts)
    excess = B.allocate(state, tid, pts, facts, seat, COUNTERATTACK)
    if excess:
        B.collateral(state, tid, excess, facts, seat, COUNTERATTACK)
    B.finish_attack_fact(f, facts[start:], None)
    B.clear_tyranny_check(state, tid, facts)


COUNTERATTACK = msg("guerrilla counterattack")


def escalate_choices(state: dict, tid: str) -> list[str]:
    return [n for n in C.adj[tid] if n in state["tiles"]]


def escalate_into(state: dict, tid: str, facts: list) -> None:
    """A-13 (iii)/(iv): a token and a cell in the chosen adjacent tile; no chain reaction."""
    B.place_tyranny(state, tid, facts, msg("escalation spill-over"))
    if B.supply(state, "cell") > 0:
        state["tiles"][tid]["u"].append(["cell", 0])
        B.add_fact(facts, "deploy", msg("Escalation puts an adversary cell in {tile}.", tile=B.tname(tid)), tile=tid,
                   unit="cell", deltas={"adversary_cells": 1})


# ---- board ops (events, influence cards) -----------------------------------------------------

def select_tiles(state: dict, sel: str) -> list[str]:
    tiles = state["tiles"]
    order = state["order"]
    if sel in ("deploy_box", "develop_box", "dominate_box"):
        return card_tiles(state, state["boxes"][sel.split("_")[0]])
    if sel in ("most_cells", "most_blue", "most_red"):
        key = {"most_cells": lambda t: B.units(t, "cell"), "most_blue": lambda t: t["blue"],
               "most_red": lambda t: t["red"]}[sel]
        out = []
        for q in range(1, len(state["seats"]) + 1):
            cand = [tid for tid in order if C.tiles[tid]["quadrant"] == q and key(tiles[tid]) > 0]
            if cand:
                out.append(max(cand, key=lambda x: (key(tiles[x]), -order.index(x))))
        return out
    preds = {
        "presence_adversary": lambda tid, t: t["pres"] and t["u"],
        "g_adversary": lambda tid, t: t["gs"] and t["u"],
        "base_tiles": lambda tid, t: t["bases"],
        "tyranny_tiles": lambda tid, t: t["tyr"],
        "hq_tiles": lambda tid, t: any(B.is_hq(state, tid, s) for s in t["pres"]),
        "presence_tiles": lambda tid, t: t["pres"],
        "urban": lambda tid, t: C.tiles[tid]["terrain"] == "urban",
        "infrastructure": lambda tid, t: C.tiles[tid]["infrastructure"],
        "coastal": lambda tid, t: C.tiles[tid]["coastal"],
        "outpost_tiles": lambda tid, t: B.units(t, "outpost"),
        "garrison_tiles": lambda tid, t: B.units(t, "garrison"),
        "near_presence_cells": lambda tid, t: B.units(t, "cell") and _near_presence(state, tid),
        "near_presence_outposts": lambda tid, t: B.units(t, "outpost") and _near_presence(state, tid),
    }
    f = preds[sel]
    return [tid for tid in order if f(tid, tiles[tid])]


def _near_presence(state: dict, tid: str) -> bool:
    return any(state["tiles"][n]["pres"] for n in [tid, *C.adj[tid]] if n in state["tiles"])


def recruit_homes(state: dict, seat: str) -> list[str]:
    """Where an event's "recruit at their headquarters" may place the seat's Gs: its HQ tiles (2+
    presence, A-60), or, with no HQ left, any tile with its presence."""
    return ([tid for tid in state["order"] if B.is_hq(state, tid, seat)] or
            [tid for tid in state["order"] if state["tiles"][tid]["pres"].get(seat)])


def recruit_at(state: dict, seat: str, tid: str, n: int, facts: list, cause: str) -> None:
    m = min(n, B.g_supply(state, seat))
    if m:
        gs = state["tiles"][tid]["gs"]
        gs[seat] = gs.get(seat, 0) + m
        B.add_fact(facts, "recruit", msg("The {seat} recruit {gs} in {tile} ({cause}).", seat=T.SEAT[seat],
                                         gs=T.count(m, "guerrilla"), tile=B.tname(tid), cause=cause),
                   tile=tid, seat=seat, deltas=B.g_deltas(seat, m))


def capped_tiles(state: dict, tiles: list[str], cap: int, facts: list, cause: str) -> list[str]:
    """Issue 16.1: "every ... tile, at most N tiles" when more than N tiles qualify.

    The rule (fair and visible): quadrants take turns. The pick starts in the quadrant whose turn
    it is (``state["cap_turn"]``, quadrant 1 at the start of the game) and takes the next
    qualifying tile (terrain-card reference order) of each quadrant in turn until N are taken; the
    turn then passes to the next quadrant, so over a game every quadrant leads equally often.
    A ``capped`` fact names the rule, the quadrant that led and the tiles taken. When N or fewer
    tiles qualify they all are taken and nothing is said."""
    if len(tiles) <= cap:
        return tiles
    nq = len(state["seats"])
    start = state.get("cap_turn", 1)
    by_q: dict[int, list[str]] = {}
    for tid in tiles:
        by_q.setdefault(C.tiles[tid]["quadrant"], []).append(tid)
    rounds = [((start - 1 + i) % nq) + 1 for i in range(nq)]
    out: list[str] = []
    while len(out) < cap:
        for q in rounds:
            if by_q.get(q) and len(out) < cap:
                out.append(by_q[q].pop(0))
    state["cap_turn"] = start % nq + 1
    leader = state["seats"][start - 1]
    B.add_fact(facts, "capped", msg("{cause}: {n} tiles qualify but at most {cap} are affected. Quadrants take turns "
                                    "(issue 16.1): this time the {seat}' quadrant ({quadrant}) leads, then the next "
                                    "quadrants in order. Tiles affected: {tiles}.", cause=cause, n=len(tiles),
                                    cap=cap, seat=T.SEAT[leader], quadrant=start, tiles=T.tiles_list(out)),
               tiles=out, lead_quadrant=start, cap=cap, qualifying=list(tiles), rule="capped effects (rules notes)")
    return out


def run_board_ops(state: dict, ops: list, facts: list, cause: str) -> None:
    for op in ops:
        k = op["op"]
        tiles = select_tiles(state, op["sel"]) if "sel" in op else []
        if op.get("max"):
            tiles = capped_tiles(state, tiles, op["max"], facts, cause)
        if k == "team_influence":
            if op["n"] >= 0:
                B.gain_influence(state, op["n"], cause, facts)
            else:
                B.lose_influence(state, -op["n"], cause, facts, None)
        elif k == "each_resources":
            for seat in state["seats"]:
                pl = state["pl"][seat]
                new = max(0, pl["res"] + op["n"])
                if new != pl["res"]:
                    B.add_fact(facts, "track", msg("{seat}: resources {n} ({cause}).", seat=T.SEAT[seat],
                                                   n=f"{new - pl['res']:+d}", cause=cause),
                               track="resources", delta=new - pl["res"], value=new, cause=cause, seat=seat,
                               deltas={f"resources_{seat}": new - pl["res"]})
                pl["res"] = new
        elif k == "place":
            for tid in tiles:
                if B.supply(state, op["unit"]) > 0:
                    state["tiles"][tid]["u"].append([op["unit"], 0])
                    B.add_fact(facts, "deploy", msg("In {tile}, {unit} is placed ({cause}).", unit=T.A_PIECE[op["unit"]],
                                                    tile=B.tname(tid), cause=cause),
                               tile=tid, unit=op["unit"], deltas={B.UNIT_METRIC[op["unit"]]: 1})
        elif k == "develop":
            for tid in tiles:
                develop_tile(state, tid, facts)
        elif k == "adv_attack":
            for tid in tiles:
                B.adversary_attack(state, tid, op["n"], facts, cause)
        elif k == "g_attack":
            for tid in tiles:
                t = state["tiles"][tid]
                if t["gs"] and t["u"]:
                    B.player_attack(state, tid, B.g_total(t), B.director(t), facts, cause, by_guerrillas=True)
        elif k == "flip":
            src = "blue" if op["to"] == "red" else "red"
            for tid in tiles:
                t = state["tiles"][tid]
                m = min(op["n"], t[src])
                if m:
                    t[src] -= m
                    t[op["to"]] += m
                    B.add_fact(facts, "civilians", msg("{civilians} in {tile} turn {color} ({cause}).",
                                                       civilians=T.count(m, "civilian"), tile=B.tname(tid),
                                                       color=T.COLOR[op["to"]], cause=cause),
                               tile=tid, deltas={f"civilians_{src}": -m, f"civilians_{op['to']}": m})
                    B.clear_tyranny_check(state, tid, facts)
        elif k in ("remove_unit", "destroy_unit"):
            for tid in tiles:
                t = state["tiles"][tid]
                for _ in range(op["n"]):
                    idx = [i for i, u in enumerate(t["u"]) if u[0] == op["unit"]]
                    if not idx:
                        break
                    if k == "destroy_unit":
                        B.destroy_unit(state, tid, idx[0], facts, None, cause)
                    else:
                        t["u"].pop(idx[0])
                        B.add_fact(facts, "remove", msg("From {tile}, {unit} withdraws ({cause}).",
                                                        unit=T.A_PIECE[op["unit"]], tile=B.tname(tid), cause=cause),
                                   tile=tid, unit=op["unit"], deltas={B.UNIT_METRIC[op["unit"]]: -1})
                B.clear_tyranny_check(state, tid, facts)
        elif k == "each_recruit":
            for seat in state["seats"]:
                home = recruit_homes(state, seat)
                if len(home) >= 2 and B.g_supply(state, seat):
                    # "each player recruits N guerrillas at their headquarters": with two or more
                    # headquarters, which one is the player's choice (a global frame, asked at once)
                    state["g"].append({"k": "event_recruit", "seat": seat, "n": op["n"], "cause": cause,
                                       "rule": "event (1.I)",
                                       "text": msg("{cause}: you recruit {gs} at one of your headquarters: which "
                                                   "one?", cause=cause, gs=T.count(op["n"], "guerrilla"))})
                elif home:
                    recruit_at(state, seat, home[0], op["n"], facts, cause)
        elif k == "tyranny_return":
            for _ in range(op["n"]):
                cand = [tid for tid in state["order"] if state["tiles"][tid]["tyr"]]
                if not cand:
                    break
                tid = min(cand, key=lambda x: (sum(UNIT_VALUE[u[0]] for u in state["tiles"][x]["u"]), state["order"].index(x)))
                before = B.tyranny_on_map(state)
                state["tiles"][tid]["tyr"] -= 1
                state["tyr_pool"] += 1
                B.add_fact(facts, "track", msg("A tyranny token leaves {tile} for the pool ({cause}).",
                                               tile=B.tname(tid), cause=cause),
                           track="tyranny_pool", delta=1, value=state["tyr_pool"], cause=cause, tile=tid,
                           deltas=B.tyranny_deltas(state, before, tyranny_pool=1))
        elif k == "add_tyranny":
            for tid in tiles:
                B.place_tyranny(state, tid, facts, cause)
        elif k == "defense":
            for tid in tiles:
                state["tiles"][tid]["def"] += op["n"]
                B.add_fact(facts, "protect", msg("+{n} resistance defense in {tile} ({cause}).", n=op["n"],
                                                 tile=B.tname(tid), cause=cause), tile=tid)
        elif k == "prevent":
            for tid in tiles:
                for s in op["steps"]:
                    if s not in state["tiles"][tid]["prev"]:
                        state["tiles"][tid]["prev"].append(s)
                B.add_fact(facts, "protect", msg("The adversary cannot {steps} in {tile} this turn ({cause}).",
                                                 steps=T._steps(op["steps"]), tile=B.tname(tid), cause=cause),
                           tile=tid)
        elif k == "kill_civilians":
            for tid in tiles:
                t = state["tiles"][tid]
                m = 0
                d = {"civilians_red": 0, "civilians_blue": 0}
                for _ in range(op["n"]):
                    if t["blue"]:
                        t["blue"] -= 1
                        d["civilians_blue"] -= 1
                    elif t["red"]:
                        t["red"] -= 1
                        d["civilians_red"] -= 1
                    else:
                        break
                    m += 1
                if m:
                    state["stats"]["civilians_killed"] += m
                    d["civilians_killed"] = m
                    B.add_fact(facts, "civilians", msg("Reprisals kill {civilians} in {tile} ({cause}).",
                                                       civilians=T.count(m, "civilian"), tile=B.tname(tid),
                                                       cause=cause), tile=tid, deltas=d)
        elif k == "each_draw":
            for seat in state["seats"]:
                deck = state["decks"][op["deck"]]
                if deck:
                    cid = deck.pop(0)
                    state["pl"][seat]["hand"].append(cid)
                    facts.append({"type": "draw", "text": msg("The {seat} draw {card} ({cause}).", seat=T.SEAT[seat],
                                                              card=T.CARD_TITLE[cid], cause=cause),
                                  "seat": seat, "card": cid, "barrier": True, "visible_to": [seat],
                                  "public": {"type": "draw", "text": msg("The {seat} draw a {deck} card ({cause}).",
                                                                         seat=T.SEAT[seat], deck=T.DECK[op["deck"]],
                                                                         cause=cause),
                                             "seat": seat, "barrier": True}})
        else:  # pragma: no cover - content is validated
            raise ValueError(f"unknown board op {k}")


def run_event(state: dict, facts: list) -> None:
    """3.D (adversary): fix the state, draw, primary for the state, then both bottom boxes (A-54)."""
    st = B.tyranny_state(state)
    deck = state["decks"]["event"]
    if not deck:
        deck.extend(state["boxes"]["event_discard"])
        state["boxes"]["event_discard"] = []
        R.shuffle(state["rng"], deck)
    eid = deck.pop(0)
    state["boxes"]["event_discard"].append(eid)
    state["stats"]["events"] += 1
    ev = C.events[eid]
    B.add_fact(facts, "event", msg("Event: {card} (state of {state}).", card=T.EVENT_TITLE[eid], state=T.STATE[st]),
               card=eid, state=st, barrier=True, threshold=B.threshold(state))
    cause = msg("event {card}", card=T.EVENT_TITLE[eid])
    run_board_ops(state, ev[st], facts, cause)
    run_board_ops(state, ev["bottom_1"], facts, cause)
    run_board_ops(state, ev["bottom_2"], facts, cause)


def run_influence_cards(state: dict, facts: list) -> None:
    """3.E: execute each earned card in order, at its level (A-23: cards 1-4 L1, 5-7 L2, 8-10 L3)."""
    inf = state["inf"]
    while inf["queue"]:
        iid = inf["queue"].pop(0)
        k = len(inf["played"]) + 1
        level = 1 + sum(1 for m in inf["markers"] if k > m)
        card = C.influence[iid]
        B.add_fact(facts, "influence_card", msg("Influence card {k}: {card} (level {level}).", k=k,
                                                card=T.INFLUENCE_TITLE[iid], level=level), card=iid,
                   level=level, barrier=True, track="influence_cards_played", delta=1, value=k,
                   cause=msg("influence card step"), deltas={"influence_cards_played": 1})
        run_board_ops(state, card[f"level_{level}"], facts, msg("influence card {card}", card=T.INFLUENCE_TITLE[iid]))
        inf["played"].append(iid)
