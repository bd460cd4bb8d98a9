"""Boards drawn from above, for the made-up photos (``scorekeeper.photo.render``): a design's
squares, premium marks and labels (some inset, some biting into their neighbours), a raised grid
on a deluxe or old-style board, a wooden board's grain, and the tiles (a tile colour, or a
board's whole set of one grained wood and one font; some yellowed or worn, a letter in a bold,
plain or thin, sans or serif font with its small value in a corner or at its foot, blanks bare
or marked, some half off their squares, seen leaning towards the far side).
"""

from __future__ import annotations

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
TALL = 0.3  # of a square: tiles' tops seen further off than this are seen from low down

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
    # A newer board: white squares, bright premiums with white text.
    "white": {
        "frame": (175, 35, 40),
        "square": (244, 244, 242),
        "line": (205, 205, 208),
        "premium": {
            "DL": (25, 120, 190),
            "TL": (140, 190, 55),
            "DW": (210, 45, 55),
            "TW": (235, 125, 50),
        },
        "text": (245, 245, 245),
    },
    # A tournament board: yellow squares in a white frame, bright premiums with dark text.
    "tournament": {
        "frame": (238, 238, 235),
        "square": (238, 228, 120),
        "line": (150, 150, 140),
        "premium": {
            "DL": (150, 200, 235),
            "TL": (40, 110, 200),
            "DW": (235, 150, 185),
            "TW": (200, 40, 50),
        },
        "text": (40, 40, 45),
    },
    # An old-style board: cream squares between heavy black raised lines, muted premiums.
    "vintage": {
        "frame": (215, 195, 160),
        "square": (236, 224, 198),
        "line": (30, 30, 32),
        "line_width": (0.08, 0.14),
        "premium": {
            "DL": (165, 180, 192),
            "TL": (60, 70, 80),
            "DW": (232, 185, 172),
            "TW": (165, 55, 50),
        },
        "text": (30, 30, 30),
        "premium_text": {"TL": (225, 225, 225), "TW": (235, 225, 215)},
        "raised": True,
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
# A board's whole set of wooden tiles, one wood (its colour, how strongly its grain shows):
# real sets are alike tile by tile, and wood's grain is what the plain squares lack.
WOOD_SETS = [
    ((214, 178, 128), 0.05),  # natural
    ((200, 148, 100), 0.08),  # tan, strongly grained
    ((226, 206, 170), 0.04),  # birch
    ((178, 172, 162), 0.04),  # grey-washed
    ((160, 120, 85), 0.06),  # dark
]
# A thin face some wooden sets are lettered in, as no font above is.
LIGHT_FONT = "DejaVuSans-ExtraLight.ttf"
# Tournament sets, as clubs play with: smooth tiles of one dark colour, lettered light in a
# bold sans (a blank: the plain dark face).
TOURNAMENT_COLOURS = [
    (80, 45, 125),  # purple
    (35, 35, 40),  # black
    (40, 50, 85),  # navy
    (60, 70, 80),  # slate
    (30, 80, 60),  # green
    (130, 30, 40),  # maroon
    (25, 95, 130),  # teal
]
TOURNAMENT_INKS = [(245, 245, 245), (250, 240, 200), (250, 215, 60)]
TOURNAMENT_FONTS = [
    "DejaVuSans-Bold.ttf",
    "LiberationSans-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "LiberationSansNarrow-Bold.ttf",
]


@dataclass(frozen=True)
class TileSet:
    """A board's tiles all alike: one wood or colour, its grain's strength, one font (None:
    any), and for a tournament set its letters' one light ink."""

    colour: tuple[int, int, int]
    grain: float
    font: str | None
    ink: tuple[int, int, int] | None = None


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
class Printing:
    """What a board's maker and its tile set print beyond a design's squares and a tile's
    letter, each drawn from a stream of its own: premium squares printed ``inset`` (of a
    square, from each side) like coloured tiles, or biting into their neighbours with
    ``teeth``; values ``hugged`` at the letter's foot; a ``blank_face`` ("smiley" or
    "print") on each blank; a folding board's hinge (``fold``) across its middle."""

    inset: float = 0.0
    teeth: random.Random | None = None
    hugged: random.Random | None = None
    blank_face: tuple[str, random.Random] | None = None
    fold: random.Random | None = None


def tile_set(extra: random.Random, unseen: bool = False) -> TileSet:
    """A wooden set, lettered in one font: now and then the thin one."""
    colour, grain = extra.choice(WOOD_SETS)
    light = [d + LIGHT_FONT for d in _FONT_DIRS if os.path.exists(d + LIGHT_FONT)]
    faces = fonts(unseen)
    if light and extra.random() < 0.4:
        faces = light
    return TileSet(colour, grain, extra.choice(faces) if faces else None)


def tournament_set(stream: random.Random) -> TileSet:
    """A tournament set: one dark colour, one light ink, one bold sans."""
    faces = [d + f for f in TOURNAMENT_FONTS for d in _FONT_DIRS if os.path.exists(d + f)]
    return TileSet(
        stream.choice(TOURNAMENT_COLOURS),
        stream.uniform(0.0, 0.02),
        stream.choice(faces) if faces else None,
        stream.choice(TOURNAMENT_INKS),
    )


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


def _tile_image(
    rng: random.Random,
    tile: str,
    size: int,
    upwords: bool,
    unseen: bool,
    wood: TileSet | None = None,
    extra: random.Random | None = None,
    printing: Printing | None = None,
) -> Image:
    """One tile's top from above, ``size`` pixels square, with its alpha channel; ``wood``, a
    wooden set's tile (its colour and grain drawn from ``extra``); ``printing``'s ``hugged``,
    its value printed just past the letter's foot, as many real sets print it, not in the
    corner, and its ``blank_face``, what the set prints on its blanks."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    printing = printing or Printing()
    hugged, blank_face = printing.hugged, printing.blank_face
    colour = tuple(max(0, min(255, c + rng.randint(-14, 14))) for c in rng.choice(TILE_COLOURS))
    if wood is not None and extra is not None:
        shade = extra.randint(-12, 12)  # tile to tile the wood's shade varies, not its hue
        colour = tuple(max(0, min(255, c + shade + extra.randint(-3, 3))) for c in wood.colour)
    if rng.random() < 0.3 and (wood is None or wood.ink is None):
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
    if tile == "?" and blank_face is not None:
        face, marks = blank_face
        mark = wood.ink if wood is not None and wood.ink is not None else marks.choice(INK_COLOURS)
        _blank_face(draw, size, face, marks, mark, unseen)
    if tile != "?":
        paths = fonts(unseen)
        font_path = rng.choice(paths) if paths else None
        if wood is not None and wood.font is not None:
            font_path = wood.font
        text = "Qu" if tile == "QU" else tile
        letter_size = int(size * rng.uniform(0.5, 0.74) * (0.8 if tile == "QU" else 1.0))
        font = _font(font_path, letter_size)
        ink = rng.choice(INK_COLOURS)
        if wood is not None and wood.ink is not None:
            ink = wood.ink
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
            corner = (size * rng.uniform(0.74, 0.88), size * rng.uniform(0.7, 0.86))
            if hugged is None:
                draw.text(corner, str(VALUES[tile]), font=small, fill=(*ink, 255), anchor="mm")
            else:
                # An I's foot then carries a mark to its right, which a corner's value never
                # makes: a network that never saw one reads the I as an L.
                _, _, right, bottom = draw.textbbox(
                    (cx, cy), text, font=font, anchor="mm", stroke_width=stroke
                )
                x = min(right + size * hugged.uniform(0.0, 0.08), size * 0.8)
                y = min(bottom + size * hugged.uniform(-0.02, 0.08), size * 0.92)
                draw.text((x, y), str(VALUES[tile]), font=small, fill=(*ink, 255), anchor="ld")
    if wood is not None and extra is not None:
        grained = np.asarray(img, np.float32)
        grain = _grain(extra, (size, size), wood.grain * extra.uniform(0.6, 1.4))
        if extra.random() < 0.5:
            grain = grain.T
        grained[:, :, :3] *= grain[:, :, None]
        img = PILImage.fromarray(np.clip(grained, 0, 255).astype(np.uint8), "RGBA")
    if rng.random() < 0.25:
        # Worn: the ink rubbed off in places and the face smudged.
        worn = np.asarray(img, np.float32)
        spots = np.random.default_rng(rng.randint(0, 2**31)).random((size // 4 + 1, size // 4 + 1))
        wear = cv2.resize(spots.astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
        fade = np.clip((wear - rng.uniform(0.5, 0.8)) * 3, 0, 0.6)[:, :, None]
        worn[:, :, :3] = worn[:, :, :3] * (1 - fade) + np.array(colour, np.float32) * fade
        return np.clip(worn, 0, 255).astype(np.uint8)
    return np.asarray(img, dtype=np.uint8)


def _blank_face(
    draw: Any, size: int, face: str, rng: random.Random, colour: tuple[int, ...], unseen: bool
) -> None:
    """What some sets print on a blank, in ``colour``: a smiling face, which a network that
    never saw one reads as an O, or an association's name in small print."""
    ink = (*colour, 255)
    cx, cy = size * rng.uniform(0.46, 0.54), size * rng.uniform(0.46, 0.54)
    if face == "smiley":
        r = size * rng.uniform(0.22, 0.3)
        width = max(1, int(size * rng.uniform(0.03, 0.06)))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=width)
        eye = max(1.0, r * rng.uniform(0.1, 0.16))
        for side in (-1, 1):
            ex, ey = cx + side * r * 0.38, cy - r * 0.3
            draw.ellipse((ex - eye, ey - eye, ex + eye, ey + eye), fill=ink)
        m = r * rng.uniform(0.5, 0.65)
        draw.arc((cx - m, cy - m * 0.6, cx + m, cy + m * 0.9), 20, 160, fill=ink, width=width)
        return
    paths = fonts(unseen)
    small = _font(rng.choice(paths) if paths else None, max(5, int(size * rng.uniform(0.1, 0.16))))
    letters = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWXYZ") for _ in range(rng.randint(3, 6)))
    text = letters if rng.random() < 0.5 else letters[:2] + "\n" + letters[2:]
    draw.multiline_text((cx, cy), text, font=small, fill=ink, anchor="mm", align="center")


