"""Every legality rule of RULES.md §2–§3, each illegal case beside its legal twin."""

from __future__ import annotations

import pytest

from referee.errors import IllegalPlay, InputError
from referee.play import Play
from referee.rulesets import UPWORDS_10, RuleOptions
from tests.positions import check

MOOD = """
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . M O O D . . .
"""


def codes(picture: str, play: str, **kwargs) -> list[str]:
    with pytest.raises(IllegalPlay) as error:
        check(picture, play, **kwargs)
    return [v.code for v in error.value.violations]


# 2.1 One row or one column, one tile per square ----------------------------------------------
def test_new_tiles_must_lie_in_one_line():
    assert codes(MOOD, "D6=A E7=T") == ["not_in_line"]


def test_new_tiles_in_one_column_are_fine():
    assert check(MOOD, "D6=A D7=T").words[0].word == "MAT"


def test_only_one_new_tile_per_square():
    assert "one_tile_per_square" in codes(MOOD, "D6=A D6=E")


def test_one_tile_on_each_of_two_squares_is_fine():
    assert check(MOOD, "D6=A D7=E").words[0].word == "MAE"


# 2.2 No gaps ----------------------------------------------------------------------------------
def test_no_empty_square_between_new_tiles():
    error = pytest.raises(IllegalPlay, check, MOOD, "D6=A D8=T")
    assert [v.code for v in error.value.violations] == ["gap"]
    assert error.value.violations[0].squares == ("D7",)


def test_existing_tiles_may_fill_the_line_between_new_tiles():
    # C5 and H5 around MOOD: one unbroken line.
    assert check(MOOD, "5C S....Y").words[0].word == "SMOODY"


# 2.3 The first play ---------------------------------------------------------------------------
def test_first_play_must_cover_a_start_square():
    assert codes("", "1A CAT") == ["first_play_off_start"]


def test_first_play_over_a_centre_square_is_fine():
    assert check("", "6E CAT").score == 6  # F6 is a start square


def test_letterup_first_play_must_cover_the_centre():
    assert codes("", "7F CAT", ruleset="letterup-classic") == ["first_play_off_start"]
    assert check("", "8F CAT", ruleset="letterup-classic").score == (3 + 1 + 1) * 2


def test_first_play_must_form_a_word_of_two_letters():
    assert codes("", "E5=A") == ["first_play_too_short"]


def test_first_play_of_two_letters_is_fine():
    assert check("", "5E AT").words[0].word == "AT"


# 2.4 Connection -------------------------------------------------------------------------------
def test_later_play_must_touch_the_board():
    assert codes(MOOD, "1A CAT") == ["not_connected"]


def test_later_play_touching_the_board_is_fine():
    assert check(MOOD, "4D AT").words[0].word == "AT"


def test_stacking_on_a_tile_connects():
    assert check(MOOD, "5D F").words[0].word == "FOOD"


# 2.5 Words and the dictionary -----------------------------------------------------------------
def test_every_word_formed_must_be_in_the_lexicon():
    with pytest.raises(IllegalPlay) as error:
        check(MOOD, "4C ZAX", words=["MOOD", "ZAX"])
    assert error.value.invalid_words == ["AM", "XO"]
    assert error.value.violations[0].message == "AM is not in TEST."


def test_words_in_the_lexicon_are_fine():
    evaluation = check(MOOD, "4C ZAX", words=["MOOD", "ZAX", "AM", "XO"])
    assert [w.word for w in evaluation.words] == ["ZAX", "AM", "XO"]


def test_words_are_read_from_the_top_tiles():
    assert check(MOOD, "5D F", words=["FOOD"]).words[0].word == "FOOD"
    with pytest.raises(IllegalPlay):
        check(MOOD, "5D F", words=["MOOD"])


def test_a_play_must_form_some_word():
    lone = """
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . A . . . . .
    . . . . . . . . . .
    . . . . M O O D . .
    """
    assert codes(lone, "E3=B") == ["no_word"]
    assert check(lone, "E5=H").words[0].word == "HOOD"


# 2.6 The tile set's limits --------------------------------------------------------------------
def test_a_second_z_is_an_input_error():
    with_z = MOOD.replace("M O O D", "Z O O M")
    with pytest.raises(InputError) as error:
        check(with_z, "D6=Z")
    assert error.value.code == "too_many_copies"


