"""The hub: which screens in this process listen to which channel, and how news reaches them.

A channel is a game (``game:<id>``), a club (``club:<id>``) or an event (``event:<id>``).
``publish`` is called once a change has committed. Without ``REDIS_URL`` it hands the news
straight to this process's listeners: one process serves everything (``make run``, the tests'
live server). With ``REDIS_URL`` it goes to Redis (``PUBLISH`` on one channel), and every
process follows that channel from one connection of its own (a thread started with its first
listener) and hands each message to its listeners: a screen connected to any worker of any
server sees a turn entered through any other. Without Redis, several processes on one database
(gunicorn's workers) hear each other through the record: with ``PUSH_WATCH_SECONDS`` set (the
gunicorn config sets it), each reads what changed for the games its screens follow that often,
in two or three queries however many screens (``news.changes``).

Redis is the broker; nothing here keeps or resends messages. A screen that missed some (a
dropped connection, a slow reader, Redis reconnecting) is told to catch up from the record,
which has every change (``news.missed``).

The process that commits a change draws what the screens show with it (a spectator's live
part: ``news.announce``) once, after the request has answered, when any screen anywhere wants
it: each process marks, for a minute at a time, the channels where it has such screens
(``listen(..., drawn=True)``). With a broker the marks are in Redis and the message carries
the part to every process. Without one, where the processes share a folder of parts
(``LIVE_PARTS_DIR``, gunicorn's workers) the marks are files in it, the part is kept there,
and a process that hears of the change reads it from there; in one process, or with neither,
each process that has such a screen draws it (once, whatever the screens there).

A listener is a queue, filled from any thread: an ``asyncio.Queue`` for a stream served by
an event loop (ASGI), a thread-safe queue for one served by a thread (WSGI). A listener that
falls ``BACKLOG`` messages behind is marked ``behind`` and gets no more: its stream catches up
from the record instead.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection

from scorekeeper.live.marks import DRAWN_KEY, FolderMarks, Marks, RedisMarks

log = logging.getLogger(__name__)

REDIS_CHANNEL = "scorekeeper:live"
# A process's mark of a channel it has screens of that want the part drawn (``marks``) lasts
# DRAWN_FOR seconds; it renews them every third of that.
DRAWN_FOR = 60
BACKLOG = 64  # messages a listener may have waiting; past that it catches up from the record
RESYNC: dict[str, Any] = {"resync": True}  # to every listener: news may have been lost


# What changed in the record for these games and clubs since a time: (channel, message) pairs.
ReadChanges = Callable[
    [Collection[str], Collection[int], dict[str, int], float, Collection[int]],
    list[tuple[str, dict[str, Any]]],
]
_read_changes: ReadChanges | None = None
# What changed of these events alone (``news.event_changes``): (channel, message) pairs.
ReadEventChanges = Callable[
    [Collection[int], dict[str, int], float], list[tuple[str, dict[str, Any]]]
]
_read_event_changes: ReadEventChanges | None = None
# Without a broker, the followed events' versions are read this often, between the record's
# whole reads (``PUSH_WATCH_SECONDS``): a game's end reaches an event's phones on every worker
# within about this much more than on the worker where it committed (one query a time).
EVENT_WATCH_SECONDS = 0.1


def read_changes_with(reader: ReadChanges, events: ReadEventChanges | None = None) -> None:
    """How a process with no broker reads the record for changes (``news.changes``, and
    ``news.event_changes`` for the events alone; handed over when news is imported: news
    publishes through the hub, so the hub can't import it)."""
    global _read_changes, _read_event_changes
    _read_changes = reader
    _read_event_changes = events


class Listener:
    """One screen's place in the hub: the news on its channel, in order, until it leaves."""

    def __init__(
        self, hub: Hub, channel: str, loop: asyncio.AbstractEventLoop | None, drawn: bool = False
    ) -> None:
        self.hub = hub
        self.channel = channel
        self.loop = loop
        self.drawn = drawn
        self.behind = False
        self._async: asyncio.Queue[dict[str, Any]] | None = asyncio.Queue(BACKLOG) if loop else None
        self._sync: queue.Queue[dict[str, Any]] | None = None if loop else queue.Queue(BACKLOG)

    def put(self, message: dict[str, Any]) -> None:
        """Hand over ``message``; called from any thread."""
        if self.behind:
            return
        if self._sync is not None:
            self._offer(self._sync, message)
            return
        assert self.loop is not None and self._async is not None
        try:
            self.loop.call_soon_threadsafe(self._offer, self._async, message)
        except RuntimeError:  # the loop has closed: the screen is gone
            self.behind = True

    def _offer(self, into: queue.Queue[Any] | asyncio.Queue[Any], message: dict[str, Any]) -> None:
        try:
            into.put_nowait(message)
        except (queue.Full, asyncio.QueueFull):
            self.behind = True

    def get(self, timeout: float) -> dict[str, Any] | None:
        """The next message, waiting at most ``timeout`` seconds (a thread's stream)."""
        assert self._sync is not None
        try:
            return self._sync.get(timeout=max(timeout, 0))
        except queue.Empty:
            return None

    async def aget(self, timeout: float) -> dict[str, Any] | None:
        """The next message, waiting at most ``timeout`` seconds (an event loop's stream)."""
        assert self._async is not None
        if not self._async.empty():  # no timer for a message already here
            return self._async.get_nowait()
        try:  # a timeout, not ``wait_for``: no task made for each wait
            async with asyncio.timeout(max(timeout, 0)):
                return await self._async.get()
        except TimeoutError:
            return None

    def leave(self) -> None:
        self.hub.leave(self)


class Hub:
    """This process's listeners, by channel."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, set[Listener]] = {}
        self._count = 0
        self._redis_pid = 0  # the process whose thread follows Redis (a fork starts its own)
        self._redis_ready = threading.Event()
        self._watch_pid = 0  # the process whose thread reads the record for changes
        self._publisher: Any = None
        self._publisher_pid = 0
        self._drawn: dict[str, int] = {}  # channels with listeners that want the part drawn
        self._marking_pid = 0  # the process whose thread marks them (``_marks``)
        self._mark_now = threading.Event()
        self._marks_in: Marks | None = None
        self._holding: list[Callable[[int, int], None]] = []  # ``hold_events_with``
        self._holder: ThreadPoolExecutor | None = None  # its thread (a fork starts its own)
        self._holder_pid = 0

    # Listening ---------------------------------------------------------------------------------
    def listen(
        self, channel: str, loop: asyncio.AbstractEventLoop | None = None, *, drawn: bool = False
    ) -> Listener:
        """A new listener on ``channel``: give the running event loop for an async stream;
        ``drawn`` if the screen shows what the change's process draws (its live part)."""
        listener = Listener(self, channel, loop, drawn)
        with self._lock:
            self._listeners.setdefault(channel, set()).add(listener)
            self._count += 1
            new_mark = drawn and not self._drawn.get(channel)
            if drawn:
                self._drawn[channel] = self._drawn.get(channel, 0) + 1
        if settings.REDIS_URL:
            self._follow_redis(settings.REDIS_URL)
        elif settings.PUSH_WATCH_SECONDS > 0:
            self._watch_record(settings.PUSH_WATCH_SECONDS)
        if new_mark and self._marks() is not None:
            self._mark_drawn()
        return listener

    def leave(self, listener: Listener) -> None:
        with self._lock:
            listeners = self._listeners.get(listener.channel)
            if listeners is not None and listener in listeners:
                listeners.discard(listener)
                self._count -= 1
                if not listeners:
                    del self._listeners[listener.channel]
                if listener.drawn:
                    left = self._drawn.get(listener.channel, 1) - 1
                    if left > 0:
                        self._drawn[listener.channel] = left
                    else:
                        self._drawn.pop(listener.channel, None)

    def count(self) -> int:
        """How many listeners this process has (one per open stream)."""
        return self._count

    def ready(self, timeout: float) -> bool:
        """Whether news from other processes reaches this one: always without Redis; with it,
        once this process follows the Redis channel (waiting at most ``timeout`` seconds)."""
        if not settings.REDIS_URL:
            return True
        return self._redis_ready.wait(timeout)

    def hold_events_with(self, hold: Callable[[int, int], None]) -> None:
        """Have ``hold(event, version)`` take an event's part into this process's memory when
        news of a new version comes from another process (Redis, or the record), before this
        process's pages hear of it: the hundreds of phones that then ask for it find it there
        (``web.event_parts.hold``, set by the web layer)."""
        self._holding[:] = [hold]

    def _heard(self, channel: str, message: dict[str, Any]) -> None:
        """News from another process, delivered; an event's new version once its part is held
        here, in a thread of its own (one, so each event's news keeps its order), so that
        the other screens' news doesn't wait for it."""
        version = message.get("version")
        if not self._holding or not channel.startswith("event:") or not isinstance(version, int):
            self.deliver(channel, message)
            return
        with self._lock:
            if self._holder is None or self._holder_pid != os.getpid():
                self._holder = ThreadPoolExecutor(1, thread_name_prefix="live-hold")
                self._holder_pid = os.getpid()
            holder = self._holder
        holder.submit(self._hold_and_deliver, int(channel[6:]), version, channel, message)

    def _hold_and_deliver(
        self, tournament_id: int, version: int, channel: str, message: dict[str, Any]
    ) -> None:
        for hold in self._holding:
            try:
                if not connection.in_atomic_block:
                    close_old_connections()
                hold(tournament_id, version)
            except Exception:  # noqa: BLE001 - the pages read it themselves
                log.warning("an event's part was not held before its news", exc_info=True)
        self.deliver(channel, message)

    def deliver(self, channel: str, message: dict[str, Any]) -> int:
        """Hand ``message`` to this process's listeners on ``channel`` (all of them, for a
        resync); how many."""
        with self._lock:
            if message is RESYNC or message.get("resync"):
                listeners = [one for group in self._listeners.values() for one in group]
            else:
                listeners = list(self._listeners.get(channel, ()))
        for listener in listeners:
            listener.put(message)
        return len(listeners)

    def wants_drawn(self, channel: str) -> bool:
        """Whether a screen of ``channel`` anywhere wants the change's part drawn where it
        commits: some process marked it lately (in Redis, or in the shared folder of parts);
        with neither, never (each process that has such a screen draws it). False if the marks
        can't say: the screens' processes draw it themselves."""
        marks = self._marks()
        if marks is None:
            return False
        if marks.local and self._drawn.get(channel):
            return True
        try:
            return marks.marked(channel)
        except Exception:  # noqa: BLE001 - Redis down, the folder gone: the screens draw it
            return False

    def _marks(self) -> Marks | None:
        """Where the drawn channels are marked: Redis, with ``REDIS_URL``; else the folder of
        parts that processes hearing each other through the record share; else nowhere."""
        url = settings.REDIS_URL
        if url:
            if not isinstance(self._marks_in, RedisMarks) or self._marks_in.url != url:
                self._marks_in = RedisMarks(url, lambda: self._redis(url))
            return self._marks_in
        folder = settings.LIVE_PARTS_DIR
        if folder and settings.PUSH_WATCH_SECONDS > 0:
            if not isinstance(self._marks_in, FolderMarks) or self._marks_in.parts != folder:
                self._marks_in = FolderMarks(folder)
            return self._marks_in
        return None

    def _mark_drawn(self) -> None:
        """Have this process's marking thread mark its drawn channels now."""
        with self._lock:
            start = self._marking_pid != os.getpid()
            self._marking_pid = os.getpid()
        if start:
            threading.Thread(target=self._marking_loop, name="live-marks", daemon=True).start()
        self._mark_now.set()

    def _marking_loop(self) -> None:
        """Marks the channels where this process has screens that want the part drawn: each
        newly wanted at once, every one again each third of ``DRAWN_FOR``."""
        marked: set[str] = set()
        renewed = 0.0
        while True:
            self._mark_now.wait(DRAWN_FOR / 3)
            self._mark_now.clear()
            with self._lock:
                wanted = set(self._drawn)
            marked &= wanted
            now = time.monotonic()
            renew = now - renewed >= DRAWN_FOR / 3
            due = wanted if renew else wanted - marked
            marks = self._marks()
            if not due or marks is None:
                continue
            try:
                marks.mark(list(due), time.time() + DRAWN_FOR)
                if renew:  # and every process forgets the marks that ran out
                    marks.forget(time.time())
            except Exception:  # noqa: BLE001 - Redis down: the screens draw it, and we try again
                log.warning("channels not marked where they are drawn", exc_info=True)
                continue
            marked |= due
            if renew:
                renewed = now

    # Publishing --------------------------------------------------------------------------------
    def soon(self, job: Callable[[], None]) -> None:
        """Run ``job`` (drawing and sending a change's news) once the request that committed
        the change has answered, in its thread (``request_finished``): the player's answer
        waits neither for the drawing nor for the broker's round trips. Outside a request, now.
        """
        if getattr(_serving, "request", False):
            _serving.after.append(job)
        else:
            _run(job)

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every listener on ``channel``, in every process. Never raises:
        a screen that misses news catches up, a turn must not fail for it."""
        url = settings.REDIS_URL
        if not url:
            self.deliver(channel, message)
            return
        try:
            self._redis(url).publish(REDIS_CHANNEL, _payload(channel, message))
        except Exception:  # noqa: BLE001 - Redis down: this process's screens still hear it
            log.warning("news not published through Redis", exc_info=True)
            self.deliver(channel, message)

    def _redis(self, url: str) -> Any:
        if self._publisher is None or self._publisher_pid != os.getpid():
            import redis

            self._publisher = redis.Redis.from_url(
                url, socket_timeout=1, socket_connect_timeout=1, health_check_interval=30
            )
            self._publisher_pid = os.getpid()
        return self._publisher

    def _follow_redis(self, url: str) -> None:
        with self._lock:
            if self._redis_pid == os.getpid():
                return
            self._redis_pid = os.getpid()
            self._redis_ready.clear()
        threading.Thread(
            target=self._redis_loop, args=(url,), name="live-redis", daemon=True
        ).start()

    def _watch_record(self, every: float) -> None:
        with self._lock:
            if self._watch_pid == os.getpid():
                return
            self._watch_pid = os.getpid()
        watcher = threading.Thread(target=self._watch_loop, args=(every,), daemon=True)
        watcher.start()

    def _watch_loop(self, every: float) -> None:
        """Without a broker, each process reads the record every ``every`` seconds for changes
        to the games, clubs and events its screens follow (changes committed by other
        processes), and the events' versions alone every ``EVENT_WATCH_SECONDS`` between."""
        known: dict[str, int] = {}
        since = events_since = time.time()
        tick = min(every, EVENT_WATCH_SECONDS)
        due = time.monotonic() + every
        while True:
            time.sleep(tick)
            with self._lock:
                channels = list(self._listeners)
            games = {c[5:] for c in channels if c.startswith("game:")}
            clubs = {int(c[5:]) for c in channels if c.startswith("club:")}
            events = {int(c[6:]) for c in channels if c.startswith("event:")}
            now = time.time()
            whole = time.monotonic() >= due
            read, read_events = _read_changes, _read_event_changes
            try:
                if whole:
                    due = time.monotonic() + every
                    if (games or clubs or events) and read is not None:
                        for channel, message in read(games, clubs, known, since, events):
                            self._heard(channel, message)
                elif events and read_events is not None:
                    for channel, message in read_events(events, known, events_since):
                        self._heard(channel, message)
            except Exception:  # noqa: BLE001 - the database is busy or away: next time
                log.warning("the record could not be read for changes", exc_info=True)
                continue
            events_since = now
            if whole:
                since = now

    def _redis_loop(self, url: str) -> None:
        import redis

        pause, again = 0.2, False
        while True:
            try:
                client = redis.Redis.from_url(
                    url, socket_connect_timeout=2, socket_keepalive=True, health_check_interval=30
                )
                pubsub = client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
                pubsub.subscribe(REDIS_CHANNEL)
                self._redis_ready.set()
                if again:  # what was published while the connection was down is lost
                    self.deliver("", RESYNC)
                pause, again = 0.2, True
                for item in pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    try:
                        said = _read_payload(item["data"], self._listeners)
                    except (ValueError, KeyError, TypeError):
                        log.warning("a malformed message on %s", REDIS_CHANNEL)
                        continue
                    if said is not None:
                        self._heard(*said)
            except Exception:  # noqa: BLE001 - Redis went away: follow it again when it's back
                log.warning("lost Redis pub/sub; reconnecting", exc_info=True)
            self._redis_ready.clear()
            time.sleep(pause)
            pause = min(pause * 2, 5)


# The request this thread serves, and the news to send once it has answered (``Hub.soon``).
_serving = threading.local()


def _run(job: Callable[[], None]) -> None:
    try:
        job()
    except Exception:  # noqa: BLE001 - one change's news; its screens catch up on the next
        log.exception("news not sent")


def _request_started(**kwargs: Any) -> None:
    _request_finished()  # news left by a request whose answer was never closed
    _serving.request = True


def _request_finished(**kwargs: Any) -> None:
    _serving.request = False
    after, _serving.after = getattr(_serving, "after", []), []
    for job in after:
        _run(job)


request_started.connect(_request_started, dispatch_uid="scorekeeper.live.hub.started")
request_finished.connect(_request_finished, dispatch_uid="scorekeeper.live.hub.finished")


def _payload(channel: str, message: dict[str, Any]) -> str:
    """A message as published: its JSON (which holds no newline), then, after a newline, the
    part drawn for it, if any: a process with no screen of the channel reads only the JSON."""
    part = message.get("part")
    if not isinstance(part, str):
        return json.dumps({"channel": channel, "message": message})
    rest = {name: value for name, value in message.items() if name != "part"}
    return json.dumps({"channel": channel, "message": rest}) + "\n" + part


def _read_payload(data: bytes, listening: Collection[str]) -> tuple[str, dict[str, Any]] | None:
    """A published message's channel and message; None if nobody here listens on it."""
    head, _, part = data.partition(b"\n")
    said = json.loads(head)
    channel, message = str(said["channel"]), dict(said["message"])
    if not listening or (channel not in listening and not message.get("resync")):
        return None
    if part:
        message["part"] = part.decode()
    return channel, message


hub = Hub()

__all__ = ["BACKLOG", "DRAWN_FOR", "DRAWN_KEY", "RESYNC", "Hub", "Listener", "hub"]
