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
from engine.core.contract import OptionInfo, Prompt, Rules, SeatInfo, cause_decision, cause_die
from engine.core.messages import is_msg, msg
from engine.scenarios.tears_of_tyranny import board as B
from engine.scenarios.tears_of_tyranny import texts as T
from engine.scenarios.tears_of_tyranny.capabilities import CapabilitiesMixin
from engine.scenarios.tears_of_tyranny.data import SEAT_ORDER, UNIT_VALUE, content
from engine.scenarios.tears_of_tyranny.escalation import EscalationMixin
from engine.scenarios.tears_of_tyranny.force_management import ForceManagementMixin
from engine.scenarios.tears_of_tyranny.frames import FramesMixin
from engine.scenarios.tears_of_tyranny.panel import (  # noqa: F401  (re-exported for bots and tests)
    OP_WORDS,
    ROWS,
    VAL,
    WINDOW_STEPS,
    _hit_unit,
    _PerSeat,
    attributes,
    card_line,
    covered,
    forget_candidates,
    has_reclaim_circle,
    income,
    meets,
    plays_limit,
)
from engine.scenarios.tears_of_tyranny.position import PositionMixin
from engine.scenarios.tears_of_tyranny.refit import RefitMixin
from engine.scenarios.tears_of_tyranny.turn_flow import TurnFlowMixin
from engine.scenarios.tears_of_tyranny.victory import VictoryMixin
from engine.scenarios.tears_of_tyranny.views import ViewsMixin
from engine.scenarios.tears_of_tyranny.window import WindowMixin

C = content()
EACH_ACTS = msg("Each player acts; the phase ends when all are done.")
BASE_OUTPUT = msg("base output")

#: choices whose id names hidden cards (a drawn card kept, the order of unkept cards, a card
#: forgotten from the hand, 1.F): a cause names only the kind of choice, never the card
SECRET_CHOICES = ("keep", "order", "bottom", "forget")


def logged_id(choice_id: str) -> str:
    """``choice_id`` as a cause may name it: without the hidden part of a secret choice."""
    head = choice_id.partition(":")[0]
    return head if head in SECRET_CHOICES else choice_id



class _NotPlainJson(Exception):
    pass


def _plain(x):
    """A deep copy of plain JSON data (dicts with string keys, lists, strings, numbers, booleans,
    None); anything else raises :class:`_NotPlainJson`. A dict subclass (a frame's label is an
    ``engine.core.messages.Msg``) is copied to a plain dict, as the JSON round trip gives it:
    before, one such label sent every copy of the frames through the round trip (issue 20)."""
    t = type(x)
    if t is dict:
        return _plain_dict(x)
    if t is list:
        return [_plain(v) for v in x]
    if t is str or t is int or t is float or t is bool or x is None:
        return x
    if isinstance(x, dict):
        return _plain_dict(x)
    raise _NotPlainJson


def _plain_dict(x: dict) -> dict:
    out = {}
    for k, v in x.items():
        if type(k) is not str:
            raise _NotPlainJson
        out[k] = _plain(v)
    return out


def _json_copy(x):
    """``json.loads(json.dumps(x))``, without the text in between when ``x`` is plain JSON data
    (what a state holds); a tuple, a number key or anything else takes the round trip itself."""
    try:
        return _plain(x)
    except _NotPlainJson:
        return json.loads(json.dumps(x))


