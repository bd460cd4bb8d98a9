"""Where each square is cut: the tiles' tops lie off their squares, further off the further
the square is from the point of the table under the camera."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("cv2")

from scorekeeper.photo.flat import (  # noqa: E402
    CONTEXT,
    CUT,
    REACH,
    SQUARE,
    cuts,
    for_network,
    seen_at,
    spread_out,
    turned_cuts,
)


def test_without_a_spread_every_square_is_moved_alike():
    offsets = spread_out(15, 7.4, -9.6)
    assert offsets.shape == (15, 15, 2)
    assert (offsets[:, :, 0] == 7).all() and (offsets[:, :, 1] == -10).all()


def test_with_a_spread_the_far_squares_move_further_and_the_corners_lean_out():
    # The tops lie up the photo (y down), half a square at the centre; the point under the
    # camera ten squares below the centre.
    offsets = spread_out(15, 0.0, -10.0, 1 / 10)
    far, near = offsets[0, 7], offsets[14, 7]
    # Each square moves away from the point under the camera: the centre's move, and a tenth
    # of it per square from the centre, each way.
    assert far[1] == -10 - 7 and near[1] == -10 + 7
    assert offsets[7, 0, 0] == -7 and offsets[7, 14, 0] == 7
    assert offsets[7, 7].tolist() == [0, -10]


def test_a_square_is_moved_no_further_than_the_room_kept_round_the_board():
    offsets = spread_out(15, 0.0, -20.0, 1 / 5)
    assert offsets.min() == -REACH and offsets.max() <= REACH


def test_the_squares_cut_moved_alike_are_the_board_moved_and_cut():
    rng = np.random.default_rng(5)
    n = 10
    wide = rng.integers(0, 256, (n * SQUARE + 2 * (CONTEXT + REACH),) * 2 + (3,), np.uint8)
    seen = seen_at(wide, n, spread_out(n, 6, -11), REACH)
    assert seen.shape == (n, n, CUT, CUT, 3)
    side = n * SQUARE + 2 * CONTEXT
    board = np.ascontiguousarray(wide[REACH - 11 : REACH - 11 + side, REACH + 6 : REACH + 6 + side])
    assert np.array_equal(for_network(seen), cuts(board, n))


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_the_cuts_turned_are_those_of_the_photo_turned(turn):
    rng = np.random.default_rng(turn)
    n = 8
    flat = rng.integers(0, 256, (n * SQUARE + 2 * CONTEXT,) * 2 + (3,), np.uint8)
    which = rng.random((n, n)) < 0.5
    turned_photo = cuts(np.ascontiguousarray(np.rot90(flat, turn)), n, which)
    turned = turned_cuts(seen_at(flat, n, reach=0), turn)
    assert np.array_equal(for_network(turned[which]), turned_photo)


def _tops_drawn(spread: float) -> tuple[int, int]:
    """How far above its square's top (pixels) the tile in the far row and the one in the
    near row are drawn, their tops seen 16 pixels up the board at its centre."""
    from referee import get_ruleset
    from scorekeeper.photo.drawing import draw_board

    rules = get_ruleset("crossword-classic")
    tiles = {(0, 4): "M", (14, 4): "M"}
    bare = draw_board(random.Random(4), rules, {}, "green", (0.0, -16.0))
    laid = draw_board(random.Random(4), rules, tiles, "green", (0.0, -16.0), spread=spread)
    changed = np.abs(laid.astype(int) - bare.astype(int)).max(axis=2) > 40
    side = laid.shape[0]
    margin = (side - 15 * 44) // 2
    above = []
    for row in (0, 14):
        rows = np.nonzero(changed[:, margin + 4 * 44 : margin + 5 * 44].any(axis=1))[0]
        here = rows[(rows > margin + row * 44 - 60) & (rows < margin + (row + 1) * 44)]
        above.append(int(margin + row * 44 - here.min()))
    return above[0], above[1]


def test_a_board_seen_from_low_down_draws_its_far_tiles_tops_further_off():
    # 16 pixels at the centre, a tenth of that more per square from it: the far row's 11
    # more, the near row's 11 less (each tile lies on its square as it would anyway).
    far, near = _tops_drawn(1 / 10)
    alike_far, alike_near = _tops_drawn(0.0)
    assert far - alike_far == pytest.approx(11.2, abs=1.5), (far, alike_far)
    assert alike_near - near == pytest.approx(11.2, abs=1.5), (near, alike_near)


def test_a_photo_from_low_down_spreads_its_tops_and_no_other_does():
    from referee import get_ruleset
    from scorekeeper.photo.render import LOW_SPREAD, render

    rules = get_ruleset("upwords-8")
    tiles = {(3, 3): "A"}
    assert render(8_100_001, rules, tiles).spread == 0.0
    spread = render(8_100_001, rules, tiles, steep=True, tops=(0.0, -0.5)).spread
    assert LOW_SPREAD[0] <= spread <= LOW_SPREAD[1]


@pytest.mark.parametrize("seed", range(8_100_010, 8_100_014))
def test_no_top_is_drawn_further_off_than_the_lowest_view_sees_it(seed):
    from referee import get_ruleset
    from scorekeeper.photo.render import LOW_TOPS, render

    rules = get_ruleset("crossword-classic")
    tiles = {(0, 7): "A", (14, 7): "B"}
    for towards in (0.3, 0.6, LOW_TOPS[1]):
        spread = render(seed, rules, tiles, steep=True, tops=(towards, 0.0)).spread
        assert towards * (1 + spread * 7) <= LOW_TOPS[1] + 1e-9
    assert render(seed, rules, tiles, steep=True, tops=(0.3, 0.0)).spread > 0


@pytest.mark.parametrize("eighth", range(8))
def test_a_board_seen_from_well_to_the_side_is_seen_smaller_the_way_its_tops_lean(eighth):
    # Along a side or along a diagonal alike: the reader looks for the tops on the side the
    # board is seen smaller, so a photo that leans its tops elsewhere could never be read.
    import math

    from referee import get_ruleset
    from scorekeeper.photo.flat import far_side
    from scorekeeper.photo.render import render

    heading = math.pi / 4 * eighth
    tops = (0.5 * math.sin(heading), -0.5 * math.cos(heading))
    photo = render(
        8_180_000 + eighth, get_ruleset("upwords-8"), {(3, 3): "A"}, steep=True, tops=tops
    )
    far, squeezed = far_side(np.array(photo.corners, np.float32), 8)
    off = (far - math.atan2(tops[1], tops[0]) + math.pi) % (2 * math.pi) - math.pi
    assert abs(off) < math.radians(10) and squeezed < 0.9
