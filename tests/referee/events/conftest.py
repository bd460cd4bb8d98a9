"""The events' rules are plain Python: they need no word list and no database."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def club_lexicon() -> None:
    """Overrides the scorekeeper's word list: nothing here reads words."""
