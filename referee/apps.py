"""The referee's Django edge: app config and the process-wide lexicon library."""

from __future__ import annotations

import functools
from pathlib import Path

from django.apps import AppConfig
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from referee.lexicon import LexiconLibrary


class RefereeConfig(AppConfig):
    name = "referee"
    verbose_name = "Referee"


@functools.cache
def get_library() -> LexiconLibrary:
    """The lexica configured in settings, built once per process.

    LEXICON_DIR (if set) is searched before LEXICON_USER_DIR, where
    `manage.py import_lexicon` writes; compiled tries go to LEXICON_CACHE_DIR.
    """
    dirs: list[Path] = []
    if settings.LEXICON_DIR:
        lexicon_dir = Path(settings.LEXICON_DIR)
        if not lexicon_dir.is_dir():
            raise ImproperlyConfigured(
                f"LEXICON_DIR is set to {settings.LEXICON_DIR!r}, which is not a folder. "
                "Point it at a folder of word lists (one <ID>.txt per lexicon), or unset it "
                "to use the CSW19 list that comes with pyscrabbler."
            )
        dirs.append(lexicon_dir)
    user_dir = Path(settings.LEXICON_USER_DIR)
    dirs.append(user_dir)
    return LexiconLibrary(dirs, Path(settings.LEXICON_CACHE_DIR), user_dir=user_dir)


def reset_library() -> None:
    """Forget the library, so the next `get_library()` reads settings afresh (tests, imports)."""
    get_library.cache_clear()
