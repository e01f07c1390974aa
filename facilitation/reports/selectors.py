"""Reads for after-action reviews: who may see reports, the data bundle a report
is built from, cross-session comparison and event exports.

Permissions: a course's instructors (and staff) may request, list and download
the reports of every session of the course; the course's reviewers, and the
students who played in a session, may list and download its reports (and export
its events) once it is finished
(``facilitation.selectors.session_roles``). A live or paused session is open to
its course's reviewers on the watch page only (the role matrix,
tests/facilitation/test_roles.py): /reports/ lists it for them as watch-only.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.apps import apps
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext

import engine
from facilitation import eventlog
from facilitation.models import ClassSession, Course, Seat, SessionEvent, Team, TeamIntent
from facilitation.reports.builder.analysis import _card_counter, metric_value
from facilitation.reports.builder.bundle import normalize
from facilitation.reports.builder.specs import spec_for
from facilitation.reports.models import AARReport
from facilitation.selectors import course_is_instructor, session_roles
from facilitation.text import rendered, tr


# ---- permissions -------------------------------------------------------------------
def report_can_request(user, session: ClassSession) -> bool:
    """Instructors of the course (and staff) build reports, live or finished."""
    return course_is_instructor(user, session.course)


def session_can_read_reports(user, session: ClassSession) -> bool:
    """Instructors of the course, at any time; its reviewers, and the students who played in
    it (members of one of its teams), once the session is finished: a finished game's review
    is public to its participants. Nobody else: not the students of other sessions."""
    roles = session_roles(user, session)
    if "instructor" in roles:
        return True
    return bool(roles & {"reviewer", "student"}) and session.status == ClassSession.Status.FINISHED


def report_can_view(user, report: AARReport) -> bool:
    return session_can_read_reports(user, report.session)


def sessions_readable(user) -> QuerySet[ClassSession]:
    """Sessions whose reports and exports ``user`` may read."""
    if not (user and user.is_authenticated):
        return ClassSession.objects.none()
    qs = ClassSession.objects.select_related("course")
    if user.is_staff:
        return qs
    return qs.filter(Q(course__instructors=user)
                     | Q(course__reviewers=user, status=ClassSession.Status.FINISHED)
                     | Q(teams__members=user, status=ClassSession.Status.FINISHED)).distinct()


def sessions_watch_only(user) -> QuerySet[ClassSession]:
    """Live and paused sessions ``user`` reviews (the course's reviewer, not an instructor,
    not playing in them): open on the watch page, no reports until they are finished."""
    if not (user and user.is_authenticated) or user.is_staff:
        return ClassSession.objects.none()
    return (ClassSession.objects.select_related("course")
            .filter(course__reviewers=user, status__in=(ClassSession.Status.LIVE, ClassSession.Status.PAUSED))
            .exclude(course__instructors=user).exclude(teams__members=user).distinct())


def reports_visible_to(user, session: ClassSession | None = None) -> QuerySet[AARReport]:
    qs = AARReport.objects.select_related("session", "session__course").filter(
        session__in=sessions_readable(user))
    if session is not None:
        qs = qs.filter(session=session)
    return qs.order_by("-created_at", "-id")


def report_latest_done(session: ClassSession) -> AARReport | None:
    return (AARReport.objects.filter(session=session, status=AARReport.Status.DONE)
            .order_by("-seq").first())


def report_status(report: AARReport) -> dict:
    """The JSON the progress page polls."""
    return {
        "id": report.pk,
        "session": report.session_id,
        "seq": report.seq,
        "status": report.status,
        "status_label": report.get_status_display(),
        "language": report.language,
        "progress": report.progress,
        "stage": report.stage,
        "error": report.error,
        "attempts": report.attempts,
        "done": report.status == AARReport.Status.DONE,
        "failed": report.status == AARReport.Status.FAILED,
        "html": bool(report.html),
        "pdf": bool(report.pdf),
        "summary": report.summary,
        "updated_at": report.updated_at.isoformat() if report.updated_at else None,
    }


# ---- the data bundle ------------------------------------------------------------------
def _user_name(u) -> str:
    if u is None:
        return ""
    full = (u.get_full_name() or "").strip()
    return full or u.get_username()


def _optional_model(label: str):
    try:
        return apps.get_model(label)
    except LookupError:
        return None


def session_rules(session: ClassSession):
    try:
        return engine.load(session.scenario_key)
    except engine.UnknownScenario:
        return None


def report_bundle(session: ClassSession, seq: int, *, with_snapshots: bool = True,
                  with_comparison: bool = True) -> dict:
    """Everything an AAR of ``session`` as of event ``seq`` needs, as plain data. Engine texts
    (facts, choice labels, titles, the board's names) are rendered to words in the active
    language here (``facilitation.text``): the report builder reads text, never messages."""
    rules = session_rules(session)
    course: Course = session.course
    scen_seats = []
    if rules is not None:
        scen_seats = [{"id": s.id, "title": tr(s.title), "color": s.color} for s in rules.seats]
    scenario = {"key": session.scenario_key, "title": (tr(rules.title) if rules else session.scenario_key),
                "seats": scen_seats}

    teams = list(Team.objects.filter(session=session).prefetch_related("members", "seats"))
    intents = list(TeamIntent.objects.filter(session=session, seq__lte=seq).select_related("author", "team"))
    team_rows = []
    for t in teams:
        team_rows.append({
            "id": t.pk, "name": t.name,
            "seats": [s.seat_key for s in t.seats.all()],
            "members": [_user_name(u) for u in t.members.all()],
            "intents": [{"text": i.statement, "seq": i.seq, "author": _user_name(i.author),
                         "created_at": i.created_at} for i in intents if i.team_id == t.pk],
        })
    seats = []
    for s in Seat.objects.filter(session=session).select_related("team"):
        seats.append({"id": s.seat_key, "team": s.team.name if s.team_id else None,
                      "controller": gettext("bot ({kind})").format(kind=s.bot_kind) if s.bot_kind else "human"})
    seat_team = {s["id"]: s["team"] for s in seats}

    events = []
    notes = []
    qs = (SessionEvent.objects.filter(session=session, seq__lte=seq).select_related("actor")
          .order_by("seq"))
    for e in qs.iterator(chunk_size=2000):
        payload = rendered(e.payload)
        if payload.get("reason_message"):  # a bot's reason as a message (issue 15): in the report's language
            payload["reason"] = payload.pop("reason_message")
        events.append({
            "seq": e.seq, "kind": e.kind, "seat": e.seat or None, "team": seat_team.get(e.seat),
            "actor": _user_name(e.actor), "payload": payload, "facts": rendered(e.facts),
            "metrics": e.metrics,
            "rationale": e.rationale, "decision_ms": e.decision_ms, "created_at": e.created_at,
        })
        if e.kind == "facilitator" and e.payload.get("action") in ("note", "inject", "adjust", "pause",
                                                                      "resume", "undo_last"):
            text = e.payload.get("text") or e.payload.get("reason") or ""
            action = e.payload.get("action")
            if action != "note":
                text = f"[{action}] {text}".strip()
            if text:
                notes.append({"seq": e.seq, "text": text, "author": _user_name(e.actor),
                              "created_at": e.created_at})
    bookmarks = []
    Annotation = _optional_model("web.Annotation")
    if Annotation is not None:
        for a in Annotation.objects.filter(session=session, seq__lte=seq).select_related("author"):
            notes.append({"seq": a.seq, "text": a.text, "author": _user_name(a.author),
                          "created_at": a.created_at})
    Bookmark = _optional_model("web.Bookmark")
    if Bookmark is not None:
        for bm in Bookmark.objects.filter(session=session, seq__lte=seq).select_related("author"):
            bookmarks.append({"seq": bm.seq, "label": bm.text, "author": _user_name(bm.author),
                              "created_at": bm.created_at})

    result = session.result if (seq >= session.head_seq and session.result) else None
    bundle = {
        "scenario": scenario,
        "course": {"id": course.pk, "title": course.title,
                   "instructors": [_user_name(u) for u in course.instructors.all()]},
        "session": {"id": session.pk, "title": session.title, "seed": session.seed,
                    "options": session.options, "status": session.status,
                    "scheduled_start": session.scheduled_start, "scheduled_end": session.scheduled_end,
                    "started_at": session.started_at,
                    "ended_at": session.finished_at if result else None},
        "teams": team_rows, "seats": seats, "events": events, "notes": notes, "bookmarks": bookmarks,
        "result": result, "board": rendered(rules.board() if rules else {}), "snapshots": {}, "as_of_seq": seq,
        "outcome_params": outcome_params(session, rules),
        "links": {"replay": reverse("web:replay", args=[session.pk]),
                  "events_csv": reverse("reports:export", args=[session.pk, "csv"])},
    }
    if session.vignette_run_id:
        bundle["vignette"] = vignette_prompts(session)
    if with_comparison:
        bundle["comparison"] = report_comparison(session, bundle["outcome_params"])
    if with_snapshots and rules is not None:
        bundle["snapshots"] = phase_views(session, rules, bundle)
    return bundle


def vignette_prompts(session: ClassSession, *, decisions: int = 3) -> dict:
    """A vignette run's part of the discussion (issue #18 deliver 4): the vignette's title,
    objective and discussion questions in the active language, and what every team of the run
    chose at its first ``decisions`` decisions (the comparison page's rows), so the review of
    one team's session sets its choices beside the others'. Only finished runs of other teams
    are shown (a review never reports a game still being played), and a secret choice (the
    Directives Base's hiding place) is never named."""
    from facilitation.vignettes.runs import run_comparison

    run = session.vignette_run
    doc = run.document
    cmp = run_comparison(run)
    rows = []
    for i, row in enumerate(cmp["rows"][:decisions]):
        rows.append({"number": i + 1, "choices": [
            {"team": col["team"], "own": col["session"].pk == session.pk,
             "label": (gettext("a secret choice") if cell["payload"].get("secret")
                       else tr(cell["payload"].get("label") or cell["payload"].get("choice", ""))),
             "rationale": "" if cell["payload"].get("secret") else cell["rationale"]}
            for col, cell in zip(cmp["columns"], row, strict=True)
            if cell is not None and (col["session"].pk == session.pk or col["status"] == "finished")]})
    return {"title": tr(doc.get("title", "")), "objective": tr(doc.get("objective", "")),
            "questions": [tr(q) for q in doc.get("questions", [])],
            "teams": len(cmp["columns"]), "decisions": rows}


def outcome_params(session: ClassSession, rules) -> dict:
    """Fixed numbers of this game the outcome measures need and the metrics do not carry:
    Tears of Tyranny's influence level markers (1.H), read from the state after set-up."""
    if rules is None or session.scenario_key != "tears_of_tyranny" or session.head_seq < 1:
        return {}
    try:
        state = eventlog.load_state(session, 1, rules)
        return {"influence_markers": list(state["inf"]["markers"])}
    except (KeyError, TypeError, LookupError):
        return {}


def phase_views(session: ClassSession, rules, bundle: dict) -> dict[int, dict]:
    """Full board views (``BoardView.to_dict()``) at the start, at each Propaganda Round /
    adversary phase and at the end, rebuilt from the log (``facilitation.rendering.aar_maps``).

    Events carry facts and metrics, not positions; for map snapshots only, the
    state at those points is loaded through ``eventlog.load_state`` (nearest
    snapshot, then replay along the parent path).
    """
    from facilitation.rendering.aar_maps import snapshot_points
    from facilitation.reports.builder.analysis import _is_phase

    spec = spec_for(session.scenario_key)
    b = normalize(bundle)
    cards = _card_counter(b["events"], spec)
    phases: list[dict] = []
    seen_cards: set[int] = set()
    for e, card in zip(b["events"], cards, strict=True):
        if _is_phase(e, spec) and card not in seen_cards:
            seen_cards.add(card)
            phases.append({"seq": e["seq"], "label": "", "card": card})
    out: dict[int, dict] = {}
    try:
        rules.board_map()
    except NotImplementedError:
        return out
    for p in snapshot_points(phases, b["as_of_seq"]):
        state = eventlog.load_state(session, p["seq"], rules)
        out[p["seq"]] = rules.board_view(state, None).to_dict()
    return out


def report_whatifs(session: ClassSession, model, *, decisions: int, rollouts: int) -> list:
    """The road not taken for the teams' key decisions, each from the state just before it
    (loaded from the log along the decision's parent path)."""
    from facilitation.reports.builder.whatif import whatifs_for

    rules = session_rules(session)
    if rules is None or decisions <= 0 or rollouts <= 0:
        return []
    parents = dict(SessionEvent.objects.filter(session=session).values_list("seq", "parent_seq"))

    def state_before(seq: int):
        parent = parents.get(seq)
        if parent is None:
            return None
        return eventlog.load_state(session, parent, rules)

    return whatifs_for(model, rules, state_before, decisions=decisions, rollouts=rollouts, seed=session.seed or 0)


# ---- across sessions --------------------------------------------------------------------
def sessions_comparable(user, scenario_key: str) -> QuerySet[ClassSession]:
    return sessions_readable(user).filter(scenario_key=scenario_key).order_by("scheduled_start", "id")


def _session_events_light(s: ClassSession) -> list[dict]:
    return [{"seq": e.seq, "kind": e.kind, "facts": rendered(e.facts), "metrics": e.metrics,
             "payload": rendered(e.payload)}
            for e in SessionEvent.objects.filter(session=s).order_by("seq")
            .only("seq", "kind", "facts", "metrics", "payload")]


def _labels(spec) -> dict[str, str]:
    labels = {}
    for cs in spec.charts:
        for ser in cs.series:
            if len(ser.metrics) == 1:
                labels.setdefault(ser.metrics[0], ser.label)
    return labels


def comparison(sessions: list[ClassSession]) -> dict:
    """Overlaid series of each chart's metrics and an outcome table for sessions of one game.

    Every line runs to the end of its game (not to its last change); the table has one row
    per measure (named, not a metric key) and one column per session."""
    from facilitation.reports.builder.analysis import humanize

    if not sessions:
        return {"charts": [], "rows": [], "table": [], "metrics": []}
    key = sessions[0].scenario_key
    spec = spec_for(key)
    per_session = []
    for s in sessions:
        evs = _session_events_light(s)
        cards = _card_counter(evs, spec)
        per_session.append((s, evs, cards))
    charts = []
    all_metrics = sorted({m for _, evs, _ in per_session for e in evs for m in e["metrics"]})
    labels = _labels(spec)
    series_list = [(cs, ser) for cs in spec.charts for ser in cs.series
                   if all(m in all_metrics for m in ser.metrics)]
    if not series_list:
        from facilitation.reports.builder.specs import ChartSpec, Series
        series_list = [(ChartSpec(key=m, title=humanize(m), series=()), Series(humanize(m), (m,)))
                       for m in all_metrics]
    for cs, ser in series_list:
        runs = []
        for s, evs, cards in per_session:
            xs, ys = [], []
            last = {}
            for e, c in zip(evs, cards, strict=True):
                last = {**last, **(e["metrics"] or {})}
                v = metric_value(last, ser.metrics)
                if v is None:
                    continue
                if ys and ys[-1] == v:
                    continue
                xs.append(c)
                ys.append(v)
            if xs and cards and xs[-1] < cards[-1]:  # on to the end of the game
                xs.append(cards[-1])
                ys.append(ys[-1])
            runs.append({"name": f"{s.title} (#{s.pk})", "x": xs, "y": ys})
        charts.append({"key": f"{cs.key}-{ser.key}", "title": ser.label, "cs": cs, "runs": runs})
    rows = []
    for s, evs, cards in per_session:
        final = {}
        for e in evs:
            final.update(e["metrics"] or {})
        r = rendered(s.result or {})
        winner = r.get("winner") if isinstance(r, dict) else None
        rows.append({"session": s, "status": s.get_status_display(), "events": len(evs), "cards": max(cards) if cards else 0,
                     "winner": winner, "result": r, "final": final})
    # the measures worth a row: each plotted series and each outcome measure, by name
    shown: list[tuple[str, object]] = []
    for ms in spec.measures:
        shown.append((ms.label, lambda f, ms=ms: ms.value(f, {})))
    for _cs, ser in series_list:
        shown.append((ser.label, lambda f, ser=ser: metric_value(f, ser.metrics)))
    table = []
    for label, fn in shown:
        vals = [fn(r["final"]) for r in rows]
        if all(v is None for v in vals):
            continue
        table.append({"label": label, "values": vals})
    return {"charts": charts, "rows": rows, "table": table, "metrics": [labels.get(m, humanize(m)) for m in all_metrics],
            "x_label": spec.x_label}


def report_comparison(session: ClassSession, params: dict, *, limit: int = 6) -> dict:
    """For the AAR: earlier finished sessions of the same game, scenario and options in the same
    course (their measures card by card and their result), and a bot-only game from this
    session's seed."""
    from facilitation.reports.builder.baseline import bot_baseline, events_metrics_by_card, measure_series

    spec = spec_for(session.scenario_key)
    if not spec.measures:
        return {}
    earlier = (ClassSession.objects.filter(course=session.course, scenario_key=session.scenario_key,
                                           status=ClassSession.Status.FINISHED, options=session.options)
               .exclude(pk=session.pk).filter(Q(created_at__lt=session.created_at) | Q(pk__lt=session.pk))
               .order_by("-created_at", "-pk")[:limit])
    runs = []
    for s in reversed(list(earlier)):
        evs = _session_events_light(s)
        cards = _card_counter(evs, spec)
        r = s.result if isinstance(s.result, dict) else {}
        runs.append({"name": f"{s.title} (#{s.pk})", "session_id": s.pk, "winner": r.get("winner"),
                     "series": measure_series(events_metrics_by_card(evs, cards), spec, params)})
    baseline = None
    if session.seed is not None:
        baseline = bot_baseline(session.scenario_key, session.seed, session.options or {}, spec, params)
    return {"earlier": runs, "baseline": baseline}


# ---- exports ---------------------------------------------------------------------------------
EXPORT_FIELDS = ("session", "seq", "parent_seq", "kind", "seat", "team", "actor", "choice", "label",
                 "rationale", "decision_ms", "created_at", "facts", "metrics", "payload", "hash")


def _export_rows(session: ClassSession):
    seat_team = dict(Seat.objects.filter(session=session, team__isnull=False)
                     .values_list("seat_key", "team__name"))
    for e in SessionEvent.objects.filter(session=session).select_related("actor").order_by("seq"):
        yield {
            "session": session.pk, "seq": e.seq, "parent_seq": e.parent_seq, "kind": e.kind,
            "seat": e.seat, "team": seat_team.get(e.seat, ""),
            "actor": e.actor.get_username() if e.actor_id else "",
            "choice": e.payload.get("choice", ""), "label": tr(e.payload.get("label", "")),
            "rationale": e.rationale, "decision_ms": e.decision_ms,
            "created_at": e.created_at.isoformat(), "facts": e.facts, "metrics": e.metrics,
            "payload": e.payload, "hash": e.hash,
        }


def session_events_json(session: ClassSession) -> dict[str, Any]:
    return {
        "session": {"id": session.pk, "title": session.title, "scenario": session.scenario_key,
                    "seed": session.seed, "options": session.options, "status": session.status,
                    "course": session.course.title, "result": session.result},
        "events": list(_export_rows(session)),
    }


USER_TEXT_FIELDS = ("team", "actor", "label", "rationale")


def _cell(field: str, value) -> str:
    """Free text typed by people cannot become a spreadsheet formula (CSV injection)."""
    if value is None:
        return ""
    if field in USER_TEXT_FIELDS and isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def session_events_csv(session: ClassSession) -> str:
    """One row per event; JSON columns (facts, metrics, payload) as JSON text, and one
    column per metric (``m:<name>``) for spreadsheets. The JSON export is the raw record."""
    rows = list(_export_rows(session))
    metric_names = sorted({m for r in rows for m in r["metrics"]})
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow([*EXPORT_FIELDS, *(f"m:{m}" for m in metric_names)])
    last: dict = {}
    for r in rows:
        last = {**last, **r["metrics"]}
        w.writerow([json.dumps(r[f], sort_keys=True) if f in ("facts", "metrics", "payload") else
                    _cell(f, r[f]) for f in EXPORT_FIELDS]
                   + [last.get(m, "") for m in metric_names])
    return buf.getvalue()
