"""The Peru :class:`~engine.core.contract.Rules`: setup, prompt, apply, view, metrics, result."""

from __future__ import annotations

from engine.core.contract import (
    IllegalChoice,
    OptionInfo,
    Prompt,
    Rules,
    SeatInfo,
    attribute,
    cause_facilitator,
    cause_rule,
)
from engine.core.flow import Flow
from engine.core.messages import msg

from . import events, ops, ops_gov, ops_sp, propaganda, sa_gov, sa_sp, sequence  # noqa: F401
from . import position as positions
from .data import (
    CAPTURED,
    CARDS,
    CONTROLLABLE,
    HIGHLAND,
    HUNT_BOXES,
    IDS,
    INITIATIVE_BOXES,
    LOCS,
    MAP,
    NAME,
    POP,
)
from .state import (
    GOV,
    GPICK_KIND,
    SP,
    SetupError,
    capture,
    cubes,
    d_location,
    guerrillas,
    new_state,
    rondas,
    track_fact,
)
from .texts import (
    CARD_SIDE_NAME,
    CARD_TEXT,
    CARD_TITLE,
    METRIC,
    OP,
    OP_HELP,
    SA,
    SA_HELP,
    SEAT,
    catalog_names,
)

#: 7.0 victory conditions, per faction
VICTORY = {
    GOV: msg("The Government wins at once if Political Will is 18 or more at a Political Will Phase, or at the end "
             "of the game if it is above 10 (7.0)."),
    SP: msg("The Shining Path wins at once if Political Will is 2 or less at a Political Will Phase, or at the end "
            "of the game if it is below 10 (7.0)."),
}

#: Tracks a facilitator may set (``Rules.adjust``): name -> (label, low, high). Aliases below.
ADJUSTABLE = {
    "political_will": ("Political Will", 0, 20),
    "government_resources": ("Government Resources", 0, 20),
    "shining_path_resources": ("Shining Path Resources", 0, 20),
    "hunt_track": ("Hunt Track", 0, CAPTURED),
}
ADJUST_ALIASES = {"pw": "political_will", "will": "political_will", "government": "government_resources",
                  "shining_path": "shining_path_resources", "hunt": "hunt_track",
                  "resources:government": "government_resources",
                  "resources:shining_path": "shining_path_resources"}
ADJUST_CAUSE = msg("facilitator override")
#: choices whose id names a secret (the Directives Base's space, 1.4.4): their facts' cause
#: names the choice without it
SECRET_CHOICES = ("swap:",)
LIMITED_OP_ENDS = cause_rule("2.3.4", msg("A Limited Operation ends after its one space"))


def _finish_definitions() -> None:
    """Names, help texts and costs of the Operations and Special Activities (one place)."""
    from .ops import OPS, SAS, gov_cost, sp_cost
    from .ops_sp import terror_cost

    space_cost = {   # Resources of the Operation's faction paid when the space is selected
        "sweep": lambda st, fr, sid: gov_cost(fr),
        "assault": lambda st, fr, sid: gov_cost(fr),
        "rally": lambda st, fr, sid: sp_cost(st, fr, sid, 1),
        "march": lambda st, fr, sid: sp_cost(st, fr, sid, 0 if sid in LOCS else 1),
        "attack": lambda st, fr, sid: sp_cost(st, fr, sid, 1),
        "terror": terror_cost,
    }
    for name, d in OPS.items():
        d.label = OP[name]
        d.op_help = OP_HELP[name]
        d.help = OP_HELP[name]
        d.space_cost = space_cost.get(name)
    for name, d in SAS.items():
        d.label = SA[name]
        d.help = SA_HELP[name]


_finish_definitions()

FLOW = Flow(ops.FRAME_KINDS + ops_sp.FRAME_KINDS + sequence.FRAME_KINDS + propaganda.FRAME_KINDS
            + events.FRAME_KINDS + [GPICK_KIND])


