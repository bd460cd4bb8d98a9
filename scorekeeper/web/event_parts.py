"""An event's public parts, drawn once a version of the event (``Tournament.version``) and
kept in the cache every worker shares: the live part (each division's tables of the latest
round and its standings) with where each player sits ("find my table"), and each player's
scorecard, drawn when someone asks for it. A page's cost is then one cache read, however many
players and rounds; only the first page after a change draws, and while it draws the others
wait for it a moment rather than draw it too.
"""

from __future__ import annotations

import gzip
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.core.cache import cache
from django.template.loader import render_to_string

from scorekeeper.events.reads import (
    Row,
    division_standings,
    latest_round,
    names_of,
    read_results,
    result_shown,
)
from scorekeeper.models import Pairing, Tournament, name_key

KEEP_SECONDS = 6 * 3600  # a version's parts are kept as long as an evening's play
DRAWING_SECONDS = 10  # how long one drawer holds the others off
WAIT_SECONDS = 2.0  # how long a page waits for another's drawing before it draws its own
POLL_SECONDS = 0.02  # how often it looks meanwhile
T = TypeVar("T")


@dataclass(frozen=True)
class Seating:
    """Where a player sits in the latest round, for "find my table"."""

    round: int
    table: int | None  # None: the bye
    seat: str  # "first", "second" or "" for the bye
    opponent: str
    name: str = ""  # the player's name, as entered


@dataclass(frozen=True)
class LivePart:
    """The event's live part as one version of it stands, gzipped once for every phone that
    takes it so, and its latest round's seats by each player's name (``name_key``)."""

    version: int
    html: str
    gzipped: bytes
    seats: list[Seating]


def seats_of(rounds: Mapping[int, list[Pairing]]) -> list[Seating]:
    """Each player of the latest round: their name, table, seat and opponent."""
    if not rounds:
        return []
    number = max(rounds)
    seats = []
    for pairing in rounds[number]:
        first = pairing.first.player.name
        second = pairing.second.player.name if pairing.second else ""
        seats.append(Seating(number, pairing.table, "first" if second else "", second, first))
        if second:
            seats.append(Seating(number, pairing.table, "second", first, second))
    return seats


def find_table(seats: list[Seating], name: str) -> list[Seating]:
    """Where the players ``name`` fits sit in the latest round: the player of that full name,
    else every player a part of whose name starts with it ("ann", "archer", "arch"), any
    case; each with their name, so a partial name that fits several lists them all."""
    key = name_key(name)
    if not key.strip():
        return []
    whole = [seating for seating in seats if name_key(seating.name) == key]
    if whole:
        return whole
    words = key.split()
    return [
        seating
        for seating in seats
        if all(
            any(part.startswith(word) for part in name_key(seating.name).split()) for word in words
        )
    ]


@dataclass(frozen=True)
class DivisionView:
    """One division as the live part shows it: its name ("" when the event has one), the
    latest round's tables and the standings."""

    name: str
    current: list[tuple[Pairing, str]]  # the latest round's tables, each with its result
    rows: list[Row]


def _draw_live(tournament: Tournament) -> LivePart:
    number, current = latest_round(tournament)
    divisions = []
    # The results as plain rows: hundreds of players' rounds, no model built for each.
    for name, rows in division_standings(tournament, read_results(tournament)):
        ids = {row.entrant.pk for row in rows}
        tables = [(p, result_shown(p)) for p in current if p.first_id in ids]
        divisions.append(DivisionView(name, tables, rows))
    context = {
        "tournament": tournament,
        "divisions": divisions,
        "current_round": number,
    }
    html = render_to_string("events/_live.html", context)
    gzipped = gzip.compress(html.encode(), compresslevel=6, mtime=0)
    return LivePart(
        tournament.version, html, gzipped, seats_of({number: current} if number else {})
    )


def _key(tournament_id: int, version: int, made: datetime) -> str:
    # Its making's moment too: an event deleted and another made may share its number.
    return f"event:{tournament_id}:{made.timestamp()}:{version}"


def stamp_of(tournament_id: int) -> tuple[int, datetime] | None:
    """The event's version and when it was made, in one read: what names its parts (None if
    there is no such event)."""
    found = Tournament.objects.filter(pk=tournament_id).values_list("version", "created_at")
    return found.first()


# The latest parts this process served, by their keys (a version's part never changes): the
# hundreds of phones that fetch one after a change read it from memory, not the shared cache.
_served: OrderedDict[str, LivePart] = OrderedDict()
SERVED_KEPT = 32
_serving = threading.Lock()


@dataclass(frozen=True)
class Latest:
    """The latest version of an event's live part this process served, when it was made, and
    when the record last said that version was the event's (``time.monotonic``)."""

    part: LivePart
    made: datetime
    read_at: float


