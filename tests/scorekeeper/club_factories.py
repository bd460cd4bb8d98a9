"""Small factory functions for club tests: accounts, clubs and club games made through the
domain (the API makes casual games only), and reading a page's messages."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client

from scorekeeper import domain
from scorekeeper.models import Club, Game, Invitation

from .factories import HASBRO

PASSWORD = "pw-for-tests-only"
# The rack penalty of an Upwords game finished while the bag still holds tiles: 7 tiles, 5 each.
RACK_PENALTY = -35


def account(username: str) -> User:
    return get_user_model().objects.create_user(username, password=PASSWORD)


def make_club(
    name: str = "Riverside",
    *,
    directors: Iterable[User] = (),
    roster: Iterable[str] = ("Ann", "Ben", "Cy"),
) -> Club:
    club = Club.objects.create(name=name, slug=name.lower().replace(" ", "-"))
    club.directors.add(*directors)
    club.roster.add(*(domain.player_named(n) for n in roster))
    return club


def finished_game(
    names: list[str],
    *,
    club: Club | None,
    plays: int = 2,
    extra: Mapping[int, int] | None = None,
    lexicon: str = "CLUB",
) -> Game:
    """An Upwords game: the first ``plays`` turns of RULES.md §3 (8, 8, 10, ... points, seats
    in turn), then ``extra`` points by seat (as time penalties), then the end: each final score
    is the seat's turns + extra + RACK_PENALTY."""
    game = domain.create_game(ruleset="upwords-10", players=names, lexicon=lexicon, club=club)
    for triples, _ in HASBRO[:plays]:
        domain.act(game.pk, "play", tiles=triples)
    for seat, points in (extra or {}).items():
        domain.act(game.pk, "penalty", seat=seat, points=points)
    domain.act(game.pk, "finish")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def messages_of(response: HttpResponse) -> list[str]:
    """The sentences a page's message list says (after a redirect followed), unescaped."""
    page = response.content.decode()
    return [html.unescape(m) for m in re.findall(r'<li class="message[^"]*">([^<]*)</li>', page)]


def answer(client: Client, username: str, choice: str) -> HttpResponse:
    """``client`` (signed in) answers the one invitation waiting for ``username``."""
    invitation = Invitation.objects.get(username=username)
    return client.post(f"/clubs/invitations/{invitation.pk}", {"answer": choice}, follow=True)
