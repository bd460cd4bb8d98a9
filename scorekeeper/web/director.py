"""The director's screen for a club night (``/clubs/<slug>/live``): every game of the club in
play, with its players and scores, whose turn it is, the last turn and how long ago it was,
the stalled ones marked, and the club's standings beside them; for a phone or a laptop. While
a club's event runs, its current round's tables and its standings come first
(``event_screen``).
``/clubs/<slug>/live/projector`` shows the same for a projector, a page at a time.

The page refreshes its live part (``/clubs/<slug>/live/tables``) every few seconds; an
unchanged refresh is answered 304 from one aggregate query (the club's games' latest change,
and the minute, since "4 min ago" and stalling move with the clock).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.db.models import Count, F, Max, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import condition, require_GET

from referee import InputError
from scorekeeper.events.reads import event_stamp
from scorekeeper.games.clocks import is_waiting
from scorekeeper.games.replay import turn_phrase
from scorekeeper.games.turn_kinds import describe
from scorekeeper.live.news import club_version
from scorekeeper.models import Club, Game, Seat, Turn
from scorekeeper.stats.standings import club_standings
from scorekeeper.web.clock_faces import clock_faces
from scorekeeper.web.clubs import get_club
from scorekeeper.web.event_screen import event_screen
from scorekeeper.web.shortcuts import error_page, query_whole

LIVE = (Game.Status.IN_PROGRESS, Game.Status.AWAITING_RACKS)
STALL_MOST = 240  # minutes: the longest stall a night may set with ?stall=
TONIGHT = timedelta(hours=12)  # finished games listed as "finished tonight"
PROJECTOR_LINES = 8  # standings lines, or finished games, in one piece of the projector's page
PROJECTOR_PAGE_SECONDS = 12  # how long the projector shows a page when all doesn't fit at once
T = TypeVar("T")


@dataclass(frozen=True)
class Table:
    """One game in play as the director's screen shows it."""

    game: Game
    seats: list[Seat]
    to_move: Seat | None  # None while the game waits for the racks
    last: str  # the last log entry's sentence, or "" before the first turn
    since: datetime  # when the last turn was entered (the start, before any)
    minutes: int
    stalled: bool
    turn: str  # "turn 12", as players count
    clock: dict[str, Any] | None  # a clocked game's clocks (``clock_faces``)


def stall_minutes(request: HttpRequest) -> int:
    """How long without a turn marks a game stalled: ``?stall=`` (1 to 240 minutes) for the
    night, else the STALL_MINUTES setting."""
    asked = query_whole(request.GET.get("stall"), STALL_MOST, ("stall", "stalls"))
    if asked == 0:
        raise InputError("bad_number", f"A stall is 1 to {STALL_MOST} minutes.")
    return asked or settings.STALL_MINUTES


def table_order(table: Table) -> tuple[bool, int, datetime, str]:
    """Where a game stands among the club's tables: by its table's number (those without one
    after), then by when it started; never by its last turn, so a card stays where the room
    last saw it."""
    number = table.game.table_number
    return (number is None, number or 0, table.game.created_at, str(table.game.pk))


