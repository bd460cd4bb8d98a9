"""Gibsonization: a leader who can't be caught, and one who can, worked out by hand."""

from __future__ import annotations

from scorekeeper.tournaments import Absence, Bye, Game, Result, Rules, pair_round
from tests.scorekeeper.tournaments.events import couples, field


def three_rounds_of_four() -> list[Result]:
    """After 3 of 4 rounds: Ann (1) 3-0 +300, Ben (2) 2-1 +10, Cy (3) 1-2 -60, Dee (4) 0-3 -250."""
    return [
        Game(1, 1, 2, 400, 300),
        Game(1, 3, 4, 400, 350),
        Game(2, 1, 3, 400, 300),
        Game(2, 2, 4, 400, 300),
        Game(3, 1, 4, 400, 300),
        Game(3, 2, 3, 400, 390),
    ]


def test_a_leader_who_can_still_be_caught_is_paired_as_usual() -> None:
    # One round left, 500 a game: Ann's worst is 3 wins and 300 - 500 = -200; Ben's best is
    # 2 + 1 = 3 wins and 10 + 500 = 510: Ben can catch her.
    paired = pair_round("koth", field(4), three_rounds_of_four(), Rules(rounds=4), 4)
    assert paired.gibsonized == ()
    assert couples(paired) == [(1, 2), (3, 4)]


def test_a_leader_who_cant_be_caught_plays_the_best_player_out_of_the_prizes() -> None:
    # 100 a game: Ann's worst is 3 wins, 300 - 100 = 200; Ben's best 3 wins, 10 + 100 = 110,
    # behind her; Cy's best is 2 wins. Two prizes: the last prize place is Ben's, whose worst is
    # 2 wins, 10 - 100 = -90; Cy's best (2 wins, -60 + 100 = 40) can still pass it, Dee's best
    # (1 win) can't: Ann plays Dee, though King of the Hill would pair her with Ben.
    rules = Rules(rounds=4, gibson_spread=100, prize_places=2)
    paired = pair_round("koth", field(4), three_rounds_of_four(), rules, 4)
    assert paired.gibsonized == (1,)
    assert couples(paired) == [(1, 4), (2, 3)]


def test_level_at_the_worst_counts_as_caught() -> None:
    # 145 a game: Ann's worst 3 wins, 300 - 145 = 155; Ben's best 3 wins, 10 + 145 = 155.
    rules = Rules(rounds=4, gibson_spread=145, prize_places=2)
    assert pair_round("koth", field(4), three_rounds_of_four(), rules, 4).gibsonized == ()
    rules = Rules(rounds=4, gibson_spread=144, prize_places=2)
    assert pair_round("koth", field(4), three_rounds_of_four(), rules, 4).gibsonized == (1,)


def test_gibsonization_is_an_option() -> None:
    rules = Rules(rounds=4, gibson=False, gibson_spread=100, prize_places=2)
    paired = pair_round("koth", field(4), three_rounds_of_four(), rules, 4)
    assert paired.gibsonized == () and couples(paired) == [(1, 2), (3, 4)]


def records(spreads: dict[int, list[int]]) -> list[Result]:
    """Each player's rounds as byes (a win by the spread) and absences (a loss by it)."""
    return [
        Bye(number, player, spread) if spread > 0 else Absence(number, player, -spread)
        for player, rounds in spreads.items()
        for number, spread in enumerate(rounds, start=1)
    ]


def test_two_leaders_out_of_reach_of_the_rest_play_each_other() -> None:
    # One round left: Ann 3-0 +900 (worst 3 wins, 400) can be caught by Ben 3-0 +600 (best 4
    # wins), but both are out of reach of Cy 1-2 (best 2 wins) and everyone below.
    results = records(
        {
            1: [300, 300, 300],
            2: [200, 200, 200],
            3: [50, -50, -50],
            4: [-50, 50, -60],
            5: [-50, -50, 50],
            6: [-60, -60, -60],
        }
    )
    paired = pair_round("swiss", field(6), results, Rules(rounds=4), 4)
    assert paired.gibsonized == (1, 2)
    assert (1, 2) in couples(paired)


def test_in_an_odd_field_the_lowest_leader_takes_the_bye() -> None:
    # Ann 3-0 +900 can't be caught by anyone on 1 win with one round left: she sits out
    # the last round, though the bye rule would give it to Eve, ranked last.
    # Ben and Dee (1-2, -50) rank above Cy and Eve (1-2, -60); Swiss pairs their group's top
    # half against its bottom half.
    results = records(
        {
            1: [300, 300, 300],
            2: [50, -50, -50],
            3: [-50, 50, -60],
            4: [-50, -50, 50],
            5: [-60, -60, 60],
        }
    )
    paired = pair_round("swiss", field(5), results, Rules(rounds=4), 4)
    assert paired.gibsonized == (1,)
    assert paired.bye == 1
    assert couples(paired) == [(2, 3), (4, 5)]


def test_nobody_is_gibsonized_once_no_round_is_left_to_play() -> None:
    results = records({1: [300, 300, 300], 2: [-50, -50, -50]})
    assert pair_round("swiss", field(2), results, Rules(rounds=3), 4).gibsonized == ()
