"""iCalendar (RFC 5545) export of scheduled sessions, written by hand: it is a small format."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from django.conf import settings
from django.utils import timezone

PRODID = "-//CoinLab//Class sessions//EN"


_LINE_BREAKS = re.compile("\r\n|[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1f\x7f]")


def _escape(text: str) -> str:
    """A TEXT value (RFC 5545 3.3.11): every line break, bare CR included, becomes ``\\n``
    (a bare CR would end the property line for many readers: issue 14 item 12), other
    control characters are dropped (the format allows none but tab)."""
    text = str(text).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return _CONTROLS.sub("", _LINE_BREAKS.sub("\\\\n", text))


def _fold(line: str) -> str:
    """Lines longer than 75 octets are folded with CRLF + space (RFC 5545 3.1)."""
    raw = line.encode("utf-8")
    if len(raw) <= 75:
        return line
    parts, cur = [], b""
    for ch in line:
        b = ch.encode("utf-8")
        if len(cur) + len(b) > (75 if not parts else 74):
            parts.append(cur.decode("utf-8"))
            cur = b""
        cur += b
    parts.append(cur.decode("utf-8"))
    return "\r\n ".join(parts)


def _utc(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def sessions_to_ics(sessions: Iterable, *, calendar_name: str = "CoinLab") -> str:
    """One VEVENT per session with a scheduled start (end defaults to start + 90 minutes)."""
    now = _utc(timezone.now())
    host = (settings.ALLOWED_HOSTS[0] if settings.ALLOWED_HOSTS and settings.ALLOWED_HOSTS[0] != "*"
            else "coinlab.local")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
             f"X-WR-CALNAME:{_escape(calendar_name)}"]
    for s in sessions:
        if not s.scheduled_start:
            continue
        end = s.scheduled_end or (s.scheduled_start + dt.timedelta(minutes=90))
        desc = f"{s.course.title}: {s.scenario_key} session ({s.get_status_display()})."
        lines += [
            "BEGIN:VEVENT",
            f"UID:coinlab-session-{s.pk}@{host.strip('[]')}",
            f"DTSTAMP:{now}",
            f"DTSTART:{_utc(s.scheduled_start)}",
            f"DTEND:{_utc(end)}",
            f"SUMMARY:{_escape(s.title)}",
            f"DESCRIPTION:{_escape(desc)}",
        ]
        if s.location:
            lines.append(f"LOCATION:{_escape(s.location)}")
        lines.append("STATUS:CONFIRMED")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "\r\n".join(_fold(line) for line in lines) + "\r\n"
