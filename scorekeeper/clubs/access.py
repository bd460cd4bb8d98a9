"""Who directs a club: the one check every director's page, API route and domain refusal
asks (``directs``), and ``access_club_as_director``, which fetches a club and checks it in one
call (Zulip's ``access_*``: fetch and check, raising the domain's not-found or forbidden
error)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from referee import IllegalAction
from scorekeeper.models import Club, Game


class ClubNotFound(LookupError):
    """No club has this address."""


class NotDirector(Exception):
    """The account asking does not direct ``club``."""

    def __init__(self, club: Club) -> None:
        super().__init__(f"Only a director of {club.name} can do that.")
        self.club = club


def directs(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    """Whether ``user`` is one of ``club``'s directors."""
    return bool(user.is_authenticated and club.directors.filter(pk=user.pk).exists())


def viewer_directs(viewer: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    """Whether the one viewing a club's page directs it: what the page shows them (a
    director's links, the roster's accounts). A change asks ``access_club_as_director``."""
    return directs(viewer, club)


def access_club_as_director(
    user: AbstractBaseUser | AnonymousUser | None, club: Club | str
) -> Club:
    """The club (a ``Club``, or found by its address), if ``user`` directs it: else
    ``ClubNotFound``, or ``NotDirector`` (with the club, which a refusal names)."""
    if isinstance(club, str):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise ClubNotFound(club)
        club = found
    if user is None or not directs(user, club):
        raise NotDirector(club)
    return club


def check_game_director(game: Game, director: AbstractBaseUser | None, what: str) -> None:
    """Refuse (``what``: "declare a game void"...) unless ``game`` is a club game and
    ``director`` directs its club: a turn kind that is a director's decision asks this."""
    club = game.club
    if club is None:
        raise IllegalAction(
            "not_a_club_game",
            f"Only a club game can be declared void: this is a casual game (to {what} is a "
            "club director's decision).",
        )
    try:
        access_club_as_director(director, club)
    except NotDirector:
        raise IllegalAction(
            "not_a_director", f"Only a director of {club.name} can {what} in this game."
        ) from None
