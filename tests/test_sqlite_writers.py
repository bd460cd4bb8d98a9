"""SQLite's writers queue for the write lock (config.sqlite): across processes on a lock file
beside the database, across threads on a lock of the process; let go at commit, rollback or
close; past the busy timeout, SQLite's own "database is locked" (the app's 503)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from django.db import OperationalError, connection, transaction

from scorekeeper.game import domain
from scorekeeper.models import Player

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
