"""Gibsonization: a leader who can't be caught, and one who can, worked out by hand."""

from __future__ import annotations

from referee.events import Absence, Bout, Bye, Result, Rules, pair_round
from tests.referee.events.fields import couples, field


def three_rounds_of_four() -> list[Result]:
    """After 3 of 4 rounds: Ann (1) 3-0 +300, Ben (2) 2-1 +10, Cy (3) 1-2 -60, Dee (4) 0-3 -250."""
    return [
        Bout(1, 1, 2, 400, 300),
        Bout(1, 3, 4, 400, 350),
        Bout(2, 1, 3, 400, 300),
        Bout(2, 2, 4, 400, 300),
        Bout(3, 1, 4, 400, 300),
        Bout(3, 2, 3, 400, 390),
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


def test_each_prize_place_clinched_against_the_next_and_the_clinched_play_each_other() -> None:
    # One round left, 500 a game, two prizes. Ann 3-0 +2400 is one win and 1250 (more than
    # 2 × 500) ahead of Ben 2-1 +1150: out of his reach. Ben is one win and 1200 ahead of
    # Cy 1-2 -50: out of hers. Both are gibsonized and play each other.
    results = records(
        {
            1: [800, 800, 800],
            2: [600, 600, -50],
            3: [50, -50, -50],
            4: [-50, 40, -60],
            5: [-50, -60, 30],
            6: [-60, -60, -60],
        }
    )
    paired = pair_round("swiss", field(6), results, Rules(rounds=4, prize_places=2), 4)
    assert paired.gibsonized == (1, 2)
    assert (1, 2) in couples(paired)


def test_only_prize_places_are_gibsonized_and_nobody_can_cash_a_clinched_prize() -> None:
    # The same standings with one prize: only Ann's first place counts. Nobody else can cash
    # (the one prize is hers), so she may play anyone: the highest-ranked, Ben.
    results = records(
        {
            1: [800, 800, 800],
            2: [600, 600, -50],
            3: [50, -50, -50],
            4: [-50, 40, -60],
            5: [-50, -60, 30],
            6: [-60, -60, -60],
        }
    )
    paired = pair_round("swiss", field(6), results, Rules(rounds=4), 4)
    assert paired.gibsonized == (1,)
    assert (1, 2) in couples(paired)


def test_a_gibsonized_leader_never_plays_someone_who_can_still_cash() -> None:
    # After 4 rounds, three prizes, 100 a game: Ann 4-0 +800, Ben 2-2 +100, Cy 2-2 +80,
    # Dee 2-2 +50, Eve 1-3 -100, Fay 0-4 -220.
    results = records(
        {
            1: [200, 200, 200, 200],
            2: [100, 100, -50, -50],
            3: [90, 90, -50, -50],
            4: [80, 70, -50, -50],
            5: [50, -50, -50, -50],
            6: [-50, -50, -50, -70],
        }
    )
    # One round left: Ann is 2 wins ahead of Ben, gibsonized; Ben and Cy are level, so the
    # list stops there. Third place has 2 wins: Eve (1 + 1) can still reach it, Fay (0 + 1)
    # can't. Ann plays Fay.
    paired = pair_round("swiss", field(6), results, Rules(5, prize_places=3, gibson_spread=100), 5)
    assert paired.gibsonized == (1,)
    assert (1, 6) in couples(paired)
    # Two rounds left: Ann is 2 wins and 700 (more than 2 × 2 × 100) ahead, still gibsonized,
    # but Fay (0 + 2) can reach 2 wins too: with everyone able to cash, Ann is paired by the
    # method like everyone else.
    paired = pair_round("swiss", field(6), results, Rules(6, prize_places=3, gibson_spread=100), 5)
    assert paired.gibsonized == (1,)
    assert (1, 6) not in couples(paired)


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
