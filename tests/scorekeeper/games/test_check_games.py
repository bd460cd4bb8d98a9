"""manage.py check_games: replay every log and name each game whose stored state disagrees."""

from __future__ import annotations

import io
import uuid

import pytest
from django.core.management import CommandError, call_command

from scorekeeper.models import Game, Seat, Turn
from tests.factories import letterup_game, upwords_game

pytestmark = pytest.mark.django_db


def check(*game_ids: str) -> str:
    out = io.StringIO()
    call_command("check_games", *game_ids, stdout=out)
    return out.getvalue()


def failure(*game_ids: str) -> str:
    with pytest.raises(CommandError) as caught:
        call_command("check_games", *game_ids, stdout=io.StringIO())
    return str(caught.value)


def set_square(game: Game, square: tuple[int, int], stack: list[str]) -> None:
    board = game.board
    board[square[0]][square[1]] = stack
    Game.objects.filter(pk=game.pk).update(board=board)


@pytest.fixture
def games() -> tuple[Game, Game]:
    """Two games that agree with their logs: stacks, challenges both ways, an undo, racks."""
    return upwords_game(), letterup_game()


def test_games_that_agree_with_their_logs_pass(games):
    assert "Checked 2 game(s): 2 agree with their logs, 0 do not." in check()


def ann(game: Game):  # type: ignore[no-untyped-def]
    return Seat.objects.filter(game=game, order=0)


TAMPERED = {
    "a board square": (
        lambda g: set_square(g, (4, 4), ["O", "A"]),  # E5: an A stacked on the O
        "board differs from the log at E5",
    ),
    "a stack's lower tile": (
        lambda g: set_square(g, (4, 3), ["B", "W"]),  # D5: W on B, not on M
        "board differs from the log at D5",
    ),
    "a score": (
        lambda g: ann(g).update(score=31),
        "scores: stored [31, 13], the log gives [30, 13]",
    ),
    "a final score": (
        lambda g: ann(g).update(final_score=0),
        "final_score of Ann: stored 0, the log gives -5",
    ),
    "the bag": (
        lambda g: Game.objects.filter(pk=g.pk).update(bag_count=g.bag_count + 1),
        "bag: stored 75, the log gives 74",
    ),
    "the status": (
        lambda g: Game.objects.filter(pk=g.pk).update(status="in_progress"),
        "status: stored 'in_progress', the log gives 'finished'",
    ),
    "a rack": (lambda g: ann(g).update(rack_count=6), "racks: stored [6, 7], the log gives [7, 7]"),
    "a logged play's score": (
        lambda g: Turn.objects.filter(game=g, number=4).update(score=12),
        "turn 4 is logged as 6F N.T for 12; the play is 6F N.T for 10",
    ),
    "the play a challenge judged": (
        lambda g: Turn.objects.filter(game=g, number=7).update(
            target=Turn.objects.get(game=g, number=5)
        ),
        "turn 7 names the wrong play: the last play was 6",
    ),
    "an undo": (
        lambda g: Turn.objects.filter(game=g, number=10).update(undone_at=None),
        "the log does not replay",
    ),
    "a last play the board cannot hold": (
        lambda g: Game.objects.filter(pk=g.pk).update(
            last_play={
                "seat": 0,
                "tiles": [[0, 0, "Q"]],
                "score": 0,
                "drawn": 0,
                "passes_before": 0,
            }
        ),
        "the stored state can't be read",
    ),
}


@pytest.mark.parametrize("name", TAMPERED)
def test_tampered_state_is_named_with_its_game(games, name):
    tampered, sound = games
    change, problem = TAMPERED[name]
    change(tampered)

    message = failure()

    assert "Checked 2 game(s): 1 agree with their logs, 1 do not." in message
    assert f"{tampered.pk}: " in message and problem in message
    assert str(sound.pk) not in message


def test_a_tampered_letterup_final_score_is_named():
    game = letterup_game()
    Seat.objects.filter(game=game, order=1).update(final_score=-42)
    message = failure()
    assert f"{game.pk}: final_score of Ben: stored -42, the log gives -43" in message


def test_every_problem_of_a_game_is_listed():
    game = upwords_game()
    ann(game).update(score=31, final_score=0)
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_games", stdout=out)
    assert f"{game.pk}: 2 problem(s)" in out.getvalue()
    assert "  - scores: stored [31, 13]" in out.getvalue()
    assert "  - final_score of Ann: stored 0" in out.getvalue()


def test_only_the_listed_games_are_checked(games):
    tampered, sound = games
    ann(tampered).update(final_score=0)

    assert "Checked 1 game(s): 1 agree" in check(str(sound.pk))
    message = failure(str(tampered.pk), str(sound.pk))
    assert "Checked 2 game(s): 1 agree with their logs, 1 do not." in message
    assert str(tampered.pk) in message


def test_a_game_id_that_is_not_there_is_an_error(games):
    missing = str(uuid.UUID(int=7))
    with pytest.raises(CommandError, match=f"There is no game {missing}"):
        call_command("check_games", str(games[0].pk), missing, stdout=io.StringIO())
    with pytest.raises(CommandError, match="'game-1' is not a game id"):
        call_command("check_games", "game-1", stdout=io.StringIO())


def test_no_games_is_nothing_to_disagree_with():
    assert "Checked 0 game(s): 0 agree with their logs, 0 do not." in check()
