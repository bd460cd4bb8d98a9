"""An event's files beside its ``.t`` file (``tournaments.export_t``): the standings as a CSV
file, one writer for its page and the API; and the largest ``.t`` file an import takes.

One line a player in the standings' order, with a header: ``rank`` as shown ("1="), ``name``
as entered, ``wins`` and ``losses`` (a draw is ½: 1.5), ``spread``, ``games`` played,
``gibsonized`` (yes or no, in the latest round), ``rating_before``, ``rating_after``,
``rating_change`` and ``withdrawn`` (yes or no). A name a spreadsheet would read as a
formula (starting ``=``, ``+``, ``-`` or ``@``) is written with a ``'`` before it. An event
of several divisions has a ``division`` column first, each division's standings one after
another.
"""

from __future__ import annotations

import csv
import io

from scorekeeper.game.tournaments import division_standings
from scorekeeper.models import Tournament

T_FILE_MOST = 1_000_000  # characters: a .t file of 200 players and 30 rounds is far less
HEADER = (
    "rank", "name", "wins", "losses", "spread", "games", "gibsonized", "rating_before",
    "rating_after", "rating_change", "withdrawn",
)  # fmt: skip
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    return f"'{value}" if value.startswith(FORMULA_START) else value


def standings_csv(tournament: Tournament) -> str:
    """The standings of ``tournament`` as CSV text (lines ending CRLF, as RFC 4180 has it)."""
    out = io.StringIO()
    writer = csv.writer(out)
    divided = division_standings(tournament)
    several = len(divided) > 1
    writer.writerow((("division",) if several else ()) + HEADER)
    for division, row in ((name, row) for name, rows in divided for row in rows):
        line = row.standing
        writer.writerow(
            ((_text(division),) if several else ()) + (
                line.rank, _text(line.player.name), f"{line.wins:g}", f"{line.losses:g}",
                line.spread, line.games, "yes" if row.gibsonized else "no", row.rating_before,
                row.rating_after, row.rating_change, "no" if row.entrant.active else "yes",
            )
        )  # fmt: skip
    return out.getvalue()
