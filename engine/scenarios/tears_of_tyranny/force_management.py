"""3.C Force management, 1.D base output and the burden of massed guerrillas (A-46).

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core.contract import Choice, ChoiceKind
from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content

C = content()


FM_LABEL = {"recruit": msg("Recruit 1 guerrilla"), "base": msg("Establish a guerrilla base"),
            "convert": msg("Convert 1 red civilian")}
FM_HELP = {"recruit": msg("Places 1 of your guerrillas in this tile (3.C)."),
           "base": msg("Builds a guerrilla base in this tile; one of your guerrillas there holds it for good, and it "
                       "can produce guerrillas from next turn (3.C, 1.D)."),
           "convert": msg("Turns 1 red civilian in this tile blue: red civilians add to the adversary's defense, blue "
                          "ones weaken its dominate (3.C, 1.C).")}


def _fm_cost(o: dict):
    """An option's price in words and as a structured cost (built once per panel option)."""
    if o.get("influence"):
        words = msg("{resources} + {influence} influence", resources=T.count(o["cost"], "resource"),
                    influence=o["influence"])
    else:
        words = T.count(o["cost"], "resource")
    spend = {k: v for k, v in (("resources", o["cost"]), ("influence", o.get("influence", 0))) if v}
    return words, spend or None


FM_COST = {(seat, o["id"]): _fm_cost(o) for seat in C.panels for o in C.panels[seat]["force_management"]["options"]}
PRODUCE_HELP = msg("Takes 1 guerrilla from this base now (1.D, A-42); you may take more one at a time.")


