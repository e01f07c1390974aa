"""Read-only views: watch a live or finished session; replay a finished one with VCR controls."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from facilitation import eventlog, selectors
from facilitation.errors import NotAllowed
from facilitation.models import ClassSession, SessionEvent
from facilitation.text import tr

from ..forms import AnnotationForm
from ..models import Annotation, Bookmark
from .common import board_for, event_lines, page_errors, seat_titles

CARD_FACT_TYPES = ("card", "card_drawn", "card_revealed", "reveal_card", "draw")


def _perspective(request, session, rules, roles: set[str]) -> str | None:
    """The seat to see the game as (``None``: everyone). Students only ever see as their own seat."""
    wanted = request.GET.get("as", "")
    if "instructor" in roles or "reviewer" in roles:
        return wanted if wanted in rules.seat_ids() else None
    seats = selectors.session_seats_of_user(request.user, session)
    if not seats:
        raise NotAllowed(_("You are not part of this session."))
    if session.status != ClassSession.Status.FINISHED:
        raise NotAllowed(_("Students watch their own seat on the play page."))
    return wanted if wanted in seats else seats[0]


@login_required
@page_errors
@require_GET
def watch(request, session_id: int):
    """A live (or finished) session, read-only, auto-refreshing."""
    session = selectors.session_get_for_user(request.user, session_id)
    roles = selectors.session_roles(request.user, session)
    if roles == {"student"} and session.status != ClassSession.Status.FINISHED:
        return redirect("web:play", session_id=session.pk)
    rules = eventlog.rules_for(session)
    as_seat = _perspective(request, session, rules, roles)
    ctx = {**_position(session, rules, session.head_seq, as_seat),
           "live": session.status != ClassSession.Status.FINISHED,
           "poll_url": reverse("web:watch", args=[session.pk]) + "?partial=1" + (f"&as={as_seat}" if as_seat else "")}
    template = "web/review/_watch_live.html" if request.GET.get("partial") else "web/review/watch.html"
    resp = render(request, template, ctx)
    resp["Cache-Control"] = "no-store"
    return resp


def _position(session, rules, seq: int, as_seat: str | None) -> dict:
    titles = seat_titles(rules)
    if seq > 0:
        state = eventlog.load_state(session, seq, rules)
    else:  # 0: the set-up position, before the first event (nothing at all until the session starts)
        state = eventlog.initial_state(rules, session) if session.head_seq > 0 else None
    view = rules.view(state, as_seat) if state is not None else {}
    metrics = rules.metrics(state) if state is not None else {}
    events = selectors.session_events(session, seat_key=as_seat, after=max(0, seq - 30), limit=30)
    events = [e for e in events if e["seq"] <= seq]
    return {
        "session": session, "seq": seq, "as_seat": as_seat, "titles": titles,
        "seats": list(titles.values()), "board": board_for(rules, view, metrics),
        "log": list(reversed(event_lines(events, titles))),
    }


def _card_marks(session, as_seat) -> list[dict]:
    """Events that revealed a card: the 'jump to a card' list."""
    out = []
    for ev in SessionEvent.objects.filter(session=session).order_by("seq").only("seq", "facts", "kind"):
        import engine

        for f in engine.facts_for_seat(ev.facts or [], as_seat):
            t = str(f.get("type", ""))
            if t in CARD_FACT_TYPES or (t.startswith("card") and "reveal" in t):
                out.append({"seq": ev.seq, "text": tr(f.get("text", ""))})
                break
    return out


@login_required
@page_errors
@require_GET
def replay(request, session_id: int):
    session = selectors.session_get_for_user(request.user, session_id)
    roles = selectors.session_roles(request.user, session)
    if session.status != ClassSession.Status.FINISHED and not roles & {"instructor"}:
        raise NotAllowed(_("The replay opens when the session is finished."))
    rules = eventlog.rules_for(session)
    as_seat = _perspective(request, session, rules, roles)
    last = session.head_seq
    try:
        seq = int(request.GET.get("seq", last))
    except ValueError:
        seq = last
    seq = max(0, min(last, seq))
    ctx = _position(session, rules, seq, as_seat)
    base = reverse("web:replay", args=[session.pk])
    suffix = f"&as={as_seat}" if as_seat else ""

    def url(n: int, auto: bool = False) -> str:
        return f"{base}?seq={n}{suffix}" + ("&auto=1" if auto else "")

    autoplay = request.GET.get("auto") == "1" and seq < last
    cards = _card_marks(session, as_seat)
    ctx.update({
        "last": last, "first_url": url(0), "prev_url": url(max(0, seq - 1)), "next_url": url(min(last, seq + 1)),
        "last_url": url(last), "auto_url": url(min(last, seq + 1), True), "autoplay": autoplay,
        "stop_url": url(seq), "cards": cards, "base_url": base,
        # the jump list follows the position: the card in play at this event (issue #19.5)
        "current_card_seq": max((c["seq"] for c in cards if c["seq"] <= seq), default=None),
        "bookmarks": Bookmark.objects.filter(session=session).select_related("author"),
        "annotations": Annotation.objects.filter(session=session, seq=seq).select_related("author"),
        "can_annotate": "instructor" in roles, "form": AnnotationForm(),
        "event": SessionEvent.objects.filter(session=session, seq=seq).first(),
        "outcome": _outcome(session, rules) if seq == last else None,
        "stage_url": f"{base}?seq={seq}{suffix}&stage=1",
    })
    if request.GET.get("stage") == "1":
        # replay.js asks for the next position's stage only: the page is not reloaded, its
        # scroll and focus stay, and the autoplay runs at the speed the reader chose.
        return render(request, "web/review/_replay_stage.html", ctx)
    return render(request, "web/review/replay.html", ctx)


def _outcome(session: ClassSession, rules) -> dict | None:
    """The result in words for the last position of a finished game: who won, why, the margins."""
    result = session.result if session.status == ClassSession.Status.FINISHED else None
    if not isinstance(result, dict):
        return None
    titles = {s.id: s.title for s in rules.seats}
    names = {"adversary": _("The adversary"), "players": _("The players together")}
    winner = result.get("winner")
    if isinstance(winner, list | tuple):
        who = ", ".join(titles.get(w, names.get(w, str(w))) for w in winner)
    elif winner:
        who = titles.get(winner, names.get(winner, str(winner)))
    else:
        who = ""
    margins = result.get("margins") if isinstance(result.get("margins"), dict) else {}
    return {"winner": who, "reason": tr(result.get("reason") or ""),
            "vignette": bool(result.get("vignette")),
            "margins": [(titles.get(k, str(k)), v) for k, v in margins.items() if isinstance(v, int | float)]}


@login_required
@page_errors
@require_POST
def annotate(request, session_id: int):
    session = selectors.session_get_for_user(request.user, session_id)
    roles = selectors.session_roles(request.user, session)
    if "instructor" not in roles:
        # Reviewers are read-only (issue 14 item 8): their notes would join the facilitator's
        # notes in the after-action review.
        raise NotAllowed(_("Only the course's instructors add bookmarks and annotations."))
    try:
        seq = max(0, min(session.head_seq, int(request.POST.get("seq", 0))))
    except ValueError:
        seq = 0
    form = AnnotationForm(request.POST)
    if form.is_valid():
        model = Bookmark if form.cleaned_data["kind"] == "bookmark" else Annotation
        text = form.cleaned_data["text"].strip()
        model.objects.create(session=session, seq=seq, author=request.user,
                             text=text[:200] if model is Bookmark else text)
        messages.success(request, _("Saved."))
    else:
        messages.error(request, _("Write some text first."))
    as_seat = request.POST.get("as", "")
    return redirect(reverse("web:replay", args=[session.pk]) + f"?seq={seq}" + (f"&as={as_seat}" if as_seat else ""))
