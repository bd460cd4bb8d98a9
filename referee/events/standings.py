"""Standings and scorecards from the results so far.

Order, as tsh and NASPA rank: more wins (a draw counts ½), then more spread, then the higher
pre-event rating (then name, so the order is stable); losses are not compared, so a player who
left at 2–0 (+51) ranks below one who played on to 2–1 (+120). Players level on wins and spread
share a place, shown ``"1="``. An absence or a forfeit loss is a loss whatever its spread (as
tsh counts a bye of 0 or less). A late entry's rounds before ``joined_round`` that have no result
count as losses by the forfeit margin; a withdrawn player keeps the results they have.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from referee.events.data import (
    Absence,
    Bout,
    Bye,
    Competitor,
    Forfeit,
    Result,
    ResultError,
    Rules,
    check_results,
    players_of,
)

Seat = Literal["first", "second"]
Kind = Literal["game", "bye", "forfeit win", "forfeit loss", "absence"]


@dataclass(frozen=True)
class ScorecardLine:
    """One round of a player's scorecard, with the running record after it."""

    round: int
    kind: Kind
    opponent: int | None
    seat: Seat | None
    score: int | None
    opponent_score: int | None
    spread: int
    wins: float
    losses: float
    total_spread: int


@dataclass(frozen=True)
class Standing:
    place: int
    rank: str
    player: Competitor
    wins: float
    losses: float
    spread: int
    firsts: int
    seconds: int
    byes: int
    scorecard: tuple[ScorecardLine, ...] = field(default=())

    @property
    def games(self) -> int:
        return len(self.scorecard)


def _line(
    result: Result, player: int
) -> tuple[Kind, int | None, Seat | None, int | None, int | None, int]:
    """(kind, opponent, seat, score, opponent's score, spread) of ``result`` for ``player``."""
    if isinstance(result, Bout):
        assert result.first_score is not None and result.second_score is not None
        if player == result.first:
            own, other = result.first_score, result.second_score
            return "game", result.second, "first", own, other, own - other
        own, other = result.second_score, result.first_score
        return "game", result.first, "second", own, other, own - other
    if isinstance(result, Bye):
        return "bye", None, None, None, None, result.spread
    if isinstance(result, Forfeit):
        if player == result.present:
            return "forfeit win", result.absent, None, None, None, result.spread
        return "forfeit loss", result.present, None, None, None, -result.spread
    return "absence", None, None, None, None, -result.spread


def _outcome(spread: int) -> tuple[float, float]:
    """(wins, losses) a result of this spread adds: a draw is half of each."""
    if spread > 0:
        return 1.0, 0.0
    if spread < 0:
        return 0.0, 1.0
    return 0.5, 0.5


def compute_standings(
    players: Sequence[Competitor],
    results: Iterable[Result],
    rules: Rules,
    *,
    through: int | None = None,
) -> list[Standing]:
    """Everyone's standing after round ``through`` (all rounds with a result when ``None``).

    Games still being played are left out.

    >>> ann, ben = Competitor(1, "Ann Archer", 1500), Competitor(2, "Ben Baker")
    >>> cy = Competitor(3, "Cy")
    >>> rows = compute_standings([ann, ben, cy], [Bout(1, 1, 2, 400, 350), Bye(1, 3)], Rules(3))
    >>> [(row.rank, row.player.name, row.wins, row.spread) for row in rows]
    [('1=', 'Ann Archer', 1.0, 50), ('1=', 'Cy', 1.0, 50), ('3', 'Ben Baker', 0.0, -50)]
    """
    if len({player.id for player in players}) != len(players):
        raise ResultError("duplicate_player", "Two players share an id.")
    counted = [
        result
        for result in check_results(results)
        if (through is None or result.round <= through)
        and not (isinstance(result, Bout) and not result.is_played)
    ]
    last_round = max((result.round for result in counted), default=0)
    by_player: dict[int, list[Result]] = {player.id: [] for player in players}
    for result in counted:
        for named in players_of(result):
            if named not in by_player:
                raise ResultError(
                    "unknown_player",
                    f"A result of round {result.round} names player {named}, who is not entered.",
                )
            by_player[named].append(result)
    for player in players:
        played = {result.round for result in by_player[player.id]}
        for missed in range(1, min(player.joined_round, last_round + 1)):
            if missed not in played:
                by_player[player.id].append(Absence(missed, player.id, rules.forfeit_spread))

    rows: list[Standing] = []
    for player in players:
        wins = losses = 0.0
        spread = firsts = seconds = byes = 0
        lines: list[ScorecardLine] = []
        for result in sorted(by_player[player.id], key=lambda result: result.round):
            kind, opponent, seat, score, opponent_score, margin = _line(result, player.id)
            won, lost = (0.0, 1.0) if kind in ("absence", "forfeit loss") else _outcome(margin)
            wins, losses, spread = wins + won, losses + lost, spread + margin
            firsts += seat == "first"
            seconds += seat == "second"
            byes += kind == "bye"
            lines.append(
                ScorecardLine(
                    result.round,
                    kind,
                    opponent,
                    seat,
                    score,
                    opponent_score,
                    margin,
                    wins,
                    losses,
                    spread,
                )  # fmt: skip
            )
        rows.append(
            Standing(0, "", player, wins, losses, spread, firsts, seconds, byes, tuple(lines))
        )

    rows.sort(
        key=lambda row: (
            -row.wins,
            -row.spread,
            -row.player.rating,
            row.player.name,
            row.player.id,
        )
    )
    return _placed(rows)


def _record(row: Standing) -> tuple[float, int]:
    return (row.wins, row.spread)


def _placed(rows: list[Standing]) -> list[Standing]:
    """The rows with their places: level records share the place of the first of them."""
    placed: list[Standing] = []
    for index, row in enumerate(rows):
        first = index
        while first > 0 and _record(rows[first - 1]) == _record(row):
            first -= 1
        shared = (first < index) or (
            index + 1 < len(rows) and _record(rows[index + 1]) == _record(row)
        )
        place = first + 1
        placed.append(
            Standing(
                place,
                f"{place}=" if shared else str(place),
                row.player,
                row.wins,
                row.losses,
                row.spread,
                row.firsts,
                row.seconds,
                row.byes,
                row.scorecard,
            )  # fmt: skip
        )
    return placed
