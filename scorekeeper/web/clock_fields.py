"""The game clock's fields, which the new-game, new-event and club-rules forms share.

A clock is its kind (none, a time bank each, a timer for each turn), the bank's minutes and
overtime rules (points a minute over, the most overtime, and what happens past it) and the
turn's seconds; ``clock_of`` reads them back as the clock rule the domain takes
(``referee.ClockRule.from_json``'s shape), and ``clock_initial`` fills them from one. The
pages show only the chosen kind's fields (``.clock-form`` in static/css/app.css, no script).
"""

from __future__ import annotations

from typing import Any

from django import forms

from referee import CLOCK_CAPPED as CAPPED
from referee import CLOCK_LOSES as LOSES
from referee import CLOCK_SETTINGS as SETTINGS
from referee import PLAYER_CLOCK as PLAYER
from referee import TURN_TIMER as TURN
from referee import ClockRule

CLOCK_FIELDS = (
    "clock", "clock_minutes", "clock_penalty", "clock_max_overtime", "clock_over_max",
    "clock_seconds",
)  # fmt: skip
# A time bank's overtime fields, and the rule's setting each one sets.
OVERTIME = {"clock_penalty": "overtime_penalty", "clock_max_overtime": "max_overtime_minutes"}
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
            label="Time bank: minutes each",
            min_value=SETTINGS["minutes"][1], max_value=SETTINGS["minutes"][2],
            initial=DEFAULT_RULE.minutes, required=False,
        ),
        "clock_penalty": forms.IntegerField(
            label="Time bank: points off a minute over", required=False,
            min_value=SETTINGS["overtime_penalty"][1], max_value=SETTINGS["overtime_penalty"][2],
            initial=DEFAULT_RULE.overtime_penalty,
            help_text="For each started minute over.",
        ),
        "clock_max_overtime": forms.IntegerField(
            label="Time bank: most overtime (minutes)", required=False,
            min_value=SETTINGS["max_overtime_minutes"][1],
            max_value=SETTINGS["max_overtime_minutes"][2],
            initial=DEFAULT_RULE.max_overtime_minutes,
        ),
        "clock_over_max": forms.ChoiceField(
            label="Time bank: past the most overtime", required=False, initial=CAPPED,
            choices=[(CAPPED, "the penalty stops growing"), (LOSES, "the player loses on time")],
        ),
        "clock_seconds": forms.IntegerField(
            label="Turn timer: seconds a turn",
            min_value=SETTINGS["seconds"][1], max_value=SETTINGS["seconds"][2],
            initial=ClockRule(kind=TURN).seconds, required=False,
        ),
    }  # fmt: skip


def clock_of(data: dict[str, Any], kept: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The clock rule the clock's fields chose, or None for no clock. A time bank's setting
    left empty (the overtime's cost, its most, past it) keeps its value in ``kept``, the
    clock rule stored before (a club's usual one), when that was a time bank too."""
    kind = data.get("clock") or ""
    if kind == PLAYER:
        minutes = data.get("clock_minutes") or DEFAULT_RULE.minutes
        before = kept if kept and kept.get("kind") == PLAYER else {}
        rule = {**before, "kind": PLAYER, "minutes": minutes}
        for field, setting in OVERTIME.items():
            if data.get(field) is not None:
                rule[setting] = data[field]
        if data.get("clock_over_max"):
            rule["over_max"] = data["clock_over_max"]
        return rule
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
    return {
        "clock": PLAYER,
        "clock_minutes": rule.minutes,
        "clock_penalty": rule.overtime_penalty,
        "clock_max_overtime": rule.max_overtime_minutes,
        "clock_over_max": rule.over_max,
    }
