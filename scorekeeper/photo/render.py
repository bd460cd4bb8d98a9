"""Photos of boards, made up: the reader's training data, its tests' and the bench's.

A board is drawn from above (its design's squares, premium marks and labels, a raised grid on
a deluxe or old-style board, a wooden board's grain; tiles of a tile colour, or a board's tiles
all of one grained wood lettered in one font or of one tournament set's dark colour lettered
light, some yellowed or worn, with a letter in a bold or plain, sans or serif font and its
small value in a corner, some half off their squares), then photographed: put on a table
(plain, grained, or a check, striped or blotchy cloth) beside a score sheet or a rack, maybe a
rack or a hand at the board's edge, tiles standing up from the board (their sides seen and
their shadows cast, the more the steeper the view), seen at an angle up to about 40° through
a lens that bends straight lines, lit (tungsten or daylight, a lamp's warmth on one side, a
shadow, the soft shadow of a head or a phone, a glare on the glossy tiles), blurred or shaken,
grainy, and JPEG compressed, half of them twice (the phone's, then the page's), or as crisp
as a recent phone's. Everything is drawn from one seed, so the same seed makes the same photo.
Seeds from ``HELD_OUT`` on (the bench's) also letter tiles in fonts that training never sees.

Needs Pillow (the letters' fonts) besides OpenCV; the server itself never renders.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee import Ruleset
from scorekeeper.photo.drawing import (
    CELL,
    TABLES,
    TILE_COLOURS,
    Image,
    Printing,
    Tiles,
    TileSet,
    draw_board,
    tile_set,
    tournament_set,
)

# Seeds from VALIDATION on are never trained on: up to HELD_OUT the reader's own tests and
# the misreads its geometry was mended on; from HELD_OUT on the bench's, and nothing else's.
VALIDATION = 8_000_000
HELD_OUT = 9_000_000
NEWER_DESIGNS = 0.3  # of the crossword boards, a white or an old-style one
WOODEN_SETS = 0.35  # of the crossword boards, tiles all of one wooden set
TOURNAMENT_SETS = 0.25  # of the crossword boards, a tournament set (half on a tournament board)
INSET_PREMIUMS = 0.3  # of the crossword boards, premium squares printed inset (``draw_board``)
HUGGED_VALUES = 0.5  # of the crossword sets, values printed at the letter's foot (``draw_board``)
MARKED_BLANKS = 0.3  # of the crossword sets, a face or small print on each blank (``draw_board``)
TOOTHED_PREMIUMS = 0.3  # of the crossword boards, premium squares biting into their neighbours
FOLDING_BOARDS = 0.3  # of the crossword boards, a folding one, its hinge across its middle
CRISP_PHOTOS = 0.35  # of the photos not in a dark room, a recent phone's (``photograph``)
# Of a square: how far tiles' tops are seen from their squares from low down, at the board's
# centre and at most in its far row (a webcam at the table's edge sees them a fifth of a square
# towards the far side in the near rows, half to two thirds in the far ones).
LOW_TOPS = (0.3, 0.75)
# ... and how much further off than the centre's, of that, per square from it: one over the
# distance, in squares, from the centre to the point under the camera (a webcam at the
# table's edge, about 16; a phone held low over the near edge, 10; further back, 25).
LOW_SPREAD = (1 / 25, 1 / 10)


@dataclass(frozen=True)
class Photo:
    """A made-up photo and what it shows."""

    jpeg: bytes
    tiles: Tiles  # the top tile of each square that has one
    corners: list[tuple[float, float]]  # the grid's corners in the photo: TL, TR, BR, BL
    design: str
    tile_set: TileSet | None = None  # its tiles all of one set, wooden or a tournament set
    crisp: bool = False  # a recent phone's photo (``photograph``)
    # Of each tile, the quarter turns anticlockwise it is laid (all 0 unless ``facing``).
    laid: dict[tuple[int, int], int] = field(default_factory=dict)
    # How much further off than the centre's, per square from it, the tiles' tops are seen
    # (``draw_board``): 0 unless ``tops``.
    spread: float = 0.0

    @property
    def wooden(self) -> bool:
        return self.tile_set is not None and self.tile_set.ink is None

    @property
    def tournament(self) -> bool:
        return self.tile_set is not None and self.tile_set.ink is not None


def _lens(
    rng: random.Random, photo: npt.NDArray[np.float32], corners: list[tuple[float, float]]
) -> tuple[npt.NDArray[np.float32], list[tuple[float, float]]]:
    """A phone lens's barrel (or pincushion) distortion, and where the corners land."""
    height, width = photo.shape[:2]
    k = rng.uniform(-0.06, 0.04)
    cx, cy, norm = width / 2, height / 2, float(max(width, height)) / 2
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    ux, uy = (xx - cx) / norm, (yy - cy) / norm
    factor = 1 + k * (ux * ux + uy * uy)
    mapped = cv2.remap(
        photo,
        (ux * factor * norm + cx).astype(np.float32),
        (uy * factor * norm + cy).astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )
    moved = []
    for x, y in corners:
        # Where the lens puts the point: solved by a few fixed-point steps.
        px, py = (x - cx) / norm, (y - cy) / norm
        dx_, dy_ = px, py
        for _ in range(8):
            f = 1 + k * (dx_ * dx_ + dy_ * dy_)
            dx_, dy_ = px / f, py / f
        moved.append((dx_ * norm + cx, dy_ * norm + cy))
    return np.asarray(mapped, np.float32), moved


