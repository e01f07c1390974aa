"""``{% load i18n i18n_once %}`` (issue 20): a constant ``{% trans %}`` is looked up once per
language and escaping, and says exactly what Django's tag says, in every language; anything
else (a variable, ``as``, ``context``, a filter) is Django's own node."""

from __future__ import annotations

from django.template import Context, Engine
from django.templatetags.i18n import TranslateNode
from django.utils import translation

from facilitation.web.templatetags.i18n_once import TranslateOnceNode

ENGINE = Engine(libraries={"i18n": "django.templatetags.i18n",
                           "i18n_once": "facilitation.web.templatetags.i18n_once"})

SOURCE = ('{% trans "Your turn!" %}|{% translate "Waiting for" %}|{% trans "100% <sure>" %}|'
          '{% trans word %}|{% trans "Rule" as r %}{{ r }}|{% trans "May" context "month name" %}|'
          '{% autoescape off %}{% trans "100% <sure>" %}{% endautoescape %}')


def _render(libraries: str, language: str, word: str = "Rule") -> str:
    with translation.override(language):
        return ENGINE.from_string("{% load " + libraries + " %}" + SOURCE).render(Context({"word": word}))


def test_the_once_tags_say_what_djangos_say_in_each_language():
    for language in ("en", "es", "en", "es"):  # a language after another: nothing kept across them
        once = _render("i18n i18n_once", language)
        assert once == _render("i18n", language)
    assert _render("i18n i18n_once", "es").startswith("¡Su turno!|")  # the catalog's Spanish
    # a template's literal is safe text (Django's rule: not escaped), its percent sign restored
    assert _render("i18n i18n_once", "en").endswith("|100% <sure>|Rule|Rule|May|100% <sure>")


def test_only_a_constant_is_kept_and_a_template_reused_changes_language():
    template = ENGINE.from_string("{% load i18n i18n_once %}" + SOURCE)
    nodes = [n for n in template.nodelist if isinstance(n, TranslateNode)]
    once = [n for n in nodes if isinstance(n, TranslateOnceNode)]
    assert len(nodes) == 6 and len(once) == 3  # "Your turn!", "Waiting for", "100% <sure>"
    with translation.override("en"):
        assert template.render(Context({"word": "Rule"})).startswith("Your turn!|Waiting for|")
    with translation.override("es"):
        assert template.render(Context({"word": "Rule"})).startswith("¡Su turno!|")
