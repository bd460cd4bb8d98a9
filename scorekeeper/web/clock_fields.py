"""The game clock's fields, which the new-game, new-event and club-rules forms share.

A clock is its kind (none, a time bank each, a timer for each turn), the bank's minutes and
overtime rules (points a minute over, the most overtime, and what happens past it) and the
turn's seconds; ``clock_of`` reads them back as the clock rule the domain takes
(``referee.ClockRule.from_json``'s shape), and ``clock_initial`` fills them from one. The
ranges and defaults are the rule's own (``referee.clock``). Each page words the fields its own
way (``ClockWords``: the new-game page's are older, and its turn timer's field is
``turn_clock``); the pages show only the chosen kind's fields (``.clock-form`` in
static/css/app.css, no script).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django import forms

from referee import CLOCK_CAPPED as CAPPED
from referee import CLOCK_LOSES as LOSES
from referee import CLOCK_SETTINGS as SETTINGS
from referee import PLAYER_CLOCK as PLAYER
from referee import TURN_TIMER as TURN
from referee import ClockRule

# A time bank's fields, and the rule's setting each number sets.
NUMBERS = {
    "clock_minutes": "minutes",
    "clock_penalty": "overtime_penalty",
    "clock_max_overtime": "max_overtime_minutes",
}
TIME_BANK = (*NUMBERS, "clock_over_max")
# A time bank's overtime fields, which a rule stored before may fill when left empty.
OVERTIME = {name: setting for name, setting in NUMBERS.items() if name != "clock_minutes"}
DEFAULT_RULE = ClockRule()
OVER_MAX_CHOICES = [(CAPPED, "the penalty stops growing"), (LOSES, "the player loses on time")]


# Each field's label: on the rules pages (a club's usual rules, a new event), and on the
# new-game page (the older wording).
LABELS = {
    "clock": ("Game clock", "Clock"),
    "clock_minutes": ("Time bank: minutes each", "Minutes each"),
    "clock_penalty": ("Time bank: points off a minute over", "Points lost per minute over"),
    "clock_max_overtime": ("Time bank: most overtime (minutes)", "Most overtime (minutes)"),
    "clock_over_max": ("Time bank: past the most overtime", "Past the most overtime"),
    "seconds": ("Turn timer: seconds a turn", "Seconds a turn"),
}


@dataclass(frozen=True)
class ClockWords:
    """How a page names and words the clock's fields: by default as the rules pages do."""

    # The column of ``LABELS`` the fields' labels are in.
    column: int = 0
    seconds: str = "clock_seconds"  # the name of the turn timer's field
    none: str = ""  # the value of the choice of no clock
    # The choices' labels: no clock, a time bank, a turn timer.
    kinds: tuple[str, str, str] = (
        "No clock", "A time bank each (chess clock)", "A timer for each turn"
    )  # fmt: skip
    radio: bool = False  # choices as radio buttons (else a select)
    # Each number's refusal begins so (a whole sentence with its range); else Django's own.
    said: dict[str, str] = field(default_factory=dict)
    help: dict[str, str] = field(
        default_factory=lambda: {"clock_penalty": "For each started minute over."}
    )

    def label(self, name: str) -> str:
        """The label of the field ``name`` (the turn timer's: "seconds")."""
        return LABELS[name][self.column]

    def names(self) -> tuple[str, ...]:
        """The clock's fields, in the order a form shows them."""
        return ("clock", *TIME_BANK, self.seconds)

    def by_kind(self) -> dict[str, tuple[str, ...]]:
        """The fields of each kind of clock."""
        return {PLAYER: TIME_BANK, TURN: (self.seconds,)}


