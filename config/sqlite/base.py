"""Django's SQLite backend, with the writers of every process and thread taking turns.

SQLite lets one transaction write at a time. A writer that finds the lock taken gets
SQLITE_BUSY, and its busy handler sleeps and tries again: 1, 2, 5, 10, 15, 20, 25 ms... so when
writes come often (a club night's turns from two workers), a turn that had to wait slept tens
of milliseconds after the lock was free. Here a transaction queues before ``BEGIN IMMEDIATE``
on a lock that wakes the next writer the moment the last one is done: a lock for the process's
threads, then ``flock`` on a file beside the database for the processes. SQLite's own busy
timeout still bounds a writer that some other program holds up (a backup, the sqlite3 shell).
"""

from __future__ import annotations

import fcntl
import os
import threading
import time

from django.db import OperationalError
from django.db.backends.sqlite3 import base


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


_queues: dict[str, _Writers] = {}
_queues_lock = threading.Lock()


def _writers(name: str, in_memory: bool) -> _Writers:
    with _queues_lock:
        if name not in _queues:
            _queues[name] = _Writers(None if in_memory else f"{name}-writers")
        return _queues[name]


class DatabaseWrapper(base.DatabaseWrapper):
    _writing: _Writers | None = None

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
        try:
            super()._commit()  # type: ignore[misc]
        finally:
            self._let_writers_go()

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