def _dc(v):
    """Fast deep copy of JSON values."""
    if isinstance(v, dict):
        return {k: _dc(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_dc(x) for x in v]
    return v


def _end_finished_limited_ops(state: dict, facts: list) -> None:
    """2.3.4: a Limited Operation has one space. Once it is chosen and resolved, and nothing
    else can be done there (no Special Activity left to add), the Operation ends by itself
    instead of waiting for an explicit ``done``."""
    while True:
        st = state["stack"]
        if not st:
            return
        fr = st[-1]
        if fr["k"] != "op" or not fr["lim"] or fr["ph"] != "main" or not fr["sel"]:
            return
        a = FLOW.ask(state)
        if len(a.choices) != 1 or a.choices[0].id != "done":
            return
        start = len(facts)
        ops.end_op(state, fr, facts)
        attribute(facts, LIMITED_OP_ENDS, start)
        FLOW.settle(state, facts)


class PeruRules(Rules):
    key = "peru"
    title = "The Guerrilla Generation: Peru (1982-1992)"
    seats = (SeatInfo(GOV, "Government", "#0072B2"), SeatInfo(SP, "Shining Path", "#D55E00"))
    min_players = 1
    max_players = 2
    texts_are_messages = True  # contract v2: every prompt, label and fact text is a message

    # ---------------------------------------------------------------- lifecycle
    def setup(self, seed: int, options: dict | None = None) -> dict:
        """2.1 setup, or (``options["position"]``) the described position (docs/scenarios/peru-position.md)."""
        options = dict(options or {})
        unknown = set(options) - {"deck", "deck_top", "script", "players", "position", "campaigns"}
        if unknown:
            raise SetupError(msg("Unknown option for this game: {names}", names=", ".join(sorted(unknown))),
                             sorted(unknown)[0])
        if "position" in options and ("deck" in options or "deck_top" in options):
            raise SetupError(msg("A position gives its own deck: leave out the deck options."), "position.deck")
        if "campaigns" in options and ("position" in options or "deck" in options):
            raise SetupError(msg("Campaigns build the deck: leave out the whole deck order and the position."),
                             "campaigns")
        state = new_state(seed, options)
        state["stack"] = [{"k": "next"}, {"k": "swap"}]
        if "position" in options:
            positions.build(state, options["position"], state["rng"])
        facts: list = []
        FLOW.settle(state, facts)
        return state

    def position(self, state: dict) -> dict:
        """The current position (docs/scenarios/peru-position.md); hidden parts included."""
        return positions.export(state)

    def position_schema(self) -> dict:
        return positions.schema()

    # preview (contract v2): by trial (Rules.previews); None as soon as a fact reveals randomness
    # or hidden information (a barrier: die roll, card drawn, Base revealed, secret placement)
    previews_by_trial = True

    def catalog(self) -> dict:
        """Cards, names and victory conditions as messages (the i18n extractor reads them)."""
        cards = []
        for cid, c in CARDS.items():
            d = {"id": cid, "title": CARD_TITLE[cid], "kind": c["kind"]}
            for side in ("top", "bottom"):
                if c.get(side):
                    d[side] = {"name": CARD_SIDE_NAME[(cid, side)], "text": CARD_TEXT[(cid, side)],
                               "rule": c[side]["rule"]}
            cards.append(d)
        return {"cards": cards, "names": catalog_names(), "victory": VICTORY, "metrics": METRIC,
                "seats": [{"id": s.id, "title": SEAT[s.id]} for s in self.seats],
                "glossary": self.glossary().to_catalog()}

    def prompt(self, state: dict) -> Prompt | None:
        a = FLOW.ask(state)
        if a is None:
            return None
        fr = state["stack"][-1]
        tn = state.get("tn", 0)
        if a.seat != state.get("ls"):
            tn += 1
        kind = fr["k"] if fr["k"] not in ("op", "sa") else f"{fr['k']}:{fr.get('op') if fr['k'] == 'op' else fr['sa']}"
        return Prompt(seats=(a.seat,), text=a.text, rule=a.rule, choices=a.choices, kind=kind,
                      turn=f"{len(state['played'])}:{a.seat}:{tn}", context=a.context)

    def apply_unchecked(self, state: dict, seat: str, choice_id: str) -> list:
        facts: list = []
        if seat != state.get("ls"):
            state["tn"] = state.get("tn", 0) + 1
            state["ls"] = seat
        state["n"] += 1
        FLOW.act(state, choice_id, facts, seat,
                 choice_id.split(":", 1)[0] if choice_id.startswith(SECRET_CHOICES) else None)
        _end_finished_limited_ops(state, facts)
        return facts

    def adjust(self, state: dict, track: str, value) -> list:
        """A facilitator's override: set one track (Political Will, either Resources, the Hunt
        Track) to ``value`` within its printed bounds. Validated before anything changes, so an
        error leaves the state untouched. Moving the Hunt marker into Captured captures Guzman
        (6.7.2) exactly as a roll would; once Guzman is captured the Hunt Track is fixed."""
        name = str(track).strip().lower() if isinstance(track, str) else ""
        name = ADJUST_ALIASES.get(name, name)
        if name not in ADJUSTABLE:
            raise IllegalChoice(f"Peru has no adjustable track {track!r} (known: {', '.join(ADJUSTABLE)}).",
                                code="unknown_track")
        label, lo, hi = ADJUSTABLE[name]
        v = value
        if isinstance(v, str) and v.strip().lstrip("-").isdigit():
            v = int(v.strip())
        if isinstance(v, bool) or not isinstance(v, int):
            raise IllegalChoice(f"{label} takes a whole number from {lo} to {hi} (asked: {value!r}).",
                                code="bad_value")
        if not lo <= v <= hi:
            raise IllegalChoice(f"{label} must stay within {lo}-{hi} (asked: {v}).", code="out_of_range")
        if state.get("over") is not None:
            raise IllegalChoice("The game is over: its tracks can no longer be adjusted.", code="game_over")
        if name == "hunt_track" and state["captured"]:
            raise IllegalChoice("Guzman is already captured: the Hunt Track can no longer be adjusted.",
                                code="out_of_range")
        facts: list = []
        if name == "political_will":
            old = state["pw"]
            state["pw"] = v
        elif name == "hunt_track":
            old = state["hunt"]
            state["hunt"] = v
        else:
            seat = GOV if name == "government_resources" else SP
            old = state["res"][seat]
            state["res"][seat] = v
        f = track_fact(name, old, v, ADJUST_CAUSE)
        f["text"] = msg("{track} set from {old} to {value} ({why})", track=f["text"]["args"]["track"], old=old, value=v,
                        why=ADJUST_CAUSE)
        facts.append(f)
        if name == "hunt_track" and v >= CAPTURED:
            capture(state, facts)
        return attribute(facts, cause_facilitator(ADJUST_CAUSE))

    def copy(self, state: dict) -> dict:
        n = dict(state)
        n["s"] = {k: dict(v) for k, v in state["s"].items()}
        n["avail"] = dict(state["avail"])
        n["res"] = dict(state["res"])
        r = dict(state["rng"])
        if "script" in r:
            r["script"] = {k: list(v) for k, v in r["script"].items()}
        n["rng"] = r
        n["deck"] = list(state["deck"])
        n["played"] = list(state["played"])
        n["caps"] = dict(state["caps"])
        n["held"] = dict(state["held"])
        n["elig"] = list(state["elig"])
        n["boxes"] = dict(state["boxes"])
        n["stack"] = _dc(state["stack"])
        if state.get("over") is not None:
            n["over"] = dict(state["over"])
        if "last_sel" in state:
            n["last_sel"] = list(state["last_sel"])
        return n

    def serialize(self, state: dict) -> dict:
        return _dc(state)

    def deserialize(self, data: dict) -> dict:
        if not isinstance(data, dict) or data.get("v") != 1 or "s" not in data:
            raise ValueError("Not a Peru state (version 1).")
        return _dc(data)

    # ---------------------------------------------------------------- what seats see
    def view(self, state: dict, seat: str | None) -> dict:
        """Public position plus the seat's own secrets. The Government never sees where the
        Directives Base is until it is revealed; nobody sees the deck order or the RNG."""
        show_d = seat in (None, SP) or state["d_revealed"]
        spaces = {}
        for sid in IDS:
            sp = state["s"][sid]
            d = {"troops": sp["T"], "police": sp["P"], "rondas_underground": sp["Ru"], "rondas_active": sp["Ra"],
                 "guerrillas_underground": sp["Gu"], "guerrillas_active": sp["Ga"], "bases": sp["B"] + sp["D"],
                 "support": sp["sup"], "terror": sp["ter"], "sabotage": sp["sab"], "emergency_zone": bool(sp["ez"]),
                 "control": {"G": GOV, "S": SP, "": None}[sp["ctl"]]}
            if show_d:
                d["directives_base"] = bool(sp["D"])
            spaces[sid] = d
        v = {
            "scenario": self.key, "seat": seat, "spaces": spaces,
            "political_will": state["pw"], "resources": dict(state["res"]), "hunt": state["hunt"],
            "hunt_boxes": len(HUNT_BOXES), "captured": state["captured"],
            "available": {"troops": state["avail"]["T"], "police": state["avail"]["P"],
                          "rondas_box": state["avail"]["R"], "guerrillas": state["avail"]["G"],
                          "bases": state["avail"]["B"]},
            "directives_box_bases": state["dbox"], "directives_base_on_map": not state["d_home"],
            "directives_revealed": state["d_revealed"],
            "current_card": state["card"], "played": list(state["played"]), "deck_count": len(state["deck"]),
            "president": state["president"], "capabilities": dict(state["caps"]),
            "held": {k: v for k, v in state["held"].items() if v},
            "eligibility": {"first": state["elig"][0], "second": state["elig"][1]},
            "initiative": dict(state["boxes"]), "over": state["over"],
        }
        v["directives_base"] = d_location(state) if show_d else None
        return v

    def metrics(self, state: dict) -> dict[str, float]:
        s = state["s"]
        return {
            "political_will": state["pw"],
            "government_resources": state["res"][GOV],
            "shining_path_resources": state["res"][SP],
            "hunt_track": state["hunt"],
            "guzman_captured": 1 if state["captured"] else 0,
            "government_control_population": sum(POP[x] for x in CONTROLLABLE if s[x]["ctl"] == "G"),
            "shining_path_control_population": sum(POP[x] for x in CONTROLLABLE if s[x]["ctl"] == "S"),
            "highland_support_population": sum(POP[x] for x in HIGHLAND if s[x]["sup"] > 0),
            "highland_opposition_population": sum(POP[x] for x in HIGHLAND if s[x]["sup"] < 0),
            "bases_on_map": sum(sp["B"] + sp["D"] for sp in s.values()),
            "guerrillas_on_map": sum(guerrillas(sp) for sp in s.values()),
            "troops_on_map": sum(sp["T"] for sp in s.values()),
            "police_on_map": sum(sp["P"] for sp in s.values()),
            "cubes_on_map": sum(cubes(sp) for sp in s.values()),
            "rondas_on_map": sum(rondas(sp) for sp in s.values()),
            "terror_markers": sum(sp["ter"] for sp in s.values()),
            "sabotage_markers": sum(sp["sab"] for sp in s.values()),
            "emergency_zones": sum(sp["ez"] for sp in s.values()),
            "cards_played": len(state["played"]),
        }

    def result(self, state: dict) -> dict | None:
        o = state["over"]
        if o is None:
            return None
        w = o["winner"]
        margin = o["political_will"] - 10
        ranking = [w, SP if w == GOV else GOV] if w else [GOV, SP]
        return {"winner": w, "tie": w is None, "ranking": ranking, "reason": o["reason"],
                "political_will": o["political_will"],
                "margins": {GOV: margin, SP: -margin}}

    # ---------------------------------------------------------------- static data
    def presets(self) -> list:
        from .presets import presets
        return presets()

    def options(self) -> list[OptionInfo]:
        return [
            OptionInfo("deck_top", "Fixed top of the deck", "json", None,
                       help='Card ids from the top, e.g. ["P36","P9","P8","P12","P33","P18","P38"]; the rest of '
                            "the deck is built by the Setup rules from the other cards."),
            OptionInfo("deck", "Whole deck order", "json", None, help="Every card id from top to bottom."),
            OptionInfo("campaigns", "Campaigns", "int", 3, choices=(1, 2, 3),
                       help="Classroom variant, not a rulebook rule: build only this many of the "
                            "three 9-card piles (2.1). The last pile always ends with the final card "
                            "(Chairman Gonzalo, 2.4.2), so the game ends with the final victory check "
                            "(7.0.2). 3 is the rulebook game."),
            OptionInfo("script", "Scripted dice", "json", None,
                       help='Forced results by tag: {"hunt":[4,5], "attack":[2], "rondas":[2,1,4], "event":[3], '
                            '"base":[1]}. Once a tag runs out, dice are random again.'),
        ]

    def board(self) -> dict:
        spaces = [{"id": s["id"], "name": s["name"], "kind": s["kind"], "terrain": s["terrain"],
                   "population": s["population"], "econ": s["econ"], "adjacent": list(s["adjacent"]),
                   "x": s["x"], "y": s["y"]} for s in MAP["spaces"]]
        return {
            "spaces": spaces,
            "edges": [[e["a"], e["b"]] for e in MAP["edges"]],
            "tracks": {"edge": {"min": 0, "max": 20, "markers": ["political_will", "government_resources",
                                                                  "shining_path_resources"]},
                       "hunt": [{"index": b["index"], "label": b["label"], "target": b["target"]}
                                for b in HUNT_BOXES],
                       "initiative": list(INITIATIVE_BOXES)},
            "seats": [{"id": s.id, "title": s.title, "color": s.color} for s in self.seats],
            "cards": {cid: {"title": c["title"], "kind": c["kind"], "top": c["top"], "bottom": c.get("bottom")}
                      for cid, c in CARDS.items()},
            "names": dict(NAME),
            "locs": sorted(LOCS),
        }

    def board_map(self):
        from engine.scenarios.peru.board_view import board_map
        return board_map()

    def board_view(self, state, seat):
        from engine.scenarios.peru.board_view import board_view
        return board_view(self, state, seat)

    def board_view_of(self, view, seat):
        from engine.scenarios.peru.board_view import from_view
        return from_view(view, seat)

    def victory_from(self, metrics: dict, view: dict) -> list:
        from .victory_status import conditions
        return conditions(metrics)

    def cards_played(self, state: dict) -> int:
        return len(state["played"])

    def bot_kinds(self) -> dict:
        from .bots import HeuristicBot
        return {"heuristic": HeuristicBot}
