"""Standings: the order, shared places, scorecards, late entries and withdrawals."""

from __future__ import annotations

import pytest

from referee.events import (
    Absence,
    Bout,
    Bye,
    Competitor,
    EventError,
    Forfeit,
    Result,
    ResultError,
    Rules,
    ScorecardLine,
    compute_standings,
    forfeits_for_withdrawal,
)

RULES = Rules(rounds=3)
ANN, BEN, CY, DEE = (
    Competitor(1, "Ann Archer", 1500),
    Competitor(2, "Ben Baker", 1600),
    Competitor(3, "Cy Cole", 1700),
    Competitor(4, "Dee Dunn", 1800),
)


def table(
    players: list[Competitor], results: list[Result], **kwargs: int
) -> list[tuple[str, str, float, float, int]]:
    return [
        (row.rank, row.player.name, row.wins, row.losses, row.spread)
        for row in compute_standings(players, results, RULES, **kwargs)
    ]


def test_more_wins_first_then_spread_then_rating() -> None:
    results: list[Result] = [
        Bout(1, 1, 2, 400, 300),  # Ann +100
        Bout(1, 3, 4, 350, 300),  # Cy +50
        Bout(2, 1, 3, 300, 300),  # a draw: half a win and half a loss each
        Bout(2, 2, 4, 420, 400),  # Ben +20
    ]
    assert table([ANN, BEN, CY, DEE], results) == [
        ("1", "Ann Archer", 1.5, 0.5, 100),
        ("2", "Cy Cole", 1.5, 0.5, 50),
        ("3", "Ben Baker", 1.0, 1.0, -80),
        ("4", "Dee Dunn", 0.0, 2.0, -70),
    ]


def test_players_level_on_wins_and_spread_share_a_place_ordered_by_rating() -> None:
    results: list[Result] = [Bout(1, 1, 2, 400, 350), Bout(1, 3, 4, 400, 350)]
    assert table([ANN, BEN, CY, DEE], results) == [
        ("1=", "Cy Cole", 1.0, 0.0, 50),
        ("1=", "Ann Archer", 1.0, 0.0, 50),
        ("3=", "Dee Dunn", 0.0, 1.0, -50),
        ("3=", "Ben Baker", 0.0, 1.0, -50),
    ]


def test_losses_are_not_compared_at_equal_wins_spread_decides() -> None:
    # As tsh ranks: Ann left at 2-0 (+51); Ben played on to 2-1 (+120) and is ahead of her.
    results: list[Result] = [
        Bout(1, 1, 3, 330, 300),
        Bout(1, 2, 4, 500, 300),
        Bout(2, 1, 4, 321, 300),
        Bout(2, 2, 3, 400, 350),
        Bout(3, 2, 3, 300, 430),
    ]
    assert table([ANN, BEN, CY, DEE], results)[:2] == [
        ("1", "Ben Baker", 2.0, 1.0, 120),
        ("2", "Ann Archer", 2.0, 0.0, 51),
    ]


def test_level_on_wins_and_spread_share_a_place_whatever_their_losses() -> None:
    results: list[Result] = [
        Bout(1, 1, 3, 350, 300),  # Ann +50 from 1 game
        Bout(1, 2, 4, 400, 300),
        Bout(2, 2, 3, 300, 350),  # Ben +100 -50: 1-1, +50
    ]
    assert table([ANN, BEN, CY, DEE], results)[:3] == [
        ("1=", "Ben Baker", 1.0, 1.0, 50),
        ("1=", "Ann Archer", 1.0, 0.0, 50),
        ("3", "Cy Cole", 1.0, 1.0, 0),
    ]


def test_a_bye_wins_by_its_spread_and_a_forfeit_is_fifty_either_way() -> None:
    results: list[Result] = [Bye(1, 1, 50), Forfeit(1, 2, 3, 50), Absence(1, 4, 50)]
    assert table([ANN, BEN, CY, DEE], results) == [
        ("1=", "Ben Baker", 1.0, 0.0, 50),
        ("1=", "Ann Archer", 1.0, 0.0, 50),
        ("3=", "Dee Dunn", 0.0, 1.0, -50),
        ("3=", "Cy Cole", 0.0, 1.0, -50),
    ]


def test_a_late_entrys_earlier_rounds_are_losses_by_the_forfeit_margin() -> None:
    late = Competitor(4, "Dee Dunn", 1800, joined_round=3)
    results: list[Result] = [
        Bout(1, 1, 2, 400, 300),
        Bout(2, 1, 3, 400, 300),
        Bout(3, 2, 4, 300, 420),
    ]
    rows = compute_standings([ANN, BEN, CY, late], results, RULES)
    dee = next(row for row in rows if row.player.id == 4)
    assert [(line.round, line.kind, line.spread) for line in dee.scorecard] == [
        (1, "absence", -50),
        (2, "absence", -50),
        (3, "game", 120),
    ]
    assert (dee.wins, dee.losses, dee.spread) == (1.0, 2.0, 20)


