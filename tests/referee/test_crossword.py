"""The classic crossword game: its tiles, blanks, bingo, exchanges, challenges and the end.

A blank is the lowercase letter it stands for on the board and in notation (``8D hOUSE``),
and ``?`` on a rack. Every score below is worked out by hand from RULES.md §4's layout.
"""

from __future__ import annotations

import pytest

from referee.board import Board
from referee.errors import IllegalAction, IllegalPlay, InputError
from referee.game import GameState
from referee.lexicon import HonourSystem, WordSet
from referee.play import Play
from referee.rulesets import (
    BLANK,
    CHALLENGE_RULES,
    CROSSWORD_CLASSIC,
    LETTERUP_CLASSIC,
    RuleOptions,
)
from tests.positions import board_from, check

CW = "crossword-classic"
NOTHING = WordSet("NOTHING", [])  # every challenge against it is upheld


def game(players: int = 2, **options: object) -> GameState:
    return GameState.new(CW, players, RuleOptions.from_dict(options, CROSSWORD_CLASSIC))


def play(state: GameState, notation: str, lexicon=None):
    return state.play(Play.parse(notation, state.ruleset, state.board), lexicon)


def scores(evaluation) -> list[tuple[str, int]]:
    return [(w.word, w.score) for w in evaluation.words]


# The tile set -----------------------------------------------------------------------------------
CROSSWORD_TABLE = """
A 9 1, B 2 3, C 2 3, D 4 2, E 12 1, F 2 4, G 3 2, H 2 4, I 9 1, J 1 8, K 1 5, L 4 1, M 2 3,
N 6 1, O 8 1, P 2 3, Q 1 10, R 6 1, S 4 1, T 6 1, U 4 1, V 2 4, W 2 4, X 1 8, Y 2 4, Z 1 10,
? 2 0
"""
TABLE = [
    (entry.split()[0], *map(int, entry.split()[1:]))
    for entry in CROSSWORD_TABLE.replace("\n", " ").split(",")
]


@pytest.mark.parametrize(("tile", "count", "points"), TABLE)
def test_crossword_counts_and_values(tile, count, points):
    assert CROSSWORD_CLASSIC.tiles[tile] == count
    assert CROSSWORD_CLASSIC.values[tile] == points


def test_crossword_set_has_100_tiles_two_of_them_blanks():
    assert set(CROSSWORD_CLASSIC.tiles) == {tile for tile, _, _ in TABLE}
    assert CROSSWORD_CLASSIC.total_tiles == 100
    assert CROSSWORD_CLASSIC.tiles[BLANK] == 2 and CROSSWORD_CLASSIC.has_blanks
    assert not LETTERUP_CLASSIC.has_blanks


def test_crossword_board_is_the_letterup_layout_with_the_centre_start():
    assert CROSSWORD_CLASSIC.layout == LETTERUP_CLASSIC.layout
    assert CROSSWORD_CLASSIC.start_squares == {(7, 7)}
    assert (CROSSWORD_CLASSIC.size, CROSSWORD_CLASSIC.rack_size) == (15, 7)
    assert (CROSSWORD_CLASSIC.bingo_bonus, CROSSWORD_CLASSIC.gcg) == (50, True)
    assert not CROSSWORD_CLASSIC.plural_s and not CROSSWORD_CLASSIC.stacks


# Blanks as tiles --------------------------------------------------------------------------------
def test_a_lowercase_letter_is_a_blank_on_the_board_and_shows_lowercase():
    assert CROSSWORD_CLASSIC.tile("e") == "e"
    assert CROSSWORD_CLASSIC.tile("E") == "E"
    assert CROSSWORD_CLASSIC.display("e") == "e"
    assert CROSSWORD_CLASSIC.tile_value("e") == CROSSWORD_CLASSIC.tile_value(BLANK) == 0


def test_a_blank_on_the_board_must_say_its_letter():
    with pytest.raises(InputError) as error:
        Play.parse("8D ?OUSE", CROSSWORD_CLASSIC)
    assert error.value.code == "blank_letter"
    assert len(Play.parse("8D hOUSE", CROSSWORD_CLASSIC)) == 5


def test_without_blanks_case_does_not_matter():
    assert Play.parse("8D house", LETTERUP_CLASSIC) == Play.parse("8D HOUSE", LETTERUP_CLASSIC)
    assert Play.parse("8D house", CROSSWORD_CLASSIC) != Play.parse("8D HOUSE", CROSSWORD_CLASSIC)


