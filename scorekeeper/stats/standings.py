"""A club's standings, kept the way clubs keep them: per ruleset, wins (a tie counts half),
losses, ties, spread, average score, high game and high play, over the club's finished games.

Games whose words were checked against a word list and honour-system games are counted apart
(``WordPolicy.honour`` decides which is which), since a win where any word stood is not the
same result. Solo games have no opponent and are left out; abandoned and void games are not
finished, so they never count; casual games (no club) never enter a club's standings.

The spread of a game is the player's final score minus the best final score among the others:
for two players the usual spread; with more, the margin to the winner, or over the runner-up
for the winner.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from referee import RULESETS, Ruleset, get_ruleset
from scorekeeper.games.replay import stood
from scorekeeper.games.results import LOSS, TIE, WIN
from scorekeeper.games.word_policy import policy_for
from scorekeeper.models import Club, Game, Seat, Turn


@dataclass
class Line:
    """One player's figures in one table."""

    player_id: int
    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    spread: int = 0
    total: int = 0  # of final scores, for the average
    high_game: int | None = None
    high_play: int | None = None
    rank: int = 0

    @property
    def points(self) -> float:
        """Wins, a tie counting half: what the table is sorted by first."""
        return self.wins + self.ties / 2

    @property
    def average(self) -> float:
        return self.total / self.games if self.games else 0.0


@dataclass
class Table:
    ruleset: Ruleset
    honour: bool
    lines: list[Line] = field(default_factory=list)

    @property
    def words(self) -> str:
        return "honour system" if self.honour else "words checked"


def club_standings(club: Club) -> list[Table]:
    """The club's tables: per ruleset (in the registry's order), words checked before honour."""
    games = list(
        Game.objects.filter(club=club, status=Game.Status.FINISHED).prefetch_related(
            "seats__player"
        )
    )
    high_plays: dict[tuple[str, int], int] = {}
    for game_id, player_id, score in (
        stood(Turn.objects.filter(game__in=[g.pk for g in games]))
        .values_list("game_id", "seat__player_id", "score")
        .iterator()
    ):
        key = (str(game_id), player_id)
        high_plays[key] = max(score, high_plays.get(key, score))
    tables: dict[tuple[str, bool], dict[int, Line]] = defaultdict(dict)
    for game in games:
        seats: list[Seat] = list(game.seats.all())
        finals = {s.pk: s.final_score for s in seats if s.final_score is not None}
        if len(seats) < 2 or len(finals) < len(seats):
            continue
        lines = tables[(game.ruleset, policy_for(game).honour)]
        for seat in seats:
            final = finals[seat.pk]
            others = max(score for pk, score in finals.items() if pk != seat.pk)
            line = lines.setdefault(seat.player_id, Line(seat.player_id, seat.player.name))
            line.games += 1
            line.wins += seat.result == WIN
            line.losses += seat.result == LOSS
            line.ties += seat.result == TIE
            line.spread += final - others
            line.total += final
            line.high_game = final if line.high_game is None else max(final, line.high_game)
            play = high_plays.get((str(game.pk), seat.player_id))
            if play is not None:
                line.high_play = play if line.high_play is None else max(play, line.high_play)
    order = {ruleset: n for n, ruleset in enumerate(RULESETS)}
    result = []
    for ruleset, honour in sorted(tables, key=lambda k: (order.get(k[0], len(order)), k[1])):
        ranked = sorted(
            tables[(ruleset, honour)].values(),
            key=lambda line: (-line.points, -line.spread, line.name.casefold()),
        )
        previous: tuple[float, int] | None = None
        rank = 0
        for position, line in enumerate(ranked, 1):
            if (line.points, line.spread) != previous:
                rank, previous = position, (line.points, line.spread)
            line.rank = rank
        result.append(Table(get_ruleset(ruleset), honour, ranked))
    return result
