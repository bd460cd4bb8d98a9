"""manage.py lexicons: list every lexicon on offer, with word counts and checksums."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from referee.lexicon import HONOUR_ID, CompiledLexicon, LexiconFileError
from referee.library import get_library


class Command(BaseCommand):
    help = (
        "List the available lexica: id, word count, sha256 of the word list, and source. "
        "With --analysis, also build each list's move-generator structures (once; the largest "
        "take about half a minute)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--analysis",
            action="store_true",
            help="build the structures the analysis (every legal play) walks",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        library = get_library()
        rows = [("ID", "WORDS", "CHECKSUM", "SOURCE", "PATH")]
        failures = []
        for info in library.infos():
            try:
                lexicon = library.get(info.id)  # compiles on first use
            except LexiconFileError as error:
                # One broken list shouldn't hide the others.
                rows.append((info.id, "-", "unusable", info.source, str(info.path)))
                failures.append(str(error))
                continue
            ready = not isinstance(lexicon, CompiledLexicon) or lexicon.analysis_ready()
            if options["analysis"] and not ready:
                assert isinstance(lexicon, CompiledLexicon)
                self.stderr.write(f"building the analysis structures of {lexicon.id}…")
                lexicon.prepare_analysis()
            rows.append(
                (info.id, str(lexicon.word_count), lexicon.checksum, info.source, str(info.path))
            )
        rows.append((HONOUR_ID, "-", "-", "built in", "accepts every word"))

        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
        for row in rows:
            cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
            self.stdout.write("  ".join([*cells, row[-1]]))
        for failure in failures:
            self.stderr.write(failure)