class ForceManagementMixin:
    def _fm_where(self, state, seat, where, rng) -> list[str]:
        tiles = state["tiles"]
        near: set = set()
        for m, t in tiles.items():
            if t["pres"].get(seat):
                near |= C.within(m, rng)

        def blue_near(tid):
            return any(tiles[n]["blue"] for n in [tid, *C.adj[tid]] if n in tiles)

        def civ_near(tid):
            return any(tiles[n]["blue"] + tiles[n]["red"] for n in [tid, *C.adj[tid]] if n in tiles)

        def red_tile(tid):
            return tiles[tid]["red"] and not tiles[tid]["blue"]

        out = []
        for tid in state["order"]:
            if tid not in near:
                continue
            t = tiles[tid]
            terr = C.tiles[tid]["terrain"]
            ok = False
            if where == "jungle_rural_blue_near":
                ok = terr in ("jungle", "rural") and blue_near(tid)
            elif where == "presence_blue_near":
                ok = bool(t["pres"].get(seat)) and blue_near(tid)
            elif where == "presence_civilians":
                ok = bool(t["pres"].get(seat)) and (t["red"] + t["blue"]) > 0
            elif where == "presence_red":
                ok = bool(t["pres"].get(seat)) and t["red"] > 0
            elif where == "coastal_near":
                ok = C.tiles[tid]["coastal"]
            elif where == "liberator_base":
                ok = (terr in ("jungle", "rural") and B.movable_gs(t, seat) > 0 and blue_near(tid)
                      and not any(red_tile(n) for n in [tid, *C.adj[tid]] if n in tiles))
            elif where == "hq_base":
                ok = B.is_hq(state, tid, seat) and B.movable_gs(t, seat) > 0 and civ_near(tid)
            if ok:
                out.append(tid)
        return out

    def _fm_targets(self, state, seat, only=None):
        """(option, tile) pairs of the force management actions the seat can take now (3.C)."""
        pl = state["pl"][seat]
        for o in C.panels[seat]["force_management"]["options"]:
            if only and o["id"] != only:
                continue
            if pl["res"] < o["cost"] or state["inf"]["earned"] < o.get("influence", 0):
                continue
            if o["id"] == "recruit" and B.g_supply(state, seat) <= 0:
                continue
            if o["id"] == "base" and B.bases_left(state) <= 0:
                continue
            for tid in self._fm_where(state, seat, o["where"], o["range"]):
                if o["id"] == "base" and any(b[0] == seat for b in state["tiles"][tid]["bases"]):
                    continue
                yield o, tid

    def _fm_possible(self, state, seat, only=None) -> bool:
        """Whether :meth:`_fm_choices` would offer anything (without building the choices)."""
        return next(self._fm_targets(state, seat, only), None) is not None

    def _fm_choices(self, state, seat, only=None) -> list[Choice]:
        return [Choice(f"{o['id']}:{tid}", msg("{action} in {tile} ({cost})", action=FM_LABEL[o["id"]],
                                               tile=B.tname(tid), cost=FM_COST[(seat, o["id"])][0]),
                       {"tile": tid}, kind=ChoiceKind.SPACE, targets={"tile": tid, "action": o["id"]},
                       cost=FM_COST[(seat, o["id"])][1], rule="3.C", help=FM_HELP[o["id"]])
                for o, tid in self._fm_targets(state, seat, only)]

    def _apply_fm(self, state, seat, fr, head, rest, facts) -> None:
        stack = state["frames"][seat]
        pl = state["pl"][seat]
        stack.pop()
        if head in ("skip", "done"):
            return
        o = next(x for x in C.panels[seat]["force_management"]["options"] if x["id"] == head)
        pl["res"] -= o["cost"]
        if o["cost"]:
            B.add_fact(facts, "track", msg("The {seat} pay {resources} for force management.", seat=T.SEAT[seat],
                                           resources=T.count(o["cost"], "resource")), seat=seat,
                       track="resources", delta=-o["cost"], value=pl["res"], cause=msg("force management"),
                       deltas={f"resources_{seat}": -o["cost"]})
        if o.get("influence"):
            B.lose_influence(state, o["influence"], msg("the Advisors spend influence on force management"), facts, seat)
        tid = rest
        t = state["tiles"][tid]
        if head == "recruit":
            self._place_g(state, seat, tid, 1, facts, msg("recruited"))
            if seat == "liberators" and self._lpull_targets(state, tid):
                stack.append({"k": "lpull", "tile": tid})
            left = (fr.get("left") or o["n"]) - 1
            if left > 0 and o["n"] > 1:
                stack.append({"k": "fm", "only": "recruit", "left": left})
        elif head == "base":
            t["bases"].append([seat, 0])
            pl["base_built"][tid] = state["turn"]
            B.add_fact(facts, "base", msg("The {seat} establish a guerrilla base in {tile}.", seat=T.SEAT[seat],
                                          tile=B.tname(tid)), seat=seat, tile=tid, deltas={"bases": 1})
        elif head == "convert":
            t["red"] -= 1
            t["blue"] += 1
            B.add_fact(facts, "civilians", msg("The {seat} convert a red civilian to blue in {tile}.", seat=T.SEAT[seat],
                                               tile=B.tname(tid)), seat=seat, tile=tid,
                       deltas={"civilians_red": -1, "civilians_blue": 1})
            B.clear_tyranny_check(state, tid, facts)

    def controls(self, state, seat, tid) -> bool:
        """A-52: presence, no adversary, strictly the most presence tokens."""
        t = state["tiles"][tid]
        mine = t["pres"].get(seat, 0)
        return bool(mine) and not t["u"] and all(v < mine for s, v in t["pres"].items() if s != seat)

    def _burden_tiles(self, state, seat) -> list[str]:
        """A-46: tiles where the seat has more than 4 Gs (each extra G costs 1 resource or leaves)."""
        up = state["pl"][seat].get("upkept", {})
        return [tid for tid in state["order"] if state["tiles"][tid]["gs"].get(seat, 0) - up.get(tid, 0) > 4]

    def _output_room(self, state, seat, tid, made: int) -> int:
        """A-42: how many more Gs the base in ``tid`` may produce this turn."""
        bo = C.panels[seat]["base_output"]
        pl = state["pl"][seat]
        t = state["tiles"][tid]
        if pl["base_built"].get(tid, 0) >= state["turn"]:
            return 0
        if bo["needs_presence"] and not t["pres"].get(seat):
            return 0
        if not t["gs"].get(seat):
            return 0
        return max(0, min(bo["n"] - made, 4 - t["gs"].get(seat, 0)))

    def _produce_choices(self, state, seat, fr) -> list[Choice]:
        """Base output, one G at a time, the player's call (1.D Guerrilla Base: "can, but are not
        required to"): paid (the Comrades, 1 resource per G) or free (Liberators, Partisans)."""
        bo = C.panels[seat]["base_output"]
        pl = state["pl"][seat]
        if pl["res"] < bo["cost"] or B.g_supply(state, seat) <= 0:
            return []
        made = fr.setdefault("made", {})
        return [Choice(f"produce:{tid}", (msg("Pay {resources} for 1 guerrilla from your base in {tile}",
                                              resources=T.count(bo["cost"], "resource"), tile=B.tname(tid))
                                          if bo["cost"] else
                                          msg("Take 1 free guerrilla from your base in {tile}", tile=B.tname(tid))),
                       {"tile": tid}, kind=ChoiceKind.SPACE, targets={"tile": tid},
                       cost={"resources": bo["cost"]} if bo["cost"] else None, rule="1.D (A-42)", help=PRODUCE_HELP)
                for tid in self._own_bases(state, seat) if self._output_room(state, seat, tid, made.get(tid, 0)) > 0]
