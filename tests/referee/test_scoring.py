"""Scoring, one worked example of RULES.md per test, plus the bonuses."""

from __future__ import annotations

import pytest

from referee.game import GameState
from referee.play import Play
from tests.positions import HASBRO, check, played


def test_hasbro_sequence_scores_each_turn_exactly():
    state = GameState.new("upwords-10", 2)
    scores = []
    for notation, _ in HASBRO:
        scores.append(state.play(Play.parse(notation, state.ruleset)).score)
    assert scores == [score for _, score in HASBRO] == [8, 8, 10, 5, 12, 14, 16]
    assert state.scores == [46, 27]


@pytest.mark.parametrize(
    ("turn", "words"),
    [
        (0, [("MOOD", 8)]),
        (1, [("DEAR", 8)]),
        (2, [("NET", 6), ("ON", 4)]),
        (3, [("WOOD", 5)]),
        (4, [("LEAP", 6), ("WOOL", 6)]),
        (5, [("SNACK", 7), ("LEAN", 7)]),
        (6, [("PLUS", 8), ("NETS", 8)]),
    ],
)
def test_hasbro_sequence_words_main_word_first(turn, words):
    state = played("upwords-10", 2, *(n for n, _ in HASBRO[:turn]))
    outcome = state.play(Play.parse(HASBRO[turn][0], state.ruleset))
    assert [(w.word, w.score) for w in outcome.words] == words


def test_stacked_word_counts_every_tile_in_every_stack():
    state = played("upwords-10", 2, *(n for n, _ in HASBRO[:5]))
    outcome = state.play(Play.parse("8F SNACK", state.ruleset))
    lean = outcome.words[1]
    assert lean.breakdown == "2+1+1+3 = 7"


def test_cater_flat_then_belated_over_it():
    state = GameState.new("upwords-10", 2)
    assert state.play(Play.parse("5E CATER", state.ruleset)).score == 10
    belated = state.play(Play.parse("5C BEL...D", state.ruleset))
    assert [(w.word, w.score) for w in belated.words] == [("BELATED", 9)]


def test_flat_word_with_the_qu_tile_scores_two_more():
    assert check("", "5E QuIT").score == 8


def test_qu_bonus_counts_for_a_flat_word_through_an_existing_qu():
    position = """
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . Qu I T . . .
    """
    # A new flat word down through the Qu tile already on the board: QU + A + Y.
    evaluation = check(position, "E6 AY")
    assert [(w.word, w.score) for w in evaluation.words] == [("QUAY", 3 * 2 + 2)]


def test_seven_tiles_earn_the_upwords_bonus():
    evaluation = check("", "5B RETAINS")
    assert evaluation.score == 7 * 2 + 20
    assert evaluation.bonus == 20


def test_house_then_exam_uses_premiums_only_once():
    state = GameState.new("letterup-classic", 2)
    house = state.play(Play.parse("8D HOUSE", state.ruleset))
    assert house.score == 24
    assert house.words[0].breakdown == "H 4×2 + O 1 + U 1 + S 1 + E 1 = 12, ×2 = 24"
    exam = state.play(Play.parse("H8 .XAM", state.ruleset))
    assert [(w.word, w.score) for w in exam.words] == [("EXAM", 14)]


def test_triple_word_square_triples_the_whole_word():
    state = played("letterup-classic", 2, "8D HOUSE")
    # A on the TW at A8, L and E plain, then HOUSE already down (its DL and DW are used).
    outcome = state.play(Play.parse("8A ALE.....", state.ruleset))
    word = outcome.words[0]
    assert word.word == "ALEHOUSE"
    assert word.score == (1 + 2 + 1 + 4 + 1 + 1 + 1 + 1) * 3 == 36


def test_seven_tiles_earn_the_letterup_bonus():
    evaluation = check("", "8H RETAINS", ruleset="letterup-classic")
    # R on the centre DW (H8), I on the DL at L8: (1+1+1+1+2+1+1) × 2 + 45.
    assert evaluation.score == 8 * 2 + 45 == 61
    assert evaluation.bonus == 45


def test_new_tile_on_triple_letter_square():
    # F6 is a TL square: (5, 5).
    state = played("letterup-classic", 2, "8D HOUSE")
    outcome = state.play(Play.parse("F6 JO.", state.ruleset))
    assert [(w.word, w.score) for w in outcome.words] == [("JOU", 8 * 3 + 1 + 1)]