def _clutter(rng: random.Random, table: npt.NDArray[np.float32]) -> None:
    """A score sheet or a rack lying on the table, maybe under where the board will go."""
    height, width = table.shape[:2]
    for _ in range(rng.randint(0, 2)):
        w, h = rng.uniform(0.15, 0.4) * width, rng.uniform(0.08, 0.3) * height
        x, y = rng.uniform(-0.1, 0.9) * width, rng.uniform(-0.1, 0.9) * height
        box = cv2.boxPoints(((x, y), (w, h), rng.uniform(0, 90))).astype(np.int32)
        colour = rng.choice([(235, 235, 228), (40, 30, 25), (150, 110, 70), (200, 60, 50)])
        cv2.fillConvexPoly(table, box, colour)


def _cloth(rng: random.Random, table: npt.NDArray[np.float32]) -> None:
    """A busy table cloth: gingham checks, stripes or a blotchy print, in place."""
    height, width = table.shape[:2]
    other = np.array(rng.choice([(200, 40, 40), (240, 240, 235), (40, 70, 140), (60, 120, 60)]))
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = np.cos(angle) * xx + np.sin(angle) * yy
    v = -np.sin(angle) * xx + np.cos(angle) * yy
    period = rng.uniform(18, 90)
    kind = rng.randrange(3)
    if kind == 0:
        share = ((u % period) < period / 2).astype(np.float32) * 0.5
        share += ((v % period) < period / 2).astype(np.float32) * 0.5
    elif kind == 1:
        share = ((u % period) < period * rng.uniform(0.2, 0.6)).astype(np.float32)
    else:
        blots = np.random.default_rng(rng.randint(0, 2**31)).random(
            (int(height / period) + 2, int(width / period) + 2)
        )
        share = (cv2.resize(blots.astype(np.float32), (width, height)) > 0.6).astype(np.float32)
    table[:] = table * (1 - share[:, :, None]) + other * share[:, :, None]


def _board_polygon(
    homography: npt.NDArray[Any], points: list[tuple[float, float]]
) -> npt.NDArray[np.int32]:
    """Points in the board's drawing, where they land in the photo."""
    moved = cv2.perspectiveTransform(np.array([points], np.float32), homography)[0]
    return np.asarray(moved.round(), np.int32)


