"""The language a report is written in, for the pure builder (no Django).

The builder's own sentences are marked ``gettext(...)`` / ``ngettext(...)`` (the names
``makemessages`` extracts) and rendered through the translator that is active while a report
is built; the engine's texts are messages (``engine.core.messages``) and go through
:func:`text`. Texts defined at import time (the chart specs) are marked with
:func:`gettext_noop` and translated when a spec is read (``specs.spec_for``).

The Django side activates its own ``gettext``/``ngettext`` for the report's language::

    with translation.override("es"), translated(translation.gettext, translation.ngettext):
        model = build_report(bundle)

Without an active translator every text stays English (the templates themselves).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from engine.core.messages import render


def _english(text: str) -> str:
    return text


def _english_n(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


_active: ContextVar[tuple[Callable[[str], str], Callable[[str, str, int], str]]] = ContextVar(
    "aar_translator", default=(_english, _english_n))
_decimal: ContextVar[str] = ContextVar("aar_decimal_separator", default=".")


def gettext(message: str) -> str:
    """``message`` in the active language."""
    return _active.get()[0](message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _active.get()[1](singular, plural, n)


def gettext_noop(message: str) -> str:
    """Marks ``message`` for the catalogs; translated later, where it is read."""
    return message


def decimal_separator() -> str:
    """The active language's decimal mark ("," in Spanish)."""
    return _decimal.get()


def text(value: Any) -> str:
    """An engine message (or a list of them, or plain text) in the active language."""
    return render(value, *_active.get())


@contextmanager
def translated(gettext_fn: Callable[[str], str], ngettext_fn: Callable[[str, str, int], str],
               decimal: str = ".") -> Iterator[None]:
    """Build with these translation functions (e.g. Django's, inside ``translation.override``)
    and this decimal mark."""
    token = _active.set((gettext_fn, ngettext_fn))
    dtoken = _decimal.set(decimal)
    try:
        yield
    finally:
        _decimal.reset(dtoken)
        _active.reset(token)
