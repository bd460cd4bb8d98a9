"""Tile accounting, passes, exchanges, challenges and the end of the game (RULES.md §5–§6)."""

from __future__ import annotations

import pytest

from referee.errors import GameOver, IllegalAction, InputError
from referee.game import GameState
from referee.lexicon import HonourSystem, WordSet
from referee.play import Play
from referee.rulesets import RuleOptions
from tests.positions import HASBRO, played

HASBRO_WORDS = WordSet(
    "HASBRO", ["MOOD", "DEAR", "NET", "ON", "WOOD", "WOOL", "LEAP", "SNACK", "LEAN", "PLUS", "NETS"]
)


def play(state: GameState, notation: str, lexicon=None):
    return state.play(Play.parse(notation, state.ruleset, state.board), lexicon)


# Tile accounting ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "players", "bag"),
    [
        ("upwords-10", 2, 86),
        ("upwords-8", 4, 36),
        ("letterup-classic", 3, 81),
        ("letterup-rush", 1, 47),
    ],
)
def test_every_player_starts_with_a_full_rack(ruleset, players, bag):
    state = GameState.new(ruleset, players)
    assert state.racks == [7] * players
    assert state.bag == bag
    assert state.tiles_accounted() == state.ruleset.total_tiles


def test_the_mover_draws_back_up_to_seven():
    state = played("upwords-10", 2, "5D MOOD")
    assert state.racks == [7, 7]
    assert state.bag == 86 - 4
    assert state.board.tile_count == 4


def test_draws_stop_when_the_bag_runs_out():
    state = GameState.new("upwords-10", 2)
    state.bag = 2
    play(state, "5D MOOD")
    assert state.bag == 0
    assert state.racks == [5, 7]


def test_cannot_play_more_tiles_than_the_rack_holds():
    state = GameState.new("upwords-10", 2)
    state.bag, state.racks = 0, [3, 7]
    with pytest.raises(InputError) as error:
        play(state, "5D MOOD")
    assert error.value.code == "not_enough_tiles"
    assert state.board.is_empty


def test_the_tile_tracker_counts_tiles_off_the_board():
    state = played("upwords-10", 2, "5D MOOD", "5D W")
    unseen = state.unseen()
    assert unseen["O"] == 7 - 2
    assert unseen["M"] == 5 - 1  # covered tiles are on the board too
    assert unseen["W"] == 2 - 1
    assert sum(unseen.values()) == 100 - 5


# Passes and exchanges -------------------------------------------------------------------------
def test_a_pass_scores_nothing_and_moves_the_turn():
    state = GameState.new("upwords-10", 3)
    outcome = state.pass_turn()
    assert (outcome.action, outcome.score, state.to_move) == ("pass", 0, 1)


def test_upwords_exchanges_exactly_one_tile():
    state = GameState.new("upwords-10", 2)
    with pytest.raises(InputError):
        state.exchange(2)
    outcome = state.exchange(1)
    assert (outcome.count, state.to_move, state.bag, state.racks) == (1, 1, 86, [7, 7])


def test_letterup_exchanges_any_number():
    state = GameState.new("letterup-classic", 2)
    assert state.exchange(7).count == 7
    with pytest.raises(InputError):
        state.exchange(8)
    with pytest.raises(InputError):
        state.exchange(0)


def test_no_exchange_from_a_bag_too_small():
    state = GameState.new("letterup-classic", 2)
    state.bag = 3
    with pytest.raises(IllegalAction) as error:
        state.exchange(4)
    assert error.value.code == "bag_too_small"
    assert state.exchange(3).count == 3


def test_solo_games_allow_no_exchange_by_default():
    state = GameState.new("upwords-10", 1)
    with pytest.raises(IllegalAction) as error:
        state.exchange(1)
    assert error.value.code == "no_exchanges_left"


def test_solo_exchange_option_allows_up_to_the_chosen_number():
    state = GameState.new("upwords-10", 1, RuleOptions(solo_exchanges=2))
    state.exchange(1)
    state.exchange(1)
    with pytest.raises(IllegalAction):
        state.exchange(1)


