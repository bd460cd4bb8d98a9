"""The app in the benchmark's own process (no HTTP) on a throwaway SQLite database, and a
watch on SQLite's write lock, for bench/sqlite_writers.py and bench/long_log.py."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from bench.server import ROOT


def setup_django(database: Path, **settings: str) -> None:
    """Django set up in this process on the SQLite file ``database``, production settings
    but for a memory cache and any host; ``settings`` adds environment variables."""
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))  # after the harness: bench is always the harness's
    os.chdir(ROOT)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{database}",
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        CACHE_URL="memory",
        ALLOWED_HOSTS="*",
        **settings,
    )
    import django

    django.setup()


def lock_holds() -> list[float]:
    """From now on, each hold of SQLite's write lock in this process, in ms, from the writers'
    queue letting it in to its release (the list fills as turns are entered)."""
    from config.sqlite import base

    held: list[float] = []
    acquire, release = base._Writers.acquire, base._Writers.release
    taken: dict[int, float] = {}

    def timed_acquire(self: Any, timeout: float) -> None:
        acquire(self, timeout)
        taken[id(self)] = time.perf_counter()

    def timed_release(self: Any) -> None:
        held.append((time.perf_counter() - taken.pop(id(self), time.perf_counter())) * 1000)
        release(self)

    base._Writers.acquire, base._Writers.release = timed_acquire, timed_release  # type: ignore[method-assign]
    return held