RULES_WORDS = ClockWords()
# A new game: its turn timer's field keeps its old name (a form sent with it alone times turns),
# and each number's refusal says its range.
NEW_GAME_WORDS = ClockWords(
    column=1,
    seconds="turn_clock",
    none="none",
    kinds=("None", "A clock for each player (overtime costs points)", "A timer for each turn"),
    radio=True,
    said={
        "clock_minutes": "Each player's time is",
        "clock_penalty": "Each minute over costs",
        "clock_max_overtime": "The most overtime is",
        "seconds": "A turn lasts",
    },
    help={},
)


def _number(words: ClockWords, name: str, setting: str) -> forms.IntegerField:
    """One of a clock's numbers, in the range and with the default the clock's rule has."""
    default, low, high = SETTINGS[setting]
    key = "seconds" if setting == "seconds" else name
    options: dict[str, Any] = {}
    if key in words.said:
        unit = (
            "seconds" if setting == "seconds" else "points" if "penalty" in setting else "minutes"
        )
        sentence = f"{words.said[key]} a whole number of {unit} from {low} to {high}."
        options["widget"] = forms.NumberInput(attrs={"inputmode": "numeric"})
        options["error_messages"] = {
            "invalid": sentence, "min_value": sentence, "max_value": sentence
        }  # fmt: skip
    return forms.IntegerField(
        label=words.label(key), initial=default, min_value=low, max_value=high,
        required=False, help_text=words.help.get(key, ""), **options,
    )  # fmt: skip


def clock_fields(words: ClockWords) -> dict[str, forms.Field]:
    """The clock's fields as ``words`` names and words them, to be added to a form."""
    widget = forms.RadioSelect if words.radio else forms.Select
    fields: dict[str, forms.Field] = {
        "clock": forms.ChoiceField(
            label=words.label("clock"), required=False, initial=words.none, widget=widget,
            choices=list(zip((words.none, PLAYER, TURN), words.kinds, strict=True)),
        ),
        **{name: _number(words, name, setting) for name, setting in NUMBERS.items()},
        "clock_over_max": forms.ChoiceField(
            label=words.label("clock_over_max"), required=False, initial=CAPPED,
            choices=OVER_MAX_CHOICES, widget=widget,
        ),
        words.seconds: _number(words, "seconds", "seconds"),
    }  # fmt: skip
    return fields


def clock_of(
    data: dict[str, Any],
    kept: dict[str, Any] | None = None,
    *,
    seconds: str = RULES_WORDS.seconds,
    turn_seconds: int | None = None,
) -> dict[str, Any] | None:
    """The clock rule the clock's fields chose, or None for no clock. A time bank's setting
    left empty (the overtime's cost, its most, past it) keeps its value in ``kept``, the
    clock rule stored before (a club's usual one), when that was a time bank too. A turn
    timer's seconds left empty are ``turn_seconds``, else the rule's default."""
    kind = data.get("clock") or ""
    if kind == PLAYER:
        minutes = data.get("clock_minutes") or DEFAULT_RULE.minutes
        before = kept if kept and kept.get("kind") == PLAYER else {}
        rule = {**before, "kind": PLAYER, "minutes": minutes}
        for name, setting in OVERTIME.items():
            if data.get(name) is not None:
                rule[setting] = data[name]
        if data.get("clock_over_max"):
            rule["over_max"] = data["clock_over_max"]
        return rule
    if kind == TURN:
        default = turn_seconds or ClockRule(kind=TURN).seconds
        return {"kind": TURN, "seconds": data.get(seconds) or default}
    return None


def clock_initial(
    clock: dict[str, Any] | None, *, seconds: str = RULES_WORDS.seconds
) -> dict[str, Any]:
    """The clock's fields as a stored clock rule fills them (the turn timer's is
    ``seconds``)."""
    if not clock:
        return {}
    rule = ClockRule.from_json(clock)
    if rule.kind == TURN:
        return {"clock": TURN, seconds: rule.seconds}
    return {
        "clock": PLAYER,
        "clock_minutes": rule.minutes,
        "clock_penalty": rule.overtime_penalty,
        "clock_max_overtime": rule.max_overtime_minutes,
        "clock_over_max": rule.over_max,
    }
