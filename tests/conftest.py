"""Fixtures for the whole suite."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate-limit counters live in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()
