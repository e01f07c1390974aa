"""Key moments ranked by their effect on the outcome (pure, no Django).

Every event's facts are split by cause (:mod:`.effects`); consecutive effects of one
cause make a moment: a team's (or bot's) run of decisions on one card, an automatic
rule step (a Propaganda Round phase, the adversary phase), a die roll, a card or event.
A moment's weight is the change it made to the measures that decide the game
(``ScenarioSpec.measures``: each side's victory margin; for Tears of Tyranny also the
distance to tyranny and to the next influence level), in units of each measure. Moments
that change a decisive state (a capture, an election, the switch to tyranny, the
control of a big city) always qualify. Scenarios without measures fall back to the swing
of each plotted metric against its range over the game.

A moment is credited to its cause only: a team's rationale is attached to that team's
own decisions, never to an automatic step its click set off.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from facilitation.reports.builder.effects import CATEGORY_TITLES, Cause, Effect
from facilitation.reports.builder.specs import ScenarioSpec
from facilitation.reports.builder.translation import gettext
from facilitation.reports.builder.translation import text as render

# how many moments of each category a report lists at most (decisive ones come on top)
MAX_DECISIVE = 4
CATEGORY_CAPS = {"decision": 5, "bot": 3, "rule": 3, "die": 2, "event": 3, "facilitator": 1}


@dataclass
class MeasureChange:
    key: str
    label: str
    side: str | None
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass
class Moment:
    category: str                 # decision, bot, rule, die, event, facilitator
    cause: Cause
    row: object                   # analysis.Row: the decision-log row, or one made for this step
    effects: list[Effect]
    deltas: dict[str, float]
    changes: list[MeasureChange] = field(default_factory=list)
    decisive: list[str] = field(default_factory=list)
    score: float = 0.0
    start: dict = field(default_factory=dict)  # the metrics just before it

    @property
    def category_title(self) -> str:
        return gettext(CATEGORY_TITLES[self.category]) if self.category in CATEGORY_TITLES else self.category

    @property
    def seqs(self) -> list[int]:
        return sorted({ef.seq for ef in self.effects})


def group_moments(steps, rows, spec: ScenarioSpec) -> list[Moment]:
    """Consecutive effects of one cause, in log order (undone decisions left out)."""
    from facilitation.reports.builder.analysis import Row

    row_of = {}
    for r in rows:
        for seq in range(r.first_seq, r.last_seq + 1):
            row_of.setdefault(seq, r)
    out: list[Moment] = []
    for st in steps:
        if st.undone or st.kind == "undo":
            continue
        for ef in st.effects:
            c = ef.cause
            last = out[-1] if out else None
            if c.kind in ("decision", "bot"):
                r = row_of.get(st.seq)
                if r is None:
                    continue
                if last is not None and last.row is r and last.cause.key == c.key:
                    _add(last, ef)
                    continue
                out.append(Moment(c.kind, c, r, [ef], dict(ef.deltas)))
                continue
            if (last is not None and last.cause.key == c.key and last.cause.label == c.label
                    and last.row.card == st.card):
                _add(last, ef)
                last.row.last_seq = st.seq
                last.row.x_end = st.x
                continue
            label = c.label or c.kind
            row = Row(kind=c.kind, first_seq=st.seq, last_seq=st.seq, seat=c.seat, seat_title="",
                      team=None, created_at=st.created_at, card=st.card, x=st.x, labels=[label],
                      choice_ids=[""], rationales=[], facts=[render(f["text"]) for f in ef.facts if f.get("text")],
                      deltas=dict(ef.deltas), phase=st.phase, x_end=st.x)
            out.append(Moment(c.kind, c, row, [ef], dict(ef.deltas)))
    return out


def _add(m: Moment, ef: Effect) -> None:
    m.effects.append(ef)
    for k, v in ef.deltas.items():
        m.deltas[k] = m.deltas.get(k, 0) + v
        if not m.deltas[k]:
            del m.deltas[k]


def _decisive(m: Moment, spec: ScenarioSpec, big_spaces: dict[str, str]) -> list[str]:
    out = []
    for metric, words in spec.decisive_metrics.items():
        if m.deltas.get(metric):
            out.append(words)
    for ef in m.effects:
        for f in ef.facts:
            t = f.get("type")
            if t in spec.decisive_facts:
                out.append(spec.decisive_facts[t])
            if t == "control" and f.get("space") in big_spaces:
                out.append(gettext("control of {space} changes").format(space=big_spaces[f["space"]]))
    return list(dict.fromkeys(out))


def big_spaces(board: dict, spec: ScenarioSpec) -> dict[str, str]:
    if spec.big_city_population is None:
        return {}
    out = {}
    for s in board.get("spaces") or []:
        pop = s.get("population", s.get("pop"))
        if isinstance(pop, int | float) and pop >= spec.big_city_population:
            out[s["id"]] = render(s.get("name")) or s["id"]
    return out


def start_metrics(m: Moment, step_by_seq: dict, before_of: dict) -> dict:
    """The metrics just before the moment's first effect (the event's earlier effects applied)."""
    first = m.effects[0]
    start = dict(before_of.get(first.seq, {}))
    st = step_by_seq.get(first.seq)
    for ef in (st.effects if st is not None else []):
        if ef is first:
            break
        for k, v in ef.deltas.items():
            start[k] = start.get(k, 0) + v
    return start


def score_moments(moments: list[Moment], steps, spec: ScenarioSpec, params: dict, board: dict,
                  ranges: dict[str, tuple[float, float]], plotted_weights: dict[str, float]) -> None:
    """Fill each moment's measure changes, decisive flags and score."""
    before_of = {}
    prev: dict = {}
    for st in steps:
        before_of[st.seq] = prev
        prev = st.metrics
    step_by_seq = {st.seq: st for st in steps}
    big = big_spaces(board, spec)
    for m in moments:
        m.decisive = _decisive(m, spec, big)
        m.start = start_metrics(m, step_by_seq, before_of)
        if spec.measures:
            start = dict(m.start)
            end = dict(start)
            for k, v in m.deltas.items():
                end[k] = end.get(k, 0) + v
            for ms in spec.measures:
                a, b = ms.value(start, params), ms.value(end, params)
                if a is None or b is None or a == b:
                    continue
                m.changes.append(MeasureChange(ms.key, ms.label, ms.side, a, b))
                if ms.clip is not None:  # far from winning or losing, a change decides nothing
                    a, b = (max(-ms.clip, min(ms.clip, v)) for v in (a, b))
                m.score = max(m.score, abs(b - a) / ms.unit)
        else:
            for k, w in plotted_weights.items():
                d = m.deltas.get(k)
                if d and k in ranges:
                    lo, hi = ranges[k]
                    m.score = max(m.score, w * abs(d) / max(hi - lo, 1))