def test_a_rack_writes_the_blank_as_a_question_mark():
    assert CROSSWORD_CLASSIC.read_tiles("q z?") == ["Q", "Z", BLANK]
    with pytest.raises(InputError):
        LETTERUP_CLASSIC.read_tiles("QZ?")


TWO_BLANKS = ". . . . . . . h a T"  # HAT along row 1 from H1, its H and A blanks


def test_a_third_blank_is_an_input_error():
    assert board_from(TWO_BLANKS, CW).count(BLANK) == 2
    with pytest.raises(InputError, match="only 2 blanks") as error:
        check(TWO_BLANKS, "H1 .s", ruleset=CW)
    assert error.value.code == "too_many_copies"


def test_a_real_letter_beside_two_blanks_is_fine():
    assert check(TWO_BLANKS, "H1 .S", ruleset=CW).words[0].word == "HS"


def test_a_second_blank_is_fine():
    assert check(". . . . . . . h A T", "H1 .s", ruleset=CW).words[0].word == "HS"


def test_the_tile_tracker_counts_blanks_as_question_marks():
    state = game()
    play(state, "8D hOUSE")
    unseen = state.unseen()
    assert (unseen[BLANK], unseen["H"], unseen["O"]) == (1, 2, 7)
    assert "h" not in unseen and sum(unseen.values()) == 95
    assert state.board.tile_counts()[BLANK] == 1
    assert state.tiles_accounted() == 100


# Scoring with blanks ----------------------------------------------------------------------------
def test_real_house_from_d8_scores_24():
    # H on the DL at D8, the centre DW at H8: (4×2 + 1+1+1+1) × 2.
    assert check("", "8D HOUSE", ruleset=CW).score == 24


def test_a_blank_on_a_double_letter_square_scores_nothing():
    evaluation = check("", "8D hOUSE", ruleset=CW)
    assert scores(evaluation) == [("HOUSE", (0 * 2 + 1 + 1 + 1 + 1) * 2)] == [("HOUSE", 8)]
    assert evaluation.words[0].breakdown == "h 0×2 + O 1 + U 1 + S 1 + E 1 = 4, ×2 = 8"


def test_a_blank_on_a_double_word_square_still_doubles_the_word():
    evaluation = check("", "8D HOUSe", ruleset=CW)  # the blank e on the centre DW
    assert scores(evaluation) == [("HOUSE", (4 * 2 + 1 + 1 + 1 + 0) * 2)] == [("HOUSE", 22)]


def test_a_blank_on_a_triple_word_square_still_triples_the_word():
    state = game()
    play(state, "8D HOUSE")
    # The blank a on the TW at A8, L and E plain, HOUSE already down: (0+1+1 + 4+1+1+1+1) × 3.
    outcome = play(state, "8A aLE.....")
    assert scores(outcome) == [("ALEHOUSE", 30)]


def test_a_blank_on_a_triple_letter_square_scores_nothing():
    state = game()
    play(state, "8D HOUSE")
    outcome = play(state, "F6 jO.")  # F6 is a TL: a real J would make 8×3 + 1 + 1 = 26
    assert scores(outcome) == [("JOU", 0 + 1 + 1)]


def test_a_blank_counts_nothing_in_each_word_it_is_part_of():
    state = game()
    play(state, "8D HOUSE")
    # a at E9 under O, X at F9 under U, both plain squares.
    outcome = play(state, "9E aX")
    assert scores(outcome) == [("AX", 0 + 8), ("OA", 1 + 0), ("UX", 1 + 8)]
    assert outcome.score == 18


def test_a_play_with_a_blank_is_checked_as_the_word_it_spells():
    assert check("", "8D hOUSE", ruleset=CW, words=["HOUSE"]).score == 8
    with pytest.raises(IllegalPlay) as error:
        check("", "8D hOUSE", ruleset=CW, words=["MOUSE"])
    assert error.value.invalid_words == ["HOUSE"]


def test_seven_tiles_earn_fifty():
    # R on the centre DW at H8, I on the DL at L8: (1+1+1+1+1×2+1+1) × 2 + 50.
    evaluation = check("", "8H RETAINS", ruleset=CW)
    assert (evaluation.score, evaluation.bonus) == (16 + 50, 50)


def test_seven_tiles_with_a_blank_on_the_double_letter_earn_fifty_too():
    evaluation = check("", "8H RETAiNS", ruleset=CW)
    assert evaluation.score == (1 + 1 + 1 + 1 + 0 + 1 + 1) * 2 + 50 == 62


