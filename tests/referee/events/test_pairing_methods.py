"""Each pairing method on small events worked out by hand, and its refusals."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.events import (
    Bout,
    Bye,
    Competitor,
    Options,
    PairingError,
    Result,
    Rules,
    fontes_groups,
    pair_round,
    seat,
)
from tests.referee.events.fields import couples, field, played

NO_GIBSON = Rules(rounds=5, gibson=False)


def round_one_of_eight() -> list[Result]:
    """1, 2, 3, 4 beat 8, 7, 6, 5 by 100, 80, 60, 40."""
    return [
        Bout(1, 1, 8, 400, 300),
        Bout(1, 2, 7, 380, 300),
        Bout(1, 3, 6, 360, 300),
        Bout(1, 4, 5, 340, 300),
    ]


def test_swiss_round_one_pairs_the_top_half_of_the_ratings_against_the_bottom_half() -> None:
    paired = pair_round("swiss", field(8), [], NO_GIBSON, 1)
    assert couples(paired) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert [p.table for p in paired.pairings] == [1, 2, 3, 4]


def test_swiss_pairs_winners_with_winners_top_half_against_bottom_half() -> None:
    # Standings after round 1: 1 (+100), 2 (+80), 3 (+60), 4 (+40) on one win; 5 .. 8 on none.
    paired = pair_round("swiss", field(8), round_one_of_eight(), NO_GIBSON, 2)
    assert couples(paired) == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_swiss_avoids_a_repeat_by_leaving_the_win_group() -> None:
    # Four players: 1 beat 2 and 3 beat 4, then 1 beat 3 and 2 beat 4. Round 3 by wins would be
    # 1 v 2 (a repeat) and 3 v 4 (a repeat): the only repeat-free round is 1 v 4 and 2 v 3.
    results: list[Result] = [
        Bout(1, 1, 2, 400, 300),
        Bout(1, 3, 4, 400, 300),
        Bout(2, 1, 3, 400, 300),
        Bout(2, 2, 4, 400, 300),
    ]
    paired = pair_round("swiss", field(4), results, NO_GIBSON, 3)
    assert sorted(couples(paired)) == [(1, 4), (2, 3)]


def test_swiss_refuses_a_round_that_needs_a_repeat_beyond_the_limit() -> None:
    results: list[Result] = [Bout(1, 1, 2, 400, 300)]
    with pytest.raises(PairingError) as refused:
        pair_round("swiss", field(2), results, Rules(rounds=3, gibson=False, repeats_allowed=0), 2)
    assert refused.value.code == "no_pairing"
    assert "repeat limit" in refused.value.message


def test_swiss_repeats_within_the_limit_when_nothing_else_is_left() -> None:
    results: list[Result] = [Bout(1, 1, 2, 400, 300)]
    paired = pair_round(
        "swiss", field(2), results, Rules(rounds=3, gibson=False, repeats_allowed=1), 2
    )
    assert couples(paired) == [(1, 2)]


def test_king_of_the_hill_pairs_one_two_three_four_in_the_standings() -> None:
    paired = pair_round("koth", field(8), round_one_of_eight(), NO_GIBSON, 2)
    assert couples(paired) == [(1, 2), (3, 4), (5, 6), (7, 8)]


def test_king_of_the_hill_avoids_last_rounds_rematch() -> None:
    # 1 and 2 met last round and lead: 1 v 3, 2 v 4 is the least move (1 v 4, 2 v 3 is more).
    results: list[Result] = [Bout(1, 1, 2, 400, 390), Bout(1, 3, 4, 400, 300)]
    # Standings: 3 (+100, 1 win), 1 (+10, 1 win), 2 (-10), 4 (-100).
    paired = pair_round("koth", field(4), results, NO_GIBSON, 2)
    assert couples(paired) == [(1, 3), (2, 4)]


def test_the_bye_goes_to_the_lowest_ranked_among_those_with_fewest_byes() -> None:
    # 5 had the bye in round 1, so round 2's goes to the lowest of the others: 4 lost by most.
    results: list[Result] = [Bout(1, 1, 2, 400, 300), Bout(1, 3, 4, 400, 200), Bye(1, 5)]
    paired = pair_round("swiss", field(5), results, NO_GIBSON, 2)
    assert paired.bye == 4
    assert pair_round("swiss", field(5), [], NO_GIBSON, 1).bye == 5


def test_pairing_from_the_round_before_last_uses_those_standings_but_every_meeting() -> None:
    # Round 1: 1 beat 4, 2 beat 3. Round 2 (still being played): 1 v 2, 3 v 4.
    results: list[Result] = [
        Bout(1, 1, 4, 400, 300),
        Bout(1, 2, 3, 400, 350),
        Bout(2, 1, 2),
        Bout(2, 3, 4),
    ]
    paired = pair_round("koth", field(4), results, NO_GIBSON, 3, based_on=1)
    # KOTH on round 1's standings (1, 2, 3, 4) would be 1 v 2, 3 v 4: both met in round 2.
    assert couples(paired) == [(1, 3), (2, 4)]


def test_a_round_already_paired_is_refused() -> None:
    with pytest.raises(PairingError) as refused:
        pair_round("swiss", field(4), [Bout(1, 1, 2)], NO_GIBSON, 1)
    assert refused.value.code == "paired_twice"


def test_an_unknown_method_is_refused_with_its_name() -> None:
    with pytest.raises(PairingError, match="'dutch'"):
        pair_round("dutch", field(4), [], NO_GIBSON, 1)


def test_withdrawn_players_are_not_paired_and_late_entries_only_from_their_round() -> None:
    players = [*field(4), Competitor(5, "Eve Late", 1500, joined_round=2)]
    players[0] = Competitor(1, "Ann Gone", 1975, active=False)
    paired = pair_round("swiss", players, [], NO_GIBSON, 1)
    assert couples(paired) == [(2, 3)] and paired.bye == 4
    paired = pair_round("swiss", players, [], NO_GIBSON, 2)
    assert len(paired.pairings) == 2 and paired.bye is None


def test_a_manual_round_is_taken_as_given() -> None:
    options = Options(manual=((1, 3), (2, 4)), manual_bye=5)
    paired = pair_round("manual", field(5), [], NO_GIBSON, 1, options=options)
    assert sorted(couples(paired)) == [(1, 3), (2, 4)] and paired.bye == 5


@pytest.mark.parametrize(
    ("manual", "bye", "code"),
    [
        (((1, 1), (2, 3)), None, "self_pairing"),
        (((1, 2), (2, 3)), None, "paired_twice"),
        (((1, 2),), None, "unpaired"),
        (((1, 2), (3, 9)), None, "not_in_field"),
        (((1, 2),), 3, "unpaired"),
        (((1, 2),), 1, "paired_twice"),
    ],
)
def test_a_manual_round_that_is_not_everyone_once_is_refused(
    manual: tuple[tuple[int, int], ...], bye: int | None, code: str
) -> None:
    with pytest.raises(PairingError) as refused:
        pair_round(
            "manual", field(4), [], NO_GIBSON, 1, options=Options(manual=manual, manual_bye=bye)
        )
    assert refused.value.code == code


def test_the_player_with_fewer_firsts_goes_first_then_the_one_with_more_seconds() -> None:
    draw = random.Random(0)
    assert seat(1, 2, Counter({1: 2, 2: 1}), Counter(), draw) == (2, 1)
    assert seat(1, 2, Counter({1: 1, 2: 1}), Counter({1: 2, 2: 1}), draw) == (1, 2)


def test_a_level_seat_is_drawn_the_same_way_for_the_same_seed() -> None:
    rules = Rules(rounds=3, gibson=False, seed=7)
    first = pair_round("swiss", field(8), [], rules, 1)
    again = pair_round("swiss", field(8), [], rules, 1)
    assert first == again
    seeds = {
        tuple(
            p.first
            for p in pair_round("swiss", field(8), [], Rules(3, gibson=False, seed=s), 1).pairings
        )
        for s in range(8)
    }
    assert len(seeds) > 1


def test_seats_follow_the_firsts_so_far() -> None:
    # Round 1: 1 went first against 2, 3 first against 4. Round 2 pairs 1 v 4 and 2 v 3: the
    # players who went second in round 1 (4 and 2) go first.
    results: list[Result] = [Bout(1, 1, 2, 400, 300), Bout(1, 3, 4, 400, 300)]
    options = Options(manual=((1, 4), (2, 3)))
    paired = pair_round("manual", field(4), results, NO_GIBSON, 2, options=options)
    assert sorted((p.first, p.second) for p in paired.pairings) == [(2, 3), (4, 1)]


def test_initial_fontes_groups_are_snaked_as_tshs_initial_snaked() -> None:
    # 12 players, 3 rounds: rows of 3 (1-3, 6-4, 7-9, 12-10, every second reversed); each
    # group takes the last of every row.
    assert fontes_groups(list(range(1, 13)), 3) == [[3, 4, 9, 10], [2, 5, 8, 11], [1, 6, 7, 12]]
    # 9 players: one over; the middle one (6) is set aside and joins the last group's middle.
    assert fontes_groups(list(range(1, 10)), 3) == [[2, 3, 7, 8], [1, 4, 6, 5, 9]]
    # 10 players: two over, 6 then 7 from the middle.
    assert fontes_groups(list(range(1, 11)), 3) == [[2, 3, 8, 9], [1, 4, 6, 7, 5, 10]]
    # 7 players, one short of two groups: the grid is kept, the last group has a hole.
    assert fontes_groups(list(range(1, 8)), 3) == [[2, 3, 6, 7], [1, 4, 5]]
    # At most 2 × rounds players: one group.
    assert fontes_groups(list(range(1, 7)), 3) == [[1, 2, 3, 4, 5, 6]]
    # 13 players over 5 rounds: groups of 6; 8 set aside.
    assert fontes_groups(list(range(1, 14)), 5) == [
        [2, 3, 6, 7, 11, 12],
        [1, 4, 5, 8, 9, 10, 13],
    ]


def test_initial_fontes_of_three_rounds_follows_tshs_schedule_ending_king_of_the_hill() -> None:
    # 8 players: groups [2, 3, 6, 7] and [1, 4, 5, 8]; a group a b c d plays a-d b-c, then
    # a-c b-d, then a-b c-d.
    rounds = [sorted(couples(pair_round("fontes", field(8), [], NO_GIBSON, n))) for n in (1, 2, 3)]
    assert rounds == [
        [(1, 8), (2, 7), (3, 6), (4, 5)],
        [(1, 5), (2, 6), (3, 7), (4, 8)],
        [(1, 4), (2, 3), (5, 8), (6, 7)],
    ]


def test_initial_fontes_runs_the_odd_number_of_rounds_the_director_sets() -> None:
    # 12 players over 5 rounds: two groups of 6, each a round robin ending 1 v 2, 3 v 4, 5 v 6.
    rules = Rules(rounds=7, gibson=False)
    options = Options(fontes_rounds=5)
    met: list[tuple[int, int]] = []
    results: list[Result] = []
    for number in range(1, 6):
        paired = pair_round("fontes", field(12), results, rules, number, options=options)
        met += couples(paired)
        results += played(paired, random.Random(number))
    groups = [{2, 3, 6, 7, 10, 11}, {1, 4, 5, 8, 9, 12}]
    assert len(met) == len(set(met)) == 30
    assert all(any({a, b} <= group for group in groups) for a, b in met)
    assert sorted(couples(pair_round("fontes", field(12), [], rules, 5, options=options))) == [
        (1, 4), (2, 3), (5, 8), (6, 7), (9, 12), (10, 11)
    ]  # fmt: skip


def test_initial_fontes_plays_a_round_robin_inside_each_group() -> None:
    met = set()
    for number in (1, 2, 3):
        met |= set(couples(pair_round("fontes", field(8), [], NO_GIBSON, number)))
    assert sorted(met) == [
        (1, 4),
        (1, 5),
        (1, 8),
        (2, 3),
        (2, 6),
        (2, 7),
        (3, 6),
        (3, 7),
        (4, 5),
        (4, 8),
        (5, 8),
        (6, 7),
    ]


def test_initial_fontes_refuses_an_even_number_of_rounds_and_rounds_past_its_own() -> None:
    with pytest.raises(PairingError) as refused:
        pair_round("fontes", field(8), [], NO_GIBSON, 1, options=Options(fontes_rounds=2))
    assert refused.value.code == "fontes_rounds"
    with pytest.raises(PairingError) as refused:
        pair_round("fontes", field(8), [], NO_GIBSON, 4)
    assert refused.value.code == "fontes_over"