# Each event's ``Latest``, for the part answered before Django (``event_early``), by event.
_latest: OrderedDict[int, Latest] = OrderedDict()
LATEST_KEPT = 64


def live_part(tournament: Tournament) -> LivePart:
    """The live part of ``tournament`` at its version (as read with it)."""
    return live_part_at(tournament.pk, tournament.version, tournament.created_at, tournament)


def live_part_at(
    tournament_id: int, version: int, made: datetime, tournament: Tournament | None = None
) -> LivePart:
    """The live part of the event at ``version`` (``stamp_of``'s): from this process's memory
    when it served it already, with no other read."""
    key = f"{_key(tournament_id, version, made)}:live"
    found = _served.get(key)
    if found is None:

        def draw() -> LivePart:
            shown = tournament or Tournament.objects.select_related("club").get(pk=tournament_id)
            return _draw_live(shown)

        found = _once(key, draw)
        with _serving:
            _served[key] = found
            while len(_served) > SERVED_KEPT:
                _served.popitem(last=False)
    with _serving:  # the version was read from the record just now, by whoever called
        kept = _latest.get(tournament_id)
        if kept is None or kept.made != made or kept.part.version <= version:
            _latest[tournament_id] = Latest(found, made, time.monotonic())
            _latest.move_to_end(tournament_id)
            while len(_latest) > LATEST_KEPT:
                _latest.popitem(last=False)
    return found


def latest(tournament_id: int) -> Latest | None:
    """The latest version of the event's live part this process served, if any."""
    return _latest.get(tournament_id)


def read_latest(tournament_id: int) -> None:
    """The event's version read from the record, and its live part at that version taken
    into this process's memory (``latest``), drawn if no process has drawn it."""
    stamp = stamp_of(tournament_id)
    if stamp is None:
        forget(tournament_id)
    else:
        live_part_at(tournament_id, *stamp)


def hold(tournament_id: int, version: int) -> None:
    """The event's part at ``version`` or later taken into this process's memory (news of it
    came from another process: ``hub.hold_events_with``) once the process where it changed
    has drawn it (waiting up to ``WAIT_SECONDS``; never drawn here, so not twice), so that
    the phones that hear the news here find it there."""
    kept = latest(tournament_id)
    if kept is not None and kept.part.version >= version:
        return
    stamp = stamp_of(tournament_id)
    if stamp is None:
        forget(tournament_id)
        return
    now, made = stamp
    key = f"{_key(tournament_id, now, made)}:live"
    deadline = time.monotonic() + WAIT_SECONDS
    while (found := cache.get(key)) is None and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
    if found is not None:
        live_part_at(tournament_id, now, made)  # from the cache, into memory


def forget(tournament_id: int) -> None:
    """The event is gone (deleted): this process serves no part of it from memory."""
    with _serving:
        _latest.pop(tournament_id, None)


def draw_for(tournament_id: int) -> None:
    """The event's live part drawn and kept at its version now, if it is not already (the
    moment it changed, before its pages hear of it: ``draw_with``)."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is not None:
        live_part(tournament)


def scorecard(tournament: Tournament, number: int) -> str | None:
    """The scorecard of the event's player ``number`` (their entry's number) as HTML; None
    if there is no such player."""
    key = f"{_key(tournament.pk, tournament.version, tournament.created_at)}:card:{number}"
    return _once(key, lambda: _draw_scorecard(tournament, number))


def _draw_scorecard(tournament: Tournament, number: int) -> str | None:
    for division, rows in division_standings(tournament, read_results(tournament)):
        for row in rows:
            if row.entrant.number != number:
                continue
            names = names_of(tournament)
            card = row.standing.scorecard
            lines = [(line, names.get(line.opponent or 0, "")) for line in card]
            context = {"tournament": tournament, "row": row, "lines": lines, "division": division}
            return render_to_string("events/_scorecard.html", context)
    return None


_MISSING = object()


def _once(key: str, draw: Callable[[], T]) -> T:
    """What ``key`` keeps, else drawn by ``draw`` and kept: by one page at a time, the others
    waiting for it up to ``WAIT_SECONDS`` (then each draws its own)."""
    found: Any = cache.get(key, _MISSING)
    if found is not _MISSING:
        return found  # type: ignore[no-any-return]
    if not cache.add(f"{key}:drawing", 1, DRAWING_SECONDS):
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            found = cache.get(key, _MISSING)
            if found is not _MISSING:
                return found  # type: ignore[no-any-return]
    drawn = draw()
    cache.set(key, drawn, KEEP_SECONDS)
    cache.delete(f"{key}:drawing")
    return drawn


__all__ = [
    "Latest",
    "LivePart",
    "Seating",
    "draw_for",
    "find_table",
    "forget",
    "hold",
    "latest",
    "live_part",
    "live_part_at",
    "read_latest",
    "scorecard",
    "seats_of",
    "stamp_of",
]
