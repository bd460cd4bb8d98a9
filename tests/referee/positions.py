"""Board positions written as pictures, and small helpers for the referee's tests.

A picture has one line per row and one cell per column, separated by spaces: ``.`` is an
empty square, ``W`` a single tile, ``M/W`` a stack (bottom to top), ``Qu`` the Qu tile.
"""

from __future__ import annotations

from referee.board import Board
from referee.game import GameState
from referee.lexicon import WordSet
from referee.play import Play
from referee.rules import Evaluation, evaluate
from referee.rulesets import RuleOptions, Ruleset, get_ruleset


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
