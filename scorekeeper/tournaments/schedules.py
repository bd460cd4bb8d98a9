"""Fixed schedules: the round robin (circle method) and Initial Fontes' groups.

Both take players as a seeding list and a round index from 0, and give couples; ``None`` in a
couple is the phantom whose opponent has the bye. They know nothing of results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from scorekeeper.tournaments.model import PairingError

T = TypeVar("T")


def round_robin_rounds(size: int, *, double: bool = False) -> int:
    """How many rounds a round robin of ``size`` players takes (an odd field adds a bye)."""
    once = size - 1 if size % 2 == 0 else size
    return once * 2 if double else once


def circle_round(
    seeding: Sequence[T], index: int, *, double: bool = False
) -> list[tuple[T | None, T | None]]:
    """Round ``index`` (from 0) of the circle (Berger) method over ``seeding``.

    The first seed stays put and the others turn one place a round, so every couple meets once
    per cycle; an odd field gets a phantom (``None``), whose opponent has the bye. A double
    round robin plays the cycle twice.

    >>> circle_round(["A", "B", "C", "D"], 0)
    [('A', 'D'), ('B', 'C')]
    >>> circle_round(["A", "B", "C"], 1)
    [('A', 'C'), (None, 'B')]
    """
    slots: list[T | None] = list(seeding)
    if len(slots) % 2:
        slots.append(None)
    size = len(slots)
    total = round_robin_rounds(len(seeding), double=double)
    if size < 2 or not 0 <= index < total:
        raise PairingError(
            "round_robin_over",
            f"A round robin of {len(seeding)} players has {total} rounds; "
            f"round {index + 1} of it does not exist.",
        )
    turn = index % (size - 1)
    others = slots[1:]
    others = others[-turn:] + others[:-turn] if turn else others
    ring = [slots[0], *others]
    return [(ring[i], ring[size - 1 - i]) for i in range(size // 2)]


def fontes_groups(seeding: Sequence[T], rounds: int) -> list[list[T | None]]:
    """The round-robin groups of Initial Fontes over ``rounds`` rounds.

    The seeding (by rating, best first; an odd field gets a phantom at the bottom) is cut into
    ``rounds + 1`` bands of equal size, and each group takes one player from each band,
    snaked as tsh's ``initial_snaked`` does: the first group takes the first of the first band
    and the last of the second, and so on, so the groups are of even strength. Each group of
    ``rounds + 1`` plays a round robin of ``rounds`` rounds. When the field does not divide
    into bands, the ``r`` players over make one more group of ``rounds + 1 + r``, taken from
    the middle of ``rounds + 1 + r`` equal parts of the whole field, whose round robin is cut
    after ``rounds`` rounds (tsh draws that group at random inside each part).

    >>> fontes_groups(list("ABCDEFGH"), 3)
    [['A', 'D', 'E', 'H'], ['B', 'C', 'F', 'G']]
    """
    if rounds < 1 or rounds % 2 == 0:
        raise PairingError(
            "fontes_rounds",
            f"Initial Fontes pairs an odd number of rounds (1, 3, 5 ...), not {rounds}.",
        )
    slots: list[T | None] = list(seeding)
    if len(slots) % 2:
        slots.append(None)
    size = rounds + 1
    if len(slots) < size:
        raise PairingError(
            "fontes_too_few",
            f"Initial Fontes over {rounds} rounds needs at least {size} players.",
        )
    groups: list[list[T | None]] = []
    over = len(slots) % size
    if over:
        parts = size + over
        picks = sorted({len(slots) * (2 * part + 1) // (2 * parts) for part in range(parts)})
        groups.append([slots[index] for index in picks])
        slots = [slot for index, slot in enumerate(slots) if index not in set(picks)]
    count = len(slots) // size
    bands = [slots[band * count : (band + 1) * count] for band in range(size)]
    snaked = [band if number % 2 == 0 else band[::-1] for number, band in enumerate(bands)]
    groups[:0] = [[band[group] for band in snaked] for group in range(count)]
    return groups
