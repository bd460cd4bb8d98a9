"""Django's SQLite backend, with the writers of every process and thread taking turns.

SQLite lets one transaction write at a time, and its busy handler sleeps on a fixed back-off
whatever the lock's holder does, so a waiting turn may sleep long after the lock is free.
Here a transaction queues before ``BEGIN IMMEDIATE`` on a lock that wakes the next writer the
moment the last one is done: a lock for the process's threads, then ``flock`` on a file beside
the database for the processes. SQLite's own busy
timeout still bounds a writer that some other program holds up (a backup, the sqlite3 shell).

Checkpoints (copying the write-ahead log back into the database file) are kept out of the
writers' way too, since SQLite runs one inside a commit that holds the write lock meanwhile,
with every other turn queued behind it (docs/performance.md). Here a commit checkpoints only
past ``AUTOCHECKPOINT_PAGES`` (a safety net), and a thread of each process that writes does it
every ``CHECKPOINT_SECONDS``: first without the lock (PASSIVE: it waits for no one, the copying
and the syncing done while turns are written), then, once the log has grown past
``RESTART_PAGES``, again with the writers' queue held for the few pages written meanwhile, so
that the next writer starts the log over (a log restarts only after a checkpoint that left
nothing behind; else it grows without end).
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from django.db import OperationalError
from django.db.backends.sqlite3 import base

log = logging.getLogger("scorekeeper.sqlite")

AUTOCHECKPOINT_PAGES = 20_000  # a commit checkpoints past this (80 MB): the thread fell behind
CHECKPOINT_SECONDS = 0.5  # how often a process that wrote checkpoints
RESTART_PAGES = 4_000  # past this (16 MB), the log is checkpointed whole and starts over


class _Writers:
    """One database file's queue of writers in this process."""

    def __init__(self, path: str | None) -> None:
        self.threads = threading.Lock()
        self.path = path
        self.file: int | None = None
        self.pid = 0

    def acquire(self, timeout: float) -> None:
        """Wait for this process's threads, then for the other processes; past ``timeout``
        seconds, SQLite's own "database is locked" (answered 503 by the app)."""
        deadline = time.monotonic() + timeout
        if not self.threads.acquire(timeout=timeout):
            raise OperationalError("database is locked (writers queued too long)")
        if self.path is None:
            return
        try:
            if self.pid != os.getpid():  # a forked worker opens its own
                self.file = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                self.pid = os.getpid()
            assert self.file is not None
            # One thread a process waits here; the lock's holder is another process's
            # transaction (milliseconds), so trying each half millisecond costs nothing.
            while True:
                try:
                    fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise OperationalError(
                            "database is locked (writers queued too long)"
                        ) from None
                    time.sleep(0.0005)
        except BaseException:
            self.threads.release()
            raise

    def release(self) -> None:
        try:
            if self.path is not None and self.file is not None:
                fcntl.flock(self.file, fcntl.LOCK_UN)
        finally:
            self.threads.release()


class _Checkpoints:
    """One database file's checkpoints in this process: a thread, started by the process's
    first commit, that checkpoints while the process writes."""

    def __init__(self, database: str, writers: _Writers) -> None:
        self.database = database
        self.writers = writers
        self.wrote = threading.Event()
        self.lock = threading.Lock()
        self.pid = 0

    def written(self) -> None:
        if self.pid != os.getpid():  # the first commit here, or a forked worker's
            with self.lock:
                if self.pid != os.getpid():
                    self.pid = os.getpid()
                    threading.Thread(
                        target=self._loop, name="sqlite-checkpoints", daemon=True
                    ).start()
        self.wrote.set()

    def _loop(self) -> None:
        connection: sqlite3.Connection | None = None
        while True:
            self.wrote.wait()
            time.sleep(CHECKPOINT_SECONDS)
            self.wrote.clear()
            try:
                if connection is None:
                    # Read-write, never made: a database file that is gone stays gone.
                    connection = sqlite3.connect(
                        Path(self.database).resolve().as_uri() + "?mode=rw",
                        uri=True,
                        timeout=5,
                        isolation_level=None,
                        check_same_thread=False,
                    )
                self.checkpoint(connection)
            except Exception:  # noqa: BLE001 - busy, or the file is gone: next time
                log.warning("SQLite checkpoint skipped", exc_info=True)
                if connection is not None:
                    connection.close()
                connection = None

    def checkpoint(self, connection: sqlite3.Connection) -> tuple[int, int]:
        """Checkpoint without the lock, then, past ``RESTART_PAGES``, with the writers' queue
        held, so that the log starts over: the log's pages and those checkpointed."""
        _, pages, done = _passive(connection)
        if pages >= RESTART_PAGES and done >= pages * 0.9:
            self.writers.acquire(5.0)
            try:
                _, pages, done = _passive(connection)
            finally:
                self.writers.release()
        return pages, done


def _passive(connection: sqlite3.Connection) -> tuple[int, int, int]:
    """``PRAGMA wal_checkpoint(PASSIVE)``: whether it was blocked, the log's pages, and how
    many of them are now in the database file. Read whole, so the statement holds nothing."""
    rows = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    busy, pages, done = rows[0]
    return int(busy), int(pages), int(done)


_queues: dict[str, _Writers] = {}
_checkpoints: dict[str, _Checkpoints] = {}
_queues_lock = threading.Lock()


def _writers(name: str, in_memory: bool) -> _Writers:
    with _queues_lock:
        if name not in _queues:
            _queues[name] = _Writers(None if in_memory else f"{name}-writers")
            if not in_memory:
                _checkpoints[name] = _Checkpoints(name, _queues[name])
        return _queues[name]


class DatabaseWrapper(base.DatabaseWrapper):
    _writing: _Writers | None = None

    def get_new_connection(self, conn_params: Any) -> Any:
        connection = super().get_new_connection(conn_params)
        if not self.is_in_memory_db():
            connection.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
        return connection

    def _start_transaction_under_autocommit(self) -> None:
        writers = _writers(str(self.settings_dict["NAME"]), self.is_in_memory_db())
        writers.acquire(float(self.settings_dict["OPTIONS"].get("timeout", 5)))
        self._writing = writers
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._let_writers_go()
            raise

    def _let_writers_go(self) -> None:
        writers, self._writing = self._writing, None
        if writers is not None:
            writers.release()

    def _commit(self) -> None:
        wrote = self._writing is not None
        try:
            super()._commit()  # type: ignore[misc]
        finally:
            self._let_writers_go()
        checkpoints = _checkpoints.get(str(self.settings_dict["NAME"])) if wrote else None
        if checkpoints is not None:
            checkpoints.written()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]
        finally:
            self._let_writers_go()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]
        finally:
            self._let_writers_go()
