"""tsh's .t file: written as tsh writes it, and read back to the same event."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.events import (
    Absence,
    Bout,
    Bye,
    Competitor,
    Forfeit,
    Result,
    Rules,
    TFileError,
    compute_standings,
    pair_round,
    read_t,
    write_t,
)
from tests.referee.events.fields import field, played

PLAYERS = [
    Competitor(1, "Ann Archer", 1500),
    Competitor(2, "Ben Baker", 1620),
    Competitor(3, "Mary Ann Cole", 0),
]


def test_a_division_is_written_one_line_a_player_as_tsh_formats_it() -> None:
    results: list[Result] = [
        Bout(1, 1, 2, 412, 377),
        Bye(1, 3, 50),
        Bout(2, 3, 1, 390, 356),
        Bye(2, 2, 50),
        Bout(3, 2, 3),
        Absence(3, 1, 50),
    ]
    assert write_t(PLAYERS, results) == (
        "Archer, Ann             1500 2 3 0; 412 356 -50; lifeg 0; p12 1 2 0\n"
        "Baker, Ben              1620 1 0 3; 377 50; lifeg 0; p12 2 0 1\n"
        "Cole, Mary Ann             0 0 1 2; 50 390; lifeg 0; p12 0 1 2\n"
    )


def test_a_forfeit_is_written_as_tsh_does_and_reads_back_as_a_bye_and_an_absence() -> None:
    text = write_t(PLAYERS[:2], [Forfeit(1, 2, 1, 50)])
    assert text.splitlines() == [
        "Archer, Ann             1500 0; -50; lifeg 0; p12 0",
        "Baker, Ben              1620 0; 50; lifeg 0; p12 0",
    ]
    assert read_t(text).results == (Absence(1, 1, 50), Bye(1, 2, 50))


def test_a_file_without_seats_puts_the_earlier_line_first() -> None:
    division = read_t("Archer, Ann 1500 2; 400\nBaker, Ben 1620 1; 380\n")
    assert [(p.id, p.name, p.rating) for p in division.players] == [
        (1, "Ann Archer", 1500),
        (2, "Ben Baker", 1620),
    ]
    assert division.results == (Bout(1, 1, 2, 400, 380),)


def test_seats_are_read_from_p12_wherever_it_stands_among_the_fields() -> None:
    # tsh writes its fields alphabetically, so p12 often follows board and class.
    division = read_t(
        "Archer, Ann 1500 2 2; 400 390; board 3 1; class A; p12 2 1\n"
        "Baker, Ben 1620 1 1; 380 420; board 3 1; class B; p12 1 2\n"
    )
    assert division.results == (Bout(1, 2, 1, 380, 400), Bout(2, 1, 2, 390, 420))


def test_a_game_without_a_result_before_one_with_a_result_is_written_as_tsh_does() -> None:
    text = write_t(PLAYERS[:2], [Bout(1, 1, 2), Bout(2, 1, 2, 400, 300)])
    assert text.splitlines()[0] == "Archer, Ann             1500 2 2; 00 400; lifeg 0; p12 1 1"
    assert read_t(text).results == (Bout(1, 1, 2), Bout(2, 1, 2, 400, 300))


def test_a_name_the_file_cant_hold_is_refused() -> None:
    for name in ("Ann #1 Archer", "Ann; Archer"):
        with pytest.raises(TFileError) as refused:
            write_t([Competitor(1, name, 1500)], [])
        assert refused.value.code == "unwritable_name"
    with pytest.raises(TFileError) as refused:
        write_t([Competitor(1, "Ann Archer", 1500, t_name="Archer, Ann 2")], [])
    assert refused.value.code == "unwritable_name"


def test_no_line_starts_with_a_formula_character_and_the_name_comes_back() -> None:
    players = [
        Competitor(1, "=SUM Archer", 1500),
        Competitor(2, "-Dash", 1400),
        Competitor(3, "Al Home", 1300, t_name="@Home, Al"),
        Competitor(4, "Cy +Cole", 1200),
    ]
    text = write_t(players, [Bout(1, 1, 2, 400, 300), Bout(1, 3, 4, 350, 360)])
    assert all(not line.startswith(("=", "+", "-", "@")) for line in text.splitlines())
    assert text.splitlines()[1].startswith(" -Dash ")
    back = read_t(text).players
    assert [p.t_name for p in back] == ["Archer, =SUM", "-Dash", "@Home, Al", "+Cole, Cy"]
    assert [p.name for p in back] == ["=SUM Archer", "-Dash", "Al @Home", "Cy +Cole"]


def test_names_are_kept_exactly_as_the_file_writes_them() -> None:
    text = "Ten Den, Chris          1500 2; 400\nAlejandra Rodriguez 1620 1; 380\n"
    division = read_t(text)
    assert [p.t_name for p in division.players] == ["Ten Den, Chris", "Alejandra Rodriguez"]
    assert [p.name for p in division.players] == ["Chris Ten Den", "Alejandra Rodriguez"]
    written = write_t(division.players, division.results).splitlines()
    assert written[0].startswith("Ten Den, Chris ") and written[1].startswith("Alejandra Rod")


def test_each_bye_keeps_its_own_spread() -> None:
    results: list[Result] = [Bye(1, 1, 50), Absence(1, 2, 1), Bye(2, 2, 1), Absence(2, 1, 50)]
    back = read_t(write_t(PLAYERS[:2], results)).results
    assert sorted(map(repr, back)) == sorted(map(repr, results))


def test_a_late_entrys_missed_rounds_are_written_as_forfeit_losses() -> None:
    late = Competitor(3, "Mary Ann Cole", 0, joined_round=3)
    results: list[Result] = [Bout(1, 1, 2, 400, 300), Bout(2, 2, 1, 380, 370), Bout(3, 3, 1, 1, 0)]
    text = write_t([*PLAYERS[:2], late], results, absence_spread=40)
    assert (
        text.splitlines()[2] == "Cole, Mary Ann             0 0 0 1; -40 -40 1; lifeg 0; p12 0 0 1"
    )
    division = read_t(text)
    assert division.results[-2:] == (Absence(2, 3, 40), Bout(3, 3, 1, 1, 0))
    rules = Rules(rounds=3, forfeit_spread=40)
    before = [
        (r.rank, r.player.id, r.wins, r.spread)
        for r in compute_standings([*PLAYERS[:2], late], results, rules)
    ]
    after = [
        (r.rank, r.player.id, r.wins, r.spread)
        for r in compute_standings(list(division.players), division.results, rules)
    ]
    assert after == before


def test_off_lifeg_and_every_other_field_are_read_kept_and_written_back() -> None:
    text = (
        "Archer, Ann             1500 2; 400; board 1; class A; lifeg 312; newr 1512; p12 1\n"
        "Baker, Ben              1620 1; 380; board 1; class B; newr 1608; off -50; p12 2\n"
    )
    division = read_t(text)
    ann, ben = division.players
    assert (ann.career_games, ann.active, ben.career_games, ben.active) == (312, True, 100, False)
    assert dict(ann.t_fields)["newr"] == "1512" and dict(ben.t_fields)["class"] == "B"
    assert write_t(division.players, division.results) == text


def test_a_real_file_tsh_wrote_round_trips_byte_for_byte() -> None:
    # A real 26-player, 23-round file (its source is in its first lines): a withdrawn player
    # with "off -50" and p12 draws kept past their last game, lifeg, newr.
    text = Path(__file__).with_name("tsh_event_26x23.t").read_text()
    lines = "".join(line + "\n" for line in text.splitlines() if not line.startswith("#"))
    division = read_t(text)
    assert len(division.players) == 26 and max(r.round for r in division.results) == 23
    assert [p.name for p in division.players if not p.active] == ["Lydia Keras"]
    assert write_t(division.players, division.results) == lines


def test_an_excerpt_of_a_file_tsh_wrote_round_trips_byte_for_byte() -> None:
    # Lines as tsh's TFile::FormatLine writes them ("%-22s %5s %s; %s", then each extra field
    # "; tag words" in tag order), with the fields a NASPA event carries.
    text = (
        "Smith, Jo               1843 4 3 2; 432 401 388; board 2 1 1; lifeg 1503; "
        "newr 1856 1860 1851; p12 2 1 2; rcrank 2 1 2\n"
        "Nguyen, Thanh Ha        1790 3 4 1; 377 450 402; board 1 2 1; lifeg 880; "
        "newr 1781 1795 1801; p12 1 2 1; rcrank 3 2 1\n"
        "Ten Den, Chris             0 2 1 0; 390 366 50; board 1 1 0; "
        "newr 1702 1650 1650; p12 2 2 0; rcrank 4 4 3\n"
        "O'Neil-Brown, Mary Kate  2012 1 2 0; 401 402 -50; board 2 2 0; lifeg 2210; "
        "newr 2001 1995 1995; off -50; p12 1 1 0; rcrank 1 3 4\n"
    )
    division = read_t(text)
    assert write_t(division.players, division.results) == text


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Archer, Ann 1500 2; 400\nBaker, Ben 1620 0; 380\n", "one_sided"),
        ("Archer, Ann 1500 3; 400\nBaker, Ben 1620 1; 380\n", "bad_opponent"),
        ("Archer, Ann 1500 2; 400\nBaker, Ben 1620 1;\n", "half_a_result"),
        ("Archer, Ann 1500 2; 400 x\nBaker, Ben 1620 1; 380\n", "bad_line"),
        ("Archer, Ann 1500 2; 400 300\nBaker, Ben 1620 1; 380\n", "too_many_scores"),
        ("Archer, Ann fifteen hundred\n", "bad_line"),
    ],
)
def test_a_file_that_contradicts_itself_is_refused_with_a_sentence(text: str, code: str) -> None:
    with pytest.raises(TFileError) as refused:
        read_t(text)
    assert refused.value.code == code
    assert refused.value.message.endswith(".")


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
