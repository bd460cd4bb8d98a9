"""``{% board_cells rows scorer %}``: the board's rows of squares, as ``table/_board.html``
shows them (``scorekeeper.web.presenters.board_html``)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from scorekeeper.web.presenters import BoardView, board_html

register = template.Library()


@register.simple_tag
def board_cells(rows: BoardView, scorer: bool) -> SafeString:
    return board_html(rows, scorer=bool(scorer))
