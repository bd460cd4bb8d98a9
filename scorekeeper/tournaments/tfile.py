"""tsh's ``.t`` file: one reader and one writer.

One line a player, in line-number order::

    Archer, Ann              1500 2 3 0; 412 388 50; p12 1 2 0

the name written "Last, First" (a name entered "Ann Archer"; the last word is the last name),
the pre-event rating (0 for unrated), each round's opponent by line number (0 for none), then
after ``;`` each round's own score, and after a second ``;`` the ``p12`` field: 1 for first,
2 for second, 0 for no game. A result with no opponent is written as its spread: a bye or a
forfeit win ``+50``, a forfeit loss or an absence ``-50``; read back, ``+`` is a ``Bye`` and
``-`` an ``Absence`` (so a forfeit reads back as a bye and an absence). A game paired but not
finished has its opponent and no score yet. A round with no result at all is written ``0``
with a score of 0 and read back as no result. Without a ``p12`` field the lower line number
is taken to have gone first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scorekeeper.tournaments.model import (
    Absence,
    Bye,
    Forfeit,
    Game,
    Player,
    Result,
    TournamentError,
    check_results,
)


class TFileError(TournamentError):
    """A ``.t`` file that can't be read, or results that can't be written as one."""


# The name takes everything up to the first digit at once and never gives it back (a
# possessive ``*+``), so a long line that is not a player's costs one pass, not one for each
# place the name could end; whitespace must come before the rating, and the name is stripped.
LINE = re.compile(
    r"^(?P<name>[^;\d]*+)(?<=\s)(?P<rating>\d++)(?P<opponents>(?:\s+\d+)*+)\s*;"
    r"(?P<scores>[^;]*)(?:;\s*p12(?P<seats>[^;]*))?(?:;.*)?$"
)


@dataclass(frozen=True)
class Division:
    """What a ``.t`` file holds: players by line (ids 1, 2 ...) and their results."""

    players: tuple[Player, ...]
    results: tuple[Result, ...]


def last_name_first(name: str) -> str:
    """A name as entered, written last name first.

    >>> last_name_first("Mary Ann Archer"), last_name_first("Cher")
    ('Archer, Mary Ann', 'Cher')
    """
    first, _, last = name.strip().rpartition(" ")
    return f"{last}, {first}" if first else last


def first_name_first(name: str) -> str:
    """A name as a ``.t`` file writes it, read back as entered.

    >>> first_name_first("Archer, Mary Ann")
    'Mary Ann Archer'
    """
    last, _, first = name.partition(",")
    return f"{first.strip()} {last.strip()}" if first.strip() else last.strip()


def write_t(players: Sequence[Player], results: Iterable[Result]) -> str:
    """The division as a ``.t`` file, one line a player in the order given."""
    line_of = {player.id: number for number, player in enumerate(players, start=1)}
    entries: dict[int, dict[int, tuple[int, int | None, int]]] = {p.id: {} for p in players}
    for result in check_results(results):
        if isinstance(result, Game):
            entries[result.first][result.round] = (line_of[result.second], result.first_score, 1)
            entries[result.second][result.round] = (line_of[result.first], result.second_score, 2)
        elif isinstance(result, Bye):
            entries[result.player][result.round] = (0, result.spread, 0)
        elif isinstance(result, Forfeit):
            entries[result.present][result.round] = (0, result.spread, 0)
            entries[result.absent][result.round] = (0, -result.spread, 0)
        else:
            entries[result.player][result.round] = (0, -result.spread, 0)

    lines = []
    for player in players:
        if any(character.isdigit() or character in ";#" for character in player.name):
            raise TFileError(
                "unwritable_name",
                f"{player.name!r} can't go in a .t file: a name there has no digits, ';' or '#'.",
            )
        rounds = entries[player.id]
        last = max(rounds, default=0)
        row = [rounds.get(number, (0, 0, 0)) for number in range(1, last + 1)]
        scored = [score for _, score, _ in row]
        pending = scored.index(None) if None in scored else len(scored)
        if any(score is not None for score in scored[pending:]):
            raise TFileError(
                "unfinished_game",
                f"{player.name}'s game of round {pending + 1} has no result, "
                "yet a later round has: the .t file can't say that.",
            )
        opponents = " ".join(str(opponent) for opponent, _, _ in row)
        scores = " ".join(str(score) for score in scored[:pending])
        seats = " ".join(str(seat) for _, _, seat in row)
        head = f"{last_name_first(player.name):<24} {player.rating:>4} {opponents}".rstrip()
        lines.append(f"{head}; {scores}; p12 {seats}".rstrip())
    return "".join(f"{line}\n" for line in lines)


def _numbers(text: str, line: int) -> list[int]:
    try:
        return [int(word) for word in text.split()]
    except ValueError:
        raise TFileError("bad_number", f"Line {line} has something that is not a number.") from None


def read_t(text: str, most_players: int | None = None) -> Division:
    """The players and results of a ``.t`` file (blank lines and ``#`` comments are skipped);
    refused at the first player past ``most_players``, if given, unread beyond."""
    rows: list[tuple[str, int, list[int], list[int], list[int] | None]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if most_players is not None and len(rows) == most_players:
            raise TFileError(
                "too_many_players",
                f"An event has at most {most_players} players: line {number} is one more.",
            )
        found = LINE.match(raw.strip())
        if not found:
            raise TFileError(
                "bad_line",
                f"Line {number} is not 'Last, First rating opponents; scores': "
                f"{raw.strip()[:60]!r}.",
            )
        seats = found["seats"]
        (rating,) = _numbers(found["rating"], number)
        rows.append(
            (
                first_name_first(found["name"]),
                rating,
                _numbers(found["opponents"], number),
                _numbers(found["scores"], number),
                _numbers(seats, number) if seats is not None else None,
            )
        )

    players = tuple(
        Player(index, name, rating) for index, (name, rating, *_) in enumerate(rows, start=1)
    )
    results: list[Result] = []
    for index, (name, _, opponents, scores, seats) in enumerate(rows, start=1):
        if len(scores) > len(opponents):
            raise TFileError("too_many_scores", f"{name} has more scores than opponents.")
        for round_index, opponent in enumerate(opponents):
            round_number = round_index + 1
            score = scores[round_index] if round_index < len(scores) else None
            if opponent == 0:
                if score:
                    results.append(
                        Bye(round_number, index, score)
                        if score > 0
                        else Absence(round_number, index, -score)
                    )
                continue
            if not 1 <= opponent <= len(rows):
                raise TFileError(
                    "bad_opponent",
                    f"{name}'s opponent in round {round_number} is line {opponent}, "
                    "which is not in the file.",
                )
            if opponent == index:
                raise TFileError(
                    "plays_self",
                    f"{name}'s opponent in round {round_number} is line {opponent}: their own.",
                )
            other = rows[opponent - 1]
            if round_index >= len(other[2]) or other[2][round_index] != index:
                raise TFileError(
                    "one_sided",
                    f"{name} played line {opponent} in round {round_number}, "
                    "but that line does not say so.",
                )
            if opponent < index:
                continue
            other_score = other[3][round_index] if round_index < len(other[3]) else None
            if (score is None) != (other_score is None):
                raise TFileError(
                    "half_a_result",
                    f"Round {round_number} of {name} and {other[0]} has one score of two.",
                )
            first, second, first_score, second_score = index, opponent, score, other_score
            if seats is not None and round_index < len(seats) and seats[round_index] == 2:
                first, second, first_score, second_score = opponent, index, other_score, score
            results.append(Game(round_number, first, second, first_score, second_score))
    return Division(players, tuple(sorted(results, key=lambda result: result.round)))
