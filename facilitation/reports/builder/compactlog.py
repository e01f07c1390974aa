"""The body's compact log: one line per card (or turn) - the card, who did what on it in a few
words, and how the measures that decide the game moved over it (pure, no Django). The full
decision log stays in the appendix."""

from __future__ import annotations

from dataclasses import dataclass, field

from facilitation.reports.builder.analysis import (
    CARD_FACT_TYPES,
    DECISION_KINDS,
    Analysis,
    fmt_delta,
    fmt_num,
)
from facilitation.reports.builder.specs import ScenarioSpec
from facilitation.reports.builder.translation import gettext
from facilitation.reports.builder.translation import text as render


@dataclass
class CardLine:
    card: int
    first_seq: int
    last_seq: int
    title: str                                   # the card revealed (its fact's text), or ""
    actions: list[str] = field(default_factory=list)   # "Government (Team A): Sweep, Assault"
    changes: list[str] = field(default_factory=list)   # "Government margin −2 (3 → 1)"
    phase: str = ""                              # "Propaganda Round 1" on the card that opened it
    key_moments: list[int] = field(default_factory=list)


def _first_words(labels: list[str], n: int = 3) -> str:
    out = list(dict.fromkeys(lab for lab in labels if lab))[:n]
    more = len(dict.fromkeys(labels)) - len(out)
    return ", ".join(out) + (f" (+{more})" if more > 0 else "")


def card_lines(an: Analysis, spec: ScenarioSpec, params: dict) -> list[CardLine]:
    by_card: dict[int, CardLine] = {}
    prev_metrics: dict = {}
    start_of: dict[int, dict] = {}
    end_of: dict[int, dict] = {}
    for st in an.steps:
        line = by_card.get(st.card)
        if line is None:
            line = by_card[st.card] = CardLine(card=st.card, first_seq=st.seq, last_seq=st.seq, title="")
            start_of[st.card] = prev_metrics
        line.last_seq = st.seq
        end_of[st.card] = st.metrics
        prev_metrics = st.metrics
        if not line.title:
            line.title = next((render(f.get("text", "")) for f in st.facts if f.get("type") in CARD_FACT_TYPES), "")
        if st.phase and not line.phase:
            line.phase = st.phase
    for r in an.rows:
        if r.kind not in DECISION_KINDS or r.undone or r.card not in by_card:
            continue
        who = (f"{r.seat_title} ({r.team})" if r.team else gettext("{seat} (bot)").format(seat=r.seat_title)
               if r.kind == "bot" else r.seat_title)
        by_card[r.card].actions.append(f"{who}: {_first_words(r.labels)}")
    for k in an.key_moments:
        if k.row.card in by_card:
            by_card[k.row.card].key_moments.append(k.number)
    for card, line in by_card.items():
        a, b = start_of.get(card) or {}, end_of.get(card) or {}
        shown = []
        for ms in spec.measures:
            va, vb = ms.value(a, params) if a else None, ms.value(b, params)
            if va is None or vb is None or va == vb:
                continue
            if any(o == (-va, -vb) for o in shown):
                continue  # the mirror of a zero-sum margin
            shown.append((va, vb))
            line.changes.append(f"{ms.label} {fmt_delta(vb - va)} ({fmt_num(va)} \u2192 {fmt_num(vb)})")
        if not spec.measures:
            for m in an.metric_names[:4]:
                if a.get(m) is not None and b.get(m) is not None and a[m] != b[m]:
                    line.changes.append(f"{an.labels.get(m, m)} {fmt_delta(b[m] - a[m])}")
    return [by_card[c] for c in sorted(by_card) if c > 0 or by_card[c].actions]


def bot_seat_summaries(b: dict, an: Analysis) -> list[dict]:
    """A short summary for each seat no team plays (the bots): what it did most, and its reasons."""
    out = []
    seat_titles = {s["id"]: s.get("title", s["id"]) for s in b["seats"]}
    for s in b["scenario"].get("seats", []):
        seat_titles.setdefault(s["id"], s.get("title", s["id"]))
    team_seats = {sid for t in b["teams"] for sid in t["seats"]}
    seats = [s["id"] for s in b["scenario"].get("seats", [])] or sorted({st.seat for st in an.steps if st.seat})
    for sid in seats:
        if sid in team_seats:
            continue
        steps = [st for st in an.steps if st.seat == sid and st.kind in DECISION_KINDS and not st.undone]
        if not steps:
            continue
        reasons: dict[str, int] = {}
        for st in steps:
            reason = str(st.reason or "").strip()
            if reason:
                reasons[reason] = reasons.get(reason, 0) + 1
        top = sorted(reasons.items(), key=lambda t: -t[1])[:5]
        labels = [st.label for st in steps]
        out.append({"seat": seat_titles.get(sid, sid), "decisions": len(steps),
                    "actions": _first_words(labels, 6), "reasons": top})
    return out
