"""A photo of the board: read it, and propose the play it shows from a game's position.

For the API (``/api/boards/read``, ``/api/games/<id>/photo``) and the scorer's page. The work
is ``scorekeeper.photo``'s; here the game's position, word list and budget are gathered and
the refusals named. Bounded like a search for plays: at most ``ANALYSIS_CONCURRENCY`` at once
in a process (then ``Busy``, 503), its searches within the analysis budget, the photo refused
from its header past the reader's pixel cap; the photo's bytes are read and dropped, never
stored. The caller checks ``available()`` first (``UNAVAILABLE``: 501).
"""

from __future__ import annotations

from typing import Any

from referee import GameOver, IllegalAction, RuleOptions, get_ruleset
from scorekeeper.games.analysis import budget, prepared_lexicon, read_board, search_slot
from scorekeeper.models import Game
from scorekeeper.photo import UNAVAILABLE, available

__all__ = ["MAX_BYTES", "UNAVAILABLE", "Unreadable", "available", "photo_plays", "read_photo"]

# A photo as the scorer page sends it (1,600 pixels a side, JPEG) is a few hundred kB; the
# upload limit of the whole request (DATA_UPLOAD_MAX_MEMORY_SIZE) is 2.5 MB.
MAX_BYTES = 2_500_000


class Unreadable(IllegalAction):
    """A photo that shows no board, or none this reader can read (422)."""


def read_photo(data: bytes, ruleset_id: str) -> Any:
    """The reading of a photo of ``ruleset_id``'s board (``scorekeeper.photo.reader.Reading``)."""
    from scorekeeper.photo.reader import PhotoError, read

    rules = get_ruleset(ruleset_id)
    with search_slot():
        try:
            return read(data, rules.size)
        except PhotoError as refused:
            raise Unreadable("photo_unreadable", str(refused)) from None


def photo_plays(game: Game, data: bytes, limit: int = 5) -> tuple[Any, Any]:
    """The photo's reading and the legal plays from ``game``'s position it may show, likeliest
    first (``scorekeeper.photo.propose.Proposals``)."""
    from scorekeeper.photo.propose import propose
    from scorekeeper.photo.reader import PhotoError, read

    if game.status != "in_progress":
        raise GameOver("game_over", "The game is over: there is no next play to read.")
    rules = get_ruleset(game.ruleset)
    board = read_board(game.board, rules)
    words = prepared_lexicon(game.lexicon)
    options = RuleOptions.from_dict(game.options, rules)
    with search_slot():
        try:
            reading = read(data, rules.size)
        except PhotoError as refused:
            raise Unreadable("photo_unreadable", str(refused)) from None
        found = propose(reading, board, rules, options, words, limit=limit, budget=budget())
    if not found.plays:
        if not found.complete:
            raise Unreadable(
                "photo_search_cut",
                "The search for the plays the photo may show ran out of time: enter the play "
                "by hand.",
            )
        if not found.changed:
            raise Unreadable(
                "photo_no_play",
                "The photo shows no new tile on the board: take it after the play is laid.",
            )
        raise Unreadable(
            "photo_no_play",
            "No legal play matches the photo. Squares that read as changed: "
            + ", ".join(found.changed[:20])
            + ". Enter the play by hand, or take the photo again from above.",
        )
    return reading, found
