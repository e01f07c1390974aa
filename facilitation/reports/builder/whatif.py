"""The road not taken: for a key decision of a team, play the game on from just before it,
once with what the team chose and once with each of the top alternatives, each N times with
bots in every seat, and compare the distributions of the team's victory margin with what
actually happened (pure: the engine and the report's measures, no Django).

Deterministic for a given report: every rollout's bots are seeded from the session seed,
the decision's event number, the alternative and the rollout number. The alternatives are
the other legal answers to the same prompt, the most different first (another kind of
choice before another target of the same kind), at most ``MAX_ALTERNATIVES``.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from facilitation.reports.builder.specs import Measure
from facilitation.reports.builder.translation import gettext, gettext_noop, text

# the bots that play the rollouts, per game: the strongest that finishes a game in well under a
# second (Tears of Tyranny's heuristic bot looks ahead and takes 15-20 s per game)
ROLLOUT_BOTS = {"peru": "heuristic", "andean_abyss": "nonplayer", "tears_of_tyranny": "random"}
#: the kinds of bot in words (translated where they are shown)
BOT_WORDS = {"heuristic": gettext_noop("heuristic"), "nonplayer": gettext_noop("Non-player"),
             "random": gettext_noop("random")}


def bot_words(kind: str) -> str:
    return gettext(BOT_WORDS[kind]) if kind in BOT_WORDS else kind
MAX_ALTERNATIVES = 3
MAX_CHOICES_PER_ROLLOUT = 20_000


@dataclass
class Option:
    choice_id: str
    label: str
    actual: bool
    margins: list[float] = field(default_factory=list)
    wins: int = 0

    @property
    def n(self) -> int:
        return len(self.margins)

    @property
    def mean(self) -> float | None:
        return round(statistics.fmean(self.margins), 2) if self.margins else None

    @property
    def quartiles(self) -> tuple[float, float, float] | None:
        if len(self.margins) < 2:
            return (self.margins[0],) * 3 if self.margins else None
        q = statistics.quantiles(self.margins, n=4, method="inclusive")
        return (q[0], q[1], q[2])

    @property
    def low(self) -> float | None:
        return min(self.margins) if self.margins else None

    @property
    def high(self) -> float | None:
        return max(self.margins) if self.margins else None


@dataclass
class WhatIf:
    moment: int                  # the key moment's number (K3)
    seq: int                     # the decision's first event
    team: str
    seat: str
    measure: str                 # the margin compared
    actual_margin: float | None  # what happened at the end of the game
    options: list[Option]
    rollouts: int                # per option
    bots: str
    prompt: str = ""
    legal: int = 0               # how many legal choices the team had at that step


def _rank_alternatives(choices, actual_id: str) -> list:
    """The other choices, the most different first: other kinds before other targets of the same kind."""
    actual = next((c for c in choices if c.id == actual_id), None)
    kind = getattr(actual, "kind", "") if actual is not None else ""
    others = [c for c in choices if c.id != actual_id]
    seen_kinds: set = set()
    first, rest = [], []
    for c in others:
        k = getattr(c, "kind", "") or c.id.split(":", 1)[0]
        if k != kind and k not in seen_kinds:
            seen_kinds.add(k)
            first.append(c)
        else:
            rest.append(c)
    return (first + rest)[:MAX_ALTERNATIVES]


def _rollout(rules, state, bot_kind: str, seed: int, measure: Measure, params: dict, side: str | None):
    from engine.bots.base import make_bot

    bots = {s: make_bot(rules, bot_kind, s, seed + i) for i, s in enumerate(rules.seat_ids())}
    n = 0
    while (p := rules.prompt(state)) is not None and n < MAX_CHOICES_PER_ROLLOUT:
        seat = p.seats[0]
        d = bots[seat].choose(state, p)
        rules.apply_inplace(state, seat, d.choice_id)
        n += 1
    result = rules.result(state) or {}
    margin = measure.value(rules.metrics(state), params)
    winner = result.get("winner")
    winners = set(winner) if isinstance(winner, list | tuple) else {winner}
    won = side in winners if side else False
    return margin, won


def road_not_taken(rules, state_before, seat: str, actual_choice: str, measure: Measure, params: dict, *,
                   rollouts: int, seed: int, bot_kind: str | None = None) -> tuple[str, list[Option]]:
    """(prompt text, options): the actual choice and up to 3 alternatives, each played on
    ``rollouts`` times from ``state_before`` with bots."""
    kinds = rules.bot_kinds()
    bot_kind = bot_kind or ROLLOUT_BOTS.get(rules.key, "random")
    if bot_kind != "random" and bot_kind not in kinds:
        bot_kind = "random"
    p = rules.prompt(state_before)
    if p is None or seat not in p.seats:
        return "", []
    choices = p.choices_for(seat)
    actual = next((c for c in choices if c.id == actual_choice), None)
    if actual is None:
        return "", []
    options = [Option(actual.id, text(actual.label), True)]
    options += [Option(c.id, text(c.label), False) for c in _rank_alternatives(choices, actual.id)]
    for oi, opt in enumerate(options):
        for r in range(rollouts):
            st = rules.copy(state_before)
            rules.apply_inplace(st, seat, opt.choice_id)
            margin, won = _rollout(rules, st, bot_kind, seed * 1_000_003 + oi * 10_007 + r * 101, measure, params,
                                   measure.side)
            if margin is not None:
                opt.margins.append(margin)
                opt.wins += int(won)
    words = p.text_for(seat) if hasattr(p, "text_for") else p.text
    return text(words), options


def strip_svg(w: WhatIf, width: int = 520, row_h: int = 22) -> str:
    """A small strip plot of each option's margins (dots), its quartiles (bar) and what happened
    (a vertical line): plain SVG, no chart renderer."""
    from html import escape

    vals = [m for o in w.options for m in o.margins]
    if w.actual_margin is not None:
        vals.append(w.actual_margin)
    if not vals:
        return ""
    lo, hi = min(vals + [0]), max(vals + [0])
    if hi == lo:
        hi = lo + 1
    left, right = 200, 20
    plot_w = width - left - right

    def x(v):
        return left + (v - lo) / (hi - lo) * plot_w

    h = row_h * len(w.options) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" viewBox="0 0 {width} {h}" '
           f'font-family="DejaVu Sans, sans-serif" font-size="10" role="img" '
           f'aria-label="{escape(gettext("Victory margins of each option"))}">']
    out.append(f'<line x1="{x(0):.1f}" y1="4" x2="{x(0):.1f}" y2="{h - 22}" stroke="#bdbdbd"/>')
    for i, o in enumerate(w.options):
        y = 14 + i * row_h
        label = ("\u2605 " if o.actual else "") + o.label
        out.append(f'<text x="{left - 6}" y="{y + 4}" text-anchor="end">{escape(label[:34])}</text>')
        q = o.quartiles
        if q:
            out.append(f'<rect x="{x(q[0]):.1f}" y="{y - 5}" width="{max(x(q[2]) - x(q[0]), 1):.1f}" height="10" '
                       f'fill="{"#ffe0b2" if o.actual else "#bbdefb"}"/>')
            out.append(f'<line x1="{x(q[1]):.1f}" y1="{y - 6}" x2="{x(q[1]):.1f}" y2="{y + 6}" stroke="#424242"/>')
        for m in o.margins:
            out.append(f'<circle cx="{x(m):.1f}" cy="{y}" r="2.2" fill="#1565c0" fill-opacity="0.6"/>')
    if w.actual_margin is not None:
        xa = x(w.actual_margin)
        out.append(f'<line x1="{xa:.1f}" y1="4" x2="{xa:.1f}" y2="{h - 22}" stroke="#c62828" stroke-width="2" '
                   f'stroke-dasharray="4 2"/>')
    out.append(f'<text x="{left}" y="{h - 6}">{lo:g}</text>')
    out.append(f'<text x="{width - right}" y="{h - 6}" text-anchor="end">{hi:g}</text>')
    out.append(f'<text x="{x(0):.1f}" y="{h - 6}" text-anchor="middle">0</text>')
    out.append("</svg>")
    return "".join(out)


def key_decisions(model, limit: int) -> list:
    """The teams' own decisions that moved the outcome most (their decision moments by effect)."""
    ms = [m for m in model.analysis.moments if m.category == "decision" and m.row.team]
    # those that moved the outcome most first; then the teams' other decisions, in game order
    return sorted(ms, key=lambda m: (-m.score, m.row.first_seq))[:limit]


