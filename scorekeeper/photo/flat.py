"""The board seen from above, and each square's cut of it: where the reader looks for a tile.

A tile stands up from its square. Seen from low down, from a chair at the table, its top (where
its letter is) lies towards the far side of the photo, by half a square or, from a webcam at
the table's edge, more, and an empty square beside it shows the top of the tile in front. So
the squares are cut where the tiles' tops lie: the straightened board is kept with room around
it, and each square is cut moved towards the far side (by ``TOWARDS`` of a square at the
board's centre, a little either side of it), the moves whose squares read most surely being
kept. A top lies off its square in proportion to the square's distance from the point of the
table under the camera, so the far rows' tops lie further off than the near rows' and the
corners' lean outwards too: the moves are looked for with each square's growing with its
distance from the centre (``SPREAD``) as well as all alike. The far side is the way the board
is seen squeezed (a board seen at an angle looks shallower than it is wide, from near or far),
pointing where its squares are seen smaller. A tile seen half a square off reads surely from
either side of it, as its own letter or as the next one's: only a move towards the far side,
the way the tops lean, is looked at; and none in a board seen from well above
(``FROM_ABOVE``).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.photo.squares import Floats

Image = npt.NDArray[np.uint8]
SQUARE = 28  # pixels a square in the straightened board: a letter about 17 high
CONTEXT = 6  # pixels of the neighbours around each square's cut
CUT = SQUARE + 2 * CONTEXT
# Of a square: how far towards the far side the tops are looked for. A webcam's lie further
# off, and the network has learned them so, but moved further than this a crowded board's
# tiles each read as surely as their neighbours.
TOWARDS = (0.2, 0.35, 0.5)
ASIDE = np.deg2rad((-30.0, 0.0, 30.0))  # ... and how far either side of straight towards it
# How much further off, per square from the board's centre, the tops lie than the centre's:
# one over the distance, in squares, from the board's centre to the point under the camera (a
# webcam at the table's edge, about 16). Looked for in the moves of a third of a square or more:
# a smaller one grows by less than the network's own give.
SPREAD = (0.0, 1 / 16)
SPREAD_FROM = 0.3
# Seen from 70° above the table or more, a tile's top (a tile a quarter of a square thick)
# lies no more than about a tenth of a square off, which the network reads as it is: the board
# is then seen squeezed by no more than the sine of 70°.
FROM_ABOVE = 0.94
REACH = 23  # pixels (0.82 of a square): the furthest a square's cut is moved
ROOM = CONTEXT + REACH + 1  # pixels kept around the grid
Offsets = npt.NDArray[np.int32]  # n × n × 2: how far each square's cut is moved, x and y


def straighten(rgb: Image, corners: npt.NDArray[np.float32], n: int, room: int = CONTEXT) -> Image:
    """The grid seen from above, ``SQUARE`` pixels a square with ``room`` around. Its light
    is left as it is: a balance on the board's brightest part would make a sparse board's
    empty squares look like tiles; the network learned every light the renderer draws."""
    side = n * SQUARE
    target = np.array([(0, 0), (side, 0), (side, side), (0, side)], np.float32) + room
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), target)
    flat = cv2.warpPerspective(
        rgb,
        matrix,
        (side + 2 * room, side + 2 * room),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(flat, np.uint8)


def spread_out(n: int, dx: float, dy: float, spread: float = 0.0, reach: int = REACH) -> Offsets:
    """Each square's move (pixels): ``dx``, ``dy`` at the board's centre, growing by ``spread``
    of that per square away from it (a top's lie from its square grows with the square's
    distance from the point under the camera), at most ``reach`` either way."""
    centre = (np.arange(n) + 0.5 - n / 2) * np.hypot(dx, dy) * spread
    out = np.empty((n, n, 2), np.float64)
    out[:, :, 0] = dx + centre[None, :]
    out[:, :, 1] = dy + centre[:, None]
    return np.clip(np.rint(out), -reach, reach).astype(np.int32)


def seen_at(
    wide: Image, n: int, offsets: Offsets | None = None, reach: int = ROOM - CONTEXT
) -> Image:
    """Each square's cut (n × n × CUT × CUT × 3) out of the grid straightened with
    ``CONTEXT + reach`` around, each moved by its ``offsets`` (none: where the square is)."""
    out = np.empty((n, n, CUT, CUT, 3), np.uint8)
    for r in range(n):
        for c in range(n):
            dx, dy = (int(v) for v in offsets[r, c]) if offsets is not None else (0, 0)
            top, left = reach + r * SQUARE + dy, reach + c * SQUARE + dx
            out[r, c] = wide[top : top + CUT, left : left + CUT]
    return out


def for_network(seen: Image) -> Floats:
    """Cuts (… × CUT × CUT × 3, as ``seen_at`` gives them) as the network takes them:
    k × 3 × CUT × CUT, scaled, in order."""
    flat = seen.reshape(-1, CUT, CUT, 3).transpose(0, 3, 1, 2)
    return np.asarray(flat, np.float32) / 255.0 - 0.5


def turned_cuts(seen: Image, turn: int) -> Image:
    """The cuts of the board turned ``turn`` quarter turns anticlockwise (as ``np.rot90``
    turns the photo): the squares in their turned places, each turned too."""
    return np.ascontiguousarray(np.rot90(np.rot90(seen, turn, axes=(0, 1)), turn, axes=(2, 3)))


def cuts(flat: Image, n: int, which: npt.NDArray[np.bool_] | None = None) -> Floats:
    """Each square's cut, k × 3 × CUT × CUT, scaled for the network, row by row: of all the
    squares, or of those ``which`` (n × n) marks."""
    seen = seen_at(flat, n, reach=0)
    return for_network(seen if which is None else seen[which])


def far_side(corners: npt.NDArray[np.float32], n: int) -> tuple[float, float]:
    """The way (radians, in the straightened board: x right, y down) the board goes away from
    the camera, the way its squares are seen squeezed; and how squeezed: about the sine of the
    angle it is seen at from the table (1: from straight above)."""
    grid = np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32)
    homography = cv2.getPerspectiveTransform(grid, np.asarray(corners, np.float32))
    depth = homography[2]  # a point's third coordinate grows with its distance from the camera
    if depth @ (n / 2, n / 2, 1) < 0:
        homography, depth = -homography, -depth
    # How a small step from the board's centre is seen in the photo.
    x, y, w = homography @ (n / 2, n / 2, 1)
    step = (homography[:2, :2] - np.outer((x / w, y / w), depth[:2])) / w
    _, seen, ways = np.linalg.svd(step)
    away = ways[1] if ways[1] @ depth[:2] >= 0 else -ways[1]
    return float(np.arctan2(away[1], away[0])), float(seen[1] / seen[0])


def tops(
    wide: Image,
    corners: npt.NDArray[np.float32],
    n: int,
    upright: Floats,
    classify: Callable[[Floats], Floats],
) -> Offsets | None:
    """How far (pixels, x and y) each square's tile's top lies from it: the moves towards the
    far side whose squares with a tile, or beside one, read most surely (``upright`` is how
    they read unmoved), or None; none looked for in a board seen from well above."""
    tiled = upright[:, :, 0] < 0.9
    far, squeezed = far_side(corners, n)
    if not tiled.any() or squeezed > FROM_ABOVE:
        return None
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)
    near = cv2.dilate(tiled.astype(np.uint8), cross).astype(bool)
    best, chosen = float(upright[near].max(axis=1).sum()), None
    for towards in TOWARDS:
        for aside in ASIDE:
            dx = float(np.cos(far + aside)) * towards * SQUARE
            dy = float(np.sin(far + aside)) * towards * SQUARE
            for spread in SPREAD if towards >= SPREAD_FROM else SPREAD[:1]:
                offsets = spread_out(n, dx, dy, spread)
                seen = seen_at(wide, n, offsets)
                sureness = float(classify(for_network(seen[near])).max(axis=1).sum())
                if sureness > best:
                    best, chosen = sureness, offsets
    return chosen
