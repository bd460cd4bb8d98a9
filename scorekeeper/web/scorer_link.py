"""The scorer's secret: handed over as a link, then kept in a cookie, never in the address.

A game's scorer link, ``/games/<id>/score/<secret>/``, is how the secret travels: shown once
when the game starts (the API's ``scorer_url``), drawn as a QR code to hand the scoring to
another phone. Opening it moves the secret into a cookie and sends the browser on to the same
page without it (``/games/<id>/score/``), so the secret stays out of browser history, proxies'
and servers' logs and the ``Referer`` of links followed from the page.

The cookie is one per game (named after the game, and sent only to that game's scorer pages),
``HttpOnly`` (no script reads it), ``SameSite=Strict`` (no other site's page can make this
browser score) and ``Secure`` whenever the site is served over HTTPS. Every scorer page reads
it; the link's older addresses with the secret in them (``…/<secret>/turn``) still work, once,
and move the secret into the cookie the same way. The scorer can make a new link, which stops
the old one, and every browser holding it, from changing the game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse

from scorekeeper.games.access import NotScorer, access_game_for_scorer
from scorekeeper.http.links import cookie_name, scorer_url
from scorekeeper.models import Game
from scorekeeper.web.shortcuts import private
from scorekeeper.web.your_games import keep

HOLD_AGE = 180 * 24 * 3600  # seconds: as long as "your games" remembers the game

ScorerView = Callable[..., HttpResponse]


def hold(request: HttpRequest, response: HttpResponse, game: Game) -> HttpResponse:
    """Keep the game's secret in this browser, for its scorer pages only."""
    response.set_cookie(
        cookie_name(game.pk),
        game.token,
        max_age=HOLD_AGE,
        path=scorer_url(game),
        httponly=True,
        samesite="Strict",
        secure=request.is_secure() or settings.SESSION_COOKIE_SECURE,
    )
    return response


def scorer_view(view: ScorerView) -> ScorerView:
    """A scorer page, reached with the cookie (``/score/…``) or with the secret in the address
    (``/score/<secret>/…``). The view is called as ``view(request, game, **kwargs)``.

    With the secret in the address, a GET is sent on to the same page without it (303), and
    any answer keeps the secret in the cookie. A browser that arrives from another site's page
    would not send a ``SameSite=Strict`` cookie on that redirect, so it gets a page that moves
    on by itself (a same-site navigation, which does send it). Without the cookie: 403, saying
    how to get the scoring back.
    """

    @wraps(view)
    def wrapped(
        request: HttpRequest, game_id: Any, token: str | None = None, **kwargs: Any
    ) -> HttpResponse:
        # The secret in the address, else this browser's cookie for the game.
        secret = token if token is not None else request.COOKIES.get(cookie_name(game_id), "")
        try:
            game = access_game_for_scorer(game_id, secret)
        except NotScorer as refused:
            reason = (
                "This scorer link is not right for this game."
                if token is not None
                else "This browser does not hold the scorer link for this game, or the "
                "scorer has since made a new one. Open the scorer link again (or scan the "
                "scorer QR code on the scorer's phone)."
            )
            context = {"exception": reason, "game": refused.game}
            return render(request, "403.html", context, status=403)
        if token is None:
            # The same address answers only browsers holding the cookie: no shared cache may
            # keep the answer for the next one that asks.
            return private(scored(request, view(request, game, **kwargs), game))
        if request.method in ("GET", "HEAD"):
            match = request.resolver_match
            name = match.url_name.removesuffix("_link") if match and match.url_name else "scorer"
            target = reverse(name, args=[game.pk])
            if request.META.get("QUERY_STRING"):
                target += "?" + request.META["QUERY_STRING"]
            if request.headers.get("Sec-Fetch-Site") == "cross-site":
                response = render(request, "table/opening.html", {"target": target, "game": game})
            else:
                response = redirect(target)
                response.status_code = 303
            # Nothing followed from here says where it came from: that address has the secret.
            response["Referrer-Policy"] = "no-referrer"
        else:
            response = scored(request, view(request, game, **kwargs), game)
        if cookie_name(game.pk) not in response.cookies:  # a new link sets its own
            hold(request, response, game)
        return private(response)  # it carries the secret: no shared cache keeps it

    return wrapped


def scored(request: HttpRequest, response: HttpResponse, game: Game) -> HttpResponse:
    """What a scorer page sends (a turn, a correction, who starts...) makes the game one this
    browser scored in, kept among "your games" (``yours.keep``). A link another site makes
    this browser follow is a GET; a POST that site's page sends is refused (CSRF) before
    it gets here."""
    if request.method == "POST" and response.status_code < 400:
        keep(request, response, game)
    return response


def scorer_paths(routes: list[tuple[str, ScorerView, str]]) -> list[Any]:
    """Each scorer page at ``games/<id>/score/<suffix>`` (named ``name``), and at the older
    address with the secret, ``games/<id>/score/<secret>/<suffix>`` (named ``name_link``)."""
    return [
        route
        for suffix, view, name in routes
        for route in (
            path(f"games/<uuid:game_id>/score/{suffix}", view, name=name),
            path(f"games/<uuid:game_id>/score/<str:token>/{suffix}", view, name=f"{name}_link"),
        )
    ]
