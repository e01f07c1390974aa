"""What each seat sees (hidden information), the metrics an AAR plots, and the static board.

A mixin of :class:`engine.scenarios.tears_of_tyranny.game.TearsOfTyranny` (issue 16.9: the
rules split by rulebook section). Methods keep their rule numbers in their docstrings."""

from __future__ import annotations

from engine.core.messages import msg
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny.data import SEAT_ORDER, THRESHOLD, content
from engine.scenarios.tears_of_tyranny.panel import (
    attributes,
    income,
    plays_limit,
)

C = content()


class ViewsMixin:
    def view(self, state, seat) -> dict:
        tiles = {tid: {"units": [list(u) for u in t["u"]], "red": t["red"], "blue": t["blue"], "tyranny": t["tyr"],
                       "guerrillas": dict(t["gs"]), "bases": [list(b) for b in t["bases"]], "presence": dict(t["pres"]),
                       "defense_bonus": t["def"], "prevented": list(t["prev"]),
                       "protected": bool(t["def"] or t["prev"])}
                 for tid, t in state["tiles"].items()}
        players = {}
        for s in state["seats"]:
            pl = state["pl"][s]
            d = {"resources": pl["res"], "open": dict(pl["open"]), "income": income(pl, s),
                 "card_plays": plays_limit(pl, s), "played": list(pl["played"]), "discard": list(pl["discard"]),
                 "attributes": attributes(pl, s), "hand_count": len(pl["hand"]), "used": list(pl["used"]),
                 "presence_on_map": B.presence_total(state, s)}
            if seat is None or seat == s:
                d["hand"] = list(pl["hand"])
            players[s] = d
        inf = state["inf"]
        v = {
            "turn": state["turn"], "phase": state["phase"], "seats": list(state["seats"]), "quadrants": dict(state["quad"]),
            "tiles": tiles, "players": players,
            "influence": {"earned": inf["earned"], "box": inf["cap"], "level": inf["level"], "cards_earned": inf["n_earned"],
                          "cards_waiting": len(inf["queue"]), "cards_played": list(inf["played"]),
                          "deck_count": len(inf["deck"]), "total": inf["total"]},
            "tyranny": {"on_map": B.tyranny_on_map(state), "pool": state["tyr_pool"], "removed": state["tyr_gone"],
                        "state": B.tyranny_state(state), "threshold": B.threshold(state)},
            "boxes": {k: state["boxes"][k] for k in ("deploy", "develop", "dominate", "terrain_discard", "event_discard")},
            "decks": {k: len(v) for k, v in state["decks"].items()},
            "terrain_next_stage": C.terrain[state["decks"]["terrain"][0]]["stage"] if state["decks"]["terrain"] else None,
            "options": {k: v for k, v in state["opts"].items()},
            "result": state["result"],
        }
        if seat is None or seat in state["frames"]:
            for s in ([seat] if seat else state["seats"]):
                fr = [f for f in state["frames"].get(s, []) if f["k"] in ("keep", "bottom")]
                if fr:
                    v.setdefault("drawn", {})[s] = list(fr[-1]["drawn"] if fr[-1]["k"] == "keep" else fr[-1]["cards"])
        return v

    def metrics(self, state) -> dict:
        # One pass over the tiles (issue 20: a choice's preview reads the metrics twice, so the
        # play page computed them some fifty times a position, one pass per figure each time).
        inf = state["inf"]
        seats = state["seats"]
        tiles = state["tiles"]
        tyr = bases = red = blue = guerrillas = 0
        units = {"cell": 0, "outpost": 0, "garrison": 0}
        pres = dict.fromkeys(seats, 0)
        gs = dict.fromkeys(seats, 0)
        for t in tiles.values():
            tyr += t["tyr"]
            bases += len(t["bases"])
            red += t["red"]
            blue += t["blue"]
            for u in t["u"]:
                if u[0] in units:
                    units[u[0]] += 1
            for s, n in t["gs"].items():
                guerrillas += n
                if s in gs:
                    gs[s] += n
            for s, n in t["pres"].items():
                if s in pres:
                    pres[s] += n
        hq = dict.fromkeys(seats, 0)
        for tid in state["order"]:
            for s, n in tiles[tid]["pres"].items():
                if n >= 2 and s in hq:
                    hq[s] += 1
        threshold = B.threshold(state)
        m = {
            "turn": state["turn"],
            "influence_earned": inf["earned"], "influence_level": inf["level"],
            "influence_cards_earned": inf["n_earned"], "influence_cards_played": len(inf["played"]),
            # 3.D: tyranny when the tokens on the map reach the threshold (B.tyranny_state)
            "tyranny_on_map": tyr, "tyranny_pool": state["tyr_pool"],
            "tyranny_removed": state["tyr_gone"], "tyranny_state": 1 if tyr >= threshold else 0,
            # 3.D: the threshold for this player count; total = every token the game began with
            "tyranny_threshold": threshold,
            "tyranny_total": tyr + state["tyr_pool"] + state["tyr_gone"],
            "adversary_cells": units["cell"], "adversary_outposts": units["outpost"],
            "adversary_garrisons": units["garrison"],
            "guerrillas": guerrillas,
            "bases": bases,
            "civilians_red": red,
            "civilians_blue": blue,
            "civilians_killed": state["stats"]["civilians_killed"],
        }
        for s in seats:
            m[f"presence_{s}"] = pres[s]
            m[f"hq_{s}"] = hq[s]
            m[f"resources_{s}"] = state["pl"][s]["res"]
            m[f"guerrillas_{s}"] = gs[s]
        return m

    # preview (contract v2): by trial (Rules.previews); None when a fact is a barrier (a card
    # drawn or revealed, a die rolled: the adversary phase a last ``done`` sets off draws its
    # event card) or private to a seat (``visible_to``)
    previews_by_trial = True

    def board_map(self):
        from engine.scenarios.tears_of_tyranny.board_view import board_map
        return board_map()

    def board_view(self, state, seat):
        from engine.scenarios.tears_of_tyranny.board_view import board_view
        return board_view(self, state, seat)

    def board_view_of(self, view, seat):
        from engine.scenarios.tears_of_tyranny.board_view import from_view
        return from_view(view, seat)

    def catalog(self) -> dict:
        """Contract v2: the game's authored content as messages (data-file texts are templates
        without fields), for the translation catalogs: capability, event and influence cards with
        their texts, tile, septet and coast names, panels, scenarios."""
        cards = [{"id": cid, "title": msg(c["title"]), "text": msg(c["text"])} for cid, c in C.cards.items()]
        cards += [{"id": eid, "title": msg(e["title"]), **{f"text_{k}": msg(v) for k, v in e["text"].items()}}
                  for eid, e in C.events.items()]
        cards += [{"id": iid, "title": msg(c["title"]), **{f"text_{k}": msg(v) for k, v in c["text"].items()}}
                  for iid, c in C.influence.items()]
        names = [{"id": tid, "name": msg(C.tiles[tid]["name"])} for tid in C.tile_ids]
        names += [{"id": f"septet:{x['septet_ref']}", "name": msg(x["name"])} for x in C.map["septets"]]
        names += [{"id": x["id"], "name": msg(x["name"])} for x in C.map["coast_border_pieces"]]
        panels = [{"id": seat, "title": msg(C.panels[seat]["title"]), "approach": msg(C.panels[seat]["approach"]),
                   "special_rules": [msg(r) for r in C.panels[seat].get("special_rules", [])]} for seat in C.panels]
        scenarios = [{"id": sid, "title": msg(x["title"]), "background": msg(x["background"]),
                      "victory_conditions": msg(x["victory_conditions"]),
                      "reasons": [msg(c["reason"]) for c in x.get("victory", [])]} for sid, x in C.scenarios.items()]
        from engine.scenarios.tears_of_tyranny.texts import catalog_names
        return {"cards": cards, "names": names, "panels": panels, "scenarios": scenarios,
                "glossary": self.glossary().to_catalog(),
                **catalog_names()}

    def victory_from(self, metrics: dict, view: dict) -> list:
        """4. Victory and defeat as progress (engine/core/victory.py), from public figures."""
        from .victory_status import conditions
        return conditions(metrics, (view or {}).get("influence") or {})

    def cards_played(self, state) -> int:
        """Capability cards paid for (3.D) + event cards + terrain cards drawn + influence cards executed."""
        st = state["stats"]
        return st["cards_played"] + st["events"] + st["terrain_cards"] + len(state["inf"]["played"])

    def board(self) -> dict:
        tiles = []
        for tid in C.tile_ids:
            t = C.tiles[tid]
            x, y = C.xy(tid)
            tiles.append({"id": tid, "name": t["name"], "septet": t["septet"], "septet_name": t["septet_name"], "quadrant": t["quadrant"],
                          "terrain": t["terrain"], "defense_modifier": t["defense_modifier"], "q": t["q"], "r": t["r"],
                          "x": x, "y": y, "coastal": t["coastal"], "edge": t["edge"], "infrastructure": t["infrastructure"],
                          "terrain_card_ref": t["terrain_card_ref"], "adjacent": list(C.adj[tid])})
        return {"hex": {"orientation": "pointy", "coords": "axial q,r; x,y in hex-size units"},
                "tiles": tiles, "coast_border_pieces": C.map["coast_border_pieces"],
                "layouts": {str(n): [t for t in C.tile_ids if C.tiles[t]["quadrant"] <= n] for n in (1, 2, 3, 4)},
                "tracks": {"influence_box": "4 tokens per player", "influence_levels": [1, 2, 3, 4],
                           "tyranny_pool": "5 tokens per player", "tyranny_threshold": THRESHOLD},
                "boxes": ["deploy", "develop", "dominate", "terrain_discard", "event_discard"],
                "panels": {s: {k: C.panels[s][k] for k in ("title", "color", "attributes", "track", "patrol", "special",
                                                          "force_management", "refit", "special_rules")}
                           for s in SEAT_ORDER}}
