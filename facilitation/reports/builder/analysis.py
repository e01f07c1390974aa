"""From a normalised bundle to the AAR's numbers: card positions, metric deltas,
grouped decisions, key moments, per-team summaries (pure, no Django)."""

from __future__ import annotations

import statistics
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any

from facilitation.reports.builder import moments as moments_mod
from facilitation.reports.builder.effects import Effect, event_effects, resource_flows
from facilitation.reports.builder.specs import ScenarioSpec
from facilitation.reports.builder.translation import decimal_separator, gettext, ngettext
from facilitation.reports.builder.translation import text as render

DECISION_KINDS = ("decision", "bot")
CARD_FACT_TYPES = ("card", "card_revealed", "card_drawn", "card_reveal", "draw")


def humanize(name: str) -> str:
    words = name.replace("_", " ").replace("-", " ").split()
    small = {"of", "and", "the", "vs", "per", "in", "on"}
    return " ".join(w if (w.isupper() or (i and w in small)) else w.capitalize()
                    for i, w in enumerate(words))


def fmt_num(v: float | int | None) -> str:
    if v is None:
        return "-"
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".").replace(".", decimal_separator())
    return str(v)


def _cause_text(cause) -> str:
    """A fact's cause in words: contract v2 causes are dicts (kind, rule, step, because ...)."""
    if not isinstance(cause, dict):
        return str(cause)
    for key in ("because", "step", "title", "reason"):
        if cause.get(key):
            return render(cause[key])
    if cause.get("kind") == "decision":
        return f"{cause.get('seat', '')}: {cause.get('choice', '')}"
    return " ".join(str(cause[k]) for k in ("kind", "rule") if cause.get(k))


def fmt_delta(d: float) -> str:
    s = fmt_num(abs(d))
    return f"+{s}" if d > 0 else f"\u2212{s}"


@dataclass
class Step:
    """One event placed on the card axis, with the metrics after it and its deltas."""

    seq: int
    kind: str
    seat: str | None
    team: str | None
    actor: str
    label: str
    choice_id: str
    rationale: str
    decision_ms: int | None
    created_at: Any
    facts: list[dict]
    metrics: dict[str, float]
    deltas: dict[str, float]
    card: int = 0
    x: float = 0.0
    phase: str | None = None  # e.g. "Propaganda Round 2"
    undone: bool = False  # taken back later by an undo (it stays in the log for the record)
    effects: list[Effect] = field(default_factory=list)  # its facts split by cause
    reason: str = ""  # a bot's own reason (Andean Abyss Non-players: the section-8 rule that fired)


@dataclass
class Row:
    """One line of the decision log: a run of one seat's choices, or one other event."""

    kind: str
    first_seq: int
    last_seq: int
    seat: str | None
    seat_title: str
    team: str | None
    created_at: Any
    card: int
    x: float
    labels: list[str]
    choice_ids: list[str]
    rationales: list[str]
    facts: list[str]
    deltas: OrderedDict[str, float]
    decision_ms: int = 0
    phase: str | None = None
    actor: str = ""
    undone: bool = False
    x_end: float = 0.0  # x of the row's last event (where its consequences show)
    reasons: list[str] = field(default_factory=list)  # a bot's own reasons

    @property
    def text(self) -> str:
        return " \u2192 ".join(self.labels)

    @property
    def short_text(self) -> str:
        """The first choices of a long run (the decision log keeps them all)."""
        if len(self.labels) <= 8:
            return self.text
        more = len(self.labels) - 8
        return " \u2192 ".join(self.labels[:8]) + " \u2192 \u2026 " + ngettext(
            "({count} more choice)", "({count} more choices)", more).format(count=more)

    @property
    def brief_text(self) -> str:
        """The first three choices (the summary PDF)."""
        if len(self.labels) <= 3:
            return self.text
        return " \u2192 ".join(self.labels[:3]) + f" \u2192 \u2026 (+{len(self.labels) - 3})"

    @property
    def seqs(self) -> str:
        return str(self.first_seq) if self.first_seq == self.last_seq else f"{self.first_seq}-{self.last_seq}"


