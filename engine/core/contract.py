"""The engine contract every scenario implements (ARCHITECTURE.md, "The engine contract").

A scenario is a :class:`Rules` object. States are scenario-defined but must
round-trip through JSON via ``serialize``/``deserialize``; all randomness lives
inside the state (see :mod:`engine.core.rng`).

Facts are plain JSON dicts built with :func:`fact`. Every fact has a ``type``
and a ``text`` (plain words a student reads). Optional keys with a meaning to
the platform:

``visible_to``  list of seats that may see this fact; absent means everyone.
``public``      the version of the fact that everybody else sees (a dict, or
                absent: the fact is then withheld from other seats entirely).
``barrier``     True when the fact reveals randomness or hidden information
                (card drawn, die rolled, hidden piece revealed). Undo never
                crosses a barrier (ARCHITECTURE.md, "The event log").
``track``/``delta``/``value``/``cause``  for track changes, so an AAR can name
                the cause of every change of a metric.

Metrics (``Rules.metrics``) must only contain public quantities: they are sent
to every seat with each event.

Contract v2 (docs/architecture.md, "The engine contract"):

- every text is a message (:mod:`engine.core.messages`): prompt texts, choice labels and
  help, fact texts, names;
- a :class:`Choice` carries its ``kind`` (:class:`ChoiceKind`), structured ``targets``,
  ``cost``, ``rule`` and ``help``;
- every fact carries its ``cause`` (:func:`cause_decision`, :func:`cause_rule`,
  :func:`cause_die`, :func:`cause_event`, :func:`cause_bot`, :func:`cause_facilitator`) and,
  when it changes a metric, ``deltas`` (metric name -> change);
- ``setup(seed, {"position": {...}})`` starts from a described position
  (:class:`PositionError` names the bad field), ``position(state)`` describes one.
"""

from __future__ import annotations

import copy as _copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

State = Any
Fact = dict


class IllegalChoice(ValueError):
    """Raised by ``Rules.apply`` for a choice that is not legal now.

    The state passed to ``apply`` is left untouched. ``code`` is a short machine
    string (``not_your_turn``, ``unknown_choice``, ``game_over``, ...); the
    message is written for a student.
    """

    def __init__(self, message: str, code: str = "illegal_choice"):
        super().__init__(message)
        self.code = code
        self.message = message


