"""Finding a game: every entry point fetches one here (``fetch_game``)."""

from __future__ import annotations

from uuid import UUID

from scorekeeper.games.errors import GameNotFound
from scorekeeper.models import (
    Game,
)


def fetch_game(game_id: object, *, lock: bool = False) -> Game:
    """The game with this id, or ``GameNotFound``: every entry point finds a game here. It
    fetches only and checks no permission: who may change the game is the caller's to check
    (the scorer's link, the API's token, a club director's account).

    With ``lock=True`` (inside a transaction) the game's row is locked until it commits, as
    every change to a game holds it: two changes to one game never interleave.
    """
    try:
        pk = game_id if isinstance(game_id, UUID) else UUID(str(game_id))
    except ValueError:
        raise GameNotFound(game_id) from None
    games = Game.objects.select_for_update() if lock else Game.objects.all()
    try:
        return games.get(pk=pk)
    except Game.DoesNotExist:
        raise GameNotFound(game_id) from None
