"""Squares and plays parse from and print to the notation people use."""

from __future__ import annotations

import pytest

from referee.board import Board, parse_square, square_name
from referee.errors import IllegalPlay, InputError
from referee.play import Play
from referee.rulesets import LETTERUP_CLASSIC, UPWORDS_10
from tests.positions import HASBRO, played


def test_square_names_are_column_letter_then_row_number():
    assert square_name(4, 5) == "F5"
    assert parse_square("f5", 10) == (4, 5)
    assert parse_square("O15", 15) == (14, 14)


@pytest.mark.parametrize("bad", ["5F", "F", "K1", "A11", "A0", "", "F5!"])
def test_bad_or_off_board_squares_are_input_errors(bad):
    with pytest.raises(InputError):
        parse_square(bad, 10)


def test_across_play_is_row_then_column():
    play = Play.parse("5D MOOD", UPWORDS_10)
    assert play.squares == [(4, 3), (4, 4), (4, 5), (4, 6)]


def test_down_play_is_column_then_row_and_dots_pass_through():
    play = Play.parse("G5 L..P", UPWORDS_10)
    assert str(play) == "G5=L G8=P"


def test_a_play_only_writing_letters_on_themselves_breaks_the_stacking_rule():
    board = played("upwords-10", 2, "5D MOOD").board
    with pytest.raises(IllegalPlay) as error:
        Play.parse("5E O", UPWORDS_10, board)
    assert [(v.code, v.message) for v in error.value.violations] == [
        ("same_letter", "You can't stack O on O at E5.")
    ]
    assert (
        str(Play.parse("5E ON", UPWORDS_10, board)) == "F5=N"
    )  # its twin reads through, then stacks


def test_square_list_notation():
    assert Play.parse("D5=W, G8=p", UPWORDS_10) == Play.parse("D5=W G8=P", UPWORDS_10)


def test_qu_is_one_square_in_upwords_but_two_letters_in_letterup():
    assert len(Play.parse("5E QUIT", UPWORDS_10)) == 3
    assert len(Play.parse("8E QUIT", LETTERUP_CLASSIC)) == 4


@pytest.mark.parametrize("bad", ["", "MOOD", "Z9 MOOD", "5D", "D5=", "5D MO@D", "5D =W"])
def test_unreadable_plays_are_input_errors(bad):
    with pytest.raises(InputError):
        Play.parse(bad, UPWORDS_10)


def test_a_word_running_off_the_board_is_an_input_error():
    with pytest.raises(InputError) as error:
        Play.parse("5H MOOD", UPWORDS_10)
    assert error.value.code == "off_board"


@pytest.mark.parametrize("turn", range(len(HASBRO)))
def test_each_play_prints_back_to_its_notation(turn):
    state = played("upwords-10", 2, *(n for n, _ in HASBRO[:turn]))
    notation = HASBRO[turn][0]
    play = Play.parse(notation, state.ruleset)
    printed = play.notation(state.board, state.ruleset)
    assert Play.parse(printed, state.ruleset) == play
    expected = {"G6 EAR": "G5 .EAR", "5D W": "5D W..."}
    assert printed == expected.get(notation, notation)


def test_notation_prints_the_qu_tile_as_qu():
    board = Board(10)
    assert Play.parse("5E QUIT", UPWORDS_10).notation(board, UPWORDS_10) == "5E QuIT"


def test_plays_not_in_a_line_print_as_square_lists():
    play = Play.parse("A1=B C3=D", UPWORDS_10)
    assert play.notation(Board(10), UPWORDS_10) == "A1=B C3=D"
