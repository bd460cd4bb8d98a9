"""How training tiles are drawn: their value in the corner, or just past the letter's foot as
many real sets print it."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("cv2")
pytest.importorskip("PIL")

from scorekeeper.photo.drawing import Printing, _tile_image  # noqa: E402

SIZE = 80


def value_from_foot(tile: np.ndarray, other: np.ndarray) -> tuple[int, int]:
    """How far (columns, rows) the value's ink starts right of the letter's ink and ends below
    its foot: the value is the ink where ``tile`` and ``other`` (the same tile, its value
    elsewhere) differ, the letter the ink they share."""
    inner = slice(SIZE // 10, SIZE - SIZE // 10)  # past the tile's darker edge
    a, b = (t[inner, inner, :3].astype(np.int32) for t in (tile, other))
    dark = a.mean(axis=2) < 110
    same = np.abs(a - b).max(axis=2) < 8
    rows, cols = np.nonzero(dark & same)
    value_rows, value_cols = np.nonzero(dark & ~same)
    return int(value_cols.min() - cols.max()), int(value_rows.max() - rows.max())


@pytest.mark.parametrize("seed", range(8))
def test_an_i_s_value_is_printed_at_its_foot_when_the_set_hugs_and_in_the_corner_otherwise(seed):
    corner = _tile_image(random.Random(seed), "I", SIZE, upwords=False, unseen=False)
    hugged = _tile_image(
        random.Random(seed),
        "I",
        SIZE,
        upwords=False,
        unseen=False,
        printing=Printing(hugged=random.Random(seed)),
    )
    across, below = value_from_foot(hugged, corner)
    assert -2 <= across <= 0.18 * SIZE
    assert abs(below) <= 0.1 * SIZE
    assert value_from_foot(corner, hugged)[0] > across


@pytest.mark.parametrize("face", ["smiley", "print"])
def test_a_set_s_blanks_carry_its_mark_and_its_letters_do_not(face):
    def tile(letter, marked):
        mark = Printing(blank_face=(face, random.Random(5)) if marked else None)
        return _tile_image(random.Random(5), letter, SIZE, False, False, printing=mark)

    assert np.array_equal(tile("O", True), tile("O", False))
    inner = slice(SIZE // 4, SIZE - SIZE // 4)
    plain, marked = (tile("?", m)[inner, inner, :3].astype(np.int32) for m in (False, True))
    assert np.abs(plain - plain[0, 0]).max() < 20  # a bare face
    assert (np.abs(marked - plain).max(axis=2) > 60).sum() > 20  # ink on it


def test_premium_squares_bite_into_their_neighbours_only_when_the_board_has_teeth():
    from referee import RULESETS
    from scorekeeper.photo.drawing import CELL, draw_board

    rules = RULESETS["crossword-classic"]
    n = rules.size
    plain = draw_board(random.Random(3), rules, {}, "red")
    toothed = draw_board(
        random.Random(3), rules, {}, "red", printing=Printing(teeth=random.Random(3))
    )
    margin = (plain.shape[0] - n * CELL) // 2
    changed = np.abs(plain.astype(int) - toothed.astype(int)).max(axis=2) > 30
    band, middle = CELL // 4, slice(CELL // 4, CELL - CELL // 4)
    for r in range(n):
        for c in range(n):
            if rules.premium(r, c):
                continue
            y, x = margin + r * CELL, margin + c * CELL
            square = changed[y : y + CELL, x : x + CELL]
            sides = {
                (-1, 0): square[:band, middle],
                (1, 0): square[-band:, middle],
                (0, -1): square[middle, :band],
                (0, 1): square[middle, -band:],
            }
            for (dr, dc), strip in sides.items():
                beside = 0 <= r + dr < n and 0 <= c + dc < n and rules.premium(r + dr, c + dc)
                assert (strip.sum() > 10) == bool(beside), (r, c, dr, dc)
            # Its middle is never touched.
            assert not square[band:-band, band:-band].any()


def test_a_tournament_set_keeps_its_values_in_the_corner_and_the_rest_of_its_printing():
    from scorekeeper.photo.render import printing

    seeds = [s for s in range(40) if printing(s).hugged is not None]
    assert seeds  # half of the sets hug their values
    for seed in seeds:
        tournament, other = printing(seed, tournament=True), printing(seed)
        assert tournament.hugged is None
        assert (tournament.inset, tournament.teeth is None, tournament.blank_face is None) == (
            other.inset,
            other.teeth is None,
            other.blank_face is None,
        )


@pytest.mark.parametrize("seed", range(4))
def test_a_folding_board_s_hinge_runs_dark_from_frame_to_frame_through_its_middle(seed):
    from referee import RULESETS
    from scorekeeper.photo.drawing import draw_board

    rules = RULESETS["crossword-classic"]
    plain = draw_board(random.Random(3), rules, {}, "red").astype(int)
    folded = draw_board(
        random.Random(3), rules, {}, "red", printing=Printing(fold=random.Random(seed))
    ).astype(int)
    side = plain.shape[0]
    darker = (plain - folded).sum(axis=2) > 60
    # Every line across the board, frame included, is dark at its middle and nowhere near
    # its ends: a hinge runs one way, across the middle row or column of squares.
    columns, rows = darker.all(axis=0), darker.all(axis=1)
    hinge = columns if columns.any() else rows
    assert hinge.any() and not (columns.any() and rows.any())
    assert set(np.nonzero(hinge)[0]) <= set(range(side // 2 - 5, side // 2 + 6))
