"""Counting the builds of a word list's GADDAG across processes, for the tests of its one build
per machine (``referee.lexicon``): each build appends its process id to ``BUILDS_FILE`` in the
cache folder, and a process's wait for another's build is read from ``/proc/locks``."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path

from referee.dawg import Dawg

BUILDS_FILE = "gaddag-builds"
HOLD_SECONDS = 60  # the most a held build waits for another process to want the structures


def builds(cache: Path) -> int:
    try:
        return len((cache / BUILDS_FILE).read_text().split())
    except FileNotFoundError:
        return 0


def waiting_for_a_build(cache: Path) -> bool:
    """Whether a process (or a thread) waits for the lock of a GADDAG build in ``cache``."""
    locks = set()
    for path in cache.glob("*.gaddag.lock"):
        found = path.stat()
        locks.add(f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}")
    # A waiting lock's line: "3: -> FLOCK  ADVISORY  WRITE 9964 fe:00:2146578 0 EOF".
    return any(
        "->" in fields and fields[-3] in locks
        for fields in (line.split() for line in Path("/proc/locks").read_text().splitlines())
    )


def count_builds(cache: Path, *, hold: bool = False) -> None:
    """Count this process's GADDAG builds from now on; with ``hold``, each waits (before it
    builds, up to ``HOLD_SECONDS``) until another process wants the structures too: builds a
    second time, or waits for this build."""
    build = Dawg.gaddag_from_words.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Dawg], words: Iterable[str]) -> Dawg:
        with open(cache / BUILDS_FILE, "a") as log:
            log.write(f"{os.getpid()}\n")
        deadline = time.monotonic() + HOLD_SECONDS
        while hold and time.monotonic() < deadline:
            if builds(cache) >= 2 or waiting_for_a_build(cache):
                break
            time.sleep(0.01)
        built: Dawg = build(cls, words)
        return built

    Dawg.gaddag_from_words = classmethod(counted)  # type: ignore[assignment,method-assign]
