"""What each fact changed and why: per-fact metric deltas, the cause of every fact, and
the measures that decide a game (pure, no Django).

Causes come from the facts themselves when the engine gives them (contract v2:
``fact["cause"] = {"kind": "decision" | "rule" | "die" | "event" | "bot" | "facilitator", ...}``,
engine/core/contract.py). For facts without one, the cause is derived conservatively
from the event that carries them:

* ``system`` events are automatic rule steps; ``facilitator`` events are the facilitator's;
* in a ``decision`` or ``bot`` event, the facts before the first automatic marker (a
  card revealed, a phase opening, the game ending) are the deciding seat's; every fact
  from that marker on is an automatic step the click set off, never the seat's decision;
* a die-roll fact is the die's.

Metric deltas per fact come from v2 ``deltas`` (metric -> change) or from the v1
``track``/``delta`` keys when the track names a metric (or a known alias of one). What
the facts of an event do not explain of its metric change (e.g. Total Support after a
shift) goes to its automatic part when it has one, else to its first part.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from facilitation.reports.builder.specs import ScenarioSpec
from facilitation.reports.builder.translation import gettext, gettext_noop
from facilitation.reports.builder.translation import text as render

CARD_FACT_TYPES = ("card", "card_revealed", "card_drawn", "card_reveal", "draw")
AUTO_FACT_TYPES = ("phase", "propaganda", "propaganda_round", "adversary_phase", "turn", "game_over")
DIE_FACT_TYPES = ("roll", "die", "dice")
CAUSE_KINDS = ("decision", "bot", "rule", "die", "event", "facilitator")
CATEGORY_TITLES = {
    "decision": gettext_noop("Team decisions"),
    "bot": gettext_noop("Bot decisions"),
    "rule": gettext_noop("Automatic rule steps"),
    "die": gettext_noop("Dice"),
    "event": gettext_noop("Cards and events"),
    "facilitator": gettext_noop("Facilitator"),
}


@dataclass
class Cause:
    kind: str                 # one of CAUSE_KINDS
    seat: str | None = None   # the deciding seat (decision, bot)
    label: str = ""           # plain words: "Propaganda Round: Conflict Phase (6.1)", "card P23"
    rule: str = ""
    reason: str = ""          # a bot's own reason (section 8 citations in Andean Abyss)
    derived: bool = True      # False when the engine named the cause itself (v2)

    @property
    def key(self) -> tuple:
        return (self.kind, self.seat if self.kind in ("decision", "bot") else None)


@dataclass
class Effect:
    """A run of one event's facts with one cause, and the metric changes it made."""

    seq: int
    cause: Cause
    facts: list[dict]
    deltas: dict[str, float] = field(default_factory=dict)
    explained: bool = False   # True when its deltas come from the facts, not the residual


def _text(v) -> str:
    """A message (contract v2) or a plain string as text."""
    return render(v)


def _number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def fact_deltas(f: dict, spec: ScenarioSpec, metric_names, running: dict | None = None) -> dict[str, float]:
    """Metric name -> change for one fact (v2 ``deltas``, else v1 ``track``/``delta``, or
    ``track``/``value`` against the ``running`` metrics)."""
    d = f.get("deltas")
    if isinstance(d, dict):
        return {k: v for k, v in d.items() if _number(v) and v}
    track, delta = f.get("track"), f.get("delta")
    if track and delta is None and _number(f.get("value")) and running is not None:
        name = spec.track_metrics.get(track, track)
        if name in running and "{seat}" not in name:
            delta = f["value"] - running[name]
    if not track or not _number(delta) or not delta:
        return {}
    name = spec.track_metrics.get(track, track)
    if "{seat}" in name:
        if not f.get("seat"):
            return {}
        name = name.format(seat=f["seat"])
    return {name: delta} if name in metric_names else {}


def summary_overlaps(facts: list[dict], spec: ScenarioSpec, metric_names) -> list[set]:
    """Per fact, the metrics to leave out of its ``deltas``: a phase fact may summarise the changes
    its step made (Andean Abyss's Resources Phase) while the step's own facts carry them one by
    one; counted once, from the detailed facts."""
    detailed: set = set()
    for f in facts:
        if f.get("type") not in AUTO_FACT_TYPES:
            detailed.update(fact_deltas(f, spec, metric_names))
    return [detailed if f.get("type") in AUTO_FACT_TYPES and isinstance(f.get("deltas"), dict) else set()
            for f in facts]


def _is_auto_marker(f: dict, spec: ScenarioSpec) -> bool:
    t = f.get("type")
    return (t in AUTO_FACT_TYPES or t in CARD_FACT_TYPES or t in spec.phase_fact_types
            or t in spec.auto_fact_types or (f.get("track") in spec.auto_tracks and f.get("track") is not None))


def _v2_cause(f: dict) -> Cause | None:
    c = f.get("cause")
    if not isinstance(c, dict) or c.get("kind") not in CAUSE_KINDS:
        return None
    kind = c["kind"]
    label = _text(c.get("step")) or _text(c.get("title")) or ""
    if kind == "event" and not label:
        label = gettext("card {card}").format(card=c.get("card")) if c.get("card") is not None else gettext("event")
    if kind == "die" and c.get("roll") is not None:
        label = gettext("die roll {roll}").format(roll=c["roll"]) + (f" ({c['rule']})" if c.get("rule") else "")
    return Cause(kind=kind, seat=c.get("seat"), label=label or _text(f.get("text")), rule=str(c.get("rule") or ""),
                 reason=_text(c.get("reason")), derived=False)


