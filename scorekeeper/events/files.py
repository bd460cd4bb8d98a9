"""An event's files: tsh's ``.t`` file read into a new event (``do_import_tournament``) and
written (``export_t``), and the standings as a CSV file, one writer for its page and the API.

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
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from referee import InputError
from referee.events import (
    Absence,
    Bout,
    Bye,
    EventError,
    Result,
    read_t,
    write_t,
)
from scorekeeper.events.entries import (
    MAX_ENTRANTS,
    SCORE_LOWEST,
    SCORE_MOST,
    Entry,
    do_create_tournament,
)
from scorekeeper.events.reads import (
    competitor_of,
    division_standings,
    entrants_of,
    in_division,
    pairings_of,
    refused,
    results_of,
    standings,
)
from scorekeeper.models import (
    Club,
    Entrant,
    Pairing,
    Tournament,
    TournamentRound,
)

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


def do_import_tournament(club: Club, text: str, **fields: Any) -> Tournament:
    """Start an event from tsh's ``.t`` file: its players and ratings, in its line order,
    and its results so far as rounds paired by hand, each game's scores typed in (a game
    paired and not finished waits for its result; a bye and an absence keep their kind, at
    the event's own margins). ``fields`` are ``do_create_tournament``'s."""
    try:
        division = read_t(text, most_players=MAX_ENTRANTS)
    except EventError as error:
        raise InputError(error.code, error.message) from None
    for result in division.results:
        if isinstance(result, Bout):
            for score in (result.first_score, result.second_score):
                if score is not None and not SCORE_LOWEST <= score <= SCORE_MOST:
                    raise InputError(
                        "bad_score",
                        f"Round {result.round} has a score of {score}: a score is "
                        f"{SCORE_LOWEST} to {SCORE_MOST}.",
                    )
    played = max((result.round for result in division.results), default=0)
    if played > fields.get("rounds", 0):
        raise InputError("bad_rules", f"The file has {played} rounds: the event needs as many.")
    entries = [
        Entry(player.name, player.rating, player.career_games) for player in division.players
    ]
    with transaction.atomic():
        tournament = do_create_tournament(club, players=entries, keep_ratings=False, **fields)
        entrant_of = {line: entrant for line, entrant in enumerate(entrants_of(tournament), 1)}
        for line, player in enumerate(division.players, start=1):
            kept = entrant_of[line]
            kept.t_name, kept.t_fields, kept.active = (
                player.t_name,
                dict(player.t_fields),
                player.active,
            )
            kept.save(update_fields=["t_name", "t_fields", "active"])
        for number in range(1, played + 1):
            paired = TournamentRound.objects.create(
                tournament=tournament, number=number, method="manual", based_on=number - 1
            )
            _import_round(paired, [r for r in division.results if r.round == number], entrant_of)
    return tournament


def _import_round(
    paired: TournamentRound, results: Sequence[Result], entrant_of: Mapping[int, Entrant]
) -> None:
    """A round of a ``.t`` file as pairings by hand: each game with its seats and scores, each
    bye and absence with its own spread."""
    table = 0
    for result in results:
        if isinstance(result, Bout):
            table += 1
            Pairing.objects.create(
                round=paired,
                table=table,
                first=entrant_of[result.first],
                second=entrant_of[result.second],
                first_score=result.first_score,
                second_score=result.second_score,
            )
        elif isinstance(result, Bye):
            Pairing.objects.create(
                round=paired, first=entrant_of[result.player], spread=result.spread
            )
        elif isinstance(result, Absence):
            absent = entrant_of[result.player]
            Pairing.objects.create(round=paired, first=absent, absent=absent, spread=result.spread)


def export_t(tournament: Tournament, division: str | None = None) -> str:
    """A division as tsh's ``.t`` file, one line a player in entry order (the only division
    when ``None``; refused when the event has several and none is named)."""
    rows = standings(tournament, division)
    field = sorted((row.entrant for row in rows), key=lambda entrant: entrant.number)
    players = [competitor_of(entrant) for entrant in field]
    try:
        return write_t(
            players,
            results_of(tournament, in_division(pairings_of(tournament), field)),
            absence_spread=tournament.forfeit_spread,
        )
    except EventError as error:
        raise refused(error) from None
