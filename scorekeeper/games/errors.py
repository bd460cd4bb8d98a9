"""What the domain refuses beyond the engine's own errors, for every subject (games, clubs,
events) to raise; ``scorekeeper.http.refusals`` turns each into an answer."""

from __future__ import annotations

import re
from collections.abc import Sequence

from referee import IllegalAction, InputError, RefereeError
from scorekeeper.models import Game, Seat


class Conflict(IllegalAction):
    """What was asked is done already: a round paired, a result entered, a club of that name."""


class StaleTurn(IllegalAction):
    """Another turn was entered first (a double tap, or a second device)."""


class GameNotFound(LookupError):
    """No game has this id (or what was given is not a game's id at all)."""


class GameHere(InputError):
    """A game's record that is already here, as ``game``: stored again, it would count twice."""

    def __init__(self, game: Game, message: str) -> None:
        super().__init__("game_exists", message)
        self.game = game


def named(error: RefereeError, seats: Sequence[Seat]) -> RefereeError:
    """The refusal with players named: the engine knows seats only ("Player 2 has 7 tiles")."""
    ordered = sorted(seats, key=lambda seat: seat.order)
    error.message = name_players(error.message, [seat.player.name for seat in ordered])
    return error


_NUMBERED = re.compile(r"\b[Pp]layer (\d+)\b")


def name_players(message: str, names: Sequence[str]) -> str:
    """The engine numbers players ("Player 2 has 7 tiles"); people at the table have names.

    >>> name_players("Player 2 has 7 tiles on the rack, not 2.", ["Ann", "Ben"])
    'Ben has 7 tiles on the rack, not 2.'
    """

    def named(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        return names[seat] if 0 <= seat < len(names) else match.group(0)

    return _NUMBERED.sub(named, message)
