"""Players (one to a name) and accounts' API tokens; what a usable name is."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.db import models

from scorekeeper.invisible import visible

NAME_MAX = 40  # characters in a player's name


def name_key(name: str) -> str:
    """What makes two names one player: what can be seen of it, Unicode-normalised, spaces
    collapsed, case folded ("A\u200bnn" is Ann).

    Computed here rather than by the database, whose LOWER/UPPER differ between SQLite and
    PostgreSQL and from Python's case rules (for İ, ı and the Kelvin sign, say).
    """
    return unicodedata.normalize("NFKC", " ".join(visible(name).split())).casefold()


COMBINING_RUN = 3  # accents stacked on one letter: more than this is not a name


def name_problem(name: str) -> str | None:
    """Why a name (a player's, a club's) can't be used, or None: nothing to see, invisible or
    control characters (``scorekeeper.invisible``), accents stacked beyond reading."""
    if not visible(name).strip():
        return "A name needs at least one letter or sign that can be seen."
    if visible(name) != name:
        return (
            "A name can't hold invisible or control characters (zero-width spaces, "
            "blank fillers or bidi marks)."
        )
    run = 0
    for ch in name:
        run = run + 1 if unicodedata.combining(ch) else 0
        if run > COMBINING_RUN:
            return "A name can't stack more than three accents on one letter."
    return None


class Player(models.Model):
    """A player, known by name: one player to a name (``name_key``), except the names of an
    imported record that no one with the right to speak for the players of those names
    linked to them (``from_record``): each of those is a player of its own, nobody's."""

    name = models.CharField(max_length=NAME_MAX)
    name_key = models.CharField(max_length=160, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # A name no lookup by name finds and no ranking counts: an upload can't add to the record
    # of the player whose name it uses.
    from_record = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # An account is one player: two answers at the same moment can't both link it.
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(user__isnull=False),
                name="one_player_per_account",
                violation_error_message="This account is another player already.",
            ),
            models.UniqueConstraint(
                fields=["name_key"],
                condition=models.Q(from_record=False),
                name="one_player_per_name",
            ),
        ]
        indexes = [models.Index(fields=["name_key"], name="player_name_key")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        super().save(*args, **kwargs)


class AccountToken(models.Model):
    """A personal token of an account for the JSON API (``Authorization: Bearer <token>``),
    made by ``manage.py account token USERNAME``; only its digest is kept, so a copy of the
    database opens no account."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token"
    )
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"token of {self.user}"
