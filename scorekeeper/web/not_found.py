"""The pages' answer to a game that doesn't exist (a middleware, as it catches the refusal
from any page)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse

from scorekeeper.games.domain import GameNotFound
from scorekeeper.http.refusals import message_of
from scorekeeper.web.events import replaced_game_page


class GameNotFoundPage:
    """A page asked for a game that doesn't exist: the 404 page, saying so (the API answers
    the same refusal as JSON through its own exception handler); a table's game taken away
    with its round (an old QR code) says what happened and where the table's game is now."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, GameNotFound):
            replaced = replaced_game_page(request, exception.args[0] if exception.args else "")
            if replaced is not None:
                return replaced
            raise Http404(message_of(exception))
        return None
