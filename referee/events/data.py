"""The plain data an event is made of: its players, the director's rules, each round's
results, and the errors a director is told.

A result is one of four kinds, each a small frozen value:

* ``Bout``: two players at a board; the scores are ``None`` while it is being played.
* ``Bye``: a win by ``spread`` with no opponent.
* ``Forfeit``: a paired game one player did not turn up for: a win by ``spread`` for the
  ``present`` player and a loss by ``spread`` for the ``absent`` one. No game was played, so
  it is not rated and does not count as the two having met.
* ``Absence``: a loss by ``spread`` with no opponent (a late entry's earlier rounds).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

#: A rating of 0 means unrated, as in tsh's ``.t`` files.
UNRATED = 0


class EventError(Exception):
    """Base of every error here; ``code`` is stable, ``message`` is a sentence for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message}


class PairingError(EventError):
    """A round can't be paired as asked (a repeat beyond the limit, a bad manual pairing)."""


class ResultError(EventError):
    """A set of results contradicts itself (a player in two games of one round)."""


@dataclass(frozen=True)
class Competitor:
    """A player of the event. ``rating`` is the pre-event rating (``UNRATED`` for none),
    ``career_games`` the rated games played before it; ``active`` is False once withdrawn,
    and ``joined_round`` is the first round a late entry is paired in.

    A player read from tsh's ``.t`` file keeps its name as the file wrote it (``t_name``) and
    the file's other fields (``t_fields``: each tag and its words as written, ``board``,
    ``class``, ``newr`` ...), so the file is written back as it was read."""

    id: int
    name: str
    rating: int = UNRATED
    career_games: int = 0
    active: bool = True
    joined_round: int = 1
    t_name: str = ""
    t_fields: tuple[tuple[str, str], ...] = ()

    @property
    def is_rated(self) -> bool:
        return self.rating != UNRATED


@dataclass(frozen=True)
class Rules:
    """What the director sets for the event (the defaults are the issue's).

    ``repeats_allowed`` is how many times a couple may meet again in Swiss pairings (0: never
    twice); ``gibson_spread`` is the margin per game assumed when asking whether a leader can
    still be caught, and ``prize_places`` how many places win a prize."""

    rounds: int
    bye_spread: int = 50
    forfeit_spread: int = 50
    gibson: bool = True
    gibson_spread: int = 500
    prize_places: int = 1
    repeats_allowed: int = 1
    seed: int = 0

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise EventError("bad_rules", f"An event has at least 1 round, not {self.rounds}.")
        for name in (
            "bye_spread",
            "forfeit_spread",
            "gibson_spread",
            "prize_places",
            "repeats_allowed",
        ):
            if getattr(self, name) < 0:
                label = name.replace("_", " ")
                raise EventError("bad_rules", f"The {label} can't be negative.")


@dataclass(frozen=True)
class Bout:
    """A game of ``round`` with ``first`` seated first; scores are ``None`` until it ends."""

    round: int
    first: int
    second: int
    first_score: int | None = None
    second_score: int | None = None

    @property
    def is_played(self) -> bool:
        return self.first_score is not None and self.second_score is not None


@dataclass(frozen=True)
class Bye:
    round: int
    player: int
    spread: int = 50


@dataclass(frozen=True)
class Forfeit:
    round: int
    present: int
    absent: int
    spread: int = 50


@dataclass(frozen=True)
class Absence:
    round: int
    player: int
    spread: int = 50


Result = Bout | Bye | Forfeit | Absence


def players_of(result: Result) -> tuple[int, ...]:
    """The ids a result is about, the first seat first."""
    if isinstance(result, Bout):
        return (result.first, result.second)
    if isinstance(result, Forfeit):
        return (result.present, result.absent)
    return (result.player,)


def check_results(results: Iterable[Result]) -> list[Result]:
    """The results as a list, refused if a player appears twice in one round or plays
    themselves.

    >>> check_results([Bout(1, 1, 2, 400, 350), Bye(1, 2)])
    Traceback (most recent call last):
    ...
    referee.events.data.ResultError: Player 2 has two results in round 1.
    """
    seen: set[tuple[int, int]] = set()
    checked = list(results)
    for result in checked:
        ids = players_of(result)
        if len(set(ids)) != len(ids):
            raise ResultError(
                "self_pairing", f"Player {ids[0]} can't play themselves in round {result.round}."
            )
        for player in ids:
            if (result.round, player) in seen:
                raise ResultError(
                    "two_results",
                    f"Player {player} has two results in round {result.round}.",
                )
            seen.add((result.round, player))
    return checked


def forfeits_for_withdrawal(
    results: Iterable[Result], player: int, spread: int = 50
) -> list[Result]:
    """The results with ``player``'s games not yet played turned into forfeit wins for their
    opponents, by ``spread`` each: what withdrawing does to a round already paired.

    >>> forfeits_for_withdrawal([Bout(1, 1, 2, 400, 300), Bout(2, 3, 1)], 1)[1]
    Forfeit(round=2, present=3, absent=1, spread=50)
    """
    changed: list[Result] = []
    for result in results:
        if isinstance(result, Bout) and not result.is_played and player in players_of(result):
            opponent = result.second if result.first == player else result.first
            changed.append(Forfeit(result.round, opponent, player, spread))
        else:
            changed.append(result)
    return changed


def meetings(results: Iterable[Result]) -> Iterator[tuple[int, int]]:
    """Every couple that sat at a board, once per game (forfeits are not meetings)."""
    for result in results:
        if isinstance(result, Bout):
            yield (min(result.first, result.second), max(result.first, result.second))
