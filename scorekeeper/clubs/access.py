"""Who directs a club: the one check every director's page, API route and domain refusal
asks (``membership`` re-exports it; the turn kinds' void asks it here, below the domain)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from scorekeeper.models import Club


def directs(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    """Whether ``user`` is one of ``club``'s directors."""
    return bool(user.is_authenticated and club.directors.filter(pk=user.pk).exists())
