"""A Server-Sent Events stream: what one screen is sent while it stays connected.

A game's stream opens with ``event: ready`` (its id the last entry the screen has), sends what
the screen missed since then from the record, then one ``event: turn`` per log entry as each
commits, numbered by its entry (``id:``): the browser's ``EventSource`` says the last one it
got (``Last-Event-ID``) when it reconnects, and gets exactly the entries after it. A spectator
screen's stream (``?part=live``) carries in each such event the screen's live part as the game
then stands (``part``: HTML, drawn where the change committed when the news brings it, else
once per change in each process, whoever listens); other streams never carry it. A screen
more than ``news.CATCH_UP_MOST`` entries behind is sent ``event: reload``. A club's stream
sends ``event: table`` (a game of the club changed) and ``event: refresh`` when news may have
been lost, or at its opening when the club's games changed since the page was drawn; the
director's screen then reloads its tables. An event's stream sends ``event: refresh`` when the
event's version moves on (``EventStream``): its pages fetch their part again then, and only
then.

A stream lasts at most ``PUSH_STREAM_SECONDS`` (the browser reconnects at once, with its
``Last-Event-ID``: ``RETRY_MS``), and a stream lost without that end (its server's worker
replaced or restarted, the network gone) is opened again after a moment each draws
(``retry_ms``); it sends ``event: alive`` at least every ``PUSH_HEARTBEAT_SECONDS``, so proxies
keep it open and the page knows it still speaks (each stream its own moments, ``lifetime`` and
``keep_alive_in``),
and is served by the event loop (``events_async``, ASGI: thousands per process) or by a
thread (``events_sync``, WSGI: ``make run``, the tests' live server).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar
from uuid import UUID

from django.conf import settings
from django.db import close_old_connections, connection

from scorekeeper.live import news
from scorekeeper.live.hub import Hub

RETRY_MS = 2000  # how soon a browser reconnects after a stream ended in its time
# A stream lost otherwise waits RETRY_MS and up to RETRY_SPREAD_MS more, since a replaced
# worker's thousands of screens opening again at once hold up every table's turns; meanwhile
# the screens poll (static/js/live.js).
RETRY_SPREAD_MS = 15000
# An event, not a comment: a page's EventSource hears no comment, and a page that hears nothing
# for longer than a keep-alive takes its stream for silent and polls (static/js/live.js).
KEEP_ALIVE = b"event: alive\ndata:\n\n"
IN_ITS_TIME = f"retry: {RETRY_MS}\n\n".encode()  # a stream's last words when its time is up
CATCH_UP = object()  # ``take``'s answer when the record must be read
T = TypeVar("T")


# Each stream draws its own moments, a little short of the settings' (never longer, so a
# proxy's idle limit is kept), since screens that opened together would otherwise keep alive
# and reconnect together in bursts that hold up the turns.
_spread = random.Random()  # noqa: S311 - spreading moments, not a secret


def lifetime() -> float:
    """How long a stream lasts: 80-100% of ``PUSH_STREAM_SECONDS``."""
    return settings.PUSH_STREAM_SECONDS * _spread.uniform(0.8, 1.0)


def retry_ms() -> int:
    """How long a browser waits to open a stream it lost: ``RETRY_MS`` and up to
    ``RETRY_SPREAD_MS`` more, drawn for each stream."""
    return RETRY_MS + round(_spread.uniform(0, RETRY_SPREAD_MS))


def keep_alive_in() -> float:
    """How long a stream waits for news before a keep-alive: 50-100% of
    ``PUSH_HEARTBEAT_SECONDS``."""
    return settings.PUSH_HEARTBEAT_SECONDS * _spread.uniform(0.5, 1.0)


def frame(data: dict[str, Any], *, event: str, entry: int | None = None) -> bytes:
    """One event, as the stream carries it."""
    head = f"id: {entry}\n" if entry is not None else ""
    body = json.dumps(data, separators=(",", ":"))
    return f"{head}event: {event}\ndata: {body}\n\n".encode()


class Stream(Protocol):
    channel: str
    done: bool
    drawn: bool  # the screen shows a part drawn for each change (``Hub.listen``)

    def opening(self) -> bytes: ...
    def take(self, message: dict[str, Any]) -> bytes | object: ...
    def catch_up(self) -> bytes: ...


class Rendering:
    """``take``'s answer for a stream that sends a part with each event: the event, to send
    once ``draw`` has drawn the part (a database read: in a thread, under ASGI). ``key`` names
    the event (its channel and entry): every screen of the game that a process serves is sent
    the same one."""

    def __init__(
        self,
        message: dict[str, Any],
        draw: Callable[[], str | None],
        key: tuple[str, int],
        kept: Callable[[], str | None] | None = None,
    ) -> None:
        self.message = message
        self.draw = draw
        self.key = key
        self.kept = kept  # the part if it is drawn already: no database read, no drawing
        drawn = message.get("part")  # drawn where the change committed (``news.announce``)
        self.drawn: str | None = drawn if isinstance(drawn, str) else None

    def framed(self, part: str | None) -> bytes:
        data = {**self.message, "part": part} if part is not None else self.message
        return frame(data, event="turn", entry=self.message["entry"])


class GameStream:
    """A game's entries, from the one after ``last``. With ``part`` (the web layer's renderer
    of the spectator's live part, given the game's id), each event carries the part as the
    game stands once it committed: the screen shows it at once, with no request of its own."""

    def __init__(
        self,
        game_id: UUID | str,
        last: int,
        part: news.Drawer | None = None,
        kept: Callable[[str, int], str | None] | None = None,
    ) -> None:
        self.game_id = str(game_id)
        self.channel = news.game_channel(game_id)
        self.last = last
        self.done = False
        self.part = part
        self.kept = kept  # the part of an entry if it is drawn already (``Rendering.kept``)
        self.drawn = part is not None

    def opening(self) -> bytes:
        ready = frame({"game": self.game_id, "entry": self.last}, event="ready", entry=self.last)
        return f"retry: {retry_ms()}\n".encode() + ready

    def take(self, message: dict[str, Any]) -> bytes | object:
        """What to send for ``message``: the event, nothing (already sent), or ``CATCH_UP``
        (entries were missed, or news may have been lost)."""
        entry = message.get("entry")
        if message.get("resync") or not isinstance(entry, int):
            return CATCH_UP
        if entry <= self.last:
            return b""
        if entry > self.last + 1:  # the one before is late, or was lost: the record has it
            return CATCH_UP
        self.last = entry
        if self.part is not None:
            part, kept, game_id = self.part, self.kept, self.game_id
            return Rendering(
                message,
                lambda: part(game_id, entry),
                (self.channel, entry),
                None if kept is None else lambda: kept(game_id, entry),
            )
        if "part" in message:  # drawn for the screens that show it, not this one
            message = {name: value for name, value in message.items() if name != "part"}
        return frame(message, event="turn", entry=entry)

    def catch_up(self) -> bytes:
        """The entries after the last one sent, from the record (a database read)."""
        events = news.missed(self.game_id, self.last)
        if events is None:
            self.done = True
            return frame({"game": self.game_id, "entry": self.last}, event="reload")
        events = [e for e in events if e["entry"] > self.last]
        if events and self.part is not None:  # the last one brings the part as it stands
            # Kept by its entry, as a pushed change's is: one drawing for every process's screens.
            part = self.part(self.game_id, events[-1]["entry"])
            if part is not None:
                events[-1] = {**events[-1], "part": part}
        sent = [frame(e, event="turn", entry=e["entry"]) for e in events]
        if events:
            self.last = max(self.last, events[-1]["entry"])
        return b"".join(sent)


class ClubStream:
    """Which of a club's games changed: the director's screen reloads its tables for each.

    ``seen``: the version of the club's games (``news.club_version``) the screen shows (its
    page's, or the last the stream said, ``Last-Event-ID``). The stream's opening sends a
    refresh only if they changed since: a page just drawn carries its tables already, and
    fetching them again at once would double every screen's load. Each opening says the
    version it found (an ``id:`` with no event), for the browser to send on a reconnect."""

    def __init__(self, club_id: int, seen: str | None = None) -> None:
        self.club_id = club_id
        self.channel = news.club_channel(club_id)
        self.done = False
        self.drawn = False
        self.seen = seen
        self.opened = False

    def opening(self) -> bytes:
        return f"retry: {retry_ms()}\n".encode() + frame({}, event="ready")

    def take(self, message: dict[str, Any]) -> bytes | object:
        if message.get("resync"):
            return CATCH_UP
        return frame(message, event="table")

    def catch_up(self) -> bytes:
        if self.opened:  # news was lost: the screen's tables may be behind
            return frame({}, event="refresh")
        self.opened = True
        version = news.club_version(self.club_id)
        said = f"id: {version}\n"
        if version == self.seen:
            return said.encode() + b"\n"
        return said.encode() + frame({}, event="refresh")


class EventStream:
    """An event's own changes (a game of it ended, a result, a pairing, a late entry, a
    withdrawal): ``event: refresh`` for each, and none for a turn at a table. ``seen``: the
    event's version the page shows (its page's, or the last the stream said,
    ``Last-Event-ID``); the opening sends a refresh only if the event moved on since. Each
    event says the version it brings as its ``id:``, for the browser to send on a reconnect."""

    def __init__(self, tournament_id: int, seen: str | None = None) -> None:
        self.tournament_id = tournament_id
        self.channel = news.event_channel(tournament_id)
        self.done = False
        self.drawn = False
        self.seen = seen

    def opening(self) -> bytes:
        return f"retry: {retry_ms()}\n".encode() + frame({}, event="ready")

    def shows(self, version: int) -> bool:
        """Whether the page shows ``version`` already (or a later one: news that came late)."""
        seen = self.seen or ""
        return seen.isdigit() and len(seen) < 12 and int(seen) >= version

    def take(self, message: dict[str, Any]) -> bytes | object:
        version = message.get("version")
        if message.get("resync") or not isinstance(version, int):
            return CATCH_UP  # news may have been lost: the version read again
        if self.shows(version):
            return b""
        self.seen = str(version)
        return frame({"version": version, "at": message.get("at")}, event="refresh", entry=version)

    def catch_up(self) -> bytes:
        version = news.event_version(self.tournament_id)
        if version is None:  # the event is gone
            self.done = True
            return frame({}, event="reload")
        if self.shows(version):
            return b""
        self.seen = str(version)
        return frame({"version": version}, event="refresh", entry=version)


def _let_go(read: Callable[[], T]) -> T:
    """``read()`` in a stream's own thread, which then waits long: it lets its database
    connection go rather than hold it while it waits."""
    try:
        return read()
    finally:
        if not connection.in_atomic_block:
            connection.close()


def events_sync(stream: Stream, hub: Hub) -> Iterator[bytes]:
    """The stream, served by the thread that holds it."""
    listener = hub.listen(stream.channel, drawn=stream.drawn)
    try:
        hub.ready(2)
        yield stream.opening()
        if missed := _let_go(stream.catch_up):
            yield missed
        deadline = time.monotonic() + lifetime()
        while not stream.done and (left := deadline - time.monotonic()) > 0:
            if listener.behind:
                listener.leave()
                listener = hub.listen(stream.channel, drawn=stream.drawn)
                yield _let_go(stream.catch_up)
                continue
            message = listener.get(min(keep_alive_in(), left))
            if message is None:
                yield KEEP_ALIVE
                continue
            sent = stream.take(message)
            if sent is CATCH_UP:
                yield _let_go(stream.catch_up)
            elif isinstance(sent, Rendering):
                yield sent.framed(sent.drawn if sent.drawn is not None else _let_go(sent.draw))
            elif sent:
                assert isinstance(sent, bytes)
                yield sent
        if not stream.done:  # its time is up: open it again at once
            yield IN_ITS_TIME
    finally:
        listener.leave()


# The reads of the streams served by the event loop (what a screen missed, the part sent with
# an event) run in a few threads of their own, each keeping its database connection (let go
# when it grows old, as a request's is). Run in the stream's own context instead (as
# ``sync_to_async`` does), each stream would open a connection of its own and hold it.
READ_THREADS = 2
_readers: list[ThreadPoolExecutor] = []


def _reading(read: Callable[[], T]) -> Callable[[], T]:
    def job() -> T:
        if not connection.in_atomic_block:
            close_old_connections()
        return read()

    return job


async def _read(read: Callable[[], T]) -> T:
    """``read()`` in one of the streams' reading threads."""
    if not _readers:
        _readers.append(ThreadPoolExecutor(READ_THREADS, thread_name_prefix="live-read"))
    return await asyncio.get_running_loop().run_in_executor(_readers[0], _reading(read))


