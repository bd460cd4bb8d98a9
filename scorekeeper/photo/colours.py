"""What the squares' colours say about a reading: a square read as empty that has the colour of
the board's tiles, not of the empty squares of its kind, holds a tile (an I's one thin stroke,
or a blank's plain face, can look to the network like an empty square's printing); and a
square read as a blank that has its kind's empty colour, not the tiles', is empty (a premium
square's pale printing or a glare read as a plain face).

A board's empty squares of one kind (plain, or one premium's) share a colour, as a set's tiles
share theirs; each is learned from the squares the network reads surely, in the photo at hand,
so nothing here depends on a board's design or a set's colours. Where the two can't be told
apart (wooden tiles on a wooden board) or too few squares are sure, nothing is changed.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.photo.squares import BLANK, TURNED, Floats

Image = npt.NDArray[np.uint8]
CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)

# The network's chance of empty for a square to teach its kind's colour (trained with labels
# smoothed, it says little more than 0.95 of any square), and of a letter for a tile to teach
# the tiles'.
SURE_EMPTY = 0.9
SURE_TILE = 0.8
NEAREST = 3  # a colour is learned from the sure squares nearest the one compared, so many
NEAR = 6  # ... lying within this many squares of it
# A square's colour is its kind's or the tiles' when it lies at least APART (in CIELAB, its
# lightness counting half: light falls unevenly over a board) from the one and at most
# NEARER times that from the other.
APART = 25.0
NEARER = 0.35
LIGHTNESS = 0.5


@cache
def square_kinds(n: int) -> npt.NDArray[np.int_]:
    """Each square's kind: 0 plain, 1 and up one premium each (RULES.md §4) and the centre's
    star; a board of another size has plain squares only."""
    from referee import RULESETS

    kinds = np.zeros((n, n), np.int_)
    ruleset = next((r for r in RULESETS.values() if r.size == n), None)
    if ruleset is None:
        return kinds
    names: dict[str, int] = {}
    for r in range(n):
        for c in range(n):
            premium = ruleset.premium(r, c)
            if premium:
                kinds[r, c] = names.setdefault(str(premium), len(names) + 1)
    # The centre's star is printed unlike the premium it shares (a kind of its own, never
    # compared): a first play covers it, so it is a tile in every game but an empty one.
    if names:
        kinds[n // 2, n // 2] = len(names) + 1
    return kinds


def square_colours(flat: Image, n: int, square: int, context: int) -> Floats:
    """Each square's colour (n × n × 3, CIELAB, lightness weighted by ``LIGHTNESS``): the
    median of its middle half, where a tile's face shows past its letter's strokes."""
    grid = flat[context : context + n * square, context : context + n * square]
    lo, hi = square // 4, square - square // 4
    return _colours(
        grid.reshape(n, square, n, square, 3)[:, lo:hi, :, lo:hi].transpose(0, 2, 1, 3, 4)
    )


def cut_colours(seen: Image, square: int, context: int) -> Floats:
    """``square_colours`` of the squares' cuts (n × n × cut × cut × 3), each cut where it is."""
    lo, hi = context + square // 4, context + square - square // 4
    return _colours(seen[:, :, lo:hi, lo:hi])


def _colours(middles: Image) -> Floats:
    n = middles.shape[0]
    lab = cv2.cvtColor(np.ascontiguousarray(middles).reshape(n * n, -1, 3), cv2.COLOR_RGB2LAB)
    colours = np.median(lab.astype(np.float32).reshape(n, n, -1, 3), axis=2).astype(np.float32)
    colours[:, :, 0] *= LIGHTNESS
    return colours


def _nearby(colours: Floats, sure: npt.NDArray[np.bool_]) -> Floats:
    """For each square, the median colour of the ``NEAREST`` ``sure`` squares nearest it
    within ``NEAR`` squares (NaN where fewer lie there): light falls unevenly over a board, so
    a square is compared with its neighbours' colours, not the whole board's."""
    n = colours.shape[0]
    rows, cols = np.nonzero(sure)
    out = np.full((n, n, 3), np.nan, np.float32)
    if len(rows) < NEAREST:
        return out
    grid_r, grid_c = np.mgrid[0:n, 0:n]
    # Chebyshev distance from every square to every sure one; a square is not its own.
    apart = np.maximum(
        np.abs(grid_r[:, :, None] - rows[None, None, :]),
        np.abs(grid_c[:, :, None] - cols[None, None, :]),
    ).astype(np.float32)
    apart[apart == 0] = np.inf
    nearest = np.argsort(apart, axis=2)[:, :, :NEAREST]
    close = np.take_along_axis(apart, nearest, axis=2).max(axis=2) <= NEAR
    picked = colours[rows, cols][nearest]  # n × n × NEAREST × 3
    out[close] = np.median(picked[close], axis=1)
    return out


def by_colour(
    chances: Floats, colours: Floats
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """The squares (n × n, as ``chances`` reads the photo) read as empty that hold a tile by
    their colour, and those read as a blank that are empty by theirs."""
    n = chances.shape[0]
    read = chances[:, :, :TURNED].argmax(axis=2)
    tile = np.zeros((n, n), bool)
    empty = np.zeros((n, n), bool)
    tiles_colour = _nearby(colours, chances[:, :, 1:27].max(axis=2) >= SURE_TILE)
    to_tiles = np.linalg.norm(colours - tiles_colour, axis=2)
    kinds = square_kinds(n)
    sure_empty = chances[:, :, 0] >= SURE_EMPTY
    for kind in np.unique(kinds):
        mine = kinds == kind
        own = _nearby(colours, mine & sure_empty)
        to_own = np.linalg.norm(colours - own, axis=2)
        with np.errstate(invalid="ignore"):  # NaN: too few sure squares near to compare
            tile |= mine & (read == 0) & (to_own >= APART) & (to_tiles <= NEARER * to_own)
            empty |= mine & (read == BLANK) & (to_tiles >= APART) & (to_own <= NEARER * to_tiles)
    # A tile is in a word: one found by its colour lies beside one the network read.
    beside = cv2.dilate((read != 0).astype(np.uint8), CROSS).astype(bool) & (read == 0)
    return tile & beside, empty


def as_coloured(chances: Floats, tile: npt.NDArray[np.bool_], empty: npt.NDArray[np.bool_]) -> None:
    """``chances`` (one turn's, its squares as ``tile`` and ``empty`` are turned) read as the
    squares' colours say, in place: a tile's chance of empty shared among the rest."""
    rest = chances[tile, 1:].sum(axis=1, keepdims=True) + 1e-6
    chances[tile, 1:] /= rest
    chances[tile, 0] = 0
    chances[empty, 0] = chances[empty].sum(axis=1)
    chances[empty, 1:] = 0