# Notation with blanks ---------------------------------------------------------------------------
@pytest.mark.parametrize("notation", ["8D hOUSE", "8D HOUSe", "8H RETAiNS", "H8 ab"])
def test_blank_plays_print_back_to_their_notation(notation):
    board = Board(15)
    play_ = Play.parse(notation, CROSSWORD_CLASSIC)
    assert play_.notation(board, CROSSWORD_CLASSIC) == notation
    assert Play.parse(play_.notation(board, CROSSWORD_CLASSIC), CROSSWORD_CLASSIC) == play_


def test_square_list_notation_writes_blanks_lowercase():
    play_ = Play.parse("D8=h E8=O", CROSSWORD_CLASSIC)
    assert str(play_) == "D8=h E8=O"
    assert Play.parse(str(play_), CROSSWORD_CLASSIC) == play_


@pytest.mark.parametrize("written", ["D8 .AT", "D8 hAT", "D8 HAT"])
def test_a_letter_over_a_blank_is_played_through_whatever_its_case(written):
    state = game()
    play(state, "8D hOUSE")
    parsed = Play.parse(written, state.ruleset, state.board)
    assert str(parsed) == "D9=A D10=T"
    assert parsed.notation(state.board, state.ruleset) == "D8 .AT"
    assert state.evaluate(parsed).words[0].word == "HAT"


def test_a_different_letter_on_an_occupied_square_is_refused():
    state = game()
    play(state, "8D HOUSE")
    with pytest.raises(InputError, match="D8 already holds H, not C") as error:
        Play.parse("D8 CAT", state.ruleset, state.board)
    assert error.value.code == "letter_not_on_board"


def test_a_different_letter_on_an_occupied_square_is_stacked_in_upwords():
    state = GameState.new("upwords-10", 2)
    play(state, "5D MOOD")
    assert str(Play.parse("D5 WAS", state.ruleset, state.board)) == "D5=W D6=A D7=S"


def test_blanks_round_trip_through_the_state_record():
    state = game()
    play(state, "8D hOUSE")
    play(state, "D8 .At")
    record = state.to_dict()
    assert record["board"][7][3] == ["h"] and record["board"][9][3] == ["t"]
    copy = GameState.from_dict(record)
    assert copy.to_dict() == record
    assert copy.unseen() == state.unseen() and copy.unseen()[BLANK] == 0
    assert [w.word for w in copy.last_play.words] == ["HAT"]
    copy.challenge(NOTHING)  # the restored last play comes off exactly
    assert copy.board.top(9, 3) is None and copy.board.top(7, 3) == "h"
    assert copy.unseen()[BLANK] == 1


# Exchanges --------------------------------------------------------------------------------------
def test_exchanges_need_seven_tiles_in_the_bag():
    state = game()
    state.bag = 6
    with pytest.raises(IllegalAction, match="at least 7 tiles, and it holds 6") as error:
        state.exchange(1)
    assert error.value.code == "bag_too_small"
    assert state.to_move == 0


def test_any_number_of_tiles_can_be_exchanged_from_a_bag_of_seven():
    state = game()
    state.bag = 7
    assert state.exchange(7).count == 7 and state.to_move == 1
    assert state.exchange(1).count == 1


# Options ----------------------------------------------------------------------------------------
def test_crossword_defaults_are_the_rules_printed_with_the_game():
    options = RuleOptions.defaults(CROSSWORD_CLASSIC)
    assert options.upheld_challenge == "lose_turn"
    assert options.rejected_challenge == "lose_turn"
    assert options.out_bonus == "sum_of_others"
    assert GameState.new(CW, 2).options == options


def test_options_given_for_a_ruleset_start_from_its_defaults():
    options = RuleOptions.from_dict({"rejected_challenge": "bonus_5"}, CROSSWORD_CLASSIC)
    assert (options.upheld_challenge, options.rejected_challenge) == ("lose_turn", "bonus_5")
    # Without a ruleset, RULES.md's defaults as before.
    assert RuleOptions.from_dict({"rejected_challenge": "bonus_5"}).upheld_challenge == "retry"


def test_upwords_and_letterup_keep_the_rules_md_defaults():
    for ruleset in ("upwords-10", "upwords-8", "letterup-classic", "letterup-rush"):
        assert GameState.new(ruleset, 2).options == RuleOptions()


