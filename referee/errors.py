"""Typed errors that speak to people.

Two families: ``InputError`` for input that is not a move at all (a square off the board, a
letter the set does not have, a second Z), and ``IllegalPlay`` for a well-formed play that
breaks the rules, carrying one ``Violation`` per broken rule. ``IllegalAction`` covers turns
that the game's state does not allow (exchanging from a near-empty bag, playing after the end).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class RefereeError(Exception):
    """Base of every error the referee raises; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message}


class InputError(RefereeError):
    """The input is malformed: it does not describe a possible move."""


class IllegalAction(RefereeError):
    """The action is well formed but the game's state does not allow it now."""


class GameOver(IllegalAction):
    """The game has ended (or is waiting for the racks to be entered)."""


# Rule codes, with the RULES.md section that states each rule.
RULES = {
    "one_tile_per_square": "2.1",
    "not_in_line": "2.1",
    "gap": "2.2",
    "first_play_off_start": "2.3",
    "first_play_too_short": "2.3",
    "not_connected": "2.4",
    "no_word": "2.5",
    "invalid_word": "2.5",
    "square_occupied": "2.1",
    "same_letter": "3",
    "stack_too_high": "3",
    "covers_whole_word": "3",
    "plural_s": "3",
}


@dataclass(frozen=True)
class Violation:
    """One broken rule: its code, a sentence a player understands, and what it concerns."""

    code: str
    message: str
    squares: tuple[str, ...] = ()
    words: tuple[str, ...] = ()

    @property
    def rule(self) -> str:
        return RULES.get(self.code, "")

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
            "squares": list(self.squares),
            "words": list(self.words),
        }


class IllegalPlay(RefereeError):
    """A play that breaks one or more rules; ``violations`` lists every one found."""

    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations = list(violations)
        first = self.violations[0]
        message = " ".join(v.message for v in self.violations)
        super().__init__(first.code, message)

    @property
    def invalid_words(self) -> list[str]:
        return [w for v in self.violations if v.code == "invalid_word" for w in v.words]

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, object]:
        data = super().to_dict()
        data["violations"] = [v.to_dict() for v in self.violations]
        if self.invalid_words:
            data["words"] = self.invalid_words
        return data


def stacked_on_itself(shown: str, square: str) -> Violation:
    """The same letter stacked on itself (Upwords): the one sentence for a tile placed so and
    for a play written so (``5E O`` over an O, read through, places no tile)."""
    return Violation("same_letter", f"You can't stack {shown} on {shown} at {square}.", (square,))
