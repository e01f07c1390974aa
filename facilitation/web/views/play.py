"""The team play page: board, prompt, undo, rationale, intent, own log, live updates."""

from __future__ import annotations

import gzip
import hashlib
import hmac
import re
import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST

from facilitation import eventlog, live, selectors, services
from facilitation.errors import NotAllowed, NotFound, ServiceError
from facilitation.models import ClassSession, Seat, SessionEvent, Team, TeamIntent
from facilitation.text import rendered

from ..forms import IntentForm
from ..models import SessionUISettings
from .common import board_for, event_lines, login_of, no_store, one_snapshot, page_errors, seat_titles

LOG_EVENTS = 80


def _seat_for(request, session) -> str:
    seats = selectors.session_seats_of_user(request.user, session)
    if not seats:
        raise NotAllowed(_("Your team does not play a seat in this session."))
    wanted = request.GET.get("seat") or request.POST.get("seat")
    return wanted if wanted in seats else seats[0]


def _etag(session: ClassSession, seat: str) -> str:
    return _etag_of(session.pk, session.head_seq, str(session.status), seat, session.updated_at.isoformat())


def _etag_of(session_id: int, head_seq: int, status: str, seat: str, updated_at: str) -> str:
    # Keyed with the server's secret (issue 14 item 1): a tag says only that the page changed.
    raw = f"{session_id}:{head_seq}:{status}:{seat}:{get_language()}:{updated_at}"
    return f'W/"{salted_hmac("coinlab.play.etag", raw, algorithm="sha256").hexdigest()[:20]}"'


def _from_cache(request, session_id: int):
    """The answer to a team member's poll without a database query, or None to take the
    checked path: the login session (from the session store's cache), then one cache round
    trip for the published session version (facilitation.live) and the user's seats. 304
    when the page is current; else the seat's region when it is cached for that version
    (drawn by an earlier poll or by ``live_predraw``), unless the user has messages to read
    (they make the region uncacheable): its stored gzip bytes as they are, to a browser that
    takes gzip (every one does)."""
    if request.method != "GET":
        return None
    v, seats = _remembered(request, session_id)
    if v is None or v["timer"] or not seats:
        return None  # unknown yet, a decision timer that may have to act, or no seat: the full path
    wanted = request.GET.get("seat")
    seat = wanted if wanted in seats else seats[0]
    tag = _etag_of(session_id, v["head_seq"], v["status"], seat, v["updated_at"])
    if request.headers.get("If-None-Match") == tag:
        return _304(tag)
    if len(messages.get_messages(request)):
        return None
    raw = _stored(session_id, tag)
    return None if raw is None else _packed_response(request, raw, tag)


_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _packed_response(request, raw: bytes, tag: str, status: int = 200) -> HttpResponse:
    """A stored region (``_pack``): its gzip bytes as they are to a client that takes gzip."""
    if not _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        return _region_response(gzip.decompress(raw).decode(), tag, status)
    resp = _region_response(raw, tag, status)
    resp["Content-Encoding"] = "gzip"  # Django's gzip_page leaves an encoded answer alone
    patch_vary_headers(resp, ("Accept-Encoding",))
    return resp


def _remembered(request, session_id: int) -> tuple[dict | None, list[str] | None]:
    """(session version, the user's seats) as remembered in the cache for the polls
    (``facilitation.live``), checked against the login session's auth hash; seats None when
    not known (the caller then takes the checked path, which reads and remembers them)."""
    login = login_of(request)
    if login is None:
        return None, None
    user_id, auth_hash = login
    v, seats, seats_hash = live.poll_lookup(session_id, user_id)
    if not seats or not constant_time_compare(seats_hash, auth_hash):
        return v, None
    return v, seats


def _304(tag: str) -> HttpResponse:
    return no_store(HttpResponseNotModified(), tag)


def _player_session(request, session_id: int) -> tuple[ClassSession, list[str]]:
    """The session and the user's seats in it: two queries for a team member (whose seats
    alone give access), the full role check otherwise. Remembers the seats for the 304 path."""
    token = live.membership_token(session_id)  # before reading the seats (see facilitation.live)
    seats = list(Seat.objects.filter(session_id=session_id, team__members=request.user)
                 .order_by("id").values_list("seat_key", flat=True))
    # The game state (the row's largest column) is read only when the region is drawn, not
    # when it comes from the cache or the answer is 304.
    session = (ClassSession.objects.select_related("course").defer("state").filter(pk=session_id).first()
               if seats else None)
    if session is None:
        session = selectors.session_get_for_user(request.user, session_id)
        seats = selectors.session_seats_of_user(request.user, session)
    if seats:
        live.remember_seats(session.pk, request.user, seats, token)
    return session, seats