class ChoiceKind(StrEnum):
    """What a choice is, so the pages can explain and group choices without reading ids."""

    OPERATION = "operation"              # an Operation (Rally, Train, a player-window action)
    SPECIAL_ACTIVITY = "special_activity"
    ACTION = "action"                    # a sequence-of-play option (Op & SA, Limited Op, Event)
    EVENT = "event"                      # play a card's Event
    EVENT_SIDE = "event_side"            # which side (shaded/unshaded, top/bottom box)
    SPACE = "space"                      # a target space or tile
    PIECE = "piece"                      # a piece or piece type to place, move or remove
    FACTION = "faction"                  # a target faction or seat
    CARD = "card"                        # a card to keep, play or discard
    AMOUNT = "amount"                    # a number (how many, how much)
    OPTION = "option"                    # any other one-of-several option
    CONFIRM = "confirm"                  # go ahead / roll / reveal
    PASS = "pass"
    DONE = "done"                        # finish the current step
    UNDO = "undo"


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal answer to a prompt.

    ``id``       stable string (logged; replays exactly).
    ``label``    a message (or, in games not yet migrated, English text).
    ``payload``  structured data for the platform (kept for compatibility).
    ``kind``     a :class:`ChoiceKind` value.
    ``targets``  what the choice points at: ``{"space": "junin"}``, ``{"piece": "police"}``,
                 ``{"faction": "farc", "space": ...}``: read targets here, never from the id.
    ``cost``     what choosing it spends now, per resource: ``{"government": 2}``.
    ``rule``     the rulebook reference of this choice.
    ``help``     a message: what this choice does, in one sentence.
    """

    id: str
    label: Any
    payload: dict = field(default_factory=dict)
    kind: str = ""
    targets: dict = field(default_factory=dict)
    cost: dict | None = None
    rule: str = ""
    help: Any = None

    def to_dict(self) -> dict:
        d = {"id": self.id, "label": self.label, "payload": self.payload}
        if self.kind:
            d["kind"] = str(self.kind)
        if self.targets:
            d["targets"] = self.targets
        if self.cost:
            d["cost"] = self.cost
        if self.rule:
            d["rule"] = self.rule
        if self.help is not None:
            d["help"] = self.help
        return d


@dataclass(slots=True)
class Prompt:
    """Who must act now and the finite list of legal choices.

    ``seats``         the seats that must act (several in simultaneous phases).
    ``text``          the question, in words a student understands.
    ``rule``          the rulebook reference (e.g. "3.3.1").
    ``choices``       the legal choices (for a single-seat prompt).
    ``seat_choices``  for simultaneous phases: seat -> its own legal choices
                      (and ``seat_text`` seat -> its own question).
    ``kind``          a short machine name of the decision point.
    ``seat_kind``     for simultaneous phases: seat -> the machine name of *its own*
                      decision point, and ``seat_rule`` seat -> its own rule reference
                      (each seat may stand at a different step; absent: ``kind``/``rule``).
    ``turn``          an undo scope: a seat may undo its own decisions back to
                      the first one made under the same ``turn`` value, never
                      past a barrier fact.
    ``context``       extra public data for the page (e.g. the operation under way).
    """

    seats: tuple[str, ...]
    text: str
    rule: str
    choices: list[Choice]
    kind: str = ""
    turn: str = ""
    seat_choices: dict[str, list[Choice]] | None = None
    seat_text: dict[str, str] | None = None
    context: dict = field(default_factory=dict)
    seat_kind: dict[str, str] | None = None
    seat_rule: dict[str, str] | None = None

    def choices_for(self, seat: str) -> list[Choice]:
        if seat not in self.seats:
            return []
        if self.seat_choices is not None:
            return self.seat_choices.get(seat, [])
        return self.choices

    def text_for(self, seat: str) -> str:
        if self.seat_text and seat in self.seat_text:
            return self.seat_text[seat]
        return self.text

    def kind_for(self, seat: str) -> str:
        """The decision point ``seat`` is at (its own step in a simultaneous phase)."""
        if self.seat_kind and seat in self.seat_kind:
            return self.seat_kind[seat]
        return self.kind

    def rule_for(self, seat: str) -> str:
        """The rulebook reference of ``seat``'s own question."""
        if self.seat_rule and seat in self.seat_rule:
            return self.seat_rule[seat]
        return self.rule

    def find(self, seat: str, choice_id: str) -> Choice:
        """The legal choice ``choice_id`` for ``seat`` or :class:`IllegalChoice`."""
        if seat not in self.seats:
            waiting = ", ".join(self.seats)
            raise IllegalChoice(f"It is not {seat}'s turn to act (waiting for: {waiting}).",
                                code="not_your_turn")
        for c in self.choices_for(seat):
            if c.id == choice_id:
                return c
        raise IllegalChoice(
            f"'{choice_id}' is not a legal choice now. {self.text_for(seat)} (rule {self.rule_for(seat)})",
            code="unknown_choice")

    def to_dict(self, seat: str | None = None) -> dict:
        """JSON form; with ``seat``, only that seat's choices (other seats' are private)."""
        d: dict[str, Any] = {
            "seats": list(self.seats),
            "text": self.text if seat is None else self.text_for(seat),
            "rule": self.rule if seat is None else self.rule_for(seat),
            "kind": self.kind if seat is None else self.kind_for(seat),
            "turn": self.turn,
            "context": self.context,
        }
        if seat is None:
            if self.seat_choices is not None:
                d["seat_choices"] = {s: [c.to_dict() for c in cs] for s, cs in self.seat_choices.items()}
            if self.seat_kind is not None:
                d["seat_kind"] = {s: self.kind_for(s) for s in self.seats}
            if self.seat_rule is not None:
                d["seat_rule"] = {s: self.rule_for(s) for s in self.seats}
            d["choices"] = [c.to_dict() for c in self.choices]
        else:
            d["choices"] = [c.to_dict() for c in self.choices_for(seat)]
        return d


