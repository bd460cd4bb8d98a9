"""tsh's .t file: written as tsh writes it, and read back to the same event."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.tournaments import (
    Absence,
    Bye,
    Forfeit,
    Game,
    Player,
    Result,
    Rules,
    TFileError,
    compute_standings,
    pair_round,
    read_t,
    write_t,
)
from tests.scorekeeper.tournaments.events import field, played

PLAYERS = [
    Player(1, "Ann Archer", 1500),
    Player(2, "Ben Baker", 1620),
    Player(3, "Mary Ann Cole", 0),
]


def test_a_division_is_written_one_line_a_player_last_name_first() -> None:
    results: list[Result] = [
        Game(1, 1, 2, 412, 377),
        Bye(1, 3, 50),
        Game(2, 3, 1, 390, 356),
        Bye(2, 2, 50),
        Game(3, 2, 3),
        Absence(3, 1, 50),
    ]
    assert write_t(PLAYERS, results) == (
        "Archer, Ann              1500 2 3 0; 412 356 -50; p12 1 2 0\n"
        "Baker, Ben               1620 1 0 3; 377 50; p12 2 0 1\n"
        "Cole, Mary Ann              0 0 1 2; 50 390; p12 0 1 2\n"
    )


def test_a_forfeit_is_written_as_tsh_does_and_reads_back_as_a_bye_and_an_absence() -> None:
    text = write_t(PLAYERS[:2], [Forfeit(1, 2, 1, 50)])
    assert text.splitlines() == [
        "Archer, Ann              1500 0; -50; p12 0",
        "Baker, Ben               1620 0; 50; p12 0",
    ]
    assert read_t(text).results == (Absence(1, 1, 50), Bye(1, 2, 50))


def test_a_file_without_seats_puts_the_earlier_line_first() -> None:
    division = read_t("Archer, Ann 1500 2; 400\nBaker, Ben 1620 1; 380\n")
    assert division.players == (Player(1, "Ann Archer", 1500), Player(2, "Ben Baker", 1620))
    assert division.results == (Game(1, 1, 2, 400, 380),)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Archer, Ann 1500 2; 400\nBaker, Ben 1620 0; 380\n", "one_sided"),
        ("Archer, Ann 1500 3; 400\nBaker, Ben 1620 1; 380\n", "bad_opponent"),
        ("Archer, Ann 1500 2; 400\nBaker, Ben 1620 1;\n", "half_a_result"),
        ("Archer, Ann 1500 2; 400 300\nBaker, Ben 1620 1; 380\n", "too_many_scores"),
        ("Archer, Ann fifteen hundred\n", "bad_line"),
    ],
)
def test_a_file_that_contradicts_itself_is_refused_with_a_sentence(text: str, code: str) -> None:
    with pytest.raises(TFileError) as refused:
        read_t(text)
    assert refused.value.code == code
    assert refused.value.message.endswith(".")


def test_a_game_without_a_result_before_one_with_a_result_cant_be_written() -> None:
    with pytest.raises(TFileError) as refused:
        write_t(PLAYERS[:2], [Game(1, 1, 2), Game(2, 1, 2, 400, 300)])
    assert refused.value.code == "unfinished_game"


def test_a_name_the_file_cant_hold_is_refused() -> None:
    with pytest.raises(TFileError) as refused:
        write_t([Player(1, "Ann Archer 2", 1500)], [])
    assert refused.value.code == "unwritable_name"


@settings(max_examples=25, derandomize=True, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=11),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
    unfinished=st.booleans(),
)
def test_an_event_written_and_read_back_is_the_same_event(
    size: int, rounds: int, seed: int, unfinished: bool
) -> None:
    players = field(size)
    rules = Rules(rounds=rounds + 1, gibson=False, seed=seed, repeats_allowed=rounds)
    draw = random.Random(seed)
    results: list[Result] = []
    for number in range(1, rounds + 1):
        results += played(pair_round("swiss", players, results, rules, number), draw)
    if unfinished:
        results += pair_round("swiss", players, results, rules, rounds + 1).results(50)

    division = read_t(write_t(players, results))
    assert [(p.id, p.name, p.rating) for p in division.players] == [
        (p.id, p.name, p.rating) for p in players
    ]
    assert sorted(map(repr, division.results)) == sorted(map(repr, results))
    assert [
        row.rank for row in compute_standings(list(division.players), division.results, rules)
    ] == [row.rank for row in compute_standings(players, results, rules)]
