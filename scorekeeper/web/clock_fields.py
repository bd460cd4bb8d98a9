"""The game clock's fields, which the new-game, new-event and club-rules forms share.

A clock is three fields: its kind (none, a time bank each, a timer for each turn), the bank's
minutes and the turn's seconds; ``clock_of`` reads them back as the clock rule the domain
takes (``referee.ClockRule.from_json``'s shape), and ``clock_initial`` fills them from one.
"""

from __future__ import annotations

from typing import Any

from django import forms

from referee import PLAYER_CLOCK as PLAYER
from referee import TURN_TIMER as TURN
from referee import ClockRule

CLOCK_FIELDS = ("clock", "clock_minutes", "clock_seconds")
DEFAULT_RULE = ClockRule()
CLOCK_KINDS = [
    ("", "No clock"),
    (PLAYER, "A time bank each (chess clock)"),
    (TURN, "A timer for each turn"),
]


def clock_fields() -> dict[str, forms.Field]:
    """The clock's fields, to be added to a form."""
    return {
        "clock": forms.ChoiceField(
            label="Game clock", choices=CLOCK_KINDS, required=False, initial=""
        ),
        "clock_minutes": forms.IntegerField(
            label="Time bank: minutes each", min_value=1, max_value=180,
            initial=DEFAULT_RULE.minutes, required=False,
            help_text=f"{DEFAULT_RULE.overtime_penalty} points off for each started "
            f"minute over, up to {DEFAULT_RULE.max_overtime_minutes} minutes.",
        ),
        "clock_seconds": forms.IntegerField(
            label="Turn timer: seconds a turn", min_value=10, max_value=600,
            initial=ClockRule(kind=TURN).seconds, required=False,
        ),
    }  # fmt: skip


def clock_of(data: dict[str, Any], kept: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The clock rule the clock's fields chose, or None for no clock. A time bank keeps the
    settings these fields don't show (the overtime's cost, its most, past it) from ``kept``,
    the clock rule stored before (a club's usual one), when that was a time bank too."""
    kind = data.get("clock") or ""
    if kind == PLAYER:
        minutes = data.get("clock_minutes") or DEFAULT_RULE.minutes
        before = kept if kept and kept.get("kind") == PLAYER else {}
        return {**before, "kind": PLAYER, "minutes": minutes}
    if kind == TURN:
        return {"kind": TURN, "seconds": data.get("clock_seconds") or ClockRule(kind=TURN).seconds}
    return None


def clock_initial(clock: dict[str, Any] | None) -> dict[str, Any]:
    """The clock's fields as a stored clock rule fills them."""
    if not clock:
        return {}
    rule = ClockRule.from_json(clock)
    if rule.kind == TURN:
        return {"clock": TURN, "clock_seconds": rule.seconds}
    return {"clock": PLAYER, "clock_minutes": rule.minutes}
