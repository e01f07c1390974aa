"""Tears of Tyranny: setup (2), sequence of play (3) and victory (4) as a stack of frames.

Flow. Each seat has its own stack of frames during the two simultaneous windows:

* **player window** (phases 1-2, A-30): [Partisan roll ->] refit (3.A) -> gain resources (3.B,
  automatic) -> base output (A-42, automatic) -> force management (3.C) -> select capabilities
  (3.D) -> execute immediate capabilities (phase 2) -> done;
* **long-term window** (phase 4): Advisors' force management (A-39) -> execute long-term
  capabilities -> done.

The prompt lists every seat whose stack is not empty, each with its own choices
(``Prompt.seat_choices``); seats submit in any order and each decision resolves atomically.
Each seat ends its part with its own ``done``; when every stack is empty the engine runs the
adversary phase (3.D-3.I) or the end of turn. The adversary phase asks two kinds of questions:
the escalation tile (3.F "chosen by player consensus", A-13: any seat proposes ``esc:<tile>``,
every other seat answers ``agree`` / ``object``, both as multi-seat prompts) and the Partisans'
optional HQ shield (A-51, single-seat).

Choice ids (stable; one id = one decision spoken at the table):

=====================================  =========================================================
``hq:<tile>``                          place the starting HQ (2.C)
``presence:<tile>:<row>``              add 1 presence, uncovering the leftmost circle of
                                       ``resources`` or ``plays``
``refit:<option>``                     take a refit option of the panel (3.A)
``deck:major`` / ``deck:minor``        gain capability: the deck to draw 4 from
``keep:<card>`` / ``forget:<card>``    keep a drawn card / forget a card after keeping a major
``reclaim:<card>``                     take one spent card back (RECLAIM 1)
``base_g:<tile>``                      Liberators: gain 1 G at that base (A-40)
``recruit:<tile>`` ``base:<tile>``     force management (3.C)
``upkeep:<tile>`` / ``disband:<tile>`` end of turn: pay 1 resource for, or disband, one G over 4
                                       in that tile (A-46)
``produce:<tile>``                     Comrades: pay for 1 G of base output there (A-42), or ``done``
``into:<tile>``                        Liberators: pull the G just recruited next to their presence
                                       into a presence tile (A-48), or ``skip``
``convert:<tile>``
``play:<card>``                        select and pay a capability card (3.D)
``exec:<card>`` ``patrol`` ``special`` execute a capability (phase 2 or 4)
``tile:<tile>``                        the target tile of the capability being executed
``pull:<piece>:<from>``                pull one piece (own_g, cell, outpost, garrison, red, blue)
``push:<piece>:<to>``                  push one piece; ``own_g+p`` / ``blue+p`` take one of your
                                       presence along (A-43)
``row:resources`` / ``row:plays``      which track row a presence from a card uncovers
``hit:<unit>``                         assign attack damage to a cell, outpost or garrison
                                       (A-57; asked only when the choice matters)
``civ:red`` / ``civ:blue``             collateral damage: the colour of the next civilian killed
                                       (A-25; asked only when some, not all, of a mixed crowd die)
``drive:<tile>``                       Advisors: the neighbouring tile a displaced unit is driven
                                       into (A-28; asked when there is more than one)
``esc:<tile>``                         escalation: propose the adjacent tile for the extra token
                                       (A-13; any seat)
``agree`` / ``object``                 escalation: the other seats confirm the proposal or strike
                                       the tile off (A-13)
``shield`` / ``decline``               Partisans' HQ shield (A-51)
``cover:resources`` / ``cover:plays``  Partisans: the track row a returned presence token covers
                                       (A-44; asked when both rows have a circle to cover)
``skip`` ``stop`` ``done``             pass / stop moving / end this step
=====================================  =========================================================
"""

from __future__ import annotations

import json

from engine.core import rng as R
from engine.core.contract import Choice, OptionInfo, Prompt, Rules, SeatInfo
from engine.scenarios.tears_of_tyranny import adversary as ADV
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny.data import SEAT_ORDER, THRESHOLD, content

C = content()
ROWS = ("resources", "plays")
VAL = {"cell": 1, "outpost": 2, "garrison": 3}


# ---- panel arithmetic (1.E.i) -----------------------------------------------------------------

# the steps of a seat's player window, in the rulebook's order (3.A-3.D); the seat takes them in
# any order (3: "in the order of their choosing")
WINDOW_STEPS = ("roll", "refit", "income", "produce", "fm", "select")


def income(pl: dict, seat: str) -> int:
    row = C.panels[seat]["track"]["resources"][:pl["open"]["resources"]]
    return max(v for v in row if isinstance(v, int))


def plays_limit(pl: dict, seat: str) -> int:
    row = C.panels[seat]["track"]["plays"][:pl["open"]["plays"]]
    if "unlimited" in row:
        return 99
    return max(v for v in row if isinstance(v, int))


def has_reclaim_circle(pl: dict, seat: str) -> bool:
    return "reclaim" in C.panels[seat]["track"]["plays"][:pl["open"]["plays"]]


def forget_candidates(pl: dict, kept: str) -> list[str]:
    """1.F / 3.A: keeping a major means forgetting "a capability card already in their hand" (the
    kept card excepted). Only when the hand holds no other card does a spent card (local discard)
    go instead (A-35's reading, kept as the fallback so the rule always costs a card)."""
    hand = [c for c in pl["hand"] if c != kept]
    return hand or [c for c in pl["discard"] if c != kept]


def attributes(pl: dict, seat: str) -> dict:
    """A-31: attributes of every card paid this turn + 1X per uncovered attribute circle."""
    out: dict = {}
    for cid in pl["played"]:
        for a in C.cards[cid]["attributes"]:
            out[a] = out.get(a, 0) + 1
    for v in C.panels[seat]["track"]["resources"][:pl["open"]["resources"]]:
        if isinstance(v, str):
            out[v] = out.get(v, 0) + 1
    return out


def meets(attrs: dict, req: dict) -> bool:
    return all(attrs.get(a, 0) >= n for a, n in req.items())


def covered(pl: dict, seat: str) -> dict:
    tr = C.panels[seat]["track"]
    return {r: len(tr[r]) - pl["open"][r] for r in ROWS}


def _hit_unit(state, tid: str, kind: str, fr: dict, facts: list, seat: str, label: str) -> None:
    """Damage the chosen kind of unit on the tile from the frame's damage left to allocate
    (``fr["alloc"]``): the most damaged unit of that kind first, destroyed when its health is
    overcome, else the damage stays on it (combat, 3.E; the counterattack, 3.F)."""
    t = state["tiles"][tid]
    i = max((i for i, u in enumerate(t["u"]) if u[0] == kind), key=lambda i: t["u"][i][1])
    rem = VAL[kind] - t["u"][i][1]
    use = min(rem, fr["alloc"])
    fr["alloc"] -= use
    if use >= rem:
        B.destroy_unit(state, tid, i, facts, seat, label)
    else:
        t["u"][i][1] += use
        B.damage_fact(facts, tid, t["u"][i], use)

class _PerSeat(dict):
    """seat -> value, each value computed on first access (a read-only, lazily filled dict)."""

    def __init__(self, seats, load):
        super().__init__()
        self._seats = tuple(seats)
        self._load = load

    def _one(self, seat):
        if not dict.__contains__(self, seat):
            dict.__setitem__(self, seat, self._load(seat))
        return dict.__getitem__(self, seat)

    def _all(self):
        for s in self._seats:
            self._one(s)

    def __getitem__(self, seat):
        if seat not in self._seats:
            raise KeyError(seat)
        return self._one(seat)

    def get(self, seat, default=None):
        return self._one(seat) if seat in self._seats else default

    def __contains__(self, seat):
        return seat in self._seats

    def __len__(self):
        return len(self._seats)

    def __iter__(self):
        return iter(self._seats)

    def keys(self):
        self._all()
        return dict.keys(self)

    def values(self):
        self._all()
        return dict.values(self)

    def items(self):
        self._all()
        return dict.items(self)

    def __eq__(self, other):
        self._all()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self):
        self._all()
        return dict.__repr__(self)

    def __reduce__(self):
        self._all()
        return (dict, (dict(self.items()),))


