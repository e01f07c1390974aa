"""Instructor pages: schedule, share, run (start/pause/resume/end), note, override, console."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

import engine
from engine.core.messages import render as render_message
from facilitation import eventlog, live, selectors, services
from facilitation.errors import NotAllowed, ValidationFailed
from facilitation.models import ClassSession, Course, JoinCode, Seat, SessionEvent, Team
from facilitation.web.board import build as build_board

from ..forms import (
    SEAT_TEAM,
    NoteForm,
    OverrideForm,
    ReplaceMemberForm,
    ScheduleForm,
    TimerForm,
    scenario_choices,
)
from ..models import SessionUISettings
from .common import call_service, event_lines, login_of, no_store, one_snapshot, page_errors, seat_titles
from .play import CSRF_SENTINEL, timeout_tick

User = get_user_model()


def _require_instructor(user) -> None:
    if not selectors.user_can_create_courses(user):
        raise NotAllowed(_("Only instructors may do that."))


def _bot_kinds(rules) -> list[str]:
    return ["random", *rules.bot_kinds()]


@login_required
@page_errors
def session_new(request):
    _require_instructor(request.user)
    scenarios = scenario_choices()
    if not scenarios:
        return render(request, "web/error.html", {"message": _("No game is installed yet."), "code": 503})
    key = request.POST.get("scenario") or request.GET.get("scenario") or scenarios[0][0]
    if key not in dict(scenarios):
        key = scenarios[0][0]
    rules = engine.load(key)
    courses = Course.objects.filter(instructors=request.user)
    initial = {"course_title": courses.first().title if courses.exists() else _("My course"),
               "title": f"{rules.title}"}
    form = ScheduleForm(request.POST if "schedule" in request.POST else None, rules=rules,
                        bot_kinds=_bot_kinds(rules), initial=initial)
    if request.method == "POST" and "schedule" in request.POST and form.is_valid():
        d = form.cleaned_data
        course = courses.filter(title=d["course_title"].strip()).first()
        ok = True
        if course is None:
            ok, course = call_service(request, services.course_create, user=request.user, title=d["course_title"])
        if ok:
            teams = []
            seats = {}
            for seat_id, who in d["seats"].items():
                if "team" in who:
                    if who["team"] not in teams:
                        teams.append(who["team"])
                    seats[seat_id] = who["team"]
                else:
                    seats[seat_id] = f"bot:{who['bot']}"
            ok, session = call_service(
                request, services.session_create, course=course, user=request.user, title=d["title"],
                scenario_key=key, options=d["options"], seed=d["seed"], scheduled_start=d["scheduled_start"],
                decision_timer_seconds=d["decision_timer_seconds"], require_rationale=d["require_rationale"],
                teams=teams, seats=seats)
            if ok:
                SessionUISettings.objects.update_or_create(session=session, defaults={"timer_expiry": d["timer_expiry"]})
                for team in session.teams.all():
                    services.join_code_create(course=course, user=request.user, team=team)
                messages.success(request, _("Session scheduled. Share each team's join link."))
                return redirect("web:manage", session_id=session.pk)
    return render(request, "web/instructor/schedule.html", {
        "form": form, "scenarios": scenarios, "scenario": key, "rules": rules,
        "option_infos": rules.options(), "seat_team": SEAT_TEAM,
    })


def _session_for_instructor(request, session_id: int) -> ClassSession:
    session = selectors.session_get_for_user(request.user, session_id)
    selectors.session_require_instructor(request.user, session)
    return session


@login_required
@page_errors
@require_GET
def manage(request, session_id: int):
    session = _session_for_instructor(request, session_id)
    rules = eventlog.rules_for(session)
    titles = seat_titles(rules)
    teams = []
    for team in session.teams.prefetch_related("members").all():
        code = (JoinCode.objects.filter(team=team, revoked=False).order_by("-created_at").first())
        link = request.build_absolute_uri(reverse("web:join_code", args=[code.code])) if code else ""
        teams.append({"team": team, "code": code, "link": link,
                      "seats": [titles.get(s.seat_key, {"title": s.seat_key, "fi": 9})
                                for s in Seat.objects.filter(session=session, team=team)],
                      "replace_form": ReplaceMemberForm(initial={"team": team.pk})})
    bots = [{"seat": titles.get(s.seat_key, {"title": s.seat_key, "fi": 9}), "kind": s.bot_kind}
            for s in Seat.objects.filter(session=session).exclude(bot_kind="")]
    ui = SessionUISettings.objects.filter(session=session).first()
    timer_form = TimerForm(initial={"decision_timer_seconds": session.decision_timer_seconds,
                                    "timer_expiry": ui.timer_expiry if ui else SessionUISettings.Expiry.WARN,
                                    "require_rationale": session.require_rationale})
    summary = _session_summary(session)
    notes = event_lines(selectors.session_events(session, seat_key=None, after=max(0, session.head_seq - 40), limit=40),
                        titles)
    return render(request, "web/instructor/manage.html", {
        "session": session, "rules": rules, "teams": teams, "bots": bots, "timer_form": timer_form,
        "note_form": NoteForm(), "override_form": OverrideForm(), "summary": summary,
        "directable": _directable(session),
        "log": list(reversed(notes)),
        "track_names": [(t["id"], t["name"]) for t in summary["board"]["tracks"]
                        if t.get("key") or not summary["board"]["has_key_tracks"]] if summary.get("board") else [],
    })


def _directable(session) -> dict | None:
    """The Non-player decision the facilitator may direct now, its choices' labels rendered."""
    d = selectors.session_directable(session)
    if d is None:
        return None
    for c in d["choices"]:
        c["text"] = render_message(c["label"], gettext, ngettext)
    d["prompt"] = render_message(d["prompt"], gettext, ngettext)
    return d


