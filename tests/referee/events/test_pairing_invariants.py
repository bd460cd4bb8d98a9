"""Pairing invariants over many seeded random events (Hypothesis, derandomized)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.events import Bye, Options, Result, Rules, compute_standings, pair_round
from tests.referee.events.fields import (
    couples,
    field,
    met_before,
    played,
    repeat_free_pairing_exists,
)

# Reproducible and bounded: the same examples every run, a few seconds in all.
events = settings(max_examples=40, derandomize=True, deadline=None)


@events
@given(size=st.integers(min_value=2, max_value=13), double=st.booleans())
def test_a_round_robin_pairs_every_couple_once_or_twice_with_one_bye_each_in_an_odd_field(
    size: int, double: bool
) -> None:
    players = field(size)
    rounds = (size - 1 if size % 2 == 0 else size) * (2 if double else 1)
    rules = Rules(rounds=rounds, gibson=False)
    results: list[Result] = []
    draw = random.Random(size)
    met: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    for number in range(1, rounds + 1):
        paired = pair_round(
            "round_robin", players, results, rules, number, options=Options(double=double)
        )
        seated = [p for pairing in paired.pairings for p in (pairing.first, pairing.second)]
        assert sorted(seated + ([paired.bye] if paired.bye else [])) == [p.id for p in players]
        met.update(couples(paired))
        if paired.bye is not None:
            byes[paired.bye] += 1
        results += played(paired, draw)

    times = 2 if double else 1
    assert met == Counter({couple: times for couple in combinations(range(1, size + 1), 2)})
    assert byes == (Counter({p.id: times for p in players}) if size % 2 else Counter())


def test_the_round_robin_schedule_is_the_same_whatever_the_results() -> None:
    players = field(6)
    rules = Rules(rounds=5, gibson=False)
    first = pair_round("round_robin", players, [], rules, 1)
    swept = played(first, random.Random(1))
    other = played(first, random.Random(2))
    after_swept = pair_round("round_robin", players, swept, rules, 2)
    after_other = pair_round("round_robin", players, other, rules, 2)
    assert sorted(couples(after_swept)) == sorted(couples(after_other)) == [(1, 5), (2, 3), (4, 6)]


@events
@given(
    size=st.integers(min_value=3, max_value=12),
    rounds=st.integers(min_value=2, max_value=7),
    methods=st.lists(st.sampled_from(["swiss", "koth"]), min_size=7, max_size=7),
    seed=st.integers(min_value=0, max_value=10_000),
    withdraw=st.integers(min_value=0, max_value=12),
)
def test_swiss_and_king_of_the_hill_pair_everyone_once_give_the_bye_as_stated_and_repeat_only_when_they_must(
    size: int, rounds: int, methods: list[str], seed: int, withdraw: int
) -> None:
    players = field(size)
    rules = Rules(rounds=rounds, gibson=False, repeats_allowed=rounds, seed=seed)
    draw = random.Random(seed)
    results: list[Result] = []
    for number in range(1, rounds + 1):
        if number == 2 and 0 < withdraw <= size and size > 3:
            players = [replace(p, active=False) if p.id == withdraw else p for p in players]
        active = [p.id for p in players if p.active]
        paired = pair_round(methods[number - 1], players, results, rules, number)

        seated = [p for pairing in paired.pairings for p in (pairing.first, pairing.second)]
        assert sorted(seated + ([paired.bye] if paired.bye is not None else [])) == sorted(active)
        assert (paired.bye is not None) == (len(active) % 2 == 1)

        standings = [
            row.player.id for row in compute_standings(players, results, rules) if row.player.active
        ]
        if paired.bye is not None:
            byes = Counter(r.player for r in results if isinstance(r, Bye))
            fewest = min(byes[p] for p in active)
            assert paired.bye == [p for p in standings if byes[p] == fewest][-1]

        met = met_before(results)
        others = [p for p in active if p != paired.bye]
        if repeat_free_pairing_exists(others, met):
            assert not set(couples(paired)) & met, (number, couples(paired))
        results += played(paired, draw)


@events
@given(size=st.integers(min_value=4, max_value=13), seed=st.integers(min_value=0, max_value=1000))
def test_initial_fontes_pairs_everyone_without_a_repeat_and_at_most_one_bye_a_round(
    size: int, seed: int
) -> None:
    players = field(size)
    rules = Rules(rounds=3, gibson=False, seed=seed)
    results: list[Result] = []
    byes: Counter[int] = Counter()
    for number in (1, 2, 3):
        paired = pair_round("fontes", players, results, rules, number)
        seated = [p for pairing in paired.pairings for p in (pairing.first, pairing.second)]
        assert sorted(seated + ([paired.bye] if paired.bye is not None else [])) == [
            p.id for p in players
        ]
        assert not set(couples(paired)) & met_before(results)
        if paired.bye is not None:
            byes[paired.bye] += 1
        results += played(paired, random.Random(seed + number))
    assert all(count == 1 for count in byes.values())


@events
@given(
    size=st.integers(min_value=3, max_value=12),
    rounds=st.integers(min_value=2, max_value=6),
    method=st.sampled_from(["swiss", "koth"]),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_with_gibsonization_every_round_still_pairs_everyone_once_or_gives_one_bye(
    size: int, rounds: int, method: str, seed: int
) -> None:
    # A margin of 20 a game makes leaders clinch early, so many rounds are gibsonized.
    players = field(size)
    rules = Rules(
        rounds=rounds, gibson_spread=20, prize_places=2, repeats_allowed=rounds, seed=seed
    )
    draw = random.Random(seed)
    results: list[Result] = []
    for number in range(1, rounds + 1):
        paired = pair_round(method, players, results, rules, number)
        seated = [p for pairing in paired.pairings for p in (pairing.first, pairing.second)]
        assert sorted(seated + ([paired.bye] if paired.bye is not None else [])) == list(
            range(1, size + 1)
        )
        if size % 2 and len(paired.gibsonized) % 2:
            assert paired.bye == paired.gibsonized[-1]
        results += played(paired, draw)
