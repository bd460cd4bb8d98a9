"""tsh's ``.t`` file: one reader and one writer, each as tsh's own ``TFile.pm`` does it.

One line a player, in line-number order::

    Archer, Ann             1500 2 3 0; 412 356 -50; board 1 1 0; p12 1 2 0

the name (read and written exactly as the file has it; a player entered in the app is written
"Last, First", the last word being the last name), the pre-event rating (0 for unrated), each
round's opponent by line number (0 for none), then after ``;`` each round's own score, then
any number of extra fields, each ``; tag words``, written in the tag's alphabetical order as
tsh writes them and read wherever they stand. ``00`` is tsh's "nothing here yet".

The fields the event itself holds:

* ``p12``: 1 went first, 2 went second, 0 no game (tsh's 3 and 4, a draw for it, leave the
  earlier line first). Without it the earlier line is taken to have gone first. A round
  without a game keeps the value the file had there.
* ``off``: the player has withdrawn (tsh's value, the spread its later byes would get, is
  kept; a withdrawal made here writes ``off 0``).
* ``lifeg``: career games before the event. A line without it is taken as 100 games, as tsh
  does (``TSH::Division::MakeRatingsInput``).

Every other field (``board``, ``class``, ``newr`` ...) is kept as written and written back.
The padding is today's tsh's (``%-22s %5s``): a file from an older tsh (``%4s``) comes back
with every field and one more space before a rating.

A result with no opponent is its spread: a bye or a forfeit win ``50``, a forfeit loss or an
absence ``-50``, each with its own spread; read back, a positive score is a ``Bye`` and any
other an ``Absence`` (a forfeit is tsh's bye and absence: it reads back as those). A late
entry's rounds before they joined are written as tsh has them, absences by the event's
forfeit margin. A game paired but not finished has its opponent and a score of ``00`` (none at
all when it is the line's last). A line never starts with ``=``, ``+``, ``-`` or ``@`` (a
spreadsheet's formula): such a name is written after a space, which tsh reads past.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.events.data import (
    Absence,
    Bout,
    Bye,
    Competitor,
    EventError,
    Forfeit,
    Result,
    check_results,
)

#: Career games tsh assumes for a line without ``lifeg``.
LIFEG_UNKNOWN = 100
#: The fields the event holds itself, written from it rather than as kept.
OWN_FIELDS = ("lifeg", "off", "p12")
FORMULA_START = ("=", "+", "-", "@")

# A rating as tsh reads it; a pairing or score is a whole number (or "00"). Each token is
# matched on its own, so a long line costs one pass.
RATING = re.compile(r"\d{1,9}")
NUMBER = re.compile(r"-?\d{1,9}")
TOKEN = re.compile(r"\S+")
UNESCAPED_SEMICOLON = re.compile(r"(?<!\\)((?:\\\\)*);")


class TFileError(EventError):
    """A ``.t`` file that can't be read, or results that can't be written as one."""


@dataclass(frozen=True)
class Division:
    """What a ``.t`` file holds: players by line (ids 1, 2 ...) and their results."""

    players: tuple[Competitor, ...]
    results: tuple[Result, ...]


def last_name_first(name: str) -> str:
    """A name as entered, written last name first.

    >>> last_name_first("Mary Ann Archer"), last_name_first("Cher")
    ('Archer, Mary Ann', 'Cher')
    """
    first, _, last = name.strip().rpartition(" ")
    return f"{last}, {first}" if first else last


def first_name_first(name: str) -> str:
    """A name as a ``.t`` file writes it, shown as entered (the file's own is kept too).

    >>> first_name_first("Archer, Mary Ann"), first_name_first("Ann Archer")
    ('Mary Ann Archer', 'Ann Archer')
    """
    last, _, first = name.partition(",")
    return f"{first.strip()} {last.strip()}" if first.strip() else last.strip()


def _t_name(player: Competitor) -> str:
    name = player.t_name or last_name_first(player.name)
    if ";" in name or "#" in name or name != name.strip() or not name or "\n" in name:
        raise TFileError(
            "unwritable_name",
            f"{player.name!r} can't go in a .t file: a name there has no ';' or '#'.",
        )
    if _split_head(f"{name} 0") != (name, "0", []):
        raise TFileError(
            "unwritable_name",
            f"{player.name!r} can't go in a .t file: tsh would read its last word as a number.",
        )
    return f" {name}" if name.startswith(FORMULA_START) else name


def _fields(player: Competitor, seats: list[int]) -> list[tuple[str, str]]:
    """The extra fields of ``player``'s line, by tag, as tsh orders them."""
    kept = dict(player.t_fields)
    fields = {tag: words for tag, words in kept.items() if tag not in OWN_FIELDS}
    if "lifeg" in kept:
        rest = kept["lifeg"].split()[1:]
        fields["lifeg"] = " ".join([str(player.career_games), *rest])
    elif not player.t_name or player.career_games != LIFEG_UNKNOWN:
        fields["lifeg"] = str(player.career_games)
    if not player.active:
        fields["off"] = kept.get("off", "0")
    # A round without a game keeps the file's own p12 (tsh keeps a withdrawn player's draws).
    was = kept.get("p12", "").split()
    merged = [
        str(seats[i]) if i < len(seats) and (seats[i] or i >= len(was)) else was[i]
        for i in range(max(len(seats), len(was)))
    ]
    if merged:
        fields["p12"] = " ".join(merged)
    return sorted(fields.items())


def write_t(
    players: Sequence[Competitor], results: Iterable[Result], *, absence_spread: int = 50
) -> str:
    """The division as a ``.t`` file, one line a player in the order given, as tsh's
    ``TFile::FormatLine`` writes it. A late entry's rounds before ``joined_round`` that have
    no result are absences by ``absence_spread`` (as the standings count them)."""
    line_of = {player.id: number for number, player in enumerate(players, start=1)}
    entries: dict[int, dict[int, tuple[int, int | None, int]]] = {p.id: {} for p in players}
    checked = check_results(results)
    for result in checked:
        if isinstance(result, Bout):
            entries[result.first][result.round] = (line_of[result.second], result.first_score, 1)
            entries[result.second][result.round] = (line_of[result.first], result.second_score, 2)
        elif isinstance(result, Bye):
            entries[result.player][result.round] = (0, result.spread, 0)
        elif isinstance(result, Forfeit):
            entries[result.present][result.round] = (0, result.spread, 0)
            entries[result.absent][result.round] = (0, -result.spread, 0)
        else:
            entries[result.player][result.round] = (0, -result.spread, 0)
    last_round = max((result.round for result in checked), default=0)
    for player in players:
        for missed in range(1, min(player.joined_round, last_round + 1)):
            entries[player.id].setdefault(missed, (0, -absence_spread, 0))

    lines = []
    for player in players:
        rounds = entries[player.id]
        last = max(rounds, default=0)
        row = [rounds.get(number, (0, 0, 0)) for number in range(1, last + 1)]
        scored = [score for _, score, _ in row]
        while scored and scored[-1] is None:
            scored.pop()
        opponents = " ".join(str(opponent) for opponent, _, _ in row)
        scores = " ".join("00" if score is None else str(score) for score in scored)
        seats = [seat for _, _, seat in row]
        line = f"{_t_name(player):<22} {player.rating:>5} {opponents}; {scores}"
        for tag, words in _fields(player, seats):
            line += f"; {tag} {words}".rstrip()
        lines.append(line)
    return "".join(f"{line}\n" for line in lines)


def _number(word: str, line: int) -> int | None:
    if word == "00":
        return None
    if not NUMBER.fullmatch(word):
        raise TFileError("bad_number", f"Line {line} has something that is not a number.")
    return int(word)


def _split_head(head: str) -> tuple[str, str, list[str]] | None:
    """(name, rating, opponents) of the part before the first ``;``, as tsh's pattern
    splits it: the name is the shortest start followed by a rating and whole numbers only."""
    tokens = list(TOKEN.finditer(head))
    numbers = len(tokens)
    while numbers > 0 and (tokens[numbers - 1][0].isdigit() or tokens[numbers - 1][0] == "00"):
        numbers -= 1
    start = max(numbers, 1)
    if start >= len(tokens) or not RATING.fullmatch(tokens[start][0]):
        return None
    name = head[: tokens[start].start()].strip()
    return name, tokens[start][0], [token[0] for token in tokens[start + 1 :]]


def _parse_fields(text: str) -> list[tuple[str, str]]:
    """The ``; tag words`` fields after the scores, each as written (escapes kept)."""
    found = []
    for part in UNESCAPED_SEMICOLON.sub(lambda m: m[1] + "\0", text).split("\0"):
        words = part.split()
        if words:
            found.append((words[0], " ".join(words[1:])))
    return found


Row = tuple[str, int, list[int | None], list[int | None], dict[str, str]]


def _read_line(raw: str, number: int) -> Row:
    text = raw.strip()
    head, _, rest = text.partition(";")
    scores_text, _, extra = rest.partition(";")
    for word in (*head.split(), *scores_text.split()):
        if word.lstrip("-").isdigit() and not NUMBER.fullmatch(word):
            raise TFileError("bad_number", f"Line {number} has something that is not a number.")
    split = _split_head(head)
    if split is None or not all(NUMBER.fullmatch(w) or w == "00" for w in scores_text.split()):
        raise TFileError(
            "bad_line",
            f"Line {number} is not 'Last, First rating opponents; scores': {text[:60]!r}.",
        )
    name, rating, opponents = split
    fields = dict(_parse_fields(extra))
    return (
        name,
        int(rating),
        [_number(word, number) for word in opponents],
        [_number(word, number) for word in scores_text.split()],
        fields,
    )


def _seats(fields: dict[str, str]) -> list[int]:
    """The ``p12`` field's values (anything else there counts as no game)."""
    return [int(w) if w in ("1", "2") else 0 for w in fields.get("p12", "").split()]


def _seat_of(seats: list[int], index: int) -> int:
    return seats[index] if index < len(seats) else 0


def _player(index: int, row: Row) -> Competitor:
    name, rating, _, _, fields = row
    kept = tuple(fields.items())
    lifeg = fields.get("lifeg", "").split()[:1]
    career = int(lifeg[0]) if lifeg and RATING.fullmatch(lifeg[0]) else LIFEG_UNKNOWN
    return Competitor(
        index,
        first_name_first(name),
        rating,
        career_games=career,
        active="off" not in fields,
        t_name=name,
        t_fields=kept,
    )


def read_t(text: str, most_players: int | None = None) -> Division:
    """The players and results of a ``.t`` file (blank lines and ``#`` comments are skipped);
    refused at the first player past ``most_players``, if given, unread beyond."""
    rows: list[Row] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if most_players is not None and len(rows) == most_players:
            raise TFileError(
                "too_many_players",
                f"An event has at most {most_players} players: line {number} is one more.",
            )
        rows.append(_read_line(raw, number))

    players = tuple(_player(index, row) for index, row in enumerate(rows, start=1))
    results: list[Result] = []
    for index, (_, _, opponents, scores, fields) in enumerate(rows, start=1):
        name = players[index - 1].name
        seats = _seats(fields)
        if len(scores) > len(opponents):
            raise TFileError("too_many_scores", f"{name} has more scores than opponents.")
        for round_index, opponent in enumerate(opponents):
            round_number = round_index + 1
            score = scores[round_index] if round_index < len(scores) else None
            if opponent is None:
                continue
            if opponent == 0:
                if score is not None:
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
                    f"Round {round_number} of {name} and {players[opponent - 1].name} has "
                    "one score of two.",
                )
            other_seats = _seats(other[4])
            mine, theirs = _seat_of(seats, round_index), _seat_of(other_seats, round_index)
            second_first = mine == 2 or (mine not in (1, 2) and theirs == 1)
            first, second, first_score, second_score = index, opponent, score, other_score
            if second_first:
                first, second, first_score, second_score = opponent, index, other_score, score
            results.append(Bout(round_number, first, second, first_score, second_score))
    return Division(players, tuple(sorted(results, key=lambda result: result.round)))