def fact(type_: str, text: Any, **data: Any) -> Fact:
    """Build a fact dict: ``fact("track", msg("Political Will {delta:+d}", delta=-1), deltas=...)``.

    ``text`` is a message; ``cause`` (see :func:`cause_rule` and friends) and ``deltas``
    (metric name -> change) are the structured parts an AAR reads.
    """
    d = {"type": type_, "text": text}
    d.update(data)
    return d


# ---- causes (contract v2): why a fact happened --------------------------------------
#: The kinds of cause a fact may carry.
CAUSE_DECISION = "decision"        # the deciding seat's choice
CAUSE_RULE = "rule"                # an automatic rule step (Propaganda, adversary phase, ...)
CAUSE_DIE = "die"                  # a die roll
CAUSE_EVENT = "event"              # an event card's effect
CAUSE_BOT = "bot"                  # a bot's (Non-player's) decision, with its reason
CAUSE_FACILITATOR = "facilitator"  # an instructor's override
CAUSE_KINDS = (CAUSE_DECISION, CAUSE_RULE, CAUSE_DIE, CAUSE_EVENT, CAUSE_BOT, CAUSE_FACILITATOR)


def cause_decision(seat: str, choice_id: str) -> dict:
    return {"kind": CAUSE_DECISION, "seat": seat, "choice": choice_id}


def cause_rule(rule: str, step: Any = None) -> dict:
    """An automatic rule step; ``step`` is a message naming it (e.g. "Resources phase")."""
    d: dict = {"kind": CAUSE_RULE, "rule": rule}
    if step is not None:
        d["step"] = step
    return d


def cause_die(rule: str, roll: Any = None) -> dict:
    d: dict = {"kind": CAUSE_DIE, "rule": rule}
    if roll is not None:
        d["roll"] = roll
    return d


def cause_event(card: Any, side: str = "", title: Any = None) -> dict:
    d: dict = {"kind": CAUSE_EVENT, "card": card}
    if side:
        d["side"] = side
    if title is not None:
        d["title"] = title
    return d


def cause_bot(seat: str, reason: Any = None, rule: str = "") -> dict:
    d: dict = {"kind": CAUSE_BOT, "seat": seat}
    if reason is not None:
        d["reason"] = reason
    if rule:
        d["rule"] = rule
    return d


def cause_facilitator(reason: Any = None) -> dict:
    d: dict = {"kind": CAUSE_FACILITATOR}
    if reason is not None:
        d["reason"] = reason
    return d


def attribute(facts: list, cause: dict, start: int = 0) -> list:
    """Give ``cause`` to every fact from index ``start`` on that has none yet (in place)."""
    for i in range(start, len(facts)):
        f = facts[i]
        if "cause" not in f:
            f["cause"] = cause
    return facts


class NoBoardView(NotImplementedError):
    """The game draws no typed board view (``Rules.board_map``/``board_view``): a game being
    added may run without one; the platform then shows the board as text only."""


class PositionError(ValueError):
    """A described starting position was refused; ``field`` names the bad field
    (a dotted path such as ``position.spaces.junin.guerrillas``)."""

    def __init__(self, field_path: str, problem: str):
        super().__init__(f"{field_path}: {problem}")
        self.field = field_path
        self.problem = problem


def fact_for_seat(f: Fact, seat: str | None) -> Fact | None:
    """The version of fact ``f`` that ``seat`` may see (None: withheld). ``seat=None`` sees all."""
    vis = f.get("visible_to")
    if seat is None or vis is None or seat in vis:
        return f
    pub = f.get("public")
    return dict(pub) if pub is not None else None


def facts_for_seat(facts: Iterable[Fact], seat: str | None) -> list[Fact]:
    out = []
    for f in facts:
        g = fact_for_seat(f, seat)
        if g is not None:
            if seat is not None:
                g = {k: v for k, v in g.items() if k not in ("visible_to", "public")}
            out.append(g)
    return out


