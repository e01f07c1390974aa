"""The team play page: board, prompt, undo, rationale, intent, own log, live updates."""

from __future__ import annotations

import gzip
import json
import re

from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST

from facilitation import eventlog, live, selectors, services, tasks
from facilitation.errors import NotAllowed, NotFound, ServiceError
from facilitation.models import ClassSession, Seat, Team, TeamIntent
from facilitation.rendering.regions import (
    claim_free,
    etag,
    etag_of,
    live_context,
    pack,
    region_once,
    seat_titles,
    shared_region,
    stored,
    timer_expiry,
    wait_stored,
)

from ..forms import IntentForm
from ..models import SessionUISettings
from .common import login_of, no_store, page_errors

# How long a poll waits for a region another process is drawing, and how long the page's
# decision, undo and intent (whose answer is the region) wait before drawing it themselves.
POLL_WAIT = 0.05
ANSWER_WAIT = 2.0
_ETAG_FORM = re.compile(r'W/"[0-9a-f]{20}"')


def _seat_for(request, session) -> str:
    seats = selectors.session_seats_of_user(request.user, session)
    if not seats:
        raise NotAllowed(_("Your team does not play a seat in this session."))
    wanted = request.GET.get("seat") or request.POST.get("seat")
    return wanted if wanted in seats else seats[0]


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
    tag = poll_tag(session_id, v, seats, request.GET.get("seat"))
    if tag is None:
        return None
    if request.headers.get("If-None-Match") == tag:
        return _304(tag)
    if len(messages.get_messages(request)):
        return None
    raw = stored(session_id, tag)
    if raw is None:
        # being drawn by another process (the pre-draw worker): wait a moment for it, else the
        # page keeps what it shows until its next poll; nobody draws it twice (issue 20)
        shown = request.headers.get("If-None-Match", "")
        if _ETAG_FORM.fullmatch(shown) and not claim_free(session_id, tag):
            raw = wait_stored(session_id, tag, POLL_WAIT)
            return _304(shown) if raw is None else _packed_response(request, raw, tag)
        return None
    return _packed_response(request, raw, tag)


_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _packed_response(request, raw: bytes, tag: str, status: int = 200) -> HttpResponse:
    """A stored region (``pack``): its gzip bytes as they are to a client that takes gzip."""
    if not _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        return _region_response(gzip.decompress(raw).decode(), tag, status)
    resp = _region_response(raw, tag, status)
    resp["Content-Encoding"] = "gzip"  # Django's gzip_page leaves an encoded answer alone
    patch_vary_headers(resp, ("Accept-Encoding",))
    return resp


def _remembered(request, session_id: int) -> tuple[dict | None, list[str] | None]:
    """(session version, the user's seats) as remembered in the cache for the polls
    (``facilitation.live``), checked against the login session's user and auth hash; seats
    None when not known (the caller then takes the checked path, which reads and remembers
    them). One cache round trip when the login session is not loaded yet and the session
    store is ``cached_db`` on this cache: its data is read with the version and the seats
    (``_login_in_same_trip``), else two (the store loads it, then ``live.poll_lookup``)."""
    store = getattr(request, "session", None)
    login_key = getattr(store, "session_key", None)
    if not login_key:
        return None, None
    store_key = _store_key(store)
    v, entry = live.poll_lookup(session_id, login_key, store_key)
    if store_key is not None:
        data = entry.pop("login")
        if not isinstance(data, dict):  # not in the store's cache: the store reads the database
            v, entry = live.poll_lookup(session_id, login_key)
        else:
            store._session_cache = data  # what the store's load() returns from its cache
        entry = entry or None
    login = login_of(request)
    if login is None:
        return None, None
    return v, seats_of_entry(entry, *login)


def seats_of_entry(entry: dict | None, user_id, auth_hash: str) -> list[str] | None:
    """The seats a poll's cache entry (``live.poll_lookup``) remembers, if it was remembered for
    this login session's user and auth hash (as ``django.contrib.auth.get_user`` checks), else None."""
    if (not entry or not entry.get("seats") or entry.get("u") != str(user_id)
            or not constant_time_compare(entry.get("h") or "", auth_hash or "")):
        return None
    return list(entry["seats"])


def poll_tag(session_id: int, v: dict | None, seats: list[str] | None, wanted: str | None,
             language: str | None = None) -> str | None:
    """The ETag of the region the poll would answer with (the seat asked for if it is the user's,
    else the first), from the cached session version; None when the poll must take the checked
    path: the version is unknown yet, a decision timer runs (the poll may have to make the bot
    decide), or the user's seats are not remembered."""
    if v is None or v["timer"] or not seats:
        return None
    seat = wanted if wanted in seats else seats[0]
    return etag_of(session_id, v["head_seq"], v["status"], seat, v["updated_at"], language)


