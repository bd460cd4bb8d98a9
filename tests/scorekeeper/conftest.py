"""Fixtures for the scorekeeper: a small club word list in its own LEXICON_DIR."""

from __future__ import annotations

import pytest

from tests.factories import CLUB_WORDS


@pytest.fixture(autouse=True)
def club_lexicon(use_words):
    """LEXICON_DIR holds one list, CLUB."""
    return use_words(CLUB_WORDS)
