"""The engine contract for Andean Abyss (ARCHITECTURE.md, "The engine contract").

Choice ids (stable; see docs/rules-notes/andean-abyss.md, "Choice ids"):

``pass``, ``event``, ``event:unshaded``, ``event:shaded``, ``op:<train|patrol|sweep|assault|rally|march|attack|
terror>``, ``sa:<airlift|airstrike|eradicate|extort|kidnap|assassinate|cultivate|process|bribe>``,
``space:<space id>``, ``from:<space id>``, ``target:<faction or piece key>``, ``piece:<piece key>``,
``mix:<troops>-<police>``, ``u:<n>``/``a:<n>`` (March group), ``n:<n>``, ``many:<n>``, ``place``, ``base``,
``regroup``, ``attack``, ``ambush``, ``ship:<op>``/``noship``, ``res``, ``level:<1|-1>``, ``alt:<key>``,
``faction:<faction>``, ``place|remove|flip:<space>:<piece>``, ``ship:<space>:<owner>`` (which Shipment),
``take:<space>[:<piece>]`` (1.4.1), ``give``/``to:<faction>``/``ask:<faction>`` (1.5.2), ``done``,
``none``, ``np:act``.
"""

from __future__ import annotations

import pickle

from engine.core.contract import IllegalChoice, OptionInfo, Prompt, Rules, SeatInfo

# Importing a module registers its frame kinds and policies (frames.FLOW, frames.POLICIES): a
# restored state may stand inside any frame, so every module that declares one is imported here.
from . import (  # noqa: F401
    event_cards_01_40,
    event_cards_41_65,
    event_cards_66_72,
    event_frames,
    events,
    np_bot,
    np_policy,
    np_turn,
    operation,
    ops_govt,
    ops_insurgent,
    positions,
    propaganda,
    redeploy,
    sa_auc,
    sa_cartels,
    sa_farc,
    sa_govt,
    sequence,
    shipments,
    texts,
    transfers,
)
from . import pieces as P
from .board import ACTIVE, ALL_FACTIONS, FACTIONS, FNAME, PIECE_KEYS
from .board import BOARD as BD
from .choices import detailed
from .sequence import apply_choice, apply_directed, current_prompt, directed_choices
from .setup import setup
from .victory import metrics

# Okabe-Ito palette (colour-blind safe): blue, vermillion, yellow, bluish green
COLORS = {"govt": "#0072B2", "farc": "#D55E00", "auc": "#F0E442", "cartels": "#009E73"}


