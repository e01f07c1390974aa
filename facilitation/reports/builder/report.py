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
from facilitation.reports.builder.translation import gettext, gettext_noop, ngettext, text
from facilitation.reports.builder.whatif import bot_words


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
    "score": gettext_noop("Score (influence cards × 10 + influence tokens − 5 per tyranny token on the map)"),
    "influence_cards_earned": gettext_noop("Influence cards earned"),
    "tyranny_pool_left": gettext_noop("Tyranny tokens left in the pool"),
}


#: the words for the other keys of the games' results (metrics' keys take the metric's label)
RESULT_WORDS = {
    "tie": gettext_noop("Tie"),
    "turn": gettext_noop("Turn"),
    "victory_check": gettext_noop("Victory check"),
    "players_lose": gettext_noop("Every player loses"),
    "solo_margin": gettext_noop("Solo victory margin"),
    "solo_result": gettext_noop("Solo result"),
    # Tears of Tyranny's sides (its result names them, not seats)
    "players": gettext_noop("The players"),
    "adversary": gettext_noop("The adversary"),
}


def _words(key: str, labels: dict[str, str]) -> str:
    return labels.get(key) or (gettext(RESULT_WORDS[key]) if key in RESULT_WORDS else humanize(key))


def _result_lines(result: Any, seat_titles: dict[str, str],
                  labels: dict[str, str] | None = None) -> tuple[str, list[tuple[str, str]]]:
    """(headline, [(label, value)]) for a Rules.result() dict of any reasonable shape."""
    labels = labels or {}
    seat_titles = {**{k: gettext(v) for k, v in RESULT_WORDS.items() if k in ("players", "adversary")},
                   **seat_titles}
    if not result:
        return gettext("The game was not finished when this report was built."), []
    if not isinstance(result, dict):
        return text(result), []
    lines: list[tuple[str, str]] = []
    winner = result.get("winner")
    if isinstance(winner, list | tuple):
        winner = ", ".join(seat_titles.get(w, str(w)) for w in winner)
    elif winner is not None:
        winner = seat_titles.get(winner, str(winner))
    headline = gettext("Winner: {winner}").format(winner=winner) if winner else gettext("No winner")
    reason = result.get("reason") or result.get("text") or result.get("how")
    # a message (the log's result, contract v2): matched on its English template, shown in words
    template = reason.get("msg") if isinstance(reason, dict) else reason
    reason = text(reason) if isinstance(reason, dict | list) else reason
    if isinstance(reason, str) and isinstance(template, str):
        # Tears of Tyranny names its victory conditions by row ("level 4: every influence card has
        # been played"); that row is not the Influence Level the team stood at
        m = re.match(r"level (\d): (.*)", template)
        if m and "influence_level" in result and ": " in reason:
            reason = gettext("{condition} (victory condition {row} of the influence track; the team stood at "
                             "Influence Level {level})").format(condition=reason.split(": ", 1)[1], row=m.group(1),
                                                                level=result["influence_level"])
    if reason:
        headline += f" \u2014 {reason}"
    margins = result.get("margins") or result.get("victory_margins") or {}
    if isinstance(margins, dict):
        for k, v in margins.items():
            lines.append((gettext("Victory margin: {side}").format(side=seat_titles.get(k, humanize(str(k)))), fmt_num(v)
                          if isinstance(v, int | float) else str(v)))
    margin = result.get("margin")  # Tears of Tyranny: score, influence cards earned, tyranny pool left
    if isinstance(margin, dict):
        for k, v in margin.items():
            lines.append((gettext(MARGIN_LABELS[k]) if k in MARGIN_LABELS else humanize(str(k)), fmt_num(v) if isinstance(v, int | float) else str(v)))
    elif isinstance(margin, int | float):
        lines.append((gettext("Victory margin"), fmt_num(margin)))
    ranking = result.get("ranking")
    if isinstance(ranking, list) and ranking:
        names = []
        for r in ranking:
            if isinstance(r, dict):
                names.append(seat_titles.get(r.get("seat"), str(r.get("seat") or r)))
            else:
                names.append(seat_titles.get(r, str(r)))
        lines.append((gettext("Ranking"), ", ".join(f"{i}. {n}" for i, n in enumerate(names, 1))))
    for k, v in result.items():
        if k in ("winner", "reason", "text", "how", "margins", "victory_margins", "ranking", "margin"):
            continue
        if isinstance(v, bool):
            lines.append((_words(str(k), labels), gettext("yes") if v else gettext("no")))
        elif isinstance(v, str | int | float):
            lines.append((_words(str(k), labels), fmt_num(v) if isinstance(v, int | float) else str(v)))
        elif isinstance(v, dict) and "msg" in v:  # a message (contract v2)
            lines.append((_words(str(k), labels), text(v)))
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
            q.append(gettext("{team}: you stated “{intent}”. What did you set out to achieve, and "
                             "what did you expect the other side to do?").format(team=t, intent=intents[t]))
        else:
            q.append(gettext("{team}: no intent was recorded. What was your plan at the start, and how did "
                             "your team agree on it?").format(team=t))
    out.append({"stage": gettext("1. Review the intent"), "subtitle": gettext("What was supposed to happen?"),
                "questions": q})
    unit = b["scenario_x_label"].lower()
    q = [gettext("The game ran {cards} {unit}(s) with {phases} {phase}(s). {result}.").format(
        cards=an.cards, unit=unit, phases=len(an.phases), phase=b["scenario_phase_label"],
        result=cover["result_headline"])]
    for k in sorted(an.key_moments, key=lambda k: -k.score)[:4]:
        if k.category == "decision":
            q.append(gettext("K{number}: {summary}. {team}, walk us through the situation when you decided "
                             "this.").format(number=k.number, summary=k.summary, team=k.row.team))
        elif k.category == "bot":
            q.append(gettext("K{number}: {summary}. The bot played this; what did it see that the teams did "
                             "not?").format(number=k.number, summary=k.summary))
        else:
            what = {"rule": gettext("an automatic rule step"), "die": gettext("a die roll"),
                    "event": gettext("a card or event"),
                    "facilitator": gettext("the facilitator's")}.get(k.category, gettext("automatic"))
            q.append(gettext("K{number}: {summary}. No team decided this: it was {what}. What had set it "
                             "up?").format(number=k.number, summary=k.summary, what=what))
    out.append({"stage": gettext("2. What happened"), "subtitle": gettext("Establish the facts together, in order."),
                "questions": q})
    q = []
    for k in sorted(an.key_moments, key=lambda k: -k.score)[:3]:
        main = k.changes[0] if k.changes else None
        what = (gettext("{measure} move {delta}").format(measure=main.label, delta=fmt_delta(main.delta)) if main
                else gettext("{measure} swing {delta}").format(measure=k.metric_label, delta=fmt_delta(k.delta))
                if k.metric_label else gettext("this change"))
        if k.category == "decision":
            q.append(gettext("Why did {what} at K{number} ({who})? Was it the effect the team intended?").format(
                what=what, number=k.number, who=k.who))
        elif k.category in ("rule", "die", "event"):
            q.append(gettext("Why did {what} at K{number} ({who}: {text})? Which earlier decisions of which team "
                             "set up this automatic step, and could it have been foreseen?").format(
                what=what, number=k.number, who=k.who.lower(), text=k.row.text[:80]))
        else:
            q.append(gettext("Why did {what} at K{number} ({who})? Who could have changed it?").format(
                what=what, number=k.number, who=k.who))
    slow = max(an.decision_times, key=lambda t: t["median_s"] or 0, default=None)
    if slow and slow["median_s"] and slow["human_decisions"]:
        q.append(gettext("{team} took a median {seconds} s per decision. What slowed the team down: information, "
                         "disagreement, or the rules?").format(team=slow["team"], seconds=slow["median_s"]))
    if not q:
        q.append(gettext("Which decisions mattered most, and why?"))
    out.append({"stage": gettext("3. Key issues"), "subtitle": gettext("Why did it happen?"), "questions": q})
    q = []
    for t in an.team_summaries:
        own = [k for k in an.key_moments if k.category == "decision" and k.row.team == t["team"]
               and k.change_for(sides.get(t["team"], ())) > 0]
        ops = ", ".join(f"{name} ({n})" for name, n in t["operations"][:3])
        if own:
            best = max(own, key=lambda k: k.change_for(sides[t["team"]]))
            q.append(gettext("{team}: K{number} helped your side ({what}). What made it work, and would you repeat "
                             "it? (most used: {operations})").format(
                team=t["team"], number=best.number, what=best.headline,
                operations=ops or gettext("none recorded")))
        else:
            q.append(gettext("{team}: what worked that you would repeat? (most used: {operations})").format(
                team=t["team"], operations=ops or gettext("none recorded")))
    out.append({"stage": gettext("4. Sustain"), "subtitle": gettext("What should we keep doing?"), "questions": q})
    q = []
    for t in teams:
        own = [k for k in an.key_moments if k.category == "decision" and k.row.team == t
               and k.change_for(sides.get(t, ())) < 0]
        if own:
            k = min(own, key=lambda k: k.change_for(sides[t]))
            q.append(gettext("{team}: K{number} cost your side ({what}). What would you do differently, and what "
                             "would you need to know earlier?").format(team=t, number=k.number, what=k.headline))
        else:
            q.append(gettext("{team}: what one change to your approach would most improve the outcome?").format(
                team=t))
    q.append(gettext("How does what happened here map onto a real counter-insurgency campaign?"))
    out.append({"stage": gettext("5. Improve"), "subtitle": gettext("What should we do differently?"),
                "questions": q})
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
        said = "; ".join((gettext("{team} (this session) chose {choice}") if c["own"] else
                          gettext("{team} chose {choice}")).format(team=c["team"], choice=text(c["label"]))
                         + (f" (\u201c{c['rationale']}\u201d)" if c["rationale"] else "") for c in d["choices"])
        q.append(gettext("Decision {number}, the same situation for every team: {said}. What did each team see "
                         "that led it there?").format(number=d["number"], said=said))
    subtitle = f"{v['title']}: {v['objective']}" if v["objective"] else v["title"]
    return {"stage": gettext("Vignette"), "subtitle": subtitle, "questions": q, "vignette": True}