@login_required
@page_errors
@require_POST
def control(request, session_id: int, action: str):
    session = _session_for_instructor(request, session_id)
    u = request.user
    if action == "start":
        call_service(request, services.session_start, session=session, user=u, success=_("The session has started."))
    elif action == "pause":
        call_service(request, services.session_pause, session=session, user=u, reason=request.POST.get("reason", ""),
                     success=_("Paused: teams see it and cannot act."))
    elif action == "resume":
        call_service(request, services.session_resume, session=session, user=u, success=_("Resumed."))
    elif action == "end":
        call_service(request, services.session_end, session=session, user=u, reason=request.POST.get("reason", ""),
                     success=_("The session has ended."))
    elif action == "note":
        form = NoteForm(request.POST)
        if form.is_valid():
            call_service(request, services.facilitator_note, session=session, user=u, text=form.cleaned_data["text"],
                         success=_("Note pinned to the current moment."))
        else:
            messages.error(request, _("A note needs some text."))
    elif action == "override":
        form = OverrideForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            if d["action"] == "undo":
                call_service(request, services.facilitator_override, session=session, user=u, action="undo_last",
                             reason=d["reason"], success=_("The last decision was taken back."))
            else:
                call_service(request, services.facilitator_override, session=session, user=u, action="adjust",
                             reason=d["reason"], track=d["track"], value=d["value"],
                             success=_("The track was adjusted."))
        else:
            for errs in form.errors.values():
                for e in errs:
                    messages.error(request, e)
    elif action == "direct":
        reason = (request.POST.get("reason") or "").strip()
        if not reason:
            messages.error(request, _("Directing a Non-player needs a reason."))
        else:
            call_service(request, services.facilitator_direct, session=session, user=u,
                         seat=request.POST.get("seat", ""), choice=request.POST.get("choice", ""), reason=reason,
                         success=_("The Non-player takes the decision you directed."))
    elif action == "timer":
        form = TimerForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            ok, _r = call_service(request, services.session_update, session=session, user=u,
                                  decision_timer_seconds=d["decision_timer_seconds"],
                                  require_rationale=d["require_rationale"], success=_("Settings saved."))
            if ok:
                SessionUISettings.objects.update_or_create(session=session,
                                                           defaults={"timer_expiry": d["timer_expiry"]})
        else:
            messages.error(request, _("The timer must be at least 10 seconds, or empty."))
    elif action == "replace":
        form = ReplaceMemberForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            team = Team.objects.filter(session=session, pk=d["team"]).first()
            old = User.objects.filter(username=d["old_username"]).first()
            new = User.objects.filter(username=d["new_username"]).first()
            if team is None or old is None or new is None:
                messages.error(request, _("Unknown team or user name."))
            else:
                call_service(request, services.team_member_replace, team=team, user=u, old_member=old,
                             new_member=new, success=_("Team member replaced."))
    elif action == "joincode":
        team = Team.objects.filter(session=session, pk=request.POST.get("team")).first()
        if team is not None:
            call_service(request, services.join_code_create, course=session.course, user=u, team=team,
                         success=_("A new join code was made."))
    else:
        raise ValidationFailed("unknown action")
    if request.POST.get("next") == "console":
        return redirect("web:console")
    return redirect("web:manage", session_id=session.pk)


