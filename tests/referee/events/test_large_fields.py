"""A large field is paired over each player's likely opponents, not every couple: the same
quality of round (no rematch while one can be avoided, win groups kept together) at a cost
that grows with the players, not with their couples."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.events import Bout, Competitor, Rules, compute_standings, pair_round
from referee.events import pairing as pairing_module


def played(size: int, rounds: int) -> tuple[list[Competitor], list[Bout]]:
    """``size`` players and ``rounds`` of results, each round a seeded shuffle."""
    draw = random.Random(size * 1000 + rounds)
    players = [Competitor(i, f"P{i}", 1000 + draw.randrange(1000)) for i in range(1, size + 1)]
    results = []
    for number in range(1, rounds + 1):
        ids = [p.id for p in players]
        draw.shuffle(ids)
        for a, b in zip(ids[::2], ids[1::2], strict=True):
            results.append(Bout(number, a, b, 300 + draw.randrange(200), 300 + draw.randrange(200)))
    return players, results


def measure(players, results, paired) -> tuple[int, float]:
    """(rematches, the wins apart of all its couples)."""
    met = Counter(frozenset((r.first, r.second)) for r in results)
    wins = {s.player.id: s.wins for s in compute_standings(players, results, Rules(rounds=30))}
    couples = [frozenset((p.first, p.second)) for p in paired.pairings]
    return sum(met[c] > 0 for c in couples), sum(
        abs(wins[p.first] - wins[p.second]) for p in paired.pairings
    )


@pytest.mark.parametrize("method", ["swiss", "koth"])
def test_a_large_field_pairs_as_well_over_its_likely_couples_as_over_all(method, monkeypatch):
    players, results = played(80, 12)
    rules = Rules(rounds=30)
    sparse = pair_round(method, players, results, rules, 13)
    monkeypatch.setattr(pairing_module, "SPARSE_FROM", 10_000)  # every couple weighed
    dense = pair_round(method, players, results, rules, 13)
    assert len(sparse.pairings) == len(dense.pairings) == 40
    assert measure(players, results, sparse) == measure(players, results, dense)
    assert measure(players, results, sparse)[0] == 0


def test_a_large_fields_couples_grow_with_its_players():
    for size in (100, 300):
        quarter = size // 4
        weighed = pairing_module.near(list(range(size)), lambda index, q=quarter: q)
        assert len(weighed) <= size * 4 * pairing_module.NEAR  # not size * (size - 1) / 2
