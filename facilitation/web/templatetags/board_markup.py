"""``{% board_figure board open_text %}``: the board's figure, drawn by ``board.markup``."""

from django import template
from django.utils.safestring import mark_safe

from facilitation.rendering.board import markup

register = template.Library()


@register.simple_tag
def board_figure(board, open_text=False):
    return mark_safe(markup(board or {}, open_text=bool(open_text)))  # every value escaped by markup()
