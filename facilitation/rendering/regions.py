"""The drawing of live regions and console sections (issue 13.7), out of the views: the play
page's region of one seat, its shared (unpersonal, gzip-packed) form kept in the cache for the
polls, the instructors' console section of a session, and the pre-draw of both after a move.

Both the page views (``facilitation.web.views.play``/``instructor``) and the Celery pre-draw
task (``facilitation.tasks.live_predraw``) import this module; it imports no view, so the
former live -> tasks -> views -> live import circle is gone (tests/test_layering.py checks it).
The HTML is produced by the fast string builders of issue #8 (``facilitation.rendering.board``
for the board) and Django templates for the rest, exactly as before the move.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import hmac
import time
import uuid
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.crypto import salted_hmac
from django.utils.translation import get_language, gettext_noop

from facilitation import live, selectors
from facilitation.models import ClassSession, Seat, SessionEvent, Team, TeamIntent
from facilitation.rendering import board as board_model
from facilitation.rendering.board_markup import remember
from facilitation.text import active_language, pinned_language, rendered, tr
from facilitation.text import gettext_once as _  # looked up once per process and language (issue 20)
from facilitation.web.forms import IntentForm
from facilitation.web.models import SessionUISettings


def seat_titles(rules) -> dict[str, dict]:
    """Each seat's id, title (in the viewer's language) and faction index (its colour)."""
    return {s.id: {"id": s.id, "title": tr(s.title), "fi": i} for i, s in enumerate(rules.seats)}


def board_for(rules, view: dict | None, metrics: dict | None, choices: list[dict] | None = None,
              shared: dict | None = None) -> dict:
    """The seat's board model (``board.build``; ``shared``: see there)."""
    return board_model.build(rules, view or {}, metrics=metrics, choices=choices or [], shared=shared)


#: Each event's line as one seat reads it, kept per process (issue 20): a logged event never
#: changes (the log is hash-chained), and every drawing of a seat's region renders the last
#: LOG_EVENTS lines, of which only the newest are new. The key (``event_lines``'s ``memo``
#: and the event's seq and logging time, so that a database restored or recreated under the
#: same session ids does not meet old lines) holds the seat the event was redacted for: a line
#: is only ever given back to the seat it was drawn for. Bounded (``remember``): LINES_MAX lines
#: of about 1 KB are the whole logs of 60 four-team sessions.
LINES: dict[tuple, dict] = {}
LINES_MAX = 20_000


def event_lines(events: list[dict], titles: dict[str, dict], memo: tuple | None = None) -> list[dict]:
    """Events as plain words in the viewer's language: who did what, then the facts the reader
    may see (engine texts are messages, rendered here; ``facilitation.text``). ``memo``: (session
    id, the seat the events were redacted for, the game, the language) to keep the lines in
    ``LINES``; the lines given back are then shared: read them, never change them."""
    if memo is not None:
        out = []
        todo = []
        for ev in events:
            line = LINES.get((*memo, ev["seq"], ev.get("created_at")))
            out.append(line)
            if line is None:
                todo.append(ev)
        if todo:
            drawn = iter(event_lines(todo, titles))
            for i, ev in enumerate(events):
                if out[i] is None:
                    out[i] = next(drawn)
                    remember(LINES, (*memo, ev["seq"], ev.get("created_at")), out[i], LINES_MAX)
        return out
    out = []
    for ev in events:
        payload = ev.get("payload") or {}
        seat = titles.get(ev.get("seat") or "", {})
        kind = ev.get("kind")
        if kind in ("decision", "bot"):
            if payload.get("secret") and not payload.get("label"):  # redacted for this reader (its own: in full)
                head = _("%(seat)s made a secret decision.") % {"seat": seat.get("title", ev.get("seat"))}
            else:
                head = "{}: {}".format(seat.get("title", ev.get("seat") or ""),
                                       tr(payload.get("label")) or payload.get("choice", ""))
            if kind == "bot" and payload.get("timeout"):
                head += " " + _("(the decision timer expired: the bot decided)")
        elif kind == "undo":
            head = _("%(seat)s took back a decision.") % {"seat": seat.get("title", ev.get("seat") or "")}
        elif kind == "facilitator":
            action = payload.get("action", "")
            text = payload.get("text") or payload.get("reason") or ""
            head = _("Facilitator (%(action)s)") % {"action": action} + (f": {text}" if text else "")
        else:
            head = ""
        shown = [f for f in ev.get("facts") or [] if f.get("text")]
        out.append({
            "seq": ev["seq"], "kind": kind, "seat": ev.get("seat"), "fi": seat.get("fi", 9), "head": head,
            "facts": [tr(f["text"]) for f in shown],
            # facts that open a new phase of play (e.g. the adversary phase after the last player is done)
            "phase_breaks": (breaks := [i for i, f in enumerate(shown) if f.get("type") in ("phase", "turn")]),
            "sections": [{"type": shown[b]["type"], "title": tr(shown[b]["text"]),
                          "facts": [tr(f["text"]) for f in shown[b + 1:(breaks + [len(shown)])[k + 1]]]}
                         for k, b in enumerate(breaks)],
            "rationale": ev.get("rationale") or "", "created_at": ev.get("created_at"),
            "actor": ev.get("actor"),
        })
    return out