# Decision kinds (Prompt.kind_for) in words for the console; an unknown kind is shown as its own
# name ("force_management" -> "Force management").
STEP_NAMES = {
    "hq": "Headquarters", "steps": "Choosing a step", "refit": "Refit", "presence": "Add presence", "deck": "Refit: choose deck",
    "keep": "Refit: keep a card", "bottom": "Refit: order returned cards", "forget": "Refit: forget a card",
    "reclaim": "Reclaim", "base_g": "Refit: gain 1 at base", "produce": "Base output",
    "force_management": "Force management", "recruit_pull": "Force management: pull", "select": "Select capabilities",
    "execute": "Execute", "target": "Execute: choose target", "allocate": "Execute: assign damage",
    "collateral": "Execute: collateral", "drive": "Execute: drive out", "burden": "Stacking upkeep",
    "counterattack": "Counterattack: assign hits",
    "influence_debt": "Influence owed: pay", "event_recruit": "Event: recruit at which HQ",
}


def seat_steps(prompt) -> dict[str, str]:
    """Per seat the step it is at, e.g. "Refit (3.A)" (its own kind and rule in a simultaneous
    phase, Prompt.kind_for/rule_for); in a simultaneous phase a seat no longer asked is "done".
    Empty for a single-seat prompt of a turn-by-turn game (the acting seat says it all)."""
    if prompt is None:
        return {}
    simultaneous = prompt.seat_kind is not None or len(prompt.seats) > 1
    if not simultaneous:
        return {}
    out = {}
    for s in prompt.seats:
        kind = prompt.kind_for(s)
        name = STEP_NAMES.get(kind) or kind.replace("_", " ").capitalize()
        out[s] = f"{_(name)} ({prompt.rule_for(s)})"
    return out