def live_tables(club: Club, stall: int, now: datetime) -> list[Table]:
    """The club's games in play in their tables' order (``table_order``): three queries
    however many."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
    games = list(club.games.filter(status__in=LIVE).prefetch_related(seats))
    last_turns = {
        turn.game_id: turn
        for turn in Turn.objects.filter(
            game__in=[g.pk for g in games], number=F("game__last_entry_number")
        ).select_related("game", "seat__player", "target__seat__player")
    }
    tables = []
    for game in games:
        seated = list(game.seats.all())
        last = last_turns.get(game.pk)
        since = last.created_at if last else game.created_at
        minutes = max(0, int((now - since).total_seconds() // 60))
        in_play = game.status == Game.Status.IN_PROGRESS and seated
        tables.append(
            Table(
                game=game,
                seats=seated,
                to_move=seated[game.to_move] if in_play else None,
                last=describe(last) if last else "",
                since=since,
                minutes=minutes,
                stalled=minutes >= stall,
                turn="waiting for the table" if is_waiting(game) else turn_phrase(game),
                clock=clock_faces(game, [s.player.name for s in seated]),
            )
        )
    tables.sort(key=table_order)
    return tables


def _etag(request: HttpRequest, slug: str) -> str | None:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        return None
    try:
        stall = stall_minutes(request)
    except InputError:
        return None
    seen = club.games.aggregate(latest=Max("updated_at"), games=Count("pk"))
    minute = timezone.now().strftime("%Y%m%d%H%M")
    games = f"{seen['games']}-{seen['latest'] and seen['latest'].timestamp()}"
    return f"{games}-{minute}-{stall}-{event_stamp(club)}"


def _context(request: HttpRequest, club: Club) -> dict[str, Any]:
    # Read before the tables: a change committed in between makes the stream refresh them.
    version = club_version(club.pk)
    now = timezone.now()
    stall = stall_minutes(request)
    finished = list(
        club.games.filter(status=Game.Status.FINISHED, finished_at__gte=now - TONIGHT)
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        )
        .order_by("-finished_at")
    )
    event = event_screen(club)
    tables = live_tables(club, stall, now)
    if event is not None:  # the event's games are shown at its tables
        tables = [table for table in tables if table.game.pk not in event.game_ids]
    return {
        "club": club,
        "event": event,
        "tables": tables,
        "finished": finished,
        "standings": club_standings(club),
        "stall": stall,
        "now": now,
        "version": version,
        "poll": settings.LIVE_POLL_SECONDS,  # while push is not open (static/js/live.js)
        "heartbeat": settings.PUSH_HEARTBEAT_SECONDS,  # a stream silent longer is down
    }


def in_blocks(items: list[T], size: int) -> list[list[T]]:
    """``items`` a few at a time, in order: each block is one piece of the projector's pages."""
    return [items[i : i + size] for i in range(0, len(items), size)]


def _projector_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    context = _context(request, club)
    context["finished_blocks"] = in_blocks(context["finished"], PROJECTOR_LINES)
    event = context["event"]
    # While an event runs the room follows its standings alone: the club's running standings
    # (which leave out byes and typed results) would contradict them page by page.
    context["standings_blocks"] = [
        (table, lines)
        for table in ([] if event else context["standings"])
        for lines in in_blocks(table.lines, PROJECTOR_LINES)
    ]
    context["event_blocks"] = [
        (name, lines)
        for name, rows in (event.divisions if event else [])
        for lines in in_blocks(rows, PROJECTOR_LINES)
    ]
    context["page_seconds"] = PROJECTOR_PAGE_SECONDS
    return context


def _answer(
    request: HttpRequest,
    slug: str,
    template: str,
    context_of: Callable[[HttpRequest, Club], dict[str, Any]],
) -> HttpResponse:
    club = get_club(slug)
    try:
        context = context_of(request, club)
    except InputError as error:
        return error_page(request, 400, "Not a stall time", error.message)
    return render(request, template, context)


@require_GET
def live(request: HttpRequest, slug: str) -> HttpResponse:
    return _answer(request, slug, "clubs/live.html", _context)


@require_GET
@condition(etag_func=_etag)
def live_part(request: HttpRequest, slug: str) -> HttpResponse:
    response = _answer(request, slug, "clubs/_live_tables.html", _context)
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The director's screen for a projector (``/clubs/<slug>/live/projector``): no site
    menu, large type, and what doesn't fit on the screen at once shown a page at a time."""
    return _answer(request, slug, "clubs/projector.html", _projector_context)


@require_GET
@condition(etag_func=_etag)
def projector_part(request: HttpRequest, slug: str) -> HttpResponse:
    response = _answer(request, slug, "clubs/_projector_tables.html", _projector_context)
    response["Cache-Control"] = "no-cache"
    return response