async def read_apart(read: Callable[[], T]) -> T:
    """``read()`` in one of the streams' reading threads, for any read the event loop needs
    (``scorekeeper.web.event_early``'s)."""
    return await _read(read)


def stop_reading() -> None:
    """Let the reading threads' database connections go and the threads end (a test's end;
    the next stream starts them again)."""
    import threading

    if not _readers:
        return
    pool = _readers.pop()
    together = threading.Barrier(READ_THREADS)

    def close() -> None:  # one on each thread: each waits for the others
        together.wait(10)
        connection.close()

    for done in [pool.submit(close) for _ in range(READ_THREADS)]:
        done.result()
    pool.shutdown()


# The events with a part that a process's event loop sent lately, each framed once: the part
# drawn (one read, in a reading thread) and the event encoded for the first screen of the game
# to hear of the change, the same bytes sent to every other. A task, so that a screen that
# closes meanwhile doesn't take the others' event with it.
FRAMED_KEPT = 512
_framed: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, OrderedDict[tuple[str, int], asyncio.Task[bytes]]
] = weakref.WeakKeyDictionary()


async def _framed_once(sent: Rendering) -> bytes:
    """``sent``'s event, its part drawn and the event framed once in this event loop."""
    loop = asyncio.get_running_loop()
    kept = _framed.get(loop)
    if kept is None:
        kept = _framed[loop] = OrderedDict()
    task = kept.get(sent.key)
    if task is None:
        task = kept[sent.key] = loop.create_task(_frame(sent))
        task.add_done_callback(lambda done: _forget_failed(kept, sent.key, done))
        while len(kept) > FRAMED_KEPT:
            kept.popitem(last=False)
    return await asyncio.shield(task)


