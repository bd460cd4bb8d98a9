"""What a change says to the screens, and what a screen missed.

Every change to a game is one entry of its log (a turn, a challenge, an undo, a correction,
the end), so the news is numbered as the log is: an event's id is its entry's number
(``Turn.number``, the game's ``last_entry_number`` once it committed). A screen that reconnects says
the last number it got (``Last-Event-ID``) and is sent the entries after it, from the record.

An event's data, as JSON::

    {"game": "<id>", "entry": 12, "action": "play", "player": "Ann", "notation": "5D WOOD",
     "score": 14, "totals": [120, 98], "at": 1767225600.123}

``at`` is when the change committed (seconds since 1970, UTC): a screen can tell how late it
heard. An event may also carry ``part``, the spectator's live part drawn where the change
committed (``draw_with``), when a screen anywhere shows it (``Hub.wants_drawn``); a stream
sends it only to such screens. The club's channel carries ``{"game", "entry", "at"}`` for each
of its games.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Protocol
from uuid import UUID

from django.db import close_old_connections, connection, transaction
from django.db.models import Count, Max

from scorekeeper.live.hub import hub, read_changes_with
from scorekeeper.models import Game, Seat, Tournament, Turn

if TYPE_CHECKING:
    from referee import GameState

log = logging.getLogger(__name__)

# A game as a change stored it: its row, its seats (each with its player), the engine's state.
Stored = tuple[Game, Sequence[Seat], "GameState"]

CATCH_UP_MOST = 200  # entries a screen is sent to catch up; further behind, it reloads


def game_channel(game_id: UUID | str) -> str:
    return f"game:{game_id}"


def club_channel(club_id: int) -> str:
    return f"club:{club_id}"


def event_channel(tournament_id: int) -> str:
    """An event's own changes (``events.version``): what its pages follow."""
    return f"event:{tournament_id}"


def event_version(tournament_id: int) -> int | None:
    """The event's version (``Tournament.version``); None if there is no such event."""
    found = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True)
    return found.first()


# A log entry's fields that its event says, with its player's name, as the record's reads take
# them (``values_list``, one query: no model built for each, as thousands are read a second at
# a club night's scale).
EVENT_FIELDS = (
    "game_id", "number", "action", "seat_id", "notation", "score", "totals", "created_at",
    "seat__player__name",
)  # fmt: skip


def event_of(turn: Turn, names: dict[int, str], at: float) -> dict[str, Any]:
    """The event for one log entry; ``names`` are the players' names by their seats' ids."""
    row = (turn.game_id, turn.number, turn.action, turn.seat_id, turn.notation, turn.score,
           turn.totals, None, names.get(turn.seat_id, ""))  # fmt: skip
    return _event(row, at)


def _event(row: tuple[Any, ...], at: float | None = None) -> dict[str, Any]:
    """The event for an entry read as ``EVENT_FIELDS``; at ``at``, else when it was logged."""
    game_id, number, action, _seat, notation, score, totals, created_at, name = row
    return {
        "game": str(game_id),
        "entry": number,
        "action": action,
        "player": name or "",
        "notation": notation,
        "score": score,
        "totals": totals,
        "at": round(at if at is not None else created_at.timestamp(), 3),
    }


class Drawer(Protocol):
    """What draws a screen's part (the spectator's live part) as a game stands, given its id
    and, for a change pushed, the number of the log's entry that committed; None if it
    can't be had. ``stored``: the game, its seats and its state as that change stored them,
    where they are at hand (drawn from them, the record is not read again)."""

    def __call__(
        self, game_id: str, entry: int | None = None, stored: Stored | None = None
    ) -> str | None: ...


# What is drawn for the screens where a change commits: set by the web layer
# (``ScorekeeperConfig.ready``).
_drawing: list[Drawer] = []


def draw_with(draw: Drawer) -> None:
    """Have ``draw`` draw each change's part where it commits, once for every screen, when a
    screen anywhere shows it (``Hub.wants_drawn``: with a broker, or a folder of parts the
    processes share); else each process that serves such a screen draws it for its own."""
    _drawing[:] = [draw]


