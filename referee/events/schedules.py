"""Fixed schedules: the round robin (circle method) and Initial Fontes, its groups and rounds
as tsh's ``initial_snaked`` setting makes them (``TSH::Command::InitFontes`` and
``TSH::Division::Pairing::Berger``).

Both take players as a seeding list and a round index from 0, and give couples; ``None`` in a
couple is the phantom whose opponent has the bye. They know nothing of results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from referee.events.data import PairingError

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


def fontes_groups(seeding: Sequence[T], rounds: int) -> list[list[T]]:
    """The groups of Initial Fontes over ``rounds`` rounds, as tsh's ``initial_snaked``
    (``TSH::Command::InitFontes::ChooseGroupsSnaked``) forms them.

    Groups are of ``rounds + 1``. A field of at most ``2 × rounds`` is one group. Otherwise,
    unless the field is one short of filling its groups, the players over (the field's size
    modulo ``rounds + 1``) are taken out one at a time from the middle of the seeding (by
    rating, best first) and set aside. The rest are dealt into ``rounds + 1`` rows of as many
    players as there are groups, every second row reversed, and each group takes the last
    player of every row (the first group the last column, and so on). The players set aside
    join the last group, in its middle.

    >>> fontes_groups(list(range(1, 10)), 3)
    [[2, 3, 7, 8], [1, 4, 6, 5, 9]]
    """
    if rounds < 1 or rounds % 2 == 0:
        raise PairingError(
            "fontes_rounds",
            f"Initial Fontes pairs an odd number of rounds (1, 3, 5 ...), not {rounds}.",
        )
    players = list(seeding)
    size = rounds + 1
    if len(players) <= 2 * rounds:
        return [players]
    aside: list[T] = []
    if len(players) % size != rounds:
        while len(players) % size:
            aside.append(players.pop((len(players) + 1) // 2))
    count = (size - 1 + len(players)) // size
    rows = [players[row * count : (row + 1) * count] for row in range(size)]
    rows = [row if number % 2 == 0 else row[::-1] for number, row in enumerate(rows)]
    groups = [[row.pop() for row in rows if row] for _ in range(count)]
    if aside:
        last = groups[-1]
        middle = len(last) // 2
        groups[-1] = last[:middle] + aside + last[middle:]
    return groups


#: tsh's hand-made three-round schedules by group size (``Berger::MakeSchedule3``): for each
#: round, each member's opponent by place in the group (``None``: the bye).
SCHEDULE_OF_THREE: dict[int, tuple[tuple[int | None, ...], ...]] = {
    1: ((None,), (None,), (None,)),
    2: ((1, 0), (None, None), (1, 0)),
    3: ((2, None, 0), (1, 0, None), (None, 2, 1)),
    4: ((3, 2, 1, 0), (2, 3, 0, 1), (1, 0, 3, 2)),
    5: ((4, 3, None, 1, 0), (2, 4, 0, None, 1), (1, 0, 3, 2, None)),
    6: ((5, 2, 1, 4, 3, 0), (3, 4, 5, 0, 1, 2), (1, 0, 3, 2, 5, 4)),
    7: ((5, 3, 4, 1, 2, 0, None), (2, 6, 0, 4, 3, None, 1), (1, 0, 3, 2, None, 6, 5)),
}


def berger_round(size: int, first_opponent: int) -> list[tuple[int | None, int | None]]:
    """One round of tsh's Berger schedule (``ComputeBergerRound``) over places 1 to ``size``:
    the couples of places, ``None`` for the bye, with place 1 meeting ``first_opponent``.

    >>> berger_round(6, 6), berger_round(6, 2)
    ([(6, 1), (4, 5), (2, 3)], [(2, 1), (3, 4), (5, 6)])
    """
    count = size + size % 2
    opponent = count if first_opponent == 0 else first_opponent
    table: list[int] = []
    place = count
    while place > 0:
        table.append(place)
        table.insert(0, place - 1)
        place -= 2
    table.pop(0)
    index = opponent // 2 - 1 if opponent % 2 else len(table) - opponent // 2
    table = table[index:] + table[:index]
    table = [1, *table[1:], table[0]] if index % 2 else [*table, 1]

    def who(place: int) -> int | None:
        return None if place > size else place

    return [(who(table[i]), who(table[-1 - i])) for i in range(count // 2)]


def fontes_round(seeding: Sequence[T], rounds: int, index: int) -> list[tuple[T | None, T | None]]:
    """Round ``index`` (from 0) of Initial Fontes over ``rounds`` rounds, as tsh pairs its
    groups (``Berger::PairGroups``): three rounds by tsh's own schedules; otherwise a group of
    ``rounds + 1`` by the Berger schedule ending with 1 v 2, 3 v 4 (King of the Hill), and a
    group of another size by the Berger round tsh picks for it."""
    if not 0 <= index < rounds:
        raise PairingError("fontes_over", f"Initial Fontes has {rounds} rounds.")
    couples: list[tuple[T | None, T | None]] = []
    for group in fontes_groups(seeding, rounds):
        if rounds == 3:
            plan = SCHEDULE_OF_THREE[len(group)][index]
            for place, other in enumerate(plan):
                if other is None:
                    couples.append((group[place], None))
                elif place < other:
                    couples.append((group[place], group[other]))
            continue
        if len(group) == rounds + 1 or rounds == 1:
            first_opponent = rounds + 1 - index
        else:
            even = len(group) + len(group) % 2
            first_opponent = int(2.5 + (even - 2) * (1 - index / (rounds - 1)))
        for a, b in berger_round(len(group), first_opponent):
            if a is not None or b is not None:
                couples.append((group[a - 1] if a else None, group[b - 1] if b else None))
    return couples
