"""manage.py import_lexicon PATH [--id ID] [--force]: add a word list of your own."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from referee.lexicon import (
    HONOUR_ID,
    LexiconFileError,
    UnknownLexicon,
    compile_lexicon,
    read_word_list,
    write_word_list,
)
from referee.library import get_library, reset_library

LEXICON_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


def _bar_updater(bar: tqdm[Any]) -> Callable[[int], None]:
    # The lexicon module reports bytes read so far; tqdm wants increments.
    def update(done: int) -> None:
        bar.update(done - bar.n)

    return update


class Command(BaseCommand):
    help = (
        "Import a word list (one word per line; blank lines and '#' comments are skipped) "
        "into LEXICON_USER_DIR as <ID>.txt and compile it, so games can use it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the word list file")
        parser.add_argument(
            "--id",
            dest="lexicon_id",
            help="the lexicon's id (letters, digits, _ and -; default: the file name, uppercased)",
        )
        parser.add_argument(
            "--force", action="store_true", help="replace an existing lexicon with the same id"
        )

    def handle(
        self, *args: Any, path: Path, lexicon_id: str | None, force: bool, **options: Any
    ) -> None:
        hint = "" if lexicon_id else " (the file name doesn't make one: choose one with --id)"
        lexicon_id = lexicon_id or path.stem.upper()
        if not LEXICON_ID.fullmatch(lexicon_id):
            raise CommandError(
                f"{lexicon_id!r} can't be a lexicon id: use 1 to 40 letters, digits, '_' or '-'"
                f"{hint}."
            )
        if lexicon_id.lower() == HONOUR_ID:
            raise CommandError(
                f"{HONOUR_ID!r} is reserved for honour-system games; choose another id with --id."
            )

        library = get_library()
        try:
            existing = library.info(lexicon_id)
        except UnknownLexicon:
            existing = None
        if existing is not None:
            if existing.source == "LEXICON_DIR":
                # Imported lists are searched after LEXICON_DIR, so --force could not win.
                raise CommandError(
                    f"{existing.id} already comes from LEXICON_DIR ({existing.path}), which "
                    "takes precedence over imported lists; choose another id with --id."
                )
            if not force:
                raise CommandError(
                    f"A lexicon called {existing.id} already exists ({existing.source}: "
                    f"{existing.path}). Use --force to replace it, or --id to choose another id."
                )

        # A bar on stderr keeps stdout clean for the one-line summary.
        stream = options.get("stderr") or sys.stderr
        size = path.stat().st_size if path.is_file() else 0
        try:
            # No bar for a missing or empty file: the error says it all.
            with tqdm(
                total=size, unit="B", unit_scale=True, desc="Reading", file=stream, disable=not size
            ) as bar:
                words = read_word_list(path, progress=_bar_updater(bar))
        except LexiconFileError as error:
            raise CommandError(str(error)) from error

        user_dir = Path(settings.LEXICON_USER_DIR)
        user_dir.mkdir(parents=True, exist_ok=True)
        target = user_dir / f"{lexicon_id}.txt"
        write_word_list(target, words)
        if existing is not None and existing.source == "imported" and existing.path != target:
            # Same id in another case (ids are case-insensitive): keep only the new file.
            existing.path.unlink(missing_ok=True)

        total = target.stat().st_size
        with tqdm(total=total, unit="B", unit_scale=True, desc="Compiling", file=stream) as bar:
            lexicon = compile_lexicon(
                target, Path(settings.LEXICON_CACHE_DIR), lexicon_id, progress=_bar_updater(bar)
            )
        reset_library()  # this process's library may have listed the old set of lexica
        self.stdout.write(f"Imported {lexicon.id}: {lexicon.word_count} words, {lexicon.checksum}")
