"""A game's addresses for scoring it, which the pages and the API both hand out, and the name
of the cookie that keeps its secret (which the middleware and the rate limits read too).

The scorer link carries the game's secret: whoever holds it can enter turns. The pages move
the secret into a cookie at once (``scorekeeper.web.scorer_link``) and link to ``scorer_url``,
which has none.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from scorekeeper.models import Game


def scorer_url(game: Game) -> str:
    """The scorer's page, without the secret: what pages link to and redirect to."""
    return reverse("scorer", args=[game.pk])


def link_url(game: Game) -> str:
    """The scorer link, with the secret: only for handing the scoring to another device."""
    return reverse("scorer_link", args=[game.pk, game.token])


def cookie_name(game_id: Any) -> str:
    """``scorer_<the game's id in hex>``: one cookie per game, so games never share one."""
    return f"scorer_{str(game_id).replace('-', '')}"