@dataclass
class KeyMoment:
    """A moment that moved the outcome, credited to its real cause (see :mod:`.moments`)."""

    number: int
    row: Row
    metric: str
    metric_label: str
    delta: float
    before: float
    after: float
    score: float
    summary: str
    headline: str = ""           # the measure changes alone (the summary before "on card N: ...")
    category: str = "decision"   # decision, bot, rule, die, event, facilitator
    category_title: str = ""
    who: str = ""                # the team, the bot seat, or the rule step / die / card
    rationale: list[str] = field(default_factory=list)  # the team's own words, decisions only
    bot_reason: str = ""
    changes: list = field(default_factory=list)         # moments.MeasureChange
    decisive: list[str] = field(default_factory=list)
    deltas: dict = field(default_factory=dict)

    def change_for(self, sides) -> float:
        """The change of the first measure of one of ``sides`` (0 when none moved)."""
        return next((c.delta for c in self.changes if c.side in sides), 0)


@dataclass
class Analysis:
    steps: list[Step]
    rows: list[Row]
    phases: list[dict]
    key_moments: list[KeyMoment]
    metric_names: list[str]
    metric_ranges: dict[str, tuple[float, float]]
    final_metrics: dict[str, float]
    initial_metrics: dict[str, float]
    team_summaries: list[dict]
    decision_times: list[dict]
    cards: int
    labels: dict[str, str] = field(default_factory=dict)
    moments: list = field(default_factory=list)  # every moments.Moment, in log order


def choice_of(payload: dict) -> tuple[str, str]:
    """(choice id, plain-words label) of a decision payload."""
    cid = ""
    for k in ("choice", "choice_id", "id"):
        if isinstance(payload.get(k), str):
            cid = payload[k]
            break
    label = payload.get("label") or payload.get("choice_label") or payload.get("text") or ""
    if not label and cid:
        label = humanize(cid.split(":", 1)[-1]) if ":" in cid else humanize(cid)
    return cid, render(label)  # a message (contract v2), in the report's language


def _event_label(e: dict) -> str:
    kind = e["kind"]
    cid, label = choice_of(e["payload"])
    if kind in DECISION_KINDS:
        return label or cid or gettext("(decision)")
    if kind == "undo" or (kind == "facilitator" and e["payload"].get("action") == "undo_last"):
        what = e["payload"].get("label") or ""
        target = e["payload"].get("undone_seq")
        what = render(what) if isinstance(what, dict) else what
        if what:
            text = (gettext("Facilitator takes back '{what}'") if kind == "facilitator"
                    else gettext("Takes back '{what}'")).format(what=what)
        else:
            text = gettext("Facilitator takes back") if kind == "facilitator" else gettext("Takes back")
        text += " " + gettext("(event {seq})").format(seq=target) if target else ""
        reason = e["payload"].get("reason")
        return f"{text}: {reason}" if reason else text
    texts = [render(f["text"]) for f in e["facts"] if f.get("text")]
    if kind == "facilitator":
        what = e["payload"].get("action") or e["payload"].get("type") or ""
        reason = e["payload"].get("reason") or e["payload"].get("text") or ""
        base = humanize(str(what)) if what else gettext("Facilitator")
        return f"{base}: {reason}" if reason else (texts[0] if texts else base)
    return texts[0] if texts else (label or humanize(str(e["payload"].get("type", kind))))


def _fact_cause_text(f: dict, metric: str) -> str:
    """The words naming why fact ``f`` moved ``metric``: a contract v2 fact's ``why`` message
    (English until the pages render messages), or the cause string of a log recorded before."""
    cause = f.get("cause")
    if isinstance(cause, str):
        return cause if f.get("track") in (metric, None) else ""
    if f.get("track") == metric or metric in (f.get("deltas") or {}):
        return render(f["why"]) if f.get("why") else ""
    return ""


def undone_seqs(events: list[dict]) -> set[int]:
    """Seqs of events taken back by a later undo (``back_to`` < seq < the undo)."""
    out: set[int] = set()
    for e in events:
        p = e["payload"]
        if e["kind"] == "undo" or (e["kind"] == "facilitator" and p.get("action") == "undo_last"):
            back = p.get("back_to")
            if isinstance(back, int):
                out.update(x["seq"] for x in events if back < x["seq"] < e["seq"]
                           and x["kind"] in DECISION_KINDS)
    return out


