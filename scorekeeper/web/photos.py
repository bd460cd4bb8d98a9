"""The scorer page's camera button: a photo of the board in, the plays it may show out (JSON).

The page (``static/js/photo.js``) downsizes the photo before sending it, puts the first play
in the typed play and lets the page's preview show it; the scorer checks it and Submits as for
any typed play. The work and its bounds are ``scorekeeper.games.photos``'s.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_POST

from scorekeeper.games.photos import MAX_BYTES, UNAVAILABLE, available, photo_plays
from scorekeeper.http.limits import limited
from scorekeeper.http.refusals import REFUSALS, message_of, status_of
from scorekeeper.models import Game
from scorekeeper.web.scorer_link import scorer_view


def _refused(status: int, message: str) -> JsonResponse:
    return JsonResponse({"message": message}, status=status)


@require_POST
@scorer_view
@limited("analysis")
def photo(request: HttpRequest, game: Game) -> HttpResponse:
    """The legal plays the posted photo (``image``) may show, likeliest first."""
    if not available():
        return _refused(501, UNAVAILABLE)
    image = request.FILES.get("image")
    if image is None:
        return _refused(400, "Send a photo of the board.")
    if image.size is None or image.size > MAX_BYTES:
        return _refused(413, "The photo is too large: take it again, or enter the play by hand.")
    try:
        # Read into memory and dropped with the request: a photo is never stored.
        _, found = photo_plays(game, image.read(MAX_BYTES + 1))
    except REFUSALS as error:
        return _refused(status_of(error), message_of(error))
    plays = [
        {"notation": p.notation, "score": p.score, "agreement": p.agreement} for p in found.plays
    ]
    return JsonResponse({"plays": plays, "unread": found.unread})