def test_which_options_concern_which_ruleset():
    assert RuleOptions.applies_to(CROSSWORD_CLASSIC) == (
        "upheld_challenge", "rejected_challenge", "solo_exchanges", "out_bonus",
    )  # fmt: skip
    assert "plural_s_rule" in RuleOptions.applies_to(GameState.new("upwords-10", 2).ruleset)
    assert "out_bonus" not in RuleOptions.applies_to(LETTERUP_CLASSIC)


def test_an_option_that_does_not_concern_the_ruleset_is_kept_but_changes_nothing():
    options = RuleOptions.from_dict({"plural_s_rule": False}, CROSSWORD_CLASSIC)
    assert options.plural_s_rule is False
    assert RuleOptions.from_dict(options.to_dict(), CROSSWORD_CLASSIC) == options
    with pytest.raises(InputError):  # a bad value is still refused
        RuleOptions.from_dict({"plural_s_rule": "no"}, CROSSWORD_CLASSIC)
    with pytest.raises(InputError):
        RuleOptions.from_dict({"out_bonus": "thrice"}, LETTERUP_CLASSIC)


def test_every_option_has_a_label_and_its_choices():
    names = set(RuleOptions().to_dict())
    assert set(RuleOptions.CHOICES) == set(RuleOptions.LABELS) == names
    for ruleset in ("upwords-10", "letterup-classic", "crossword-classic"):
        options = GameState.new(ruleset, 2).options.to_dict()
        for name, value in options.items():
            assert value in [v for v, _ in RuleOptions.CHOICES[name]]


def test_each_crossword_challenge_rule_names_a_valid_option():
    assert list(CHALLENGE_RULES) == ["void", "single", "double", "five_point", "ten_point"]
    for _label, checked, rejected in CHALLENGE_RULES.values():
        options = RuleOptions.from_dict({"rejected_challenge": rejected}, CROSSWORD_CLASSIC)
        assert options.rejected_challenge == rejected and isinstance(checked, bool)


# Challenges -------------------------------------------------------------------------------------
def test_an_upheld_challenge_withdraws_the_play_and_the_player_loses_the_turn():
    state = game()
    play(state, "8D hOUSX")
    outcome = state.challenge(NOTHING)
    assert outcome.result == "upheld" and outcome.lost_turn
    assert state.board.is_empty and state.scores == [0, 0]
    assert state.to_move == 1 and state.unseen()[BLANK] == 2


@pytest.mark.parametrize(("rule", "points"), [("bonus_5", 5), ("bonus_10", 10)])
def test_a_failed_point_challenge_gives_the_challenged_player_points(rule, points):
    state = game(rejected_challenge=rule)
    play(state, "8D HOUSE")
    outcome = state.challenge(HonourSystem())
    assert (outcome.result, outcome.score, outcome.bonus) == ("rejected", 0, points)
    assert state.scores == [24 + points, 0]
    assert state.to_move == 1 and not outcome.lost_turn  # the challenger still plays


def test_a_failed_minus_five_challenge_still_costs_the_challenger():
    state = game(rejected_challenge="minus_5")
    play(state, "8D HOUSE")
    outcome = state.challenge(HonourSystem())
    assert (outcome.score, outcome.bonus, state.scores) == (-5, 0, [24, -5])


def test_a_failed_double_challenge_loses_the_challengers_turn():
    state = game()
    play(state, "8D HOUSE")
    outcome = state.challenge(HonourSystem())
    assert outcome.lost_turn and state.to_move == 0


def test_a_failed_single_challenge_costs_nothing():
    state = game(rejected_challenge="none")
    play(state, "8D HOUSE")
    outcome = state.challenge(HonourSystem())
    assert not outcome.lost_turn and state.to_move == 1 and state.scores == [24, 0]


# The end of the game ----------------------------------------------------------------------------
def went_out(players: int, racks: list[int], **options: object) -> GameState:
    """Seat 0 plays HOUSE (24) from its last five tiles with the bag empty."""
    state = game(players, **options)
    state.bag, state.racks = 0, racks
    outcome = play(state, "8D HOUSE")
    assert outcome.ended and state.status == "awaiting_racks"
    return state


def test_going_out_adds_the_others_racks_and_each_loses_their_own():
    state = went_out(2, [5, 3])
    state.finish({1: "Q?Z"})  # 10 + 0 + 10
    assert state.adjustments == [20, -20]
    assert state.final_scores == [24 + 20, -20]


