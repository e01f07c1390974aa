"""How long a session takes: decision counts from bot-played games and a time per decision.

``coinlab pace`` and the scheduling page use :func:`estimate`. It plays ``games`` complete
games with the game's best bots (heuristic, else the Non-player procedure, else random legal
play), counts every decision a seat is asked for, and turns the counts into minutes with a
:class:`TimeModel`: seconds per kind of decision (:class:`~engine.core.contract.ChoiceKind`,
read from the choice the bot took).

Time runs per seat. A prompt that waits for one seat (Peru, Andean Abyss, most of Tears of
Tyranny's adversary phase) stops the whole table: every seat's clock moves to the latest one,
then that seat's decision is added. A prompt that several seats answer at once (Tears of
Tyranny's player window) lets each seat's clock run on its own. A game's length is the latest
clock at the end. The spread across games (10th, 50th and 90th percentile) is reported with
the mean, never the mean alone.

The default seconds per kind (:data:`DEFAULT_SECONDS`) are a documented guess for a student
team that discusses its main choices and clicks through the small ones (docs/pacing.md).
When logged sessions exist, the platform scales the whole model so that its mean per decision
matches the median time per decision observed in those logs (:meth:`TimeModel.scaled_to`),
and says how many decisions the figure rests on.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from engine.bots.base import make_bot
from engine.core.contract import ChoiceKind, Rules

#: Seconds a student team takes for one decision of each kind (docs/pacing.md).
DEFAULT_SECONDS: dict[str, float] = {
    ChoiceKind.ACTION: 30.0,            # which sequence-of-play option: the team discusses it
    ChoiceKind.OPERATION: 20.0,
    ChoiceKind.SPECIAL_ACTIVITY: 15.0,
    ChoiceKind.EVENT: 20.0,
    ChoiceKind.EVENT_SIDE: 15.0,
    ChoiceKind.CARD: 12.0,
    ChoiceKind.SPACE: 8.0,
    ChoiceKind.FACTION: 8.0,
    ChoiceKind.PIECE: 6.0,
    ChoiceKind.AMOUNT: 6.0,
    ChoiceKind.OPTION: 8.0,
    ChoiceKind.CONFIRM: 3.0,
    ChoiceKind.PASS: 5.0,
    ChoiceKind.DONE: 3.0,
    ChoiceKind.UNDO: 3.0,
}
#: A choice whose game does not say its kind yet.
UNKNOWN_KIND_SECONDS = 10.0


@dataclass(frozen=True)
class TimeModel:
    """Seconds per decision kind; ``source`` says where the figures come from."""

    seconds: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_SECONDS))
    unknown: float = UNKNOWN_KIND_SECONDS
    source: str = "default"
    observed_decisions: int = 0
    #: The median seconds per decision seen in logged sessions (0: none); :func:`estimate`
    #: scales the model to it on the games it prices (:meth:`scaled_to`).
    observed_median: float = 0.0

    def seconds_for(self, kind: str) -> float:
        return self.seconds.get(kind, self.unknown) if kind else self.unknown

    def scaled_to(self, median_seconds: float, decisions: int, mean_of_model: float) -> TimeModel:
        """This model scaled so that its mean per decision (``mean_of_model``, measured on
        bot games of the same game) equals the observed ``median_seconds``."""
        if median_seconds <= 0 or mean_of_model <= 0:
            return self
        k = median_seconds / mean_of_model
        return TimeModel({kind: s * k for kind, s in self.seconds.items()}, self.unknown * k,
                         source="logged sessions", observed_decisions=decisions)

    @classmethod
    def observed(cls, median_seconds: float, decisions: int) -> TimeModel:
        """The default model, to be scaled to ``median_seconds`` seen over ``decisions``."""
        if decisions <= 0 or median_seconds <= 0:
            return cls()
        return cls(source="logged sessions", observed_decisions=decisions, observed_median=median_seconds)


def best_bot_kind(rules: Rules) -> str:
    kinds = rules.bot_kinds()
    for k in ("heuristic", "nonplayer"):
        if k in kinds:
            return k
    return "random"


def game_decisions(rules: Rules, seed: int, options: dict | None = None, bots: str | None = None,
                   max_choices: int = 200_000) -> list[tuple[tuple[str, ...], str, str]]:
    """One bot-played game as its decisions: (seats asked, deciding seat, choice kind)."""
    bots = bots or best_bot_kind(rules)
    state = rules.setup(seed=seed, options={**rules.options_for_bots(bots), **(options or {})})
    seat_bots = {s: make_bot(rules, bots, s, seed) for s in rules.seat_ids()}
    out: list[tuple[tuple[str, ...], str, str]] = []
    while True:
        p = rules.prompt(state)
        if p is None:
            return out
        seat = p.seats[0]
        cid = seat_bots[seat].choose(state, p).choice_id
        kind = ""
        for c in p.choices_for(seat):
            if c.id == cid:
                kind = str(c.kind or "")
                break
        out.append((tuple(p.seats), seat, kind))
        rules.apply_inplace(state, seat, cid)
        if len(out) > max_choices:
            raise RuntimeError(f"seed {seed}: no end after {max_choices} choices")


def game_minutes(decisions: list[tuple[tuple[str, ...], str, str]], model: TimeModel) -> float:
    """Minutes of play for one game's decisions (clocks per seat, see the module docstring)."""
    clock: dict[str, float] = {}
    for seats, seat, kind in decisions:
        t = model.seconds_for(kind)
        if len(seats) == 1:
            now = max(clock.values(), default=0.0)
            for s in clock:
                clock[s] = now
            clock[seat] = now + t
        else:
            clock[seat] = clock.get(seat, max(clock.values(), default=0.0)) + t
    return max(clock.values(), default=0.0) / 60.0


