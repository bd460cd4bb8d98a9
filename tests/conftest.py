"""Fixtures for the whole suite."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.cache import cache

from referee.apps import reset_library


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate-limit counters live in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


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
    """SQLite's WAL side files can outlive the test database (a killed server holds them)."""
    from django.conf import settings

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    if name and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        for suffix in ("-wal", "-shm"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)
