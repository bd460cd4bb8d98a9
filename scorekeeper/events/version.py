"""An event's version: one number that every change to what its pages show moves on (a game
of the event ends or is corrected after its end, a result typed in, a round paired or taken
back, a swap, a late entry, a withdrawal). The pages answer with it as their ``ETag`` and draw
their parts once a version (``scorekeeper.web.event_parts``), and the event's stream tells its
pages when it moves (``live.news.event_channel``), rather than on every turn at every table.

``do_bump`` is the one place that moves it: a change to an event calls it inside its
transaction, and the screens hear of it once that commits.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from uuid import UUID

from django.db import transaction
from django.db.models import F

from scorekeeper.live.hub import hub
from scorekeeper.live.news import club_channel, event_channel
from scorekeeper.models import (
    Tournament,
)

log = logging.getLogger(__name__)

# What is drawn for an event's pages once it changes, before they hear of it (so that the
# hundreds of phones that fetch the part then find it drawn): set by the web layer
# (``ScorekeeperConfig.ready``).
_drawing: list[Callable[[int], None]] = []


def draw_with(draw: Callable[[int], None]) -> None:
    """Have ``draw(tournament_id)`` draw an event's parts once it has changed, after the
    request that changed it has answered and before its pages hear of it."""
    _drawing[:] = [draw]


def do_bump(tournament_ids: Iterable[int], club_id: int | None = None) -> None:
    """Move the versions of these events on, in the transaction at hand, and once it commits
    tell their pages (the event's channel) and, with ``club_id``, the club's screens."""
    ids = sorted(set(tournament_ids))
    if not ids:
        return
    bumped = Tournament.objects.filter(pk__in=ids)
    bumped.update(version=F("version") + 1)
    versions = dict(bumped.values_list("pk", "version"))  # said with the news: no read a page

    def send() -> None:
        at = round(time.time(), 3)
        for pk, version in versions.items():
            for draw in _drawing:
                try:
                    draw(pk)
                except Exception:  # the pages draw it themselves
                    log.exception("The parts of event %s were not drawn with its news.", pk)
            hub.publish(event_channel(pk), {"event": pk, "version": version, "at": at})
        if club_id is not None:
            hub.publish(club_channel(club_id), {"game": "", "entry": 0, "at": at})

    transaction.on_commit(lambda: hub.soon(send), robust=True)


def do_bump_for_game(game_id: UUID | str) -> None:
    """A game's result changed (it ended, or a turn of a finished game was corrected or
    undone): move on the versions of the events whose table it is (none, for most games)."""
    found = Tournament.objects.filter(round_set__pairings__game_id=game_id)
    do_bump(found.values_list("pk", flat=True).distinct())


def do_bump_for_event(tournament: Tournament) -> None:
    """The event changed: its version moves on (``do_bump``: every event page's
    ``ETag`` and drawn part follow it) and, once the transaction commits, its pages and the
    club's screens hear of it (a game's own changes are announced by the domain). Every
    change to an event calls this, in its transaction."""
    do_bump([tournament.pk], tournament.club_id)


__all__ = ["do_bump", "do_bump_for_event", "do_bump_for_game", "draw_with"]