def _comparison_rows(b: dict, spec: ScenarioSpec, an: Analysis, comp: dict, params: dict,
                     seat_titles: dict) -> dict:
    """The outcome table of the comparison: this session, earlier ones, the bot-only game."""
    if not comp:
        return {}

    names = {**{k: gettext(v) for k, v in RESULT_WORDS.items() if k in ("players", "adversary")}, **seat_titles}

    def winner(w):
        if isinstance(w, list | tuple):
            return ", ".join(names.get(x, str(x)) for x in w)
        return names.get(w, str(w).title()) if w else "\u2014"

    rows = [{"name": gettext("This session"), "winner": winner((b["result"] or {}).get("winner")) if b["result"] else
             gettext("(not finished)"), "finals": {ms.label: ms.value(an.final_metrics, params) for ms in spec.measures}}]
    for r in comp.get("earlier") or []:
        rows.append({"name": r["name"], "winner": winner(r.get("winner")),
                     "finals": {ms.label: (r["series"][ms.key]["y"][-1] if ms.key in r["series"] else None)
                                for ms in spec.measures}})
    base = comp.get("baseline")
    if base:
        rows.append({"name": gettext("Bots only, same seed ({bots} bots, {choices} choices)").format(
                         bots=bot_words(base["bots"]), choices=base["choices"]),
                     "winner": winner((base.get("result") or {}).get("winner")),
                     "finals": {ms.label: (base["series"][ms.key]["y"][-1] if ms.key in base["series"] else None)
                                for ms in spec.measures}})
    labels = list(dict.fromkeys(ms.label for ms in spec.measures))
    note = ("" if comp.get("earlier") else gettext("No earlier finished session of this game and scenario (same "
                                                   "options) in this course to compare with; ")) + (
        gettext("the bot-only game replays this session's seed with bots in every seat.") if base
        else gettext("no bot-only game could be played."))
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
    # the other metrics the log's deltas name: a margin by its measure, resources by their side
    for ms in spec.measures:
        if len(ms.terms) == 1 and ms.terms[0][1] == 1 and not ms.offset:
            labels.setdefault(ms.terms[0][0], ms.label)
    titles = {s["id"]: s.get("title", s["id"]) for s in b["scenario"].get("seats", [])}
    for sid, metric in spec.resources.items():
        labels.setdefault(metric, gettext("{side} Resources").format(side=titles.get(sid, humanize(sid))))
    for sid, title in titles.items():  # Tears of Tyranny's presence per player
        labels.setdefault(f"presence_{sid}", title)
        for prefix, words in spec.seat_metric_labels.items():
            labels.setdefault(f"{prefix}{sid}", words.format(seat=title))
    for metric, words in spec.metric_labels.items():
        labels.setdefault(metric, words)
    an = analyse(b, spec, labels=labels, max_key_moments=max_key_moments, plotted=plotted or None)
    if not any(all(m in an.metric_names for m in names) for names in plotted):
        # unknown scenario (or renamed metrics): swings of every metric count
        an = analyse(b, spec, labels=labels, max_key_moments=max_key_moments, plotted=None)
    b["scenario_phase_label"] = spec.phase_label
    b["scenario_x_label"] = spec.x_label
    seat_titles = {s["id"]: s["title"] for s in b["seats"]}
    for s in b["scenario"].get("seats", []):
        seat_titles.setdefault(s["id"], s.get("title", s["id"]))
    headline, result_lines = _result_lines(b["result"], seat_titles, an.labels)
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
        "session": sess.get("title") or gettext("Session {id}").format(id=sess.get("id")),
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
                                         x_label=spec.x_label.lower(), gettext=gettext,
                                         ngettext=ngettext) if b["snapshots"] else ([], [])

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