def event_effects(e: dict, spec: ScenarioSpec, metric_names, before: dict, after: dict) -> list[Effect]:
    """The event's facts split into runs of one cause each, with their metric deltas."""
    kind = e["kind"]
    facts = e["facts"]
    reason = str(e["payload"].get("reason") or "") if kind == "bot" else ""
    auto = kind not in ("decision", "bot")
    header = ""  # the automatic step under way (the last marker fact's text): it names the rule step
    effects: list[Effect] = []
    running = dict(before)
    skip = summary_overlaps(facts, spec, metric_names)
    for fi, f in enumerate(facts):
        cause = _v2_cause(f)
        if cause is None:
            if _is_auto_marker(f, spec):
                auto = True
                # a phase names the step until the next phase; other markers only when none did
                if f.get("type") in AUTO_FACT_TYPES or f.get("type") in spec.phase_fact_types or not header:
                    header = _text(f.get("text"))
            if kind == "facilitator":
                cause = Cause("facilitator", label=_text(f.get("text")))
            elif f.get("type") in DIE_FACT_TYPES:
                cause = Cause("die", label=_text(f.get("text")), rule=str(f.get("rule") or ""))
            elif not auto:
                cause = Cause(kind, seat=e["seat"], reason=reason)
            elif f.get("type") in CARD_FACT_TYPES:
                cause = Cause("event", label=_text(f.get("text")))
            else:
                cause = Cause("rule", label=header or _text(f.get("text")) or humanize_action(e),
                              rule=str(f.get("phase") or f.get("rule") or ""))
        elif cause.kind == "bot" and not cause.reason:
            cause.reason = reason
        fd = {k: v for k, v in fact_deltas(f, spec, metric_names, running).items() if k not in skip[fi]}
        for k, v in fd.items():
            running[k] = running.get(k, 0) + v
        last = effects[-1] if effects else None
        if last is not None and last.cause.key == cause.key and (cause.kind in ("decision", "bot")
                                                                 or last.cause.label == cause.label):
            last.facts.append(f)
            for k, v in fd.items():
                last.deltas[k] = last.deltas.get(k, 0) + v
            last.explained = last.explained or bool(fd)
        else:
            effects.append(Effect(e["seq"], cause, [f], dict(fd), bool(fd)))
    if not effects:
        if kind in ("decision", "bot"):
            effects.append(Effect(e["seq"], Cause(kind, seat=e["seat"], reason=reason), []))
        elif kind == "facilitator":
            effects.append(Effect(e["seq"], Cause("facilitator", label=str(e["payload"].get("action") or "")), []))
        else:
            effects.append(Effect(e["seq"], Cause("rule", label=str(e["payload"].get("action") or "")), []))
    # what the facts do not explain goes to the automatic part (if any), else to the first part
    total = {k: after[k] - before[k] for k in after if k in before and after[k] != before[k]
             and k not in spec.card_metrics}
    explained: dict[str, float] = {}
    for ef in effects:
        for k, v in ef.deltas.items():
            explained[k] = explained.get(k, 0) + v
    # in the order the metrics come (not a set's, which follows string hashing: the same log gave
    # another order of a key moment's "All changes" in another process)
    residual = {k: total.get(k, 0) - explained.get(k, 0) for k in dict.fromkeys([*total, *explained])}
    residual = {k: v for k, v in residual.items() if v}
    if residual:
        target = next((ef for ef in reversed(effects) if ef.cause.kind in ("rule", "event", "die")), effects[0])
        for k, v in residual.items():
            target.deltas[k] = target.deltas.get(k, 0) + v
            if not target.deltas[k]:
                del target.deltas[k]
    return effects


def humanize_action(e: dict) -> str:
    a = str(e["payload"].get("action") or e["payload"].get("type") or "automatic step")
    return a.replace("_", " ").capitalize()


# ---- the measures that decide a game -----------------------------------------------------------
def measure_values(spec: ScenarioSpec, metrics: dict, params: dict | None = None) -> dict[str, float]:
    out = {}
    for ms in spec.measures:
        v = ms.value(metrics, params or {})
        if v is not None:
            out[ms.key] = v
    return out


def resource_flows(events: list[dict], spec: ScenarioSpec, metric_names, seat: str) -> tuple[float, float]:
    """(spent, gained) of ``seat``'s resources over the log, counted fact by fact (an
    event's metric change only where no fact of that event names the resource)."""
    rm = spec.resources.get(seat)
    if rm is None:
        return 0, 0
    spent = gained = 0
    prev: dict = {}
    for e in events:
        cur = {**prev, **e["metrics"]}
        named = False
        skip = summary_overlaps(e["facts"], spec, metric_names)
        for f, sk in zip(e["facts"], skip, strict=True):
            d = fact_deltas(f, spec, metric_names).get(rm)
            if d is None or rm in sk:
                continue
            named = True
            if d < 0:
                spent -= d
            else:
                gained += d
        if not named and rm in prev and rm in cur and cur[rm] != prev[rm]:
            d = cur[rm] - prev[rm]
            if d < 0:
                spent -= d
            else:
                gained += d
        prev = cur
    return spent, gained