def _timer_expiry(session) -> str:
    if not session.decision_timer_seconds:
        return SessionUISettings.Expiry.WARN  # only read when a timer runs
    s = SessionUISettings.objects.filter(session=session).first()
    return s.timer_expiry if s else SessionUISettings.Expiry.WARN


def _maybe_timeout(session: ClassSession, seat: str) -> bool:
    """The decision timer ran out and the session says the seat's bot then decides.

    Runs when the acting seat's page polls. The move is the foundation's
    ``services.seat_timeout_decide``: under the session row lock it re-checks that the
    session is live, the deadline has passed and ``seat`` must act at the seq this poll
    saw, so polls arriving together (several tabs, several team members) move once at
    most. It is logged as a ``bot`` event whose reason says the decision timer expired.
    """
    if not session.decision_timer_seconds or session.status != ClassSession.Status.LIVE:
        return False
    if _timer_expiry(session) != SessionUISettings.Expiry.BOT:
        return False
    deadline = selectors.decision_deadline(session)
    if deadline is None or deadline > timezone.now():
        return False
    try:
        moved = services.seat_timeout_decide(session=session, seat=seat, expected_seq=session.head_seq)
    except ServiceError:
        return False
    return bool(moved)


def timeout_tick(session: ClassSession) -> bool:
    """The timer check from a page that is not the acting seat's (the instructor's console,
    a watch page): when the acting team has no page open, its bot still decides once the
    timer has run out. Tries the session's team seats; the service moves only the one
    that must act, and only once."""
    if not session.decision_timer_seconds or session.status != ClassSession.Status.LIVE:
        return False
    for seat in Seat.objects.filter(session=session, team__isnull=False).values_list("seat_key", flat=True):
        if _maybe_timeout(session, seat):
            return True
    return False


def live_context(request, session: ClassSession, seat: str) -> dict:
    """The live region's context of one seat (``_live_contexts`` of that seat alone)."""
    return _live_contexts(session, [seat])[seat]


def _live_contexts(session: ClassSession, seats: list[str]) -> dict[str, dict]:
    """The live region's context of each of ``seats`` at the session's current version. What
    does not depend on the seat (the state, prompt, metrics, the rows of the log, the teams'
    intent panels) is read and computed once; everything a seat may see is derived per seat by
    the same functions as for a single seat: ``selectors.seat_prompts`` (the seat's own view
    and choices) and ``selectors.seat_logs`` (each event redacted for that seat, as
    ``session_events(seat_key=seat)``). Nothing here depends on the user or the request."""
    rules = eventlog.rules_for(session)
    titles = seat_titles(rules)
    prompts = selectors.seat_prompts(session, seats)
    logs = selectors.seat_logs(session, seats, after=max(0, session.head_seq - LOG_EVENTS), limit=LOG_EVENTS)
    teams = _team_panels(session, seats)
    timer_expiry = _timer_expiry(session)
    etags = {seat: _etag(session, seat) for seat in seats}
    older_move = []  # the latest move before the log's window, read at most once

    def last_move_before_log():
        if not older_move:
            older_move.append(SessionEvent.objects.filter(session=session, kind__in=("decision", "bot", "undo"))
                              .order_by("-seq").values("kind", "seat", "payload").first())
        return older_move[0]

    out = {}
    for seat in seats:
        data = prompts[seat]
        prompt = rendered(data.get("prompt"))  # its question and choice labels in the viewer's language
        choices = prompt["choices"] if (prompt and data.get("your_turn")) else []
        events = logs[seat]
        log = list(reversed(event_lines(events, titles)))
        # Undo is offered when the seat's own last decision is the latest move; the service decides.
        # The log above holds the last LOG_EVENTS events (the seat's own payloads unredacted).
        last_move = next((e for e in reversed(events) if e["kind"] in ("decision", "bot", "undo")), None)
        if last_move is None and session.head_seq > LOG_EVENTS:
            last_move = last_move_before_log()
        can_undo = bool(data.get("your_turn") and last_move and last_move["kind"] == "decision"
                        and last_move["seat"] == seat
                        and (last_move["payload"] or {}).get("turn", "") == (prompt or {}).get("turn", ""))
        waiting_for = [titles.get(s, {"title": s}) for s in (prompt or {}).get("seats", [])]
        team = teams.get(seat)
        intents = team["intents"] if team else []
        needs_intent = bool(team and session.status in (ClassSession.Status.LIVE, ClassSession.Status.PAUSED,
                                                        ClassSession.Status.SCHEDULED)
                            and not intents)
        intent_open = needs_intent and not team["decided"]
        out[seat] = {
            "intent_open": intent_open,
            "session": session, "seat": seat, "seat_info": titles.get(seat, {"title": seat, "fi": 9}),
            "data": data, "prompt": prompt, "choices": choices, "your_turn": data.get("your_turn"),
            "waiting_for": waiting_for, "board": board_for(rules, data.get("view"), data.get("metrics"), choices),
            "log": log, "can_undo": can_undo, "etag": etags[seat], "submit_key": uuid.uuid4().hex,
            "paused": session.status == ClassSession.Status.PAUSED,
            "finished": session.status == ClassSession.Status.FINISHED,
            "not_started": session.status == ClassSession.Status.SCHEDULED,
            "team_id": team["team_id"] if team else None, "needs_intent": needs_intent, "intent_form": IntentForm(),
            "timer_expiry": timer_expiry,
            "intents": intents,
        }
    return out