class TearsOfTyranny(Rules):
    key = "tears_of_tyranny"
    title = "Tears of Tyranny"
    seats = (
        SeatInfo("liberators", "Liberators", C.panels["liberators"]["color"]),
        SeatInfo("advisors", "Advisors", C.panels["advisors"]["color"]),
        SeatInfo("partisans", "Partisans", C.panels["partisans"]["color"]),
        SeatInfo("comrades", "Comrades", C.panels["comrades"]["color"]),
    )
    min_players = 1
    max_players = 4

    # ---- options ------------------------------------------------------------------------------
    def options(self) -> list[OptionInfo]:
        return [
            OptionInfo("players", "Players", "int", 4, (1, 2, 3, 4), "1-4 players; one quadrant each (1.A)."),
            OptionInfo("roles", "Player types", "json", None, (),
                       "List of seats in play, e.g. [\"advisors\",\"comrades\"]; default: the first N in panel order."),
            OptionInfo("terrain_deck", "Terrain deck", "choice", "standard", ("standard", "advanced"),
                       "standard: 16 cards (4 per stage); advanced: 12 cards (3 per stage) (2.B)."),
            OptionInfo("scenario", "Scenario panel", "choice", "standard", tuple(C.scenarios),
                       "Scenario panel with background, rule adjustments and victory conditions (5)."),
            OptionInfo("collateral", "Collateral penalty", "choice", "panel", ("panel", "flat"),
                       "panel: Liberators -2, Advisors -3, others 0; flat: -1 for Liberators and Advisors (A-25)."),
            OptionInfo("advisor_table", "Advisor displacement influence", "choice", "125", ("125", "123"),
                       "Influence per cell/outpost/garrison the Advisors drive off (A-28)."),
            OptionInfo("counterattack", "Counterattack defense", "choice", "red_only", ("red_only", "full_defense"),
                       "Which defense reduces the guerrilla counterattack in dominate (A-15)."),
            OptionInfo("script", "Scripted randomness", "json", None, (),
                       "Forced d10 results for tests, e.g. {\"d10\": [7]}."),
        ]

    def presets(self) -> list:
        from engine.scenarios.tears_of_tyranny.presets import presets
        return presets()

    # ---- setup (2) ----------------------------------------------------------------------------
    def setup(self, seed: int, options: dict | None = None) -> dict:
        o = dict(options or {})
        roles = o.get("roles")
        n = int(o.get("players") or (len(roles) if roles else 4))
        if not 1 <= n <= 4:
            raise ValueError("Tears of Tyranny is for 1 to 4 players.")
        if roles:
            roles = [r for r in SEAT_ORDER if r in roles]
            if len(roles) != n:
                raise ValueError("roles must list exactly 'players' distinct player types")
        else:
            roles = list(SEAT_ORDER[:n])
        scen = C.scenarios[o.get("scenario", "standard")]
        adj = scen["rules_adjustments"]
        opts = {
            "players": n, "roles": roles, "scenario": scen["id"],
            "terrain_deck": adj.get("terrain_deck", o.get("terrain_deck", "standard")),
            "collateral": o.get("collateral", "panel"), "advisor_table": str(o.get("advisor_table", "125")),
            "counterattack": o.get("counterattack", "red_only"),
        }
        rng = R.new_rng(seed, o.get("script"))
        quads = {seat: i + 1 for i, seat in enumerate(roles)}
        active = [t for t in C.tile_ids if C.tiles[t]["quadrant"] <= n]
        order = sorted(active, key=lambda t: (C.tiles[t]["quadrant"], C.tiles[t]["terrain_card_ref"]))
        tiles = {}
        tyr_start = 0
        for tid in active:
            s = C.tiles[tid]["start"]
            u = [["cell", 0] for _ in range(s["cells"])] + [["outpost", 0] for _ in range(s["outposts"])] + \
                [["garrison", 0] for _ in range(s["garrisons"])]
            tiles[tid] = {"u": u, "red": s["red_civilians"], "blue": s["blue_civilians"], "tyr": s["tyranny"],
                          "gs": {}, "bases": [], "pres": {}, "def": 0, "prev": []}
            tyr_start += s["tyranny"]
        for q in range(1, n + 1):
            if adj.get("extra_start_cells"):
                cand = [t for t in order if C.tiles[t]["quadrant"] == q and C.tiles[t]["coastal"] and not tiles[t]["tyr"]]
                for _ in range(adj["extra_start_cells"]):
                    tiles[cand[0]]["u"].append(["cell", 0])
        # decks (2.A, 2.B)
        events = sorted(C.events)
        R.shuffle(rng, events)
        ninf = adj.get("influence_cards", 10)
        infl = sorted(C.influence)
        R.shuffle(rng, infl)
        infl = infl[:ninf]
        per = 3 if opts["terrain_deck"] == "advanced" else 4
        terrain = []
        for st in ("I", "II", "III", "IV"):
            # A-02: a seeded random draw per stage; a stage block never names the same tile twice
            cand = sorted(c for c in C.terrain if C.terrain[c]["stage"] == st)
            R.shuffle(rng, cand)
            refs: set = set()
            for c in cand:
                if len(refs) < per and C.terrain[c]["terrain_card_ref"] not in refs:
                    refs.add(C.terrain[c]["terrain_card_ref"])
                    terrain.append(c)
        majors = sorted(c for c in C.cards if C.cards[c]["class"] == "major" and not C.cards[c]["earmark"])
        minors = sorted(c for c in C.cards if C.cards[c]["class"] == "minor" and not C.cards[c]["earmark"])
        R.shuffle(rng, majors)
        R.shuffle(rng, minors)
        pool_per = adj.get("tyranny_pool_per_player", 5)
        pl = {}
        for seat in roles:
            p = C.panels[seat]
            pl[seat] = {"res": p["start_resources"] + adj.get("start_resources_bonus", 0),
                        "hand": sorted(c for c in C.cards if C.cards[c]["earmark"] == seat),
                        "discard": [], "played": [], "done_cards": [], "open": {"resources": 1, "plays": 1},
                        "used": [], "fm_done": False, "base_built": {}}
        state = {
            "v": 1, "seed": seed, "opts": opts, "seats": roles, "quad": quads, "rng": rng,
            "turn": 0, "phase": "hq", "order": order, "tiles": tiles, "pl": pl,
            "decks": {"event": events, "terrain": terrain, "major": majors, "minor": minors},
            "boxes": {"deploy": None, "develop": None, "dominate": None, "terrain_discard": [], "event_discard": []},
            "inf": {"earned": 0, "cap": 4 * n, "deck": infl, "queue": [], "played": [], "n_earned": 0,
                    "level": 1, "markers": [4, 7] if ninf >= 8 else [ninf // 2, ninf - 2], "total": ninf},
            "tyr_pool": pool_per * n - tyr_start, "tyr_gone": 0,
            "frames": {seat: [{"k": "hq"}] for seat in roles}, "g": [], "adv": [],
            "stats": {"civilians_killed": 0, "cells_destroyed": 0, "outposts_destroyed": 0,
                      "garrisons_destroyed": 0, "bases_lost": 0, "guerrillas_lost": 0, "events": 0,
                      "cards_played": 0, "terrain_cards": 0},
            "result": None,
        }
        facts: list = []
        if adj.get("start_influence"):
            B.gain_influence(state, adj["start_influence"], "scenario start", facts)
        return state

    # ---- serialisation -----------------------------------------------------------------------
    state_is_json = True  # the state is plain JSON data; (de)serialize are JSON round trips

    def serialize(self, state: dict) -> dict:
        return json.loads(json.dumps(state))

    def deserialize(self, data: dict) -> dict:
        return json.loads(json.dumps(data))

    def copy(self, state: dict) -> dict:
        """A fully independent copy (hand-rolled: much faster than a JSON round trip)."""
        new = dict(state)
        new["tiles"] = {k: {"u": [u[:] for u in t["u"]], "red": t["red"], "blue": t["blue"], "tyr": t["tyr"],
                            "gs": dict(t["gs"]), "bases": [b[:] for b in t["bases"]], "pres": dict(t["pres"]),
                            "def": t["def"], "prev": t["prev"][:]} for k, t in state["tiles"].items()}
        new["rng"] = json.loads(json.dumps(state["rng"]))
        new["pl"] = json.loads(json.dumps(state["pl"]))
        new["frames"] = json.loads(json.dumps(state["frames"]))
        new["g"] = json.loads(json.dumps(state["g"]))
        new["adv"] = json.loads(json.dumps(state["adv"]))
        new["decks"] = {k: v[:] for k, v in state["decks"].items()}
        new["boxes"] = json.loads(json.dumps(state["boxes"]))
        inf = state["inf"]
        new["inf"] = {**inf, "deck": inf["deck"][:], "queue": inf["queue"][:], "played": inf["played"][:],
                      "markers": inf["markers"][:]}
        new["stats"] = dict(state["stats"])
        new["result"] = json.loads(json.dumps(state["result"]))
        return new

    def active_seats(self, state: dict) -> list[str]:
        return list(state["seats"])

    # ---- prompt ------------------------------------------------------------------------------
    def prompt(self, state: dict) -> Prompt | None:
        if state["result"] is not None:
            return None
        turn = f"t{state['turn']}:{state['phase']}"
        if state["g"]:
            fr = state["g"][-1]
            ch = self._global_choices(state, fr)
            if fr["k"] in ("escalate", "esc_confirm"):
                # 3.F "chosen by player consensus" (A-13): any seat may propose; every other seat
                # confirms or objects, each independently (the same choices for every seat asked)
                seats = tuple(fr["pending"]) if fr["k"] == "esc_confirm" else tuple(state["seats"])
                return Prompt(seats, fr["text"], fr["rule"], ch, kind=fr["k"], turn=turn,
                              context={"tile": fr.get("tile"), "proposal": fr.get("proposal"),
                                       "proposer": fr.get("proposer"), "struck": fr.get("struck", [])})
            seat = fr["seat"]
            return Prompt((seat,), fr["text"], fr["rule"], ch, kind=fr["k"], turn=turn,
                          context={"tile": fr.get("tile")})
        seats = [s for s in state["seats"] if state["frames"][s]]
        if not seats:  # pragma: no cover - _advance never leaves this state
            return None
        # Each waiting seat's choices are worked out only when asked for (a bot or a page asks for
        # one seat; the whole table is built for the full view). With four seats waiting, this
        # keeps a step as cheap as with one.
        cache: dict = {}

        def entry(s):
            if s not in cache:
                cache[s] = self._seat_choices(state, s)
            return cache[s]

        first = entry(seats[0])
        rule = {"hq": "2.C", "window": "3.A-3.D, phase 2", "long": "phase 4"}.get(state["phase"], "3")
        return Prompt(tuple(seats), "Each player acts; the phase ends when all are done.", rule,
                      first[2], kind=first[3], turn=turn,
                      seat_choices=_PerSeat(seats, lambda s: entry(s)[2]),
                      seat_text=_PerSeat(seats, lambda s: entry(s)[0]),
                      # each seat stands at its own step (3.A refit, 3.C, 3.D, phase 2/4 ...):
                      # its own decision kind and rule, e.g. for the decision log
                      seat_kind=_PerSeat(seats, lambda s: entry(s)[3]),
                      seat_rule=_PerSeat(seats, lambda s: entry(s)[1]),
                      context={"phase": state["phase"], "turn": state["turn"]})

    def _global_choices(self, state: dict, fr: dict) -> list[Choice]:
        if fr["k"] == "cover":
            pl = state["pl"][fr["seat"]]
            ch = [Choice(f"cover:{r}", f"Cover a {r} circle ({'income' if r == 'resources' else 'card plays'} "
                                       f"{income(pl, fr['seat']) if r == 'resources' else plays_limit(pl, fr['seat'])} now)",
                         {"row": r}) for r in ROWS if pl["open"][r] > 1]
            return ch or [Choice("skip", "No circle left to cover", {})]
        if fr["k"] == "escalate":
            return [Choice(f"esc:{t}", f"Propose {B.tname(t)} for the spill-over", {"tile": t})
                    for t in self.escalation_candidates(state, fr)]
        if fr["k"] == "esc_confirm":
            t = fr["proposal"]
            return [Choice("agree", f"Agree: the spill-over goes into {B.tname(t)}", {"tile": t}),
                    Choice("object", f"Object to {B.tname(t)} (it is struck off; someone proposes another tile)",
                           {"tile": t})]
        if fr["k"] == "counterattack":
            return self._alloc_choices(state, fr)
        if fr["k"] == "event_recruit":
            return [Choice(f"recruit:{t}", f"Recruit {fr['n']} G at your headquarters in {B.tname(t)}", {"tile": t})
                    for t in ADV.recruit_homes(state, fr["seat"])] or [Choice("skip", "No presence left", {})]
        if fr["k"] == "influence_debt":
            who = fr["seat"]
            pl = state["pl"][who]
            ch = [Choice("pay:resource", f"Pay 1 resource ({pl['res']} left)", {})] if pl["res"] > 0 else []
            own = [t for t in state["order"] if state["tiles"][t]["pres"].get(who)]
            last = sum(state["tiles"][t]["pres"][who] for t in own) == 1
            ch += [Choice(f"pay:presence:{t}", f"Remove 1 presence from {B.tname(t)}"
                          + (" (your last: you would lose the game, 4)" if last else "")
                          + (" (it returns to your panel)" if who == "partisans" else ""), {"tile": t}) for t in own]
            return ch or [Choice("skip", "Nothing left to pay with", {})]
        return [Choice("shield", f"Give up 1 presence to stop the {fr['step']} in {B.tname(fr['tile'])}",
                       {"tile": fr["tile"]}),
                Choice("decline", "Let it happen", {})]

    # tyranny escalation by consensus (3.F, A-13) ------------------------------------------
    def escalation_candidates(self, state: dict, fr: dict) -> list[str]:
        """The adjacent map tiles still open for the spill-over (objected tiles are struck off)."""
        return [t for t in ADV.escalate_choices(state, fr["tile"]) if t not in fr.get("struck", [])]

    def _escalation_proposal(self, state, fr, seat, tid, facts) -> None:
        """3.F: "the adjacent tile is chosen by player consensus". The proposal needs every other
        seat's agreement; solo, the proposal is the decision."""
        others = [s for s in state["seats"] if s != seat]
        if not others:
            ADV.escalate_into(state, tid, facts)
            return
        B.add_fact(facts, "consensus", f"{seat.title()} propose the spill-over into {B.tname(tid)}.", seat=seat, tile=tid)
        state["g"].append({"k": "esc_confirm", "tile": fr["tile"], "struck": fr.get("struck", []), "proposal": tid,
                           "proposer": seat, "pending": others, "text0": fr["text"], "rule": fr["rule"],
                           "text": f"{seat.title()} propose that tyranny spills over from {B.tname(fr['tile'])} into "
                                   f"{B.tname(tid)}. Do you agree? An objection strikes the tile off."})

    # the per-seat frames -------------------------------------------------------------------
    def _seat_choices(self, state: dict, seat: str):
        fr = state["frames"][seat][-1]
        k = fr["k"]
        pl = state["pl"][seat]
        if k == "hq":
            ch = [Choice(f"hq:{t}", f"Headquarters in {B.tname(t)}", {"tile": t}) for t in self.hq_candidates(state, seat)]
            return "Place your starting headquarters (two presence).", "2.C", ch, "hq"
        if k == "presence":
            if fr.get("roll"):
                # a successful roll deploys the presence (Partisans panel): where is the player's call
                return ("Your d10 roll succeeded: place 1 presence within 1 of your presence; choose the tile "
                        "and the track row it uncovers."), "Partisans panel (3.A, A-44)", \
                    self._presence_choices(state, seat, fr["range"]), "presence"
            ch = self._presence_choices(state, seat, fr["range"]) + [Choice("skip", "Do not add presence", {})]
            return "Add 1 presence: choose the tile and the track row it uncovers.", "3.A", ch, "presence"
        if k == "refit":
            opts = C.panels[seat]["refit"]["options"]
            used_groups = {o["group"] for o in opts if o["id"] in fr["picked"]}
            ch = []
            for o in opts:
                if o["group"] in used_groups or not self._refit_possible(state, seat, o):
                    continue
                ch.append(Choice(f"refit:{o['id']}", self._refit_label(o), {"option": o["id"]}))
            if not ch:
                ch = [Choice("skip", "No refit option is possible", {})]
            n = C.panels[seat]["refit"]["picks"]
            return f"Refit: choose {'two different options' if n == 2 else 'one option'}.", "3.A", ch, "refit"
        if k == "deck":
            ch = [Choice(f"deck:{d}", f"Draw 4 from the {d} deck", {"deck": d})
                  for d in ("major", "minor") if state["decks"][d]]
            return "Gain capability: which deck do you draw from?", "3.A", ch or [Choice("skip", "Both decks are empty", {})], "deck"
        if k == "keep":
            # secret: the drawn cards are private (the draw fact is visible_to the seat), so is the pick
            ch = [Choice(f"keep:{c}", f"Keep {C.cards[c]['title']} ({C.cards[c]['class']}, cost {C.cards[c]['cost']})",
                         {"card": c, "secret": True}) for c in fr["drawn"]]
            return ("Keep one of the drawn cards; you then return the rest to the bottom of the deck in the "
                    "order you choose."), "3.A", ch, "keep"
        if k == "steps":
            return self._steps_prompt(state, seat, fr)
        if k == "bottom":
            # secret: which cards were drawn is private (the draw fact is visible to the seat only)
            ch = [Choice(f"bottom:{c}", f"Put {C.cards[c]['title']} under the {fr['deck']} deck next",
                         {"card": c, "secret": True}) for c in fr["cards"]]
            return (f"Return the unkept cards to the bottom of the {fr['deck']} deck in the order you choose: "
                    "which goes under next? (The first one placed is drawn first of them.)"), "3.A", ch, "bottom"
        if k == "forget":
            cands = forget_candidates(pl, fr["kept"])
            # secret (1.F): the hand is hidden, so which card is forgotten is the player's own
            ch = [Choice(f"forget:{c}", f"Forget {C.cards[c]['title']}" + ("" if c in pl["hand"] else " (spent)"),
                         {"card": c, "secret": True}) for c in cands]
            return ("You kept a major card: forget one other card from your hand (1.F, 3.A)."
                    if any(c in pl["hand"] for c in cands) else
                    "You kept a major card: your hand holds no other card, so forget a spent card."), "1.F", ch, "forget"
        if k == "reclaim":
            ch = [Choice(f"reclaim:{c}", f"Reclaim {C.cards[c]['title']}", {"card": c}) for c in pl["discard"]]
            ch.append(Choice("skip", "Reclaim nothing", {}))
            return "Reclaim one spent card to your hand.", "3.A", ch, "reclaim"
        if k == "base_g":
            ch = [Choice(f"base_g:{t}", f"1 G at your base in {B.tname(t)}", {"tile": t}) for t in self._own_bases(state, seat)]
            return "Gain 1 guerrilla at one of your bases.", "3.A", ch or [Choice("skip", "No base", {})], "base_g"
        if k == "fm":
            ch = self._fm_choices(state, seat, fr.get("only"))
            ch.append(Choice("skip" if not fr.get("only") else "done", "No force management" if not fr.get("only") else "Done recruiting", {}))
            return "Force management: recruit, build a base or convert (one action).", "3.C", ch, "force_management"
        if k == "burden":
            ch = []
            for tid in self._burden_tiles(state, seat):
                extra = state["tiles"][tid]["gs"][seat] - 4 - pl.get("upkept", {}).get(tid, 0)
                ch.append(Choice(f"upkeep:{tid}", f"Pay 1 resource to keep a G in {B.tname(tid)} ({extra} over 4)", {"tile": tid}))
                ch.append(Choice(f"disband:{tid}", f"Disband a G in {B.tname(tid)} ({extra} over 4)", {"tile": tid}))
            return (f"Too many guerrillas burden the population: pay or disband each G over 4 ({pl['res']} resources).",
                    "1.D guerrillas (A-46)", ch, "burden")
        if k == "produce":
            ch = self._produce_choices(state, seat, fr) + [Choice("done", "No more base output", {})]
            return ("Base output: take guerrillas from your bases, one at a time, as many as you want "
                    "(1.D Guerrilla Base: can, but need not)."), "1.D (A-42)", ch, "produce"
        if k == "lpull":
            ch = [Choice(f"into:{n}", f"Pull the new G from {B.tname(fr['tile'])} into {B.tname(n)}",
                         {"from": fr["tile"], "tile": n}) for n in self._lpull_targets(state, fr["tile"])]
            ch.append(Choice("skip", "Leave it where it was recruited", {}))
            return ("Your G was recruited next to your presence: you may pull it into a tile with your presence.",
                    "Liberators panel (A-48)", ch, "recruit_pull")
        if k == "select":
            ch = []
            if len(pl["played"]) < plays_limit(pl, seat):
                for c in pl["hand"]:
                    card = C.cards[c]
                    if card["cost"] <= pl["res"]:
                        ch.append(Choice(f"play:{c}", f"Play {card['title']} (cost {card['cost']}, {card['speed']})", {"card": c}))
            ch.append(Choice("done", "Done selecting capabilities", {}))
            return (f"Select capabilities and pay for them ({len(pl['played'])}/{plays_limit(pl, seat) if plays_limit(pl, seat) < 99 else 'any'} "
                    f"played, {pl['res']} resources)."), "3.D", ch, "select"
        if k == "exec":
            # each seat closes its own part of the window with "done", even with nothing left to
            # execute: the window (and the adversary phase after it) waits for every seat (3)
            ch = self._exec_choices(state, seat, fr["speed"])
            label = "immediate" if fr["speed"] == "immediate" else "long-term"
            ch.append(Choice("done", "Done with this phase" if ch else f"Done: nothing {label} left to execute", {}))
            text = (f"Execute your {label} capabilities." if len(ch) > 1 else
                    f"Nothing {label} is left for you to execute: say done when you are ready "
                    "(the phase ends when every player is done).")
            return text, "phase 2" if label == "immediate" else "phase 4", ch, "execute"
        if k == "target":
            ch = [Choice(f"tile:{t}", B.tname(t), {"tile": t}) for t in self._target_tiles(state, seat, fr)]
            ch.append(Choice("decline", "Do not execute it", {}))
            return f"Choose the target tile for {fr['label']}.", "1.F", ch, "target"
        if k == "effect":
            if fr.get("drive"):
                return (f"{fr['label']}: drive the {fr['drive'][0][0]} out of {B.tname(fr['tile'])}: into which "
                        "neighbouring tile?", "Advisors panel (A-28)", self._drive_choices(state, fr), "drive")
            if fr.get("civ"):
                return (f"{fr['label']}: collateral damage in {B.tname(fr['tile'])} kills {fr['civ']} more civilian(s); "
                        "choose who is hit next.", "1.G collateral (A-25)", self._civ_choices(state, fr), "collateral")
            if fr.get("alloc"):
                return (f"{fr['label']}: assign {fr['alloc']} damage to the adversary units in {B.tname(fr['tile'])}.",
                        "1.G combat (A-57)", self._alloc_choices(state, fr), "allocate")
            op = fr["ops"][fr["i"]]
            ch = self._op_choices(state, seat, fr, op)
            return f"{fr['label']}: {op['op']} ({fr.get('moved', 0)}/{op.get('n', 1)}).", "1.F", ch, op["op"]
        raise AssertionError(k)  # pragma: no cover

    # the player window's step menu (3, A-30) ----------------------------------------------
    def _step_open(self, state, seat, fr, step) -> bool:
        """Whether ``step`` is still on offer: refit, income, output and force management once a
        turn; selecting as long as a card can still be paid for (and played)."""
        pl = state["pl"][seat]
        if step == "select":
            return len(pl["played"]) < plays_limit(pl, seat) and any(C.cards[c]["cost"] <= pl["res"] for c in pl["hand"])
        if step in fr["taken"]:
            return False
        if step == "roll":
            return bool(C.panels[seat]["refit"]["roll"])
        if step == "refit" and C.panels[seat]["refit"]["roll"] and "roll" not in fr["taken"]:
            return False     # Partisans panel: "every turn prior to refit they roll a die" (1.E)
        if step == "produce":
            return bool(C.panels[seat]["base_output"]) and bool(self._produce_choices(state, seat, {"made": {}}))
        if step == "fm":
            return C.panels[seat]["force_management"]["phase"] == "window" and bool(self._fm_choices(state, seat))
        return True

    def _steps_prompt(self, state, seat, fr):
        pl = state["pl"][seat]
        infra = sum(1 for tid in state["order"] if C.tiles[tid]["infrastructure"] and self.controls(state, seat, tid))
        labels = {
            "roll": "Roll the d10 for presence (Partisans panel, before refit): 6-10 adds 1 presence",
            "refit": "Refit (3.A): " + ("choose two different options" if C.panels[seat]["refit"]["picks"] == 2
                                         else "choose one option"),
            "income": f"Gain resources (3.B): +{income(pl, seat)}" + (f" +{infra} infrastructure" if infra else ""),
            "produce": "Base output (1.D): take guerrillas from your bases",
            "fm": "Force management (3.C): recruit, build a base or convert",
            "select": f"Select and pay capabilities (3.D): {len(pl['played'])}/"
                      f"{plays_limit(pl, seat) if plays_limit(pl, seat) < 99 else 'any'} played, {pl['res']} resources",
        }
        ch = [Choice(f"step:{st}", labels[st], {"step": st}) for st in WINDOW_STEPS if self._step_open(state, seat, fr, st)]
        ch += self._exec_choices(state, seat, "immediate")
        if "refit" in fr["taken"]:
            ch.append(Choice("done", "Done with the player window" + (
                "" if "income" in fr["taken"] else " (your resources, 3.B, are gained first)"), {}))
        todo = [st for st in ("roll", "refit", "income") if st not in fr["taken"]
                and (st != "roll" or C.panels[seat]["refit"]["roll"])]
        text = ("Player window: choose your next step, in the order you like (3); execute immediate capabilities "
                "whenever they are paid for." + (f" Still to do: {', '.join(todo)}." if todo else "")
                + (" Roll the d10 before you refit (Partisans panel)." if "roll" in todo else "")
                + ("" if "refit" not in todo else " Done is offered once you have refitted (3.A)."))
        return text, "3", ch, "steps"

    # ---- static helpers for choices ------------------------------------------------------
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
                    out.append(Choice(f"presence:{tid}:{row}", f"Presence in {B.tname(tid)}, uncover a {row} circle",
                                      {"tile": tid, "row": row}))
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
    def _refit_label(o) -> str:
        words = {"reclaim_all": "reclaim all spent cards", "reclaim1": "reclaim 1 card",
                 "presence": "add 1 presence", "base_g": "gain 1 G at a base", "gain": "gain capability",
                 "resources": "gain resources"}
        parts = []
        for p in o["parts"]:
            w = words[p["k"]]
            if p["k"] == "resources":
                w = f"gain {p['n']} resources"
            if p["k"] == "gain" and p.get("n", 1) > 1:
                w = f"gain {p['n']} capabilities"
            if p["k"] == "presence" and p["range"] != 1:
                w = f"add 1 presence within {p['range']}"
            parts.append(w)
        return " + ".join(parts).capitalize()

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

    def _fm_choices(self, state, seat, only=None) -> list[Choice]:
        pl = state["pl"][seat]
        out = []
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
                label = {"recruit": "Recruit 1 G", "base": "Establish a G base", "convert": "Convert 1 red civilian"}[o["id"]]
                cost = f"{o['cost']} resource(s)" + (f" + {o['influence']} influence" if o.get("influence") else "")
                out.append(Choice(f"{o['id']}:{tid}", f"{label} in {B.tname(tid)} ({cost})", {"tile": tid}))
        return out

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
                    tag = " (early: Peasant Revolution)" if card["speed"] != speed else ""
                    out.append(Choice(f"exec:{c}", f"Execute {card['title']}{tag}", {"card": c}))
        for part in ("patrol", "special"):
            org = C.panels[seat][part]
            if org["speed"] != speed or part in pl["used"]:
                continue
            ops = self._organic_ops(state, seat, part, attrs)
            if ops and self._organic_targets(state, seat, part, ops):
                name = org.get("name", "Patrol")
                out.append(Choice(part, f"Use {name}", {}))
        return out

    # ---- targeting -----------------------------------------------------------------------
    def target_ok(self, state, seat, tid, target) -> bool:
        t = state["tiles"][tid]
        ct = C.tiles[tid]
        for cond in target:
            ok = {
                "any": True, "jungle": ct["terrain"] == "jungle", "rural": ct["terrain"] == "rural",
                "urban": ct["terrain"] == "urban", "desert": ct["terrain"] == "desert",
                "jungle_rural": ct["terrain"] in ("jungle", "rural"),
                "civilians": t["red"] + t["blue"] > 0, "blue_civilians": t["blue"] > 0,
                "red_civilians": t["red"] > 0, "gs": bool(t["gs"]), "own_gs": t["gs"].get(seat, 0) > 0,
                "no_tyranny": not t["tyr"], "tyranny": t["tyr"] > 0, "adversary": bool(t["u"]),
                "no_adversary": not t["u"], "cells": B.units(t, "cell") > 0, "outposts": B.units(t, "outpost") > 0,
                "garrisons": B.units(t, "garrison") > 0, "coastal": ct["coastal"],
                "presence": t["pres"].get(seat, 0) > 0, "infrastructure": ct["infrastructure"],
                "base": bool(t["bases"]),
            }[cond]
            if not ok:
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

    # ---- effect op choices ---------------------------------------------------------------
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
                verb = "destroy" if rem <= fr["alloc"] else "damage"
                out.append(Choice(f"hit:{kind}", f"Assign damage to {verb} a {kind} ({rem} health left; {fr['alloc']} to assign)",
                                  {"unit": kind, "damage": min(rem, fr["alloc"])}))
        return out

    def _drive_choices(self, state, fr) -> list[Choice]:
        kind = fr["drive"][0][0]
        return [Choice(f"drive:{n}", f"Drive the {kind} into {B.tname(n)}", {"tile": n, "unit": kind})
                for n in B.drive_targets(state, fr["tile"])]

    def _civ_choices(self, state, fr) -> list[Choice]:
        t = state["tiles"][fr["tile"]]
        return [Choice(f"civ:{c}", f"A {c} civilian dies ({t[c]} in the tile)", {"color": c})
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
                        out.append(Choice(f"pull:{kind}:{n}", f"Pull {kind.replace('own_g', 'your G')} from {B.tname(n)}",
                                          {"piece": kind, "from": n}))
                        if self._can_carry(state, seat, n, tid, kind):
                            out.append(Choice(f"pull:{kind}+p:{n}", f"Pull {kind.replace('own_g', 'your G')} from {B.tname(n)} with 1 of your presence",
                                              {"piece": kind, "from": n, "presence": True}))
            out.append(Choice("stop", "Stop pulling", {}))
        elif k == "push":
            kinds = [x for x in self._kinds(op["what"]) if self._has_piece(state, seat, tid, x)]
            for n in C.adj[tid]:
                if n not in tiles:
                    continue
                for kind in kinds:
                    out.append(Choice(f"push:{kind}:{n}", f"Push {kind.replace('own_g', 'your G')} into {B.tname(n)}",
                                      {"piece": kind, "to": n}))
                    if self._can_carry(state, seat, tid, n, kind):
                        out.append(Choice(f"push:{kind}+p:{n}", f"Push {kind.replace('own_g', 'your G')} into {B.tname(n)} with 1 of your presence",
                                          {"piece": kind, "to": n, "presence": True}))
            out.append(Choice("stop", "Stop pushing", {}))
        elif k == "presence":
            cov = covered(state["pl"][seat], seat)
            out = [Choice(f"row:{r}", f"Uncover a {r} circle", {"row": r}) for r in ROWS if cov[r]]
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

    # ---- apply -------------------------------------------------------------------------------
    def apply_unchecked(self, state: dict, seat: str, choice_id: str) -> list:
        facts: list = []
        if state["g"]:
            self._apply_global(state, seat, choice_id, facts)
        else:
            self._apply_seat(state, seat, choice_id, facts)
        self._advance(state, facts)
        return facts

    def _apply_global(self, state, seat, cid, facts) -> None:
        fr = state["g"].pop()
        if fr["k"] == "cover":
            if cid.startswith("cover:"):
                B.cover_row(state, fr["seat"], cid.split(":", 1)[1], facts)
        elif fr["k"] == "escalate":
            self._escalation_proposal(state, fr, seat, cid.split(":", 1)[1], facts)
        elif fr["k"] == "esc_confirm":
            if cid == "agree":
                fr["pending"].remove(seat)
                B.add_fact(facts, "consensus", f"{seat.title()} agree to the spill-over into {B.tname(fr['proposal'])}.",
                           seat=seat, tile=fr["proposal"])
                if fr["pending"]:
                    state["g"].append(fr)
                else:
                    B.add_fact(facts, "consensus", f"The team agrees: tyranny spills over into {B.tname(fr['proposal'])}.",
                               tile=fr["proposal"])
                    ADV.escalate_into(state, fr["proposal"], facts)
            else:
                B.add_fact(facts, "consensus", f"{seat.title()} object to the spill-over into {B.tname(fr['proposal'])}; "
                           "it is struck off the candidates.", seat=seat, tile=fr["proposal"])
                nxt = {"k": "escalate", "tile": fr["tile"], "struck": fr["struck"] + [fr["proposal"]],
                       "text": fr["text0"], "rule": fr["rule"]}
                left = self.escalation_candidates(state, nxt)
                if len(left) == 1:
                    B.add_fact(facts, "consensus", f"Only {B.tname(left[0])} is left: the spill-over goes there.",
                               tile=left[0])
                    ADV.escalate_into(state, left[0], facts)
                else:
                    state["g"].append(nxt)
        elif fr["k"] == "event_recruit":
            if cid.startswith("recruit:"):
                ADV.recruit_at(state, fr["seat"], cid.split(":", 1)[1], fr["n"], facts, fr["cause"])
        elif fr["k"] == "influence_debt":
            who = fr["seat"]
            if cid == "pay:resource":
                pl = state["pl"][who]
                pl["res"] -= 1
                B.add_fact(facts, "track", f"Influence box empty: {who.title()} pay 1 resource instead ({fr['cause']}).",
                           track="resources", delta=-1, value=pl["res"], cause=fr["cause"], seat=who)
            elif cid.startswith("pay:presence:"):
                B.remove_one_presence(state, who, cid.split(":", 2)[2], facts, f"paid for lost influence: {fr['cause']}")
        elif fr["k"] == "counterattack":
            self._counter_hit(state, fr, cid.split(":", 1)[1], facts)
        elif fr["k"] == "shield":
            if cid == "shield":
                B.remove_one_presence(state, "partisans", fr["tile"], facts, "HQ shield")
                state["tiles"][fr["tile"]]["prev"].append(fr["step"])
                B.add_fact(facts, "protect", f"Partisans give up a presence to stop the {fr['step']} in {B.tname(fr['tile'])}.",
                           tile=fr["tile"], seat="partisans")
            state["adv"][0]["asked"] = True
        self._check_end(state, facts)

    def _apply_seat(self, state, seat, cid, facts) -> None:
        stack = state["frames"][seat]
        fr = stack[-1]
        k = fr["k"]
        pl = state["pl"][seat]
        head, _, rest = cid.partition(":")
        if k == "hq":
            stack.pop()
            tid = rest
            state["tiles"][tid]["pres"][seat] = 2
            B.add_fact(facts, "presence", f"{seat.title()} set up their headquarters in {B.tname(tid)}.", seat=seat, tile=tid, delta=2)
        elif k == "presence":
            stack.pop()
            if head == "presence":
                tid, row = rest.split(":")
                self._add_presence(state, seat, tid, row, facts)
        elif k == "refit":
            if head == "skip":
                stack.pop()
            else:
                o = next(x for x in C.panels[seat]["refit"]["options"] if x["id"] == rest)
                fr["picked"].append(rest)
                B.add_fact(facts, "refit", f"{seat.title()} refit: {self._refit_label(o)}.", seat=seat, option=rest)
                if len(fr["picked"]) >= C.panels[seat]["refit"]["picks"]:
                    stack.pop()
                for part in reversed(o["parts"]):
                    self._push_refit_part(state, seat, part, facts)
        elif k == "deck":
            stack.pop()
            if head == "deck":
                deck = state["decks"][rest]
                drawn = deck[:4]
                del deck[:4]
                facts.append({"type": "draw", "text": f"{seat.title()} draw {', '.join(C.cards[c]['title'] for c in drawn)}.",
                              "seat": seat, "cards": drawn, "barrier": True, "visible_to": [seat],
                              "public": {"type": "draw", "text": f"{seat.title()} draw {len(drawn)} {rest} cards.",
                                         "seat": seat, "barrier": True}})
                if drawn:
                    stack.append({"k": "keep", "drawn": drawn, "deck": rest, "n": fr["n"]})
        elif k == "keep":
            stack.pop()
            fr["drawn"].remove(rest)
            pl["hand"].append(rest)
            B.add_fact(facts, "keep", f"{seat.title()} keep a card.", seat=seat)
            last = not (fr["n"] > 1 and fr["drawn"])
            if not last:
                stack.append({"k": "keep", "drawn": fr["drawn"], "deck": fr["deck"], "n": fr["n"] - 1})
            if last and fr["drawn"]:
                # 3.A Gain Capability: "The remaining three cards are returned to the bottom of the
                # deck"; the rulebook does not fix their order, so the player sets it (asked after
                # the forget question below, 1.F)
                self._return_unkept(state, seat, fr["deck"], fr["drawn"], facts)
            if C.cards[rest]["class"] == "major" and [c for c in pl["hand"] + pl["discard"] if c != rest]:
                stack.append({"k": "forget", "kept": rest})
        elif k == "bottom":
            stack.pop()
            fr["cards"].remove(rest)
            state["decks"][fr["deck"]].append(rest)
            fr["placed"] = fr.get("placed", 0) + 1
            self._return_unkept(state, seat, fr["deck"], fr["cards"], facts, fr["placed"])
        elif k == "forget":
            stack.pop()
            if rest in pl["hand"]:
                pl["hand"].remove(rest)
            else:
                pl["discard"].remove(rest)
            state["decks"][C.cards[rest]["class"]].append(rest)
            # 1.F: the other seats learn that a card was forgotten, not which (hands are hidden)
            B.add_fact(facts, "forget", f"{seat.title()} forget {C.cards[rest]['title']}.", seat=seat, card=rest,
                       visible_to=[seat], public={"type": "forget", "text": f"{seat.title()} forget a card.",
                                                  "seat": seat})
        elif k == "reclaim":
            stack.pop()
            if head == "reclaim":
                pl["discard"].remove(rest)
                pl["hand"].append(rest)
                B.add_fact(facts, "reclaim", f"{seat.title()} reclaim {C.cards[rest]['title']}.", seat=seat, card=rest)
        elif k == "base_g":
            stack.pop()
            if head == "base_g":
                self._place_g(state, seat, rest, 1, facts, "gain 1 at base")
        elif k == "fm":
            self._apply_fm(state, seat, fr, head, rest, facts)
        elif k == "burden":
            t = state["tiles"][rest]
            if head == "upkeep":
                pl["res"] -= 1
                up = pl.setdefault("upkept", {})
                up[rest] = up.get(rest, 0) + 1
                B.add_fact(facts, "track", f"{seat.title()} pay 1 to keep a massed guerrilla in {B.tname(rest)}.",
                           seat=seat, track="resources", delta=-1, value=pl["res"], cause="guerrilla stacking")
            else:
                t["gs"][seat] -= 1
                B.add_fact(facts, "remove", f"1 {seat.title()} G disbands in {B.tname(rest)} (stacking).", seat=seat, tile=rest)
            if not self._burden_tiles(state, seat) or pl["res"] <= 0:
                stack.pop()
        elif k == "produce":
            if head == "done":
                stack.pop()
            else:
                bo = C.panels[seat]["base_output"]
                if bo["cost"]:
                    pl["res"] -= bo["cost"]
                    B.add_fact(facts, "track", f"{seat.title()} pay {bo['cost']} for base output in {B.tname(rest)}.",
                               seat=seat, track="resources", delta=-bo["cost"], value=pl["res"], cause="base output")
                self._place_g(state, seat, rest, 1, facts, "base output")
                fr.setdefault("made", {})[rest] = fr.get("made", {}).get(rest, 0) + 1
        elif k == "lpull":
            stack.pop()
            if head == "into":
                self._move_piece(state, seat, "own_g", fr["tile"], rest, facts)
        elif k == "select":
            if head == "done":
                stack.pop()
            else:
                card = C.cards[rest]
                pl["res"] -= card["cost"]
                pl["hand"].remove(rest)
                pl["played"].append(rest)
                state["stats"]["cards_played"] += 1
                B.add_fact(facts, "play", f"{seat.title()} play {card['title']} for {card['cost']} ({', '.join(card['attributes'])}).",
                           seat=seat, card=rest, track="resources", delta=-card["cost"], value=pl["res"],
                           cause=f"paid for {card['title']}")
        elif k == "steps":
            if head == "done":
                stack.pop()
                if "income" not in fr["taken"]:
                    stack.append({"k": "income"})     # 3.B: every player gains resources
            elif head == "step":
                fr["taken"].append(rest)
                if rest == "roll":
                    self._partisan_roll(state, seat, facts)
                elif rest == "refit":
                    stack.append({"k": "refit", "picked": []})
                    if has_reclaim_circle(pl, seat) and pl["discard"]:
                        stack.append({"k": "reclaim"})   # A-35: at the start of refit
                else:
                    stack.append({"k": rest} if rest != "produce" else {"k": "produce"})
            else:
                self._start_exec(state, seat, "immediate", head, rest)
        elif k == "exec":
            if head == "done":
                stack.pop()
            else:
                self._start_exec(state, seat, fr["speed"], head, rest)
        elif k == "target":
            stack.pop()
            if fr["src"] in C.cards:
                pl["done_cards"].append(fr["src"])
            if head == "tile":
                B.add_fact(facts, "execute", f"{seat.title()} execute {fr['label']} in {B.tname(rest)}.", seat=seat, tile=rest,
                           source=fr["src"])
                stack.append({"k": "effect", "ops": fr["ops"], "i": 0, "tile": rest, "label": fr["label"], "moved": 0,
                              "src": fr["src"]})
            else:
                B.add_fact(facts, "execute", f"{seat.title()} decline to execute {fr['label']}.", seat=seat)
        elif k == "effect":
            self._apply_op_choice(state, seat, fr, head, rest, facts)
        self._check_end(state, facts)

    def _start_exec(self, state, seat, speed, head, rest) -> None:
        """Execute a paid card (``exec:<card>``) or an organic capability (``patrol``/``special``)."""
        pl = state["pl"][seat]
        stack = state["frames"][seat]
        if head == "exec":
            card = C.cards[rest]
            if card["speed"] != speed:
                pl["used"].append("early")
            stack.append({"k": "target", "src": rest, "label": card["title"], "ops": card["effect"]})
        else:
            ops = self._organic_ops(state, seat, head, attributes(pl, seat))
            pl["used"].append(head)
            org = C.panels[seat][head]
            stack.append({"k": "target", "src": head, "label": org.get("name", "Patrol"), "ops": ops})

    def _return_unkept(self, state, seat, deck, cards, facts, placed=0) -> None:
        """Return the unkept drawn cards to the bottom of ``deck`` (3.A Gain Capability). With two or
        more left the player chooses which goes under next (``bottom:<card>``, secret like the draw);
        the last one follows by itself."""
        if len(cards) >= 2:
            state["frames"][seat].append({"k": "bottom", "deck": deck, "cards": list(cards), "placed": placed})
            return
        state["decks"][deck].extend(cards)
        n = placed + len(cards)
        if n:
            B.add_fact(facts, "bottom", f"{seat.title()} return {n} unkept card(s) to the bottom of the {deck} deck.",
                       seat=seat, deck=deck, n=n)

    def _push_refit_part(self, state, seat, part, facts) -> None:
        stack = state["frames"][seat]
        pl = state["pl"][seat]
        k = part["k"]
        if k == "reclaim_all":
            # resolved at once (no decision)
            if pl["discard"]:
                B.add_fact(facts, "reclaim", f"{seat.title()} reclaim all {len(pl['discard'])} spent cards.", seat=seat)
            pl["hand"] += pl["discard"]
            pl["discard"] = []
        elif k == "reclaim1":
            if pl["discard"]:
                stack.append({"k": "reclaim"})
        elif k == "gain":
            stack.append({"k": "deck", "n": part.get("n", 1)})
        elif k == "resources":
            pl["res"] += part["n"]
            B.add_fact(facts, "track", f"{seat.title()} gain {part['n']} resources (refit).", seat=seat,
                       track="resources", delta=part["n"], value=pl["res"], cause="refit")
        elif k == "presence":
            stack.append({"k": "presence", "range": part["range"]})
        elif k == "base_g":
            stack.append({"k": "base_g"})

    def _add_presence(self, state, seat, tid, row, facts) -> None:
        pl = state["pl"][seat]
        pl["open"][row] += 1
        t = state["tiles"][tid]
        t["pres"][seat] = t["pres"].get(seat, 0) + 1
        B.add_fact(facts, "presence", f"{seat.title()} add presence in {B.tname(tid)} (uncover a {row} circle).",
                   seat=seat, tile=tid, delta=1, row=row)

    def _place_g(self, state, seat, tid, n, facts, cause) -> int:
        n = min(n, B.g_supply(state, seat))
        if n <= 0:
            return 0
        gs = state["tiles"][tid]["gs"]
        gs[seat] = gs.get(seat, 0) + n
        B.add_fact(facts, "recruit", f"{seat.title()} gain {n} G in {B.tname(tid)} ({cause}).", seat=seat, tile=tid, n=n)
        return n

    def _apply_fm(self, state, seat, fr, head, rest, facts) -> None:
        stack = state["frames"][seat]
        pl = state["pl"][seat]
        stack.pop()
        if head in ("skip", "done"):
            return
        o = next(x for x in C.panels[seat]["force_management"]["options"] if x["id"] == head)
        pl["res"] -= o["cost"]
        if o["cost"]:
            B.add_fact(facts, "track", f"{seat.title()} pay {o['cost']} for force management.", seat=seat,
                       track="resources", delta=-o["cost"], value=pl["res"], cause=f"force management: {head}")
        if o.get("influence"):
            B.lose_influence(state, o["influence"], f"Advisors spend influence to {head}", facts, seat)
        tid = rest
        t = state["tiles"][tid]
        if head == "recruit":
            self._place_g(state, seat, tid, 1, facts, "recruited")
            if seat == "liberators" and self._lpull_targets(state, tid):
                stack.append({"k": "lpull", "tile": tid})
            left = (fr.get("left") or o["n"]) - 1
            if left > 0 and o["n"] > 1:
                stack.append({"k": "fm", "only": "recruit", "left": left})
        elif head == "base":
            t["bases"].append([seat, 0])
            pl["base_built"][tid] = state["turn"]
            B.add_fact(facts, "base", f"{seat.title()} establish a guerrilla base in {B.tname(tid)}.", seat=seat, tile=tid)
        elif head == "convert":
            t["red"] -= 1
            t["blue"] += 1
            B.add_fact(facts, "civilians", f"{seat.title()} convert a red civilian to blue in {B.tname(tid)}.", seat=seat, tile=tid)
            B.clear_tyranny_check(state, tid, facts)

    # ---- effects ---------------------------------------------------------------------------
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
            B.add_fact(facts, "presence", f"{seat.title()} presence moves with it to {B.tname(dst)}.", seat=seat, tile=dst)
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
        B.add_fact(facts, "move", f"{kind.replace('own_g', seat.title() + ' G')} moves from {B.tname(src)} to {B.tname(dst)}.",
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
                if seat == "advisors" or eff <= 0 or not self._alloc_needed(t, eff):
                    pending: dict = {}
                    B.player_attack(state, tid, n, seat, facts, label, ignore_defense=ign, ignore_tyranny=ign_t,
                                    pending=pending)
                    if pending:
                        fr.update(pending)
                        return False
                else:
                    # the attacker assigns the damage (A-57); the fact explains the defense (1.G combat)
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
                    B.add_fact(facts, "remove", f"Adversary {u[0]} withdraws from {B.tname(tid)} ({label}).", tile=tid, unit=u[0])
                B.clear_tyranny_check(state, tid, facts)
            elif k == "replace":
                w = op["what"]
                done = False
                if w == "red" and t["red"]:
                    t["red"] -= 1
                    done = True
                elif w in ("cell", "outpost"):
                    idx = [i for i, u in enumerate(t["u"]) if u[0] == w]
                    if idx:
                        t["u"].pop(idx[0])
                        done = True
                if done:
                    B.add_fact(facts, "replace", f"{seat.title()} replace a {w} with a guerrilla in {B.tname(tid)}.", seat=seat, tile=tid)
                    self._place_g(state, seat, tid, 1, facts, label)
                    if op["influence"]:
                        B.gain_influence(state, op["influence"], f"{label}: replaced a {w}", facts, seat)
                    B.clear_tyranny_check(state, tid, facts)
            elif k == "defense":
                t["def"] += op["n"]
                B.add_fact(facts, "protect", f"+{op['n']} resistance defense in {B.tname(tid)} this turn ({label}).", tile=tid, seat=seat)
            elif k == "prevent":
                for s in op["steps"]:
                    if s not in t["prev"]:
                        t["prev"].append(s)
                B.add_fact(facts, "protect", f"The adversary cannot {'/'.join(op['steps'])} in {B.tname(tid)} this turn ({label}).",
                           tile=tid, seat=seat)
            elif k == "influence":
                if op["n"] >= 0:
                    B.gain_influence(state, op["n"], f"{label} by {seat}", facts, seat)
                else:
                    B.lose_influence(state, -op["n"], f"{label} by {seat}", facts, seat)
            elif k == "resources":
                pl["res"] += op["n"]
                B.add_fact(facts, "track", f"{seat.title()} +{op['n']} resources ({label}).", seat=seat, track="resources",
                           delta=op["n"], value=pl["res"], cause=label)
            elif k == "recruit":
                self._place_g(state, seat, tid, op["n"], facts, label)
            elif k == "convert":
                m = min(op["n"], t["red"])
                if m:
                    t["red"] -= m
                    t["blue"] += m
                    B.add_fact(facts, "civilians", f"{m} red civilian(s) turn blue in {B.tname(tid)} ({label}).", tile=tid, seat=seat)
                    B.clear_tyranny_check(state, tid, facts)
            elif k == "kill_civilian":
                m = 0
                for _ in range(op["n"]):
                    col = op.get("color", "any")
                    if col in ("red", "any") and t["red"]:
                        t["red"] -= 1
                    elif col in ("blue", "any") and t["blue"]:
                        t["blue"] -= 1
                    else:
                        break
                    m += 1
                if m:
                    state["stats"]["civilians_killed"] += m
                    B.add_fact(facts, "collateral", f"{m} civilian(s) killed in {B.tname(tid)} ({label}).", tile=tid, seat=seat, killed=m)
                    pen = B.penalty(state, seat)
                    if pen:
                        B.lose_influence(state, pen * m, f"civilians killed by {seat} in {tid}", facts, seat)
                    B.clear_tyranny_check(state, tid, facts)
            elif k == "remove_tyranny":
                if t["tyr"]:
                    t["tyr"] -= 1
                    state["tyr_pool"] += 1
                    B.add_fact(facts, "track", f"{label} returns a tyranny token from {B.tname(tid)} to the pool.", tile=tid,
                               track="tyranny_pool", delta=1, value=state["tyr_pool"], cause=label, seat=seat)
            elif k == "remove_own_g":
                for _ in range(op["n"]):
                    owner = seat if t["gs"].get(seat) else (sorted(t["gs"])[0] if t["gs"] else None)
                    if not owner:
                        break
                    t["gs"][owner] -= 1
                    if not t["gs"][owner]:
                        del t["gs"][owner]
                    B.add_fact(facts, "remove", f"A {owner.title()} G leaves {B.tname(tid)} ({label}).", tile=tid, seat=owner)
            elif k == "if_attr":
                if attributes(pl, seat).get(op["attr"], 0) >= op["n"]:
                    fr["ops"] = fr["ops"][:fr["i"]] + op["then"] + fr["ops"][fr["i"]:]
            self._check_end(state, facts)
        return True

    # ---- advancing the flow ------------------------------------------------------------------
    def _settle_seat(self, state, seat, facts) -> None:
        """Run automatic frames on top of ``seat``'s stack until a decision is needed."""
        stack = state["frames"][seat]
        while stack and state["result"] is None:
            fr = stack[-1]
            k = fr["k"]
            pl = state["pl"][seat]
            if k == "income":
                stack.pop()
                inc = income(pl, seat)
                infra = sum(1 for tid in state["order"] if C.tiles[tid]["infrastructure"] and self.controls(state, seat, tid))
                pl["res"] += inc + infra
                B.add_fact(facts, "track", f"{seat.title()} gain {inc} resources" + (f" +{infra} from infrastructure" if infra else "") + ".",
                           seat=seat, track="resources", delta=inc + infra, value=pl["res"], cause="gain resources (3.B)")
            elif k == "produce":
                # 1.D Guerrilla Base: "Guerrillas can, but are not required to, generated from a
                # guerrilla base each turn": free output (Liberators, Partisans) is asked G by G
                # like paid output (the Comrades), never taken for the player (A-42)
                if C.panels[seat]["base_output"] and self._produce_choices(state, seat, fr):
                    return
                stack.pop()
            elif k == "effect":
                if self._run_effect(state, seat, fr, facts):
                    stack.pop()
                else:
                    return
            elif k == "fm" and not fr.get("only"):
                if not self._fm_choices(state, seat):
                    stack.pop()
                else:
                    return
            elif k == "fm":
                if not self._fm_choices(state, seat, "recruit"):
                    stack.pop()
                else:
                    return
            elif k == "presence" and not self._presence_choices(state, seat, fr["range"]):
                stack.pop()
            elif k == "reclaim" and not pl["discard"]:
                stack.pop()
            elif k == "forget" and not forget_candidates(pl, fr["kept"]):
                stack.pop()
            elif k == "deck" and not (state["decks"]["major"] or state["decks"]["minor"]):
                stack.pop()
            elif k == "select" and len(self._seat_choices(state, seat)[2]) == 1:
                stack.pop()
            elif k == "target" and not self._target_tiles(state, seat, fr):
                stack.pop()
                if fr["src"] in C.cards:
                    pl["done_cards"].append(fr["src"])
            elif k == "burden" and (not self._burden_tiles(state, seat) or pl["res"] <= 0):
                stack.pop()       # nothing to pay, or nothing to pay with: the end of turn disbands
            else:
                return

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
        what = f"Pay {bo['cost']} for 1 G" if bo["cost"] else "Take 1 free G"
        return [Choice(f"produce:{tid}", f"{what} from your base in {B.tname(tid)}", {"tile": tid})
                for tid in self._own_bases(state, seat) if self._output_room(state, seat, tid, made.get(tid, 0)) > 0]

    def _advance(self, state, facts) -> None:
        while state["result"] is None:
            if state["g"]:
                return
            for s in state["seats"]:
                self._settle_seat(state, s, facts)
            if state["result"] is not None:
                return
            if any(state["frames"][s] for s in state["seats"]):
                return
            ph = state["phase"]
            if ph == "hq":
                self._initial_deploy(state, facts)
                self._start_turn(state, facts)
            elif ph == "window":
                state["phase"] = "adversary"
                self._queue_adversary(state, facts)
            elif ph == "adversary":
                if not self._run_adversary(state, facts):
                    return
            elif ph == "long":
                self._end_turn(state, facts)
                if state["result"] is None:
                    self._start_turn(state, facts)
            self._check_end(state, facts)

    def _initial_deploy(self, state, facts) -> None:
        """2.C: the adversary flips the top terrain card, deploys, and moves it to develop."""
        cid = state["decks"]["terrain"].pop(0)
        state["stats"]["terrain_cards"] += 1
        B.add_fact(facts, "terrain", f"Initial deploy: terrain card {cid} (reference {C.terrain[cid]['terrain_card_ref']}).",
                   card=cid, barrier=True)
        for tid in ADV.card_tiles(state, cid):
            ADV.deploy_tile(state, tid, facts)
        state["boxes"]["develop"] = cid

    def _start_turn(self, state, facts) -> None:
        state["turn"] += 1
        state["phase"] = "window"
        B.add_fact(facts, "turn", f"Turn {state['turn']} begins.", turn=state["turn"])
        for seat in state["seats"]:
            pl = state["pl"][seat]
            pl["used"] = []
            pl["done_cards"] = []
            # 3 (Player Phase): "Players can execute the Player Phase and Immediate Capabilities
            # Phase actions in the order of their choosing": the seat picks its next step from a
            # menu (refit 3.A, gain resources 3.B, base output 1.D, force management 3.C, select
            # 3.D, execute phase 2) until it says done (A-30)
            # the Partisans' d10 for presence is the first step they take from the menu (``step:roll``),
            # before refit; refit and done are not offered until they have rolled
            state["frames"][seat] = [{"k": "steps", "taken": []}]

    def _partisan_roll(self, state, seat, facts) -> None:
        """Partisans panel (1.E, refit): "every turn prior to refit they roll a die to see if a
        presence token is deployed": "ALWAYS ROLL TO ADD 1 PRESENCE. 1-5 FAILURE 6-10 SUCCESS"
        (A-09, A-64). A success deploys the presence: the player chooses where (within 1 of their
        presence) and which track circle it uncovers (A-44); with no legal tile it is lost."""
        roll = R.roll(state["rng"], 10, tag="d10")
        ok = roll >= 6
        B.add_fact(facts, "roll", f"Partisans roll {roll} on the d10: {'a presence is added' if ok else 'no presence'}.",
                   seat=seat, die=roll, barrier=True)
        if ok:
            if self._presence_choices(state, seat, 1):
                state["frames"][seat].append({"k": "presence", "range": 1, "roll": True})
            else:
                B.add_fact(facts, "presence", "The Partisans have no legal tile (or no covered circle) for the presence.",
                           seat=seat)

    def _queue_adversary(self, state, facts) -> None:
        q = [{"s": "event"}, {"s": "influence"}]
        q += [{"s": "dominate", "tile": t} for t in ADV.card_tiles(state, state["boxes"]["dominate"])]
        q += [{"s": "develop", "tile": t} for t in ADV.card_tiles(state, state["boxes"]["develop"])]
        q += [{"s": "deploy"}, {"s": "shift"}]
        state["adv"] = q
        B.add_fact(facts, "phase", f"Adversary phase (turn {state['turn']}).")

    def _run_adversary(self, state, facts) -> bool:
        """Run queued adversary steps; False when a player decision is pending."""
        while state["adv"] and state["result"] is None:
            if state["g"]:
                return False   # a player decision raised by the last step (1.H payment, a recruit, A-44 cover)
            step = state["adv"][0]
            s = step["s"]
            if s in ("dominate", "develop"):
                tid = step["tile"]
                t = state["tiles"][tid]
                if (not step.get("asked") and "partisans" in state["seats"] and B.is_hq(state, tid, "partisans")
                        and s not in t["prev"] and self._worth_asking(state, tid, s)):
                    state["g"].append({"k": "shield", "seat": "partisans", "tile": tid, "step": s,
                                       "text": f"The adversary is about to {s} {B.tname(tid)}, where you have your HQ.",
                                       "rule": "Partisans panel (A-51)"})
                    return False
                state["adv"].pop(0)
                if s == "dominate":
                    pending: list = []
                    esc = ADV.dominate_tile(state, tid, facts, pending)
                    if pending and state["result"] is None:
                        # 3.F: the director targets the counterattack; the spill-over is asked after it
                        pending[0]["esc"] = esc
                        state["g"].append(pending[0])
                        return False
                    if not self._escalate(state, esc, facts):
                        return False
                else:
                    ADV.develop_tile(state, tid, facts)
            else:
                state["adv"].pop(0)
                if s == "event":
                    ADV.run_event(state, facts)
                elif s == "influence":
                    ADV.run_influence_cards(state, facts)
                elif s == "deploy":
                    deck = state["decks"]["terrain"]
                    if not deck:
                        # a scenario panel may turn this moment into its own end (5, A-55): checked first
                        self._scenario_end(state, "deck_exhausted")
                        if state["result"] is None:
                            state["result"] = self._result(state, "adversary",
                                                           "time runs out: the terrain deck is exhausted (A-18)")
                            B.add_fact(facts, "end", "The terrain deck is exhausted: the players lose.")
                        else:
                            B.add_fact(facts, "end", f"The terrain deck is exhausted: {state['result']['reason']}.")
                        state["phase"] = "over"
                        return True
                    cid = deck.pop(0)
                    state["stats"]["terrain_cards"] += 1
                    state["boxes"]["deploy"] = cid
                    B.add_fact(facts, "terrain", f"Deploy: terrain card {cid} (stage {C.terrain[cid]['stage']}, reference "
                               f"{C.terrain[cid]['terrain_card_ref']}).", card=cid, barrier=True)
                    for tid in ADV.card_tiles(state, cid):
                        ADV.deploy_tile(state, tid, facts)
                elif s == "shift":
                    bx = state["boxes"]
                    if bx["dominate"]:
                        bx["terrain_discard"].append(bx["dominate"])
                    bx["dominate"], bx["develop"], bx["deploy"] = bx["develop"], bx["deploy"], None
                    B.add_fact(facts, "terrain", "Terrain cards shift: develop -> dominate, deploy -> develop.")
            self._check_end(state, facts)
        if state["result"] is None and not state["adv"]:
            state["phase"] = "long"
            for seat in state["seats"]:
                frames = [{"k": "burden"}, {"k": "exec", "speed": "long"}]
                if C.panels[seat]["force_management"]["phase"] == "long":
                    frames.append({"k": "fm"})
                state["frames"][seat] = frames
        return True

    def _escalate(self, state, esc, facts) -> bool:
        """3.F escalation spill-over from ``esc``; False when the team must decide the tile (A-13)."""
        if not esc or state["result"] is not None or state["tyr_pool"] <= 0:
            return True
        self._check_end(state, facts)
        cand = ADV.escalate_choices(state, esc) if state["result"] is None else []
        if len(cand) == 1:
            ADV.escalate_into(state, cand[0], facts)
        elif cand:
            state["g"].append({"k": "escalate", "tile": esc, "struck": [],
                               "text": f"Tyranny escalates in {B.tname(esc)}: the team chooses, by consensus, the "
                                       "adjacent tile that receives a tyranny token and a cell. Any player "
                                       "proposes a tile; the others agree or object.",
                               "rule": "3.F (A-13)"})
            return False
        return True

    def _counter_hit(self, state, fr, kind, facts) -> None:
        """3.F guerrilla counterattack: the director's next target (``hit:<unit>``), at bare health."""
        tid = fr["tile"]
        t = state["tiles"][tid]
        seat = fr["seat"]
        _hit_unit(state, tid, kind, fr, facts, seat, "guerrilla counterattack")
        if fr["alloc"] and ADV.counter_choice_needed(t, fr["alloc"]):
            state["g"].append(fr)
            return
        if fr["alloc"]:
            excess = B.allocate(state, tid, fr["alloc"], facts, seat, "guerrilla counterattack")
            if excess:
                B.collateral(state, tid, excess, facts, seat, "guerrilla counterattack")
        B.clear_tyranny_check(state, tid, facts)
        self._escalate(state, fr.get("esc"), facts)

    def _worth_asking(self, state, tid, step) -> bool:
        if step == "develop":
            return bool(state["tiles"][tid]["u"])
        return ADV.dominate_strength(state, tid) >= 1

    def _end_turn(self, state, facts) -> None:
        """Phase 4 end: cards to the local discard, damage heals, stacking burden (A-46)."""
        for seat in state["seats"]:
            pl = state["pl"][seat]
            pl["discard"] += pl["played"]
            pl["played"] = []
            for tid in state["order"]:
                t = state["tiles"][tid]
                n = t["gs"].get(seat, 0) - pl.get("upkept", {}).get(tid, 0)
                if n > 4:
                    excess = n - 4
                    pay = min(excess, pl["res"])
                    pl["res"] -= pay
                    lose = excess - pay
                    if pay:
                        B.add_fact(facts, "track", f"{seat.title()} pay {pay} to keep massed guerrillas in {B.tname(tid)}.",
                                   seat=seat, track="resources", delta=-pay, value=pl["res"], cause="guerrilla stacking")
                    if lose:
                        t["gs"][seat] -= lose
                        B.add_fact(facts, "remove", f"{lose} {seat.title()} G disband in {B.tname(tid)} (stacking).", seat=seat, tile=tid)
            pl.pop("upkept", None)
        for t in state["tiles"].values():
            for u in t["u"]:
                u[1] = 0
            for b in t["bases"]:
                b[1] = 0
            t["def"] = 0
            t["prev"] = []
        state["phase"] = "end"
        if state["result"] is None:
            self._scenario_end(state, "turn_end")
            if state["result"] is not None:
                state["phase"] = "over"
                state["g"] = []
                for s in state["seats"]:
                    state["frames"][s] = []
                B.add_fact(facts, "end", f"Game over: {state['result']['winner']} win ({state['result']['reason']}).",
                           barrier=True)

    # ---- end of game (4) -----------------------------------------------------------------------
    def _check_end(self, state, facts) -> None:
        """A-53: checked after every atomic resolution; defeat wins ties."""
        if state["result"] is not None or state["phase"] == "hq":
            return
        if state["tyr_pool"] <= 0:
            state["result"] = self._result(state, "adversary", "total tyranny: every available tyranny token is on the map")
        else:
            held = {s for t in state["tiles"].values() for s in t["pres"]}
            for seat in state["seats"]:
                if seat not in held:
                    state["result"] = self._result(state, "adversary", f"presence annihilation: the {seat.title()} have no presence left")
                    break
        if state["result"] is None:
            inf = state["inf"]
            lvl = inf["level"]
            n = {"cell": 0, "outpost": 0, "garrison": 0}
            for t in state["tiles"].values():
                for u in t["u"]:
                    n[u[0]] += 1
            if len(inf["played"]) >= inf["total"]:
                state["result"] = self._result(state, "players", "level 4: every influence card has been played")
            elif lvl == 1 and not (n["cell"] + n["outpost"] + n["garrison"]):
                state["result"] = self._result(state, "players", "level 1: no adversary units remain")
            elif lvl == 2 and not (n["outpost"] + n["garrison"]):
                state["result"] = self._result(state, "players", "level 2: no outposts or garrisons remain")
            elif lvl == 3 and not n["garrison"]:
                state["result"] = self._result(state, "players", "level 3: no garrisons remain")
        if state["result"] is None:
            self._scenario_end(state, "always")
        if state["result"] is not None:
            state["phase"] = "over"
            state["g"] = []
            for s in state["seats"]:
                state["frames"][s] = []
            B.add_fact(facts, "end", f"Game over: {state['result']['winner']} win ({state['result']['reason']}).", barrier=True)

    def scenario_condition_met(self, state, cond) -> bool:
        """5 (A-55): one end condition of the scenario panel in play."""
        inf = state["inf"]
        chk = cond["check"]
        if chk == "level_below_by_turn":
            return state["turn"] >= cond["turn"] and inf["level"] < cond["level"]
        if chk == "level_at_least":
            return inf["level"] >= cond["level"]
        if chk == "no_tyranny":
            return B.tyranny_on_map(state) == 0 and inf["level"] >= cond["level"]
        if chk == "civilians_killed":
            return state["stats"]["civilians_killed"] >= cond["per_player"] * len(state["seats"])
        if chk == "blue_share":
            blue = sum(t["blue"] for t in state["tiles"].values())
            red = sum(t["red"] for t in state["tiles"].values())
            return blue > 0 and blue >= cond["ratio"] * red and inf["level"] >= cond["level"]
        raise AssertionError(chk)  # pragma: no cover - validated in data.validate

    def _scenario_end(self, state, when) -> None:
        """The scenario panel's own victory and defeat conditions (defeats first, A-53)."""
        conds = [c for c in C.scenarios[state["opts"]["scenario"]].get("victory", []) if c["when"] == when]
        for cond in sorted(conds, key=lambda c: c["outcome"] != "adversary"):
            if self.scenario_condition_met(state, cond):
                state["result"] = self._result(state, cond["outcome"], f"scenario: {cond['reason']}")
                return

    def _result(self, state, winner, reason) -> dict:
        inf = state["inf"]
        score = inf["n_earned"] * 10 + inf["earned"] - 5 * B.tyranny_on_map(state)
        return {"winner": winner, "reason": reason, "turn": state["turn"], "influence_level": inf["level"],
                "influence_cards_played": len(inf["played"]),
                "ranking": ["players", "adversary"] if winner == "players" else ["adversary", "players"],
                "margin": {"influence_cards_earned": inf["n_earned"], "tyranny_pool_left": state["tyr_pool"],
                           "score": score},
                "seats": list(state["seats"])}

    # ---- views and metrics -------------------------------------------------------------------
    def result(self, state) -> dict | None:
        return state["result"]

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
                        "state": B.tyranny_state(state), "threshold": THRESHOLD[len(state["seats"])]},
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
        inf = state["inf"]
        m = {
            "turn": state["turn"],
            "influence_earned": inf["earned"], "influence_level": inf["level"],
            "influence_cards_earned": inf["n_earned"], "influence_cards_played": len(inf["played"]),
            "tyranny_on_map": B.tyranny_on_map(state), "tyranny_pool": state["tyr_pool"],
            "tyranny_removed": state["tyr_gone"], "tyranny_state": 1 if B.tyranny_state(state) == "tyranny" else 0,
            # 3.D (A-16): the threshold for this player count; total = every token the game began with
            "tyranny_threshold": THRESHOLD[len(state["seats"])],
            "tyranny_total": B.tyranny_on_map(state) + state["tyr_pool"] + state["tyr_gone"],
            "adversary_cells": B.on_map(state, "cell"), "adversary_outposts": B.on_map(state, "outpost"),
            "adversary_garrisons": B.on_map(state, "garrison"),
            "guerrillas": sum(B.g_total(t) for t in state["tiles"].values()),
            "bases": sum(len(t["bases"]) for t in state["tiles"].values()),
            "civilians_red": sum(t["red"] for t in state["tiles"].values()),
            "civilians_blue": sum(t["blue"] for t in state["tiles"].values()),
            "civilians_killed": state["stats"]["civilians_killed"],
        }
        for s in state["seats"]:
            m[f"presence_{s}"] = B.presence_total(state, s)
            m[f"hq_{s}"] = sum(1 for tid in state["order"] if state["tiles"][tid]["pres"].get(s, 0) >= 2)
            m[f"resources_{s}"] = state["pl"][s]["res"]
            m[f"guerrillas_{s}"] = sum(t["gs"].get(s, 0) for t in state["tiles"].values())
        return m

    def board_map(self):
        from engine.scenarios.tears_of_tyranny.board_view import board_map
        return board_map()

    def board_view(self, state, seat):
        from engine.scenarios.tears_of_tyranny.board_view import board_view
        return board_view(self, state, seat)

    def board_view_of(self, view, seat):
        from engine.scenarios.tears_of_tyranny.board_view import from_view
        return from_view(view, seat)

    def victory_from(self, metrics: dict, view: dict) -> list:
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
            tiles.append({"id": tid, "septet": t["septet"], "septet_name": t["septet_name"], "quadrant": t["quadrant"],
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

    def bot_kinds(self) -> dict:
        from engine.scenarios.tears_of_tyranny.bots import HeuristicBot

        return {"heuristic": lambda rules, seat, seed=0: HeuristicBot(rules, seat, seed)}