def _teeth(
    draw: Any, ruleset: Ruleset, design: dict[str, Any], margin: int, line: int, rng: random.Random
) -> None:
    """Three small triangles of each premium square's colour on each of its sides, pointing
    into the square beside it (as on Hasbro's boards and older ones; their size drawn from
    ``rng``): a plain square then shows marks a network takes for a tile's."""
    n = ruleset.size
    width, depth = CELL * rng.uniform(0.12, 0.2), CELL * rng.uniform(0.1, 0.2)
    for r in range(n):
        for c in range(n):
            mark = ruleset.premium(r, c)
            if not mark:
                continue
            colour = design["premium"].get(mark, design["square"])
            cx, cy = margin + (c + 0.5) * CELL, margin + (r + 0.5) * CELL
            # Each side: u along it, v out of the square.
            for (ux, uy), (vx, vy) in (((1, 0), (0, -1)), ((1, 0), (0, 1)),
                                       ((0, 1), (-1, 0)), ((0, 1), (1, 0))):  # fmt: skip
                for k in (-1, 0, 1):
                    u = k * width * 1.1
                    points = [
                        (cx + ux * a + vx * b, cy + uy * a + vy * b)
                        for a, b in (
                            (u - width / 2, CELL / 2),
                            (u + width / 2, CELL / 2),
                            (u, CELL / 2 + depth + line / 2),
                        )
                    ]
                    draw.polygon(points, fill=colour)


