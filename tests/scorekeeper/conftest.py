"""Fixtures for the scorekeeper: a small club word list in its own LEXICON_DIR."""

from __future__ import annotations

import pytest

from referee.apps import reset_library

CLUB_WORDS = """
MOOD DEAR NET ON WOOD WOOL LEAP SNACK LEAN PLUS NETS CAT CATS AT QUIT HOUSE EXAM ZAG AH GO
JO OX ZA QI HA HE AX TA TO OD DO
"""


@pytest.fixture(scope="session")
def lexicon_cache(tmp_path_factory):
    """One compiled-trie cache for the session: each list is compiled once, as in production."""
    return tmp_path_factory.mktemp("lexicon-cache")


@pytest.fixture(autouse=True)
def club_lexicon(settings, tmp_path, lexicon_cache):
    """LEXICON_DIR holds one list, CLUB."""
    folder = tmp_path / "lexica"
    folder.mkdir()
    (folder / "CLUB.txt").write_text("\n".join(sorted(set(CLUB_WORDS.split()))) + "\n")
    settings.LEXICON_DIR = str(folder)
    settings.LEXICON_USER_DIR = tmp_path / "user-lexica"
    settings.LEXICON_CACHE_DIR = lexicon_cache
    reset_library()
    yield folder
    reset_library()
