"""Finding a game, and finding it for whoever may change it: ``fetch_game`` fetches only;
``access_game_for_scorer`` fetches and checks the scorer's secret in one call (Zulip's
``access_*``: fetch and check, raising the domain's not-found or forbidden error)."""

from __future__ import annotations

import hmac
from uuid import UUID

from scorekeeper.games.errors import GameNotFound
from scorekeeper.models import Game


class NotScorer(Exception):
    """The secret presented does not open ``game``."""

    def __init__(self, game: Game) -> None:
        super().__init__(game.pk)
        self.game = game


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


def opens(game: Game, secret: str) -> bool:
    """Whether ``secret`` is the game's (its scorer link's, its API token), compared in constant
    time, so the secret can't be guessed a character at a time."""
    return bool(secret) and hmac.compare_digest(secret.encode(), game.token.encode())


def access_game_for_scorer(game_id: object, secret: str) -> Game:
    """The game, if ``secret`` opens it: else ``GameNotFound``, or ``NotScorer`` (with the game,
    which a refusal may name)."""
    game = fetch_game(game_id)
    if not opens(game, secret):
        raise NotScorer(game)
    return game
