"""Board positions written as pictures, and small helpers for the referee's tests.

A picture has one line per row and one cell per column, separated by spaces: ``.`` is an
empty square, ``W`` a single tile, ``M/W`` a stack (bottom to top), ``Qu`` the Qu tile.
"""

from __future__ import annotations

import random

from referee.board import Board
from referee.game import GameState
from referee.lexicon import WordSet
from referee.play import Placement, Play
from referee.rules import Evaluation, evaluate
from referee.rulesets import BLANK, RuleOptions, Ruleset, get_ruleset


def board_from(picture: str, ruleset: Ruleset | str = "upwords-10") -> Board:
    ruleset = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    lines = [line.split() for line in picture.strip().splitlines()]
    size = ruleset.size
    rows: list[list[list[str]]] = [[[] for _ in range(size)] for _ in range(size)]
    for r, cells in enumerate(lines):
        for c, cell in enumerate(cells):
            if cell != ".":
                rows[r][c] = [ruleset.tile(t) for t in cell.split("/")]
    return Board.from_rows(rows)


def check(
    picture: str,
    play: str,
    ruleset: str = "upwords-10",
    options: RuleOptions | None = None,
    words: list[str] | None = None,
) -> Evaluation:
    """Evaluate ``play`` (notation) on the pictured board."""
    rs = get_ruleset(ruleset)
    board = board_from(picture, rs) if picture.strip() else Board(rs.size)
    lexicon = WordSet("TEST", words) if words is not None else None
    return evaluate(board, Play.parse(play, rs), rs, options or RuleOptions(), lexicon)


def played(ruleset: str, players: int, *plays: str) -> GameState:
    """A game after the given plays (notation), each by the player to move."""
    state = GameState.new(ruleset, players)
    for text in plays:
        state.play(Play.parse(text, state.ruleset, state.board))
    return state


# The Hasbro worked sequence of RULES.md §3 (10×10), with each turn's score.
HASBRO = [
    ("5D MOOD", 8),
    ("G6 EAR", 8),
    ("6F N.T", 10),
    ("5D W", 5),
    ("G5 L..P", 12),
    ("8F SNACK", 14),
    ("I3 PLUS", 16),
]


def random_play(rng: random.Random, state: GameState) -> Play | None:
    """A candidate play near the tiles on the board (it may still be illegal)."""
    rs, board = state.ruleset, state.board
    size = rs.size
    across = rng.random() < 0.5
    dr, dc = (0, 1) if across else (1, 0)
    if board.is_empty:
        anchor = rng.choice(sorted(rs.start_squares))
    else:
        anchor = rng.choice([(r, c) for r, c, _ in board.squares()])
    length = rng.randint(1, 7)
    back = rng.randint(0, length)
    r, c = anchor[0] - dr * back, anchor[1] - dc * back
    unseen = state.unseen()
    pool = [t for t, n in unseen.items() for _ in range(n)]
    letters = sorted(rs.blank_letters)
    placements = []
    for _ in range(length):
        if not (0 <= r < size and 0 <= c < size):
            break
        if not board.stack(r, c) or (rs.stacks and rng.random() < 0.35):
            if not pool:
                break
            if BLANK in pool and rng.random() < 0.2:  # play the blanks often
                tile = pool.pop(pool.index(BLANK))
            else:
                tile = pool.pop(rng.randrange(len(pool)))
            if tile == BLANK:
                tile = rng.choice(letters).lower()  # a blank stands for any letter
            placements.append(Placement(r, c, tile))
        r, c = r + dr, c + dc
    placements = placements[: state.racks[state.to_move]]
    return Play(tuple(placements)) if placements else None
