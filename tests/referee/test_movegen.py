"""The move generator: the worked examples of RULES.md are found with their scores, and each
rule of play shows in what it finds (with the legal twin beside each play it must not find).
"""

from __future__ import annotations

from itertools import permutations

import pytest

from referee.board import Board
from referee.errors import InputError
from referee.game import GameState
from referee.lexicon import HonourSystem, WordSet
from referee.movegen import Budget, generate, raw_plays, search
from referee.play import Play
from referee.rules import evaluate
from referee.rulesets import LETTERUP_CLASSIC, UPWORDS_10, RuleOptions, get_ruleset
from tests.positions import HASBRO, board_from

_HASBRO_TEXT = """
MOOD DEAR NET ON WOOD WOOL LEAP SNACK LEAN PLUS NETS DO OD MO OM NO
EAR ERA ARE DEN TEN TON NOT MEN LEND PEA APE PLEA SAC CAN
"""
HASBRO_WORDS = WordSet("HASBRO", _HASBRO_TEXT.split())


def notations(moves):
    return [(m.notation, m.score) for m in moves]


def find(board, ruleset, words, rack, options=None):
    return generate(board, ruleset, options or RuleOptions(), words, rack)


def rack_of(play, ruleset):
    return "".join(ruleset.display(p.tile) for p in play)


# The worked sequences -----------------------------------------------------------------------------
def test_every_turn_of_the_hasbro_sequence_is_found_with_its_score():
    state = GameState.new("upwords-10", 2)
    for notation, score in HASBRO:
        play = Play.parse(notation, state.ruleset)
        moves = find(state.board, state.ruleset, HASBRO_WORDS, rack_of(play, state.ruleset))
        found = [m for m in moves if m.play == play]
        assert [m.score for m in found] == [score], notation
        state.play(play)


def test_snack_is_found_with_its_words_as_the_rules_give_them():
    state = GameState.new("upwords-10", 2)
    for notation, _ in HASBRO[:5]:
        state.play(Play.parse(notation, state.ruleset))
    moves = find(state.board, state.ruleset, HASBRO_WORDS, "SNACK")
    (snack,) = [m for m in moves if m.notation == "8F SNACK"]
    assert [(w.word, w.score, w.breakdown) for w in snack.words] == [
        ("SNACK", 7, "1+3+1+1+1 = 7"),
        ("LEAN", 7, "2+1+1+3 = 7"),
    ]


def test_belated_over_cater_is_found_stacking_l_and_d():
    words = WordSet("T", ["CATER", "BELATED"])
    board = board_from(". . . . . . . . . .\n" * 4 + ". . . . C A T E R .")
    moves = find(board, UPWORDS_10, words, "BELD")
    assert ("5C BEL...D", 9) in notations(moves)


def test_qu_tile_first_play_scores_eight():
    moves = find(Board(10), UPWORDS_10, WordSet("T", ["QUIT"]), "QuIT")
    assert ("5E QuIT", 8) in notations(moves)
    assert {m.score for m in moves} == {8}


def test_house_then_exam_in_letter_up():
    words = WordSet("T", ["HOUSE", "EXAM"])
    board = Board(15)
    (house,) = [
        m for m in find(board, LETTERUP_CLASSIC, words, "HOUSE") if m.notation == "8D HOUSE"
    ]
    assert house.score == 24
    for p in house.play:
        board.place(p.row, p.col, p.tile)
    moves = find(board, LETTERUP_CLASSIC, words, "XAM")
    assert notations(moves) == [("H8 .XAM", 14)]


# The rules, one by one ----------------------------------------------------------------------------
def test_first_play_must_cover_a_start_square():
    moves = find(Board(10), UPWORDS_10, WordSet("T", ["AT"]), "AT")
    squares = [set(m.play.squares) for m in moves]
    assert squares and all(s & UPWORDS_10.start_squares for s in squares)
    assert len(moves) == 12  # AT across or down, three ways over each pair of centre rows


def test_cannot_stack_a_letter_on_itself_but_can_on_another():
    board = board_from(". . . . . . . . . .\n" * 4 + ". . . . C A T . . .")
    moves = find(board, UPWORDS_10, WordSet("T", ["CAT", "COT"]), "OA")
    assert ("5E .O.", 4) in notations(moves)  # O on A: COT, 1+2+1
    assert not any(m.notation.startswith("5E .A.") for m in moves)


def test_stacks_stop_at_five_tiles():
    row = ". . . . A/B/A/B/A T . . . ."
    board = board_from(". . . . . . . . . .\n" * 4 + row)
    words = WordSet("T", ["AT", "IT"])
    assert "5E I." not in dict(notations(find(board, UPWORDS_10, words, "I")))
    lower = board_from(". . . . . . . . . .\n" * 4 + ". . . . B/A/B/A T . . . .")
    assert ("5E I.", 6) in notations(find(lower, UPWORDS_10, words, "I"))


