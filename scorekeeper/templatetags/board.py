"""``{% board_cells rows ruleset scorer %}``: the board's rows of squares, as
``table/_board.html`` shows them (``scorekeeper.web.presenters.board_html``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from scorekeeper.web.presenters import board_html

register = template.Library()


@register.simple_tag
def board_cells(rows: list[list[dict[str, Any]]], ruleset: Any, scorer: bool) -> SafeString:
    return board_html(rows, stacks=bool(ruleset.stacks), scorer=bool(scorer))
