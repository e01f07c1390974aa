"""Free text as stored: the one rule for rationales, notes, reasons, statements of intent,
titles and locations (issue 14 item 9)."""

from __future__ import annotations

from typing import Any

from facilitation.errors import ValidationFailed

#: The longest rationale, note, reason or statement of intent, on every path (page, API, undo,
#: console): issue 14 item 9.
TEXT_MAX = 5000


def clean_text(value: Any, *, field: str, limit: int = TEXT_MAX) -> str:
    """``value`` as stored text: a string without NUL (PostgreSQL refuses it in text and JSON),
    at most ``limit`` characters, stripped. Anything else is a 400 naming the field."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValidationFailed(f"{field} must be text.", code="malformed")
    if "\x00" in value:
        raise ValidationFailed(f"{field} may not contain NUL characters.", code="malformed")
    value = value.strip()
    if len(value) > limit:
        raise ValidationFailed(f"{field} is too long ({len(value)} characters; at most {limit}).",
                               code="too_long")
    return value