@contextlib.contextmanager
def one_snapshot():
    """A transaction that reads one committed version of everything (REPEATABLE READ on
    PostgreSQL), for drawing a session ahead of the polls: the row, its log and its teams are
    of the same commit, so the drawing lands under that version's key. Inside an outer
    transaction (tests) the isolation level cannot be set and the outer one's is kept."""
    from django.db import connection, transaction

    fresh = not connection.in_atomic_block  # the isolation level can only be set first thing
    with transaction.atomic():
        if fresh and connection.vendor == "postgresql":
            connection.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


LOG_EVENTS = 80


def etag(session: ClassSession, seat: str) -> str:
    return etag_of(session.pk, session.head_seq, str(session.status), seat, session.updated_at.isoformat())


def etag_of(session_id: int, head_seq: int, status: str, seat: str, updated_at: str,
            language: str | None = None) -> str:
    """The live region's tag in ``language`` (default: the active one). Keyed with the server's
    secret (issue 14 item 1): a tag says only that the page changed."""
    raw = f"{session_id}:{head_seq}:{status}:{seat}:{language or get_language()}:{updated_at}"
    return f'W/"{salted_hmac("coinlab.play.etag", raw, algorithm="sha256").hexdigest()[:20]}"'


def timer_expiry(session) -> str:
    if not session.decision_timer_seconds:
        return SessionUISettings.Expiry.WARN  # only read when a timer runs
    s = SessionUISettings.objects.filter(session=session).first()
    return s.timer_expiry if s else SessionUISettings.Expiry.WARN


def live_context(request, session: ClassSession, seat: str) -> dict:
    """The live region's context of one seat (``live_contexts`` of that seat alone)."""
    return live_contexts(session, [seat])[seat]


def live_contexts(session: ClassSession, seats: list[str], loaded=None) -> dict[str, dict]:
    """``_live_contexts`` with the language read once (``text.pinned_language``)."""
    with pinned_language():
        return _live_contexts(session, seats, loaded)


