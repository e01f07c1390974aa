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
"""

from __future__ import annotations

import copy as _copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
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


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal answer to a prompt: a stable id, a label and a structured payload."""

    id: str
    label: str
    payload: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"id": self.id, "label": self.label, "payload": self.payload}


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


def fact(type_: str, text: str, **data: Any) -> Fact:
    """Build a fact dict: ``fact("track", "Political Will -1 (Terror in Junin)", track=..., ...)``."""
    d = {"type": type_, "text": text}
    d.update(data)
    return d


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

    def cards_played(self, state: State) -> int:
        """How many cards have been played so far (for cards/s benchmarks)."""
        return 0

    def is_over(self, state: State) -> bool:
        return self.prompt(state) is None

    def dumps(self, state: State) -> str:
        return json.dumps(self.serialize(state), sort_keys=True, separators=(",", ":"))

    def loads(self, text: str) -> State:
        return self.deserialize(json.loads(text))
