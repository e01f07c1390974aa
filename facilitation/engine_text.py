"""An engine text in the reader's language: a message (engine.core.messages) rendered with
Django's gettext, or the English text of a game not yet migrated passed through gettext."""

from __future__ import annotations

from typing import Any


def engine_text(value: Any) -> str:
    from django.utils.translation import gettext, ngettext

    from engine.core.messages import is_msg, render

    if is_msg(value):
        return render(value, gettext, ngettext)
    return gettext(str(value)) if value else ""
