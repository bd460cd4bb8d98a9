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
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scorekeeper.events.reads import (
    Division,
    ListedRow,
    Table,
    division_standings,
    divisions_from,
    latest_tables,
    listed_standings,
    names_of,
    read_entrants,
    read_results,
    rules_of,
)
from scorekeeper.models import Tournament, name_key
from scorekeeper.templatetags.event_figures import games

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


def seats_of(number: int, tables: list[Table]) -> list[Seating]:
    """Each player of the latest round (``number``): their name, table, seat and opponent."""
    seats = []
    for table in tables:
        first, second = table.first, table.second
        seats.append(Seating(number, table.table, "first" if second else "", second, first))
        if second:
            seats.append(Seating(number, table.table, "second", first, second))
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
    """One division as the live part shows it: its name ("" when the event has one), and
    the latest round's tables and the standings' rows as HTML (``_tables_html``,
    ``_rows_html``)."""

    name: str
    current: bool  # whether the latest round has tables in this division
    tables_html: SafeString
    rows_html: SafeString


# The live part's lists, a line for each of hundreds of tables and players, written here rather
# than by the template (``events/_live.html``), whose tags cost some ten times as much a line.
_TABLE = (
    '\n    <li class="card"><span class="table-no">Table {table}</span> {first} '
    '<span class="muted">(first)</span> v {second}{result}{watch}</li>\n  '
)
_BYE = '\n    <li class="card">{first}: bye</li>\n  '
_ROW = (
    "\n      <tr{withdrawn}>\n"
    '        <td class="num rank">{rank}</td>\n'
    '        <th scope="row"><a href="{card}">{name}</a>{gibson}{withdrawn_tag}</th>\n'
    '        <td class="num" data-label="wins">{wins}</td>\n'
    '        <td class="num" data-label="losses">{losses}</td>\n'
    '        <td class="num" data-label="spread">{spread}</td>\n'
    '        <td class="num" data-label="rating">{rating}</td>\n'
    "      </tr>\n    "
)
_NOBODY = '\n      <tr><td colspan="6">Nobody is entered yet.</td></tr>\n    '
_MARK = "987654321"
_GAME_MARK = "00000000-0000-4000-8000-000000000000"


def _url_around(name: str, *args: object, mark: str) -> tuple[str, str]:
    """The URL named ``name`` before and after the argument drawn as ``mark``, escaped: a
    URL for each of hundreds of lines without resolving each."""
    before, after = reverse(name, args=args).split(mark)
    return escape(before), escape(after)


def _tables_html(tables: list[Table]) -> str:
    before, after = _url_around("watch", _GAME_MARK, mark=_GAME_MARK)
    lines = []
    for t in tables:
        if not t.table:
            lines.append(_BYE.format(first=escape(t.first)))
            continue
        result = f' <strong class="table-result">{escape(t.result)}</strong>' if t.result else ""
        watch = f' <a href="{before}{t.game_id}{after}">watch</a>' if t.game_id else ""
        lines.append(
            _TABLE.format(
                table=t.table,
                first=escape(t.first),
                second=escape(t.second),
                result=result,
                watch=watch,
            )
        )
    return "".join(lines)


def _rows_html(tournament_id: int, rows: list[ListedRow]) -> str:
    if not rows:
        return _NOBODY
    before, after = _url_around("event_scorecard", tournament_id, _MARK, mark=_MARK)
    lines = []
    for row in rows:
        standing = row.standing
        rating = str(row.rating_before) if row.rating_before else "unrated"
        if row.rating_after != row.rating_before or not row.rating_before and row.rating_after:
            rating += f" → {row.rating_after}"
        lines.append(
            _ROW.format(
                withdrawn="" if row.active else ' class="withdrawn"',
                rank=escape(standing.rank),
                card=f"{before}{row.number}{after}",
                name=escape(standing.player.name),
                gibson=' <span class="tag">Gibson</span>' if row.gibsonized else "",
                withdrawn_tag="" if row.active else ' <span class="tag">withdrawn</span>',
                wins=escape(games(standing.wins)),
                losses=escape(games(standing.losses)),
                spread=f"+{standing.spread}" if standing.spread > 0 else str(standing.spread),
                rating=rating,
            )
        )
    return "".join(lines)


# Each division's standings as last drawn here, by event: a game's end changes one division,
# and the others' are taken as they were (``Division``s equal, the same rows) rather than drawn.
_divisions: OrderedDict[tuple[int, datetime], dict[str, tuple[tuple[Any, ...], str]]] = (
    OrderedDict()
)
DIVISIONS_KEPT = 64  # events


def _standings_html(tournament: Tournament, division: Division) -> str:
    """The division's standings' rows as HTML: as drawn last time when nothing they are drawn
    from has changed since."""
    inputs = (division, rules_of(tournament), tournament.rounds)
    event = (tournament.pk, tournament.created_at)
    with _serving:
        kept = _divisions.get(event, {}).get(division.name)
    if kept is not None and kept[0] == inputs:
        return kept[1]
    html = _rows_html(tournament.pk, listed_standings(tournament, division))
    with _serving:
        _divisions.setdefault(event, {})[division.name] = (inputs, html)
        _divisions.move_to_end(event)
        while len(_divisions) > DIVISIONS_KEPT:
            _divisions.popitem(last=False)
    return html


def _draw_live(tournament: Tournament) -> LivePart:
    number, tables, gibsonized = latest_tables(tournament)
    # The entrants and results as plain rows: hundreds of players' rounds, no model for each.
    entrants, results = read_entrants(tournament), read_results(tournament)
    divisions = []
    for division in divisions_from(entrants, results, gibsonized):
        ids = {entrant.competitor.id for entrant in division.entrants}
        current = [table for table in tables if table.first_id in ids]
        divisions.append(
            DivisionView(
                division.name,
                bool(current),
                mark_safe(_tables_html(current)),  # noqa: S308 - each name escaped
                mark_safe(_standings_html(tournament, division)),  # noqa: S308 - each escaped
            )
        )
    context = {
        "tournament": tournament,
        "divisions": divisions,
        "current_round": number,
    }
    html = render_to_string("events/_live.html", context)
    gzipped = gzip.compress(html.encode(), compresslevel=6, mtime=0)
    return LivePart(tournament.version, html, gzipped, seats_of(number, tables))


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