def pick(moments: list[Moment], max_total: int) -> list[Moment]:
    """Decisive moments, then the largest effects of each category (within its cap)."""
    # every decisive change qualifies; when a long game has many (control of a big city changing
    # hands again and again), the first of each kind and then the largest, at most MAX_DECISIVE
    decisive = [m for m in moments if m.decisive]
    if len(decisive) > MAX_DECISIVE:
        firsts: dict = {}
        for m in decisive:
            for d in m.decisive:
                firsts.setdefault(d, m)
        keep = list(dict.fromkeys(firsts.values()))[:MAX_DECISIVE]
        for m in sorted(decisive, key=lambda m: (-m.score, m.row.first_seq)):
            if len(keep) >= MAX_DECISIVE:
                break
            if m not in keep:
                keep.append(m)
        decisive = keep
    chosen = list(decisive)
    per_cat: Counter = Counter()
    top = max((m.score for m in moments), default=0)
    # a moment a fifth as large as the largest one is no turning point
    rest = sorted((m for m in moments if not m.decisive and m.score > 0 and m.score >= 0.2 * top),
                  key=lambda m: (-m.score, m.row.first_seq))
    for m in rest:
        if len(chosen) >= max_total + len([c for c in chosen if c.decisive]):
            break
        if per_cat[m.category] >= CATEGORY_CAPS.get(m.category, 2):
            continue
        per_cat[m.category] += 1
        chosen.append(m)
    return sorted(chosen, key=lambda m: m.row.first_seq)
