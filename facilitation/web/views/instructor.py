"""Instructor pages: schedule, share, run (start/pause/resume/end), note, override, console."""

from __future__ import annotations

import hashlib
import re

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseBadRequest
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

import engine
from engine.core.messages import render as render_message
from facilitation import eventlog, live, receipts, selectors, services
from facilitation.errors import NotAllowed, ValidationFailed
from facilitation.models import ClassSession, Course, JoinCode, Seat, Team
from facilitation.rendering.regions import (
    CONSOLE_STATUSES,
    CSRF_SENTINEL,
    SECTION_TTL,
    draw_section,
    section_key,
    session_summary,
)

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
from .common import call_service, event_lines, login_of, no_store, page_errors, seat_titles
from .play import timeout_tick

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
    # Another game than the one whose form was shown (its button, or the select changed and the
    # form sent with Enter): show the new game's form, never schedule a game whose options the
    # instructor has not seen.
    switching = request.method == "POST" and (
        "switch" in request.POST or request.POST.get("previous_scenario", key) != key)
    if switching:
        # Another game was chosen: keep what was typed (title, course, date, seed, timer...);
        # a title that was the previous game's own name becomes the new game's.
        kept = {f: request.POST.get(f, "") for f in ScheduleForm.COMMON_FIELDS if f in request.POST}
        if "require_rationale" not in request.POST:
            kept["require_rationale"] = False
        previous = request.POST.get("previous_scenario", "")
        if previous in dict(scenarios) and kept.get("title", "").strip() == engine.load(previous).title:
            kept.pop("title")
        initial.update(kept)
    form = ScheduleForm(request.POST if "schedule" in request.POST and not switching else None, rules=rules,
                        bot_kinds=_bot_kinds(rules), initial=initial)
    if request.method == "POST" and "schedule" in request.POST and not switching and form.is_valid():
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


#: Bot-played games behind the scheduling page's length estimate (docs/pacing.md).
PACE_GAMES = 6


@login_required
@page_errors
@require_GET
def session_pace(request):
    """The expected length of a session of a game (scheduling page; issue #18): a fragment."""
    _require_instructor(request.user)
    key = request.GET.get("scenario", "")
    if key not in dict(scenario_choices()):
        return HttpResponseBadRequest(_("Unknown game."))
    rules = engine.load(key)
    options: dict = {}
    preset_key = request.GET.get("preset", "")
    if preset_key:
        try:
            options.update(rules.preset(preset_key).options)
        except KeyError:
            return HttpResponseBadRequest(_("Unknown length preset."))
    players = request.GET.get("players", "")
    if players:
        if not players.isdigit() or not rules.min_players <= int(players) <= rules.max_players:
            return HttpResponseBadRequest(_("Players must be a whole number from %(lo)s to %(hi)s.")
                                          % {"lo": rules.min_players, "hi": rules.max_players})
        options["players"] = int(players)
    from facilitation import pacing, tasks

    est = pacing.session_estimate(key, options, games=PACE_GAMES, play=False)
    if est is None:
        # never played in a request (a four-player Tears of Tyranny estimate is ~27 s of CPU):
        # a worker plays them, the fragment asks again (embedded mode: played just now)
        tasks.request_pace_games(key, options, PACE_GAMES)
        est = pacing.session_estimate(key, options, games=PACE_GAMES, play=False)
        if est is None:
            return render(request, "web/instructor/_pace.html",
                          {"est": None, "rules": rules, "preset": preset_key, "again": request.get_full_path()},
                          status=202)
    return render(request, "web/instructor/_pace.html", {"est": est, "rules": rules, "preset": preset_key})


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
    summary = session_summary(session)
    notes = event_lines(selectors.session_events(session, seat_key=None, after=max(0, session.head_seq - 40), limit=40),
                        titles)
    return render(request, "web/instructor/manage.html", {
        "session": session, "rules": rules, "teams": teams, "bots": bots, "timer_form": timer_form,
        "note_form": NoteForm(), "override_form": OverrideForm(), "summary": summary,
        "directable": _directable(session),
        "log": list(reversed(notes)), "vignette_seats": list(titles.values()),
        "track_names": [(t["id"], t["name"]) for t in summary["board"]["tracks"]
                        if t.get("key") or not summary["board"]["has_key_tracks"]] if summary.get("board") else [],
        "receipt": receipts.receipt(session) if session.head_seq else "",
        "seat_rows": _seat_rows(session, rules, titles) if session.status == ClassSession.Status.SCHEDULED else [],
        "all_teams": [t["team"] for t in teams],
    })