def announce(
    game: Game, turn: Turn | None, seats: Sequence[Seat], state: GameState | None = None
) -> None:
    """Tell every screen of ``game`` (and its club's director) about ``turn`` once the
    transaction commits; a new game (``turn`` None) is news for its club only. ``state``: the
    engine's state this change stores, given when ``game`` and ``seats`` are as it stores them
    too; the part pushed with the news is then drawn from them (``Drawer``)."""
    names = {seat.pk: seat.player.name for seat in seats}
    game_id, club_id = game.pk, game.club_id
    stored = None if state is None else (game, seats, state)

    def send(at: float) -> None:
        if turn is not None:
            channel, event = game_channel(game_id), event_of(turn, names, at)
            if _drawing and hub.wants_drawn(channel):
                try:
                    part = _drawing[0](str(game_id), turn.number, stored)
                except Exception:  # the news goes without it: the screens draw their own
                    log.exception("The part of game %s was not drawn with its news.", game_id)
                    part = None
                if part is not None:
                    event["part"] = part
            hub.publish(channel, event)
        if club_id is not None:
            entry = turn.number if turn is not None else 0
            hub.publish(club_channel(club_id), {"game": str(game_id), "entry": entry, "at": at})

    # Sent once the request that committed it has answered (``Hub.soon``); outside one, at once.
    transaction.on_commit(lambda: hub.soon(functools.partial(send, time.time())), robust=True)