def _at_the_edge(
    rng: random.Random,
    photo: npt.NDArray[np.float32],
    homography: npt.NDArray[Any],
    side: int,
    margin: int,
) -> None:
    """A rack of tiles, or a hand, at one of the board's edges: over its frame and the table,
    short of the grid (a square under a hand can't be read, nor known)."""
    edge = rng.randrange(4)
    inner = margin * rng.uniform(0.0, 0.7)  # how far in over the frame

    def place(x: float, y: float) -> tuple[float, float]:
        # A point as if at the top edge (``y`` below ``margin`` is off the grid), turned.
        return [(x, y), (side - y, x), (side - x, side - y), (y, side - x)][edge]

    if rng.random() < 0.6:
        length = side * rng.uniform(0.35, 0.6)
        start = rng.uniform(0, side - length)
        height = CELL * rng.uniform(0.9, 1.3)
        corners = [
            (start, inner),
            (start + length, inner),
            (start + length, inner - height),
            (start, inner - height),
        ]
        wood = rng.choice([(150, 105, 60), (40, 40, 45), (170, 40, 40), (220, 215, 200)])
        cv2.fillConvexPoly(photo, _board_polygon(homography, [place(*p) for p in corners]), wood)
        for k in range(rng.randint(3, 7)):
            x = start + CELL * (0.2 + k * 1.05)
            if x + CELL * 0.9 > start + length:
                break
            tile = [
                (x, inner - height * 0.15),
                (x + CELL * 0.9, inner - height * 0.15),
                (x + CELL * 0.9, inner - height * 0.95),
                (x, inner - height * 0.95),
            ]
            polygon = _board_polygon(homography, [place(*p) for p in tile])
            cv2.fillConvexPoly(photo, polygon, rng.choice(TILE_COLOURS))
            centre = polygon.mean(axis=0).astype(int)
            # A letter's strokes, roughly: a rack's tiles are seen from the side and far.
            for _ in range(rng.randint(2, 3)):
                a, b = polygon[rng.randrange(4)], polygon[rng.randrange(4)]
                start_at = centre + (a - centre) * 0.4
                end_at = centre + (b - centre) * 0.4
                cv2.line(photo, tuple(map(int, start_at)), tuple(map(int, end_at)), (25, 25, 25), 2)
    else:
        skin = rng.choice([(225, 180, 150), (200, 150, 115), (140, 95, 65), (90, 60, 45)])
        x = rng.uniform(0.1, 0.9) * side
        palm = _board_polygon(
            homography,
            [
                place(x + CELL * 1.6 * np.cos(t), -CELL * 1.2 + CELL * 1.4 * np.sin(t))
                for t in np.linspace(0, 2 * np.pi, 24)
            ],
        )
        cv2.fillPoly(photo, [palm], skin)
        for f in range(rng.randint(1, 4)):
            fx = x + CELL * (f - 1.5) * 0.75
            finger = [
                (
                    fx + CELL * 0.28 * np.cos(t),
                    inner - CELL * 0.9 * (1 - np.sin(t)) / 2,
                )
                for t in np.linspace(0, 2 * np.pi, 16)
            ]
            cv2.fillPoly(
                photo,
                [_board_polygon(homography, [place(*p) for p in finger])],
                tuple(c * 0.95 for c in skin),
            )


