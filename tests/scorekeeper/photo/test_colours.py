"""What the squares' colours say about a reading: a square read as empty that has the tiles'
colour is a tile, one read as a blank that has its own kind's colour is empty; where tiles and
squares look alike, or the light falls unevenly, nothing is changed."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("cv2")

from referee import RULESETS  # noqa: E402
from scorekeeper.photo.colours import (  # noqa: E402
    as_coloured,
    by_colour,
    square_colours,
    square_kinds,
)
from scorekeeper.photo.squares import CLASSES, OUTPUTS, TURNED  # noqa: E402

# Colours as ``square_colours`` gives them: CIELAB, the lightness halved.
ORANGE, WHITE = (60.0, 150.0, 180.0), (110.0, 128.0, 130.0)
PINK, BLUE = (80.0, 170.0, 120.0), (70.0, 120.0, 90.0)
LETTER_I, LETTER_L, LETTER_A, BLANK = (CLASSES.index(x) for x in "ILA?")


def board(n=15, plain=ORANGE):
    """An empty board read surely, its squares' colours by kind (plain ``plain``, every
    premium PINK but the light-blue double letters)."""
    chances = np.zeros((n, n, OUTPUTS), np.float32)
    chances[:, :, 0] = 0.95
    chances[:, :, 1:] = 0.05 / (OUTPUTS - 1)
    kinds = square_kinds(n)
    colours = np.empty((n, n, 3), np.float32)
    colours[:] = plain
    double_letter = kinds[0, 3]
    colours[(kinds != 0) & (kinds != double_letter)] = PINK
    colours[kinds == double_letter] = BLUE
    return chances, colours


def lay(chances, colours, squares, letter=LETTER_A, colour=WHITE, sure=0.97):
    for square in squares:
        chances[square] = 0.0
        chances[square][letter] = sure
        chances[square][0] = 1 - sure
        colours[square] = colour


def test_a_white_tile_the_network_reads_as_empty_beside_a_word_is_a_tile():
    chances, colours = board()
    lay(chances, colours, [(4, 3), (4, 4), (4, 5), (4, 7), (4, 8)])
    # The I of a word read as empty, mostly: it has the tiles' colour, not the plain squares'.
    chances[4, 6] = 0.0
    chances[4, 6][0], chances[4, 6][LETTER_I], chances[4, 6][LETTER_L] = 0.7, 0.2, 0.1
    colours[4, 6] = WHITE
    # A glare as white as a tile, on its own far from any word, is left.
    colours[11, 11] = WHITE
    tile, empty = by_colour(chances, colours)
    assert np.argwhere(tile).tolist() == [[4, 6]] and not empty.any()
    as_coloured(chances, tile, empty)
    assert chances[4, 6].argmax() == LETTER_I and chances[4, 6, 0] == 0
    assert chances[4, 6, 1:].sum() == pytest.approx(1.0, abs=1e-4)
    assert chances[11, 11].argmax() == 0


def test_a_blank_with_no_letter_read_as_empty_is_a_tile_read_as_a_blank():
    chances, colours = board()
    lay(chances, colours, [(7, 5), (7, 6), (7, 7), (7, 9)])
    chances[7, 8][0], chances[7, 8][BLANK] = 0.9, 0.08
    colours[7, 8] = WHITE
    tile, empty = by_colour(chances, colours)
    as_coloured(chances, tile, empty)
    assert chances[7, 8, :TURNED].argmax() == BLANK


def test_a_premium_square_read_as_a_blank_that_has_its_kind_s_colour_is_empty():
    chances, colours = board()
    lay(chances, colours, [(5, 2), (5, 3), (5, 4), (6, 4), (6, 5)])
    # A double word square's printing read as a plain face; and a true blank in a word.
    for square in [(1, 1), (5, 5)]:
        chances[square] = 0.0
        chances[square][BLANK], chances[square][0] = 0.8, 0.2
    colours[5, 5] = WHITE
    tile, empty = by_colour(chances, colours)
    assert np.argwhere(empty).tolist() == [[1, 1]] and not tile.any()
    as_coloured(chances, tile, empty)
    assert chances[1, 1].argmax() == 0 and chances[1, 1, 0] == pytest.approx(1.0)
    assert chances[5, 5].argmax() == BLANK


def test_tiles_the_colour_of_the_board_s_squares_change_nothing():
    # Wooden tiles on a wooden board: the colours can't tell a tile from a square.
    wood = (70.0, 135.0, 150.0)
    chances, colours = board(plain=wood)
    lay(chances, colours, [(4, 3), (4, 4), (4, 5)], colour=(72.0, 136.0, 148.0))
    chances[4, 6][0], chances[4, 6][LETTER_I] = 0.7, 0.2
    colours[4, 6] = (74.0, 134.0, 152.0)
    tile, empty = by_colour(chances, colours)
    assert not tile.any() and not empty.any()


def test_a_square_in_shadow_is_compared_with_the_squares_near_it():
    # Light falls unevenly: the board's right side lies in a shadow nearly as dark as the
    # tiles, and an empty square there beside a tile is no tile (the whole board's plain
    # colour, the lit one, would make it one).
    dark_tile, shadowed = (20.0, 128.0, 140.0), (24.0, 132.0, 146.0)
    chances, colours = board(n=10)
    colours[:, 7:] = shadowed
    lay(chances, colours, [(3, 3), (3, 4), (3, 5), (3, 6), (4, 6)], colour=dark_tile)
    tile, empty = by_colour(chances, colours)
    assert not tile.any() and not empty.any()
    # In the light, an empty square beside a tile with the tiles' colour is one.
    colours[2, 4] = dark_tile
    tile, _ = by_colour(chances, colours)
    assert np.argwhere(tile).tolist() == [[2, 4]]


def test_the_centre_star_is_compared_with_no_other_square():
    kinds = square_kinds(15)
    assert (kinds == kinds[7, 7]).sum() == 1
    assert (square_kinds(10) == 0).all() and (square_kinds(8) == 0).all()
    assert kinds[0, 0] == kinds[14, 14] and kinds[0, 0] != kinds[1, 1] != 0


def test_a_square_s_colour_is_its_face_s_past_the_letter_s_strokes():
    square, context, n = 28, 6, 3
    flat = np.zeros((n * square + 2 * context,) * 2 + (3,), np.uint8)
    flat[:] = (230, 150, 40)  # orange squares
    top = context + square  # the middle square: a cream tile with a black I through it
    flat[top : top + square, top : top + square] = (240, 235, 220)
    flat[top + 4 : top + 24, top + 12 : top + 16] = (10, 10, 10)
    colours = square_colours(flat, n, square, context)
    orange, cream = colours[0, 0], colours[1, 1]
    assert np.linalg.norm(cream - colours[0, 1]) > 25
    # The median of the middle half is the face's colour, not a mix with the stroke's.
    import cv2

    expected = cv2.cvtColor(np.uint8([[[240, 235, 220]]]), cv2.COLOR_RGB2LAB)[0, 0].astype(float)
    assert cream[1:] == pytest.approx(expected[1:], abs=1)
    assert cream[0] == pytest.approx(expected[0] / 2, abs=1)
    assert orange[2] > cream[2]


def _missed_with_and_without_colours(monkeypatch, lean=None, seed=8_300_412):
    """A rendered board's tiles read as empty, and those read so with the colours set aside;
    with ``lean``, the tiles' tops taken to be found that far (pixels) off their squares."""
    from scorekeeper.photo import reader
    from scorekeeper.photo.render import random_tiles, render

    pytest.importorskip("onnxruntime")
    rules = RULESETS["crossword-classic"]
    rng = random.Random(seed)
    tiles = random_tiles(rng, rules, rng.uniform(0.0, 0.5))
    photo = render(seed, rules, tiles)
    if lean is not None:
        from scorekeeper.photo.flat import spread_out

        monkeypatch.setattr(reader, "tops", lambda *args: spread_out(rules.size, *lean))
    read = reader.read(photo.jpeg, rules.size).squares()

    def colourless(chances, colours):
        nothing = np.zeros(chances.shape[:2], bool)
        return nothing, nothing.copy()

    monkeypatch.setattr(reader, "by_colour", colourless)
    unaided = reader.read(photo.jpeg, rules.size).squares()
    return (
        {(r, c) for r, c in tiles if not read[r][c]},
        {(r, c) for r, c in tiles if not unaided[r][c]},
    )


def test_a_rendered_tile_the_network_reads_as_empty_is_read_by_its_colour(monkeypatch):
    missed, missed_unaided = _missed_with_and_without_colours(monkeypatch)
    assert len(missed) < len(missed_unaided)
    assert missed < missed_unaided


@pytest.mark.parametrize("lean,seed", [((5, 3), 8_300_407), ((-3, -5), 8_300_412)])
def test_a_tile_read_as_empty_is_read_by_its_colour_when_the_tops_are_found_a_little_off(
    monkeypatch, lean, seed
):
    # A board seen from nearly above: the tiles' tops found a fifth of a square off, short of
    # the middle half of the square beyond, whose colour no tile's side reaches.
    missed, missed_unaided = _missed_with_and_without_colours(monkeypatch, lean, seed)
    assert missed < missed_unaided