class TearsOfTyranny(FramesMixin, WindowMixin, RefitMixin, ForceManagementMixin, CapabilitiesMixin, EscalationMixin,
                     TurnFlowMixin, VictoryMixin, ViewsMixin, PositionMixin, Rules):
    """The rules, one mixin per rulebook section (issue 16.9): ``refit`` (3.A, 2.C placement),
    ``force_management`` (3.C, 1.D output, A-46), ``capabilities`` (1.F, 3.D-phase 4, 1.G combat),
    ``escalation`` (3.F decisions), ``turn_flow`` (3, 3.D-3.I), ``victory`` (4), ``window`` (the
    step menu, A-30), ``views`` (hidden information, metrics, board). This module holds set-up (2),
    the prompt and the application of a choice."""

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
    #: contract v2: every prompt, label and fact text is a message (tests/engine/test_messages_complete.py)
    texts_are_messages = True

    # ---- options ------------------------------------------------------------------------------
    def options(self) -> list[OptionInfo]:
        return [
            OptionInfo("players", "Players", "int", 4, (1, 2, 3, 4), "1-4 players; one quadrant each (1.A)."),
            OptionInfo("roles", "Player types", "json", None, (),
                       "List of seats in play, e.g. [\"advisors\",\"comrades\"]; default: the first N in panel order."),
            OptionInfo("position", "Starting position", "json", None, (),
                       "Start at a turn's player window from a described board (position.py; "
                       "Rules.position_schema())."),
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
        # issue 16.11: a scenario panel may set starting conditions per player count (balance)
        adj = {**scen["rules_adjustments"], **scen.get("by_players", {}).get(str(n), {})}
        opts = {
            "players": n, "roles": roles, "scenario": scen["id"],
            "terrain_deck": adj.get("terrain_deck", o.get("terrain_deck", "standard")),
            "collateral": o.get("collateral", "panel"), "advisor_table": str(o.get("advisor_table", "125")),
            "counterattack": o.get("counterattack", "red_only"),
        }
        pool_per = adj.get("tyranny_pool_per_player", 5)
        if pool_per != 5:
            # issue 16.3: a smaller (or larger) pool rescales the 3.D threshold in proportion
            opts["tyranny_threshold"] = B.scaled_threshold(n, pool_per)
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
        for q in range(n, n - min(n, adj.get("start_tyranny", 0)), -1):
            # issue 16.11: a starting tyranny token (2.C, A-07: at most one per quadrant), taken
            # from the pool, on the quadrant's strongest adversary tile (the first in tile order)
            strongest = max((t for t in order if C.tiles[t]["quadrant"] == q and not tiles[t]["tyr"]),
                            key=lambda t: sum(UNIT_VALUE[u[0]] for u in tiles[t]["u"]))
            tiles[strongest]["tyr"] += 1
            tyr_start += 1
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
            "v": 1, "seed": seed, "cap_turn": 1, "opts": opts, "seats": roles, "quad": quads, "rng": rng,
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
            B.gain_influence(state, adj["start_influence"], msg("scenario start"), facts)
        if o.get("position") is not None:
            self._apply_position(state, o["position"])       # contract v2 (position.py)
        return state

    # ---- serialisation -----------------------------------------------------------------------
    state_is_json = True  # the state is plain JSON data; (de)serialize are JSON round trips

    def serialize(self, state: dict) -> dict:
        return json.loads(json.dumps(state))

    def deserialize(self, data: dict) -> dict:
        return json.loads(json.dumps(data))

    def copy(self, state: dict) -> dict:
        """A fully independent copy (hand-rolled: much faster than a JSON round trip).

        The bots copy the state for every choice they weigh (about 15,000 copies a four-player
        game), so this is written for speed; it gives what the JSON round trip gave."""
        new = dict(state)
        tiles = {}
        for k, t in state["tiles"].items():
            us, bs = t["u"], t["bases"]
            tiles[k] = {"u": [u[:] for u in us] if us else [], "red": t["red"], "blue": t["blue"], "tyr": t["tyr"],
                        "gs": t["gs"].copy(), "bases": [b[:] for b in bs] if bs else [], "pres": t["pres"].copy(),
                        "def": t["def"], "prev": t["prev"][:]}
        new["tiles"] = tiles
        for key in ("rng", "pl", "frames", "g", "adv", "boxes", "result"):
            new[key] = _json_copy(state[key])
        new["decks"] = {k: v[:] for k, v in state["decks"].items()}
        inf = state["inf"]
        new["inf"] = {**inf, "deck": inf["deck"][:], "queue": inf["queue"][:], "played": inf["played"][:],
                      "markers": inf["markers"][:]}
        new["stats"] = dict(state["stats"])
        return new

    def active_seats(self, state: dict) -> list[str]:
        return list(state["seats"])

    def plan_phase(self, state: dict) -> str | None:
        """Issue 16.7: a seat may plan its whole part of the player window (phases 1-2: refit,
        resources, force management, cards) or of the long-term phase (4) in one submission
        (``engine.core.plan``); not while a team-wide question is open (3.F, A-13)."""
        if state["result"] is not None or state["g"] or state["phase"] not in ("window", "long"):
            return None
        return f"t{state['turn']}:{state['phase']}"

    # ---- prompt ------------------------------------------------------------------------------
    def prompt(self, state: dict) -> Prompt | None:
        if state["result"] is not None:
            return None
        turn = f"t{state['turn']}:{state['phase']}"
        if state["g"]:
            fr = state["g"][-1]
            ch = self.team_flow.ask(state).choices
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

        ask = self.seat_flow.ask

        def entry(s):
            if s not in cache:
                a = ask(state, s)
                cache[s] = (a.text, a.rule, a.choices, a.context["kind"])
            return cache[s]

        first = entry(seats[0])
        rule = {"hq": "2.C", "window": "3.A-3.D, phase 2", "long": "phase 4"}.get(state["phase"], "3")
        return Prompt(tuple(seats), EACH_ACTS, rule,
                      first[2], kind=first[3], turn=turn,
                      seat_choices=_PerSeat(seats, lambda s: entry(s)[2]),
                      seat_text=_PerSeat(seats, lambda s: entry(s)[0]),
                      # each seat stands at its own step (3.A refit, 3.C, 3.D, phase 2/4 ...):
                      # its own decision kind and rule, e.g. for the decision log
                      seat_kind=_PerSeat(seats, lambda s: entry(s)[3]),
                      seat_rule=_PerSeat(seats, lambda s: entry(s)[1]),
                      context={"phase": state["phase"], "turn": state["turn"]})


    # tyranny escalation by consensus (3.F, A-13) ------------------------------------------


    # the per-seat frames -------------------------------------------------------------------

    # the player window's step menu (3, A-30) ----------------------------------------------




    # ---- static helpers for choices ------------------------------------------------------











    # ---- targeting -----------------------------------------------------------------------








    # ---- effect op choices ---------------------------------------------------------------








    # ---- apply -------------------------------------------------------------------------------
    def apply_unchecked(self, state: dict, seat: str, choice_id: str) -> list:
        facts = self._apply_one(state, seat, choice_id)
        self._apply_only_choices(state, facts)
        # contract v2: every fact has a cause; automatic steps named theirs where they ran
        # (turn_flow), a die roll is the die's, the rest is the deciding seat's choice
        decision = cause_decision(seat, logged_id(choice_id))
        for f in facts:
            c = f.get("cause")
            if c is None:
                f["cause"] = cause_die("A-09", f["die"]) if f.get("type") == "roll" and "die" in f else decision
            elif isinstance(c, str) or is_msg(c):
                f["cause"] = {**decision, "because": c}   # the reason written with the fact
        return facts

    def _apply_one(self, state: dict, seat: str, choice_id: str) -> list:
        facts: list = []
        # the frame on top answers (a team-wide question first, else the seat's own); the
        # sequence of play then settles every stack in seat order (turn_flow._advance)
        (self.team_flow if state["g"] else self.seat_flow).answer(state, choice_id, facts, at=seat)
        self._check_end(state, facts)
        self._advance(state, facts)
        return facts

    #: single choices that are still asked: ``done`` closes a seat's part of a window or phase,
    #: and stays the seat's own click so it can undo before the adversary phase runs (A-30)
    ASK_EVEN_IF_ALONE = ("done",)
    #: seat frames whose prompt always includes ``done`` (so a single choice there is ``done``):
    #: not worth listing their choices to find out (speed)
    NEVER_ALONE = ("steps", "exec", "select", "produce")

    def _apply_only_choices(self, state: dict, facts: list) -> None:
        """Issue 16.7: a prompt with a single legal choice is applied without asking.

        Applied as part of the decision that led to it (so it is logged, replayed and undone with
        that decision, deterministically), with an ``only_choice`` fact naming it and the cause
        ``rule: only choice`` on the facts it produced. Never applied when it would reveal
        randomness or hidden information (a barrier fact: it is then asked, and undo stops there),
        nor for ``done`` (:attr:`ASK_EVEN_IF_ALONE`)."""
        skip: set = set()
        for _ in range(200):
            if state["result"] is not None:
                return
            if not state["g"] and all(not fr or fr[-1]["k"] in self.NEVER_ALONE for fr in state["frames"].values()):
                return          # fast path: every waiting seat stands at a menu that offers done
            p = self.prompt(state)
            if p is None:
                return
            applied = False
            for s in p.seats:
                top = state["frames"][s][-1]["k"] if not state["g"] and state["frames"].get(s) else None
                if top in self.NEVER_ALONE:
                    continue        # a menu that always offers done besides anything else: nothing to apply
                ch = p.choices_for(s)
                if len(ch) != 1 or ch[0].id in self.ASK_EVEN_IF_ALONE or (s, ch[0].id, p.kind_for(s)) in skip:
                    continue
                trial = self.copy(state)
                got = self._apply_one(trial, s, ch[0].id)
                if any(f.get("barrier") for f in got):
                    skip.add((s, ch[0].id, p.kind_for(s)))
                    continue
                cause = {"kind": "rule", "rule": "only choice", "seat": s, "choice": logged_id(ch[0].id)}
                note = {"type": "only_choice", "text": msg("{seat}: only one choice, applied without asking: {choice}",
                                                           seat=T.SEAT[s], choice=ch[0].label),
                        "seat": s, "choice": logged_id(ch[0].id), "cause": cause, "rule": p.rule_for(s)}
                if ch[0].payload.get("secret"):
                    # a secret decision's label names hidden cards: the others read that it happened
                    public = {"type": "only_choice", "text": msg("{seat}: only one choice, applied without asking.",
                                                                 seat=T.SEAT[s]),
                              "seat": s, "cause": {"kind": "rule", "rule": "only choice", "seat": s},
                              "rule": p.rule_for(s)}
                    note.update(visible_to=[s], public=public)
                facts.append(note)
                for f in got:
                    f.setdefault("cause", cause)
                facts.extend(got)
                state.clear()
                state.update(trial)
                applied = True
                break
            if not applied:
                return


    def bot_kinds(self) -> dict:
        from engine.scenarios.tears_of_tyranny.bots import HeuristicBot

        return {"heuristic": lambda rules, seat, seed=0: HeuristicBot(rules, seat, seed)}
