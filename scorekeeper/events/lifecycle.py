"""The event itself: tonight's on the club's screen, its date, archived, deleted."""

from __future__ import annotations

from datetime import date as Date

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from referee import IllegalAction
from scorekeeper.events.version import do_bump_for_event
from scorekeeper.games import domain
from scorekeeper.games.errors import Conflict
from scorekeeper.models import (
    Pairing,
    Tournament,
    Turn,
)


# The event itself: tonight's, its date, archived, deleted ---------------------------------------
def do_mark_tonight(tournament: Tournament, on: bool = True) -> Tournament:
    """Make the event tonight's on the club's director's screen (the club's other events are
    then not), or no longer (``on`` False)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        today = timezone.localdate()
        if on and tournament.archived:
            raise IllegalAction("archived", f"{tournament.name} is archived: bring it back first.")
        if on:
            tournament.club.tournaments.filter(tonight=today).exclude(pk=tournament.pk).update(
                tonight=None
            )
        tournament.tonight = today if on else None
        tournament.save(update_fields=["tonight"])
        do_bump_for_event(tournament)
    return tournament


def mark_first_tonight(tournament: Tournament) -> None:
    """An event of today paired when the club has no event marked tonight becomes tonight's:
    the usual evening needs no extra step, and a second event never takes the screen over."""
    today = timezone.localdate()
    first = tournament.date == today and not tournament.archived and tournament.tonight != today
    if first and not tournament.club.tournaments.filter(tonight=today).exists():
        tournament.tonight = today
        tournament.save(update_fields=["tonight"])


def do_change_event(
    tournament: Tournament, *, date: Date | None = None, archived: bool | None = None
) -> Tournament:
    """Set the event's date, or archive it (kept and read, off the club's list and its
    director's screen) or bring it back."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        changed = []
        if date is not None:
            tournament.date = date
            changed.append("date")
        if archived is not None:
            tournament.archived = archived
            changed.append("archived")
            if archived:
                tournament.tonight = None
                changed.append("tonight")
        if changed:
            tournament.save(update_fields=changed)
            do_bump_for_event(tournament)
    return tournament


def check_no_results(tournament: Tournament) -> None:
    """Refuse to delete an event with a result: a game begun or ended, typed in, or forfeit."""
    pairings = Pairing.objects.filter(round__tournament=tournament, second__isnull=False)
    kept = pairings.filter(Q(first_score__isnull=False) | Q(absent__isnull=False))
    begun = Turn.objects.filter(game__pairing__round__tournament=tournament)
    if kept.exists() or begun.exists():
        raise Conflict(
            "has_results",
            f"{tournament.name} has results: archive it instead (an event is deleted only "
            "before any result).",
        )


def do_delete_tournament(tournament: Tournament) -> str:
    """Delete an event that has no result yet (a test, a mistake): its rounds' games are taken
    away through the domain, then the event with its players' entries. Returns its name."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        check_no_results(tournament)
        games = Pairing.objects.filter(round__tournament=tournament, game__isnull=False)
        for game_id in games.values_list("game_id", flat=True):
            domain.do_remove_game(game_id)
        name = tournament.name
        do_bump_for_event(tournament)
        tournament.delete()
    return name
