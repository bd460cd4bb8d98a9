"""Where a 15 × 15 board's grid lies, told by its premium squares: they stand out from the
board's plain squares in a layout every ruleset of that size shares (RULES.md §4), which a
frame or a cloth whose lines fit a grid a square or two out can't match (``photo.reader``)."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]


PREMIUM_SIZE = 15  # the one board size with premium squares, laid out alike in every ruleset
# A shifted grid is taken only where it fits the premium squares well (a correlation of at
# least PREMIUM_FIT) and much better than where the grid stands (by PREMIUM_GAIN): where tiles
# cover most squares the board's plain colour can't be told, and no shift fits well.
PREMIUM_FIT = 0.5
PREMIUM_GAIN = 0.3


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
    if best == (0, 0) or fit(*best) < max(PREMIUM_FIT, here + PREMIUM_GAIN):
        return corners
    moved = ideal + np.array([best[1], best[0]], np.float32) * pitch
    return np.asarray(cv2.perspectiveTransform(moved[None], np.linalg.inv(forward))[0], np.float32)
