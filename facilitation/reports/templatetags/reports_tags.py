"""Template filters for the AAR pages."""

from __future__ import annotations

from django import template

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


@register.filter
def css_string(value) -> str:
    """Text safe inside a double-quoted CSS string (``content: "..."``)."""
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("<", "\\3C ")
    return text


@register.filter
def num(value) -> str:
    return fmt_num(value)


@register.filter
def delta(value) -> str:
    return fmt_delta(value)


@register.filter
def seconds(ms) -> str:
    if ms is None or ms == "":
        return ""
    return f"{ms / 1000:.1f} s"