def _live_contexts(session: ClassSession, seats: list[str], loaded=None) -> dict[str, dict]:
    """The live region's context of each of ``seats`` at the session's current version. What
    does not depend on the seat (the state, prompt, metrics, the rows of the log, the teams'
    intent panels) is read and computed once; everything a seat may see is derived per seat by
    the same functions as for a single seat: ``selectors.seat_prompts`` (the seat's own view
    and choices) and ``selectors.seat_logs`` (each event redacted for that seat, as
    ``session_events(seat_key=seat)``). Nothing here depends on the user or the request.
    The state is decoded once, for the prompts and the previews alike (``loaded``: the
    caller's ``selectors.session_state(session)``, e.g. the pre-draw's, shared with the console
    section); both only read it (the previews apply each choice to a copy)."""
    rules, state = loaded if loaded is not None else selectors.session_state(session)
    titles = seat_titles(rules)
    prompts = selectors.seat_prompts(session, seats, (rules, state))
    logs = selectors.seat_logs(session, seats, after=max(0, session.head_seq - LOG_EVENTS), limit=LOG_EVENTS)
    teams = team_panels(session, seats)
    expiry = timer_expiry(session)
    etags = {seat: etag(session, seat) for seat in seats}
    older_move = []  # the latest move before the log's window, read at most once
    # the seats that see the same map without a choice on it draw it once (board.build); one seat
    # alone (the page's decision, a poll) has nothing to share
    boards: dict | None = {} if len(seats) > 1 else None

    def state_for_previews():  # the acting seats' previews (issue #19)
        return state

    def last_move_before_log():
        if not older_move:
            older_move.append(SessionEvent.objects.filter(session=session, kind__in=("decision", "bot", "undo"),
                                                          seq__lte=session.head_seq)
                              .order_by("-seq").values("kind", "seat", "payload").first())
        return older_move[0]

    out = {}
    for seat in seats:
        data = prompts[seat]
        prompt = rendered(data.get("prompt"))  # its question and choice labels in the viewer's language
        choices = prompt["choices"] if (prompt and data.get("your_turn")) else []
        events = logs[seat]
        log = list(reversed(event_lines(events, titles, (session.pk, seat, rules.key, active_language()))))
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
            "waiting_for": waiting_for, "board": board_for(rules, data.get("view"), data.get("metrics"), choices, boards),
            "log": log, "can_undo": can_undo, "etag": etags[seat], "submit_key": uuid.uuid4().hex,
            "paused": session.status == ClassSession.Status.PAUSED,
            "finished": session.status == ClassSession.Status.FINISHED,
            "not_started": session.status == ClassSession.Status.SCHEDULED,
            "team_id": team["team_id"] if team else None, "needs_intent": needs_intent, "intent_form": IntentForm(),
            "timer_expiry": expiry,
            "intents": intents,
            # no position yet (a session not started): no conditions to measure
            "victory": victory_panel(rules, data["metrics"], data.get("view") or {}, seat, titles)
            if data.get("metrics") else [],
        }
        out[seat].update(explain(rules, seat, prompt, choices, out[seat]["board"], events, titles,
                                 state_for_previews if choices else None))
    return out


def explain(rules, seat, prompt, choices, board, events, titles, state) -> dict:
    """The play page's explanations (issue #19 deliver 1, ``facilitation.web.teach``): the terms
    and rule summaries on the screen, each choice's preview, what happened since the seat's last
    decision. ``state``: a callable giving the state, or None when the seat has no choice."""
    from facilitation.web import teach

    names = teach.metric_names(rules, board)
    return {"teach": {**teach.screen(rules, rules.key, prompt, choices, board),
                      "previews": teach.previews(rules, state(), seat, choices, names) if state else {},
                      "game": rules.key},
            "recap": teach.recap(events, seat, titles, names),
            # the legend's terms link to their meaning on the page (board_markup writes the links)
            "board": {**board, "legend_terms": _legend_terms(rules.key, board)} if board else board}


def _legend_terms(game: str, board: dict) -> dict:
    """``teach.legend_terms`` of the board, once for the seats that share its drawn spaces
    (``markup_memo``, ``board.build``, one per language): the terms follow from the spaces and the map."""
    from facilitation.web import teach

    memo = board.get("markup_memo")
    if memo is None:
        return teach.legend_terms(game, board)
    if "legend_terms" not in memo:
        memo["legend_terms"] = teach.legend_terms(game, board)
    return memo["legend_terms"]


def team_panels(session: ClassSession, seats: list[str]) -> dict[str, dict]:
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


# Stand-ins rendered into a shared fragment for what differs per request; derived from the
# secret key so that they are the same in every web process and cannot be typed into a page.
_SENTINEL = hmac.new(settings.SECRET_KEY.encode(), b"coinlab-live-fragment", hashlib.sha256).hexdigest()[:24]


CSRF_SENTINEL = f"csrf{_SENTINEL}"


KEY_SENTINEL = f"key{_SENTINEL}"


def shared_region(request, session: ClassSession, seat: str, ctx: dict | None = None) -> str:
    """The seat's region as every member of its team gets it: stand-ins in place of the
    per-request CSRF token and idempotency key (``pack`` leaves them empty). ``ctx``: the
    seat's ``live_context`` when the caller has it already (the pre-draw of several seats)."""
    ctx = live_context(request, session, seat) if ctx is None else ctx
    ctx["csrf_token"] = CSRF_SENTINEL
    ctx["submit_key"] = KEY_SENTINEL
    with pinned_language():
        return render_to_string("web/play/_live.html", ctx, request=request)


def unpersonal(html: str) -> str:
    """The shared region as sent: empty CSRF token and idempotency key fields (an empty form
    token makes Django read the X-CSRFToken header the page's htmx sends; play.js fills the key)."""
    return html.replace(CSRF_SENTINEL, "").replace(KEY_SENTINEL, "")