# Challenges -----------------------------------------------------------------------------------
def test_upheld_challenge_takes_the_play_back_exactly():
    state = played("upwords-10", 2, *(n for n, _ in HASBRO[:4]))
    before = state.copy()
    play(state, "G5 L..P")  # stacks on D and R
    outcome = state.challenge(WordSet("X", ["WOOL"]))  # LEAP is not a word here
    assert (outcome.result, outcome.invalid_words, outcome.challenged_seat) == (
        "upheld", ("LEAP",), 0,
    )  # fmt: skip
    assert state.board == before.board
    assert state.board.stack(4, 6) == ("D",)
    assert (state.scores, state.racks, state.bag) == (before.scores, before.racks, before.bag)
    assert state.to_move == 0  # the mover tries again


def test_upheld_challenge_can_cost_the_mover_the_turn():
    state = GameState.new("upwords-10", 2, RuleOptions(upheld_challenge="lose_turn"))
    play(state, "5D MOOX")
    state.challenge(HASBRO_WORDS)
    assert state.board.is_empty and state.to_move == 1


def test_rejected_challenge_leaves_the_play_standing():
    state = played("upwords-10", 2, "5D MOOD")
    outcome = state.challenge(HASBRO_WORDS)
    assert outcome.result == "rejected"
    assert state.scores == [8, 0] and state.to_move == 1
    assert state.board.top(4, 3) == "M"


def test_rejected_challenge_can_cost_the_challenger_five_points():
    state = GameState.new("upwords-10", 2, RuleOptions(rejected_challenge="minus_5"))
    play(state, "5D MOOD")
    outcome = state.challenge(HASBRO_WORDS)
    assert outcome.score == -5 and state.scores == [8, -5]


def test_rejected_challenge_can_cost_the_challenger_the_next_turn():
    state = GameState.new("upwords-10", 3, RuleOptions(rejected_challenge="lose_turn"))
    play(state, "5D MOOD")
    state.challenge(HASBRO_WORDS)  # player 2 challenges and loses their turn
    assert state.to_move == 2
    state.pass_turn()
    assert state.to_move == 0


def test_another_player_may_challenge_and_misses_their_next_turn():
    state = GameState.new("upwords-10", 3, RuleOptions(rejected_challenge="lose_turn"))
    play(state, "5D MOOD")
    state.challenge(HASBRO_WORDS, challenger=2)
    assert state.to_move == 1
    state.pass_turn()
    assert state.to_move == 0  # seat 2 is skipped once


def test_only_the_last_play_can_be_challenged():
    state = played("upwords-10", 2, "5D MOOD")
    state.pass_turn()
    with pytest.raises(IllegalAction) as error:
        state.challenge(HASBRO_WORDS)
    assert error.value.code == "nothing_to_challenge"


def test_a_play_can_be_challenged_only_once():
    state = played("upwords-10", 2, "5D MOOD")
    state.challenge(HASBRO_WORDS)
    with pytest.raises(IllegalAction):
        state.challenge(HASBRO_WORDS)


def test_a_player_cannot_challenge_their_own_play():
    state = played("upwords-10", 2, "5D MOOD")
    with pytest.raises(InputError):
        state.challenge(HASBRO_WORDS, challenger=0)


# The end of the game --------------------------------------------------------------------------
def test_hasbro_game_ends_after_two_passes_with_the_penalties():
    state = played("upwords-10", 2, *(n for n, _ in HASBRO))
    state.pass_turn()
    assert state.status == "in_progress"
    state.pass_turn()
    assert state.status == "finished"
    assert state.adjustments == [-35, -35]
    assert state.final_scores == [46 - 35, 27 - 35]
    assert state.scores == [46, 27]  # the turn scores themselves are untouched


def test_an_exchange_is_not_a_pass():
    state = GameState.new("upwords-10", 2)
    state.pass_turn()
    state.exchange(1)
    state.pass_turn()
    assert state.status == "in_progress"
    state.pass_turn()
    assert state.status == "finished"


def test_upwords_ends_when_the_last_tile_is_played_from_an_empty_bag():
    state = GameState.new("upwords-10", 2)
    state.bag, state.racks = 0, [4, 3]
    outcome = play(state, "5D MOOD")
    assert outcome.ended and state.status == "finished"
    assert state.final_scores == [8, -15]


