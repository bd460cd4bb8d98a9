"""Plays: the tiles a player put on the board in one turn, with their notation.

Two notations are read and written:

* GCG style, as cross-tables and Woogles write it: ``5D WOOD`` goes across from D5
  (row first), ``G5 L..P`` goes down from G5 (column first). A ``.`` is a square the word
  passes through without a new tile; a letter on an occupied square is stacked (Upwords).
  The Qu tile is written ``Qu``.
* A plain list of squares, for any set of tiles: ``D5=W G8=P``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from referee.board import Board, check_on_board, parse_square, square_name
from referee.errors import IllegalPlay, InputError, stacked_on_itself
from referee.rulesets import QU, Ruleset

_ACROSS = re.compile(r"^([0-9]{1,2})([A-Za-z])$")
_DOWN = re.compile(r"^([A-Za-z])([0-9]{1,2})$")


@dataclass(frozen=True, order=True)
class Placement:
    """One new tile on one square."""

    row: int
    col: int
    tile: str

    @property
    def square(self) -> str:
        return square_name(self.row, self.col)

    def __str__(self) -> str:
        return f"{self.square}={'Qu' if self.tile == QU else self.tile}"


@dataclass(frozen=True)
class Play:
    """The tiles of one turn, in reading order (top to bottom, left to right)."""

    placements: tuple[Placement, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", tuple(sorted(self.placements)))

    def __len__(self) -> int:
        return len(self.placements)

    def __iter__(self) -> Iterator[Placement]:
        return iter(self.placements)

    def __str__(self) -> str:
        return " ".join(str(p) for p in self.placements)

    @property
    def squares(self) -> list[tuple[int, int]]:
        return [(p.row, p.col) for p in self.placements]

    # Construction --------------------------------------------------------------------------
    @classmethod
    def of(cls, tiles: Iterable[tuple[int, int, str]], ruleset: Ruleset) -> Play:
        """A play from ``(row, col, tile)`` triples, checked against the board and the tile set.

        >>> from referee.rulesets import UPWORDS_10
        >>> str(Play.of([(4, 3, "W")], UPWORDS_10))
        'D5=W'
        """
        placements = []
        for row, col, token in tiles:
            check_on_board(row, col, ruleset.size)
            placements.append(Placement(row, col, ruleset.tile(token)))
        if not placements:
            raise InputError("no_tiles", "A play needs at least one tile.")
        return cls(tuple(placements))

    @classmethod
    def parse(cls, text: str, ruleset: Ruleset, board: Board | None = None) -> Play:
        """Read ``5D WOOD``, ``G5 L..P`` or ``D5=W G8=P``.

        Where the set has blanks a lowercase letter is a blank (GCG's way): ``8D HOUSe`` plays
        a blank as the E. Without blanks, case does not matter.

        Given the ``board``, a letter written on a square that already holds that letter is
        read as played through, like a ``.``: in Upwords stacking a letter on itself is never
        legal, so ``5C BELATED`` over ``CATER`` means ``5C BEL...D``; where tiles don't stack
        the letter may be a blank's, written either case. A different letter on an occupied
        square is stacked in Upwords and refused where tiles don't stack.

        >>> from referee.rulesets import UPWORDS_10
        >>> str(Play.parse("5E QuIT", UPWORDS_10))
        'E5=Qu F5=I G5=T'
        """
        text = text.strip()
        parts = text.split()
        if len(parts) == 2 and "=" not in text:
            position, word = parts
            across, down = _ACROSS.match(position), _DOWN.match(position)
            if across:
                row, col = int(across.group(1)) - 1, ord(across.group(2).upper()) - ord("A")
                step = (0, 1)
            elif down:
                row, col = int(down.group(2)) - 1, ord(down.group(1).upper()) - ord("A")
                step = (1, 0)
            else:
                raise InputError(
                    "bad_notation",
                    f"{position!r} is not a position: write 8D for across or D8 for down.",
                )
            tiles = []
            repeated = []  # squares whose letter was written again on them (Upwords)
            for token in ruleset.split(word):
                top = None
                if board is not None and 0 <= row < board.size and 0 <= col < board.size:
                    top = board.top(row, col)
                through = token == "." or top == token
                if not through and top is not None and not ruleset.stacks:
                    if top.upper() != token.upper():
                        raise InputError(
                            "letter_not_on_board",
                            f"{square_name(row, col)} already holds {ruleset.display(top)}, "
                            f"not {ruleset.display(token)}: write {top.upper()} or . to play "
                            "through it.",
                        )
                    through = True
                if not through:
                    tiles.append((row, col, token))
                elif token != "." and ruleset.stacks:
                    repeated.append((row, col, token))
                row, col = row + step[0], col + step[1]
            if not tiles and repeated:
                # Only letters written on themselves: the rule it would break, as for a tile
                # placed on its own letter, not "no tiles".
                raise IllegalPlay(
                    stacked_on_itself(ruleset.display(t), square_name(r, c)) for r, c, t in repeated
                )
            return cls.of(tiles, ruleset)
        tiles = []
        for item in text.replace(",", " ").split():
            square, sep, token = item.partition("=")
            if not sep:
                raise InputError(
                    "bad_notation",
                    f"{text!r} is not a play: write 5D WOOD, G5 L..P or D5=W G8=P.",
                )
            tiles.append((*parse_square(square, ruleset.size), token))
        return cls.of(tiles, ruleset)

    # Notation ------------------------------------------------------------------------------
    def notation(self, board: Board, ruleset: Ruleset) -> str:
        """GCG-style notation of this play on ``board`` (the board *before* the play).

        Falls back to the square list when the tiles are not in one line.
        """
        new = {(p.row, p.col): p.tile for p in self.placements}
        rows = {p.row for p in self.placements}
        cols = {p.col for p in self.placements}
        if len(self.placements) == 1:
            ((row, col),) = new
            across_run = board.occupied(row, col - 1) or board.occupied(row, col + 1)
            down_run = board.occupied(row - 1, col) or board.occupied(row + 1, col)
            across = across_run or not down_run
        elif len(rows) == 1:
            across = True
        elif len(cols) == 1:
            across = False
        else:
            return str(self)
        dr, dc = (0, 1) if across else (1, 0)
        row, col = self.placements[0].row, self.placements[0].col

        def filled(r: int, c: int) -> bool:
            return (r, c) in new or board.occupied(r, c)

        while filled(row - dr, col - dc):
            row, col = row - dr, col - dc
        start = (row, col)
        letters = []
        last = self.placements[-1]
        while filled(row, col) or (row, col) <= (last.row, last.col):
            if (row, col) in new:
                letters.append(ruleset.display(new[(row, col)]))
            elif board.occupied(row, col):
                letters.append(".")
            else:
                return str(self)  # a gap: not a line play
            row, col = row + dr, col + dc
        r, c = start
        position = f"{r + 1}{chr(ord('A') + c)}" if across else square_name(r, c)
        return f"{position} {''.join(letters)}"