def photograph(
    rng: random.Random,
    board: Image,
    n: int,
    margin: int,
    lean: tuple[float, float] = (0.0, 0.0),
    steep: bool = False,
    dim: bool = False,
    crisp: random.Random | None = None,
) -> tuple[Image, list[tuple[float, float]]]:
    """The board on a table, seen by a phone at an angle in some light; and the grid's corners.
    ``lean`` says which way the camera leans (the board's far side, in its pixels). With
    ``steep``, the phone is held well to one side (the board seen 40° to 60° from above, its
    far rows a sliver); with ``dim``, the room is dark (the photo dark and grainy); with
    ``crisp`` (a stream of its own), a recent phone's photo: in focus, still, hardly grainy,
    and sharpened as phones do."""
    side = board.shape[0]
    width = rng.randint(1000, 1600)
    height = int(width * rng.uniform(0.72, 1.33))
    table = np.zeros((height, width, 3), np.float32)
    table[:] = rng.choice(TABLES)
    if rng.random() < 0.3:
        _cloth(rng, table)
    if rng.random() < 0.5:
        _clutter(rng, table)
    grain = cv2.resize(
        np.random.default_rng(rng.randint(0, 2**31))
        .normal(0, 14, (height // 16 + 1, width // 4 + 1, 1))
        .astype(np.float32),
        (width, height),
    )
    table += grain[:, :, None] if grain.ndim == 2 else grain
    # Where the board lands: a quadrilateral filling much of the photo, tilted and turned.
    # The whole board in the frame, as docs/playing.md asks of a photo.
    scale = min(width, height) * rng.uniform(0.58, 0.82)
    cx, cy = (
        width / 2 + rng.uniform(-0.05, 0.05) * width,
        height / 2 + rng.uniform(-0.05, 0.05) * height,
    )
    turn = np.deg2rad(rng.uniform(-15, 15))
    # How much shorter the far edge looks: up to about a 40° slant; the far side is the one
    # the tiles lean towards.
    tilt = rng.uniform(0, 0.4) if rng.random() < 0.7 else rng.uniform(0, 0.12)
    # Seen from further to the side, the board also looks shallower than it is wide.
    squash = 1.0
    if steep:
        tilt, squash = rng.uniform(0.25, 0.45), rng.uniform(0.5, 0.8)
    lx, ly = lean
    lean_turn = np.arctan2(lx, -ly) if (lx or ly) else 0.0

    def seen(bx: float, by: float) -> tuple[float, float]:
        return bx * (1 - tilt * (0.5 - by)), by * (1 - tilt * 0.5) * squash

    square = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    # The square seen so, as a perspective: a board seen from well to the side along its
    # diagonal is seen shorter on the far side too, as the tops lean (the square's corners
    # put through ``seen`` would make a kite, no side of it further than the other).
    view = cv2.getPerspectiveTransform(
        np.array(square, np.float32), np.array([seen(*p) for p in square], np.float32)
    )
    quad = []
    for x, y in square:
        # Seen from the lean's side: the board's coordinates turned so its far side is up.
        bx = x * np.cos(lean_turn) + y * np.sin(lean_turn)
        by = -x * np.sin(lean_turn) + y * np.cos(lean_turn)
        if steep:
            xs, ys = (float(v) * scale for v in cv2.perspectiveTransform(
                np.array([[(bx, by)]], np.float32), view)[0, 0])  # fmt: skip
        else:
            xs, ys = (v * scale for v in seen(bx, by))
        xs += rng.uniform(-0.015, 0.015) * scale
        ys += rng.uniform(-0.015, 0.015) * scale
        # Turned back, then turned on the table.
        ax = xs * np.cos(lean_turn) - ys * np.sin(lean_turn)
        ay = xs * np.sin(lean_turn) + ys * np.cos(lean_turn)
        quad.append(
            (cx + ax * np.cos(turn) - ay * np.sin(turn), cy + ax * np.sin(turn) + ay * np.cos(turn))
        )
    if steep:
        # Held to the side, a phone is turned to fill its frame with the board's width: as
        # large as still fits.
        spread = max(max(abs(x - cx) / (width / 2), abs(y - cy) / (height / 2)) for x, y in quad)
        grow = rng.uniform(0.85, 0.97) / spread
        quad = [(cx + (x - cx) * grow, cy + (y - cy) * grow) for x, y in quad]
    src = np.array([(0, 0), (side, 0), (side, side), (0, side)], np.float32)
    homography = cv2.getPerspectiveTransform(src, np.array(quad, np.float32))
    warped = cv2.warpPerspective(board, homography, (width, height), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones((side, side), np.float32), homography, (width, height))
    photo = table * (1 - mask[:, :, None]) + warped.astype(np.float32) * mask[:, :, None]
    grid = np.array(
        [
            [
                (margin, margin),
                (side - margin, margin),
                (side - margin, side - margin),
                (margin, side - margin),
            ]
        ],
        np.float32,
    )
    corners = [(float(x), float(y)) for x, y in cv2.perspectiveTransform(grid, homography)[0]]
    if rng.random() < 0.35:
        _at_the_edge(rng, photo, homography, side, margin)
    if rng.random() < 0.7:
        photo, corners = _lens(rng, photo, corners)
    # Light: a colour cast (tungsten to shade), a gradient, a shadow, a glare, a vignette.
    cast = rng.choice(
        [
            (1.0, 1.0, 1.0),
            (1.0, 0.88, 0.7),
            (1.0, 0.8, 0.55),
            (0.92, 0.97, 1.05),
            (0.85, 0.95, 1.1),
            (1.05, 0.95, 0.85),
            (0.95, 1.03, 0.95),
        ]
    )
    photo *= np.array(cast, np.float32) * (
        rng.uniform(0.35, 0.7) if dim else rng.uniform(0.65, 1.15)
    )
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = np.cos(angle) * xx / width + np.sin(angle) * yy / height
    photo *= (1 + rng.uniform(0, 0.45) * (ramp - ramp.mean()))[:, :, None]
    if rng.random() < 0.3:
        # Uneven tungsten: a warm lamp on one side, the room's cooler light on the other.
        warm = np.clip(ramp - ramp.min(), 0, None) / (np.ptp(ramp) + 1e-6)
        lamp = np.array([1.0, rng.uniform(0.75, 0.9), rng.uniform(0.5, 0.7)], np.float32)
        photo *= 1 + warm[:, :, None] * (lamp - 1)
    if rng.random() < 0.3:
        # The shadow of the head or the phone over the board: soft, round or a rounded oblong.
        shade = np.zeros((height, width), np.float32)
        centre = (int(rng.uniform(0.2, 0.8) * width), int(rng.uniform(0.2, 0.8) * height))
        axes = (int(rng.uniform(0.1, 0.3) * width), int(rng.uniform(0.1, 0.35) * height))
        cv2.ellipse(shade, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        shade = np.asarray(cv2.GaussianBlur(shade, (0, 0), rng.uniform(6, 30)), np.float32)
        photo *= (1 - rng.uniform(0.25, 0.6) * shade)[:, :, None]
    if rng.random() < 0.5:
        sx, sy = rng.uniform(0, width), rng.uniform(0, height)
        shadow = np.zeros((height, width), np.float32)
        pts = np.array(
            [
                (sx + rng.uniform(-1, 1) * width * 0.6, sy + rng.uniform(-1, 1) * height * 0.6)
                for _ in range(4)
            ],
            np.int32,
        )
        cv2.fillConvexPoly(shadow, cv2.convexHull(pts), 1.0)
        shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), rng.uniform(4, 40)), np.float32)
        photo *= (1 - rng.uniform(0.2, 0.55) * shadow)[:, :, None]
    if rng.random() < 0.5:
        gx, gy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
        r2 = ((xx - gx) ** 2 + (yy - gy) ** 2) / (rng.uniform(0.03, 0.14) * width) ** 2
        photo += (rng.uniform(60, 160) * np.exp(-r2))[:, :, None]
    if rng.random() < 0.5:
        r2 = ((xx - width / 2) ** 2 + (yy - height / 2) ** 2) / (0.5 * max(width, height)) ** 2
        photo *= (1 - rng.uniform(0.1, 0.35) * r2)[:, :, None]
    photo = np.clip(photo, 0, 255)
    blur = rng.uniform(0, 1.8)
    if blur > 0.3 and crisp is None:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    if rng.random() < 0.3 and crisp is None:
        # Shake: a short streak.
        length = rng.randint(3, 11)
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        photo = cv2.filter2D(photo, -1, cv2.warpAffine(kernel, rot, (length, length)))
    noise = np.random.default_rng(rng.randint(0, 2**31))
    grainy = rng.uniform(4, 12) if dim else rng.uniform(1, 8)
    if crisp is not None:
        # A phone's own noise reduction and sharpening: little grain, edges with a halo.
        grainy = crisp.uniform(0.5, 2.5)
        soft = cv2.GaussianBlur(photo, (0, 0), crisp.uniform(1.0, 2.0))
        photo = photo + crisp.uniform(0.2, 0.9) * (photo - soft)
    photo += noise.normal(0, grainy, photo.shape).astype(np.float32)
    if dim and rng.random() < 0.6:
        # The phone's noise reduction, smearing the grain and the letters' edges alike.
        photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.6, 1.2))
    return np.clip(photo, 0, 255).astype(np.uint8), corners