def pack(html: str) -> bytes:
    """The region as stored and sent: gzip, no timestamp, so a poll answered from the cache
    costs what a 304 does (issue #8). Level 3: a 118 KB Tears of Tyranny region in 0.7 ms to
    17.4 KB (level 6: 1.7 ms, 15.6 KB; level 1: 0.6 ms, 19.1 KB), once per version and seat."""
    return gzip.compress(unpersonal(html).encode(), compresslevel=3, mtime=0)


def predraw(session_id: int) -> tuple[int, bool]:
    """The pre-draw after a move (``tasks.live_predraw``): every team seat's region
    (``predraw_regions``) and the console section (``predraw_console_summary``) of the current
    version, in one REPEATABLE READ snapshot, from one reading of the session row and one
    decoding of its state (issue 20: each used to read and decode them on its own). The
    membership token is read first, as for the section alone. (Regions stored, section stored.)"""
    from django.utils import translation

    token = live.membership_token(session_id)
    with translation.override(settings.LANGUAGE_CODE), one_snapshot():
        session = ClassSession.objects.select_related("course").filter(pk=session_id).first()
        if session is None:
            return 0, False
        loaded: list = []

        def state():
            if not loaded:
                loaded.append(selectors.session_state(session))
            return loaded[0]

        return _predraw_regions(session, state), _predraw_section(session, token, state)


def predraw_regions(session_id: int) -> int:
    """Draw the current version's region of every team seat (default language) into the
    cache keys the polls read, skipping seats already there; the number stored. One
    REPEATABLE READ snapshot, so the session row, its log and intents are of one version and
    the region lands under that version's key. Drawn with a request of no user: the region
    shows nothing of the user (``views.play._live_response``), only the seat, whose hidden data stays under
    the seat's own key."""
    from django.utils import translation

    with translation.override(settings.LANGUAGE_CODE), one_snapshot():
        session = ClassSession.objects.select_related("course").filter(pk=session_id).first()
        return 0 if session is None else _predraw_regions(session, lambda: selectors.session_state(session))