def _card_counter(events: list[dict], spec: ScenarioSpec) -> list[int]:
    """Card number in play at each event (1-based; 0 before the first card)."""
    metric = next((m for m in spec.card_metrics if any(m in e["metrics"] for e in events)), None)
    out: list[int] = []
    n = 0
    if metric is None:
        # a decision before any card fact is made on the card revealed at set-up: card 1
        for e in events:
            if any(f.get("type") in CARD_FACT_TYPES for f in e["facts"]):
                break
            if e["kind"] in DECISION_KINDS:
                n = 1
                break
    for e in events:
        if metric is not None:
            if metric in e["metrics"]:
                n = int(e["metrics"][metric])
        else:
            n += sum(1 for f in e["facts"] if f.get("type") in CARD_FACT_TYPES)
        out.append(n)
    return out


def _is_phase(e: dict, spec: ScenarioSpec) -> bool:
    types = set(spec.phase_fact_types)
    if str(e["payload"].get("phase", "")) in types or str(e["payload"].get("type", "")) in types:
        return True
    for f in e["facts"]:
        if f.get("type") in types or f.get("phase") in types:
            return True
        if any(all(_matches(f, k, v) for k, v in m.items()) for m in spec.phase_facts):
            return True
    return False


def _matches(f: dict, key: str, value) -> bool:
    """``{"type": "phase"}`` equality, or ``{"text__startswith": "Victory Phase"}``."""
    if key.endswith("__startswith"):
        return str(f.get(key[: -len("__startswith")], "")).startswith(value)
    return f.get(key) == value


def metric_value(metrics: dict, names: tuple[str, ...]) -> float | None:
    vals = [metrics.get(n) for n in names]
    if any(v is None for v in vals):
        return None
    return sum(vals)


