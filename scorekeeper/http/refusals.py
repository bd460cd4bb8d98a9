"""How a refusal becomes an HTTP status: one table, read by the JSON API and the pages alike.

400 malformed input, 404 unknown game, 409 the game moved on (a stale page, a finished
game), a record is of a game already here or what was asked is done already
(``Conflict``), 422 a play or action the rules refuse, 503 a word list still being prepared
or every search slot busy, 429 a client past a limit (both with the error's
``retry_after``). The first row that matches wins,
so a subclass is listed before its base.
"""

from __future__ import annotations

from referee import GameOver, IllegalAction, IllegalPlay, InputError, RefereeError
from scorekeeper.games.analysis import Busy, Preparing
from scorekeeper.games.errors import Conflict, GameHere, GameNotFound, StaleTurn


class TooMany(RefereeError):
    """A client past one of its limits (``scorekeeper.http.limits``), told when to try again."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = retry_after


STATUS: tuple[tuple[type[Exception], int], ...] = (
    (TooMany, 429),
    (Preparing, 503),
    (Busy, 503),
    (GameNotFound, 404),
    (StaleTurn, 409),
    (GameHere, 409),
    (GameOver, 409),
    (Conflict, 409),
    (IllegalPlay, 422),
    (IllegalAction, 422),
    (InputError, 400),
    (RefereeError, 400),
)

# What the domain refuses: an entry point catches exactly these, and nothing else.
REFUSALS = (RefereeError, GameNotFound)


def status_of(error: Exception) -> int:
    for kind, status in STATUS:
        if isinstance(error, kind):
            return status
    raise TypeError(f"{type(error).__name__} is not a refusal of the domain") from error


def message_of(error: Exception) -> str:
    if isinstance(error, RefereeError):
        return error.message
    return "There is no game with that id."


def retry_after(error: Exception) -> int | None:
    """Seconds to wait before asking again, for a refusal that will pass (a 503, a 429)."""
    seconds = getattr(error, "retry_after", None)
    return seconds if isinstance(seconds, int) else None


def code_of(error: Exception) -> str:
    return error.code if isinstance(error, RefereeError) else "not_found"
