"""Where a 15 × 15 board's grid lies, told by its premium squares: they stand out from the
board's plain squares in a layout every ruleset of that size shares (RULES.md §4), which a
frame or a cloth whose lines fit a grid a square or two out can't match (``photo.reader``);
where no grid's lines show at all, they alone place the grid in the board's outline; and once
the squares are read, the empty ones alone place it on a board crowded with tiles."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.photo.colours import square_colours
from scorekeeper.photo.flat import CONTEXT, SQUARE, cuts, straighten

Floats = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]
Spans = npt.NDArray[np.float64]  # where a grid's first or last lines may lie


PREMIUM_SIZE = 15  # the one board size with premium squares, laid out alike in every ruleset
# Where no lines show, the premium squares alone place a grid that fits them well (a
# correlation of at least PREMIUM_FIT). A grid placed by its lines is moved only where a shift
# fits them at least SHIFT_FIT, and PREMIUM_GAIN better than where it stands (less than PREMIUM_FIT,
# as tiles over many premium squares keep even the right grid's fit low, and where they cover
# most squares the board's plain colour can't be told and no shift fits well).
PREMIUM_FIT = 0.5
PREMIUM_GAIN = 0.3
SHIFT_FIT = 0.4
# Once the squares are read, the empty ones alone place the grid: a shift a square each way
# is taken where they fit the premium squares at least READ_FIT, and READ_GAIN better than
# where the grid stands.
READ_FIT = 0.3
READ_GAIN = 0.2
# ... up to READ_REACH squares each way: as far as ``onto_the_premiums`` may have moved it
# wrongly, where tiles over much of a board fit the premium squares' pattern a square or two off.
READ_REACH = 2


@cache
def _premium_layout() -> Floats:
    """1 on each premium square of the 15 × 15 board, 0 elsewhere (RULES.md §4)."""
    from referee import RULESETS

    ruleset = RULESETS["crossword-classic"]
    layout = [[float(bool(ruleset.premium(r, c))) for c in range(15)] for r in range(15)]
    return np.asarray(layout, np.float32)


def onto_the_premiums(
    rgb: Image, corners: npt.NDArray[np.float32], n: int
) -> npt.NDArray[np.float32]:
    """The grid moved by up to two squares each way where the squares that stand out from
    the board's plain ones then lie where the premium squares are, clearly better than where
    it stands: a frame or a cloth whose lines fit a grid of lines a square or two out can't
    fit the premium squares' pattern."""
    pitch, margin = 20, 2
    side = pitch * (n + 2 * margin)
    ideal = np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32) * pitch + margin * pitch
    forward = cv2.getPerspectiveTransform(corners, ideal)
    flat = cv2.warpPerspective(
        rgb, forward, (side, side), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    lab = cv2.cvtColor(flat, cv2.COLOR_RGB2LAB).astype(np.float32)
    cells = n + 2 * margin
    # Each square's colour, from its middle (away from its lines and a neighbour's tile).
    inner = lab.reshape(cells, pitch, cells, pitch, 3)[:, 5:15, :, 5:15].mean(axis=(1, 3))
    middle = inner[margin + 2 : margin + n - 2, margin + 2 : margin + n - 2].reshape(-1, 3)
    plain = np.median(middle, axis=0)
    apart = np.linalg.norm(inner - plain, axis=2)
    layout = _premium_layout().ravel()

    def fit(dr: int, dc: int) -> float:
        window = apart[margin + dr : margin + dr + n, margin + dc : margin + dc + n].ravel()
        if window.std() < 1e-6:
            return 0.0
        return float(np.corrcoef(window, layout)[0, 1])

    here = fit(0, 0)
    shifts = [(dr, dc) for dr in range(-margin, margin + 1) for dc in range(-margin, margin + 1)]
    best = max(shifts, key=lambda shift: fit(*shift))
    if best == (0, 0) or fit(*best) < max(SHIFT_FIT, here + PREMIUM_GAIN):
        return corners
    moved = ideal + np.array([best[1], best[0]], np.float32) * pitch
    return np.asarray(cv2.perspectiveTransform(moved[None], np.linalg.inv(forward))[0], np.float32)


def shift_by_read_premiums(
    empty: npt.NDArray[np.bool_], colours: Floats, n: int
) -> tuple[int, int]:
    """The rows and columns the grid is off by, told by the squares read as empty alone:
    ``empty`` and ``colours`` (the grid and k squares round it, n + 2k a side: each shift
    at most k) say which square the network reads as empty, and its colour. Tiles
    cover premium squares and plain ones alike, and stand out from the board as premium
    squares do, so on a crowded board they hide the premiums' pattern from their colours
    alone (``onto_the_premiums``): left out, the empty squares show it."""
    layout = _premium_layout() > 0
    layout[n // 2, n // 2] = True  # the centre's star stands out as the premiums do
    fits: dict[tuple[int, int], float] = {}
    reach = (empty.shape[0] - n) // 2
    for dr in range(-reach, reach + 1):
        for dc in range(-reach, reach + 1):
            window = np.s_[reach + dr : reach + dr + n, reach + dc : reach + dc + n]
            seen, shown = empty[window], colours[window]
            if (seen & ~layout).sum() < 10 or (seen & layout).sum() < 5:
                continue
            plain = np.median(shown[seen & ~layout], axis=0)
            apart = np.linalg.norm(shown - plain, axis=2)[seen]
            if apart.std() < 1e-6:
                continue
            fits[(dr, dc)] = float(np.corrcoef(apart, layout[seen])[0, 1])
    here = fits.get((0, 0), -1.0)
    best = max(fits, key=lambda shift: fits[shift], default=(0, 0))
    if fits.get(best, -1.0) >= max(READ_FIT, here + READ_GAIN):
        return best
    return 0, 0


def onto_the_read_premiums(
    rgb: Image,
    corners: npt.NDArray[np.float32],
    n: int,
    upright: Floats,
    classify: Callable[[Floats], Floats],
) -> npt.NDArray[np.float32] | None:
    """The grid moved where the squares read as empty say it is a square or two off
    (``shift_by_read_premiums``), or None: ``upright`` is how the grid's squares read, and
    the squares round it are read too (by ``classify``)."""
    to_photo = cv2.getPerspectiveTransform(
        np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32), np.asarray(corners, np.float32)
    )

    def grid(first: float, last: float, dr: float = 0, dc: float = 0) -> npt.NDArray[np.float32]:
        square = [(first + dc, first + dr), (last + dc, first + dr), (last + dc, last + dr),
                  (first + dc, last + dr)]  # fmt: skip
        return np.asarray(cv2.perspectiveTransform(np.array([square], np.float32), to_photo)[0])

    k = READ_REACH
    around = straighten(rgb, grid(-k, n + k), n + 2 * k, CONTEXT)
    inside = np.s_[k:-k, k:-k]
    ring = np.ones((n + 2 * k, n + 2 * k), bool)
    ring[inside] = False
    empty = np.zeros((n + 2 * k, n + 2 * k), bool)
    empty[inside] = upright[:, :, 0] >= 0.5
    empty[ring] = classify(cuts(around, n + 2 * k, ring))[:, 0] >= 0.5
    colours = square_colours(around, n + 2 * k, SQUARE, CONTEXT)
    dr, dc = shift_by_read_premiums(empty, colours, n)
    return grid(0, n, dr, dc) if dr or dc else None


def grid_by_premiums(
    rgb: Image, outline: npt.NDArray[np.float32], n: int
) -> tuple[npt.NDArray[np.float32], float]:
    """The grid inside a board's outline found by its premium squares alone (a board whose
    lines don't show, a wooden one with its grain running along them): of the grids that
    fill most of the outline, the one whose squares' colours best match where the premium
    squares lie; its corners in the photo, and that match (a correlation)."""
    side = 300
    square = np.array([(0, 0), (side, 0), (side, side), (0, side)], np.float32)
    forward = cv2.getPerspectiveTransform(outline, square)
    flat = cv2.warpPerspective(rgb, forward, (side + 1, side + 1), flags=cv2.INTER_AREA)
    lab = cv2.cvtColor(flat, cv2.COLOR_RGB2LAB).astype(np.float32)
    plain = np.median(lab[side // 4 : 3 * side // 4, side // 4 : 3 * side // 4].reshape(-1, 3), 0)
    # How far each pixel is from the plain squares' colour, averaged over half a square.
    apart = cv2.blur(np.linalg.norm(lab - plain, axis=2), (side // (2 * n),) * 2)
    layout = _premium_layout().ravel()
    layout = (layout - layout.mean()) / layout.std()
    middles = (np.arange(n, dtype=np.float32) + 0.5) / n

    def best_of(
        x0s: Spans, x1s: Spans, y0s: Spans, y1s: Spans
    ) -> tuple[float, tuple[float, float, float, float]]:
        # Every span's square middles, x and y apart: (x0, x1, n) and (y0, y1, n).
        xs = x0s[:, None, None] + (x1s - x0s[:, None])[:, :, None] * middles
        ys = y0s[:, None, None] + (y1s - y0s[:, None])[:, :, None] * middles
        xi = np.clip(xs.round().astype(int), 0, side)
        yi = np.clip(ys.round().astype(int), 0, side)
        # values[a, b, c, d, row, col]: the square (row, col) of the span (y0s[a], y1s[b]) by
        # (x0s[c], x1s[d]).
        values = apart[yi[:, :, None, None, :, None], xi[None, None, :, :, None, :]]
        flat_values = values.reshape(*values.shape[:4], n * n)
        centred = flat_values - flat_values.mean(axis=-1, keepdims=True)
        spread = centred.std(axis=-1) * n * n + 1e-6
        fits = (centred @ layout) / spread
        a, b, c, d = np.unravel_index(int(fits.argmax()), fits.shape)
        return float(fits[a, b, c, d]), (float(x0s[c]), float(x1s[d]), float(y0s[a]), float(y1s[b]))

    starts, ends = np.linspace(0, side * 0.16, 9), np.linspace(side * 0.84, side, 9)
    fit, (x0, x1, y0, y1) = best_of(starts, ends, starts, ends)
    step = side * 0.02
    fine = np.linspace(-step, step, 5)
    fit, (x0, x1, y0, y1) = best_of(x0 + fine, x1 + fine, y0 + fine, y1 + fine)
    grid = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float32)
    corners = cv2.perspectiveTransform(grid, np.linalg.inv(forward))[0]
    return np.asarray(corners, np.float32), fit
