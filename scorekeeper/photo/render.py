"""Photos of boards, made up: the reader's training data, its tests' and the bench's.

A board is drawn from above (its design's squares and premium marks, tiles of a tile colour
with a letter and a value, some half off their squares), then photographed: put on a table,
seen at an angle, lit (tungsten or daylight, a shadow, a glare), blurred, grainy and JPEG
compressed. Everything is drawn from one seed, so the same seed makes the same photo.

Needs Pillow (the letters' fonts) besides OpenCV; the server itself never renders.
"""

from __future__ import annotations

import io
import os
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee import Ruleset

Image = npt.NDArray[np.uint8]
Tiles = dict[tuple[int, int], str]  # (row, col) -> "A".."Z", "?" (a blank) or "QU"

CELL = 44  # pixels a square, drawn from above

# Board designs: frame, plain square, grid line, premium squares (DL, TL, DW, TW), their text.
DESIGNS: dict[str, dict[str, Any]] = {
    "red": {
        "frame": (150, 30, 35),
        "square": (205, 200, 175),
        "line": (235, 235, 225),
        "premium": {
            "DL": (160, 200, 225),
            "TL": (40, 110, 175),
            "DW": (235, 170, 170),
            "TW": (200, 40, 40),
        },
        "text": (40, 40, 40),
    },
    "green": {
        "frame": (25, 90, 55),
        "square": (50, 130, 85),
        "line": (200, 215, 200),
        "premium": {
            "DL": (150, 200, 230),
            "TL": (30, 90, 170),
            "DW": (235, 160, 160),
            "TW": (210, 50, 40),
        },
        "text": (245, 245, 245),
    },
    "deluxe": {
        "frame": (60, 25, 30),
        "square": (40, 45, 60),
        "line": (120, 120, 130),
        "premium": {
            "DL": (90, 140, 190),
            "TL": (30, 70, 150),
            "DW": (190, 90, 110),
            "TW": (160, 30, 40),
        },
        "text": (230, 230, 230),
    },
    "wooden": {
        "frame": (110, 70, 40),
        "square": (170, 125, 80),
        "line": (90, 60, 35),
        "premium": {
            "DL": (120, 150, 170),
            "TL": (60, 90, 140),
            "DW": (190, 110, 90),
            "TW": (150, 50, 40),
        },
        "text": (40, 25, 15),
    },
    "upwords": {
        "frame": (70, 70, 75),
        "square": (110, 110, 118),
        "line": (45, 45, 50),
        "premium": {},
        "text": (0, 0, 0),
    },
}
TILE_COLOURS = [(238, 226, 196), (244, 236, 214), (230, 210, 170), (250, 246, 235), (222, 200, 160)]
INK_COLOURS = [(20, 20, 20), (45, 30, 20), (10, 10, 40)]
TABLES = [(120, 85, 55), (60, 60, 65), (30, 60, 40), (200, 195, 185), (90, 50, 40), (160, 150, 140)]
_FONT_FILES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf",
]
VALUES = dict(
    zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        [1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10],
        strict=True,
    )
)


@dataclass(frozen=True)
class Photo:
    """A made-up photo and what it shows."""

    jpeg: bytes
    tiles: Tiles  # the top tile of each square that has one
    corners: list[tuple[float, float]]  # the grid's corners in the photo: TL, TR, BR, BL
    design: str


def fonts() -> list[str]:
    """The font files on this machine that tiles are lettered with."""
    return [f for f in _FONT_FILES if os.path.exists(f)]


@cache
def _font(path: str | None, size: int) -> Any:
    from PIL import ImageFont

    if path is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(path, size)