def latest_entry(game_id: UUID) -> int | None:
    """The number of the game's latest log entry; None if there is no such game. Read as
    written (each screen's stream opens with it: when a server restarts, thousands at once),
    not built by the ORM for each."""
    key = Game._meta.pk.get_db_prep_value(game_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(_LATEST_ENTRY, [key])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


_LATEST_ENTRY = (
    f"SELECT {Game._meta.get_field('last_entry_number').column} FROM {Game._meta.db_table} "
    f"WHERE {Game._meta.pk.column} = %s"
)


def club_version(club_id: int) -> str:
    """What the director's screen shows of a club's games, as one word that changes with any
    of them (a turn, a new game, one finished): the page says the one it was drawn at, and
    its stream sends it a refresh only if the club's games changed since (``ClubStream``)."""
    seen = Game.objects.filter(club_id=club_id).aggregate(
        latest=Max("updated_at"), games=Count("pk")
    )
    latest = seen["latest"]
    return f"{seen['games']}.{latest.timestamp() if latest else 0}"


def missed(game_id: UUID | str, after: int) -> list[dict[str, Any]] | None:
    """The events after entry ``after``, in order, from the record; None if there are more
    than ``CATCH_UP_MOST`` (the screen reloads instead)."""
    entries = Turn.objects.filter(game_id=game_id, number__gt=after).order_by("number")
    turns = list(entries.values_list(*EVENT_FIELDS)[: CATCH_UP_MOST + 1])
    if len(turns) > CATCH_UP_MOST:
        return None
    return [_event(turn) for turn in turns]


# Where ``changes`` has read the log to (``known``'s entry under this key): the last entry's id.
READ_TO = "#read-to"


def changes(
    games: Collection[str],
    clubs: Collection[int],
    known: dict[str, int],
    since: float,
    events: Collection[int] = (),
) -> list[tuple[str, dict[str, Any]]]:
    """What changed in the record, for these games and clubs, since about ``since`` (a time):
    (channel, message) pairs, each game's entries past the last ``known`` one (which it
    updates) and a note on a club's channel for each of its games that changed. For
    processes with no broker to hear each other through (the hub's record watch, whose
    thread keeps its connection, let go when it grows old, as a request's is); a screen skips
    what it has. Each query is as long as what changed, not as the thousands followed.

    A followed game's entries are found two ways. Where one transaction writes at a time
    (SQLite), entries are numbered (their ids) in the order they commit: each call reads the
    entries past the last it read (``READ_TO`` in ``known``), each once. Elsewhere, it reads
    the entries of the games changed lately (by their ``updated_at`` index), with a margin for
    commits that lag their stamp. A club's games are the games changed lately. An event's
    version is read as it stands (one query for all the events followed): a note on its
    channel when it moved past the one ``known``."""
    from datetime import UTC, datetime, timedelta

    after = datetime.fromtimestamp(since, tz=UTC) - timedelta(seconds=2)  # commits lag saves
    watched, clubbed = set(games), set(clubs)
    found: list[tuple[str, dict[str, Any]]] = []
    if not connection.in_atomic_block:
        close_old_connections()
    moved = []
    recent = set()
    in_order = connection.vendor == "sqlite"  # one transaction writes at a time
    if clubbed or not in_order:
        lately = Game.objects.filter(updated_at__gte=after).order_by()
        for pk, entry, club_id in lately.values_list("pk", "last_entry_number", "club_id"):
            key = str(pk)
            if key in watched and entry > known.get(key, 0):
                moved.append(pk)
            if club_id in clubbed:
                recent.add(f"club:{key}")
                if known.get(f"club:{key}") != entry:
                    known[f"club:{key}"] = entry
                    found.append(
                        (club_channel(club_id), {"game": key, "entry": entry, "at": since})
                    )
    followed_events = {f"event:{pk}" for pk in events}
    found += _event_versions(events, known, since)
    # What is known is kept while it can come again: a followed game's last entry, a club's
    # game's while it is among the games changed lately (else its note would be sent again),
    # a followed event's version.
    kept = recent | watched | followed_events | {READ_TO}
    for key in [k for k in known if k not in kept]:
        del known[key]
    if in_order:
        entries = Turn.objects.order_by("pk")
        if READ_TO in known:
            entries = entries.filter(pk__gt=known[READ_TO])
        else:  # the first read: from the last entry, and the entries of lately up to it
            last = Turn.objects.order_by("-pk").values_list("pk", flat=True).first()
            known[READ_TO] = last or 0
            entries = entries.filter(pk__lte=known[READ_TO], created_at__gte=after)
        rows = []
        for turn_id, *row in entries.values_list("pk", *EVENT_FIELDS):
            known[READ_TO] = max(known[READ_TO], turn_id)
            if str(row[0]) in watched:
                rows.append(row)
    elif moved:
        entries = Turn.objects.filter(game_id__in=moved, created_at__gte=after)
        rows = list(entries.order_by("number").values_list(*EVENT_FIELDS))
    else:
        rows = []
    for turn in rows:
        key, number = str(turn[0]), turn[1]
        if number > known.get(key, 0):
            known[key] = number
            found.append((game_channel(key), _event(turn)))
    return found


def event_changes(
    events: Collection[int], known: dict[str, int], since: float
) -> list[tuple[str, dict[str, Any]]]:
    """What ``changes`` says of these events alone, in one query: a note on an event's channel
    when its version moved past the one ``known`` (which it updates). Read more often than the
    rest (``hub.EVENT_WATCH_SECONDS``), since hundreds of phones wait on an event's news."""
    if not connection.in_atomic_block:
        close_old_connections()
    return _event_versions(events, known, since)


def _event_versions(
    events: Collection[int], known: dict[str, int], since: float
) -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    if not events:
        return found
    versions = Tournament.objects.filter(pk__in=list(events)).values_list("pk", "version")
    for event_id, version in versions:
        key = f"event:{event_id}"
        if key in known and known[key] != version:
            news = {"event": event_id, "version": version, "at": since}
            found.append((event_channel(event_id), news))
        known[key] = version
    return found


__all__ = [
    "changes",
    "CATCH_UP_MOST",
    "announce",
    "club_channel",
    "club_version",
    "Drawer",
    "draw_with",
    "event_changes",
    "event_channel",
    "event_of",
    "event_version",
    "game_channel",
    "latest_entry",
    "missed",
]


read_changes_with(changes, event_changes)  # the record watch of a process with no broker