def test_cannot_cover_a_whole_word_but_can_keep_one_letter():
    board = board_from(". . . . . . . . . .\n" * 4 + ". . . . A T . . . .")
    words = WordSet("T", ["AT", "IT", "IS"])
    moves = find(board, UPWORDS_10, words, "IS")
    assert ("5E I.", 3) in notations(moves)
    assert not any(m.play.squares == [(4, 4), (4, 5)] for m in moves)  # IS over all of AT


def test_cannot_simply_add_an_s_unless_it_makes_another_word():
    board = board_from(". . . . . . . . . .\n" * 4 + ". . . . C A T . . .")
    words = WordSet("T", ["CAT", "CATS"])
    assert find(board, UPWORDS_10, words, "S") == []
    assert notations(find(board, UPWORDS_10, words, "S", RuleOptions(plural_s_rule=False))) == [
        ("5E ...S", 8)
    ]
    # The legal twin: the S also makes AS down.
    twin = board_from(". . . . . . . . . .\n" * 3 + ". . . . . . . A . .\n" + ". . . . C A T . . .")
    words = WordSet("T", ["CAT", "CATS", "AS"])
    assert ("5E ...S", 12) in notations(find(twin, UPWORDS_10, words, "S"))  # CATS and AS


def test_qu_reads_as_two_letters_and_there_is_no_plain_q():
    assert find(Board(10), UPWORDS_10, WordSet("T", ["QI"]), "QuI") == []
    assert notations(find(Board(10), UPWORDS_10, WordSet("T", ["QUA"]), "QuA"))[:1] == [
        ("5D QuA", 6)
    ]


def test_a_rack_tile_the_set_has_run_out_of_is_refused_naming_it():
    # Upwords has one Z; it is on the board already, so a Z on the rack is a misentry: said,
    # not silently dropped (the search would answer for another rack).
    board = board_from(". . . . . . . . . .\n" * 4 + ". . . . Z A . . . .")
    words = WordSet("T", ["ZA", "ZAS", "ZAP", "AS"])
    with pytest.raises(InputError, match="The set has 1 Z; 1 on the board and 1 on the rack"):
        find(board, UPWORDS_10, words, "ZP")
    assert ("5E ..P", 6) in notations(find(board, UPWORDS_10, words, "P"))


def test_a_tile_the_rack_does_not_hold_is_never_held_against_it():
    # However many Zs the board shows (a stack may hide more than the set has in a made-up
    # position), a rack without a Z is searched.
    board = board_from(". . . . . . . . . .\n" * 4 + ". . . . Z A . . . .")
    board.place(4, 4, "Z")
    words = WordSet("T", ["ZA", "ZAP"])
    assert notations(find(board, UPWORDS_10, words, "P")) == [("5E ..P", 4)]


def test_a_budget_stops_the_search_and_says_so():
    words = WordSet("T", ["MOOD", "DOOM", "MO", "OM", "DO", "OD"])
    every = search(Board(10), UPWORDS_10, RuleOptions(), words, "DOOM")
    assert every.complete and every.count > 40
    cut = search(Board(10), UPWORDS_10, RuleOptions(), words, "DOOM", limit=3, budget=Budget(40))
    assert (cut.count, cut.complete, len(cut.moves)) == (40, False, 3)
    # A budget larger than the search changes nothing.
    whole = search(Board(10), UPWORDS_10, RuleOptions(), words, "DOOM", budget=Budget(10**6))
    assert whole == every


def test_a_time_budget_stops_the_search():
    words = WordSet("T", ["MOOD", "DOOM", "MO", "OM", "DO", "OD"])
    cut = search(Board(10), UPWORDS_10, RuleOptions(), words, "DOOM", budget=Budget(10**6, 0.0))
    assert not cut.complete and cut.count < 1024


def test_the_best_are_kept_while_the_rest_are_only_counted():
    # More plays than are kept between checks, so the pruning runs; the best three and the
    # count are what the unbounded search gives.
    # Every arrangement of two to five of A E T R S is a word here: thousands of plays.
    letters = "AETRS"
    words = WordSet("T", ["".join(p) for n in range(2, 6) for p in permutations(letters, n)])
    board = board_from(". . . . . . . . . .\n" * 4 + ". . . . . A T . . .")
    every = search(board, UPWORDS_10, RuleOptions(), words, "AETRSEA")
    assert every.count > 2 * 3 + 1024
    best = search(board, UPWORDS_10, RuleOptions(), words, "AETRSEA", limit=3)
    assert best.count == every.count and best.moves == every.moves[:3]


def test_seven_tiles_earn_the_bonus():
    moves = find(Board(10), UPWORDS_10, WordSet("T", ["RETAINS"]), "RETAINS")
    assert moves and {m.score for m in moves} == {7 * 2 + 20}


# What the generator promises ----------------------------------------------------------------------
def test_plays_come_best_first_then_by_notation():
    board = board_from(". . . . . . . . . .\n" * 4 + ". . . . C A T . . .")
    words = WordSet("T", ["CAT", "COT", "CUT", "AT", "TA", "TO", "OAT", "OCA"])
    moves = find(board, UPWORDS_10, words, "OUTA")
    keys = [(-m.score, m.notation) for m in moves]
    assert keys == sorted(keys) and len(moves) > 5


