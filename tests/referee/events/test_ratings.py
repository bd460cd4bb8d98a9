"""NASPA-style ratings against examples worked out by hand (the arithmetic is in the comments)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.events import (
    Bout,
    Bye,
    Competitor,
    Forfeit,
    Result,
    Rules,
    expected_score,
    k_factor,
    pair_round,
    performance_rating,
    rate_event,
    read_t,
)

ANN = Competitor(1, "Ann Archer", 1500, career_games=10)
BEN = Competitor(2, "Ben Baker", 1600, career_games=100)
CY = Competitor(3, "Cy Cole", 1400, career_games=60)


def test_expected_score_is_the_logistic_curve_of_the_rating_difference() -> None:
    # 200 apart: 0.0031879 × 200 = 0.63758; exp(-0.63758) = 0.528570;
    # 1 / 1.528570 = 0.654206.
    assert expected_score(1600, 1400) == pytest.approx(0.654206, abs=1e-6)
    # 100 apart: exp(-0.31879) = 0.727029; 1 / 1.727029 = 0.579029; and the two sides sum to 1.
    assert expected_score(1500, 1400) == pytest.approx(0.579029, abs=1e-6)
    assert expected_score(1400, 1500) == pytest.approx(1 - 0.579029, abs=1e-6)
    assert expected_score(1700, 1700) == 0.5


@pytest.mark.parametrize(
    ("rating", "career_games", "k"),
    [
        (1799, 49, 30),
        (1799, 50, 20),
        (1800, 49, 24),
        (1999, 50, 16),
        (2000, 49, 15),
        (2400, 500, 10),
        (0, 0, 30),
    ],
)
def test_k_goes_by_the_pre_event_rating_and_career_games(
    rating: int, career_games: int, k: int
) -> None:
    assert k_factor(rating, career_games) == k


def test_a_small_event_worked_by_hand() -> None:
    # Ann beats Ben and Cy, Ben beats Cy.
    results: list[Result] = [
        Bout(1, 1, 2, 400, 350),
        Bout(2, 1, 3, 420, 380),
        Bout(3, 2, 3, 390, 370),
    ]
    changes = rate_event([ANN, BEN, CY], results)
    # Ann, K = 30 (under 1800, 10 career games): expected 0.420971 (v Ben) + 0.579029 (v Cy)
    # = 1.000000; 30 × (2 − 1) = 30, more than 5 × 2 = 10, so 30 + (30 − 10) = 50: 1550.
    assert changes[1].expected == pytest.approx(1.0, abs=1e-6)
    assert (changes[1].k, changes[1].before, changes[1].after) == (30, 1500, 1550)
    # Ann's acceleration bonus of 20 feeds 20 / 20 = 1 point back to each opponent.
    # Ben, K = 20 (100 games): expected 0.579029 + 0.654206 = 1.233235;
    # 20 × (1 − 1.233235) = −4.665 → 1595.335, + 1 feedback = 1596.335: 1596.
    assert (changes[2].k, changes[2].after, changes[2].change) == (20, 1596, -4)
    # Cy, K = 20 (60 games): expected 0.420971 + 0.345794 = 0.766765;
    # 20 × (0 − 0.766765) = −15.335 → 1384.665, + 1 feedback = 1385.665: 1386.
    assert (changes[3].k, changes[3].after) == (20, 1386)


def test_a_draw_is_half_a_win() -> None:
    # Level ratings: expected 0.5, won 0.5, no change; 1500 v 1600 drawn: Ann
    # 30 × (0.5 − 0.420971) = 2.371 → 1502.
    changes = rate_event([ANN, BEN], [Bout(1, 1, 2, 400, 400)])
    assert (changes[1].wins, changes[1].after, changes[2].after) == (0.5, 1502, 1598)


def test_byes_and_forfeits_are_not_rated() -> None:
    results: list[Result] = [Bye(1, 1, 50), Forfeit(2, 1, 2, 50), Bout(3, 2, 1)]
    changes = rate_event([ANN, BEN], results)
    assert (changes[1].games, changes[1].after, changes[2].games, changes[2].after) == (
        0,
        1500,
        0,
        1600,
    )


def test_an_unrated_player_gets_their_performance_rating() -> None:
    # Dan, unrated, beats Ann (1500) and loses to a 1700: the curve is symmetric, so
    # E(R, 1500) + E(R, 1700) = 1 at R = 1600.
    top = Competitor(4, "Tia Top", 1700, career_games=100)
    dan = Competitor(5, "Dan New")
    results: list[Result] = [Bout(1, 5, 1, 400, 300), Bout(2, 4, 5, 400, 300)]
    changes = rate_event([ANN, top, dan], results)
    assert (changes[5].before, changes[5].after, changes[5].k) == (0, 1600, None)
    # Ann is rated against Dan's 1600: 30 × (0 − 0.420971) = −12.629 → 1487.371: 1487.
    assert changes[1].after == 1487


def test_a_clean_sweep_counts_as_95_percent_and_is_capped_above_the_best_rated_opponent() -> None:
    # Two wins over 1500s count as 1.9: 2 × E(R, 1500) = 1.9, E = 0.95,
    # exp(−0.0031879 × d) = 1/19, d = ln 19 / 0.0031879 = 2.944439 / 0.0031879 = 923.63: 2424.
    assert round(performance_rating(2, [1500, 1500])) == 2424
    # The cap: the best rated opponent's 1500 + 400 × 2 / 2 = 1900.
    opponents = [Competitor(1, "Ann Archer", 1500), Competitor(2, "Ben Baker", 1500)]
    new = Competitor(3, "Dan New")
    results: list[Result] = [Bout(1, 3, 1, 400, 300), Bout(2, 2, 3, 300, 400)]
    assert rate_event([*opponents, new], results)[3].after == 1900


def test_a_newcomer_who_wins_nothing_gets_the_floor_of_500() -> None:
    # Two losses to 600s count as 0.1 wins: E = 0.05, d = −923.63, so 600 − 924 < 0: the
    # search stops at 0 and the floor lifts it to 500.
    opponents = [Competitor(1, "Ann Archer", 600), Competitor(2, "Ben Baker", 600)]
    new = Competitor(3, "Dan New")
    results: list[Result] = [Bout(1, 3, 1, 300, 400), Bout(2, 2, 3, 400, 300)]
    assert rate_event([*opponents, new], results)[3].after == 500


def test_newcomers_who_only_met_each_other_are_capped_at_each_others_estimates() -> None:
    # Two unrated players, one game, both solved from the same estimates each pass (the
    # winner's performance is 0.95 of a game, always above its cap; the loser's is 0.05, the
    # winner's estimate − 923.63, floored at 500):
    #   start:  1500,                      1500
    #   pass 1: cap 1500 + 400 = 1900,     1500 − 923.63 = 576.37
    #   pass 2: cap 576.37 + 400 = 976.37, 1900 − 923.63 = 976.37
    #   pass 3: cap 1376.37,               976.37 − 923.63 = 52.74 → 500
    #   pass 4: cap 500 + 400 = 900,       1376.37 − 923.63 = 452.74 → 500
    #   pass 5: 900,                       900 − 923.63 < 0 → 500: settled.
    a, b = Competitor(1, "Ann New"), Competitor(2, "Ben New")
    changes = rate_event([a, b], [Bout(1, 1, 2, 400, 300)])
    assert (changes[1].after, changes[2].after) == (900, 500)


def test_a_change_across_1800_is_counted_at_each_bands_k() -> None:
    # Ivy, 1805 with 100 games, loses to Joe, 805: expected 0.960376, excess −0.960376.
    # At K 16 down to 1799 uses 6 / 16 = 0.375 of it; the other 0.585376 at K 20 is 11.7075:
    # 1787.2925 (one K of 16 throughout would give 1789.63).
    # Joe gains 20 × 0.960376 = 19.2075, 14.2075 over 5 a game: that bonus again, and 1/20 of
    # it, 0.7104, is Ivy's feedback: 1788.0029, so 1788.
    ivy, joe = (
        Competitor(1, "Ivy", 1805, career_games=100),
        Competitor(2, "Joe", 805, career_games=100),
    )
    changes = rate_event([ivy, joe], [Bout(1, 2, 1, 400, 300)])
    assert (changes[1].after, changes[2].after) == (1788, 838)


def test_the_next_segment_takes_the_career_games_the_first_one_added() -> None:
    # 45 career games: K 30 through the first segment of a 17-round event (9 rounds), then
    # 54 games and K 20 in the second. Rated as two events of 9 and 8 rounds in a row, the same.
    field = [Competitor(n, f"P{n}", 1500 + 10 * n, career_games=45) for n in range(1, 7)]
    results = _swiss(field, 17, seed=3)
    whole = rate_event(field, results, 17)
    first = rate_event(field, [r for r in results if r.round <= 9], 9)
    middle = [
        Competitor(p.id, p.name, first[p.id].after, career_games=45 + first[p.id].games)
        for p in field
    ]
    later = [_shifted(r, 9) for r in results if r.round > 9]
    second = rate_event(middle, later, 8)
    assert {pid: c.after for pid, c in whole.items()} == {pid: c.after for pid, c in second.items()}


def test_an_event_of_16_rounds_is_one_segment_and_of_17_two() -> None:
    field = [Competitor(n, f"P{n}", 1400 + 40 * n, career_games=200) for n in range(1, 7)]
    results = _swiss(field, 16, seed=5)
    one = rate_event(field, results, 16)
    two = rate_event(field, results, 17)  # the same games, in an event of 17 rounds
    assert {p: c.after for p, c in one.items()} != {p: c.after for p, c in two.items()}


def test_a_newcomer_rated_in_the_first_segment_is_a_rated_player_in_the_second() -> None:
    field = [Competitor(n, f"P{n}", 1500 + 20 * n, career_games=100) for n in range(1, 6)]
    new = Competitor(6, "New")
    results = _swiss([*field, new], 18, seed=7)
    whole = rate_event([*field, new], results, 18)
    first = rate_event([*field, new], [r for r in results if r.round <= 9], 9)
    assert first[6].k is None and first[6].after > 0
    middle = [
        Competitor(p.id, p.name, first[p.id].after, career_games=p.career_games + first[p.id].games)
        for p in [*field, new]
    ]
    second = rate_event(middle, [_shifted(r, 9) for r in results if r.round > 9], 9)
    assert whole[6].after == second[6].after


def _swiss(players: list[Competitor], rounds: int, seed: int) -> list[Result]:
    draw = random.Random(seed)
    rules = Rules(rounds=rounds, gibson=False, repeats_allowed=rounds)
    results: list[Result] = []
    for number in range(1, rounds + 1):
        for pairing in pair_round("swiss", players, results, rules, number).pairings:
            first, second = draw.randint(300, 500), draw.randint(300, 500)
            results.append(Bout(number, pairing.first, pairing.second, first, second))
    return results


def _shifted(result: Result, by: int) -> Result:
    assert isinstance(result, Bout)
    return Bout(
        result.round - by, result.first, result.second, result.first_score, result.second_score
    )


REAL_EVENT = Path(__file__).with_name("tsh_event_26x23.t")  # its source is in its first lines


def test_every_rating_of_a_real_23_round_event_is_tshs_own_after_every_round() -> None:
    # tsh's newr field holds each player's rating after each round, worked out with the event's
    # 23 rounds in two segments (rounds 1-12 and 13-23): 598 ratings, every one equal.
    division = read_t(REAL_EVENT.read_text())
    checked = 0
    for through in range(1, 24):
        results = [result for result in division.results if result.round <= through]
        changes = rate_event(division.players, results, 23)
        for player in division.players:
            newr = dict(player.t_fields)["newr"].split()
            if through <= len(newr):
                assert changes[player.id].after == int(newr[through - 1]), (player.name, through)
                checked += 1
    assert checked == 598
