"""The games this browser keeps ("your games" on the home page), so a scorer link is never lost.

A signed, HttpOnly cookie lists the games this browser created or opened as scorer, newest
first. It holds ids only, signed so a list made up elsewhere is refused. Its links go to the
scorer pages without the secret, which each game's own cookie holds (``scorer_link``). A
cookie rather than localStorage: the server draws the links with no script.
"""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers

from scorekeeper.models import Game, Seat

YOURS_COOKIE = "your_games"
YOURS_SALT = "scorekeeper.your-games"
YOURS_MAX = 12
YOURS_AGE = 180 * 24 * 3600  # seconds: half a year


def your_game_ids(request: HttpRequest) -> list[str]:
    try:
        value = request.get_signed_cookie(YOURS_COOKIE, salt=YOURS_SALT, max_age=YOURS_AGE)
    except (KeyError, signing.BadSignature):
        return []
    return [part for part in (value or "").split(",") if part][:YOURS_MAX]


def remember(request: HttpRequest, response: HttpResponse, game: Game) -> HttpResponse:
    """Add ``game`` to the games this browser keeps."""
    ids = [str(game.pk)] + [i for i in your_game_ids(request) if i != str(game.pk)]
    response.set_signed_cookie(
        YOURS_COOKIE,
        ",".join(ids[:YOURS_MAX]),
        salt=YOURS_SALT,
        max_age=YOURS_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


def your_games(request: HttpRequest) -> list[dict[str, Any]]:
    """The games this browser keeps, with their scorer links (for this browser's eyes only)."""
    ids = your_game_ids(request)
    if not ids:
        return []
    games = Game.objects.filter(pk__in=ids).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    )
    found = {str(g.pk): g for g in games}
    return [
        {"game": found[i], "scorer_url": reverse("scorer", args=[i])} for i in ids if i in found
    ]


def private(response: HttpResponse) -> HttpResponse:
    """A page that shows this browser's scorer links: never cached for anyone else."""
    patch_cache_control(response, private=True, no_store=True)
    patch_vary_headers(response, ["Cookie"])
    return response