def test_each_play_once_even_a_single_tile_making_words_both_ways():
    board = board_from(
        ". . . . . . . . . .\n" * 3 + ". . . . . A . . . .\n" + ". . . . A . . . . ."
    )
    moves = find(board, UPWORDS_10, WordSet("T", ["AT", "TA"]), "T")
    plays = [m.play for m in moves]
    assert len(plays) == len(set(plays))
    assert ("5E .T", 8) in notations(moves)  # AT across and AT down, one play


def test_limit_keeps_the_best():
    board = board_from(". . . . . . . . . .\n" * 4 + ". . . . C A T . . .")
    words = WordSet("T", ["CAT", "COT", "CUT", "AT", "TA", "TO", "OAT", "OCA"])
    every = find(board, UPWORDS_10, words, "OUTA")
    assert generate(board, UPWORDS_10, RuleOptions(), words, "OUTA", limit=3) == every[:3]
    assert generate(board, UPWORDS_10, RuleOptions(), words, "OUTA", limit=0) == []


def test_every_play_found_passes_the_rules_with_the_same_score():
    state = GameState.new("upwords-10", 2)
    for notation, _ in HASBRO[:4]:
        state.play(Play.parse(notation, state.ruleset))
    raw = raw_plays(state.board, state.ruleset, state.options, HASBRO_WORDS, "LPSNACK")
    assert len(raw) >= 5
    for score, tiles in raw:
        play = Play.of(tiles, state.ruleset)
        assert (
            evaluate(state.board, play, state.ruleset, state.options, HASBRO_WORDS).score == score
        )


def test_no_word_list_no_plays():
    with pytest.raises(InputError, match="needs a word list"):
        generate(Board(10), UPWORDS_10, RuleOptions(), HonourSystem(), "AT")


def test_a_rack_holds_seven_tiles_at_most():
    with pytest.raises(InputError, match="at most 7"):
        generate(Board(10), UPWORDS_10, RuleOptions(), WordSet("T", ["AT"]), "ABCDEFGH")


def test_a_blank_on_a_rack_without_blanks_is_refused():
    with pytest.raises(InputError):
        generate(Board(15), get_ruleset("letterup-classic"), RuleOptions(), WordSet("T", []), "A?")


# Blanks (the crossword game) ----------------------------------------------------------------------
def test_a_blank_is_tried_as_every_letter_and_scores_nothing():
    crossword = get_ruleset("crossword-classic")
    moves = find(Board(15), crossword, WordSet("T", ["HOUSE"]), "HOUS?")
    # H on the double letter 8, O U S 1 each, the blank E 0, the centre doubles: 22.
    assert notations(moves)[0] == ("8D HOUSe", 22)
    assert all(m.play.placements[-1].tile == "e" for m in moves if m.notation.startswith("8"))
    assert len(moves) == 10  # five places across the centre, five down


def test_a_blank_can_stand_for_a_letter_the_rack_also_has():
    crossword = get_ruleset("crossword-classic")
    moves = find(Board(15), crossword, WordSet("T", ["AA"]), "A?")
    assert sorted(m.notation for m in moves) == [
        *("8G Aa", "8G aA", "8H Aa", "8H aA"),
        *("H7 Aa", "H7 aA", "H8 Aa", "H8 aA"),
    ]
    assert {m.score for m in moves} == {2}


def test_a_blank_on_the_board_reads_as_its_letter_and_counts_against_the_blanks():
    crossword = get_ruleset("crossword-classic")
    board = Board(15)
    for col, tile in zip(range(7, 10), "CaT", strict=True):
        board.place(7, col, tile)
    moves = find(board, crossword, WordSet("T", ["CAT", "CATS", "SCAT"]), "S")
    assert notations(moves) == [("8G S...", 5), ("8H ...S", 5)]  # C 3 + a 0 + T 1 + S 1
    assert ("8H ...s", 4) in notations(find(board, crossword, WordSet("T", ["CATS"]), "?"))
    board.place(0, 0, "z")  # both blanks are on the board now: a "?" on the rack is a misentry
    with pytest.raises(InputError, match="The set has 2 [?]; 2 on the board and 1 on the rack"):
        find(board, crossword, WordSet("T", ["CATS"]), "?")


def test_a_move_reads_as_json_for_the_api():
    (move,) = generate(
        Board(10), UPWORDS_10, RuleOptions(), WordSet("T", ["QUIT"]), "QuIT", limit=1
    )
    assert move.to_dict() == {
        "notation": "5C QuIT",
        "score": 8,
        "tiles": [[4, 2, "QU"], [4, 3, "I"], [4, 4, "T"]],
        "words": [
            {
                "word": "QUIT",
                "score": 8,
                "position": "5C",
                "direction": "across",
                "breakdown": "3 tiles × 2 + 2 for Qu = 8",
            }
        ],
        "bonus": 0,
    }