def test_covered_tiles_count_against_the_set():
    # The only J sits under an O: no second J may be entered.
    position = MOOD.replace("M O O D", "M J/O O D")
    with pytest.raises(InputError):
        check(position, "E6=J")
    assert check(position, "E6=X").words[0].word == "OX"


def test_a_square_off_the_board_is_an_input_error():
    with pytest.raises(InputError) as error:
        Play.of([(10, 0, "A")], UPWORDS_10)
    assert error.value.code == "off_board"
    with pytest.raises(InputError):
        Play.of([(0, -1, "A")], UPWORDS_10)


def test_a_tile_the_set_lacks_is_an_input_error():
    with pytest.raises(InputError) as error:
        Play.of([(4, 4, "Q")], UPWORDS_10)
    assert error.value.code == "unknown_tile"
    with pytest.raises(InputError):
        Play.of([(4, 4, "é")], UPWORDS_10)


# 3. Stacking ----------------------------------------------------------------------------------
def test_cannot_stack_a_letter_on_itself():
    with pytest.raises(IllegalPlay) as error:
        check(MOOD, "E5=O")
    assert error.value.code == "same_letter"
    assert error.value.message == "You can't stack O on O at E5."


def test_can_stack_a_different_letter():
    evaluation = check(MOOD, "E5=A")
    assert (evaluation.words[0].word, evaluation.words[0].breakdown) == ("MAOD", "1+2+1+1 = 5")


def test_qu_on_qu_is_refused_as_the_set_has_one_qu():
    position = MOOD.replace("M O O D", "Qu I T .")
    with pytest.raises(InputError) as error:
        check(position, "D5=Qu")
    assert error.value.code == "too_many_copies"


def test_no_stack_higher_than_five():
    tall = MOOD.replace("M O O D", "M A/B/C/D/E O D")
    assert codes(tall, "E5=F") == ["stack_too_high"]


def test_a_fifth_tile_is_fine():
    four = MOOD.replace("M O O D", "M A/B/C/D O D")
    assert check(four, "E5=F").words[0].breakdown == "1+5+1+1 = 8"


def test_cannot_cover_every_letter_of_a_word():
    cat = MOOD.replace(". . . M O O D", ". . . . C A T")
    error = pytest.raises(IllegalPlay, check, cat, "5E BOG")
    assert [v.code for v in error.value.violations] == ["covers_whole_word"]
    assert error.value.violations[0].words == ("CAT",)


def test_covering_all_but_one_letter_is_fine():
    cat = MOOD.replace(". . . M O O D", ". . . . C A T")
    assert check(cat, "5E BO.").words[0].word == "BOT"


def test_cannot_simply_add_an_s():
    assert codes(MOOD, "H5=S") == ["plural_s"]


def test_an_s_that_also_makes_another_word_is_fine():
    position = MOOD + ". . . . . . . A . .\n"
    # S at H5 makes MOODS across and SA down.
    assert [w.word for w in check(position, "H5=S").words] == ["MOODS", "SA"]


def test_adding_an_s_is_fine_when_the_plural_rule_is_off():
    options = RuleOptions(plural_s_rule=False)
    assert check(MOOD, "H5=S", options=options).words[0].word == "MOODS"


def test_an_s_in_front_of_a_word_is_not_a_plural():
    assert check(MOOD, "C5=S").words[0].word == "SMOOD"


def test_letterup_tiles_cannot_be_stacked():
    position = "\n".join([". " * 15] * 7 + [". . . H O U S E . . . . . . ."])
    error = pytest.raises(IllegalPlay, check, position, "D8=M", ruleset="letterup-classic")
    assert error.value.code == "square_occupied"
    assert check(position, "D9=A", ruleset="letterup-classic").words[0].word == "HA"


def test_every_broken_rule_of_a_layer_is_reported():
    tall = MOOD.replace("M O O D", "M A/B/C/D/O O D")
    # O on O, on a full stack, in one play: both are named.
    assert codes(tall, "E5=O") == ["same_letter", "stack_too_high"]


def test_violations_carry_the_rule_and_squares():
    with pytest.raises(IllegalPlay) as error:
        check(MOOD, "E5=O")
    violation = error.value.violations[0]
    assert violation.rule == "3"
    assert violation.squares == ("E5",)
    assert error.value.to_dict()["code"] == "same_letter"