def _team_panels(session: ClassSession, seats: list[str]) -> dict[str, dict]:
    """The team intent panel of each seat played by a team: the seat's team, its intent
    statements, and whether one of its seats has decided yet (the panel then starts closed).
    One query (a second one reads the statements when a team has stated its intent), written
    in SQL: the ORM's compiling of the two nested EXISTS cost more CPU than the region's
    drawing (issue #8)."""
    from django.db import connection

    if not seats:
        return {}
    q = connection.ops.quote_name
    seat_t, intent_t, event_t = (q(m._meta.db_table) for m in (Seat, TeamIntent, SessionEvent))
    sql = (f"SELECT s.seat_key, s.team_id,"
           f" EXISTS (SELECT 1 FROM {intent_t} i WHERE i.session_id = s.session_id AND i.team_id = s.team_id),"
           f" EXISTS (SELECT 1 FROM {event_t} e WHERE e.session_id = s.session_id AND e.kind = %s"
           f" AND e.seat IN (SELECT m.seat_key FROM {seat_t} m"
           f" WHERE m.session_id = s.session_id AND m.team_id = s.team_id))"
           f" FROM {seat_t} s WHERE s.session_id = %s AND s.team_id IS NOT NULL"
           f" AND s.seat_key IN ({', '.join(['%s'] * len(seats))}) ORDER BY s.id")
    with connection.cursor() as cur:
        cur.execute(sql, [SessionEvent.Kind.DECISION.value, session.pk, *seats])
        rows = cur.fetchall()
    stated = {team for _seat, team, has_intent, _decided in rows if has_intent}
    intents: dict[int, list] = {}
    for i in (TeamIntent.objects.filter(session=session, team_id__in=stated) if stated else ()):
        intents.setdefault(i.team_id, []).append(i)
    return {seat: {"team_id": team, "decided": bool(decided), "intents": intents.get(team, []) if has_intent else []}
            for seat, team, has_intent, decided in rows}


@login_required
@page_errors
@require_GET
def play(request, session_id: int):
    session = selectors.session_get_for_user(request.user, session_id)
    if not selectors.session_seats_of_user(request.user, session):
        return redirect("web:watch", session_id=session.pk)
    seat = _seat_for(request, session)
    ctx = live_context(request, session, seat)
    titles = seat_titles(eventlog.rules_for(session))
    ctx["my_seats"] = [titles.get(k, {"id": k, "title": k}) for k in selectors.session_seats_of_user(request.user, session)]
    ctx["page_messages"] = True  # the page's header shows them; the live region does not repeat them
    ctx["poll_url"] = reverse("web:play_live", args=[session.pk]) + f"?seat={seat}"
    resp = render(request, "web/play/page.html", ctx)
    resp["Cache-Control"] = "no-store"
    return resp


@gzip_page
def play_live(request, session_id: int):
    """The live region alone; answers 304 while nothing has changed (ETag polling).

    The unchanged case (304), and a changed one whose region is already cached, are
    answered before authentication touches the database (``_from_cache``); everything else
    takes the full, checked path. The region (about 120 KB of SVG and text) is sent gzipped
    to clients that accept it (about 12 KB)."""
    fast = _from_cache(request, session_id)
    if fast is not None:
        return fast
    return _play_live(request, session_id)


