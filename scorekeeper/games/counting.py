"""How players count turns, as a scoresheet does: the rule each kind of log entry follows.

A leaf: it imports the engine's options and Django's query expressions, nothing of the
scorekeeper (the game's model for its type only), so the table of turn kinds (``turn_kinds``),
its sentences, the replay and the migrations can all use it.

Each kind of entry says how many turns it adds to the count (``Counting``), by the verdict it
records and the rules the game is played with:

- a play, a pass, an exchange is a turn (a correction stands for the move it records);
- a challenge is not a turn. An upheld one takes the play off: that play was the mover's
  turn and scored 0, and where the rules let the mover try again (``upheld_challenge`` is
  ``retry``), the play or pass that follows is that same turn again, so the challenge takes
  one off the count and the retry puts it back. A rejected one under double challenge
  (``rejected_challenge`` is ``lose_turn``) is the challenger's lost turn, which is a turn;
- an undo, a time penalty and the entries that end the game are no turn.

>>> from referee import RuleOptions, get_ruleset
>>> upwords = RuleOptions.from_dict({}, get_ruleset("upwords-10"))  # the mover tries again
>>> [challenge("upheld", upwords), challenge("rejected", upwords)]
[-1, 0]
>>> crossword = RuleOptions.from_dict({}, get_ruleset("crossword-classic"))  # double challenge
>>> [challenge("upheld", crossword), challenge("rejected", crossword)]
[0, 1]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from django.db.models import Case, IntegerField, Q, Sum, Value, When
from django.db.models.functions import Coalesce

from referee import RuleOptions, get_ruleset

if TYPE_CHECKING:
    from scorekeeper.models import Game

# How many turns an entry adds to the count, by its verdict ("", "upheld", "rejected") and the
# game's rules: 1 a turn, 0 none, -1 a turn to be played again.
Counting = Callable[[str, RuleOptions], int]

RESULTS = ("", "upheld", "rejected")  # a log entry's verdict (``Turn.Result``)

# The log entries in effect: neither undone nor replaced by a correction (an undo has no turn).
IN_EFFECT = Q(undone_at__isnull=True, corrected_at__isnull=True)


def options_of(game: Game) -> RuleOptions:
    """The rules ``game`` is played with: what a challenge costs, so how turns are counted."""
    return RuleOptions.from_dict(game.options, get_ruleset(game.ruleset))


def a_turn(result: str, options: RuleOptions) -> int:
    return 1


def no_turn(result: str, options: RuleOptions) -> int:
    return 0


def challenge(result: str, options: RuleOptions) -> int:
    """A challenge is no turn of its own: see the module's docstring."""
    if result == "upheld":
        return -1 if options.upheld_challenge == "retry" else 0
    if result == "rejected":
        return 1 if options.rejected_challenge == "lose_turn" else 0
    return 0


class Counted(Protocol):
    """What counting reads of a log entry in effect (a ``Turn``, or a row of one)."""

    @property
    def pk(self) -> int: ...
    @property
    def action(self) -> str: ...
    @property
    def result(self) -> str: ...


def number(
    in_play: Iterable[Counted], rules: Mapping[str, Counting], options: RuleOptions
) -> tuple[dict[int, int], int]:
    """Each turn's number as players count it, by log entry (pk), from the entries in effect
    in the order of play, and the turns counted in all. A play an upheld challenge took off
    and the retry that follows have the same number: they are one turn."""
    numbers: dict[int, int] = {}
    count = 0
    for entry in in_play:
        adds = rules[entry.action](entry.result, options)
        count += adds
        if adds > 0:
            numbers[entry.pk] = count
    return numbers, count


def total(rules: Mapping[str, Counting], options: RuleOptions) -> Coalesce:
    """The turns a query's log entries in effect add up to, as a database expression (the
    same rule as ``number``): ``turns.filter(IN_EFFECT).aggregate(n=total(...))``."""
    whens = [
        When(action=action, result=result, then=Value(adds))
        for action, rule in rules.items()
        for result in RESULTS
        if (adds := rule(result, options))
    ]
    each = Case(*whens, default=Value(0), output_field=IntegerField())
    return Coalesce(Sum(each), Value(0), output_field=IntegerField())


__all__ = [
    "IN_EFFECT",
    "RESULTS",
    "Counted",
    "Counting",
    "a_turn",
    "challenge",
    "no_turn",
    "number",
    "options_of",
    "total",
]