def _session_summary(session: ClassSession) -> dict:
    """Per seat: who acts now, for how long, the current card and key metrics (instructor view)."""
    rules, state = selectors.session_state(session)
    titles = seat_titles(rules)
    out = {"session": session, "seats": [], "card": None, "metrics": {}, "acting": [], "since": None, "board": None}
    last = SessionEvent.objects.filter(session=session, seq=session.head_seq).values_list("created_at", flat=True).first()
    out["since"] = last.isoformat() if last else None
    if state is None:
        for s in Seat.objects.filter(session=session).select_related("team"):
            out["seats"].append({**titles.get(s.seat_key, {"title": s.seat_key, "fi": 9}),
                                 "team": s.team.name if s.team_id else "", "bot": s.bot_kind, "acting": False})
        return out
    p = rules.prompt(state)
    acting = set(p.seats) if p else set()
    b = build_board(rules, rules.view(state, None), metrics=rules.metrics(state))
    out["board"] = b
    out["card"] = b["card"]
    key_tracks = [t for t in b["tracks"] if t.get("key")]
    out["metrics"] = {t["name"]: t["value"] for t in (key_tracks or b["tracks"][:6])}
    out["prompt_text"] = p.text if p else ""
    steps = seat_steps(p)
    out["steps"] = bool(steps)
    for s in Seat.objects.filter(session=session).select_related("team").prefetch_related("team__members"):
        out["seats"].append({**titles.get(s.seat_key, {"title": s.seat_key, "fi": 9}),
                             "team": s.team.name if s.team_id else "", "bot": s.bot_kind,
                             "members": [m.get_username() for m in s.team.members.all()] if s.team_id else [],
                             "acting": s.seat_key in acting,
                             # simultaneous phases: each team's own pending step, or done
                             "step": steps.get(s.seat_key, _("done") if steps else "")})
    return out


# ---- the live console ------------------------------------------------------------------
#
# A console shows one section per session of the instructor's that is not finished. Each
# section is drawn once per (session version, membership token, language) into the shared
# cache (``live_predraw`` draws it after every move), with a stand-in for the CSRF token; a
# console poll is assembled from those sections. In the steady state a poll costs no
# database query: the user's sessions come from ``facilitation.live`` (console entries,
# renewed on any change of who may see what), the versions and membership tokens from the
# cache, and the 304 or 200 answer from them. A running decision timer, or anything not in
# the cache, takes the full path, which reads the database and fills the cache again.

CONSOLE_STATUSES = (ClassSession.Status.LIVE, ClassSession.Status.PAUSED, ClassSession.Status.SCHEDULED)
SECTION_TTL = 600


def _section_key(session_id: int, version: dict, token: str) -> str:
    return (f"console-section:{session_id}:{version['head_seq']}:{version['status']}:{version['updated_at']}:"
            f"{token}:{get_language()}")


def _console_order(versions: dict[int, dict]) -> list[int]:
    """The sessions a console shows (not finished), live before paused before scheduled, then by
    scheduled start (none last) and id."""
    shown = [sid for sid, v in versions.items() if v["status"] in CONSOLE_STATUSES]
    return sorted(shown, key=lambda sid: (versions[sid]["status"], versions[sid].get("start") is None,
                                          versions[sid].get("start") or "", sid))


def _console_etag(order: list[int], versions: dict[int, dict], tokens: dict[int, str]) -> str:
    raw = "|".join(f"{sid}:{versions[sid]['head_seq']}:{versions[sid]['status']}:{versions[sid]['updated_at']}:"
                   f"{tokens[sid]}" for sid in order)
    return 'W/"{}"'.format(hashlib.sha1(f"{get_language()}|{raw}".encode()).hexdigest()[:20])


def _draw_section(session: ClassSession) -> str:
    """One session's console section (with the CSRF stand-in), from the database."""
    summary = _session_summary(session)
    return render_to_string("web/instructor/_console_session.html", {"s": summary, "csrf_token": CSRF_SENTINEL})


def predraw_console_summary(session_id: int) -> bool:
    """Draw the session's console section of the current version (default language) into the
    cache key the instructors' consoles read, so a console answering 200 after a move only
    joins cached sections. The membership token is read first, then one REPEATABLE READ
    snapshot, so the version in the key and the drawn section are of the same commit. True
    when stored, False when there already or the session is finished or gone."""
    from django.conf import settings
    from django.utils import translation

    token = live.membership_token(session_id)
    with translation.override(settings.LANGUAGE_CODE), one_snapshot():
        session = ClassSession.objects.select_related("course").filter(pk=session_id).first()
        if session is None or session.status not in CONSOLE_STATUSES:
            return False
        key = _section_key(session.pk, live.version_of(session), token)
        if cache.get(key) is not None:
            return False
        return bool(cache.add(key, _draw_section(session), timeout=SECTION_TTL))


