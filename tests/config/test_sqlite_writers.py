"""SQLite's writers queue for the write lock (config.sqlite): across processes on a lock file
beside the database, across threads on a lock of the process; let go at commit, rollback or
close; past the busy timeout, SQLite's own "database is locked" (the app's 503)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
from django.db import OperationalError, connection, transaction
from django.test import Client

from config.cache import DatabaseCache
from config.sqlite import base as sqlite_base
from scorekeeper.games import domain
from scorekeeper.http import limits, retries
from scorekeeper.models import Player
from tests.factories import ApiGame

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's writers only"),
]

HOLD = """
import fcntl, os, sys
held = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(held, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()
"""


def write_elsewhere(name: str) -> None:
    """A write from another thread (its own connection), as another request's."""

    def write() -> None:
        try:
            with transaction.atomic():
                domain.player_named(name)
        finally:
            connection.close()

    other = threading.Thread(target=write)
    other.start()
    other.join(30)


def test_a_writer_waits_for_another_process_and_gives_up_as_sqlite_would():
    path = f"{connection.settings_dict['NAME']}-writers"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    options = connection.settings_dict["OPTIONS"]
    timeout = options.get("timeout", 5)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        options["timeout"] = 0.3
        with pytest.raises(OperationalError, match="database is locked"), transaction.atomic():
            domain.player_named("Zed")
    finally:
        options["timeout"] = timeout
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(10)
    assert not Player.objects.filter(name="Zed").exists()  # nothing half-written
    with transaction.atomic():  # the other process let go: in at once
        domain.player_named("Zed")
    assert Player.objects.filter(name="Zed").exists()


def test_the_queue_is_let_go_after_a_rollback_and_a_commit():
    with pytest.raises(ValueError), transaction.atomic():
        domain.player_named("Ann")
        raise ValueError("refused")
    write_elsewhere("Ben")  # would wait out the busy timeout had the rollback kept the queue
    with transaction.atomic():
        domain.player_named("Cy")
    write_elsewhere("Dee")
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ben", "Cy", "Dee"]


def test_the_rate_counts_and_the_cache_in_the_database_write_in_the_queue(monkeypatch):
    # Written outside a transaction they would skip the queue, and sleep in SQLite's busy
    # handler whenever a turn held the lock (and make the turns queued behind them sleep).
    queued: list[bool] = []
    acquire, here = sqlite_base._Writers.acquire, threading.current_thread()

    def counted(self, timeout):  # type: ignore[no-untyped-def]
        if threading.current_thread() is here:  # not the checkpoint thread's
            queued.append(True)
        acquire(self, timeout)

    monkeypatch.setattr(sqlite_base._Writers, "acquire", counted)
    # A process's first count of each minute sweeps the ended windows too, a write of its own
    # in the queue: not here, so that the count of writes is the test's, not the clock's.
    monkeypatch.setattr(limits, "_sweep_due", lambda: False)
    assert limits._add("rate:turns:203.0.113.9:1", 1, time.time() + 60) == 1
    assert limits._add("rate:turns:203.0.113.9:1", 2, time.time() + 60) == 3
    assert len(queued) == 2
    shared = DatabaseCache("scorekeeper_cache", {})
    shared.set("answer", {"status": 201})
    assert shared.get("answer") == {"status": 201} and len(queued) == 3
    assert shared.delete("answer") and shared.get("answer") is None
    assert len(queued) == 4
    shared.clear()
    assert len(queued) == 5


def test_a_second_thread_waits_for_the_first_writer_then_goes_in():
    entered = threading.Event()
    release = threading.Event()
    order: list[str] = []

    def first() -> None:
        try:
            with transaction.atomic():
                domain.player_named("Ann")
                entered.set()
                release.wait(10)
                order.append("first done")
        finally:
            connection.close()

    holder = threading.Thread(target=first)
    holder.start()
    assert entered.wait(10)
    second = threading.Thread(target=lambda: (write_elsewhere("Ben"), order.append("second")))
    second.start()
    second.join(0.3)
    assert order == []  # still queued behind the first
    release.set()
    holder.join(10)
    second.join(10)
    assert order == ["first done", "second"]
    assert Player.objects.filter(name="Ben").exists()


# Checkpoints: out of the writers' way ----------------------------------------------------------
PAGE = 4096


def write_pages(transactions: int, rows: int = 50) -> None:
    """``transactions`` commits, each of about ``rows`` pages (a row of a page's size each)."""
    for _ in range(transactions):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany("INSERT INTO bulk (x) VALUES (?)", [("x" * PAGE,)] * rows)


@pytest.fixture
def bulk():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bulk (x TEXT)")
    yield
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE bulk")


def wal_pages() -> int:
    return os.path.getsize(f"{connection.settings_dict['NAME']}-wal") // PAGE


def test_a_commit_does_not_checkpoint_below_the_safety_net(bulk, monkeypatch):
    """SQLite would copy the log back (holding the write lock) in the commit that passes 1,000
    pages, and the next writer would start the log over; here the log keeps growing for the
    process's checkpoint thread, held off in this test."""
    monkeypatch.setattr(sqlite_base._Checkpoints, "written", lambda self: None)
    connection.close()  # a new connection: the pragma is set as it opens
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        assert cursor.fetchone()[0] == sqlite_base.AUTOCHECKPOINT_PAGES
    write_pages(30)  # 1,500 pages
    assert wal_pages() > 1_400


def test_a_process_that_writes_checkpoints_in_a_thread_of_its_own(bulk, monkeypatch):
    monkeypatch.setattr(sqlite_base, "CHECKPOINT_SECONDS", 0.01)
    passive = sqlite_base._passive
    calls: list[str] = []

    def spied(conn: sqlite3.Connection) -> tuple[int, int, int]:
        calls.append(threading.current_thread().name)
        return passive(conn)

    monkeypatch.setattr(sqlite_base, "_passive", spied)
    write_pages(1)
    checkpoints = sqlite_base._checkpoints[str(connection.settings_dict["NAME"])]
    assert checkpoints.pid == os.getpid()  # the first commit started this process's thread
    deadline = time.monotonic() + 10
    while "sqlite-checkpoints" not in calls and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "sqlite-checkpoints" in calls


def test_past_restart_pages_the_log_is_checkpointed_whole_and_starts_over(tmp_path, monkeypatch):
    """A checkpoint without the writers' queue leaves behind what was written while it ran, and
    the next commit appends to the log, which so never starts over under steady writes; past
    ``RESTART_PAGES`` those last pages are checkpointed with the queue held, and the next
    commit starts the log from its beginning."""
    path = str(tmp_path / "log.sqlite3")
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE bulk (x TEXT)")

    def commit(rows: int) -> None:
        writer.executemany("INSERT INTO bulk (x) VALUES (?)", [("x" * PAGE,)] * rows)

    passive = sqlite_base._passive
    ran: list[int] = []

    def while_turns_are_written(conn: sqlite3.Connection) -> tuple[int, int, int]:
        first = not ran
        if first:  # a turn begun before the checkpoint, committed while it runs
            writer.execute("BEGIN IMMEDIATE")
            commit(5)
        found = passive(conn)
        ran.append(found[1])
        if first:
            writer.execute("COMMIT")
        return found

    monkeypatch.setattr(sqlite_base, "_passive", while_turns_are_written)
    checker = sqlite3.connect(path, isolation_level=None)
    checkpoints = sqlite_base._Checkpoints(path, sqlite_base._Writers(f"{path}-writers"))
    try:
        commit(300)
        monkeypatch.setattr(sqlite_base, "RESTART_PAGES", 10_000)
        checkpoints.checkpoint(checker)
        commit(1)
        assert passive(checker)[1] > 300  # appended: the log goes on growing
        ran.clear()
        commit(200)  # (that look checkpointed it all: this starts the log over)
        monkeypatch.setattr(sqlite_base, "RESTART_PAGES", 100)
        pages, done = checkpoints.checkpoint(checker)
        assert len(ran) == 2 and done == pages > 200  # the rest, with the queue held
        commit(1)
        assert 0 < passive(checker)[1] <= 5  # the log started over
    finally:
        writer.close()
        checker.close()


def test_a_keyed_turn_queues_three_times_and_its_replay_never(monkeypatch, settings):
    # The slot's claim, the turn, the answer kept; a replay only reads.
    settings.RATE_LIMIT_TURNS = settings.RATE_LIMIT_GAMES = 0
    monkeypatch.setattr(retries, "SWEEP_CHANCE", 0)
    game = ApiGame(Client(), lexicon="honour")
    queued: list[bool] = []
    acquire, here = sqlite_base._Writers.acquire, threading.current_thread()

    def counted(self, timeout):  # type: ignore[no-untyped-def]
        if threading.current_thread() is here:  # not the checkpoint thread's
            queued.append(True)
        acquire(self, timeout)

    monkeypatch.setattr(sqlite_base._Writers, "acquire", counted)
    assert game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    assert len(queued) == 3
    assert game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY="k")["Idempotent-Replayed"]
    assert len(queued) == 3