def analyse(b: dict, spec: ScenarioSpec, labels: dict[str, str] | None = None,
            max_key_moments: int = 6, plotted: list[tuple[str, ...]] | None = None) -> Analysis:
    events = b["events"]
    all_metric_names = {k for e in events for k in e["metrics"]}
    labels = dict(labels or {})
    seat_titles = {s["id"]: s.get("title", s["id"]) for s in b["seats"]}
    for s in b["scenario"].get("seats", []):
        seat_titles.setdefault(s["id"], s.get("title", s["id"]))

    # ---- steps: metrics carried forward, deltas, card positions -------------
    cards = _card_counter(events, spec)
    per_card = Counter(cards)
    seen_in_card: Counter = Counter()
    steps: list[Step] = []
    current: dict[str, float] = {}
    initial: dict[str, float] = {}
    phases: list[dict] = []
    phase_cards: set[int] = set()
    undone = undone_seqs(events)
    for e, card in zip(events, cards, strict=True):
        before = dict(current)
        if e["metrics"]:
            for k, v in e["metrics"].items():
                if k not in current:
                    initial[k] = v
            current = {**current, **e["metrics"]}
        deltas = {k: current[k] - before[k] for k in current
                  if k in before and current[k] != before[k] and k not in spec.card_metrics}
        x = card + seen_in_card[card] / max(per_card[card], 1)
        seen_in_card[card] += 1
        cid, _ = choice_of(e["payload"])
        st = Step(seq=e["seq"], kind=e["kind"], seat=e["seat"], team=e["team"], actor=e["actor"] or "",
                  label=_event_label(e), choice_id=cid, rationale=e["rationale"],
                  decision_ms=e["decision_ms"], created_at=e["created_at"], facts=e["facts"],
                  metrics=dict(current), deltas=deltas, card=card, x=round(x, 4), undone=e["seq"] in undone,
                  effects=(event_effects(e, spec, all_metric_names, before, current) if before else []),
                  reason=render(e["payload"].get("reason") or "") if e["kind"] == "bot" else "")
        if _is_phase(e, spec) and card not in phase_cards:
            phase_cards.add(card)
            st.phase = f"{spec.phase_label} {len(phases) + 1}"
            phases.append({"number": len(phases) + 1, "seq": e["seq"], "card": card, "x": st.x,
                           "label": st.phase})
        steps.append(st)

    metric_names = sorted(current)
    for m in metric_names:
        labels.setdefault(m, humanize(m))
    ranges: dict[str, tuple[float, float]] = {}
    for m in metric_names:
        vals = [s.metrics[m] for s in steps if m in s.metrics]
        ranges[m] = (min(vals), max(vals))

    # ---- rows: runs of one seat's decisions, and every other event ------------
    rows: list[Row] = []
    for st in steps:
        last = rows[-1] if rows else None
        if (st.kind in DECISION_KINDS and last is not None and last.kind in DECISION_KINDS
                and last.seat == st.seat and last.card == st.card and not st.phase and last.undone == st.undone):
            last.last_seq = st.seq
            last.x_end = st.x
            last.labels.append(st.label)
            last.choice_ids.append(st.choice_id)
            if st.rationale and st.rationale not in last.rationales:
                last.rationales.append(st.rationale)
            if st.reason and st.reason not in last.reasons:
                last.reasons.append(st.reason)
            last.facts.extend(render(f["text"]) for f in st.facts if f.get("text"))
            for k, d in st.deltas.items():
                last.deltas[k] = last.deltas.get(k, 0) + d
                if last.deltas[k] == 0:
                    del last.deltas[k]
            last.decision_ms += st.decision_ms or 0
            continue
        if st.kind == "system" and not st.facts and not st.deltas and not st.phase:
            continue
        rows.append(Row(kind=st.kind, first_seq=st.seq, last_seq=st.seq, seat=st.seat,
                        seat_title=seat_titles.get(st.seat, st.seat or ""), team=st.team,
                        created_at=st.created_at, card=st.card, x=st.x, labels=[st.label],
                        choice_ids=[st.choice_id], rationales=[st.rationale] if st.rationale else [],
                        facts=[render(f["text"]) for f in st.facts if f.get("text")],
                        deltas=OrderedDict(st.deltas), decision_ms=st.decision_ms or 0,
                        phase=st.phase, actor=st.actor, undone=st.undone, x_end=st.x,
                        reasons=[st.reason] if st.reason else []))

    # ---- key moments: the largest effects on the outcome, each credited to its cause --------
    groups = plotted or [(m,) for m in metric_names]
    weights: dict[str, float] = {}
    for gi, names in enumerate(groups):
        for m in names:
            if m in ranges:
                weights.setdefault(m, 1.0 if gi == 0 or not plotted else 0.6)
    moments = moments_mod.group_moments(steps, rows, spec)
    moments_mod.score_moments(moments, steps, spec, b.get("outcome_params") or {}, b.get("board") or {},
                              ranges, weights)
    picked = moments_mod.pick(moments, max_key_moments)
    key_moments = [_key_moment(i, m, spec, labels, weights, steps) for i, m in enumerate(picked, 1)]

    # ---- per-team summaries and decision times --------------------------------
    team_summaries = []
    decision_times = []
    team_names = [t["name"] for t in b["teams"]] or sorted({s.team for s in steps if s.team})
    for tname in team_names:
        tsteps = [s for s in steps if s.team == tname and s.kind in DECISION_KINDS]
        trows = [r for r in rows if r.team == tname and r.kind in DECISION_KINDS and not r.undone]
        ops: Counter = Counter()
        for r in trows:
            for cid, lab in zip(r.choice_ids, r.labels, strict=True):
                if cid.startswith(("op:", "sa:", "special:", "event:", "pass", "activity:")) or cid in (
                        "pass", "event"):
                    ops[lab] += 1
        if not ops:  # engines without id prefixes: the first choice of each turn
            ops = Counter(r.labels[0] for r in trows)
        seats = next((t["seats"] for t in b["teams"] if t["name"] == tname), [])
        spent, gained = {}, {}
        for sid in seats:
            rm = spec.resources.get(sid)
            if rm is None:
                continue
            sp, ga = resource_flows(events, spec, all_metric_names, sid)
            name = labels.get(rm) or gettext("{side} Resources").format(side=seat_titles.get(sid, humanize(sid)))
            spent[name] = sp
            gained[name] = ga
        times = [s.decision_ms for s in tsteps if s.decision_ms is not None and s.kind == "decision"]
        bot_times = [s.decision_ms for s in tsteps if s.decision_ms is not None and s.kind == "bot"]
        all_times = times or bot_times
        dtimes = {
            "team": tname,
            "seats": [seat_titles.get(s, s) for s in seats],
            "decisions": len(tsteps),
            "human_decisions": sum(1 for s in tsteps if s.kind == "decision"),
            "bot_decisions": sum(1 for s in tsteps if s.kind == "bot"),
            "times_ms": all_times,
            "median_s": round(statistics.median(all_times) / 1000, 1) if all_times else None,
            "mean_s": round(statistics.fmean(all_times) / 1000, 1) if all_times else None,
            "max_s": round(max(all_times) / 1000, 1) if all_times else None,
            "total_s": round(sum(all_times) / 1000, 1) if all_times else None,
        }
        decision_times.append(dtimes)
        team_summaries.append({
            "team": tname,
            "seats": dtimes["seats"],
            "turns": len(trows),
            "decisions": len(tsteps),
            "operations": ops.most_common(),
            "resources_spent": spent,
            "resources_gained": gained,
            "decision_time": dtimes,
            "undos": sum(1 for s in steps if s.team == tname and s.kind == "undo"),
        })

    return Analysis(steps=steps, rows=rows, phases=phases, key_moments=key_moments, moments=moments,
                    metric_names=metric_names, metric_ranges=ranges, final_metrics=dict(current),
                    initial_metrics=initial, team_summaries=team_summaries, decision_times=decision_times,
                    cards=max(cards) if cards else 0, labels=labels)


