"""Engine texts in the viewer's language: the one place where a message becomes words.

The engine produces *messages* (``engine.core.messages``: an English template with named
parameters, a plain dict ``{"msg": ..., "args": ...}`` once read back from JSON). Everything
that shows an engine text to a person (pages, live regions, the console, the replay, the API,
the after-action review, exports) renders it here, with Django's ``gettext``/``ngettext`` in
the active language (``LocaleMiddleware`` sets it per request; a Celery task runs in
``settings.LANGUAGE_CODE`` unless it overrides it). The translations live in one place, the
``.po`` catalogs (``docs/architecture/i18n.md``).

- :func:`tr`: one value as text. A message is rendered with its parameters translated too (a
  space name is itself a message); a plain string, from a game not yet migrated, is looked
  up as a msgid (so a seat title such as "Government" is translated when the catalog has
  it, and any other English sentence stays as it is); a list is joined with ", ".
- :func:`rendered`: a copy of a JSON structure (a view, a prompt, facts) with every message
  in it replaced by its text; plain strings are left alone (they may be ids).
- :func:`with_texts`: for the API: each message under key ``k`` becomes its text under
  ``k`` (so existing clients keep reading words) and stays as a message under ``k_msg``.

The ``tr`` template filter (``{% load coinlab_web %}``, ``{{ choice.label|tr }}``) calls
:func:`tr`. Whatever is drawn from rendered text and kept (live regions, board geometry,
report files) must be kept per language: see ``facilitation.live.fragment_key`` (the ETag
holds the language) and ``facilitation.web.board`` (geometry and static board per language).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from django.core.signals import setting_changed
from django.utils.translation import get_language, gettext, ngettext

from engine.core.messages import TEMPLATE, render

MSG_SUFFIX = "_msg"


# Django's gettext walks the active catalog and its fallbacks on every call (10-20 us; a live
# region asks for several hundred words, the same ones at every drawing: issue 20). The words
# are the same for every request of a language, so each is looked up once per process and
# language, as facilitation.rendering.board does for the board's words.
@lru_cache(maxsize=16384)
def _catalog_word(language: str | None, message: str) -> str:
    return str.__str__(gettext(message))  # plain text, whatever the caller's string type


@lru_cache(maxsize=4096)
def _catalog_plural(language: str | None, singular: str, plural: str, n: int) -> str:
    return str.__str__(ngettext(singular, plural, n))


# Django's get_language reads the active translation from an asgiref Local, a few microseconds
# a call: a Tears of Tyranny region asks for its language about 650 times per seat (every word
# of the log, the prompt and the board), a tenth of the region's CPU (issue 20, cProfile of
# four seats' contexts and templates). Where a region is drawn, the language cannot change
# (the pre-draw and the views set it before they draw), so the drawing pins it: read once,
# then kept in a thread-local slot that the lookups below read first.
_pinned = threading.local()


def active_language() -> str | None:
    """Django's ``get_language()``; inside :func:`pinned_language`, the language read on entry."""
    pinned = getattr(_pinned, "language", None)
    return pinned if pinned is not None else get_language()


@contextlib.contextmanager
def pinned_language() -> Iterator[None]:
    """Read the active language once for what is drawn inside (no ``translation.override`` or
    ``activate`` may happen inside: the words would stay in the pinned language). Nests."""
    before = getattr(_pinned, "language", None)
    _pinned.language = get_language() or ""
    try:
        yield
    finally:
        _pinned.language = before


def gettext_once(message: str) -> str:
    """Django's ``gettext``, looked up once per process and language (plain text: never marked
    safe, unlike Django's for a safe message)."""
    return _catalog_word(active_language(), str.__str__(message))


def ngettext_once(singular: str, plural: str, n: int) -> str:
    """Django's ``ngettext``, looked up once per process, language and count."""
    return _catalog_plural(active_language(), str.__str__(singular), str.__str__(plural), n)


def _catalogs_changed(setting: str, **kwargs) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS", "USE_I18N"):
        _catalog_word.cache_clear()
        _catalog_plural.cache_clear()


setting_changed.connect(_catalogs_changed, dispatch_uid="coinlab-text-catalogs")


def is_message(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get(TEMPLATE), str)


def tr(value: Any) -> str:
    """``value`` as text in the active language (see the module docstring)."""
    if isinstance(value, str):
        return gettext_once(value) if value else value
    return render(value, gettext_once, ngettext_once)


def rendered(value: Any) -> Any:
    """A copy of ``value`` with every message (at any depth) replaced by its text."""
    if isinstance(value, dict):
        if is_message(value):
            return render(value, gettext_once, ngettext_once)
        return {k: rendered(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rendered(v) for v in value]
    if isinstance(value, tuple):
        return tuple(rendered(v) for v in value)
    return value


def _has_message(value: Any) -> bool:
    return is_message(value) or (isinstance(value, list | tuple) and any(is_message(v) for v in value))


def with_texts(value: Any) -> Any:
    """A copy of ``value`` for API clients: a message under key ``k`` becomes its text under ``k``
    and is kept, as the structured message, under ``k_msg`` (a list of messages likewise)."""
    if isinstance(value, dict):
        if is_message(value):
            return render(value, gettext_once, ngettext_once)
        out = {}
        for k, v in value.items():
            if isinstance(k, str) and _has_message(v):
                out[k] = rendered(v)
                out[k + MSG_SUFFIX] = v
            else:
                out[k] = with_texts(v)
        return out
    if isinstance(value, list | tuple):
        return [with_texts(v) for v in value]
    return value


def language() -> str:
    """The active language code, for keys of anything kept after rendering ("en", "es")."""
    return (active_language() or "en").split("-")[0]