@dataclass(frozen=True, slots=True)
class SeatInfo:
    id: str
    title: str
    color: str = "#777777"


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """A setup option a facilitator may set (documented for the scheduling page)."""

    key: str
    title: str
    kind: str  # "int" | "bool" | "choice" | "json"
    default: Any = None
    choices: tuple = ()
    help: str = ""


@dataclass(frozen=True, slots=True)
class Preset:
    """A ready-made session length for a class (issue 18): the setup options of a documented
    variant (docs/rules-notes/<game>.md) that fits a class period of about ``period`` minutes
    with ``players`` player seats (a team of students each). ``title`` and ``help`` are
    messages (engine.core.messages); the measured figures are in docs/benchmarks.md."""

    key: str
    title: Any
    options: dict
    players: int
    period: int
    help: Any = ""


class Rules(ABC):
    """One scenario's rules. Subclasses set ``key``, ``title`` and ``seats``."""

    key: str = ""
    title: str = ""
    seats: tuple[SeatInfo, ...] = ()
    min_players: int = 1
    max_players: int = 1
    # True when a state is plain JSON data (dicts with string keys, lists, strings, numbers,
    # booleans, None) and ``serialize``/``deserialize`` only make independent copies of it (a
    # JSON round trip): the platform may then take a freshly decoded JSON value as the state
    # and encode the state itself, without the copies' own round trips (issue #8).
    state_is_json: bool = False
    # True once every text the game produces (prompts, choice labels, fact texts) is a message
    # (contract v2, engine/core/messages.py), so the pages can show it in any language. A game
    # migrating to v2 sets it when done; tests/engine/test_messages_complete.py holds it to it.
    texts_are_messages: bool = False

    # ---- required -------------------------------------------------------
    @abstractmethod
    def setup(self, seed: int, options: dict | None = None) -> State: ...

    @abstractmethod
    def prompt(self, state: State) -> Prompt | None: ...

    @abstractmethod
    def apply_unchecked(self, state: State, seat: str, choice_id: str) -> list[Fact]:
        """Apply a choice already known to be legal, mutating ``state`` in place."""

    @abstractmethod
    def view(self, state: State, seat: str | None) -> dict: ...

    @abstractmethod
    def metrics(self, state: State) -> dict[str, float]: ...

    @abstractmethod
    def result(self, state: State) -> dict | None: ...

    @abstractmethod
    def serialize(self, state: State) -> dict: ...

    @abstractmethod
    def deserialize(self, data: dict) -> State: ...

    # ---- provided -------------------------------------------------------
    def copy(self, state: State) -> State:
        """An independent copy. Override with something faster than JSON if needed."""
        return _copy.deepcopy(state)

    def validate(self, state: State, seat: str, choice_id: str) -> Choice:
        """The legal :class:`Choice` or :class:`IllegalChoice` (state untouched)."""
        if not isinstance(choice_id, str) or not choice_id:
            raise IllegalChoice("A choice id must be a non-empty string.", code="malformed")
        p = self.prompt(state)
        if p is None:
            raise IllegalChoice("The game is over: no more choices can be made.", code="game_over")
        return p.find(seat, choice_id)

    def apply(self, state: State, seat: str, choice_id: str) -> tuple[State, list[Fact]]:
        """Check ``choice_id`` against the prompt, then return (new state, facts).

        Illegal choices raise :class:`IllegalChoice` and the given state is unchanged;
        the given state is never mutated (a copy is returned).
        """
        self.validate(state, seat, choice_id)
        new = self.copy(state)
        facts = self.apply_unchecked(new, seat, choice_id)
        return new, facts

    def apply_inplace(self, state: State, seat: str, choice_id: str) -> list[Fact]:
        """Validate then mutate ``state`` in place (fast path for bots and replay)."""
        self.validate(state, seat, choice_id)
        return self.apply_unchecked(state, seat, choice_id)

    def adjust(self, state: State, track: str, value: Any) -> list[Fact]:
        """A facilitator's adjudicated override: set ``track`` to ``value`` in place.

        Returns the facts of the change (``track``/``value``/``cause`` keys). The
        platform logs the override as a facilitator event and replays it through
        this method, so it must be deterministic. Scenarios that support it
        override this; the default refuses.
        """
        raise IllegalChoice(f"{self.title or self.key} does not support adjusting tracks "
                            f"(asked: {track} -> {value!r}).", code="adjust_unsupported")

    def options(self) -> list[OptionInfo]:
        return []

    def presets(self) -> list[Preset]:
        """Session-length presets (:class:`Preset`), shortest first; none by default."""
        return []

    def preset(self, key: str) -> Preset:
        """The preset named ``key``; ``KeyError`` naming the known keys when there is none."""
        for p in self.presets():
            if p.key == key:
                return p
        raise KeyError(f"{self.key} has no preset {key!r} (presets: {', '.join(p.key for p in self.presets()) or 'none'})")

    # ---- contract v2 (optional per game until it migrates) ------------------
    #: A game whose choices can be previewed by trial (``previews``: each legal choice applied
    #: to a copy of the state) sets this; otherwise ``preview`` answers None.
    previews_by_trial: bool = False

    def preview(self, state: State, seat: str, choice_id: str) -> dict[str, float] | None:
        """The metric deltas that choosing ``choice_id`` would cause now, when the immediate
        effect is deterministic and reveals nothing hidden; ``None`` otherwise (and for an
        illegal choice)."""
        if self.previews_by_trial:
            return self.previews(state, seat, [choice_id])[choice_id]
        return None

    @property
    def has_previews(self) -> bool:
        """Whether ``preview`` may answer anything but None (by trial, or a game's own)."""
        return self.previews_by_trial or type(self).preview is not Rules.preview

    def preview_refused(self, choice_id: str) -> bool:
        """A legal choice never previewed although its facts may not show it (Andean Abyss: a
        Non-player's flowchart, which may roll dice and draw spaces)."""
        return False

    def previews(self, state: State, seat: str, choice_ids: list[str]) -> dict[str, dict[str, float] | None]:
        """``preview`` of each of ``choice_ids`` (the same answers). The play page previews every
        choice of a seat's list at once (issue 20), so by trial the prompt is asked and the seat's
        legal choices listed once, and the metrics before the choice read once, instead of once
        per choice: each legal choice is applied to a copy; its preview is ``None`` as soon as a
        fact is a barrier (a die rolled, a card drawn or revealed) or private to a seat
        (``visible_to``), else the numeric metrics that changed, by how much."""
        if not self.previews_by_trial:
            return {cid: self.preview(state, seat, cid) for cid in choice_ids}
        p = self.prompt(state)
        legal = {c.id for c in p.choices_for(seat)} if p is not None else set()
        out: dict = {}
        before = None
        for cid in choice_ids:
            if not (isinstance(cid, str) and cid in legal) or self.preview_refused(cid):
                out[cid] = None   # what validate refuses (IllegalChoice), or never previewed
                continue
            trial = self.copy(state)
            if before is None:
                before = self.metrics(trial)
            facts = self.apply_unchecked(trial, seat, cid)
            if any(f.get("barrier") or f.get("visible_to") is not None for f in facts):
                out[cid] = None
                continue
            after = self.metrics(trial)
            out[cid] = {m: after[m] - before[m] for m in after
                        if isinstance(after[m], int | float) and not isinstance(after[m], bool)
                        and after[m] != before.get(m)}
        return out

    def position(self, state: State) -> dict:
        """The current position in the documented JSON shape that ``setup(seed,
        {"position": ...})`` accepts (public and hidden parts alike: for instructors)."""
        raise IllegalChoice(f"{self.title or self.key} cannot describe its position yet.",
                            code="position_unsupported")

    def position_schema(self) -> dict:
        """A JSON Schema of this game's ``position`` option (documentation and validation)."""
        return {}

    def directable(self, state: State, seat: str) -> list[Choice]:
        """The legal decisions a facilitator may direct the bot-run seat ``seat`` (e.g. an Andean
        Abyss Non-player) to take now instead of its own procedure's; empty: nothing to direct."""
        return []

    def apply_directed(self, state: State, seat: str, choice_id: str, reason: Any) -> list[Fact]:
        """Apply a directed decision (one of :meth:`directable`) in place; facts carry
        :func:`cause_facilitator`. Deterministic: the log replays it."""
        raise IllegalChoice(f"{self.title or self.key} has no decisions a facilitator can direct.",
                            code="direct_unsupported")

    def victory(self, state: State) -> list:
        """Each victory or defeat condition and how far it is from being met
        (:class:`engine.core.victory.Condition`); public quantities only."""
        return self.victory_from(self.metrics(state), self.view(state, None))

    def victory_from(self, metrics: dict, view: dict) -> list:
        """:meth:`victory` from the public metrics and a seat's view (what a live page holds
        already); games read only their public parts."""
        return []

    def catalog(self) -> dict:
        """Static game content as messages: ``{"cards": [...], "glossary": [...], "panels": [...],
        "names": [...]}``. Every message in it must be in the translation catalogs."""
        return {}

    def glossary(self):
        """The game's terms and rule summaries (``engine.core.glossary.Glossary``): the
        ``GLOSSARY`` of the game package's ``glossary`` module, an empty one without it.
        ``catalog()["glossary"]`` holds it as messages (``Glossary.to_catalog``)."""
        import importlib

        from engine.core.glossary import EMPTY

        name = type(self).__module__.rsplit(".", 1)[0] + ".glossary"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            return EMPTY
        return module.GLOSSARY

    def seat_ids(self) -> list[str]:
        return [s.id for s in self.seats]

    def active_seats(self, state: State) -> list[str]:
        """The seats in play in this state (player count may leave some out)."""
        return self.seat_ids()

    def bot_kinds(self) -> dict[str, Callable[..., Any]]:
        """Extra bot kinds beyond "random": name -> factory(rules, seat, seed) -> Bot."""
        return {}

    def options_for_bots(self, kind: str) -> dict[str, Any]:
        """Setup options implied when every seat is played by bots of ``kind`` (``coinlab
        simulate``); explicit options win. E.g. Andean Abyss: all "nonplayer" bots means every
        Faction is a section-8 Non-player."""
        return {}

    def board(self) -> dict:
        """Static board data for drawing (spaces, layout, tracks). JSON-compatible."""
        return {}

    def board_map(self):
        """The static part of the typed board view (``engine.core.boardview.BoardMap``): every
        space's geometry, adjacency and fixed facts, the factions and piece types. Once per game."""
        raise NoBoardView(f"{self.title or self.key} has no typed board map.")

    def board_view(self, state: State, seat: str | None):
        """What ``seat`` sees of the board (``engine.core.boardview.BoardView``), built from
        ``view(state, seat)`` so it never shows more than the seat's view."""
        raise NoBoardView(f"{self.title or self.key} has no typed board view.")

    def board_view_of(self, view: dict, seat: str | None):
        """The typed board view of ``view``, a ``view(state, seat)`` this game produced for
        ``seat`` (for callers that hold the view already: the live page)."""
        raise NoBoardView(f"{self.title or self.key} has no typed board view.")

    def plan_phase(self, state: State) -> str | None:
        """Where seats may submit a whole plan (``engine.core.plan``, issue 16.7): a name for the
        current stretch of play in which a seat plans its own part (a plan being drafted stops when
        it changes), or None when plans are not offered. Games that offer plans override this."""
        return None

    def cards_played(self, state: State) -> int:
        """How many cards have been played so far (for cards/s benchmarks)."""
        return 0

    def is_over(self, state: State) -> bool:
        return self.prompt(state) is None

    def dumps(self, state: State) -> str:
        return json.dumps(self.serialize(state), sort_keys=True, separators=(",", ":"))

    def loads(self, text: str) -> State:
        return self.deserialize(json.loads(text))
