"""Figures of an event's pages, drawn for hundreds of players at once."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def games(value: float) -> str:
    """Wins or losses as a scoresheet says them (a draw is a half): 3, 2.5.

    >>> games(3.0), games(2.5)
    ('3', '2.5')

    ``floatformat:"-1"`` says the same, at some ten times the cost (it localizes).
    """
    return f"{value:g}"