def _key_moment(number: int, m, spec: ScenarioSpec, labels: dict, weights: dict, steps: list[Step]) -> KeyMoment:
    """The report's view of one picked moment: its main metric, who or what caused it, in words."""
    r = m.row
    # the metric to show: a term of the measure that moved most, else the largest plotted swing
    metric = None
    if m.changes:
        top = max(m.changes, key=lambda c: abs(c.delta))
        ms = next(x for x in spec.measures if x.key == top.key)
        metric = next((t for t, _ in sorted(ms.terms, key=lambda t: -abs(m.deltas.get(t[0], 0) * t[1]))
                       if m.deltas.get(t) and t in weights), None)
    if metric is None:
        cands = [k for k in m.deltas if k in weights] or list(m.deltas)
        metric = max(cands, key=lambda k: abs(m.deltas[k]) * weights.get(k, 0.3), default=None)
    d = m.deltas.get(metric, 0) if metric else 0
    before = m.start.get(metric, 0) if metric else 0
    after = before + d
    c = m.cause
    if m.category == "decision":
        who = f"{r.seat_title} ({r.team})" if r.team else f"{r.seat_title}"
    elif m.category == "bot":
        who = gettext("{seat} (bot)").format(seat=r.seat_title) if r.seat_title else gettext("Bot")
    elif m.category == "rule":
        who = gettext("Automatic rule step") + (f" ({r.phase})" if r.phase else "")
    elif m.category == "die":
        who = gettext("Die roll")
    elif m.category == "event":
        who = gettext("Card / event")
    else:
        who = gettext("Facilitator")
    text = r.short_text if m.category in ("decision", "bot") else (c.label or r.text)
    parts = []
    if metric and d and metric in weights:
        parts.append(f"{labels[metric]} {fmt_delta(d)} ({fmt_num(before)} \u2192 {fmt_num(after)})")
    shown: list = []
    for ch in m.changes:
        if any(o.before == -ch.before and o.after == -ch.after for o in shown):
            continue  # the other side of a zero-sum margin (Peru): said once
        shown.append(ch)
        parts.append(f"{ch.label} {fmt_delta(ch.delta)} ({fmt_num(ch.before)} \u2192 {fmt_num(ch.after)})")
    headline = "; ".join(dict.fromkeys(parts)) or gettext("no measured change")
    summary = gettext("{changes} on {unit} {number}: {who}: {what}").format(
        changes=headline, unit=spec.x_label.lower(), number=r.card, who=who, what=text)
    causes = [f.get("cause") for ef in m.effects for f in ef.facts
              if isinstance(f.get("cause"), str) and f.get("cause") and f.get("track") in (metric, None)
              or (isinstance(f.get("cause"), str) and metric and
                  spec.track_metrics.get(f.get("track"), f.get("track")) == metric)]
    if causes:
        summary += " " + gettext("(cause: {causes})").format(causes="; ".join(dict.fromkeys(str(x) for x in causes)))
    if m.decisive:
        summary += " \u2014 " + gettext("decisive: {what}").format(what=", ".join(m.decisive))
    return KeyMoment(number=number, row=r, metric=metric or "", metric_label=labels.get(metric, "") if metric else "",
                     delta=d, before=before, after=after, score=round(m.score, 3), summary=summary,
                     headline=headline,
                     category=m.category, category_title=m.category_title, who=who,
                     rationale=list(r.rationales) if m.category == "decision" else [],
                     bot_reason=c.reason if m.category == "bot" else "", changes=shown,
                     decisive=m.decisive, deltas=dict(m.deltas))
