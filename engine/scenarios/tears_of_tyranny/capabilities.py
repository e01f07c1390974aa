"""3.D-phase 4 capabilities (1.F): what can be executed, targeting and range (A-37, A-60), and the resolution of an effect, step by step (1.G combat, A-57, A-28, A-25).

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core.contract import Choice, ChoiceKind
from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.panel import (
    ROWS,
    VAL,
    _hit_unit,
    attributes,
    covered,
    meets,
)

C = content()


PIECE_OF = {s: msg("{seat} guerrilla", seat=T.SEAT[s]) for s in T.SEAT}
CIV_DIES = {"red": lambda n: msg("A red civilian dies ({n} in the tile)", n=n),
            "blue": lambda n: msg("A blue civilian dies ({n} in the tile)", n=n)}
HIT_HELP = msg("The damage that got through goes to this kind of unit next, the most damaged one first (A-57).")
DRIVE_HELP = msg("The displaced unit goes into this neighbouring tile instead of being destroyed (Advisors panel, "
                 "A-28).")
CIV_HELP = msg("The excess damage kills a civilian of this colour next; each one costs your panel's influence "
               "penalty (A-25).")
PULL_HELP = msg("Moves one piece from the neighbouring tile into the target tile; you may stop at any time.")
PUSH_HELP = msg("Moves one piece out of the target tile into this neighbouring tile; you may stop at any time.")
CARRY_HELP = msg("As the plain move, and one of your presence travels with the piece (A-43).")
STOP_HELP = msg("Ends this step of the capability; its next step, if any, follows.")
ROW_HELP = msg("The new presence uncovers the next circle of this row of your panel: income raises your "
               "resources each turn, card plays the cards you may play (1.E).")



#: a card's or a panel's target condition (``target`` in the data) -> the test of a tile: its state
#: ``t``, its printed data ``ct``, the acting seat. Each is worked out only when a target names it
#: (the look-ahead of the bots asks hundreds of thousands of times a game).
_TARGET_TESTS = {
    "any": lambda t, ct, seat: True,
    "jungle": lambda t, ct, seat: ct["terrain"] == "jungle",
    "rural": lambda t, ct, seat: ct["terrain"] == "rural",
    "urban": lambda t, ct, seat: ct["terrain"] == "urban",
    "desert": lambda t, ct, seat: ct["terrain"] == "desert",
    "jungle_rural": lambda t, ct, seat: ct["terrain"] in ("jungle", "rural"),
    "civilians": lambda t, ct, seat: t["red"] + t["blue"] > 0,
    "blue_civilians": lambda t, ct, seat: t["blue"] > 0,
    "red_civilians": lambda t, ct, seat: t["red"] > 0,
    "gs": lambda t, ct, seat: bool(t["gs"]),
    "own_gs": lambda t, ct, seat: t["gs"].get(seat, 0) > 0,
    "no_tyranny": lambda t, ct, seat: not t["tyr"],
    "tyranny": lambda t, ct, seat: t["tyr"] > 0,
    "adversary": lambda t, ct, seat: bool(t["u"]),
    "no_adversary": lambda t, ct, seat: not t["u"],
    "cells": lambda t, ct, seat: B.units(t, "cell") > 0,
    "outposts": lambda t, ct, seat: B.units(t, "outpost") > 0,
    "garrisons": lambda t, ct, seat: B.units(t, "garrison") > 0,
    "coastal": lambda t, ct, seat: ct["coastal"],
    "presence": lambda t, ct, seat: t["pres"].get(seat, 0) > 0,
    "infrastructure": lambda t, ct, seat: ct["infrastructure"],
    "base": lambda t, ct, seat: bool(t["bases"]),
}

class CapabilitiesMixin:
    def _exec_choices(self, state, seat, speed) -> list[Choice]:
        pl = state["pl"][seat]
        attrs = attributes(pl, seat)
        out = []
        early = (seat == "partisans" and speed == "immediate" and "early" not in pl["used"]
                 and meets(attrs, C.panels[seat]["special"]["early_req"]))
        for c in pl["played"]:
            if c in pl["done_cards"]:
                continue
            card = C.cards[c]
            if card["speed"] == speed or (early and card["speed"] == "long"):
                if self._card_targets(state, seat, card):
                    if card["speed"] != speed:
                        label = msg("Execute {card} early (Peasant Revolution): {text}", card=T.CARD_TITLE[c],
                                    text=T.CARD_TEXT[c])
                    else:
                        label = msg("Execute {card}: {text}", card=T.CARD_TITLE[c], text=T.CARD_TEXT[c])
                    out.append(Choice(f"exec:{c}", label, {"card": c}, kind=ChoiceKind.CARD, targets={"card": c},
                                      rule="1.F", help=msg("Carry out this capability now: you then choose its "
                                                           "target tile ({text})", text=T.CARD_TEXT[c])))
        for part in ("patrol", "special"):
            org = C.panels[seat][part]
            if org["speed"] != speed or part in pl["used"]:
                continue
            ops = self._organic_ops(state, seat, part, attrs)
            if ops and self._organic_targets(state, seat, part, ops):
                does = T.describe_cap(ops)
                out.append(Choice(part, msg("Use {name}: {effect}", name=T.ORGANIC[(seat, part)], effect=does), {},
                                  kind=ChoiceKind.OPERATION, targets={"capability": part}, rule="1.E",
                                  help=msg("Your panel's own capability, once a turn, with what your attributes "
                                           "unlock: {effect}", effect=does)))
        return out

    def target_ok(self, state, seat, tid, target) -> bool:
        t = state["tiles"][tid]
        ct = C.tiles[tid]
        for cond in target:
            if not _TARGET_TESTS[cond](t, ct, seat):
                return False
        return True

    def in_range(self, state, seat, tid, rng) -> bool:
        if isinstance(rng, str):
            n = int(rng[3:])
            origins = [t for t in state["order"] if B.is_hq(state, t, seat)]
        else:
            n = rng
            origins = [t for t in state["order"] if state["tiles"][t]["pres"].get(seat)]
        return any(C.dist[o].get(tid, 99) <= n for o in origins)

    def reach(self, state, seat, rng) -> set:
        """Tiles within ``rng`` of the seat's presence (or HQ for "hq:N"), A-60."""
        if isinstance(rng, str):
            n = int(rng[3:])
            origins = [t for t in state["order"] if B.is_hq(state, t, seat)]
        else:
            n = rng
            origins = [tid for tid, t in state["tiles"].items() if t["pres"].get(seat)]
        out: set = set()
        for o in origins:
            out |= C.within(o, n)
        return out

    def _tiles_for(self, state, seat, rng, target, ops) -> list[str]:
        tgt = list(target)
        if any(o["op"] in ("push", "pull") for o in ops):
            tgt.append("presence")
        out = []
        reach = self.reach(state, seat, rng)
        for tid in state["order"]:
            if tid not in reach or not self.target_ok(state, seat, tid, tgt):
                continue
            if any(o["op"] == "presence" for o in ops):
                if not self.presence_allowed(state, seat, tid) or not any(covered(state["pl"][seat], seat).values()):
                    continue
            out.append(tid)
        return out

    def _target_tiles(self, state, seat, fr) -> list[str]:
        """Legal targets now (re-checked at every prompt: other seats act in between)."""
        if fr["src"] in C.cards:
            return self._card_targets(state, seat, C.cards[fr["src"]])
        return self._organic_targets(state, seat, fr["src"], fr["ops"])

    def _card_targets(self, state, seat, card) -> list[str]:
        return self._tiles_for(state, seat, card["range"], card["target"], card["effect"])

    def _organic_ops(self, state, seat, part, attrs) -> list:
        org = C.panels[seat][part]
        if part == "patrol":
            ops = []
            for step in org["steps"]:
                if meets(attrs, step["req"]):
                    ops += step["ops"]
            return ops
        tiers = [t for t in org["tiers"] if meets(attrs, t["req"])]
        if not tiers:
            return []
        if seat == "partisans":
            return [{"op": "pr_destroy", "unit": t["ops"][0]["unit"], "per": t["per_civilians"]} for t in tiers]
        dmg = sum(o["n"] for t in tiers for o in t["ops"] if o["op"] == "damage")
        infl = sum(o["n"] for t in tiers for o in t["ops"] if o["op"] == "influence")
        res = sum(o["n"] for t in tiers for o in t["ops"] if o["op"] == "resources")
        kills = sum(o["n"] for t in tiers for o in t["ops"] if o["op"] == "kill_civilian")
        rem = sum(o["n"] for t in tiers for o in t["ops"] if o["op"] == "remove_own_g")
        ops = []
        if dmg:
            ops.append({"op": "damage", "n": dmg})
        if kills:
            ops.append({"op": "kill_civilian", "n": kills, "color": "any"})
        if rem:
            ops.append({"op": "remove_own_g", "n": rem})
        if infl > 0:
            ops.append({"op": "influence", "n": infl})
        if infl < 0:
            ops.append({"op": "influence", "n": infl})
        if res:
            ops.append({"op": "resources", "n": res})
        return ops

    def _organic_targets(self, state, seat, part, ops) -> list[str]:
        org = C.panels[seat][part]
        target = list(org["target"])
        if seat == "partisans" and part == "special":
            target.append("adversary")
        return self._tiles_for(state, seat, org["range"], target, ops)

    @staticmethod
    def _alloc_needed(tile: dict, eff: int) -> bool:
        """A-57: the attacker assigns damage when it cannot kill everything and units differ."""
        rem = sum(VAL[u[0]] - u[1] for u in tile["u"])
        return eff < rem and len({(u[0], u[1]) for u in tile["u"]}) > 1

    def _alloc_choices(self, state, fr) -> list[Choice]:
        t = state["tiles"][fr["tile"]]
        out = []
        for kind in ("garrison", "outpost", "cell"):
            units = [u for u in t["u"] if u[0] == kind]
            if units:
                u = max(units, key=lambda u: u[1])
                rem = VAL[kind] - u[1]
                if rem <= fr["alloc"]:
                    label = msg("Destroy {unit} ({left} health left; {n} damage to assign)", unit=T.A_PIECE[kind],
                                left=rem, n=fr["alloc"])
                else:
                    label = msg("Damage {unit} ({left} health left; {n} damage to assign)", unit=T.A_PIECE[kind],
                                left=rem, n=fr["alloc"])
                out.append(Choice(f"hit:{kind}", label, {"unit": kind, "damage": min(rem, fr["alloc"])},
                                  kind=ChoiceKind.PIECE, targets={"piece": kind, "tile": fr["tile"]}, rule="A-57",
                                  help=HIT_HELP))
        return out

    def _drive_choices(self, state, fr) -> list[Choice]:
        kind = fr["drive"][0][0]
        return [Choice(f"drive:{n}", msg("Drive {unit} into {tile}", unit=T.A_PIECE[kind], tile=B.tname(n)),
                       {"tile": n, "unit": kind}, kind=ChoiceKind.SPACE, targets={"tile": n, "piece": kind},
                       rule="A-28", help=DRIVE_HELP)
                for n in B.drive_targets(state, fr["tile"])]

    def _civ_choices(self, state, fr) -> list[Choice]:
        t = state["tiles"][fr["tile"]]
        return [Choice(f"civ:{c}", CIV_DIES[c](T.count(t[c], c)),
                       {"color": c}, kind=ChoiceKind.PIECE, targets={"piece": c, "tile": fr["tile"]},
                       rule="A-25", help=CIV_HELP)
                for c in ("red", "blue") if t[c]]

    def _op_choices(self, state, seat, fr, op) -> list[Choice]:
        if fr.get("drive"):
            return self._drive_choices(state, fr)
        if fr.get("civ"):
            return self._civ_choices(state, fr)
        if fr.get("alloc"):
            return self._alloc_choices(state, fr)
        tid = fr["tile"]
        k = op["op"]
        tiles = state["tiles"]
        out = []
        if k == "pull":
            kinds = self._kinds(op["what"])
            for n in C.adj[tid]:
                if n not in tiles:
                    continue
                for kind in kinds:
                    if self._has_piece(state, seat, n, kind):
                        out.append(Choice(f"pull:{kind}:{n}", msg("Pull {piece} from {tile}", piece=T.A_PIECE[kind],
                                                                  tile=B.tname(n)),
                                          {"piece": kind, "from": n}, kind=ChoiceKind.PIECE,
                                          targets={"piece": kind, "from": n, "tile": tid}, rule="1.F", help=PULL_HELP))
                        if self._can_carry(state, seat, n, tid, kind):
                            out.append(Choice(f"pull:{kind}+p:{n}", msg("Pull {piece} from {tile} with 1 of your "
                                                                        "presence", piece=T.A_PIECE[kind],
                                                                        tile=B.tname(n)),
                                              {"piece": kind, "from": n, "presence": True}, kind=ChoiceKind.PIECE,
                                              targets={"piece": kind, "from": n, "tile": tid}, rule="A-43",
                                              help=CARRY_HELP))
            out.append(Choice("stop", msg("Stop pulling"), {}, kind=ChoiceKind.DONE, rule="1.F", help=STOP_HELP))
        elif k == "push":
            kinds = [x for x in self._kinds(op["what"]) if self._has_piece(state, seat, tid, x)]
            for n in C.adj[tid]:
                if n not in tiles:
                    continue
                for kind in kinds:
                    out.append(Choice(f"push:{kind}:{n}", msg("Push {piece} into {tile}", piece=T.A_PIECE[kind],
                                                              tile=B.tname(n)),
                                      {"piece": kind, "to": n}, kind=ChoiceKind.PIECE,
                                      targets={"piece": kind, "to": n, "tile": tid}, rule="1.F", help=PUSH_HELP))
                    if self._can_carry(state, seat, tid, n, kind):
                        out.append(Choice(f"push:{kind}+p:{n}", msg("Push {piece} into {tile} with 1 of your presence",
                                                                    piece=T.A_PIECE[kind], tile=B.tname(n)),
                                          {"piece": kind, "to": n, "presence": True}, kind=ChoiceKind.PIECE,
                                          targets={"piece": kind, "to": n, "tile": tid}, rule="A-43", help=CARRY_HELP))
            out.append(Choice("stop", msg("Stop pushing"), {}, kind=ChoiceKind.DONE, rule="1.F", help=STOP_HELP))
        elif k == "presence":
            cov = covered(state["pl"][seat], seat)
            out = [Choice(f"row:{r}", msg("Uncover a circle of the {row} row", row=T.ROW[r]), {"row": r},
                          kind=ChoiceKind.OPTION, targets={"row": r}, rule="1.E", help=ROW_HELP) for r in ROWS if cov[r]]
        return out

    @staticmethod
    def _kinds(what) -> list[str]:
        return {"adversary": ["cell", "outpost", "garrison"], "civilian": ["red", "blue"]}.get(what, [what])

    def _has_piece(self, state, seat, tid, kind) -> bool:
        t = state["tiles"][tid]
        if kind == "own_g":
            return B.movable_gs(t, seat) > 0
        if kind in ("red", "blue"):
            return t[kind] > 0
        return B.units(t, kind) > 0

    def _can_carry(self, state, seat, src, dst, kind) -> bool:
        """A-43: one presence may travel with the player's own G (Advisors: with a blue civilian)."""
        mover = "blue" if seat == "advisors" else "own_g"
        if kind != mover or not state["tiles"][src]["pres"].get(seat):
            return False
        if seat == "advisors":
            if state["tiles"][dst]["u"] or state["tiles"][dst]["tyr"]:
                return False
            return True
        return self.presence_allowed(state, seat, dst, with_g=True)

    def _start_exec(self, state, seat, speed, head, rest) -> None:
        """Execute a paid card (``exec:<card>``) or an organic capability (``patrol``/``special``)."""
        pl = state["pl"][seat]
        stack = state["frames"][seat]
        if head == "exec":
            card = C.cards[rest]
            if card["speed"] != speed:
                pl["used"].append("early")
            stack.append({"k": "target", "src": rest, "label": T.CARD_TITLE[rest], "ops": card["effect"]})
        else:
            ops = self._organic_ops(state, seat, head, attributes(pl, seat))
            pl["used"].append(head)
            stack.append({"k": "target", "src": head, "label": T.ORGANIC[(seat, head)], "ops": ops})

    def _apply_op_choice(self, state, seat, fr, head, rest, facts) -> None:
        tid = fr["tile"]
        if head == "drive":
            B.drive_unit(state, tid, fr["drive"].pop(0), rest, facts)
            if not fr["drive"]:
                fr.pop("drive")
            return
        if head == "civ":
            t = state["tiles"][tid]
            B.collateral(state, tid, 1, facts, seat, fr["label"], first=rest)
            fr["civ"] -= 1
            if fr["civ"] and not B.collateral_choice_needed(t, fr["civ"]):
                B.collateral(state, tid, fr["civ"], facts, seat, fr["label"])
                fr["civ"] = 0
            if not fr["civ"]:
                fr.pop("civ", None)
                B.clear_tyranny_check(state, tid, facts)
            return
        if head == "hit":
            t = state["tiles"][tid]
            _hit_unit(state, tid, rest, fr, facts, seat, fr["label"])
            excess = 0
            if fr["alloc"] and not t["u"]:
                excess = fr["alloc"]
                fr["alloc"] = 0
            elif fr["alloc"] and not self._alloc_needed(t, fr["alloc"]):
                excess = B.allocate(state, tid, fr["alloc"], facts, seat, fr["label"])
                fr["alloc"] = 0
            if excess and B.collateral_choice_needed(t, excess):
                fr["civ"] = excess
            elif excess:
                B.collateral(state, tid, excess, facts, seat, fr["label"])
            if not fr["alloc"]:
                fr.pop("alloc", None)
                if not fr.get("civ"):
                    B.clear_tyranny_check(state, tid, facts)
            return
        op = fr["ops"][fr["i"]]
        if head == "stop":
            fr["i"] += 1
            fr["moved"] = 0
            return
        if head == "row":
            self._add_presence(state, seat, tid, rest, facts)
            fr["i"] += 1
            return
        kind, _, other = rest.partition(":")
        carry = kind.endswith("+p")
        kind = kind.replace("+p", "")
        src, dst = (other, tid) if head == "pull" else (tid, other)
        self._move_piece(state, seat, kind, src, dst, facts)
        if carry:
            s, d = state["tiles"][src], state["tiles"][dst]
            s["pres"][seat] -= 1
            if not s["pres"][seat]:
                del s["pres"][seat]
            d["pres"][seat] = d["pres"].get(seat, 0) + 1
            B.add_fact(facts, "presence", msg("A {seat} presence moves with it to {tile}.", seat=T.SEAT[seat],
                                              tile=B.tname(dst)), seat=seat, tile=dst,
                       deltas=B.merge(B.pres_deltas(seat, s["pres"].get(seat, 0) + 1, s["pres"].get(seat, 0)),
                                      B.pres_deltas(seat, d["pres"][seat] - 1, d["pres"][seat])))
        fr["moved"] += 1
        if fr["moved"] >= op["n"]:
            fr["i"] += 1
            fr["moved"] = 0

    def _move_piece(self, state, seat, kind, src, dst, facts) -> None:
        s, d = state["tiles"][src], state["tiles"][dst]
        if kind == "own_g":
            s["gs"][seat] -= 1
            if not s["gs"][seat]:
                del s["gs"][seat]
            d["gs"][seat] = d["gs"].get(seat, 0) + 1
        elif kind in ("red", "blue"):
            s[kind] -= 1
            d[kind] += 1
        else:
            i = max((i for i, u in enumerate(s["u"]) if u[0] == kind), key=lambda i: s["u"][i][1])
            d["u"].append(s["u"].pop(i))
        B.add_fact(facts, "move", msg("One {piece} moves from {src} to {dst}.",
                                      piece=PIECE_OF[seat] if kind == "own_g" else T.PIECE[kind],
                                      src=B.tname(src), dst=B.tname(dst)),
                   seat=seat, piece=kind, src=src, dst=dst)
        B.clear_tyranny_check(state, src, facts)
        B.clear_tyranny_check(state, dst, facts)

    def _run_effect(self, state, seat, fr, facts) -> bool:
        """Resolve automatic ops of an effect frame; True when finished."""
        tid = fr["tile"]
        t = state["tiles"][tid]
        pl = state["pl"][seat]
        label = fr["label"]
        while fr["i"] < len(fr["ops"]) or fr.get("alloc") or fr.get("civ") or fr.get("drive"):
            if state["result"] is not None:
                return True
            if fr.get("alloc") or fr.get("civ") or fr.get("drive"):
                return False
            op = fr["ops"][fr["i"]]
            k = op["op"]
            if k in ("pull", "push", "presence"):
                ch = self._op_choices(state, seat, fr, op)
                if [c for c in ch if c.id != "stop"]:
                    return False
                fr["i"] += 1
                fr["moved"] = 0
                continue
            fr["i"] += 1
            if k in ("damage", "damage_per_g") and fr["i"] > 1 and not t["u"]:
                # issue 16.5: a follow-on damage step ("then 2 damage", "if you have 2x ...: 2 damage")
                # into a tile an earlier step has already cleared has no adversary to attack (1.G:
                # combat is against the adversary; collateral is only the excess of an attack on
                # it): the player holds it back, so no civilian is killed and no influence lost
                B.add_fact(facts, "held_back", msg("{label}: no adversary unit is left in {tile}, so the follow-on "
                                                   "damage is held back (no collateral damage).", label=label,
                                                   tile=B.tname(tid)),
                           tile=tid, seat=seat, rule="1.G combat (rules notes, issue 16.5)")
                continue
            if k in ("damage", "damage_per_g"):
                if k == "damage":
                    n = op["n"]
                    ign = bool(op.get("ignore_defense"))
                    ign_t = ign and "tyranny" in (C.cards.get(fr["src"], {}).get("target") or [])
                else:
                    if not (B.g_total(t) and t["u"]):
                        continue
                    n = B.g_total(t) + op.get("bonus", 0)
                    ign = ign_t = False
                eff = n - B.tile_defense(state, tid, ign, ign_t)
                # the Advisors' own damage drives units out (A-28); damage per G is their proxy
                # guerrillas' and damages like anyone's (combat, Damage; Advisors panel; issue 16.2)
                proxy = k == "damage_per_g"
                if (seat == "advisors" and not proxy) or eff <= 0 or not self._alloc_needed(t, eff):
                    pending: dict = {}
                    B.player_attack(state, tid, n, seat, facts, label, ignore_defense=ign, ignore_tyranny=ign_t,
                                    pending=pending, by_guerrillas=proxy)
                    if pending:
                        fr.update(pending)
                        return False
                else:
                    # the attacker assigns the damage; the fact explains the defense (1.G combat)
                    facts.append(B.attack_fact(state, tid, n, seat, label, ign, ign_t, assign=True))
                    fr["alloc"] = eff
                    return False
            elif k == "destroy":
                for _ in range(op["n"]):
                    idx = [i for i, u in enumerate(t["u"]) if op["unit"] in (u[0], "any")]
                    if not idx:
                        break
                    i = max(idx, key=lambda i: VAL[t["u"][i][0]])
                    if seat == "advisors":
                        unit = t["u"][i]
                        pending: dict = {}
                        B.advisor_strike(state, tid, VAL[unit[0]] - unit[1], facts, label, pending)
                        if pending.get("drive"):
                            fr.setdefault("drive", []).extend(pending["drive"])
                    else:
                        B.destroy_unit(state, tid, i, facts, seat, label)
                B.clear_tyranny_check(state, tid, facts)
                if fr.get("drive"):
                    return False
            elif k == "pr_destroy":
                civ = sum(state["tiles"][n]["red"] + state["tiles"][n]["blue"] for n in C.adj[tid] if n in state["tiles"])
                for _ in range(civ // op["per"]):
                    idx = [i for i, u in enumerate(t["u"]) if u[0] == op["unit"]]
                    if not idx:
                        break
                    B.destroy_unit(state, tid, idx[0], facts, seat, label)
                B.clear_tyranny_check(state, tid, facts)
            elif k == "remove":
                for _ in range(op["n"]):
                    idx = [i for i, u in enumerate(t["u"]) if op["unit"] in (u[0], "any")]
                    if not idx:
                        break
                    u = t["u"].pop(idx[0])
                    B.add_fact(facts, "remove", msg("From {tile}, {unit} withdraws ({cause}).", unit=T.A_PIECE[u[0]],
                                                    tile=B.tname(tid), cause=label), tile=tid, unit=u[0],
                               deltas={B.UNIT_METRIC[u[0]]: -1})
                B.clear_tyranny_check(state, tid, facts)
            elif k == "replace":
                w = op["what"]
                done = False
                if w == "red" and t["red"]:
                    t["red"] -= 1
                    done = {"civilians_red": -1}
                elif w in ("cell", "outpost"):
                    idx = [i for i, u in enumerate(t["u"]) if u[0] == w]
                    if idx:
                        t["u"].pop(idx[0])
                        done = {B.UNIT_METRIC[w]: -1}
                if done:
                    B.add_fact(facts, "replace", msg("The {seat} replace {piece} with a guerrilla in {tile}.",
                                                     seat=T.SEAT[seat], piece=T.A_PIECE[w], tile=B.tname(tid)),
                               seat=seat, tile=tid, deltas=done)
                    self._place_g(state, seat, tid, 1, facts, label)
                    if op["influence"]:
                        B.gain_influence(state, op["influence"], msg("{label}: replaced {piece}", label=label,
                                                                     piece=T.A_PIECE[w]), facts, seat)
                    B.clear_tyranny_check(state, tid, facts)
            elif k == "defense":
                t["def"] += op["n"]
                B.add_fact(facts, "protect", msg("+{n} resistance defense in {tile} this turn ({cause}).", n=op["n"],
                                                 tile=B.tname(tid), cause=label), tile=tid, seat=seat)
            elif k == "prevent":
                for s in op["steps"]:
                    if s not in t["prev"]:
                        t["prev"].append(s)
                B.add_fact(facts, "protect", msg("The adversary cannot {steps} in {tile} this turn ({cause}).",
                                                 steps=T._steps(op["steps"]), tile=B.tname(tid), cause=label),
                           tile=tid, seat=seat)
            elif k == "influence":
                if op["n"] >= 0:
                    B.gain_influence(state, op["n"], msg("{label} by the {seat}", label=label, seat=T.SEAT[seat]),
                                     facts, seat)
                else:
                    B.lose_influence(state, -op["n"], msg("{label} by the {seat}", label=label, seat=T.SEAT[seat]),
                                     facts, seat)
            elif k == "resources":
                pl["res"] += op["n"]
                B.add_fact(facts, "track", msg("The {seat} gain {resources} ({cause}).", seat=T.SEAT[seat],
                                               resources=T.count(op["n"], "resource"), cause=label), seat=seat,
                           track="resources", delta=op["n"], value=pl["res"], cause=label,
                           deltas={f"resources_{seat}": op["n"]})
            elif k == "recruit":
                self._place_g(state, seat, tid, op["n"], facts, label)
            elif k == "convert":
                m = min(op["n"], t["red"])
                if m:
                    t["red"] -= m
                    t["blue"] += m
                    B.add_fact(facts, "civilians", msg("{civilians} in {tile} turn blue ({cause}).",
                                                       civilians=T.count(m, "red"), tile=B.tname(tid), cause=label),
                               tile=tid, seat=seat, deltas={"civilians_red": -m, "civilians_blue": m})
                    B.clear_tyranny_check(state, tid, facts)
            elif k == "kill_civilian":
                m = 0
                d = {"civilians_red": 0, "civilians_blue": 0}
                for _ in range(op["n"]):
                    col = op.get("color", "any")
                    if col in ("red", "any") and t["red"]:
                        t["red"] -= 1
                        d["civilians_red"] -= 1
                    elif col in ("blue", "any") and t["blue"]:
                        t["blue"] -= 1
                        d["civilians_blue"] -= 1
                    else:
                        break
                    m += 1
                if m:
                    state["stats"]["civilians_killed"] += m
                    d["civilians_killed"] = m
                    B.add_fact(facts, "collateral", msg("{civilians} killed in {tile} ({cause}).",
                                                        civilians=T.count(m, "civilian"), tile=B.tname(tid),
                                                        cause=label), tile=tid, seat=seat, killed=m, deltas=d)
                    pen = B.penalty(state, seat)
                    if pen:
                        B.lose_influence(state, pen * m, msg("civilians killed by the {seat} in {tile}",
                                                             seat=T.SEAT[seat], tile=T.TILE[tid]), facts, seat)
                    B.clear_tyranny_check(state, tid, facts)
            elif k == "remove_tyranny":
                if t["tyr"]:
                    before = B.tyranny_on_map(state)
                    t["tyr"] -= 1
                    state["tyr_pool"] += 1
                    B.add_fact(facts, "track", msg("{label} returns a tyranny token from {tile} to the pool.",
                                                   label=label, tile=B.tname(tid)), tile=tid,
                               track="tyranny_pool", delta=1, value=state["tyr_pool"], cause=label, seat=seat,
                               deltas=B.tyranny_deltas(state, before, tyranny_pool=1))
            elif k == "remove_own_g":
                for _ in range(op["n"]):
                    owner = seat if t["gs"].get(seat) else (sorted(t["gs"])[0] if t["gs"] else None)
                    if not owner:
                        break
                    t["gs"][owner] -= 1
                    if not t["gs"][owner]:
                        del t["gs"][owner]
                    B.add_fact(facts, "remove", msg("One of the {seat}' guerrillas leaves {tile} ({cause}).",
                                                    seat=T.SEAT[owner], tile=B.tname(tid), cause=label),
                               tile=tid, seat=owner, deltas=B.g_deltas(owner, -1))
            elif k == "if_attr":
                if attributes(pl, seat).get(op["attr"], 0) >= op["n"]:
                    fr["ops"] = fr["ops"][:fr["i"]] + op["then"] + fr["ops"][fr["i"]:]
            self._check_end(state, facts)
        return True
