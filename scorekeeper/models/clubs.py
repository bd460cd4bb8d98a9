"""Clubs, their invitations (to be a player, to direct) and who is a member."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from scorekeeper.models.people import Player


class Club(models.Model):
    """A club: its directors (accounts) and its roster of players. Its games count in its
    standings; a *member* is a director or an account linked to a player on the roster."""

    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, unique=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_clubs", blank=True
    )
    roster = models.ManyToManyField(Player, related_name="clubs", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The club's usual rules, which pre-fill its new games and events ("": none kept; the
    # form's own default). ``default_clock`` is a clock rule as ``Game.clock`` states it.
    default_ruleset = models.CharField(max_length=32, blank=True)
    default_lexicon = models.CharField(max_length=64, blank=True)
    default_challenge_mode = models.CharField(max_length=8, blank=True)
    default_rejected_challenge = models.CharField(max_length=16, blank=True)
    default_clock = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Invitation(models.Model):
    """A club director's invitation to the holder of the account called ``username`` to be
    ``player``: the player is linked to that account only when its holder accepts.

    Kept by username, not by account: inviting a name no account has is stored, and answered,
    exactly as inviting one that exists, so nothing tells a director which usernames exist.
    One invitation per player and club; a new one replaces the last."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150, db_index=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_invitation_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.username} to be {self.player.name} ({self.club.name})"


class DirectorInvitation(models.Model):
    """A club director's invitation to a member's account to direct the club too: the account
    directs it only when its holder accepts. One per club and account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="director_invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="director_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_director_invitation"),
        ]

    def __str__(self) -> str:
        return f"{self.user} to direct {self.club.name}"


def clubs_of(user: Any) -> models.QuerySet[Club]:
    """The clubs ``user`` is a member of: directs, or plays for through a linked player."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    member = models.Q(directors=user) | models.Q(roster__user=user)
    return Club.objects.filter(pk__in=Club.objects.filter(member).values("pk"))