@login_required
@page_errors
@require_GET
def _play_live(request, session_id: int):
    session, seats = _player_session(request, session_id)
    if not seats:
        raise NotAllowed(_("Your team does not play a seat in this session."))
    wanted = request.GET.get("seat")
    seat = wanted if wanted in seats else seats[0]
    if _maybe_timeout(session, seat):
        session.refresh_from_db()
    tag = _etag(session, seat)
    if request.headers.get("If-None-Match") == tag:
        return _304(tag)
    return _live_response(request, session, seat)


# Stand-ins rendered into a shared fragment for what differs per request; derived from the
# secret key so that they are the same in every web process and cannot be typed into a page.
_SENTINEL = hmac.new(settings.SECRET_KEY.encode(), b"coinlab-live-fragment", hashlib.sha256).hexdigest()[:24]
CSRF_SENTINEL = f"csrf{_SENTINEL}"
KEY_SENTINEL = f"key{_SENTINEL}"


def _live_response(request, session: ClassSession, seat: str, status: int = 200) -> HttpResponse:
    """The seat's live region. Kept in the shared cache per (session, version, seat,
    language), gzipped, without the per-request CSRF token and idempotency key (the page
    sends its token in the X-CSRFToken header, hx-headers of web/base.html, and play.js gives
    each drawn region a key of its own), so every member of a team, every tab and every web
    process draws a position once and sends the stored bytes as they are. Not cached while
    the user has messages to read or a decision timer runs (its expiry setting is not part of
    the version). So the region template must show nothing that depends on the user rather
    than on the seat (tests/web/test_live_polling.py)."""
    tag = _etag(session, seat)
    if session.decision_timer_seconds or len(messages.get_messages(request)):
        html = render_to_string("web/play/_live.html", live_context(request, session, seat), request=request)
        return _region_response(html, tag, status)
    raw = _stored(session.pk, tag)
    if raw is None:
        raw = _pack(_shared_region(request, session, seat))
        cache.set(live.fragment_key(session.pk, tag), raw, timeout=live.FRAGMENT_TTL)
    return _packed_response(request, raw, tag, status)


def _shared_region(request, session: ClassSession, seat: str, ctx: dict | None = None) -> str:
    """The seat's region as every member of its team gets it: stand-ins in place of the
    per-request CSRF token and idempotency key (``_pack`` leaves them empty). ``ctx``: the
    seat's ``live_context`` when the caller has it already (the pre-draw of several seats)."""
    ctx = live_context(request, session, seat) if ctx is None else ctx
    ctx["csrf_token"] = CSRF_SENTINEL
    ctx["submit_key"] = KEY_SENTINEL
    return render_to_string("web/play/_live.html", ctx, request=request)


def _unpersonal(html: str) -> str:
    """The shared region as sent: empty CSRF token and idempotency key fields (an empty form
    token makes Django read the X-CSRFToken header the page's htmx sends; play.js fills the key)."""
    return html.replace(CSRF_SENTINEL, "").replace(KEY_SENTINEL, "")


def _pack(html: str) -> bytes:
    """The region as stored and sent: gzip, no timestamp, so a poll answered from the cache
    costs what a 304 does (issue #8). Level 3: a 118 KB Tears of Tyranny region in 0.7 ms to
    17.4 KB (level 6: 1.7 ms, 15.6 KB; level 1: 0.6 ms, 19.1 KB), once per version and seat."""
    return gzip.compress(_unpersonal(html).encode(), compresslevel=3, mtime=0)


