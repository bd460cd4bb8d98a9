"""The streams a screen keeps open to hear of changes the moment they commit (Server-Sent
Events): ``/games/<id>/events`` for the spectator screen and the scorer's page,
``/clubs/<slug>/events`` for the director's screen and ``/tournaments/<id>/events`` for an
event's pages. What they send is in
``scorekeeper.live.stream``.

Served by the event loop under ASGI (the production server: thousands of open streams a
process, each a small queue) and by a thread under WSGI (``make run``, the tests' live
server), where ``PUSH_THREAD_STREAMS`` bounds how many threads may wait at once. A stream
refused for want of room is a 503: the page then polls, as it does wherever push is off.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET

from config.clients import stream_room
from scorekeeper.live.hub import hub
from scorekeeper.live.news import event_version, latest_entry
from scorekeeper.live.stream import (
    ClubStream,
    EventStream,
    GameStream,
    Stream,
    events_async,
    events_sync,
)
from scorekeeper.web.clubs import get_club
from scorekeeper.web.live_parts import kept_part, pushed_part

_ENTRY = re.compile(r"^[0-9]{1,7}$")


def _plain(status: int, text: str, **headers: str) -> HttpResponse:
    response = HttpResponse(text + "\n", status=status, content_type="text/plain; charset=utf-8")
    for name, value in headers.items():
        response[name] = value
    return response


def _stream(request: HttpRequest, stream: Stream) -> HttpResponseBase:
    served_by_loop = isinstance(request, ASGIRequest)
    if served_by_loop:
        room = stream_room(settings.PUSH_MAX_STREAMS)
    else:
        room = settings.PUSH_THREAD_STREAMS
    if hub.count() >= room:
        refused = _plain(503, "No room for another live stream here: the page polls instead.",
                         **{"Retry-After": "60"})  # fmt: skip
        if served_by_loop:  # its descriptor freed at once (WSGI can't say so: hop-by-hop)
            refused["Connection"] = "close"
        return refused
    content: Any = events_async(stream, hub) if served_by_loop else events_sync(stream, hub)
    if not served_by_loop and not connection.in_atomic_block:
        # The thread that serves the stream waits in it long: it lets its connection go.
        # (Under ASGI the view ran on the thread the streams' openings share, which keeps
        # its connection as a request's thread does: not one opened for each stream.)
        connection.close()
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy in front must pass each event on at once
    return response


@require_GET
def game_events(request: HttpRequest, game_id: Any) -> HttpResponseBase:
    """A game's entries as they commit, after ``Last-Event-ID`` (the browser's, on a
    reconnect) or ``?after=`` (the entry the page showed), else from now; with ``?part=live``
    (the spectator screen), each with the screen's live part."""
    latest = latest_entry(game_id)
    if latest is None:
        return _plain(404, "There is no such game.")
    seen = request.headers.get("Last-Event-ID") or request.GET.get("after")
    if not seen:
        last = latest
    elif _ENTRY.match(seen.strip()):
        last = min(int(seen.strip()), latest)
    else:
        return _plain(400, "Last-Event-ID (or ?after=) is the number of a log entry.")
    part = request.GET.get("part")
    if part not in (None, "live"):
        return _plain(400, "?part= names the part sent with each event: live, or none.")
    if part:
        return _stream(request, GameStream(game_id, last, pushed_part, kept_part))
    return _stream(request, GameStream(game_id, last))


@require_GET
def club_events(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Which of a club's games changed, as each change commits; a refresh first only if they
    changed since the version the screen shows (``Last-Event-ID``, else ``?seen=``)."""
    club = get_club(slug)
    seen = request.headers.get("Last-Event-ID") or request.GET.get("seen")
    return _stream(request, ClubStream(club.pk, seen))


@require_GET
def event_events(request: HttpRequest, tournament_id: int) -> HttpResponseBase:
    """An event's own changes (a game of it ended, a result, a pairing, an entry), never a
    turn at one of its tables; a refresh first only if it moved on since the version the page
    shows (``Last-Event-ID``, else ``?seen=``)."""
    if event_version(tournament_id) is None:
        return _plain(404, "There is no such event.")
    seen = request.headers.get("Last-Event-ID") or request.GET.get("seen")
    return _stream(request, EventStream(tournament_id, (seen or "")[:12] or None))