def _team_of(session, value) -> Team | None:
    known = re.fullmatch(r"[0-9]{1,18}", value or "")  # a row id, not any text
    return Team.objects.filter(session=session, pk=int(value)).first() if known else None


def _setup_change(request, session, action: str) -> None:
    """Teams and seats before the start (issue #19 deliver 4): rename a team, move a student
    to another team, say which team or bot plays each seat. Bad input: an error message and
    nothing changed (the services refuse it once the session has started)."""
    from facilitation import seating

    u = request.user
    if action == "team_rename":
        team = _team_of(session, request.POST.get("team"))
        if team is None:
            raise ValidationFailed(_("Unknown team."))
        call_service(request, seating.team_rename, team=team, user=u, name=request.POST.get("name", ""),
                     success=_("Team renamed."))
    elif action == "move_member":
        team = _team_of(session, request.POST.get("team"))
        member = User.objects.filter(username=request.POST.get("member", ""),
                                     teams__session=session).first()
        if team is None or member is None:
            raise ValidationFailed(_("Unknown team or user name."))
        if session.status != ClassSession.Status.SCHEDULED:
            messages.error(request, _("Teams and seats can only be changed before the session starts."))
            return
        call_service(request, services.team_member_add, team=team, user=u, member=member,
                     success=_("%(name)s now plays for %(team)s.") % {"name": member.get_username(),
                                                                      "team": team.name})
    else:
        rules = eventlog.rules_for(session)
        assignments = {seat: request.POST.get(f"seat_{seat}", "") for seat in rules.seat_ids()}
        ok, _seats = call_service(request, seating.seats_set, session=session, user=u, assignments=assignments,
                                  success=_("Seats saved."))
        if ok:
            idle = [t.name for t in session.teams.all() if not t.seats.exists()]
            if idle:
                messages.warning(request, _("These teams play no seat now: %(teams)s.") % {"teams": ", ".join(idle)})


def _seat_rows(session, rules, titles: dict) -> list[dict]:
    """The seat editor of the manage page: each seat, who plays it and the possible players."""
    from ..templatetags.coinlab_web import bot_kind

    teams = list(session.teams.all())
    rows = []
    for s in Seat.objects.filter(session=session).order_by("id"):
        options = [(f"team:{t.pk}", t.name) for t in teams]
        options += [(f"bot:{k}", _("Bot: %(kind)s") % {"kind": bot_kind(k)}) for k in _bot_kinds(rules)]
        current = f"team:{s.team_id}" if s.team_id else f"bot:{s.bot_kind}" if s.bot_kind else ""
        rows.append({"key": s.seat_key, "seat": titles.get(s.seat_key, {"title": s.seat_key, "fi": 9}),
                     "options": options, "current": current})
    return rows


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
    elif action in ("team_rename", "seats", "move_member"):
        _setup_change(request, session, action)
    elif action == "joincode":
        team_id = request.POST.get("team", "")
        known = re.fullmatch(r"[0-9]{1,18}", team_id)  # a row id, not any text (nor a number past bigint)
        team = Team.objects.filter(session=session, pk=int(team_id)).first() if known else None
        if team is not None:
            call_service(request, services.join_code_create, course=session.course, user=u, team=team,
                         success=_("A new join code was made."))
    else:
        raise ValidationFailed("unknown action")
    if request.POST.get("next") == "console":
        return redirect("web:console")
    return redirect("web:manage", session_id=session.pk)


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
    keys = {sid: section_key(sid, versions[sid], tokens[sid]) for sid in order}
    have = cache.get_many(list(keys.values()))
    pieces = []
    for sid in order:
        html = have.get(keys[sid])
        if html is None:
            html = draw_section(sessions[sid])
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
    keys = [section_key(sid, versions[sid], tokens[sid]) for sid in order]
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
