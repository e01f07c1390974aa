"""Template filters for the AAR pages."""

from __future__ import annotations

import re
import unicodedata

from django import template
from django.utils.safestring import mark_safe

from facilitation.reports import assets
from facilitation.reports.builder.analysis import fmt_delta, fmt_num, humanize

register = template.Library()


@register.filter
def deltas_text(deltas: dict, labels: dict) -> str:
    """``{"political_will": -2}`` -> "Political Will −2"."""
    if not deltas:
        return ""
    return "; ".join(f"{labels.get(k, humanize(k))} {fmt_delta(v)}" for k, v in deltas.items())


@register.filter
def deltas_list(deltas: dict, labels: dict) -> list[str]:
    return [f"{labels.get(k, humanize(k))} {fmt_delta(v)}" for k, v in (deltas or {}).items()]


_LINE_BREAKS = re.compile(r"\r\n|\r|\n")


@register.filter(is_safe=True)
def pdf_lines(html: str) -> str:
    """The PDF's log rows (``.log-print .lr``, ``white-space: pre-line``) with their line breaks as
    newlines instead of ``<br>``, and every other newline (a rationale's, the template's) as a
    space, as it was: WeasyPrint gives each ``<br>`` a box of its own and a generated newline
    (``br::before``), about a fifth of the full PDF's CPU for Andean Abyss's 449 rows (2.8-3.0 ->
    2.2-2.3 s, the PDF byte for byte the same; docs/benchmarks.md, AAR build). The values in the
    rows are escaped: a ``<br>`` in the block is the template's."""
    return mark_safe(_LINE_BREAKS.sub(" ", str(html)).replace("<br>", "\n"))


# Kept as they are inside a CSS string: letters, digits, space and punctuation that cannot end
# the string, start an escape, or close the <style> element. Everything else (quotes, the
# backslash, <, >, &, every line break CSS knows - \n, \r, \f - and any other control or
# separator character) becomes a hexadecimal escape (issue 14 item 5).
_CSS_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;!?()[]{}-_+=*/#%@$^|~`")


def _css_char(ch: str) -> str:
    if ch in _CSS_PLAIN or (ord(ch) > 0x9F and unicodedata.category(ch)[0] not in "CZ"):
        return ch
    return f"\\{ord(ch):X} "


@register.filter
def css_string(value) -> str:
    """Text safe inside a double-quoted CSS string (``content: "..."``): see ``_CSS_PLAIN``."""
    return "".join(_css_char(ch) for ch in str(value))


@register.filter
def page_counters(text: str) -> str:
    """A translated "Page [page] of [pages]" as a CSS ``content`` value: the bracketed names
    become the page counters, the words around them CSS strings."""
    import re

    out = []
    for part in re.split(r"(\[pages?\])", str(text)):
        if part in ("[page]", "[pages]"):
            out.append(f"counter({part[1:-1]})")
        elif part:
            out.append(f'"{css_string(part)}"')
    return mark_safe(" ".join(out))  # noqa: S308 - every text part escaped by css_string


@register.filter
def num(value) -> str:
    """A number as the report writes it, with the active language's decimal mark."""
    from django.utils.formats import get_format

    return fmt_num(value).replace(".", get_format("DECIMAL_SEPARATOR"))


@register.filter
def delta(value) -> str:
    return fmt_delta(value)


@register.filter
def seconds(ms) -> str:
    if ms is None or ms == "":
        return ""
    return f"{ms / 1000:.1f} s"


@register.simple_tag
def report_asset(path: str, element_id: str = "", css_class: str = ""):
    """``<link>``/``<script>`` of a report asset (inlined in the standalone download)."""
    return mark_safe(assets.asset_tag(path, element_id=element_id, css_class=css_class))  # noqa: S308 - escaped


@register.simple_tag
def plotly_charts():
    """Plotly.js, its style sheets and the chart script (after the charts' JSON blocks)."""
    return mark_safe(assets.plotly_tags())  # noqa: S308 - built from escaped parts


@register.simple_tag
def report_asset_text(path: str):
    """The text of a report asset (the PDF's style sheet; WeasyPrint reads no URLs)."""
    return mark_safe(assets.asset_text(path))  # noqa: S308 - a file of this app