def test_letterup_needs_two_passes_each_then_the_racks():
    state = GameState.new("letterup-classic", 2)
    for _ in range(3):
        state.pass_turn()
    assert state.status == "in_progress"
    state.pass_turn()
    assert state.status == "awaiting_racks"
    with pytest.raises(GameOver):
        state.pass_turn()
    with pytest.raises(InputError) as error:
        state.finish({0: "QZ"})
    assert error.value.code in {"rack_mismatch", "racks_required"}
    state.finish({0: "QZABCDE", 1: "EEEEEEE"})
    assert state.adjustments == [-(10 + 10 + 1 + 3 + 3 + 2 + 1), -7]
    assert state.final_scores == [-30, -7]


def test_letterup_play_out_waits_for_the_other_racks():
    state = GameState.new("letterup-classic", 2)
    state.bag, state.racks = 0, [5, 2]
    play(state, "8D HOUSE")
    assert state.status == "awaiting_racks"
    with pytest.raises(InputError) as error:
        state.finish({0: "", 1: "Q"})
    assert error.value.code == "rack_mismatch"
    state.finish({0: "", 1: "QI"})
    assert state.final_scores == [24, -11]


def test_racks_cannot_hold_letters_that_are_on_the_board():
    state = GameState.new("letterup-rush", 2)
    state.bag, state.racks = 0, [5, 2]
    play(state, "8D HOUSE")
    with pytest.raises(InputError) as error:
        state.finish({1: "HE"})  # Rush has one H, and it is on the board
    assert error.value.code == "rack_letters_unavailable"
    assert state.status == "awaiting_racks"
    state.finish({1: "se"})
    assert state.status == "finished"


def test_finish_ends_a_game_early():
    state = played("upwords-10", 2, "5D MOOD")
    state.finish()
    assert state.final_scores == [8 - 35, -35]
    with pytest.raises(GameOver):
        state.finish()
    with pytest.raises(GameOver):
        play(state, "6D A")


def test_the_final_play_of_upwords_can_still_be_challenged():
    state = GameState.new("upwords-10", 2)
    state.bag, state.racks = 0, [4, 3]
    play(state, "5D MOOX")
    assert state.status == "finished"
    state.challenge(HASBRO_WORDS)
    assert state.status == "in_progress" and state.final_scores is None
    assert state.racks == [4, 3] and state.board.is_empty


def test_solo_game_ends_when_the_player_passes():
    state = GameState.new("upwords-8", 1)
    play(state, "4D CAT")
    state.pass_turn()
    assert state.status == "finished" and state.final_scores == [6 - 35]


# Records --------------------------------------------------------------------------------------
def test_state_round_trips_through_its_record():
    state = played("upwords-10", 2, *(n for n, _ in HASBRO[:5]))
    copy = GameState.from_dict(state.to_dict())
    assert copy.to_dict() == state.to_dict()
    # The restored state can still resolve a challenge of the last play.
    copy.challenge(HonourSystem())
    state.challenge(HonourSystem())
    assert copy.to_dict() == state.to_dict()
    upheld = GameState.from_dict(state.to_dict())
    assert upheld.last_play is None


# Who starts -------------------------------------------------------------------------------------
def test_the_tile_nearest_a_starts():
    import random

    from referee.game import draw_for_first
    from referee.rulesets import UPWORDS_10

    for seed in range(50):
        first, rounds = draw_for_first(UPWORDS_10, 3, random.Random(seed))
        last = rounds[-1]
        assert last[first] == min(t for t in last if t)
        assert sorted(last).count(last[first]) == 1
        for earlier in rounds[:-1]:  # every earlier round ended in a tie for the nearest
            drawn = [t for t in earlier if t]
            assert drawn.count(min(drawn)) > 1


@pytest.mark.parametrize("stop", ["abandon", "void"])
def test_a_penalty_after_the_game_was_given_up_is_refused(stop):
    """An abandoned or void game has no final scores: a time penalty there changes nothing."""
    state = GameState.new("upwords-10", 2)
    getattr(state, stop)()
    with pytest.raises(GameOver) as refused:
        state.penalty(0, -10)
    assert refused.value.code == ("abandoned" if stop == "abandon" else "void")
    assert state.scores == [0, 0]


def test_a_penalty_after_the_end_changes_the_final_score():
    state = GameState.new("upwords-10", 2)
    state.finish()
    before = list(state.scores)
    state.penalty(1, -10)
    assert state.scores == [before[0], before[1] - 10]