async def _frame(sent: Rendering) -> bytes:
    """The event framed with its part: the one it brought, else one drawn already (asked in
    the loop: a file read at most), else drawn in a reading thread."""
    part = sent.drawn
    if part is None and sent.kept is not None:
        part = sent.kept()
    return sent.framed(part if part is not None else await _read(sent.draw))


def _forget_failed(
    kept: OrderedDict[tuple[str, int], asyncio.Task[bytes]], key: tuple[str, int], done: Any
) -> None:
    """A failed drawing is not kept: the next screen tries again."""
    if not done.cancelled() and done.exception() is None:
        return
    if kept.get(key) is done:
        del kept[key]


async def events_async(stream: Stream, hub: Hub) -> AsyncIterator[bytes]:
    """The stream, served by the event loop: a waiting screen holds no thread."""
    loop = asyncio.get_running_loop()
    listener = hub.listen(stream.channel, loop, drawn=stream.drawn)
    try:
        if not hub.ready(0):
            await asyncio.to_thread(hub.ready, 2)
        yield stream.opening()
        if missed := await _read(stream.catch_up):
            yield missed
        deadline = time.monotonic() + lifetime()
        while not stream.done and (left := deadline - time.monotonic()) > 0:
            if listener.behind:
                listener.leave()
                listener = hub.listen(stream.channel, loop, drawn=stream.drawn)
                yield await _read(stream.catch_up)
                continue
            message = await listener.aget(min(keep_alive_in(), left))
            if message is None:
                yield KEEP_ALIVE
                continue
            sent = stream.take(message)
            if sent is CATCH_UP:
                yield await _read(stream.catch_up)
            elif isinstance(sent, Rendering):
                yield await _framed_once(sent)
            elif sent:
                assert isinstance(sent, bytes)
                yield sent
        if not stream.done:  # its time is up: open it again at once
            yield IN_ITS_TIME
    finally:
        listener.leave()


__all__ = [
    "CATCH_UP",
    "ClubStream",
    "EventStream",
    "GameStream",
    "RETRY_MS",
    "RETRY_SPREAD_MS",
    "Rendering",
    "Stream",
    "events_async",
    "events_sync",
    "frame",
    "keep_alive_in",
    "lifetime",
    "read_apart",
    "retry_ms",
    "stop_reading",
]
