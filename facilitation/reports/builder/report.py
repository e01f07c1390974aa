"""Assemble the AAR model from a bundle: cover, intents, timelines, decision log,
key moments, map snapshots, per-team summaries, notes and bookmarks, and the
TC 25-20 discussion prompts (intent, what happened, key issues, sustain, improve).

Pure: no Django, no database. Static chart images are added by the renderer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from facilitation.rendering.aar_maps import draw_snapshots, snapshot_points
from facilitation.reports.builder import charts as charts_mod
from facilitation.reports.builder import compactlog
from facilitation.reports.builder import summary as summary_mod
from facilitation.reports.builder.analysis import Analysis, analyse, fmt_delta, fmt_num, humanize
from facilitation.reports.builder.bundle import normalize
from facilitation.reports.builder.specs import ScenarioSpec, spec_for


@dataclass
class ReportModel:
    bundle: dict
    spec: ScenarioSpec
    analysis: Analysis
    cover: dict
    intents: list[dict]
    charts: list[charts_mod.Chart]
    decision_time_chart: charts_mod.Chart | None
    snapshots: list[dict]
    prompts: list[dict]
    notes: list[dict]
    bookmarks: list[dict]
    final_metrics: list[tuple[str, str]]
    warnings: list[str] = field(default_factory=list)
    comparison_charts: list[charts_mod.Chart] = field(default_factory=list)
    comparison: dict = field(default_factory=dict)  # {"rows": [...], "note": str}
    summary: dict = field(default_factory=dict)     # the one-page summary (builder.summary)
    card_lines: list = field(default_factory=list)  # the compact log (builder.compactlog)
    bot_seats: list = field(default_factory=list)   # summaries of the seats bots played
    links: dict = field(default_factory=dict)       # {"replay": URL of the session's replay}
    whatifs: list = field(default_factory=list)     # whatif.WhatIf, filled by the service (uses the engine)

    @property
    def all_charts(self) -> list[charts_mod.Chart]:
        return (self.charts + ([self.decision_time_chart] if self.decision_time_chart else [])
                + self.comparison_charts)


MARGIN_LABELS = {
    "score": "Score (influence cards \u00d7 10 + influence tokens \u2212 5 per tyranny token on the map)",
    "influence_cards_earned": "Influence cards earned",
    "tyranny_pool_left": "Tyranny tokens left in the pool",
}


def _result_lines(result: Any, seat_titles: dict[str, str]) -> tuple[str, list[tuple[str, str]]]:
    """(headline, [(label, value)]) for a Rules.result() dict of any reasonable shape."""
    if not result:
        return "The game was not finished when this report was built.", []
    if not isinstance(result, dict):
        return str(result), []
    lines: list[tuple[str, str]] = []
    winner = result.get("winner")
    if isinstance(winner, list | tuple):
        winner = ", ".join(seat_titles.get(w, str(w)) for w in winner)
    elif winner is not None:
        winner = seat_titles.get(winner, str(winner))
    headline = f"Winner: {winner}" if winner else "No winner"
    reason = result.get("reason") or result.get("text") or result.get("how")
    if isinstance(reason, str):
        # Tears of Tyranny names its victory conditions by row ("level 4: every influence card has
        # been played"); that row is not the Influence Level the team stood at
        m = re.match(r"level (\d): (.*)", reason)
        if m and "influence_level" in result:
            reason = (f"{m.group(2)} (victory condition {m.group(1)} of the influence track; "
                      f"the team stood at Influence Level {result['influence_level']})")
    if reason:
        headline += f" \u2014 {reason}"
    margins = result.get("margins") or result.get("victory_margins") or {}
    if isinstance(margins, dict):
        for k, v in margins.items():
            lines.append((f"Victory margin: {seat_titles.get(k, humanize(str(k)))}", fmt_num(v)
                          if isinstance(v, int | float) else str(v)))
    margin = result.get("margin")  # Tears of Tyranny: score, influence cards earned, tyranny pool left
    if isinstance(margin, dict):
        for k, v in margin.items():
            lines.append((MARGIN_LABELS.get(k, humanize(str(k))), fmt_num(v) if isinstance(v, int | float) else str(v)))
    elif isinstance(margin, int | float):
        lines.append(("Victory margin", fmt_num(margin)))
    ranking = result.get("ranking")
    if isinstance(ranking, list) and ranking:
        names = []
        for r in ranking:
            if isinstance(r, dict):
                names.append(seat_titles.get(r.get("seat"), str(r.get("seat") or r)))
            else:
                names.append(seat_titles.get(r, str(r)))
        lines.append(("Ranking", ", ".join(f"{i}. {n}" for i, n in enumerate(names, 1))))
    for k, v in result.items():
        if k in ("winner", "reason", "text", "how", "margins", "victory_margins", "ranking", "margin"):
            continue
        if isinstance(v, bool):
            lines.append((humanize(str(k)), "yes" if v else "no"))
        elif isinstance(v, str | int | float):
            lines.append((humanize(str(k)), fmt_num(v) if isinstance(v, int | float) else str(v)))
    return headline, lines


def _team_sides(b: dict, spec: ScenarioSpec) -> dict[str, set]:
    """Team -> the measure sides it plays for (its seats; "players" for a cooperative game)."""
    sides = {ms.side for ms in spec.measures}
    out = {}
    for t in b["teams"]:
        own = set(t["seats"]) & sides
        out[t["name"]] = own or ({"players"} if "players" in sides else set())
    return out


def _prompts(b: dict, an: Analysis, cover: dict, spec: ScenarioSpec) -> list[dict]:
    teams = [t["name"] for t in b["teams"]]
    intents = {t["name"]: (t["intents"][-1]["text"] if t["intents"] else "") for t in b["teams"]}
    sides = _team_sides(b, spec)
    out = []
    q = []
    for t in teams:
        if intents.get(t):
            q.append(f"{t}: you stated \u201c{intents[t]}\u201d. What did you set out to achieve, and "
                     f"what did you expect the other side to do?")
        else:
            q.append(f"{t}: no intent was recorded. What was your plan at the start, and how did "
                     f"your team agree on it?")
    out.append({"stage": "1. Review the intent", "subtitle": "What was supposed to happen?", "questions": q})
    unit = b["scenario_x_label"].lower()
    q = [f"The game ran {an.cards} {unit}(s) with {len(an.phases)} {b['scenario_phase_label']}(s). "
         f"{cover['result_headline']}."]
    for k in sorted(an.key_moments, key=lambda k: -k.score)[:4]:
        if k.category == "decision":
            q.append(f"K{k.number}: {k.summary}. {k.row.team}, walk us through the situation when you decided this.")
        elif k.category == "bot":
            q.append(f"K{k.number}: {k.summary}. The bot played this; what did it see that the teams did not?")
        else:
            what = {"rule": "an automatic rule step", "die": "a die roll", "event": "a card or event",
                    "facilitator": "the facilitator's"}.get(k.category, "automatic")
            q.append(f"K{k.number}: {k.summary}. No team decided this: it was {what}. What had set it up?")
    out.append({"stage": "2. What happened", "subtitle": "Establish the facts together, in order.",
                "questions": q})
    q = []
    for k in sorted(an.key_moments, key=lambda k: -k.score)[:3]:
        main = k.changes[0] if k.changes else None
        what = (f"{main.label} move {fmt_delta(main.delta)}" if main else
                f"{k.metric_label} swing {fmt_delta(k.delta)}" if k.metric_label else "this change")
        if k.category == "decision":
            q.append(f"Why did {what} at K{k.number} ({k.who})? Was it the effect the team intended?")
        elif k.category in ("rule", "die", "event"):
            q.append(f"Why did {what} at K{k.number} ({k.who.lower()}: {k.row.text[:80]})? Which earlier "
                     f"decisions of which team set up this automatic step, and could it have been foreseen?")
        else:
            q.append(f"Why did {what} at K{k.number} ({k.who})? Who could have changed it?")
    slow = max(an.decision_times, key=lambda t: t["median_s"] or 0, default=None)
    if slow and slow["median_s"] and slow["human_decisions"]:
        q.append(f"{slow['team']} took a median {slow['median_s']} s per decision. What slowed the "
                 f"team down: information, disagreement, or the rules?")
    if not q:
        q.append("Which decisions mattered most, and why?")
    out.append({"stage": "3. Key issues", "subtitle": "Why did it happen?", "questions": q})
    q = []
    for t in an.team_summaries:
        own = [k for k in an.key_moments if k.category == "decision" and k.row.team == t["team"]
               and k.change_for(sides.get(t["team"], ())) > 0]
        ops = ", ".join(f"{name} ({n})" for name, n in t["operations"][:3])
        if own:
            best = max(own, key=lambda k: k.change_for(sides[t["team"]]))
            q.append(f"{t['team']}: K{best.number} helped your side ({best.summary.split(' on ')[0]}). "
                     f"What made it work, and would you repeat it? (most used: {ops or 'none recorded'})")
        else:
            q.append(f"{t['team']}: what worked that you would repeat? (most used: {ops or 'none recorded'})")
    out.append({"stage": "4. Sustain", "subtitle": "What should we keep doing?", "questions": q})
    q = []
    for t in teams:
        own = [k for k in an.key_moments if k.category == "decision" and k.row.team == t
               and k.change_for(sides.get(t, ())) < 0]
        if own:
            k = min(own, key=lambda k: k.change_for(sides[t]))
            q.append(f"{t}: K{k.number} cost your side ({k.summary.split(' on ')[0]}). What would you "
                     f"do differently, and what would you need to know earlier?")
        else:
            q.append(f"{t}: what one change to your approach would most improve the outcome?")
    q.append("How does what happened here map onto a real counter-insurgency campaign?")
    out.append({"stage": "5. Improve", "subtitle": "What should we do differently?", "questions": q})
    if b.get("vignette"):
        out.insert(0, _vignette_prompts(b["vignette"]))
    return out


def _vignette_prompts(v: dict) -> dict:
    """A vignette run's own questions first, then what the run's teams chose side by side at
    their first decisions (the comparison page), each as a question to the class."""
    q = list(v["questions"])
    for d in v["decisions"]:
        if len(d["choices"]) < 2:
            continue
        said = "; ".join(f"{c['team']}{' (this session)' if c['own'] else ''} chose {c['label']}"
                         + (f" (\u201c{c['rationale']}\u201d)" if c["rationale"] else "") for c in d["choices"])
        q.append(f"Decision {d['number']}, the same situation for every team: {said}. "
                 f"What did each team see that led it there?")
    subtitle = f"{v['title']}: {v['objective']}" if v["objective"] else v["title"]
    return {"stage": "Vignette", "subtitle": subtitle, "questions": q, "vignette": True}


def _comparison_rows(b: dict, spec: ScenarioSpec, an: Analysis, comp: dict, params: dict,
                     seat_titles: dict) -> dict:
    """The outcome table of the comparison: this session, earlier ones, the bot-only game."""
    if not comp:
        return {}

    def winner(w):
        if isinstance(w, list | tuple):
            return ", ".join(seat_titles.get(x, str(x)) for x in w)
        return seat_titles.get(w, str(w).title()) if w else "\u2014"

    rows = [{"name": "This session", "winner": winner((b["result"] or {}).get("winner")) if b["result"] else
             "(not finished)", "finals": {ms.label: ms.value(an.final_metrics, params) for ms in spec.measures}}]
    for r in comp.get("earlier") or []:
        rows.append({"name": r["name"], "winner": winner(r.get("winner")),
                     "finals": {ms.label: (r["series"][ms.key]["y"][-1] if ms.key in r["series"] else None)
                                for ms in spec.measures}})
    base = comp.get("baseline")
    if base:
        rows.append({"name": f"Bots only, same seed ({base['bots']} bots, {base['choices']} choices)",
                     "winner": winner((base.get("result") or {}).get("winner")),
                     "finals": {ms.label: (base["series"][ms.key]["y"][-1] if ms.key in base["series"] else None)
                                for ms in spec.measures}})
    labels = list(dict.fromkeys(ms.label for ms in spec.measures))
    note = ("" if comp.get("earlier") else "No earlier finished session of this game and scenario (same options) "
            "in this course to compare with; ") + ("the bot-only game replays this session's seed with bots in "
                                                   "every seat." if base else "no bot-only game could be played.")
    return {"rows": rows, "labels": labels, "note": note}


def build_report(raw: dict, *, max_key_moments: int = 6) -> ReportModel:
    b = normalize(raw)
    spec = spec_for(b["scenario"]["key"])
    labels: dict[str, str] = {}
    plotted: list[tuple[str, ...]] = []
    for cs in spec.charts:
        for s in cs.series:
            if len(s.metrics) == 1:
                labels.setdefault(s.metrics[0], s.label)
            plotted.append(s.metrics)
    an = analyse(b, spec, labels=labels, max_key_moments=max_key_moments, plotted=plotted or None)
    if not any(all(m in an.metric_names for m in names) for names in plotted):
        # unknown scenario (or renamed metrics): swings of every metric count
        an = analyse(b, spec, labels=labels, max_key_moments=max_key_moments, plotted=None)
    b["scenario_phase_label"] = spec.phase_label
    b["scenario_x_label"] = spec.x_label
    seat_titles = {s["id"]: s["title"] for s in b["seats"]}
    for s in b["scenario"].get("seats", []):
        seat_titles.setdefault(s["id"], s.get("title", s["id"]))
    headline, result_lines = _result_lines(b["result"], seat_titles)
    sess = b["session"]
    events = b["events"]
    first_t = next((e["created_at"] for e in events if e["created_at"]), None)
    last_t = next((e["created_at"] for e in reversed(events) if e["created_at"]), None)
    teams = []
    for t in b["teams"]:
        teams.append({"name": t["name"], "seats": [seat_titles.get(s, s) for s in t["seats"]],
                      "members": t["members"],
                      "controllers": sorted({s.get("controller", "human") for s in b["seats"]
                                             if s["id"] in t["seats"]})})
    cover = {
        "game": b["scenario"]["title"],
        "scenario_key": b["scenario"]["key"],
        "course": b["course"].get("title", ""),
        "instructors": b["course"].get("instructors", []),
        "session": sess.get("title") or f"Session {sess.get('id')}",
        "session_id": sess.get("id"),
        "seed": sess.get("seed"),
        "options": sess.get("options") or {},
        "status": sess.get("status", ""),
        "scheduled_start": sess.get("scheduled_start"),
        "started_at": sess.get("started_at") or first_t,
        "ended_at": sess.get("ended_at") or (last_t if b["result"] else None),
        "last_event_at": last_t,
        "teams": teams,
        "seats": b["seats"],
        "result_headline": headline,
        "result_lines": result_lines,
        "finished": bool(b["result"]),
        "as_of_seq": b["as_of_seq"],
        "events": len(events),
        "cards": an.cards,
        "decisions": sum(1 for s in an.steps if s.kind in ("decision", "bot")),
    }
    intents = []
    for t in b["teams"]:
        for i in t["intents"]:
            intents.append({"team": t["name"], "text": i["text"], "seq": i["seq"], "author": i["author"],
                            "created_at": i["created_at"]})
        if not t["intents"]:
            intents.append({"team": t["name"], "text": "", "seq": None, "author": "", "created_at": None})

    charts = charts_mod.timelines(spec, an)
    dtc = charts_mod.decision_time_chart(an)

    # maps at the start, at each phase and at the end, drawn by the one board renderer (issue 17.4)
    points = snapshot_points(an.phases, b["as_of_seq"], finished=bool(b["result"]))
    snapshots, warnings = draw_snapshots(cover["scenario_key"], points, b["snapshots"],
                                         x_label=spec.x_label.lower()) if b["snapshots"] else ([], [])

    final = [(an.labels.get(m, humanize(m)), fmt_num(v)) for m, v in sorted(an.final_metrics.items())]
    comp = b.get("comparison") or {}
    params = b.get("outcome_params") or {}
    sides = {x for ss in _team_sides(b, spec).values() for x in ss} or None
    comparison_charts = charts_mod.outcome_comparison_charts(spec, an, comp, params, sides)
    comparison = _comparison_rows(b, spec, an, comp, params, seat_titles)
    return ReportModel(comparison_charts=comparison_charts, comparison=comparison,
                       summary=summary_mod.summary(b, an, cover),
                       card_lines=compactlog.card_lines(an, spec, params),
                       bot_seats=compactlog.bot_seat_summaries(b, an), links=b.get("links") or {},
                       bundle=b, spec=spec, analysis=an, cover=cover, intents=intents, charts=charts,
                       decision_time_chart=dtc, snapshots=snapshots, prompts=_prompts(b, an, cover, spec),
                       notes=b["notes"], bookmarks=b["bookmarks"], final_metrics=final, warnings=warnings)
