"""Photos of boards, made up: the reader's training data, its tests' and the bench's.

A board is drawn from above (its design's squares, premium marks and labels, a raised grid on
a deluxe board, a wooden board's grain; tiles of a tile colour, some yellowed or worn, with a
letter in a bold or plain, sans or serif font and its small value in a corner, some half off
their squares), then photographed: put on a table (plain, grained, or a check, striped or
blotchy cloth) beside a score sheet or a rack, maybe a rack or a hand at the board's edge,
tiles standing up from the board (their sides seen and their shadows cast, the more the
steeper the view), seen at an angle up to about 40° through a lens that bends straight lines,
lit (tungsten or daylight, a lamp's warmth on one side, a shadow, the soft shadow of a head
or a phone, a glare on the glossy tiles), blurred or shaken, grainy, and JPEG compressed, half
of them twice (the phone's, then the page's). Everything is drawn from one seed, so the same
seed makes the same photo. Seeds from ``HELD_OUT`` on (the bench's) also letter tiles in fonts
that training never sees.

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
# Seeds from VALIDATION on are never trained on: up to HELD_OUT the reader's own tests and
# the misreads its geometry was mended on; from HELD_OUT on the bench's, and nothing else's.
VALIDATION = 8_000_000
HELD_OUT = 9_000_000

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
        "raised": True,
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
        "grain": True,
    },
    "upwords": {
        "frame": (70, 70, 75),
        "square": (110, 110, 118),
        "line": (45, 45, 50),
        "premium": {},
        "text": (0, 0, 0),
        "raised": True,
    },
}
LABELS = {
    "DL": ["DOUBLE\nLETTER\nSCORE", "DOUBLE\nLETTER", "DL", "2L", "2×\nLETTER"],
    "TL": ["TRIPLE\nLETTER\nSCORE", "TRIPLE\nLETTER", "TL", "3L", "3×\nLETTER"],
    "DW": ["DOUBLE\nWORD\nSCORE", "DOUBLE\nWORD", "DW", "2W", "2×\nWORD"],
    "TW": ["TRIPLE\nWORD\nSCORE", "TRIPLE\nWORD", "TW", "3W", "3×\nWORD"],
}
TILE_COLOURS = [
    (238, 226, 196),
    (244, 236, 214),
    (230, 210, 170),
    (250, 246, 235),
    (222, 200, 160),
    (215, 185, 135),  # wood
    (235, 235, 232),  # white plastic
]
INK_COLOURS = [(20, 20, 20), (45, 30, 20), (10, 10, 40), (60, 55, 50)]
TABLES = [(120, 85, 55), (60, 60, 65), (30, 60, 40), (200, 195, 185), (90, 50, 40), (160, 150, 140)]
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu/", "/usr/share/fonts/truetype/liberation/")
_FONT_NAMES = [
    "DejaVuSans-Bold.ttf",
    "DejaVuSans.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerifCondensed-Bold.ttf",
    "DejaVuSansMono-Bold.ttf",
    "LiberationSans-Bold.ttf",
    "LiberationSans-Regular.ttf",
    "LiberationSerif-Bold.ttf",
    "LiberationSansNarrow-Bold.ttf",
    "LiberationMono-Bold.ttf",
    "DejaVuSerifCondensed.ttf",
    "DejaVuSansMono.ttf",
    "LiberationSansNarrow-Regular.ttf",
    "LiberationMono-Regular.ttf",
]
# Fonts only the held-out seeds letter tiles in: how the reader does on a font it never saw.
_UNSEEN_FONTS = ["LiberationSerif-Regular.ttf", "DejaVuSerif.ttf", "DejaVuSansCondensed.ttf"]
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


def fonts(unseen: bool = False) -> list[str]:
    """The font files on this machine that tiles are lettered with (``unseen``: and those
    only held-out photos use)."""
    names = _FONT_NAMES + (_UNSEEN_FONTS if unseen else [])
    return [d + f for f in names for d in _FONT_DIRS if os.path.exists(d + f)]


@cache
def _font(path: str | None, size: int) -> Any:
    from PIL import ImageFont

    if path is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(path, size)


def _tile_image(rng: random.Random, tile: str, size: int, upwords: bool, unseen: bool) -> Image:
    """One tile's top from above, ``size`` pixels square, with its alpha channel."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    colour = tuple(max(0, min(255, c + rng.randint(-14, 14))) for c in rng.choice(TILE_COLOURS))
    if rng.random() < 0.3:
        # An old set's tile, yellowed.
        age = rng.uniform(0.05, 0.25)
        colour = (colour[0], int(colour[1] * (1 - age / 2)), int(colour[2] * (1 - age)))
    img = PILImage.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = rng.randint(1, max(2, size // 6))
    edge = tuple(int(c * rng.uniform(0.7, 0.92)) for c in colour)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius, fill=(*edge, 255))
    bevel = max(1, int(size * rng.uniform(0.03, 0.09)))
    draw.rounded_rectangle(
        (bevel, bevel, size - 1 - bevel, size - 1 - bevel), radius, fill=(*colour, 255)
    )
    if tile != "?":
        paths = fonts(unseen)
        font_path = rng.choice(paths) if paths else None
        text = "Qu" if tile == "QU" else tile
        letter_size = int(size * rng.uniform(0.5, 0.74) * (0.8 if tile == "QU" else 1.0))
        font = _font(font_path, letter_size)
        ink = rng.choice(INK_COLOURS)
        # Some sets print their letters heavier than any font here: the strokes thickened.
        stroke = 1 if rng.random() < 0.15 else 0
        with_value = not upwords and tile in VALUES
        cx = size * (rng.uniform(0.4, 0.48) if with_value else rng.uniform(0.46, 0.54))
        cy = size * rng.uniform(0.44, 0.54)
        draw.text(
            (cx, cy),
            text,
            font=font,
            fill=(*ink, 255),
            anchor="mm",
            stroke_width=stroke,
            stroke_fill=(*ink, 255),
        )
        if with_value:
            small = _font(
                rng.choice(paths) if paths else None, max(6, int(size * rng.uniform(0.18, 0.3)))
            )
            draw.text(
                (size * rng.uniform(0.74, 0.88), size * rng.uniform(0.7, 0.86)),
                str(VALUES[tile]),
                font=small,
                fill=(*ink, 255),
                anchor="mm",
            )
    if rng.random() < 0.25:
        # Worn: the ink rubbed off in places and the face smudged.
        worn = np.asarray(img, np.float32)
        spots = np.random.default_rng(rng.randint(0, 2**31)).random((size // 4 + 1, size // 4 + 1))
        wear = cv2.resize(spots.astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
        fade = np.clip((wear - rng.uniform(0.5, 0.8)) * 3, 0, 0.6)[:, :, None]
        worn[:, :, :3] = worn[:, :, :3] * (1 - fade) + np.array(colour, np.float32) * fade
        return np.clip(worn, 0, 255).astype(np.uint8)
    return np.asarray(img, dtype=np.uint8)


def _grain(rng: random.Random, shape: tuple[int, int], strength: float) -> npt.NDArray[np.float32]:
    """Wood grain: streaks along one axis, ``strength`` their brightness swing."""
    noise = np.random.default_rng(rng.randint(0, 2**31)).normal(0, 1, (shape[0] // 2 + 1, 6))
    streaks = cv2.resize(
        noise.astype(np.float32), (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC
    )
    return np.asarray(1 + strength * np.tanh(streaks), np.float32)


def draw_board(
    rng: random.Random,
    ruleset: Ruleset,
    tiles: Tiles,
    design: str,
    lean: tuple[float, float] = (0.0, 0.0),
    unseen: bool = False,
) -> Image:
    """The board from above, RGB: a frame around the grid of ``CELL``-pixel squares. Tiles
    stand up from it: ``lean`` (pixels, x and y) is how far their tops are seen moved from
    their bases, which shows a side of each, and their shadows fall the other way."""
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
    label_font = _font(
        rng.choice(fonts_here) if fonts_here else None, max(6, int(CELL * rng.uniform(0.15, 0.22)))
    )
    short_font = _font(
        label_font.path if fonts_here else None, max(8, int(CELL * rng.uniform(0.25, 0.38)))
    )
    style = rng.randrange(len(LABELS["DL"]))
    centre = n // 2
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
            if ruleset.scoring == "premium" and (r, c) == (centre, centre) and rng.random() < 0.8:
                # The centre star.
                radius = CELL * 0.32
                points = [
                    (
                        x0
                        + CELL / 2
                        + radius * (1 if k % 2 == 0 else 0.45) * np.sin(k * np.pi / 5),
                        y0
                        + CELL / 2
                        - radius * (1 if k % 2 == 0 else 0.45) * np.cos(k * np.pi / 5),
                    )
                    for k in range(10)
                ]
                draw.polygon(points, fill=d["text"])
            elif mark and rng.random() < 0.85:
                text = LABELS[mark][style]
                short = "\n" not in text
                draw.multiline_text(
                    (x0 + CELL / 2, y0 + CELL / 2),
                    text,
                    font=short_font if short else label_font,
                    fill=d["text"],
                    anchor="mm",
                    align="center",
                    spacing=1,
                )
    board = np.asarray(img, dtype=np.uint8).copy()
    if d.get("grain"):
        board = np.clip(board * _grain(rng, board.shape[:2], 0.12)[:, :, None], 0, 255).astype(
            np.uint8
        )
    if d.get("raised") or rng.random() < 0.15:
        # A raised grid: each line lit on one side and shaded on the other.
        ridge = np.zeros(board.shape[:2], np.float32)
        for k in range(n + 1):
            p = margin + k * CELL
            ridge[:, max(0, p - line) : p] += 0.25
            ridge[:, p + line // 2 + 1 : p + line + 2] -= 0.3
            ridge[max(0, p - line) : p, :] += 0.25
            ridge[p + line // 2 + 1 : p + line + 2, :] -= 0.3
        inside = np.zeros_like(ridge)
        inside[margin : side - margin, margin : side - margin] = 1
        board = np.clip(board * (1 + ridge * inside)[:, :, None], 0, 255).astype(np.uint8)
    upwords = ruleset.family != "crossword"
    dx, dy = lean
    for (r, c), tile in tiles.items():
        size = int(CELL * rng.uniform(0.84, 0.97))
        timg = _tile_image(rng, tile, size, upwords, unseen)
        angle = rng.uniform(-8, 8)
        # Tiles lie near their squares' centres; now and then one half off its square.
        off = 0.3 if rng.random() < 0.1 else 0.08
        cx = margin + (c + 0.5 + rng.uniform(-off, off)) * CELL
        cy = margin + (r + 0.5 + rng.uniform(-off, off)) * CELL
        # Drawn into a patch around the tile, not the whole board: a board holds a hundred.
        reach = size + int(abs(dx) + abs(dy)) + 2
        x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
        x1, y1 = min(side, int(cx + reach)), min(side, int(cy + reach))
        rot = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
        rot[0, 2] += cx - size / 2 - x0
        rot[1, 2] += cy - size / 2 - y0
        base = cv2.warpAffine(timg, rot, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        alpha = base[:, :, 3].astype(np.float32) / 255
        patch: npt.NDArray[Any] = board[y0:y1, x0:x1].astype(np.float32)
        # Its shadow, cast away from the light, softened.
        sx, sy = rng.uniform(1, 4), rng.uniform(1, 4)
        shadow = cv2.warpAffine(
            alpha, np.array([[1, 0, sx], [0, 1, sy]], np.float32), alpha.shape[::-1]
        )
        shadow = cv2.GaussianBlur(shadow, (0, 0), 1.5)
        patch *= (1 - 0.4 * shadow)[:, :, None]
        # Its sides: the tile's outline swept from its base to its top, darker.
        steps = max(1, int(np.hypot(dx, dy)))
        side_colour = base[:, :, :3].astype(np.float32).max(axis=(0, 1)) * rng.uniform(0.55, 0.8)
        for k in range(steps):
            t = k / steps
            shift = np.array([[1, 0, dx * t], [0, 1, dy * t]], np.float32)
            a = cv2.warpAffine(alpha, shift, alpha.shape[::-1])[:, :, None]
            patch = patch * (1 - a) + side_colour * (0.85 + 0.15 * t) * a
        top = cv2.warpAffine(
            base, np.array([[1, 0, dx], [0, 1, dy]], np.float32), alpha.shape[::-1]
        )
        a = top[:, :, 3:4].astype(np.float32) / 255
        patch = patch * (1 - a) + top[:, :, :3] * a
        board[y0:y1, x0:x1] = np.clip(patch, 0, 255).astype(np.uint8)
    return board


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
    rng: random.Random, board: Image, n: int, margin: int, lean: tuple[float, float] = (0.0, 0.0)
) -> tuple[Image, list[tuple[float, float]]]:
    """The board on a table, seen by a phone at an angle in some light; and the grid's corners.
    ``lean`` says which way the camera leans (the board's far side, in its pixels)."""
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
    lx, ly = lean
    lean_turn = np.arctan2(lx, -ly) if (lx or ly) else 0.0
    quad = []
    for x, y in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]:
        # Seen from the lean's side: the board's coordinates turned so its far side is up.
        bx = x * np.cos(lean_turn) + y * np.sin(lean_turn)
        by = -x * np.sin(lean_turn) + y * np.cos(lean_turn)
        xs = bx * (1 - tilt * (0.5 - by)) * scale
        ys = by * (1 - tilt * 0.5) * scale
        xs += rng.uniform(-0.015, 0.015) * scale
        ys += rng.uniform(-0.015, 0.015) * scale
        # Turned back, then turned on the table.
        ax = xs * np.cos(lean_turn) - ys * np.sin(lean_turn)
        ay = xs * np.sin(lean_turn) + ys * np.cos(lean_turn)
        quad.append(
            (cx + ax * np.cos(turn) - ay * np.sin(turn), cy + ax * np.sin(turn) + ay * np.cos(turn))
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
    photo *= np.array(cast, np.float32) * rng.uniform(0.65, 1.15)
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
    if blur > 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    if rng.random() < 0.3:
        # Shake: a short streak.
        length = rng.randint(3, 11)
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        photo = cv2.filter2D(photo, -1, cv2.warpAffine(kernel, rot, (length, length)))
    photo += (
        np.random.default_rng(rng.randint(0, 2**31))
        .normal(0, rng.uniform(1, 8), photo.shape)
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
    # The tiles' tops seen moved towards the photo's far side, by up to a sixth of a square.
    heading = rng.uniform(0, 2 * np.pi)
    depth = CELL * rng.uniform(0.0, 0.17)
    lean = (float(np.sin(heading) * depth), float(-np.cos(heading) * depth))
    board = draw_board(rng, ruleset, tiles, design, lean, unseen=seed >= HELD_OUT)
    margin = (board.shape[0] - ruleset.size * CELL) // 2
    rgb, corners = photograph(rng, board, ruleset.size, margin, lean)
    if rng.random() < 0.5:
        # The phone's own JPEG, then the page's JPEG of it.
        first = cv2.imdecode(np.frombuffer(encode(rgb, rng.randint(75, 95)), np.uint8), 1)
        rgb = np.asarray(cv2.cvtColor(np.asarray(first), cv2.COLOR_BGR2RGB), np.uint8)
    return Photo(encode(rgb, rng.randint(40, 92)), tiles, corners, design)


def as_file(photo: Photo) -> io.BytesIO:
    return io.BytesIO(photo.jpeg)
