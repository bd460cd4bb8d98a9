"""Which play a photo shows: the reading held against the game's position and legal plays."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee import RULESETS, Board, Play, RuleOptions  # noqa: E402
from referee.lexicon import WordSet  # noqa: E402
from scorekeeper.photo.propose import propose  # noqa: E402
from scorekeeper.photo.reader import read  # noqa: E402
from scorekeeper.photo.render import render  # noqa: E402

WORDS = WordSet("T", ["HOUSE", "HOUSES", "SHOE", "HOSE", "USE", "SUE", "HUES", "MOOD", "WOOD", "DOOM", "OH", "HO", "SO", "US", "EH", "HE"])  # fmt: skip


def shown(board: Board) -> dict[tuple[int, int], str]:
    return {(r, c): stack[-1] for r, c, stack in board.squares() if stack}


def after(board: Board, notation: str, ruleset) -> Board:
    made = board.copy()
    for p in Play.parse(notation, ruleset, board).placements:
        made.place(p.row, p.col, p.tile)
    return made


@pytest.mark.parametrize(
    "ruleset,before,played,seed",
    [
        ("crossword-classic", [], "8D HOUSE", 21),
        ("crossword-classic", ["8D HOUSE"], "D8 .OSE", 22),
        ("upwords-10", ["5D MOOD"], "5D W...", 23),
    ],
)
def test_the_play_made_is_proposed_first(ruleset, before, played, seed):
    rules = RULESETS[ruleset]
    board = Board(rules.size)
    for notation in before:
        board = after(board, notation, rules)
    made = after(board, played, rules)
    photo = render(seed, rules, shown(made))
    found = propose(read(photo.jpeg, rules.size), board, rules, RuleOptions.defaults(rules), WORDS)
    assert found.plays, found
    best = found.plays[0]
    assert best.notation == Play.parse(played, rules, board).notation(board, rules)
    assert best.agreement >= 0.98
    # A square misread elsewhere is named, and did not change the proposal.
    assert len(found.unread) <= 2
    # Every other proposal is less likely.
    assert all(p.likelihood < best.likelihood for p in found.plays[1:])


@pytest.mark.parametrize(
    "before,played,seed",
    [(["8D HOUSE"], "D8 .OSE", 31), (["8D HOUSE", "D8 .OSE"], "11A SHO.", 32)],
)
def test_a_play_among_tiles_laid_facing_each_player_is_proposed_first(before, played, seed):
    # Each tile on the board laid facing one of its four sides, as players lay their own.
    rules = RULESETS["crossword-classic"]
    board = Board(rules.size)
    for notation in before:
        board = after(board, notation, rules)
    made = after(board, played, rules)
    photo = render(seed, rules, shown(made), facing=True)
    found = propose(read(photo.jpeg, rules.size), board, rules, RuleOptions.defaults(rules), WORDS)
    assert found.plays, found
    assert found.plays[0].notation == Play.parse(played, rules, board).notation(board, rules)


def test_a_photo_of_the_board_as_it_was_proposes_nothing():
    rules = RULESETS["crossword-classic"]
    board = after(Board(15), "8D HOUSE", rules)
    photo = render(24, rules, shown(board))
    found = propose(read(photo.jpeg, 15), board, rules, RuleOptions.defaults(rules), WORDS)
    assert found.plays == [] and found.changed == []


def test_tiles_that_make_no_legal_play_are_named():
    rules = RULESETS["crossword-classic"]
    board = Board(15)
    # Two tiles far apart: no legal first play.
    photo = render(25, rules, {(0, 0): "H", (14, 14): "E"})
    found = propose(read(photo.jpeg, 15), board, rules, RuleOptions.defaults(rules), WORDS)
    assert found.plays == []
    assert found.changed == ["A1", "O15"]
    assert found.unread == ["A1", "O15"]


def test_the_budget_s_time_is_for_every_search_together():
    from referee import Budget

    rules = RULESETS["crossword-classic"]
    photo = render(21, rules, {(7, 3 + i): letter for i, letter in enumerate("HOUSE")})
    reading = read(photo.jpeg, 15)
    # A budget already spent: no search runs, and the answer says it is incomplete.
    found = propose(
        reading,
        Board(15),
        rules,
        RuleOptions.defaults(rules),
        WORDS,
        budget=Budget(plays=1000, seconds=0.0),
    )
    assert found.plays == [] and not found.complete
    found = propose(
        reading,
        Board(15),
        rules,
        RuleOptions.defaults(rules),
        WORDS,
        budget=Budget(plays=1000, seconds=5.0),
    )
    assert found.plays[0].notation == "8D HOUSE" and found.complete


def test_tiles_already_down_whose_letters_read_doubtfully_are_not_taken_for_the_play():
    """The J and the Z on the board read as likely as not, yet likeliest still: they are no
    tiles of the play. Taken for it, every rack tried would hold a second J or Z, which the
    set has not, and no play would be proposed."""
    import numpy as np

    from scorekeeper.photo.reader import CLASSES, OUTPUTS, Reading

    rules = RULESETS["crossword-classic"]
    words = WordSet("T", ["JO", "ZO", "JOE"])
    board = after(after(Board(15), "8G JO", rules), "H7 Z.", rules)
    chances = np.zeros((15, 15, OUTPUTS), np.float32)
    chances[:, :, 0] = 1.0

    def reads(row: int, col: int, **letters: float) -> None:
        chances[row, col] = 0
        for letter, chance in letters.items():
            chances[row, col, CLASSES.index(letter)] = chance

    reads(7, 6, J=0.45, T=0.35, I=0.2)
    reads(6, 7, Z=0.45, T=0.35, L=0.2)
    reads(7, 7, O=0.97, D=0.03)
    reads(7, 8, E=0.95, F=0.05)  # the play: 8G JOE
    reading = Reading(15, chances, [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])
    found = propose(reading, board, rules, RuleOptions.defaults(rules), words)
    assert found.changed == ["I8"]
    assert [p.notation for p in found.plays][:1] == ["8G ..E"]
