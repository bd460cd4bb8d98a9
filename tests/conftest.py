"""Fixtures for the whole suite."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.cache import cache

from referee import reset_library

# The slow kinds, by where they live: `make quick` runs everything else.
SLOW_KINDS = {
    "server": (  # start gunicorn, or run the documented commands in a scratch project
        "tests/faults/",
        "tests/hostile/test_server_cost.py",
        "tests/security/test_logs.py",
        "tests/test_readme_commands.py",
    ),
    "fuzz": (  # many generated requests or records
        "tests/hostile/test_api_fuzz.py",
        "tests/hostile/test_gcg_fuzz.py",
        "tests/hostile/test_pages_fuzz.py",
        "tests/hostile/test_schemathesis.py",
    ),
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = config.rootpath
    for item in items:
        where = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        for marker, places in SLOW_KINDS.items():
            if where.startswith(places):
                item.add_marker(marker)


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate-limit counters live in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def quick_passwords(settings):
    """Accounts' passwords hashed by a quick hasher, as Django's testing guide advises: the
    production one (PBKDF2, a million rounds) is slow on purpose, half a second a password
    here, and the suite makes and signs in hundreds of accounts. What is tested of passwords
    (who may sign in, what a refusal says) doesn't depend on the hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


LIMITS_CLOCK = 1_800_000_030.0  # half a minute into a rate limit's minute window


@pytest.fixture(autouse=True)
def steady_limit_window(monkeypatch):
    """Rate limits count in fixed windows (a minute, an hour). A test that sends a few requests
    and expects the last refused must not see its window end between two of them, as it would
    at a minute's turn once in a while: the limits read a clock stopped mid-window."""
    from scorekeeper.http import limits

    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: LIMITS_CLOCK))


@pytest.fixture(scope="session")
def lexicon_cache(tmp_path_factory) -> Path:
    """One compiled-trie cache for the session: each list is compiled once, as in production."""
    return tmp_path_factory.mktemp("lexicon-cache")


@pytest.fixture
def use_words(settings, tmp_path, lexicon_cache) -> Iterator[Callable[..., Path]]:
    """``use_words("MOOD DEAR", name="CLUB")``: LEXICON_DIR holds just that list."""

    def install(words: str, name: str = "CLUB") -> Path:
        folder = tmp_path / "lexica"
        folder.mkdir(exist_ok=True)
        (folder / f"{name}.txt").write_text("\n".join(sorted(set(words.upper().split()))) + "\n")
        settings.LEXICON_DIR = str(folder)
        settings.LEXICON_USER_DIR = tmp_path / "user-lexica"
        settings.LEXICON_CACHE_DIR = lexicon_cache
        reset_library()
        return folder

    yield install
    reset_library()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """SQLite's side files (WAL, shared memory, the writers' lock) can outlive the test database."""
    from django.conf import settings
    from django.db import connections

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    # The engine is the project's own (config.sqlite), so ask the backend, not the engine's name.
    if name and connections["default"].vendor == "sqlite":
        for suffix in ("-wal", "-shm", "-writers"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)
