"""Fixtures for the scorekeeper: a small club word list in its own LEXICON_DIR."""

from __future__ import annotations

import pytest

CLUB_WORDS = """
MOOD DEAR NET ON WOOD WOOL LEAP SNACK LEAN PLUS NETS CAT CATS AT QUIT HOUSE EXAM ZAG AH GO
JO OX ZA QI HA HE AX TA TO OD DO
"""


@pytest.fixture(autouse=True)
def club_lexicon(use_words):
    """LEXICON_DIR holds one list, CLUB."""
    return use_words(CLUB_WORDS)