def whatifs_for(model, rules, state_before_seq, *, decisions: int = 5, rollouts: int = 8,
                seed: int = 0) -> list[WhatIf]:
    """The road not taken for the ``decisions`` key decisions of the teams. ``state_before_seq(seq)``
    gives the state just before the event ``seq`` (the caller's replay of the log)."""
    spec = model.spec
    params = model.bundle.get("outcome_params") or {}
    teams = {t["name"]: t["seats"] for t in model.bundle["teams"]}
    numbers = {id(k.row): k.number for k in model.analysis.key_moments}
    step_by_seq = {s.seq: s for s in model.analysis.steps}
    out = []
    for m in key_decisions(model, decisions):
        seats = set(teams.get(m.row.team, ()))
        measure = next((ms for ms in spec.measures if ms.side in seats), None) or \
            next((ms for ms in spec.measures if ms.side == "players"), None)
        if measure is None:
            continue
        # the step of the team's run where it had a real choice: the first with the chosen option
        # and at least 3 others (else the one with the most)
        best = None
        for seq in range(m.row.first_seq, m.row.last_seq + 1):
            st = step_by_seq.get(seq)
            if st is None or st.seat != m.row.seat or not st.choice_id or st.kind not in ("decision", "bot"):
                continue
            state = state_before_seq(seq)
            p = rules.prompt(state) if state is not None else None
            if p is None or st.seat not in p.seats:
                continue
            n = len(p.choices_for(st.seat))
            if best is None or n > best[0]:
                best = (n, st, state)
            if n > MAX_ALTERNATIVES:
                break
        if best is None or best[0] < 2:
            continue
        legal, st, state = best
        words, options = road_not_taken(rules, state, st.seat, st.choice_id, measure, params, rollouts=rollouts,
                                       seed=seed * 7919 + st.seq)
        if not options:
            continue
        out.append(WhatIf(moment=numbers.get(id(m.row), 0), seq=st.seq, team=m.row.team, seat=st.seat,
                          measure=measure.label, actual_margin=measure.value(model.analysis.final_metrics, params),
                          options=options, rollouts=rollouts, bots=ROLLOUT_BOTS.get(rules.key, "random"),
                          prompt=words, legal=legal))
    return out