def _predraw_regions(session: ClassSession, state) -> int:
    """``predraw_regions`` inside its snapshot; ``state()`` gives ``session_state(session)``."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest

    stored = 0
    if session.decision_timer_seconds:
        return 0  # a timer runs (such regions are never cached)
    seats = list(Seat.objects.filter(session=session, team__isnull=False).order_by("id")
                 .values_list("seat_key", flat=True))
    tags = {seat: etag(session, seat) for seat in seats}
    have = cache.get_many([live.fragment_key(session.pk, t) for t in tags.values()])
    # only the seats nobody else is drawing (a poll or the page's decision came first)
    todo = [seat for seat, tag in tags.items()
            if live.fragment_key(session.pk, tag) not in have and claim(session.pk, tag)]
    # the seats' contexts together: what they share is read and computed once (live_contexts)
    try:
        contexts = live_contexts(session, todo, state()) if todo else {}
        for seat in list(todo):
            request = HttpRequest()
            request.method = "GET"
            request.user = AnonymousUser()
            html = shared_region(request, session, seat, contexts[seat])
            if cache.add(live.fragment_key(session.pk, tags[seat]), pack(html), timeout=live.FRAGMENT_TTL):
                stored += 1
            todo.remove(seat)
    finally:  # a drawing that failed: its seats' polls draw them without waiting for the claims to lapse
        if todo:
            cache.delete_many([live.claim_key(session.pk, tags[seat]) for seat in todo])
    return stored


def stored(session_id: int, etag: str) -> bytes | None:
    """The stored region of that ETag (``pack``'s gzip bytes), or None."""
    raw = cache.get(live.fragment_key(session_id, etag))
    return raw if isinstance(raw, bytes) else None


def claim(session_id: int, etag: str) -> bool:
    """Take the drawing of that ETag's region (``live.claim_key``): False when another process
    has taken it and not yet stored it."""
    return bool(cache.add(live.claim_key(session_id, etag), 1, timeout=live.CLAIM_TTL))


def claim_free(session_id: int, etag: str) -> bool:
    """Nobody is drawing that ETag's region now."""
    return cache.get(live.claim_key(session_id, etag)) is None


def wait_stored(session_id: int, etag: str, seconds: float) -> bytes | None:
    """The region of that ETag once the process that claimed it has stored it: None after
    ``seconds``, or at once when the claim is gone with nothing stored (its drawer died, or
    drew a region that is not cached). Waiting costs a cache round trip every 10 ms, no drawing."""
    deadline = time.monotonic() + seconds
    keys = [live.fragment_key(session_id, etag), live.claim_key(session_id, etag)]
    while True:
        got = cache.get_many(keys)
        raw = got.get(keys[0])
        if isinstance(raw, bytes):
            return raw
        if keys[1] not in got or time.monotonic() >= deadline:
            return None
        time.sleep(0.01)


def region_once(session_id: int, etag: str, draw, wait: float) -> bytes | None:
    """The stored region of that ETag, drawn (``draw()``: ``pack``'s bytes) and stored here only
    when no other process is drawing it: a region is drawn once per version and seat, by the
    pre-draw worker, a poll or the page's decision, whichever comes first (issue 20). When
    another has claimed it, wait up to ``wait`` seconds for its drawing; None if it did not
    come and another still holds the claim (the caller then draws it itself, or a poll keeps
    the client's copy for now)."""
    raw = stored(session_id, etag)
    if raw is not None:
        return raw
    if not claim(session_id, etag):
        raw = wait_stored(session_id, etag, wait)
        if raw is not None or not claim(session_id, etag):
            return raw
    try:
        raw = draw()
        cache.set(live.fragment_key(session_id, etag), raw, timeout=live.FRAGMENT_TTL)
    finally:
        cache.delete(live.claim_key(session_id, etag))  # drawn, or failed: the others need not wait
    return raw


def cached_fragment(session_id: int, etag: str) -> str | None:
    """The stored region of that ETag (HTML as sent), or None."""
    raw = stored(session_id, etag)
    return None if raw is None else gzip.decompress(raw).decode()


# Decision kinds (Prompt.kind_for) in words for the console (marked for the catalogs, translated when shown); an unknown kind is shown as its own
# name ("force_management" -> "Force management").
STEP_NAMES = {
    "hq": gettext_noop("Headquarters"), "steps": gettext_noop("Choosing a step"), "refit": gettext_noop("Refit"), "presence": gettext_noop("Add presence"), "deck": gettext_noop("Refit: choose deck"),
    "keep": gettext_noop("Refit: keep a card"), "bottom": gettext_noop("Refit: order returned cards"), "forget": gettext_noop("Refit: forget a card"),
    "reclaim": gettext_noop("Reclaim"), "base_g": gettext_noop("Refit: gain 1 at base"), "produce": gettext_noop("Base output"),
    "force_management": gettext_noop("Force management"), "recruit_pull": gettext_noop("Force management: pull"), "select": gettext_noop("Select capabilities"),
    "execute": gettext_noop("Execute"), "target": gettext_noop("Execute: choose target"), "allocate": gettext_noop("Execute: assign damage"),
    "collateral": gettext_noop("Execute: collateral"), "drive": gettext_noop("Execute: drive out"), "burden": gettext_noop("Stacking upkeep"),
    "counterattack": gettext_noop("Counterattack: assign hits"),
    "influence_debt": gettext_noop("Influence owed: pay"), "event_recruit": gettext_noop("Event: recruit at which HQ"),
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


def seat_rows(session: ClassSession) -> tuple[list[tuple[str, str, str | None, list[str]]], Any]:
    """Each seat of the session in order, (seat key, bot kind, its team's name or None, the
    team members' user names), and the time of the session's last event: two plain queries
    (the ORM's select_related, prefetch and ``first()`` compiled three, about half of a
    console section's CPU: issue 20). Members in the order they joined the team."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    user = get_user_model()
    q = connection.ops.quote_name
    through = Team._meta.get_field("members").remote_field.through
    team_col = next(f.column for f in through._meta.fields if f.related_model is Team)
    user_col = next(f.column for f in through._meta.fields if f.related_model is user and f.column != team_col)
    name_col = user._meta.get_field(user.USERNAME_FIELD).column
    sql = (f"SELECT s.seat_key, s.bot_kind, s.team_id, t.name, u.{q(name_col)}"
           f" FROM {q(Seat._meta.db_table)} s LEFT JOIN {q(Team._meta.db_table)} t ON t.id = s.team_id"
           f" LEFT JOIN {q(through._meta.db_table)} m ON m.{q(team_col)} = s.team_id"
           f" LEFT JOIN {q(user._meta.db_table)} u ON u.id = m.{q(user_col)}"
           f" WHERE s.session_id = %s ORDER BY s.id, m.id")
    rows: dict[str, tuple[str, str, str | None, list[str]]] = {}
    with connection.cursor() as cur:
        cur.execute(sql, [session.pk])
        for seat_key, bot_kind, team_id, team_name, member in cur.fetchall():
            row = rows.setdefault(seat_key, (seat_key, bot_kind, team_name if team_id is not None else None, []))
            if member is not None:
                row[3].append(member)
        cur.execute(f"SELECT created_at FROM {q(SessionEvent._meta.db_table)} WHERE session_id = %s AND seq = %s",
                    [session.pk, session.head_seq])
        last = cur.fetchone()
    return list(rows.values()), (last[0] if last else None)


def session_summary(session: ClassSession, loaded=None) -> dict:
    """Per seat: who acts now, for how long, the current card and key metrics (instructor view).
    ``loaded``: ``selectors.session_state(session)`` when the caller has it (the pre-draw)."""
    rules, state = loaded if loaded is not None else selectors.session_state(session)
    titles = seat_titles(rules)
    out = {"session": session, "seats": [], "card": None, "metrics": {}, "acting": [], "since": None, "board": None}
    seats, last = seat_rows(session)
    out["since"] = last.isoformat() if last else None
    if state is None:
        for seat_key, bot_kind, team, _members in seats:
            out["seats"].append({**titles.get(seat_key, {"title": seat_key, "fi": 9}),
                                 "team": team or "", "bot": bot_kind, "acting": False})
        return out
    p = rules.prompt(state)
    acting = set(p.seats) if p else set()
    b = board_model.summary(rules, rules.view(state, None))  # tracks and card: no spaces drawn
    out["board"] = b
    out["card"] = b["card"]
    key_tracks = [t for t in b["tracks"] if t.get("key")]
    out["metrics"] = {t["name"]: t["value"] for t in (key_tracks or b["tracks"][:6])}
    out["prompt_text"] = tr(p.text) if p else ""
    steps = seat_steps(p)
    out["steps"] = bool(steps)
    for seat_key, bot_kind, team, members in seats:
        out["seats"].append({**titles.get(seat_key, {"title": seat_key, "fi": 9}),
                             "team": team or "", "bot": bot_kind,
                             "members": members if team is not None else [],
                             "acting": seat_key in acting,
                             # simultaneous phases: each team's own pending step, or done
                             "step": steps.get(seat_key, _("done") if steps else "")})
    return out


CONSOLE_STATUSES = (ClassSession.Status.LIVE, ClassSession.Status.PAUSED, ClassSession.Status.SCHEDULED)


SECTION_TTL = 600


def section_key(session_id: int, version: dict, token: str) -> str:
    return (f"console-section:{session_id}:{version['head_seq']}:{version['status']}:{version['updated_at']}:"
            f"{token}:{get_language()}")


def draw_section(session: ClassSession, loaded=None) -> str:
    """One session's console section (with the CSRF stand-in), from the database (``loaded``:
    the caller's ``selectors.session_state(session)``)."""
    summary = session_summary(session, loaded)
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
        return session is not None and _predraw_section(session, token, lambda: selectors.session_state(session))


def _predraw_section(session: ClassSession, token: str, state) -> bool:
    """``predraw_console_summary`` inside its snapshot; ``state()`` gives ``session_state(session)``."""
    if session.status not in CONSOLE_STATUSES:
        return False
    key = section_key(session.pk, live.version_of(session), token)
    if cache.get(key) is not None:
        return False
    return bool(cache.add(key, draw_section(session, state()), timeout=SECTION_TTL))


def victory_panel(rules, metrics: dict, view: dict, seat: str | None, titles: dict) -> list[dict]:
    """The victory panel (issue #19 deliver 1): each condition in force, the reader's own side
    first, in the reader's language: who wins by it, what it is, the measure now against its
    target and how far it is from being met."""
    sides = {"players": _("The players"), "adversary": _("The adversary")}
    rows = []
    for c in rules.victory_from(metrics, view):
        if not c.active:
            continue
        own = c.side == seat or (c.side == "players" and seat in titles)
        rows.append({
            "own": own, "side": titles.get(c.side, {}).get("title") or sides.get(c.side, c.side),
            "name": tr(c.name), "measure": tr(c.measure), "when": tr(c.when),
            "value": c.value, "target": c.target, "met": c.met, "distance": c.distance, "rule": c.rule,
            "outcome": c.outcome,
        })
    rows.sort(key=lambda r: not r["own"])
    return rows