def _console_context(request) -> tuple[dict, list[ClassSession]]:
    """The full path: the user's console sessions from the database (remembered for the fast
    path), their sections from the cache or drawn. Returns the template context and the shown
    sessions (for the timer check)."""
    _require_instructor(request.user)
    token = live.console_token()  # before reading the sessions (see facilitation.live)
    ids = list(ClassSession.objects.filter(course__instructors=request.user, status__in=CONSOLE_STATUSES)
               .values_list("pk", flat=True))
    live.remember_console(request.user, ids, token)
    tokens = live.membership_tokens(ids)  # before the rows whose sections they key
    # the state (the largest column) is read only for a section that is drawn here
    sessions = {s.pk: s for s in ClassSession.objects.select_related("course").defer("state").filter(pk__in=ids)}
    versions = {sid: live.version_of(s) for sid, s in sessions.items()}
    order = _console_order(versions)
    keys = {sid: _section_key(sid, versions[sid], tokens[sid]) for sid in order}
    have = cache.get_many(list(keys.values()))
    pieces = []
    for sid in order:
        html = have.get(keys[sid])
        if html is None:
            html = _draw_section(sessions[sid])
            cache.set(keys[sid], html, timeout=SECTION_TTL)
        pieces.append(html)
    return _console_ctx(request, pieces, _console_etag(order, versions, tokens)), [sessions[sid] for sid in order]


def _console_ctx(request, pieces: list[str], tag: str) -> dict:
    csrf = get_token(request)
    return {"pieces": [mark_safe(p.replace(CSRF_SENTINEL, csrf)) for p in pieces], "etag": tag}  # noqa: S308 - drawn here


def _console_from_cache(request):
    """The console poll's answer without a database query, or None to take the full path."""
    login = login_of(request)
    if login is None:
        return None
    user_id, auth_hash = login
    ids, entry_hash = live.console_lookup(user_id)
    if ids is None or not constant_time_compare(entry_hash, auth_hash):
        return None
    versions = live.session_versions(ids)
    order = _console_order(versions)
    if any(versions[sid]["timer"] and versions[sid]["status"] == ClassSession.Status.LIVE for sid in order):
        return None  # a decision timer may have to act (timeout_tick)
    tokens = live.membership_tokens(order)
    tag = _console_etag(order, versions, tokens)
    if request.headers.get("If-None-Match") == tag:
        return no_store(HttpResponse(status=304), tag)
    keys = [_section_key(sid, versions[sid], tokens[sid]) for sid in order]
    have = cache.get_many(keys)
    if len(have) != len(keys):
        return None
    resp = render(request, "web/instructor/_console_live.html", _console_ctx(request, [have[k] for k in keys], tag))
    return no_store(resp, tag)


@login_required
@page_errors
@require_GET
def console(request):
    ctx, _sessions = _console_context(request)
    return render(request, "web/instructor/console.html", ctx)


def console_live(request):
    """The console's live region; 304 while none of its sessions changed (ETag polling).
    Answered from the cache when it can (``_console_from_cache``), else the full path."""
    if request.method == "GET":
        fast = _console_from_cache(request)
        if fast is not None:
            return fast
    return _console_live(request)


@login_required
@page_errors
@require_GET
def _console_live(request):
    ctx, sessions = _console_context(request)
    # A running decision timer acts even when the acting team has no page open.
    if any(timeout_tick(s) for s in sessions if s.decision_timer_seconds and s.status == ClassSession.Status.LIVE):
        ctx, _sessions = _console_context(request)
    if request.headers.get("If-None-Match") == ctx["etag"]:
        return no_store(HttpResponse(status=304), ctx["etag"])
    return no_store(render(request, "web/instructor/_console_live.html", ctx), ctx["etag"])
