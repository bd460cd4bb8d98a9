"""The board: a square grid of stacks, and the names people give its squares.

People see columns as letters and rows as numbers: ``(4, 5)`` is ``F5``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from referee.errors import InputError
from referee.rulesets import tile_in_set

Stack = tuple[str, ...]  # tiles bottom to top; () is an empty square
Square = tuple[int, int]  # (row, col), 0-based from the top-left

_EMPTY: Stack = ()
_SQUARE = re.compile(r"^([A-Za-z])(\d{1,2})$")


def square_name(row: int, col: int) -> str:
    """``square_name(4, 5) == "F5"``."""
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_square(text: str, size: int) -> Square:
    """``parse_square("F5", 10) == (4, 5)``; raises ``InputError`` when off the board."""
    match = _SQUARE.match(text.strip())
    if not match:
        raise InputError("bad_square", f"{text!r} is not a square: write it like F5.")
    row, col = int(match.group(2)) - 1, ord(match.group(1).upper()) - ord("A")
    check_on_board(row, col, size)
    return row, col


def check_on_board(row: int, col: int, size: int) -> None:
    if not (0 <= row < size and 0 <= col < size):
        raise InputError(
            "off_board",
            f"Square (row {row}, column {col}) is off the {size}×{size} board.",
        )


class Board:
    """A ``size``×``size`` grid of stacks. Reading uses the top tile of each stack."""

    __slots__ = ("size", "_cells", "_counts", "_tile_count")

    def __init__(self, size: int, cells: Sequence[Stack] | None = None) -> None:
        self.size = size
        self._cells: list[Stack] = list(cells) if cells is not None else [_EMPTY] * (size * size)
        assert len(self._cells) == size * size
        # Kept up to date on every change, so checking the tile set's limits is O(1). Counted as
        # tiles of the set: a blank ("e" on the board) counts as "?".
        self._counts: Counter[str] = Counter(tile_in_set(t) for s in self._cells for t in s)
        self._tile_count = sum(self._counts.values())

    # Reading -------------------------------------------------------------------------------
    def stack(self, row: int, col: int) -> Stack:
        return self._cells[row * self.size + col]

    def top(self, row: int, col: int) -> str | None:
        stack = self._cells[row * self.size + col]
        return stack[-1] if stack else None

    def height(self, row: int, col: int) -> int:
        return len(self._cells[row * self.size + col])

    def occupied(self, row: int, col: int) -> bool:
        return 0 <= row < self.size and 0 <= col < self.size and bool(self.stack(row, col))

    @property
    def is_empty(self) -> bool:
        return self._tile_count == 0

    @property
    def tile_count(self) -> int:
        """Every tile on the board, covered ones included."""
        return self._tile_count

    def tile_counts(self) -> Counter[str]:
        """How many of each tile of the set are on the board, covered ones included.

        Blanks count as ``"?"`` whatever letter they stand for, real tiles as themselves.
        """
        return self._counts.copy()

    def count(self, tile: str) -> int:
        """How many of this tile of the set are on the board (``"?"``: the blanks)."""
        return self._counts[tile_in_set(tile)]

    def squares(self) -> Iterator[tuple[int, int, Stack]]:
        for index, stack in enumerate(self._cells):
            if stack:
                yield index // self.size, index % self.size, stack

    def max_height(self) -> int:
        return max((len(s) for s in self._cells), default=0)

    # Changing ------------------------------------------------------------------------------
    def place(self, row: int, col: int, tile: str) -> None:
        index = row * self.size + col
        self._cells[index] = (*self._cells[index], tile)
        self._counts[tile_in_set(tile)] += 1
        self._tile_count += 1

    def lift(self, row: int, col: int) -> str:
        """Take the top tile off a stack (taking a play back)."""
        index = row * self.size + col
        stack = self._cells[index]
        if not stack:
            raise ValueError(f"no tile to lift at {square_name(row, col)}")
        self._cells[index] = stack[:-1]
        self._counts[tile_in_set(stack[-1])] -= 1
        self._tile_count -= 1
        return stack[-1]

    def copy(self) -> Board:
        return Board(self.size, self._cells)

    # Formats -------------------------------------------------------------------------------
    def rows(self) -> list[list[list[str]]]:
        """Rows of squares, each square the list of its tiles bottom to top (the API's form)."""
        n = self.size
        return [[list(self._cells[r * n + c]) for c in range(n)] for r in range(n)]

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[Iterable[str]]]) -> Board:
        size = len(rows)
        if any(len(row) != size for row in rows):
            raise InputError("bad_board", "A board must be square.")
        return cls(size, [tuple(square) for row in rows for square in row])

    def picture(self) -> str:
        """Top letters as an ASCII picture, ``.`` for empty squares (for logs and tests)."""
        n = self.size
        lines = []
        for r in range(n):
            cells = (self._cells[r * n + c] for c in range(n))
            lines.append(" ".join(("q" if s[-1] == "QU" else s[-1]) if s else "." for s in cells))
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.size == other.size and self._cells == other._cells

    def __repr__(self) -> str:
        return f"Board({self.size}, {self._tile_count} tiles)"
