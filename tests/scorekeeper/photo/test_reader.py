"""Reading a board from a photo: made-up photos (seeded) read as drawn, and bad photos refused
before any decoding."""

from __future__ import annotations

import random
from unittest import mock

import pytest

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee import RULESETS  # noqa: E402
from scorekeeper.photo import reader  # noqa: E402
from scorekeeper.photo.reader import MAX_PIXELS, PhotoError, decode, read  # noqa: E402
from scorekeeper.photo.render import encode, random_tiles, render  # noqa: E402
from tests.factories import png_header  # noqa: E402

CROSSWORD = RULESETS["crossword-classic"]


def wrong(reading, tiles):
    """The squares read wrong as tile or empty, and the tiles whose letter is read wrong."""
    squares = reading.squares()
    size = reading.size
    occupancy = [
        (r, c) for r in range(size) for c in range(size) if bool(squares[r][c]) != ((r, c) in tiles)
    ]
    letters = [
        (r, c) for (r, c), t in tiles.items() if squares[r][c] != ("?" if t == "?" else t[0])
    ]
    return occupancy, letters


@pytest.mark.parametrize(
    "seed,ruleset", [(7, "crossword-classic"), (8, "crossword-classic"), (9, "upwords-10")]
)
def test_a_rendered_board_reads_as_drawn(seed, ruleset):
    rules = RULESETS[ruleset]
    tiles = random_tiles(random.Random(seed), rules, 0.3)
    photo = render(seed, rules, tiles)
    reading = read(photo.jpeg, rules.size)
    occupancy, letters = wrong(reading, tiles)
    assert len(reading.squares()) == rules.size and all(
        len(row) == rules.size for row in reading.squares()
    )
    assert occupancy == []
    assert len(letters) <= len(tiles) // 20, letters  # at least 95% of the letters
    # The corners found are the grid's, within a third of a square of where they were drawn
    # (a lens bends the grid's edges: the view that fits its lines best misses its corners a
    # little).
    import numpy as np

    scale = decode(photo.jpeg).shape[1] / _width(photo.jpeg)
    drawn = np.array(photo.corners) * scale
    found = np.array(reading.corners)
    pitch = np.mean([np.linalg.norm(drawn[i] - drawn[i - 1]) for i in range(4)]) / rules.size
    assert all(np.linalg.norm(found - corner, axis=1).min() < pitch / 3 for corner in drawn)


def _width(jpeg: bytes) -> int:
    import cv2
    import numpy as np

    return int(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape[1])


@pytest.mark.parametrize("design", ["red", "green", "deluxe", "wooden"])
def test_an_empty_board_reads_empty(design):
    # Its premium squares' printing ("TW", "DOUBLE WORD SCORE", the star) is no tile.
    photo = render(11, CROSSWORD, {}, design)
    reading = read(photo.jpeg, CROSSWORD.size)
    assert reading.squares() == [[""] * 15 for _ in range(15)]


def test_a_board_turned_on_the_table_reads_the_right_way_up():
    tiles = {(7, c): letter for c, letter in zip(range(3, 8), "HOUSE", strict=True)}
    photo = render(12, CROSSWORD, tiles, "red")
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    turned = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    reading = read(encode(cv2.cvtColor(turned, cv2.COLOR_BGR2RGB), 90), CROSSWORD.size)
    assert "".join(reading.squares()[7][3:8]) == "HOUSE"


def test_a_photo_without_a_board_is_refused_with_a_sentence():
    import numpy as np

    noise = np.random.default_rng(5).integers(0, 256, (600, 800, 3), dtype=np.uint8)
    with pytest.raises(PhotoError, match="No board was found"):
        read(encode(noise, 80), 15)


def test_a_decompression_bomb_is_refused_from_its_header_undecoded():
    side = int(MAX_PIXELS**0.5) + 100
    with (
        mock.patch.object(reader.cv2, "imdecode") as imdecode,
        pytest.raises(PhotoError, match="million"),
    ):
        decode(png_header(side, side))
    imdecode.assert_not_called()


@pytest.mark.parametrize("data", [b"", b"GIF89a not really", b"%PDF-1.4\n"])
def test_what_is_not_a_photo_is_refused(data):
    with pytest.raises(PhotoError, match="not a photo"):
        decode(data)
