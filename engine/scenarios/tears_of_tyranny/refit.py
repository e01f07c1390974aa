"""3.A Refit and 2.C set-up placement: headquarters, presence, capabilities drawn and returned.

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core.contract import Choice, ChoiceKind
from engine.core.messages import msg, msg_n
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.data import content
from engine.scenarios.tears_of_tyranny.panel import (
    ROWS,
    covered,
)

C = content()


PRESENCE_HELP = msg("Adds 1 presence to this tile and uncovers the next circle of the chosen row of your panel: "
                    "income raises your resources each turn, card plays the cards you may play (3.A, 1.E).")
REFIT_WORDS = {"reclaim_all": msg("reclaim all spent cards"), "reclaim1": msg("reclaim 1 spent card"),
               "base_g": msg("gain 1 guerrilla at a base")}


class RefitMixin:
    def hq_candidates(self, state: dict, seat: str) -> list[str]:
        """2.C / A-06: the topmost and bottommost qualifying tile of the seat's own quadrant."""
        q = state["quad"][seat]
        want = C.panels[seat]["start_hq"]
        cand = []
        for tid in state["order"]:
            t = C.tiles[tid]
            if t["quadrant"] != q:
                continue
            if want == "coastal":
                if not t["coastal"]:
                    continue
            elif t["terrain"] != want:
                continue
            if self.presence_allowed(state, seat, tid):
                cand.append(tid)
        cand.sort(key=lambda x: (C.xy(x)[1], C.xy(x)[0]))
        out = [cand[0], cand[-1]] if cand else []
        return sorted(set(out), key=out.index)

    def presence_allowed(self, state: dict, seat: str, tid: str, with_g: bool = False) -> bool:
        t = state["tiles"][tid]
        if t["tyr"]:
            return False
        if seat == "advisors" and t["u"]:
            return False
        if seat == "liberators" and t["red"] and not t["blue"] and not (t["gs"] or with_g):
            return False
        return True

    def _presence_choices(self, state: dict, seat: str, rng: int) -> list[Choice]:
        pl = state["pl"][seat]
        cov = covered(pl, seat)
        if not any(cov.values()):
            return []
        reach = self.reach(state, seat, rng)
        out = []
        for tid in state["order"]:
            if tid not in reach:
                continue
            if not self.presence_allowed(state, seat, tid):
                continue
            for row in ROWS:
                if cov[row]:
                    out.append(Choice(f"presence:{tid}:{row}", msg("Presence in {tile}, uncovering a circle of the "
                                                                   "{row} row", tile=B.tname(tid), row=T.ROW[row]),
                                      {"tile": tid, "row": row}, kind=ChoiceKind.SPACE,
                                      targets={"tile": tid, "row": row}, rule="3.A", help=PRESENCE_HELP))
        return out

    def _presence_possible(self, state: dict, seat: str, rng: int) -> bool:
        """True when ``_presence_choices`` would offer at least one tile (without listing them)."""
        if not any(covered(state["pl"][seat], seat).values()):
            return False
        tiles = state["tiles"]
        return any(t in tiles and self.presence_allowed(state, seat, t) for t in self.reach(state, seat, rng))

    def _lpull_targets(self, state, tid) -> list[str]:
        """A-48: a Liberators G recruited away from their presence may be pulled into an adjacent
        tile holding Liberator presence."""
        tiles = state["tiles"]
        if tiles[tid]["pres"].get("liberators") or B.movable_gs(tiles[tid], "liberators") <= 0:
            return []
        return [n for n in C.adj[tid] if n in tiles and tiles[n]["pres"].get("liberators")]

    def _own_bases(self, state, seat):
        return [t for t in state["order"] if any(b[0] == seat for b in state["tiles"][t]["bases"])]

    def _refit_possible(self, state, seat, o) -> bool:
        for part in o["parts"]:
            k = part["k"]
            if k == "base_g" and not self._own_bases(state, seat):
                return False
            if k == "presence" and not self._presence_possible(state, seat, part["range"]):
                return False
        return True

    @staticmethod
    def _refit_label(o):
        parts = []
        for p in o["parts"]:
            k = p["k"]
            if k == "resources":
                w = msg("gain {resources}", resources=T.count(p["n"], "resource"))
            elif k == "gain":
                w = msg_n("gain {count} capability card (draw 4, keep 1)", "gain {count} capability cards (draw 4, keep 1 "
                          "each time)", p.get("n", 1))
            elif k == "presence":
                w = msg("add 1 presence within {n} of yours", n=p["range"])
            else:
                w = REFIT_WORDS[k]
            parts.append(w)
        return msg("Refit: {parts}", parts=B.join_plus(parts))

    def _return_unkept(self, state, seat, deck, cards, facts, placed=0) -> None:
        """Return the unkept drawn cards to the bottom of ``deck`` (3.A Gain Capability). With two or
        more left the player sets their whole order in one step (``order:<card>,<card>...``, the drawn
        order offered first as the default; secret like the draw); a single card goes by itself."""
        if len(cards) >= 2:
            state["frames"][seat].append({"k": "bottom", "deck": deck, "cards": list(cards), "placed": placed})
            return
        state["decks"][deck].extend(cards)
        n = placed + len(cards)
        if n:
            B.add_fact(facts, "bottom", msg("The {seat} return {cards} they did not keep to the bottom of the {deck} "
                                            "deck.", seat=T.SEAT[seat], cards=T.count(n, "card"), deck=T.DECK[deck]),
                       seat=seat, deck=deck, n=n)

    def _push_refit_part(self, state, seat, part, facts) -> None:
        stack = state["frames"][seat]
        pl = state["pl"][seat]
        k = part["k"]
        if k == "reclaim_all":
            # resolved at once (no decision)
            if pl["discard"]:
                B.add_fact(facts, "reclaim", msg("The {seat} reclaim all their spent cards ({cards}).", seat=T.SEAT[seat],
                                                 cards=T.count(len(pl["discard"]), "card")), seat=seat)
            pl["hand"] += pl["discard"]
            pl["discard"] = []
        elif k == "reclaim1":
            if pl["discard"]:
                stack.append({"k": "reclaim"})
        elif k == "gain":
            stack.append({"k": "deck", "n": part.get("n", 1)})
        elif k == "resources":
            pl["res"] += part["n"]
            B.add_fact(facts, "track", msg("The {seat} gain {resources} (refit).", seat=T.SEAT[seat],
                                           resources=T.count(part["n"], "resource")), seat=seat,
                       track="resources", delta=part["n"], value=pl["res"], cause=msg("refit"),
                       deltas={f"resources_{seat}": part["n"]})
        elif k == "presence":
            stack.append({"k": "presence", "range": part["range"]})
        elif k == "base_g":
            stack.append({"k": "base_g"})

    def _add_presence(self, state, seat, tid, row, facts) -> None:
        pl = state["pl"][seat]
        pl["open"][row] += 1
        t = state["tiles"][tid]
        before = t["pres"].get(seat, 0)
        t["pres"][seat] = before + 1
        B.add_fact(facts, "presence", msg("The {seat} add presence in {tile} (a circle of the {row} row uncovered).",
                                          seat=T.SEAT[seat], tile=B.tname(tid), row=T.ROW[row]),
                   seat=seat, tile=tid, delta=1, row=row, deltas=B.pres_deltas(seat, before, before + 1))

    def _place_g(self, state, seat, tid, n, facts, cause) -> int:
        n = min(n, B.g_supply(state, seat))
        if n <= 0:
            return 0
        gs = state["tiles"][tid]["gs"]
        gs[seat] = gs.get(seat, 0) + n
        B.add_fact(facts, "recruit", msg("The {seat} gain {gs} in {tile} ({cause}).", seat=T.SEAT[seat],
                                         gs=T.count(n, "guerrilla"), tile=B.tname(tid), cause=cause),
                   seat=seat, tile=tid, n=n, deltas=B.g_deltas(seat, n))
        return n
