"""The spectator's live part (``table/_live.html``): drawn once for each change a screen is
sent, kept in the process and in a folder a server's workers share, and answered to a screen
that fetches it by the game's version (its ETag).

The screens' streams (``scorekeeper.live``) send it with each change: drawn where the change
commits when a screen anywhere shows it (``news.announce``, ``pushed_part``), read where it
is kept by the processes that hear of the change (``kept_part``), drawn there only if it is
not kept yet.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection
from django.http import HttpRequest
from django.template.loader import render_to_string

from config.private_folder import FolderRefused, make_private_folder, read_file, write_file
from scorekeeper.games import rows
from scorekeeper.games.domain import GameNotFound
from scorekeeper.live.news import Stored
from scorekeeper.models import Game, Seat
from scorekeeper.web.presenters import live_context

log = logging.getLogger(__name__)

_ETAG_SQL = (
    f"SELECT {Game._meta.get_field('last_entry_number').column}, updated_at "
    f"FROM {Game._meta.db_table} WHERE id = %s"
)


def game_version(request: HttpRequest | None, game_id: Any) -> str | None:
    """A game's version, the ETag of its live part: one primary-key read, no ORM query building
    and no rendering, as this answers every poll from a spectator screen, and almost all of
    them find nothing new (304)."""
    with connection.cursor() as cursor:
        cursor.execute(_ETAG_SQL, [Game._meta.pk.get_db_prep_value(game_id, connection)])
        row = cursor.fetchone()
    return f"{row[0]}-{row[1]}" if row else None


def read_game(game_id: Any) -> tuple[Game, list[Seat]]:
    """The game and its seats, each with its player, in one read (``rows.read_game``)."""
    found = rows.read_game(game_id)
    if found is None:
        raise GameNotFound(game_id)
    return found


LIVE_RENDERS_KEPT = 512  # live parts kept in each process, the latest of each game's changes
# The parts a server's processes share (``LIVE_PARTS_DIR``): each is wanted within a second
# of its change (the workers' watch of the record, PUSH_WATCH_SECONDS), or by a polling
# screen within LIVE_POLL_SECONDS; at most 64 MB in all.
SHARED_PARTS_SECONDS = 10
SHARED_PARTS_BYTES = 64 * 2**20
SHARED_PARTS_SWEEP_SECONDS = 2  # how often a process that keeps parts there removes old ones


class SharedParts:
    """Parts kept as files in a folder a server's processes share, one file a part, named by
    a hash of its key. A part is kept under a key once and never changed (a key names one
    change of one game), so a file is written whole beside its name and renamed onto it: a
    reader finds the part whole or nothing, and no lock is shared between the processes.
    Each process that keeps parts removes, every ``SHARED_PARTS_SWEEP_SECONDS``, those older
    than ``SHARED_PARTS_SECONDS``, then the oldest past ``SHARED_PARTS_BYTES``. Plain files
    rather than a cache in SQLite files, since the processes then wait for no shared lock
    (docs/performance.md).

    >>> import tempfile
    >>> shared = SharedParts(tempfile.mkdtemp())
    >>> shared.get("game:#1") is None
    True
    >>> shared.put("game:#1", "<p>Ann played</p>")
    >>> shared.get("game:#1")
    '<p>Ann played</p>'
    """

    def __init__(self, folder: str) -> None:
        # Refused (FolderRefused) unless nobody but this user can put a file in it: a part read
        # from it goes into spectators' pages as HTML.
        make_private_folder(folder)
        self.folder = folder
        self._swept = time.monotonic()

    def path(self, key: str) -> str:
        return os.path.join(self.folder, hashlib.blake2b(key.encode(), digest_size=16).hexdigest())

    def get(self, key: str) -> str | None:
        """The part kept under ``key``; None if none is, or what is there is not a regular file
        (a link, a FIFO, a folder: not followed, not read)."""
        kept = read_file(self.path(key))
        return kept.decode() if kept is not None else None

    def put(self, key: str, html: str) -> None:
        write_file(self.path(key), html.encode())
        if time.monotonic() - self._swept > SHARED_PARTS_SWEEP_SECONDS:
            self._swept = time.monotonic()
            self.sweep(time.time())

    def sweep(self, now: float) -> None:
        """Remove the parts kept before ``now - SHARED_PARTS_SECONDS`` (and what a process
        stopped while writing left), then the oldest while they take more than
        ``SHARED_PARTS_BYTES``. Another process may be sweeping too: what it removed first is
        let be."""
        kept: list[tuple[float, int, str]] = []
        with os.scandir(self.folder) as entries:
            for entry in entries:
                try:
                    if not entry.is_file(follow_symlinks=False):
                        continue
                    found = entry.stat()
                except FileNotFoundError:
                    continue
                kept.append((found.st_mtime, found.st_size, entry.path))
        kept.sort()
        size = sum(bytes_ for _, bytes_, _ in kept)
        for moment, bytes_, path in kept:
            if moment >= now - SHARED_PARTS_SECONDS and size <= SHARED_PARTS_BYTES:
                break
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
            size -= bytes_


class RenderedParts:
    """The live parts rendered lately, by game and ETag. Every screen of a game is sent its
    live part the moment a change is pushed (with the event, or fetched), and each sees the
    same: the first renders it, the others get it from here (one render at a time in the
    process, so two screens of a game never both render it).

    Kept in the process and, with ``folder`` (``LIVE_PARTS_DIR``: a server's workers with no
    broker between them, config/gunicorn.conf.py), in files they share (``SharedParts``):
    each worker with a screen of the game would render the same part, the first does and the
    others read it (a render costs some ten times a read). Not in the database: a write for
    each change would compete with the turns. The shared folder is only a shortcut: when it
    fails, the part is rendered here."""

    def __init__(self, most: int, folder: str = "") -> None:
        self.most = most
        self.folder = folder
        self.parts: OrderedDict[str, str] = OrderedDict()
        self.lock = threading.Lock()
        self.rendering = threading.Lock()
        self._shared: SharedParts | None = None
        self._off_until = 0.0  # after a failure, the shared folder is let be for a while
        self._refused = ""  # the folder last refused, once said so

    def get(self, key: str) -> str | None:
        with self.lock:
            return self.parts.get(key)

    def put(self, key: str, html: str) -> None:
        with self.lock:
            self.parts[key] = html
            while len(self.parts) > self.most:
                self.parts.popitem(last=False)

    def shared(self) -> SharedParts | None:
        """The shared folder's parts; None without a folder, or for a minute after it
        failed or was refused (``config.private_folder``: others could write in it)."""
        folder = self.folder or settings.LIVE_PARTS_DIR
        if not folder or time.monotonic() < self._off_until:
            return None
        if self._shared is None or self._shared.folder != folder:
            try:
                self._shared = SharedParts(folder)
            except FolderRefused as refused:
                if self._refused != folder:  # said once; looked at again every minute
                    log.error("LIVE_PARTS_DIR %s: this process shares no live parts.",
                              refused.strerror)  # fmt: skip
                self._refused, self._off_until = folder, time.monotonic() + 60
                return None
        return self._shared

    def _failed(self, doing: str) -> None:
        log.warning("The shared live parts could not be %s: not used for a minute.", doing,
                    exc_info=True)  # fmt: skip
        self._shared, self._off_until = None, time.monotonic() + 60

    def get_shared(self, key: str) -> str | None:
        """The part another process rendered, kept here too; None if none did (or the
        shared folder can't say)."""
        try:
            shared = self.shared()
            html = shared.get(key) if shared is not None else None
        except (OSError, UnicodeError):  # a shortcut only: rendered here instead
            self._failed("read")
            return None
        if html is not None:
            self.put(key, html)
        return html

    def put_shared(self, key: str, html: str) -> None:
        """Keep the part for the other processes too."""
        try:
            shared = self.shared()
            if shared is not None:
                shared.put(key, html)
        except OSError:  # a shortcut only: they render it themselves
            self._failed("written")


rendered_parts = RenderedParts(LIVE_RENDERS_KEPT)


def live_part(
    game_id: Any,
    version: str | None = None,
    entry: int | None = None,
    stored: Stored | None = None,
) -> str | None:
    """The spectator screen's live part as the game stands (``version``: its ETag, if read
    already); None if there is no such game. Rendered once per change in each process, or
    once in all a server's processes where they share it (``RenderedParts``).

    ``entry``: the part for a pushed change, the log's entry of that number committed. It is
    kept by the entry (no read of the game's version first: there is one such read fewer
    for each change and process), and by its version too, for a screen that fetches it.
    ``stored``: that change's game, seats and state as it stored them, where it committed:
    drawn from them, with no read of the game (the log's latest entries are read still)."""
    if entry is not None:
        key = f"{game_id}:#{entry}"
    else:
        version = version or game_version(None, game_id)
        if version is None:
            return None
        key = f"{game_id}:{version}"
    html = rendered_parts.get(key)
    if html is None:
        with rendered_parts.rendering:
            # Rendered meanwhile, for another screen, or by another process.
            html = rendered_parts.get(key) or rendered_parts.get_shared(key)
            if html is None:
                if stored is not None:
                    game, seats, state = stored[0], list(stored[1]), stored[2]
                else:
                    (game, seats), state = read_game(game_id), None
                html = render_to_string("table/_live.html", live_context(game, seats, state))
                # Kept for the other processes before this one's screens can find it here.
                rendered_parts.put_shared(key, html)
                rendered_parts.put(key, html)
                if entry is not None:  # as a fetch of the game as read would find it
                    rendered_parts.put(f"{game_id}:{etag_of(game)}", html)
    return html


def kept_part(game_id: str, entry: int) -> str | None:
    """The part pushed with the log's entry ``entry`` if it is drawn already, here or by
    another process (``RenderedParts``), else None: neither the database read nor the drawing,
    so that an event loop may ask (a file read at most) before it hands the drawing to a
    thread. Where the change committed, its part is drawn once it is answered, for the
    screens of every process (``news.announce``)."""
    key = f"{game_id}:#{entry}"
    return rendered_parts.get(key) or rendered_parts.get_shared(key)


def etag_of(game: Game) -> str:
    """``game_version`` of a game read already: its version as the database has it stored."""
    stored = connection.ops.adapt_datetimefield_value(game.updated_at)
    return f"{game.last_entry_number}-{stored}"


def pushed_part(game_id: str, entry: int | None = None, stored: Stored | None = None) -> str | None:
    """``live_part`` for a stream (``scorekeeper.live.stream``), in a thread of its own that
    outlives requests: its database connection is let go when it has grown old, as a
    request's is. None when it can't be had (the game is gone, the database is busy): the
    event goes without it and the screen fetches the part."""
    if not connection.in_atomic_block:
        close_old_connections()
    try:
        return live_part(game_id, entry=entry, stored=stored)
    except GameNotFound:
        return None
    except DatabaseError:
        log.warning("The live part of game %s could not be read: sent without it.", game_id)
        return None
