"""``{% load i18n i18n_once %}``: Django's ``{% trans %}``/``{% translate %}``, a constant's words
looked up and escaped once per process, language and escaping instead of at every rendering.

Loaded after ``i18n``, this library's tags take the place of Django's in the template that
loads it (a later ``{% load %}`` wins). The live region (``web/play/_live.html`` and what it
includes) is drawn after every move for every seat, and its ``{% trans "..." %}`` tags were a
fifth of its template time: each one asks Django's ``gettext`` (the catalog and its fallbacks)
and escapes the result (issue 20). A constant's answer depends only on the language and on
whether the template escapes, so it is kept on the tag's node under those two. Anything else
(a variable, a filter, ``as``, ``context``) is Django's own node. The catalogs' extractor
(``makemessages``) reads the tags by their name, so nothing changes for the translators.
"""

from __future__ import annotations

from django import template
from django.core.signals import setting_changed
from django.template.base import Variable
from django.templatetags.i18n import TranslateNode, do_translate

from facilitation.text import active_language

register = template.Library()

_GENERATION = [0]  # bumped when the catalogs may change (tests that change the settings)


class TranslateOnceNode(TranslateNode):
    """A ``{% trans "constant" %}``: rendered by Django's node once per (language, escaping)."""

    def __init__(self, node: TranslateNode):
        super().__init__(node.filter_expression, node.noop, node.asvar, node.message_context)
        self._done: dict[tuple[str | None, bool], str] = {}
        self._generation = _GENERATION[0]

    def render(self, context):
        if self._generation != _GENERATION[0]:
            self._done, self._generation = {}, _GENERATION[0]
        key = (active_language(), context.autoescape)  # pinned where a region is drawn
        out = self._done.get(key)
        if out is None:
            out = self._done[key] = super().render(context)
        return out


def _constant(node) -> bool:
    fe = getattr(node, "filter_expression", None)
    return (isinstance(node, TranslateNode) and node.asvar is None and node.message_context is None
            and fe is not None and not fe.filters and isinstance(fe.var, Variable) and fe.var.literal is not None
            and fe.var.lookups is None)


@register.tag("translate")
@register.tag("trans")
def do_translate_once(parser, token):
    node = do_translate(parser, token)
    return TranslateOnceNode(node) if _constant(node) else node


def _catalogs_changed(setting: str, **kwargs) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS", "USE_I18N"):
        _GENERATION[0] += 1


setting_changed.connect(_catalogs_changed, dispatch_uid="coinlab-i18n-once")
