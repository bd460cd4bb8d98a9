"""The referee's Django edge: its app config, which tells the word-list library
(``referee.library``, plain Python) where the lists are from the ``LEXICON_*`` settings."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.signals import setting_changed

from referee.library import configure

LIBRARY_SETTINGS = ("LEXICON_DIR", "LEXICON_USER_DIR", "LEXICON_CACHE_DIR")


class RefereeConfig(AppConfig):
    name = "referee"
    verbose_name = "Referee"

    def ready(self) -> None:
        configure_library()
        setting_changed.connect(_library_setting_changed, dispatch_uid="referee-library")


def configure_library() -> None:
    """Point the library at the folders the settings name (the next use builds it afresh)."""
    configure(
        lexicon_dir=settings.LEXICON_DIR,
        user_dir=settings.LEXICON_USER_DIR,
        cache_dir=settings.LEXICON_CACHE_DIR,
    )


def _library_setting_changed(*, setting: str, **kwargs: Any) -> None:
    # A test's settings override (pytest-django's ``settings``, ``override_settings``) and its
    # undoing both land here.
    if setting in LIBRARY_SETTINGS:
        configure_library()