def low_tops(rng: random.Random) -> tuple[float, float]:
    """Which way and how far (of a square, x and y) the tiles' tops lie from their squares in a
    photo taken from low down, for ``render``'s ``tops``."""
    heading, off = rng.uniform(0, 2 * math.pi), rng.uniform(*LOW_TOPS)
    return (math.sin(heading) * off, -math.cos(heading) * off)


def random_tiles(
    rng: random.Random, ruleset: Ruleset, fill: float, blanks: int | None = 2
) -> Tiles:
    """Tiles on about ``fill`` of the squares, letters at random (a blank now and then, at most
    ``blanks`` of them as in a set; ``None``: as many as come, as training draws them)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    tiles: Tiles = {}
    drawn = 0
    for r in range(ruleset.size):
        for c in range(ruleset.size):
            if rng.random() < fill:
                blank = ruleset.family == "crossword" and rng.random() < 0.03
                if blank and (blanks is None or drawn < blanks):
                    drawn += 1
                    tiles[(r, c)] = "?"
                elif ruleset.family != "crossword" and rng.random() < 0.03:
                    tiles[(r, c)] = "QU"
                else:
                    tiles[(r, c)] = rng.choice(letters)
    return tiles


def encode(rgb: Image, quality: int) -> bytes:
    ok, data = cv2.imencode(
        ".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality]
    )
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return bytes(data.tobytes())


def printing(seed: int, tournament: bool = False) -> Printing:
    """What a crossword board and its set print besides (``Printing``), each from a stream of
    the seed's own, so that adding one left every photo drawn before it as it was; a
    ``tournament`` set prints its values in the corner, never at the letter's foot."""
    looks = random.Random(f"{seed}/looks")
    inset = looks.uniform(0.06, 0.14) if looks.random() < INSET_PREMIUMS else 0.0
    values = random.Random(f"{seed}/values")
    blanks = random.Random(f"{seed}/blanks")
    blank_face = None
    if blanks.random() < MARKED_BLANKS:
        blank_face = (blanks.choice(["smiley", "print"]), blanks)
    biting = random.Random(f"{seed}/teeth")
    hinge = random.Random(f"{seed}/fold")
    return Printing(
        inset,
        teeth=biting if biting.random() < TOOTHED_PREMIUMS else None,
        hugged=values if values.random() < HUGGED_VALUES and not tournament else None,
        blank_face=blank_face,
        fold=hinge if hinge.random() < FOLDING_BOARDS else None,
    )