def _percentile(values: list[float], q: float) -> float:
    v = sorted(values)
    if not v:
        return 0.0
    i = (len(v) - 1) * q
    lo = int(i)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (i - lo)


def mean_seconds(decisions: list[list[tuple[tuple[str, ...], str, str]]], model: TimeModel) -> float:
    """The model's mean seconds per decision over these games' decisions."""
    ts = [model.seconds_for(k) for game in decisions for _seats, _seat, k in game]
    return statistics.fmean(ts) if ts else 0.0


def estimate(rules: Rules, options: dict | None = None, games: int = 20, seed: int = 1,
             model: TimeModel | None = None, bots: str | None = None,
             decisions: list | None = None) -> dict[str, Any]:
    """Expected minutes for a session of ``rules`` with ``options`` (see the module docstring).

    ``decisions`` may pass games already played by :func:`game_decisions` (to price them with
    another model without replaying them)."""
    model = model or TimeModel()
    if decisions is None:
        decisions = [game_decisions(rules, seed + g, options, bots) for g in range(games)]
    if model.observed_median:
        base = TimeModel()
        model = base.scaled_to(model.observed_median, model.observed_decisions, mean_seconds(decisions, base))
    minutes = [game_minutes(d, model) for d in decisions]
    per_seat: dict[str, list[int]] = {}
    for d in decisions:
        counts: dict[str, int] = {}
        for _seats, seat, _kind in d:
            counts[seat] = counts.get(seat, 0) + 1
        for s, n in counts.items():
            per_seat.setdefault(s, []).append(n)
    totals = [len(d) for d in decisions]
    return {
        "game": rules.key,
        "options": dict(options or {}),
        "games": len(decisions),
        "bots": bots or best_bot_kind(rules),
        "model": model.source,
        "observed_decisions": model.observed_decisions,
        "minutes": {
            "mean": round(statistics.fmean(minutes), 1) if minutes else 0.0,
            "p10": round(_percentile(minutes, 0.10), 1),
            "p50": round(_percentile(minutes, 0.50), 1),
            "p90": round(_percentile(minutes, 0.90), 1),
        },
        "decisions": {
            "mean": round(statistics.fmean(totals), 1) if totals else 0.0,
            "p10": round(_percentile(totals, 0.10)),
            "p90": round(_percentile(totals, 0.90)),
        },
        "decisions_per_seat": {s: round(statistics.fmean(v), 1) for s, v in sorted(per_seat.items())},
    }
