"""The API's photo routes: a board read from a photo, and the play a photo shows in a game.

Each takes the photo as a multipart upload (``image``), at most ``MAX_BYTES``; the work is
``scorekeeper.games.photos``'s. A server without the photo extra answers 501.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.http import HttpRequest, HttpResponse
from ninja import File, Form, UploadedFile

from scorekeeper.api.endpoints import WRITE, ApiError, answers, api, authorize, rendered
from scorekeeper.api.schemas import BoardReadingOut, PhotoPlaysOut
from scorekeeper.games import domain
from scorekeeper.games.photos import MAX_BYTES, UNAVAILABLE, available, photo_plays, read_photo
from scorekeeper.http.limits import limited

PHOTO = (401, 403, 404, 501, *WRITE)


def _photo_bytes(image: UploadedFile) -> bytes:
    if not available():
        raise ApiError(501, "no_camera_support", UNAVAILABLE)
    if image.size is None or image.size > MAX_BYTES:
        raise ApiError(
            413,
            "too_large",
            f"The photo is over {MAX_BYTES / 1_000_000:g} MB: send it smaller "
            "(1600 pixels a side is plenty).",
        )
    # Read into memory and dropped with the request: a photo is never stored.
    return bytes(image.read(MAX_BYTES + 1))


def reading_out(reading: Any) -> BoardReadingOut:
    return {
        "squares": reading.squares(),
        "confidence": reading.confidence(),
        "corners": [[round(x, 1), round(y, 1)] for x, y in reading.corners],
    }


@api.post(
    "/boards/read",
    **answers(200, BoardReadingOut, 501, *WRITE),
    summary="Read a board from a photo: each square's letter, or empty",
    description="Multipart form: `image` (a JPEG, PNG or WebP photo of the whole board from "
    "above, at most 2.5 MB and 40 million pixels) and `ruleset` (whose board it is: its size). "
    "422 when no board is found in the photo; 501 when this server has no camera support. "
    "Counts against the word judge's rate limit.",
)
@limited("analysis")
def read_board(
    request: HttpRequest,
    image: File[UploadedFile],
    ruleset: Form[Annotated[str, "the ruleset's id"]],
) -> HttpResponse:
    data = _photo_bytes(image)
    answer: BoardReadingOut = reading_out(read_photo(data, ruleset))
    return rendered(request, answer)


@api.post(
    "/games/{game_id}/photo",
    **answers(200, PhotoPlaysOut, *PHOTO),
    summary="The legal plays a photo of the board may show, likeliest first",
    description="Multipart form: `image`, a photo of the whole board taken after the play "
    "was laid. With the game's token. Each legal play from the game's position is held "
    "against the photo; the likeliest five are answered, to be checked and entered as a "
    "turn (nothing is entered here). 422 when no board is found, or no legal play matches "
    "(the message names the squares that read as changed).",
)
@limited("analysis")
def game_photo(request: HttpRequest, game_id: str, image: File[UploadedFile]) -> HttpResponse:
    game = domain.fetch_game(game_id)
    authorize(request, game)
    data = _photo_bytes(image)
    reading, found = photo_plays(game, data)
    answer: PhotoPlaysOut = plays_out(reading, found)
    return rendered(request, answer)


def plays_out(reading: Any, found: Any) -> PhotoPlaysOut:
    return {
        "plays": [
            {
                "notation": p.notation,
                "score": p.score,
                "tiles": [{"row": r, "col": c, "letter": t} for r, c, t in p.tiles],
                "agreement": p.agreement,
                "likelihood": p.likelihood,
            }
            for p in found.plays
        ],
        "changed": found.changed,
        "unread": found.unread,
        "complete": found.complete,
        "reading": reading_out(found.reading or reading),
    }
