"""Messages: every text the engine produces, as an English template with named parameters.

The engine never produces a finished sentence. It produces a *message*: an English template
in :meth:`str.format` syntax with named parameters, plus the values of those parameters::

    msg("Rally in {space}", space=space_name("junin"))
    msg_n("{count} Guerrilla placed", "{count} Guerrillas placed", count)

A message is a plain JSON value (a dict ``{"msg": template, "args": {...}}``), so states,
facts and logged events stay JSON, and a message read back from the database is rendered
exactly like a fresh one. A parameter is a number, a plain string (a name that is not
translated, such as a team's name) or itself a message (a space, faction or card name), so
a space name is translated on its own and then put into the translated sentence.

Translation happens at the edge, never in the engine: the web and report layers call
:func:`render` with their ``gettext``/``ngettext`` (Django's, in the viewer's language). The
engine stays free of Django.

Extraction: ``msg`` and ``msg_n`` are declared as gettext keywords of the project's
``makemessages`` (``facilitation/management/commands/makemessages.py``), so every literal
template under ``engine/`` lands in the ``.po`` catalogs, the one source of translations.
Names that come from a game's data files (cards, spaces) are extracted from the game's
``catalog()`` by the same command. A template must therefore be a string literal at the
call site (or come from the catalog), never built with an f-string or ``+``.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable
from typing import Any

#: The keys of a message's JSON form.
TEMPLATE = "msg"
ARGS = "args"
PLURAL = "plural"
COUNT = "n"


class Msg(dict):
    """A message (see the module docstring). A ``dict`` subclass, so it is JSON as it is.

    ``str(m)`` renders it in English, so a message can stand wherever English text stood.
    """

    __slots__ = ()

    @property
    def template(self) -> str:
        return self[TEMPLATE]

    @property
    def args(self) -> dict:
        return self.get(ARGS, {})

    def __str__(self) -> str:  # English, for logs, errors and the command line
        return render(self)

    def __repr__(self) -> str:
        return f"msg({self[TEMPLATE]!r}{''.join(f', {k}={v!r}' for k, v in self.args.items())})"


def msg(template: str, /, **args: Any) -> Msg:
    """A message: ``template`` (an English string literal) with named parameters."""
    m = Msg()
    m[TEMPLATE] = template
    if args:
        m[ARGS] = args
    return m


def msg_n(singular: str, plural: str, count: int, /, **args: Any) -> Msg:
    """A message whose wording depends on ``count`` (``ngettext``); ``{count}`` is available."""
    m = Msg()
    m[TEMPLATE] = singular
    m[PLURAL] = plural
    m[COUNT] = int(count)
    a = {"count": int(count)}
    a.update(args)
    m[ARGS] = a
    return m


def is_msg(value: Any) -> bool:
    """True for a message, fresh or read back from JSON."""
    return isinstance(value, dict) and TEMPLATE in value


def _identity(text: str) -> str:
    return text


def _english_n(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


class _Args(dict):
    """Format arguments that render nested messages lazily and leave unknown names visible."""

    __slots__ = ()

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(value: Any, gettext: Callable[[str], str] = _identity,
           ngettext: Callable[[str, str, int], str] = _english_n) -> str:
    """The text of ``value`` in the language of ``gettext``/``ngettext`` (English by default).

    ``value`` may be a message, a list of values (joined with ", "), ``None`` (empty) or any
    other value (``str()``). A translated template that names a parameter the message does
    not carry keeps the ``{name}`` visible instead of failing.
    """
    if isinstance(value, dict):
        template = value.get(TEMPLATE)
        if template is None:
            return str(value)
        plural = value.get(PLURAL)
        text = ngettext(template, plural, value.get(COUNT, 1)) if plural is not None else gettext(template)
        raw = value.get(ARGS)
        if not raw:
            return text.replace("{{", "{").replace("}}", "}") if "{" in text else text
        args = _Args()
        for k, v in raw.items():
            args[k] = render(v, gettext, ngettext) if isinstance(v, (dict, list, tuple)) else v
        try:
            return text.format_map(args)
        except (ValueError, KeyError, IndexError, AttributeError, TypeError):
            # A broken translation must not break a page: fall back to the English template.
            try:
                return template.format_map(args)
            except (ValueError, KeyError, IndexError, AttributeError, TypeError):
                return template
    if isinstance(value, (list, tuple)):
        return ", ".join(render(v, gettext, ngettext) for v in value)
    if value is None:
        return ""
    return str(value)


def english(value: Any) -> str:
    """``render`` in English (the templates themselves)."""
    return render(value)


def templates(value: Any) -> Iterable[str]:
    """Every template inside ``value`` (a message, nested messages, lists, dicts of facts),
    singular and plural forms alike: what a catalog must translate for ``value`` to render."""
    if isinstance(value, dict):
        t = value.get(TEMPLATE)
        if isinstance(t, str):
            yield t
            p = value.get(PLURAL)
            if isinstance(p, str):
                yield p
            for v in (value.get(ARGS) or {}).values():
                yield from templates(v)
        else:
            for v in value.values():
                yield from templates(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from templates(v)


def field_names(template: str) -> set[str]:
    """The named parameters a template uses (a translation must use the same ones)."""
    out = set()
    for _literal, name, _spec, _conv in string.Formatter().parse(template):
        if name:
            out.add(name.split(".")[0].split("[")[0])
    return out