def test_going_out_with_three_players_adds_every_other_rack():
    state = went_out(3, [5, 2, 3])
    state.finish({1: "QI", 2: "AB?"})  # 11 and 4
    assert state.adjustments == [15, -11, -4]


def test_going_out_under_the_tournament_rule_adds_twice_the_opponents_rack():
    state = went_out(2, [5, 3], out_bonus="twice_opponents")
    state.finish({1: "Q?Z"})
    assert state.adjustments == [40, 0]
    assert state.final_scores == [64, 0]


def test_the_tournament_rule_is_for_two_players():
    with pytest.raises(InputError) as error:
        game(3, out_bonus="twice_opponents")
    assert error.value.code == "bad_option"
    assert game(2, out_bonus="twice_opponents").players == 2


def test_the_racks_must_be_given_to_finish():
    state = went_out(2, [5, 3])
    with pytest.raises(InputError) as error:
        state.finish()
    assert error.value.code == "racks_required"


def test_racks_cannot_hold_a_third_blank():
    state = game()
    state.bag, state.racks = 0, [5, 3]
    play(state, "8D hOUSE")
    with pytest.raises(InputError) as error:
        state.finish({1: "A??"})
    assert error.value.code == "rack_letters_unavailable"
    state.finish({1: "AB?"})  # the other blank: 1 + 3 + 0
    assert state.adjustments == [4, -4]


def test_six_scoreless_turns_end_the_game():
    state = game()
    state.pass_turn()
    state.exchange(3)
    state.pass_turn()
    state.exchange(7)
    state.pass_turn()
    assert state.status == "in_progress" and state.passes == 5
    outcome = state.pass_turn()
    assert outcome.ended and state.status == "awaiting_racks"
    state.finish({0: "QZ?AEIO", 1: "EEEEEEE"})
    # No one went out: each loses their own rack, and no one gains it.
    assert state.adjustments == [-(10 + 10 + 0 + 1 + 1 + 1 + 1), -7]


def test_a_scoring_play_starts_the_count_again():
    state = game()
    for _ in range(5):
        state.pass_turn()
    play(state, "8D HOUSE")
    for _ in range(5):
        state.pass_turn()
    assert state.status == "in_progress"


def test_an_exchange_ends_the_game_as_the_sixth_scoreless_turn():
    state = game()
    for _ in range(5):
        state.pass_turn()
    assert state.exchange(2).ended and state.status == "awaiting_racks"


def test_withdrawn_plays_count_as_scoreless_turns():
    state = game()
    for _ in range(5):
        state.pass_turn()
    play(state, "8D HOUSX")  # the sixth turn, until the challenge takes it back...
    outcome = state.challenge(NOTHING)
    assert outcome.ended and state.status == "awaiting_racks"


def test_a_turn_lost_to_a_failed_challenge_counts_as_scoreless():
    state = game()
    for _ in range(4):
        state.pass_turn()
    play(state, "8D HoUSE")  # seat 0 scores: the count starts again
    assert state.passes == 0
    state.challenge(HonourSystem())  # seat 1 loses the turn: 1
    for _ in range(4):
        state.pass_turn()
    assert state.passes == 5 and state.status == "in_progress"
    state.pass_turn()
    assert state.status == "awaiting_racks"


def test_a_play_scoring_nothing_is_a_scoreless_turn():
    state = game()
    for _ in range(5):
        state.pass_turn()
    outcome = play(state, "8G ab")  # two blanks on G8 and the centre: (0 + 0) × 2
    assert outcome.score == 0 and outcome.ended


def test_with_three_players_it_takes_three_scoreless_turns_each():
    state = game(3)
    for _ in range(8):
        state.pass_turn()
    assert state.status == "in_progress"
    state.pass_turn()
    assert state.status == "awaiting_racks"


def test_the_blank_wins_the_draw_for_first():
    import random

    from referee.game import draw_for_first

    for seed in range(200):
        first, rounds = draw_for_first(CROSSWORD_CLASSIC, 2, random.Random(seed))
        if BLANK in rounds[-1]:
            assert rounds[-1][first] == BLANK
            return
    pytest.fail("no draw had a blank in 200 games")


def test_a_turn_lost_to_a_failed_challenge_can_be_the_sixth():
    state = game()
    for _ in range(4):
        state.pass_turn()
    play(state, "8G ab")  # scores 0: the fifth scoreless turn
    outcome = state.challenge(HonourSystem())  # seat 1 loses its turn: the sixth
    assert outcome.result == "rejected" and outcome.ended
    assert state.status == "awaiting_racks"
