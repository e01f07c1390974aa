"""The AAR's one-page summary: the outcome, 3-5 turning points, and for each team whether
its stated intent was achieved, measured against the metrics its intent names (pure).

An intent such as "keep Political Will above 12" names a measure (by its label, or a
word of it such as "Will"), a direction ("above", "at least", "below", "reach", ...)
and a number: the check reads the measure over the game (its lowest value for "keep
above", its highest for "reach") from the log. A measure named without a number is
reported as it moved (start, end, lowest, highest). "Win" is checked against the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from facilitation.reports.builder.analysis import Analysis, fmt_num
from facilitation.reports.builder.translation import gettext, gettext_noop

# phrase -> (comparison, which value of the game to compare: "min", "max" or "end")
_DIRECTIONS = (
    (r"(?:keep|hold|stay|maintain)\w*\b[^.;,]*?\b(?:above|over|higher than|more than)", ">", "min"),
    (r"(?:keep|hold|stay|maintain)\w*\b[^.;,]*?\b(?:at least|no less than|not below)", ">=", "min"),
    (r"(?:keep|hold|stay|maintain)\w*\b[^.;,]*?\b(?:below|under|less than|lower than)", "<", "max"),
    (r"(?:keep|hold|stay|maintain)\w*\b[^.;,]*?\b(?:at most|no more than|not above)", "<=", "max"),
    (r"\b(?:reach|get to|raise to|push to|hit)\b", ">=", "max"),
    (r"\b(?:drive|push|bring|reduce|cut|drop|lower)\w*\b[^.;,]*?\b(?:to|below|under)\b", "<=", "min"),
    (r"\b(?:above|over|more than|higher than)\b", ">", "end"),
    (r"\b(?:at least)\b", ">=", "end"),
    (r"\b(?:below|under|less than|lower than)\b", "<", "end"),
    (r"\b(?:at most)\b", "<=", "end"),
)
_SYNONYMS = {
    "political_will": ("political will", "will", "pw"),
    "total_support": ("total support", "support"),
    "opposition_plus_bases": ("opposition",),
    "tyranny_on_map": ("tyranny",),
    "influence_level": ("influence level",),
    "influence_earned": ("influence",),
    "hunt_track": ("hunt",),
    "aid": ("aid",),
}
_WORDS = {">": gettext_noop("above {target}"), ">=": gettext_noop("at least {target}"),
          "<": gettext_noop("below {target}"), "<=": gettext_noop("at most {target}")}
_VALUES = {"min": gettext_noop("lowest value {value} ({unit} {number}, event {seq})"),
           "max": gettext_noop("highest value {value} ({unit} {number}, event {seq})"),
           "end": gettext_noop("final value {value} ({unit} {number}, event {seq})")}


@dataclass
class IntentCheck:
    metric: str
    label: str
    target: str          # "above 12" or "" (no number named)
    achieved: bool | None
    detail: str          # "lowest value 8 (card 14)"


@dataclass
class IntentVerdict:
    team: str
    text: str
    checks: list[IntentCheck] = field(default_factory=list)
    won: bool | None = None
    verdict: str = ""


def _find_metrics(text: str, an: Analysis) -> list[tuple[str, int, int]]:
    """(metric, start, end) of each measure named in ``text``, longest names first, no overlaps."""
    low = text.lower()
    names: list[tuple[str, str]] = []
    for m in an.metric_names:
        label = an.labels.get(m, "")
        if label:
            names.append((label.lower(), m))
        for syn in _SYNONYMS.get(m, ()):
            names.append((syn, m))
    names.sort(key=lambda t: -len(t[0]))
    found: list[tuple[str, int, int]] = []
    taken: list[tuple[int, int]] = []
    for name, m in names:
        for mo in re.finditer(rf"\b{re.escape(name)}\b", low):
            a, b = mo.span()
            if any(a < y and x < b for x, y in taken) or any(f[0] == m for f in found):
                continue
            taken.append((a, b))
            found.append((m, a, b))
    return sorted(found, key=lambda t: t[1])


def _series(an: Analysis, metric: str) -> list[tuple[float, int, int]]:
    return [(s.metrics[metric], s.card, s.seq) for s in an.steps if metric in s.metrics]


def check_intent(team: str, text: str, an: Analysis, won: bool | None, x_label: str = "card") -> IntentVerdict:
    v = IntentVerdict(team=team, text=text, won=won)
    if not text:
        v.verdict = gettext("No intent was recorded.")
        return v
    low = text.lower()
    found = _find_metrics(text, an)
    for i, (m, _a, b) in enumerate(found):
        # the clause about this measure: up to the next measure named (or the end of the sentence)
        end = found[i + 1][1] if i + 1 < len(found) else len(low)
        start = found[i - 1][2] if i else 0
        clause = low[start:end]
        after = low[b:end]
        num = re.search(r"-?\d+(?:\.\d+)?", after)
        series = _series(an, m)
        if not series:
            continue
        vals = [x[0] for x in series]
        lo = min(series, key=lambda x: x[0])
        hi = max(series, key=lambda x: x[0])
        label = an.labels.get(m, m)
        if num is None:
            v.checks.append(IntentCheck(m, label, "", None,
                                        gettext("from {first} to {last} (lowest {low}, highest {high})").format(
                                            first=fmt_num(vals[0]), last=fmt_num(vals[-1]), low=fmt_num(lo[0]),
                                            high=fmt_num(hi[0]))))
            continue
        target = float(num.group())
        op, which = next(((op, which) for pat, op, which in _DIRECTIONS if re.search(pat, clause)), (">=", "end"))
        value, where = {"min": (lo[0], lo), "max": (hi[0], hi), "end": (vals[-1], series[-1])}[which]
        ok = {">": value > target, ">=": value >= target, "<": value < target, "<=": value <= target}[op]
        v.checks.append(IntentCheck(m, label, gettext(_WORDS[op]).format(target=fmt_num(target)), ok,
                                    gettext(_VALUES[which]).format(value=fmt_num(value), unit=x_label,
                                                                   number=where[1], seq=where[2])))
    wants_win = bool(re.search(r"\bwin\b|\bvictory\b", low))
    judged = [c.achieved for c in v.checks if c.achieved is not None]
    if wants_win and won is not None:
        judged.append(won)
    if not v.checks and not wants_win:
        v.verdict = gettext("The intent names no measure the log records: discuss it against the outcome and "
                            "the turning points.")
    elif not judged:
        v.verdict = gettext("The intent names measures but no target: see how they moved.")
    elif all(judged):
        v.verdict = gettext("Achieved.")
    elif any(judged):
        v.verdict = gettext("Partly achieved.")
    else:
        v.verdict = gettext("Not achieved.")
    return v


def summary(b: dict, an: Analysis, cover: dict, max_turning_points: int = 5) -> dict:
    """The one-page summary: outcome, turning points, intents judged against the log."""
    result = b["result"] or {}
    winner = result.get("winner")
    winners = set(winner) if isinstance(winner, list | tuple) else {winner} if winner else set()
    intents = []
    for t in b["teams"]:
        text = t["intents"][-1]["text"] if t["intents"] else ""
        won = None
        if b["result"]:
            won = bool(set(t["seats"]) & winners) or ("players" in winners and b["scenario"]["key"] ==
                                                      "tears_of_tyranny")
        intents.append(check_intent(t["name"], text, an, won, b.get("scenario_x_label", "card").lower()))
    # decisive moments that moved the outcome first, then the largest effects; a decisive change
    # that moved no measure (an election on a Propaganda card) comes last
    ranked = sorted(an.key_moments, key=lambda k: (not (k.decisive and k.score > 0), k.score == 0, -k.score))
    turning = sorted(ranked[:max_turning_points], key=lambda k: k.number)
    if len(turning) < 3:
        turning = sorted(an.key_moments[:max_turning_points], key=lambda k: k.number)
    return {"headline": cover["result_headline"], "result_lines": cover["result_lines"][:6],
            "turning_points": turning, "intents": intents, "finished": cover["finished"]}
