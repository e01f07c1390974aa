"""Small template helpers for the web front end (no business logic)."""

from __future__ import annotations

import datetime as dt

from django import template
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy

from facilitation import selectors, text
from facilitation.models import ROLE_INSTRUCTOR, ROLE_REVIEWER

register = template.Library()


@register.filter
def is_instructor(user) -> bool:
    return selectors.user_can_create_courses(user)


@register.filter
def is_reviewer(user) -> bool:
    return selectors.user_has_group(user, ROLE_REVIEWER) or selectors.user_has_group(user, ROLE_INSTRUCTOR)


@register.filter
def tr(value) -> str:
    """An engine text (a message, a message read back from JSON, or legacy English) in the
    viewer's language: ``{{ choice.label|tr }}`` (``facilitation.text.tr``). Numbers and other
    values pass through unchanged (``{{ }}`` still localizes them)."""
    if isinstance(value, str | dict | list | tuple):
        return text.tr(value)
    return value


@register.filter
def when(value) -> str:
    """A date and time in the viewer's locale and time zone, with the zone's name
    (``facilitation.web.timezones``): "27/11/2026 9:30 CET"."""
    moment = as_datetime(value)
    if moment is None:
        return ""
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return f"{date_format(moment, 'SHORT_DATETIME_FORMAT')} {moment.tzname() or ''}".strip()


@register.filter
def get_item(mapping, key):
    if isinstance(mapping, dict):
        return mapping.get(key)
    return None


@register.filter
def humanize_key(value) -> str:
    s = str(value).replace("_", " ").strip()
    return s[:1].upper() + s[1:]


@register.filter
def as_datetime(value):
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        return parse_datetime(value)
    return None


@register.filter
def seconds_since(value) -> int:
    when = as_datetime(value)
    if when is None:
        return 0
    return max(0, int((timezone.now() - when).total_seconds()))


@register.filter
def mmss(seconds) -> str:
    try:
        s = int(seconds)
    except (TypeError, ValueError):
        return ""
    return f"{s // 60}:{s % 60:02d}"


@register.filter
def last_section(log, kind: str):
    """The newest section of type ``kind`` (e.g. "phase": an adversary phase) in a log, newest first."""
    for entry in log or []:
        for sec in reversed(entry.get("sections") or []):
            if sec.get("type") == kind:
                return {**sec, "seq": entry.get("seq")}
    return None


@register.filter
def game_title(key) -> str:
    """A game's title for its key (pages never show the key itself: issue #19 deliver 6)."""
    from engine.core.registry import UnknownScenario, load

    try:
        return text.tr(load(str(key)).title)
    except UnknownScenario:
        return str(key)


#: What each kind of bot is called on the pages (never its key).
BOT_KIND_LABELS = {
    "heuristic": gettext_lazy("heuristic"),
    "random": gettext_lazy("random legal moves"),
    "nonplayer": gettext_lazy("Non-player (rules section 8)"),
}


@register.filter
def bot_kind(kind) -> str:
    """A bot kind in words: ``heuristic``, ``random legal moves``, ``Non-player (rules section 8)``."""
    label = BOT_KIND_LABELS.get(str(kind))
    return str(label) if label is not None else humanize_key(kind)