def render(
    seed: int,
    ruleset: Ruleset,
    tiles: Tiles,
    design: str | None = None,
    facing: bool = False,
    steep: bool = False,
    dim: bool = False,
    tops: tuple[float, float] | None = None,
    newer: bool = True,
) -> Photo:
    """A photo of ``ruleset``'s board holding ``tiles``, everything else drawn from ``seed``;
    with ``facing``, each tile laid facing one of the board's sides (``draw_board``); with
    ``steep`` and ``dim``, seen from well to the side and in a dark room (``photograph``);
    with ``tops``, the tiles' tops seen that far (of a square, x and y) from their squares at the
    board's centre, further off further from the camera (``LOW_SPREAD``), the far side of the
    photo that way; ``newer=False``, without the white, old-style and tournament
    boards, the wooden and tournament sets, the inset premium squares, the values at the letters'
    feet, the marked blanks, the premium squares' teeth and the crisp photos (the photo a seed
    made before they were drawn)."""
    rng = random.Random(seed)
    # The board designs and tile sets added later draw from a stream of their own, so that the
    # photos drawn before them stay as they were.
    extra = random.Random(f"{seed}/sets")
    chosen_design = design
    if design is None:
        design = (
            "upwords"
            if ruleset.family != "crossword"
            else rng.choice(["red", "green", "deluxe", "wooden"])
        )
        if design != "upwords" and extra.random() < NEWER_DESIGNS and newer:
            design = extra.choice(["white", "vintage"])
    one_set = None
    if ruleset.family == "crossword" and extra.random() < WOODEN_SETS and newer:
        one_set = tile_set(extra, unseen=seed >= HELD_OUT)
    tournament = random.Random(f"{seed}/tournament")
    if ruleset.family == "crossword" and newer and tournament.random() < TOURNAMENT_SETS:
        one_set = tournament_set(tournament)
        if chosen_design is None and tournament.random() < 0.5:
            design = "tournament"
    # The tiles' tops seen moved towards the photo's far side, by up to a sixth of a square.
    heading = rng.uniform(0, 2 * np.pi)
    depth = CELL * (rng.uniform(0.12, 0.3) if steep else rng.uniform(0.0, 0.17))
    lean = (float(np.sin(heading) * depth), float(-np.cos(heading) * depth))
    spread = 0.0
    if tops is not None:
        lean = (tops[0] * CELL, tops[1] * CELL)
        spread = random.Random(f"{seed}/spread").uniform(*LOW_SPREAD)
        # The far row's tops no further off than ``LOW_TOPS`` allows: further off than the
        # reader looks, a view from as low as that is not one to read a board from.
        furthest = LOW_TOPS[1] / max(math.hypot(*tops), 1e-6) - 1
        spread = max(0.0, min(spread, furthest / (ruleset.size / 2 - 0.5)))
    laid: dict[tuple[int, int], int] = {}
    board = draw_board(
        rng,
        ruleset,
        tiles,
        design,
        lean,
        seed >= HELD_OUT,
        facing,
        one_set,
        extra,
        printing(seed, one_set is not None and one_set.ink is not None)
        if ruleset.family == "crossword" and newer
        else None,
        laid,
        spread,
    )
    margin = (board.shape[0] - ruleset.size * CELL) // 2
    stream = random.Random(f"{seed}/crisp")
    crisp = stream if newer and not dim and stream.random() < CRISP_PHOTOS else None
    rgb, corners = photograph(rng, board, ruleset.size, margin, lean, steep, dim, crisp)
    if rng.random() < 0.5:
        # The phone's own JPEG, then the page's JPEG of it.
        first = cv2.imdecode(np.frombuffer(encode(rgb, rng.randint(75, 95)), np.uint8), 1)
        rgb = np.asarray(cv2.cvtColor(np.asarray(first), cv2.COLOR_BGR2RGB), np.uint8)
    quality = rng.randint(40, 92)
    if crisp is not None:
        quality = crisp.randint(80, 92)  # the scorer page's own JPEG, of a photo worth reading
    return Photo(
        encode(rgb, quality), tiles, corners, design, one_set, crisp is not None, laid, spread
    )


def as_file(photo: Photo) -> io.BytesIO:
    return io.BytesIO(photo.jpeg)