class AndeanAbyss(Rules):
    key = "andean_abyss"
    title = "Andean Abyss (COIN vol. I, 2nd ed.)"
    seats = tuple(SeatInfo(f, FNAME[i], COLORS[f]) for i, f in enumerate(FACTIONS))
    min_players = 1
    max_players = 4
    texts_are_messages = True  # contract v2: every prompt, label and fact text is a message (issue 15)

    def __init__(self) -> None:
        self._pc = None

    # ------------------------------------------------------------------ contract
    def setup(self, seed: int, options: dict | None = None) -> dict:
        return setup(seed, options)

    def prompt(self, state: dict) -> Prompt | None:
        c = self._pc
        if c is not None and c[0] is state and c[1] == state["seq"]:
            return c[2]
        cp = current_prompt(state)
        if cp is None:
            p = None
        else:
            fr, text, rule, chs = cp
            seat = state["ctl"][fr["f"]]
            if not chs:
                raise RuntimeError(f"engine error: frame {fr['k']} waits without choices")
            turn = f"{state['cards_played']}:{FACTIONS[fr['f']]}"
            p = Prompt(seats=(seat,), text=text, rule=rule, choices=detailed(state, fr, rule, chs), kind=fr["k"], turn=turn,
                       context={"faction": FACTIONS[fr["f"]], "card": state["cur"], "next": state["nxt"]})
        self._pc = (state, state["seq"], p)
        return p

    def apply_unchecked(self, state: dict, seat: str, choice_id: str) -> list:
        return apply_choice(state, seat, choice_id)

    def copy(self, state: dict) -> dict:
        return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))

    def view(self, state: dict, seat: str | None) -> dict:
        v = {
            "card": state["cur"], "next": state["nxt"], "deck_size": len(state["deck"]),
            "propaganda_played": state["props_done"], "propaganda_total": state["props_total"],
            "cards_played": state["cards_played"],
            "spaces": {BD.ids[i]: {PIECE_KEYS[k]: n for k, n in enumerate(state["pc"][i]) if n}
                       for i in P.spaces(state)},
            "support": {BD.ids[i]: s for i, s in enumerate(state["sup"]) if s},
            "terror": {BD.ids[i]: n for i, n in enumerate(state["ter"]) if n},
            "sabotage": [BD.ids[i] for i, n in enumerate(state["sab"]) if n],
            "farc_zones": [BD.ids[i] for i in state["zones"]],
            "available": {PIECE_KEYS[k]: n for k, n in enumerate(state["av"]) if k not in ACTIVE},
            "out_of_play": {PIECE_KEYS[k]: n for k, n in enumerate(state["oop"]) if n},
            "resources": {FACTIONS[f]: state["res"][f] for f in ALL_FACTIONS}, "aid": state["aid"],
            "el_presidente": ("samper", "pastrana", "uribe")[state["pres"]],
            "capabilities": dict(state["caps"]), "momentum": list(state["mom"]),
            "shipments": [{"space": BD.ids[s[0]], "owner": FACTIONS[s[1]]} for s in state["ship"]],
            "eligible": {FACTIONS[f]: state["elig"][f] for f in ALL_FACTIONS},
            "ecuador_is_space": "ecuador" in state["foreign"], "panama_is_space": "panama" in state["foreign"],
            "control": {BD.ids[i]: P.control(state, i) for i in P.spaces(state) if P.control(state, i)},
            "seats": {FACTIONS[f]: state["ctl"][f] for f in ALL_FACTIONS},
            "nonplayers": [FACTIONS[f] for f in state["np"]],
            "metrics": self.metrics(state), "result": state["over"],
        }
        p = self.prompt(state)
        if p is not None:
            v["prompt"] = p.to_dict(seat)
        return v

    def metrics(self, state: dict) -> dict:
        return metrics(state)

    def result(self, state: dict) -> dict | None:
        return state["over"]

    def serialize(self, state: dict) -> dict:
        return self.copy(state)

    def deserialize(self, data: dict) -> dict:
        st = self.copy(data)
        st["ship"] = [list(s) for s in st["ship"]]
        return st

    # preview (contract v2): by trial (Rules.previews); None for a card drawn, a die rolled or a
    # private fact, and never for a Non-player's section-8 act (``preview_refused``)
    previews_by_trial = True

    def preview_refused(self, choice_id: str) -> bool:
        return choice_id == "np:act"   # a Non-player's flowchart may roll dice and draw spaces

    # ------------------------------------------------------------------ directing a Non-player
    def directable(self, state: dict, seat: str) -> list:
        """Section 8 set aside by the facilitator: the legal decisions ``seat``'s Non-player
        may be directed to take now (empty when none of its decisions waits)."""
        p = self.prompt(state)
        if p is None or seat not in p.seats:
            return []
        return list(detailed(state, state["stack"][-1], p.rule, directed_choices(state)))

    def apply_directed(self, state: dict, seat: str, choice_id: str, reason) -> list:
        if not self.directable(state, seat):
            raise IllegalChoice(f"No decision of a Non-player on seat {seat} waits now.", code="not_directable")
        return apply_directed(state, choice_id, reason)

    # ------------------------------------------------------------------ positions (contract v2)
    def position(self, state: dict) -> dict:
        """The position in the shape ``setup(seed, {"position": ...})`` accepts (positions.py)."""
        return positions.describe(state)

    def position_schema(self) -> dict:
        return positions.schema()

    def catalog(self) -> dict:
        """The 72 cards (both sides), spaces, Factions, pieces and other names as messages."""
        return {**texts.catalog(self.seats), "glossary": self.glossary().to_catalog()}

    # ------------------------------------------------------------------ extras
    def options(self) -> list:
        return [
            OptionInfo("scenario", "Scenario", "choice", "full", ("full", "short", "quick"),
                       "Full game (4 Propaganda), short game (3rd Propaganda final, 2.4.1) or Quick-Play."),
            OptionInfo("deployment", "Deployment", "choice", "standard", ("standard", "open"),
                       "2.1: Standard Deployment, or Open Deployment (player Factions place their own forces)."),
            OptionInfo("players", "Players", "int", 4, (1, 2, 3, 4), "Number of human players (1.5)."),
            OptionInfo("spare", "Leftover Factions", "choice", "pair", ("pair", "nonplayer"),
                       "1.5.1 pairing (3p: AUC runs Cartels; 2p: Govt+AUC vs FARC+Cartels) or section-8 Non-players."),
            OptionInfo("nonplayers", "Non-player Factions", "json", [], (),
                       "Explicit list of Factions run by section 8 (overrides the defaults)."),
            OptionInfo("third", "3rd player's Faction", "choice", "auc", ("auc", "cartels"),
                       "3 players: the 3rd player plays the AUC (default) or the Cartels (1.5)."),
            OptionInfo("solo", "Solo Faction", "choice", "govt", ("govt", "farc"), "1 player: the Faction played."),
            OptionInfo("transfers", "Transfers", "bool", True, (),
                       "1.5.2: players may give Resources or Shipments while executing an Operation."),
            OptionInfo("seeded", "Seeded Propaganda", "bool", False, (), "Propaganda among the last 6 cards of each pile."),
            OptionInfo("deck", "Fixed deck order", "json", None, (),
                       "List of card numbers, 'P' for Propaganda; the first is played first, the second is next."),
            OptionInfo("script", "Scripted dice", "json", None, (),
                       "Forced RNG results by tag, e.g. {\"die\": [3, 5]} (rulebook examples)."),
        ]

    def active_seats(self, state: dict) -> list:
        out = []
        for f in ALL_FACTIONS:
            s = state["ctl"][f]
            if s not in out:
                out.append(s)
        return out

    def bot_kinds(self) -> dict:
        from .np_bot import NonPlayerBot
        return {"nonplayer": NonPlayerBot}

    def presets(self) -> list:
        from .presets import presets
        return presets()

    def options_for_bots(self, kind: str) -> dict:
        # Every seat a "nonplayer" bot: all four Factions are Non-players under section 8 (their
        # Event restrictions, 8.1-8.4, apply), not player seats that happen to be run by the bot.
        return {"nonplayers": list(FACTIONS)} if kind == "nonplayer" else {}

    def board(self) -> dict:
        sp = []
        for i, s in enumerate(BD.spaces):
            d = {"id": s["id"], "name": s["name"], "label": s["label"], "kind": s["kind"], "x": s["x"], "y": s["y"],
                 "adjacent": [BD.ids[j] for j in BD.adj_all[i]], "coastal": s["coastal"]}
            for k in ("pop", "terrain", "econ", "loc_type", "conditional"):
                if k in s:
                    d[k] = s[k]
            sp.append(d)
        return {"spaces": sp, "towns": BD.raw_map["towns"],
                "tracks": {"resources": [0, 99], "aid": [0, 29], "total_support": [0, 80],
                           "opposition_plus_bases": [0, 89]},
                "factions": [{"id": f, "name": FNAME[i], "color": COLORS[f]} for i, f in enumerate(FACTIONS)]}

    def board_map(self):
        from engine.scenarios.andean_abyss.board_view import board_map
        return board_map()

    def board_view(self, state, seat):
        from engine.scenarios.andean_abyss.board_view import board_view
        return board_view(self, state, seat)

    def board_view_of(self, view, seat):
        from engine.scenarios.andean_abyss.board_view import from_view
        return from_view(view, seat)

    def victory_from(self, metrics: dict, view: dict) -> list:
        from .victory_status import conditions
        return conditions(metrics)

    def cards_played(self, state: dict) -> int:
        return state["cards_played"]

    def is_over(self, state: dict) -> bool:
        return state["over"] is not None


__all__ = ["AndeanAbyss", "IllegalChoice"]