def _hinge(board: Image, stream: random.Random) -> None:
    """A folding board's hinge, in place: a dark gap from frame to frame across the board's
    middle (through its middle row or column of squares), the two halves lit a little
    unlike, as they never quite lie flat."""
    side = board.shape[0]
    across = stream.random() < 0.5
    view = board if across else board.transpose(1, 0, 2)
    middle, gap = side // 2, stream.randint(2, 5)
    half = view[:, middle:].astype(np.float32) * stream.uniform(0.85, 1.05)
    view[:, middle:] = np.clip(half, 0, 255).astype(np.uint8)
    depth = np.float32(stream.uniform(0.2, 0.5))
    for k in range(-gap, gap + 1):
        # Darkest in the gap itself, fading over a pixel or two either side.
        shade = depth + (1 - depth) * min(1.0, max(0.0, (abs(k) - gap / 2) / 2))
        column = view[:, middle + k].astype(np.float32) * shade
        view[:, middle + k] = np.clip(column, 0, 255).astype(np.uint8)


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
    facing: bool = False,
    wood: TileSet | None = None,
    extra: random.Random | None = None,
    printing: Printing | None = None,
    laid: dict[tuple[int, int], int] | None = None,
    spread: float = 0.0,
) -> Image:
    """The board from above, RGB: a frame around the grid of ``CELL``-pixel squares. Tiles
    stand up from it: ``lean`` (pixels, x and y) is how far their tops are seen moved from
    their bases at the board's centre, which shows a side of each, and their shadows fall the
    other way; ``spread``, how much further off, of that, per square from the centre (one over
    the distance, in squares, from the centre to the point under the camera). With
    ``facing``, each tile is laid facing one of the board's four sides, as players lay theirs
    facing themselves; with ``wood``, every tile is of that set (``_tile_image``); ``printing``,
    what the board and the set print besides (``Printing``). ``laid``, when given, is filled
    with how many quarter turns anticlockwise each tile is laid (0: facing the board's foot)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    printing = printing or Printing()
    inset = printing.inset

    d = DESIGNS[design]
    n = ruleset.size
    margin = int(CELL * rng.uniform(0.4, 1.2))
    side = n * CELL + 2 * margin
    img = PILImage.new("RGB", (side, side), d["frame"])
    draw = ImageDraw.Draw(img)
    line = max(1, int(CELL * rng.uniform(*d.get("line_width", (0.04, 0.1)))))
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
            box = (
                x0 + line // 2,
                y0 + line // 2,
                x0 + CELL - 1 - line // 2,
                y0 + CELL - 1 - line // 2,
            )
            if mark and inset:
                draw.rectangle(box, fill=d["square"])
                k = int(CELL * inset)
                box = (box[0] + k, box[1] + k, box[2] - k, box[3] - k)
                draw.rounded_rectangle(box, max(1, int(CELL * 0.08)), fill=colour)
            else:
                draw.rectangle(box, fill=colour)
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
                    fill=d.get("premium_text", {}).get(mark, d["text"]),
                    anchor="mm",
                    align="center",
                    spacing=1,
                )
    if printing.teeth is not None and ruleset.scoring == "premium":
        _teeth(draw, ruleset, d, margin, line, printing.teeth)
    board = np.asarray(img, dtype=np.uint8).copy()
    if printing.fold is not None:
        _hinge(board, printing.fold)
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
    growth = float(np.hypot(*lean)) * spread
    for (r, c), tile in tiles.items():
        dx = lean[0] + growth * (c + 0.5 - n / 2)
        dy = lean[1] + growth * (r + 0.5 - n / 2)
        size = int(CELL * rng.uniform(0.84, 0.97))
        timg = _tile_image(rng, tile, size, upwords, unseen, wood, extra, printing)
        angle = rng.uniform(-8, 8)
        quarter = rng.randrange(4) if facing else 0
        angle += 90 * quarter
        if laid is not None:
            laid[(r, c)] = quarter
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
        shade = rng.uniform(0.55, 0.8)
        if steps > TALL * CELL:
            # Seen from low down, the side faces the camera and catches the room's light
            # nearly as the face does.
            shade += (shade - 0.55) * 0.6
        side_colour = base[:, :, :3].astype(np.float32).max(axis=(0, 1)) * shade
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
