"""The process's library of word lists: where they are is configured once, the library is built
on first use.

Plain Python, like the rest of the engine: whoever runs the referee says where the lists are
with ``configure`` (the Django app does it from its ``LEXICON_*`` settings in
``referee.apps``, again whenever a test overrides one of them), and every caller shares the
``LexiconLibrary`` that ``get_library`` builds::

    configure(lexicon_dir=None, user_dir=Path("var/lexica"), cache_dir=Path("var/cache"))
    get_library().get("CSW19").contains("ZO")  # True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from referee.lexicon import LexiconLibrary


class LibraryNotReady(RuntimeError):
    """The library can't be built: never configured, or configured with a folder that isn't
    one. The message says what to set."""


@dataclass(frozen=True)
class LibraryConfig:
    """Where the word lists are. ``lexicon_dir`` (LEXICON_DIR, optional) is searched before
    ``user_dir`` (LEXICON_USER_DIR, where ``manage.py import_lexicon`` writes); compiled tries
    go to ``cache_dir`` (LEXICON_CACHE_DIR)."""

    lexicon_dir: Path | None
    user_dir: Path
    cache_dir: Path


_config: LibraryConfig | None = None  # set by ``configure``


def configure(
    *, lexicon_dir: str | Path | None, user_dir: str | Path, cache_dir: str | Path
) -> None:
    """Say where the word lists are; the next ``get_library()`` builds the library afresh."""
    global _config
    _config = LibraryConfig(
        Path(lexicon_dir) if lexicon_dir else None, Path(user_dir), Path(cache_dir)
    )
    reset_library()


@functools.cache
def get_library() -> LexiconLibrary:
    """The configured lexica, built once per process (``reset_library`` forgets it)."""
    config = _config
    if config is None:
        raise LibraryNotReady(
            "The word lists are not configured: call referee.library.configure(...) first "
            "(the Django app does it when it starts)."
        )
    dirs: list[Path] = []
    if config.lexicon_dir is not None:
        if not config.lexicon_dir.is_dir():
            raise LibraryNotReady(
                f"LEXICON_DIR is set to {str(config.lexicon_dir)!r}, which is not a folder. "
                "Point it at a folder of word lists (one <ID>.txt per lexicon), or unset it "
                "to use the CSW19 list that comes with pyscrabbler."
            )
        dirs.append(config.lexicon_dir)
    dirs.append(config.user_dir)
    return LexiconLibrary(dirs, config.cache_dir, user_dir=config.user_dir)


def reset_library() -> None:
    """Forget the library, so the next ``get_library()`` builds it again (after an import)."""
    get_library.cache_clear()
