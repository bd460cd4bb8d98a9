"""The games this browser keeps ("your games" on the home page), so a scorer link is never lost.

A signed, HttpOnly cookie lists the games this browser keeps, in two tiers, each newest first:
the games it created or scored in (a turn, a correction, any change made from a scorer page),
and then the games it only opened by a link. Opening a link can be done to a browser by any
page that sends it to one, so opened games never push out a game this browser scored: they
share what room the scored ones leave, and go first. The cookie holds ids only, signed so a
list made up elsewhere is refused. Its links go to the scorer pages without the secret, which
each game's own cookie holds (``scorer_link``). A cookie rather than localStorage: the server
draws the links with no script.
"""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from scorekeeper.games.replay import turn_phrase
from scorekeeper.models import Game, Seat

YOURS_COOKIE = "your_games"
YOURS_SALT = "scorekeeper.your-games"
YOURS_SCORED = 12  # games this browser created or scored in, at most
YOURS_MAX = 20  # games in all: the opened ones have what room the scored ones leave
YOURS_AGE = 180 * 24 * 3600  # seconds: half a year
_TIERS = "|"  # between the scored games and the opened ones


def _tiers(request: HttpRequest) -> tuple[list[str], list[str]]:
    """The games this browser scored in and the games it only opened, newest first."""
    try:
        value = request.get_signed_cookie(YOURS_COOKIE, salt=YOURS_SALT, max_age=YOURS_AGE)
    except (KeyError, signing.BadSignature):
        return [], []
    # A list written before the tiers holds only games this browser made or opened itself,
    # when opening one could not push another out: all are kept as scored.
    scored, _, opened = (value or "").partition(_TIERS)
    kept = [part for part in scored.split(",") if part][:YOURS_SCORED]
    rest = [part for part in opened.split(",") if part and part not in kept]
    return kept, rest[: YOURS_MAX - len(kept)]


def your_game_ids(request: HttpRequest) -> list[str]:
    """The games this browser keeps: those it scored in, then those it only opened."""
    scored, opened = _tiers(request)
    return scored + opened


def remember(request: HttpRequest, response: HttpResponse, game: Game) -> HttpResponse:
    """Add ``game``, opened by its link, to the games this browser keeps (first among the
    opened ones; first among the scored ones if it is one of them)."""
    scored, opened = _tiers(request)
    pk = str(game.pk)
    if pk in scored:
        scored = [pk] + [i for i in scored if i != pk]
    else:
        opened = [pk] + [i for i in opened if i != pk]
    return _store(request, response, scored, opened)


def keep(request: HttpRequest, response: HttpResponse, game: Game) -> HttpResponse:
    """Keep ``game``, which this browser created or scored in, first among the games it
    keeps: no game only opened by a link can push it out."""
    scored, opened = _tiers(request)
    pk = str(game.pk)
    scored = [pk] + [i for i in scored if i != pk]
    return _store(request, response, scored, [i for i in opened if i != pk])


def _store(
    request: HttpRequest, response: HttpResponse, scored: list[str], opened: list[str]
) -> HttpResponse:
    scored = scored[:YOURS_SCORED]
    opened = opened[: YOURS_MAX - len(scored)]
    response.set_signed_cookie(
        YOURS_COOKIE,
        f"{','.join(scored)}{_TIERS}{','.join(opened)}",
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
        {
            "game": found[i],
            "turn": turn_phrase(found[i]),
            "scorer_url": reverse("scorer", args=[i]),
        }
        for i in ids
        if i in found
    ]