def _tile_image(rng: random.Random, tile: str, size: int, upwords: bool) -> Image:
    """One tile from above, ``size`` pixels square, with its alpha channel."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    colour = tuple(max(0, min(255, c + rng.randint(-12, 12))) for c in rng.choice(TILE_COLOURS))
    img = PILImage.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = rng.randint(1, max(2, size // 8))
    edge = tuple(int(c * 0.8) for c in colour)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius, fill=(*edge, 255))
    bevel = max(1, size // 18)
    draw.rounded_rectangle(
        (bevel, bevel, size - 1 - bevel, size - 1 - bevel), radius, fill=(*colour, 255)
    )
    if tile != "?":
        paths = fonts()
        font_path = rng.choice(paths) if paths else None
        text = "Qu" if tile == "QU" else tile
        letter_size = int(size * rng.uniform(0.55, 0.72) * (0.8 if tile == "QU" else 1.0))
        font = _font(font_path, letter_size)
        ink = rng.choice(INK_COLOURS)
        cx = size * rng.uniform(0.44, 0.5)
        cy = size * rng.uniform(0.45, 0.52)
        draw.text((cx, cy), text, font=font, fill=(*ink, 255), anchor="mm")
        if not upwords and tile in VALUES:
            small = _font(font_path, max(6, int(size * 0.22)))
            draw.text(
                (size * 0.82, size * 0.8),
                str(VALUES[tile]),
                font=small,
                fill=(*ink, 255),
                anchor="mm",
            )
    return np.asarray(img, dtype=np.uint8)


def draw_board(rng: random.Random, ruleset: Ruleset, tiles: Tiles, design: str) -> Image:
    """The board from above, RGB: a frame around the grid of ``CELL``-pixel squares."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    d = DESIGNS[design]
    n = ruleset.size
    margin = int(CELL * rng.uniform(0.4, 1.2))
    side = n * CELL + 2 * margin
    img = PILImage.new("RGB", (side, side), d["frame"])
    draw = ImageDraw.Draw(img)
    line = max(1, int(CELL * rng.uniform(0.04, 0.1)))
    draw.rectangle((margin, margin, side - margin, side - margin), fill=d["line"])
    fonts_here = fonts()
    label_font = _font(fonts_here[0] if fonts_here else None, max(6, CELL // 5))
    for r in range(n):
        for c in range(n):
            mark = ruleset.premium(r, c) if ruleset.scoring == "premium" else ""
            colour = d["premium"].get(mark, d["square"])
            colour = tuple(max(0, min(255, v + rng.randint(-6, 6))) for v in colour)
            x0, y0 = margin + c * CELL, margin + r * CELL
            draw.rectangle(
                (
                    x0 + line // 2,
                    y0 + line // 2,
                    x0 + CELL - 1 - line // 2,
                    y0 + CELL - 1 - line // 2,
                ),
                fill=colour,
            )
            if mark and rng.random() < 0.7:
                words = {
                    "DL": "DOUBLE\nLETTER",
                    "TL": "TRIPLE\nLETTER",
                    "DW": "DOUBLE\nWORD",
                    "TW": "TRIPLE\nWORD",
                }[mark]
                text = words if rng.random() < 0.6 else mark
                draw.multiline_text(
                    (x0 + CELL / 2, y0 + CELL / 2),
                    text,
                    font=label_font,
                    fill=d["text"],
                    anchor="mm",
                    align="center",
                )
    board = np.asarray(img, dtype=np.uint8).copy()
    upwords = ruleset.family != "crossword"
    for (r, c), tile in tiles.items():
        size = int(CELL * rng.uniform(0.86, 0.97))
        timg = _tile_image(rng, tile, size, upwords)
        angle = rng.uniform(-7, 7)
        # Tiles lie near their squares' centres; now and then one half off its square.
        off = 0.3 if rng.random() < 0.1 else 0.08
        cx = margin + (c + 0.5 + rng.uniform(-off, off)) * CELL
        cy = margin + (r + 0.5 + rng.uniform(-off, off)) * CELL
        # Drawn into a patch around the tile, not the whole board: a board holds a hundred.
        x0, y0 = max(0, int(cx - size)), max(0, int(cy - size))
        x1, y1 = min(side, int(cx + size)), min(side, int(cy + size))
        rot = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
        rot[0, 2] += cx - size / 2 - x0
        rot[1, 2] += cy - size / 2 - y0
        warped = cv2.warpAffine(timg, rot, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        alpha = warped[:, :, 3:4].astype(np.float32) / 255
        # A soft shadow down and to the right of the tile.
        shadow = np.roll(alpha, (max(1, size // 20), max(1, size // 20)), axis=(0, 1))
        patch = board[y0:y1, x0:x1].astype(np.float32) * (1 - 0.35 * shadow)
        patch = patch * (1 - alpha) + warped[:, :, :3] * alpha
        board[y0:y1, x0:x1] = patch.astype(np.uint8)
    return board


def photograph(
    rng: random.Random, board: Image, n: int, margin: int
) -> tuple[Image, list[tuple[float, float]]]:
    """The board on a table, seen by a phone at an angle in some light; and the grid's corners."""
    side = board.shape[0]
    width = rng.randint(1100, 1600)
    height = int(width * rng.uniform(0.72, 1.33))
    table = np.zeros((height, width, 3), np.float32)
    table[:] = rng.choice(TABLES)
    grain = cv2.resize(
        np.random.default_rng(rng.randint(0, 2**31))
        .normal(0, 14, (height // 16 + 1, width // 4 + 1, 1))
        .astype(np.float32),
        (width, height),
    )
    table += grain[:, :, None] if grain.ndim == 2 else grain
    # Where the board lands: a quadrilateral filling much of the photo, tilted and turned.
    # The whole board in the frame, as docs/playing.md asks of a photo.
    scale = min(width, height) * rng.uniform(0.62, 0.8)
    cx, cy = (
        width / 2 + rng.uniform(-0.05, 0.05) * width,
        height / 2 + rng.uniform(-0.05, 0.05) * height,
    )
    turn = np.deg2rad(rng.uniform(-12, 12))
    tilt = rng.uniform(0, 0.22)  # the far edge looks shorter
    quad = []
    for x, y in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]:
        xs = x * (1 - tilt * (0.5 - y)) * scale
        ys = y * (1 - tilt * 0.4) * scale
        xs += rng.uniform(-0.015, 0.015) * scale
        ys += rng.uniform(-0.015, 0.015) * scale
        quad.append(
            (cx + xs * np.cos(turn) - ys * np.sin(turn), cy + xs * np.sin(turn) + ys * np.cos(turn))
        )
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
    # Light: a colour cast, a gradient, a shadow, a glare.
    cast = rng.choice([(1.0, 1.0, 1.0), (1.0, 0.88, 0.7), (0.92, 0.97, 1.05), (1.05, 0.95, 0.85)])
    photo *= np.array(cast, np.float32) * rng.uniform(0.75, 1.15)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = np.cos(angle) * xx / width + np.sin(angle) * yy / height
    photo *= (1 + rng.uniform(0, 0.35) * (ramp - ramp.mean()))[:, :, None]
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
        shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), rng.uniform(10, 40)), np.float32)
        photo *= (1 - rng.uniform(0.2, 0.5) * shadow)[:, :, None]
    if rng.random() < 0.4:
        gx, gy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
        r2 = ((xx - gx) ** 2 + (yy - gy) ** 2) / (rng.uniform(0.03, 0.12) * width) ** 2
        photo += (rng.uniform(60, 140) * np.exp(-r2))[:, :, None]
    photo = np.clip(photo, 0, 255)
    blur = rng.uniform(0, 1.6)
    if blur > 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    photo += (
        np.random.default_rng(rng.randint(0, 2**31))
        .normal(0, rng.uniform(1, 7), photo.shape)
        .astype(np.float32)
    )
    return np.clip(photo, 0, 255).astype(np.uint8), corners


def random_tiles(rng: random.Random, ruleset: Ruleset, fill: float) -> Tiles:
    """Tiles on about ``fill`` of the squares, letters at random (a blank now and then)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    tiles: Tiles = {}
    for r in range(ruleset.size):
        for c in range(ruleset.size):
            if rng.random() < fill:
                if ruleset.family == "crossword" and rng.random() < 0.03:
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


def render(seed: int, ruleset: Ruleset, tiles: Tiles, design: str | None = None) -> Photo:
    """A photo of ``ruleset``'s board holding ``tiles``, everything else drawn from ``seed``."""
    rng = random.Random(seed)
    if design is None:
        design = (
            "upwords"
            if ruleset.family != "crossword"
            else rng.choice(["red", "green", "deluxe", "wooden"])
        )
    board = draw_board(rng, ruleset, tiles, design)
    margin = (board.shape[0] - ruleset.size * CELL) // 2
    rgb, corners = photograph(rng, board, ruleset.size, margin)
    return Photo(encode(rgb, rng.randint(55, 92)), tiles, corners, design)


def as_file(photo: Photo) -> io.BytesIO:
    return io.BytesIO(photo.jpeg)