def _store_key(store) -> str | None:
    """The login session's key in the session store's cache when one cache round trip can read
    it (a ``cached_db`` store on the default cache, not loaded yet), else None."""
    from django.conf import settings
    from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore

    if (type(store) is not CachedDBStore or hasattr(store, "_session_cache")
            or settings.SESSION_CACHE_ALIAS != "default"):
        return None
    return store.cache_key


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
        if request.session.session_key:
            live.remember_seats(session.pk, request.session.session_key, request.user, seats, token)
    return session, seats


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
    if timer_expiry(session) != SessionUISettings.Expiry.BOT:
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
    if session.vignette_run_id:
        doc = session.vignette_run.document
        ctx["vignette"] = {"title": doc.get("title", ""), "objective": doc.get("objective", ""),
                           "briefing": (doc.get("briefings") or {}).get(seat, ""), "run": doc.get("run", {})}
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
    live.remember_version(session)  # the next polls answer from the cache (facilitation.live)
    tag = etag(session, seat)
    shown = request.headers.get("If-None-Match", "")
    if shown == tag:
        return _304(tag)
    # The new version's region is drawn once: when the pre-draw worker (or a team mate's poll)
    # is drawing it, wait a moment for it; if it is not there yet, a page that shows the
    # previous version keeps it until its next poll (a 304 with its own tag) instead of
    # drawing the region a second time (issue 20).
    return _live_response(request, session, seat, wait=POLL_WAIT,
                          keep=shown if _ETAG_FORM.fullmatch(shown) else "")


def _live_response(request, session: ClassSession, seat: str, status: int = 200, wait: float = ANSWER_WAIT,
                   keep: str = "") -> HttpResponse:
    """The seat's live region. Kept in the shared cache per (session, version, seat,
    language), gzipped, without the per-request CSRF token and idempotency key (the page
    sends its token in the X-CSRFToken header, hx-headers of web/base.html, and play.js gives
    each drawn region a key of its own), so every member of a team, every tab and every web
    process draws a position once and sends the stored bytes as they are. Not cached while
    the user has messages to read or a decision timer runs (its expiry setting is not part of
    the version). So the region template must show nothing that depends on the user rather
    than on the seat (tests/web/test_live_polling.py). Drawn once per version and seat
    (``region_once``): while another process draws it, wait up to ``wait`` seconds for it,
    then answer 304 with ``keep`` (the client's own tag, so it keeps what it shows) or draw."""
    tag = etag(session, seat)
    if session.decision_timer_seconds or len(messages.get_messages(request)):
        html = render_to_string("web/play/_live.html", live_context(request, session, seat), request=request)
        return _region_response(html, tag, status)

    def draw() -> bytes:
        return pack(shared_region(request, session, seat))

    raw = region_once(session.pk, tag, draw, wait)
    if raw is None:
        if keep:
            return _304(keep)
        raw = draw()
    return _packed_response(request, raw, tag, status)


def _region_response(html: str, tag: str, status: int = 200) -> HttpResponse:
    return no_store(HttpResponse(html, status=status), tag)


# The event that tells the page a decision was accepted (play.js empties the rationale box).
# htmx fires an HX-Trigger event on the element that sent the request, before the swap; a poll
# may have redrawn the region meanwhile, and an event on that detached form never reaches the
# document's listener. So the event names the body as its target.
ACCEPTED_TRIGGER = json.dumps({"coinlab:accepted": {"target": "body"}})


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
    # the other seats' regions are queued for the pre-draw worker once this seat's answer is drawn
    outcome: dict = {}
    with tasks.predraw_deferred():
        try:
            services.choice_submit(session=ClassSession(pk=session_id), user=request.user, seat=seat, choice=choice,
                                   seq=seq, idempotency_key=request.POST.get("key", "")[:128],
                                   rationale=request.POST.get("rationale", ""),
                                   decision_ms=_int(request.POST.get("decision_ms")), outcome=outcome)
        except ServiceError as exc:
            if exc.status == 403:
                raise NotAllowed(exc.message) from None
            messages.error(request, exc.message)
            accepted = False
        else:
            accepted = True
        # the row as the move wrote it (its answer is the region of that version, drawn without
        # reading the row again); read for a refused decision or a repeated key's answer
        session = outcome.get("session") or ClassSession.objects.select_related("course").filter(pk=session_id).first()
        if session is None:
            raise NotFound(_("There is no session %(id)s.") % {"id": session_id})
        if request.htmx:
            resp = _live_response(request, session, seat if seat in seats else _seat_for(request, session))
            if accepted:
                resp["HX-Trigger"] = ACCEPTED_TRIGGER
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
    with tasks.predraw_deferred():  # as for a decision (``choose``)
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
                session.refresh_from_db()  # the version the intent published: the answer's ETag
    else:
        messages.error(request, _("Write your team's intent first."))
    if request.htmx:
        return _live_response(request, session, seat)
    return redirect(reverse("web:play", args=[session.pk]) + f"?seat={seat}")