def predraw_regions(session_id: int) -> int:
    """Draw the current version's region of every team seat (default language) into the
    cache keys the polls read, skipping seats already there; the number stored. One
    REPEATABLE READ snapshot, so the session row, its log and intents are of one version and
    the region lands under that version's key. Drawn with a request of no user: the region
    shows nothing of the user (``_live_response``), only the seat, whose hidden data stays under
    the seat's own key."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest
    from django.utils import translation

    stored = 0
    with translation.override(settings.LANGUAGE_CODE), one_snapshot():
        session = ClassSession.objects.select_related("course").filter(pk=session_id).first()
        if session is None or session.decision_timer_seconds:
            return 0  # gone, or a timer runs (such regions are never cached)
        seats = list(Seat.objects.filter(session=session, team__isnull=False).order_by("id")
                     .values_list("seat_key", flat=True))
        tags = {seat: _etag(session, seat) for seat in seats}
        have = cache.get_many([live.fragment_key(session.pk, t) for t in tags.values()])
        todo = [seat for seat, tag in tags.items() if live.fragment_key(session.pk, tag) not in have]
        # the seats' contexts together: what they share is read and computed once (_live_contexts)
        contexts = _live_contexts(session, todo) if todo else {}
        for seat in todo:
            request = HttpRequest()
            request.method = "GET"
            request.user = AnonymousUser()
            html = _shared_region(request, session, seat, contexts[seat])
            if cache.add(live.fragment_key(session.pk, tags[seat]), _pack(html), timeout=live.FRAGMENT_TTL):
                stored += 1
    return stored


def _stored(session_id: int, etag: str) -> bytes | None:
    """The stored region of that ETag (``_pack``'s gzip bytes), or None."""
    raw = cache.get(live.fragment_key(session_id, etag))
    return raw if isinstance(raw, bytes) else None


def cached_fragment(session_id: int, etag: str) -> str | None:
    """The stored region of that ETag (HTML as sent), or None."""
    raw = _stored(session_id, etag)
    return None if raw is None else gzip.decompress(raw).decode()


def _region_response(html: str, tag: str, status: int = 200) -> HttpResponse:
    return no_store(HttpResponse(html, status=status), tag)


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@gzip_page
@login_required
@page_errors
@require_POST
def choose(request, session_id: int):
    """A team's decision from the page (htmx: answered with the seat's new live region). The
    service checks the seat, the seq (rebasing a simultaneous phase's older seq whose question
    is unchanged), legality and the idempotency key under the session lock; the region of
    the new version is drawn once into the shared cache the team's polls and the pre-draw
    task read, and its stored bytes are the answer (``_live_response``)."""
    seats = _cached_seats(request, session_id)
    if seats is None:
        _session, seats = _player_session(request, session_id)
    seat = request.POST.get("seat", "")
    choice = request.POST.get("choice", "")
    seq = _int(request.POST.get("seq"))
    if not seat or not choice or seq is None:
        return HttpResponseBadRequest(_("A decision needs a seat, a choice and the seq it answers."))
    try:
        services.choice_submit(session=ClassSession(pk=session_id), user=request.user, seat=seat, choice=choice,
                               seq=seq, idempotency_key=request.POST.get("key", "")[:128],
                               rationale=request.POST.get("rationale", ""),
                               decision_ms=_int(request.POST.get("decision_ms")))
    except ServiceError as exc:
        if exc.status == 403:
            raise NotAllowed(exc.message) from None
        messages.error(request, exc.message)
        accepted = False
    else:
        accepted = True
    session = ClassSession.objects.select_related("course").filter(pk=session_id).first()
    if session is None:
        raise NotFound(_("There is no session %(id)s.") % {"id": session_id})
    if request.htmx:
        resp = _live_response(request, session, seat if seat in seats else _seat_for(request, session))
        if accepted:
            resp["HX-Trigger"] = "coinlab:accepted"
        return resp
    return redirect(reverse("web:play", args=[session.pk]) + f"?seat={seat}")


def _cached_seats(request, session_id: int) -> list[str] | None:
    """The user's seats in the session as remembered for the polls, or None when not known:
    then ``_player_session`` reads them (and checks access)."""
    if str(request.user.pk) != str(request.session.get(SESSION_KEY)):
        return None
    return _remembered(request, session_id)[1]


@login_required
@page_errors
@require_POST
def undo(request, session_id: int):
    session = selectors.session_get_for_user(request.user, session_id)
    seat = request.POST.get("seat", "")
    seq = _int(request.POST.get("seq"))
    try:
        services.choice_undo(session=session, user=request.user, seat=seat, seq=seq)
    except ServiceError as exc:
        if exc.status == 403:
            raise NotAllowed(exc.message) from None
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your last decision was taken back."))
    session.refresh_from_db()
    if request.htmx:
        return _live_response(request, session, _seat_for(request, session))
    return redirect(reverse("web:play", args=[session.pk]) + f"?seat={seat}")


@login_required
@page_errors
@require_POST
def intent(request, session_id: int):
    session = selectors.session_get_for_user(request.user, session_id)
    seat = _seat_for(request, session)
    team = Team.objects.filter(session=session, seats__seat_key=seat, members=request.user).first()
    form = IntentForm(request.POST)
    if team is None:
        raise NotAllowed(_("Your team does not play a seat in this session."))
    if form.is_valid():
        if TeamIntent.objects.filter(session=session, team=team).exists():
            messages.error(request, _("Your team has already stated its intent."))
        else:
            try:
                services.team_intent_set(session=session, team=team, user=request.user,
                                         statement=form.cleaned_data["statement"])
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Your team's intent is recorded."))
    else:
        messages.error(request, _("Write your team's intent first."))
    if request.htmx:
        return _live_response(request, session, seat)
    return redirect(reverse("web:play", args=[session.pk]) + f"?seat={seat}")
