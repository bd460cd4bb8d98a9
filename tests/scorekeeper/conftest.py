"""Fixtures for the scorekeeper: a small club word list in its own LEXICON_DIR."""

from __future__ import annotations

import pytest

from referee.apps import reset_library

CLUB_WORDS = """
MOOD DEAR NET ON WOOD WOOL LEAP SNACK LEAN PLUS NETS CAT CATS AT QUIT HOUSE EXAM ZAG AH GO
JO OX ZA QI HA HE AX TA TO OD DO
"""


@pytest.fixture(autouse=True)
def club_lexicon(settings, tmp_path):
    """LEXICON_DIR holds one list, CLUB; compiled tries go to a temporary cache."""
    folder = tmp_path / "lexica"
    folder.mkdir()
    (folder / "CLUB.txt").write_text("\n".join(sorted(set(CLUB_WORDS.split()))) + "\n")
    settings.LEXICON_DIR = str(folder)
    settings.LEXICON_USER_DIR = tmp_path / "user-lexica"
    settings.LEXICON_CACHE_DIR = tmp_path / "lexicon-cache"
    reset_library()
    yield folder
    reset_library()