def test_a_withdrawn_player_keeps_the_results_they_have() -> None:
    gone = Competitor(3, "Cy Cole", 1700, active=False)
    rows = compute_standings(
        [ANN, BEN, gone], [Bout(1, 3, 1, 400, 300), Bout(2, 1, 2, 400, 300)], RULES
    )
    cy = next(row for row in rows if row.player.id == 3)
    assert (cy.rank, cy.wins, cy.losses, cy.spread, cy.games) == ("1", 1.0, 0.0, 100, 1)


def test_the_scorecard_has_each_round_with_the_running_record() -> None:
    results: list[Result] = [
        Bout(1, 1, 2, 412, 377),
        Bout(2, 3, 1, 390, 356),
        Bye(3, 1, 50),
        Bout(3, 2, 3, 400, 300),
    ]
    ann = next(
        row for row in compute_standings([ANN, BEN, CY], results, RULES) if row.player.id == 1
    )
    assert ann.scorecard == (
        ScorecardLine(1, "game", 2, "first", 412, 377, 35, 1.0, 0.0, 35),
        ScorecardLine(2, "game", 3, "second", 356, 390, -34, 1.0, 1.0, 1),
        ScorecardLine(3, "bye", None, None, None, None, 50, 2.0, 1.0, 51),
    )
    assert (ann.firsts, ann.seconds, ann.byes) == (1, 1, 1)


def test_standings_through_a_round_leave_later_ones_out_and_unfinished_games_count_nothing() -> (
    None
):
    results: list[Result] = [Bout(1, 1, 2, 400, 300), Bout(2, 2, 1, 500, 300), Bout(3, 1, 2)]
    assert table([ANN, BEN], results, through=1) == [
        ("1", "Ann Archer", 1.0, 0.0, 100),
        ("2", "Ben Baker", 0.0, 1.0, -100),
    ]
    assert table([ANN, BEN], results) == [
        ("1", "Ben Baker", 1.0, 1.0, 100),
        ("2", "Ann Archer", 1.0, 1.0, -100),
    ]


def test_withdrawing_turns_a_round_already_paired_into_a_forfeit_win_for_the_opponent() -> None:
    results: list[Result] = [Bout(1, 1, 2, 400, 300), Bout(2, 3, 1), Bout(2, 2, 4)]
    changed = forfeits_for_withdrawal(results, 1, RULES.forfeit_spread)
    assert changed == [Bout(1, 1, 2, 400, 300), Forfeit(2, 3, 1, 50), Bout(2, 2, 4)]
    gone = Competitor(1, "Ann Archer", 1500, active=False)
    assert table([gone, BEN, CY, DEE], changed)[:2] == [
        ("1=", "Cy Cole", 1.0, 0.0, 50),
        ("1=", "Ann Archer", 1.0, 1.0, 50),
    ]


def test_results_that_contradict_themselves_are_refused_with_a_sentence() -> None:
    cases: list[tuple[list[Result], str]] = [
        ([Bout(1, 1, 1, 400, 300)], "self_pairing"),
        ([Bout(1, 1, 2, 400, 300), Bye(1, 2)], "two_results"),
        ([Bout(1, 1, 9, 400, 300)], "unknown_player"),
    ]
    for results, code in cases:
        with pytest.raises(ResultError) as refused:
            compute_standings([ANN, BEN], results, RULES)
        assert refused.value.code == code
        assert refused.value.message.endswith(".")


@pytest.mark.parametrize(
    "chosen",
    [{"rounds": 0}, {"rounds": 3, "bye_spread": -50}, {"rounds": 3, "repeats_allowed": -1}],
)
def test_rules_out_of_range_are_refused(chosen: dict[str, int]) -> None:
    with pytest.raises(EventError) as refused:
        Rules(**chosen)
    assert refused.value.code == "bad_rules"


def test_an_absence_or_forfeit_loss_of_no_spread_is_still_a_loss() -> None:
    # As tsh counts a bye scored 0: no spread, but no win either (a game drawn is half).
    results: list[Result] = [Absence(1, 1, 0), Forfeit(1, 2, 3, 0)]
    rows = {row.player.name: (row.wins, row.losses) for row in compute_standings(
        [ANN, BEN, CY, DEE], results, RULES
    )}  # fmt: skip
    assert rows["Ann Archer"] == (0.0, 1.0) and rows["Cy Cole"] == (0.0, 1.0)
