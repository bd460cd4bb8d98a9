"""Helpers for the events' rules' tests: a field of players, a round played out with seeded scores,
and whether a round could have been paired with no repeat."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from referee.events import Bout, Bye, Competitor, Result, RoundPairings

FIRST_NAMES = [
    "Ann",
    "Ben",
    "Cy",
    "Dee",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kim",
    "Lee",
    "Max",
]
SURNAMES = ["Archer", "Baker", "Cole", "Dunn", "Ellis", "Frost", "Grant", "Hale", "Irwin", "Jones"]


def field(size: int, *, rated: bool = True) -> list[Competitor]:
    """``size`` players, ids 1..size, rated 2000, 1975 ... (distinct, best first)."""
    return [
        Competitor(
            number,
            f"{FIRST_NAMES[number % len(FIRST_NAMES)]} {SURNAMES[number // len(FIRST_NAMES)]}",
            2000 - 25 * number if rated else 0,
        )
        for number in range(1, size + 1)
    ]


def played(pairings: RoundPairings, draw: random.Random, bye_spread: int = 50) -> list[Result]:
    """The round with every game finished, scores drawn from ``draw`` (ties included)."""
    made: list[Result] = []
    for pairing in pairings.pairings:
        made.append(
            Bout(
                pairings.round,
                pairing.first,
                pairing.second,
                draw.randint(300, 500),
                draw.randint(300, 500),
            )
        )
    if pairings.bye is not None:
        made.append(Bye(pairings.round, pairings.bye, bye_spread))
    return made


def couples(pairings: RoundPairings) -> list[tuple[int, int]]:
    return [(min(p.first, p.second), max(p.first, p.second)) for p in pairings.pairings]


def met_before(results: Iterable[Result]) -> set[tuple[int, int]]:
    return {
        (min(r.first, r.second), max(r.first, r.second)) for r in results if isinstance(r, Bout)
    }


def repeat_free_pairing_exists(ids: Sequence[int], met: set[tuple[int, int]]) -> bool:
    """Whether ``ids`` can all be paired with nobody meeting again (plain search, small fields)."""
    if not ids:
        return True
    head, rest = ids[0], list(ids[1:])
    for index, other in enumerate(rest):
        if (min(head, other), max(head, other)) not in met and repeat_free_pairing_exists(
            rest[:index] + rest[index + 1 :], met
        ):
            return True
    return False
