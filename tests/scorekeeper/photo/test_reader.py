"""Reading a board from a photo: made-up photos (seeded) read as drawn, and bad photos refused
before any decoding."""

from __future__ import annotations

import random
from unittest import mock

import pytest

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee import RULESETS  # noqa: E402
from scorekeeper.photo import grid, reader  # noqa: E402
from scorekeeper.photo.reader import MAX_PIXELS, PhotoError, decode, read  # noqa: E402
from scorekeeper.photo.render import (  # noqa: E402
    encode,
    printing,
    random_tiles,
    render,
)
from scorekeeper.photo.squares import (  # noqa: E402
    as_many_blanks_as_a_set_has,
    each_tile_its_way,
    labels_are_empty,
    stray_tiles_are_empty,
)
from tests.factories import png_header  # noqa: E402

CROSSWORD = RULESETS["crossword-classic"]


def wrong(reading, tiles):
    """The squares read wrong as tile or empty, and the tiles whose letter is read wrong; a tile
    alone (no tile beside it, as no real board has: tiles laid at random lie so) read empty is
    left out, as the reader reads one it isn't sure of empty by design."""
    squares = reading.squares()
    size = reading.size
    dropped = {
        (r, c)
        for r, c in tiles
        if not squares[r][c] and not {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & tiles.keys()
    }
    occupancy = [
        (r, c)
        for r in range(size)
        for c in range(size)
        if bool(squares[r][c]) != ((r, c) in tiles) and (r, c) not in dropped
    ]
    letters = [
        (r, c)
        for (r, c), t in tiles.items()
        if squares[r][c] != ("?" if t == "?" else t[0]) and (r, c) not in dropped
    ]
    return occupancy, letters


@pytest.mark.parametrize(
    "seed,ruleset", [(7, "crossword-classic"), (8, "crossword-classic"), (9, "upwords-10")]
)
def test_a_rendered_board_reads_as_drawn(seed, ruleset):
    rules = RULESETS[ruleset]
    tiles = random_tiles(random.Random(seed), rules, 0.3)
    # The photos these seeds made when the test was written (the newer looks have tests of
    # their own).
    photo = render(seed, rules, tiles, newer=False)
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


@pytest.mark.parametrize(
    "design", ["red", "green", "deluxe", "wooden", "white", "vintage", "tournament"]
)
def test_an_empty_board_reads_empty(design):
    # Its premium squares' printing ("TW", "DOUBLE WORD SCORE", the star) is no tile.
    photo = render(11, CROSSWORD, {}, design)
    reading = read(photo.jpeg, CROSSWORD.size)
    assert reading.squares() == [[""] * 15 for _ in range(15)]


@pytest.mark.parametrize("design", ["white", "vintage"])
def test_wooden_tiles_on_a_white_or_an_old_style_board_read_as_drawn(design):
    # A wooden tile's grain is no square's plain face, and an old-style board's cream squares
    # between black lines are no blank tiles.
    seed = next(s for s in range(100, 200) if render(s, CROSSWORD, {}, design).wooden)
    tiles = random_tiles(random.Random(seed), CROSSWORD, 0.3)
    photo = render(seed, CROSSWORD, tiles, design)
    assert photo.wooden and photo.design == design
    occupancy, letters = wrong(read(photo.jpeg, CROSSWORD.size), tiles)
    # At least 99% of the squares (tiles laid at random lie alone, and a lone tile read
    # doubtfully reads empty by design) and 95% of the letters.
    assert len(occupancy) <= 2, occupancy
    assert len(letters) <= len(tiles) // 20, letters


@pytest.mark.parametrize("design", ["white", "green"])
def test_an_empty_board_whose_premium_squares_are_printed_inset_reads_empty(design):
    # Printed inset and lettered light, a premium square looks like a coloured tile.
    seed = next(s for s in range(100, 300) if random.Random(f"{s}/looks").random() < 0.1)
    photo = render(seed, CROSSWORD, {}, design)
    reading = read(photo.jpeg, CROSSWORD.size)
    assert reading.squares() == [[""] * 15 for _ in range(15)]


@pytest.mark.parametrize("design", ["tournament", "green"])
def test_a_tournament_set_s_light_letters_on_dark_tiles_read_as_drawn(design):
    # A club's tiles: one dark colour, lettered light; their blanks plain dark faces.
    tiles = random_tiles(random.Random(31), CROSSWORD, 0.3)
    tiles.update({(7, 7): "?", (7, 8): "Q"})
    seed = next(s for s in range(200, 400) if random.Random(f"{s}/tournament").random() < 0.1)
    photo = render(seed, CROSSWORD, tiles, design)
    assert photo.tournament and photo.design == design
    occupancy, letters = wrong(read(photo.jpeg, CROSSWORD.size), tiles)
    assert len(occupancy) <= 2, occupancy
    assert len(letters) <= len(tiles) // 20, letters


def test_a_recent_phone_s_crisp_photo_of_thin_letters_reads_as_drawn():
    # Sharpened and hardly grainy, a thin I is still a letter, not a premium square's printing.
    seed = next(s for s in range(400, 700) if _crisp_and_thin(s))
    tiles = random_tiles(random.Random(seed), CROSSWORD, 0.3)
    tiles.update({(7, 6): "I", (7, 7): "I", (7, 8): "L"})
    photo = render(seed, CROSSWORD, tiles)
    assert photo.crisp and photo.wooden
    occupancy, letters = wrong(read(photo.jpeg, CROSSWORD.size), tiles)
    assert len(occupancy) <= 2, occupancy
    assert len(letters) <= len(tiles) // 20, letters
    assert read(photo.jpeg, CROSSWORD.size).squares()[7][6:9] == ["I", "I", "L"]


def _words(*laid: tuple[str, int, int, bool]) -> dict[tuple[int, int], str]:
    """Words laid at (row, col), across or down."""
    tiles = {}
    for word, row, col, across in laid:
        for k, letter in enumerate(word):
            tiles[(row, col + k) if across else (row + k, col)] = letter
    return tiles


def test_an_i_whose_value_is_printed_at_its_foot_reads_as_an_i(monkeypatch):
    # Many sets print the value just past the letter's foot: an I then looks like an L.
    from scorekeeper.photo import render as rendering

    monkeypatch.setattr(rendering, "HUGGED_VALUES", 1.0)
    tiles = _words(("LIMITS", 7, 3, True), ("FINISH", 4, 4, False), ("ILLICIT", 9, 8, True))
    photo = render(8_400_011, CROSSWORD, tiles)
    squares = read(photo.jpeg, CROSSWORD.size).squares()
    letters = {square: squares[square[0]][square[1]] for square in tiles}
    assert [s for s, t in tiles.items() if letters[s] != t] == []


def test_a_blank_printed_with_a_smiling_face_reads_as_a_blank_not_an_o(monkeypatch):
    from scorekeeper.photo import render as rendering

    monkeypatch.setattr(rendering, "MARKED_BLANKS", 1.0)
    seed = next(s for s in range(8_400_100, 8_400_200) if _blanks_smile(s))
    # A set's two blanks, beside O tiles.
    tiles = _words(("Z?NE", 7, 5, True), ("T?ST", 3, 8, False), ("GOOD", 9, 3, True))
    tiles.update(_words(("BOX", 8, 9, True)))
    photo = render(seed, CROSSWORD, tiles)
    squares = read(photo.jpeg, CROSSWORD.size).squares()
    assert [squares[r][c] for r, c in tiles if tiles[(r, c)] == "?"] == ["?", "?"]
    assert [(r, c) for (r, c), t in tiles.items() if squares[r][c] != t] == []


def _blanks_smile(seed: int) -> bool:
    """The seed's blanks smile, in a crisp photo (the smile is what is asked about, not blur)."""
    from scorekeeper.photo.render import CRISP_PHOTOS

    marks = random.Random(f"{seed}/blanks")
    smiles = marks.random() < 1.0 and marks.choice(["smiley", "print"]) == "smiley"
    return smiles and random.Random(f"{seed}/crisp").random() < CRISP_PHOTOS


def _crisp_and_thin(seed: int) -> bool:
    from scorekeeper.photo.drawing import LIGHT_FONT

    photo = render(seed, CROSSWORD, {})
    face = photo.tile_set.font if photo.tile_set else None
    return photo.crisp and photo.wooden and face is not None and face.endswith(LIGHT_FONT)


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


# Misreads the reader's geometry was mended on, each a rendered photo that showed it (seeds
# from render.VALIDATION: never trained on, nor the bench's).


def _seeded(seed, ruleset, **view):
    """The board of the reader's validation renders for ``seed``: tiles on up to half of it
    (``view``: ``render``'s ``steep`` or ``dim``), as it was drawn when its test was written."""
    rules = RULESETS[ruleset]
    rng = random.Random(seed)
    tiles = random_tiles(rng, rules, rng.uniform(0.0, 0.5))
    return rules, tiles, render(seed, rules, tiles, newer=False, **view)


def _corners_off(photo, reading, size):
    """How far the corners found are from the grid's drawn ones, in squares (the most)."""
    import numpy as np

    scale = decode(photo.jpeg).shape[1] / _width(photo.jpeg)
    drawn = np.array(photo.corners) * scale
    found = np.array(reading.corners)
    pitch = np.mean([np.linalg.norm(drawn[i] - drawn[i - 1]) for i in range(4)]) / size
    return max(np.linalg.norm(found - corner, axis=1).min() for corner in drawn) / pitch


@pytest.mark.parametrize(
    "seed,ruleset",
    # Upwords' grey frame; a deluxe board's dark frame on a striped cloth, its edge strip
    # crossed by fainter lines than its inner ones.
    [(8_000_022, "upwords-10"), (8_000_168, "crossword-classic")],
)
def test_a_grid_that_fits_a_square_out_on_the_frame_is_moved_back_onto_the_board(seed, ruleset):
    # Its lines fit as well a square out, the frame's edge showing as its last line: the
    # strip of squares out on the frame is crossed by no line.
    rules, tiles, photo = _seeded(seed, ruleset)
    reading = read(photo.jpeg, rules.size)
    assert _corners_off(photo, reading, rules.size) < 1 / 3
    occupancy, letters = wrong(reading, tiles)
    assert len(occupancy) <= rules.size**2 // 100  # a square off misreads dozens
    assert len(letters) <= len(tiles) // 20, letters


def test_a_grid_whose_lines_fit_a_square_out_is_moved_onto_the_premium_squares():
    # A sparse 15 x 15 board whose lines fit as well a column out, with lines beyond both
    # edges: where its premium squares lie says where the grid is.
    rules, tiles, photo = _seeded(8_000_153, "crossword-classic")
    reading = read(photo.jpeg, rules.size)
    assert _corners_off(photo, reading, rules.size) < 1 / 3
    occupancy, letters = wrong(reading, tiles)
    in_words = {
        (r, c) for r, c in tiles if {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & tiles.keys()
    }
    # A column off misread 22 squares; a lone tile read doubtfully reads empty by design.
    assert len([square for square in occupancy if square not in tiles]) <= 2, occupancy
    assert len(set(occupancy) & in_words) <= 2, occupancy
    assert len(set(letters) & in_words) <= 2, letters


def test_a_grid_a_square_off_on_a_crowded_board_is_moved_onto_its_premium_squares():
    # Seen from well to the side, tiles over many premium squares: where the rest lie fits
    # the grid a square back far better than where its lines put it.
    from scorekeeper.photo import premiums

    rules, tiles, photo = _seeded(8_000_179, "crossword-classic", steep=True)
    reading = read(photo.jpeg, rules.size)
    assert _corners_off(photo, reading, rules.size) < 1 / 2  # the far corner, seen a sliver
    occupancy, letters = wrong(reading, tiles)
    assert not occupancy and len(letters) <= len(tiles) // 20, (occupancy, letters)
    # Neither the premium squares' colours nor the squares read as empty moving it:
    with (
        mock.patch.object(premiums, "SHIFT_FIT", premiums.PREMIUM_FIT),
        mock.patch.object(premiums, "READ_FIT", 2.0),
    ):
        occupancy, _ = wrong(read(photo.jpeg, rules.size), tiles)
    assert len(occupancy) > 20, "the grid's lines alone leave it a square off"


@pytest.mark.parametrize("seed", [8_300_006, 8_300_384])
def test_a_tournament_board_crowded_with_dark_tiles_is_read_where_its_empty_squares_say(seed):
    # Dark tiles over much of a tournament board stand out from its yellow squares as its
    # premium squares do: by colour alone the grid fits a row or a column off; the squares
    # read as empty, the tiles left out, fit the premium squares only where the grid is.
    from scorekeeper.photo import premiums

    rules = RULESETS["crossword-classic"]
    rng = random.Random(seed)
    tiles = random_tiles(rng, rules, rng.uniform(0.0, 0.5))
    photo = render(seed, rules, tiles)
    reading = read(photo.jpeg, rules.size)
    assert _corners_off(photo, reading, rules.size) < 1 / 2
    occupancy, letters = wrong(reading, tiles)
    assert len(occupancy) <= 3 and len(letters) <= len(tiles) // 10, (occupancy, letters)
    with mock.patch.object(premiums, "READ_FIT", 2.0):  # no shift is ever taken
        off = read(photo.jpeg, rules.size)
    assert _corners_off(photo, off, rules.size) > 3 / 4
    assert len(wrong(off, tiles)[0]) > 40, "the grid's lines and colours alone leave it off"


def test_the_empty_squares_fit_the_premium_squares_only_where_the_grid_lies():
    import numpy as np

    from scorekeeper.photo.premiums import _premium_layout, shift_by_read_premiums

    n = 15
    layout = np.pad(_premium_layout() > 0, 1)
    layout[8, 8] = True  # the star
    rng = np.random.default_rng(1)
    colours = np.where(layout[:, :, None], (60.0, 170.0, 120.0), (100.0, 128.0, 150.0))
    colours = colours + rng.normal(0, 2, colours.shape)
    colours[0, :] = colours[:, 0] = colours[-1, :] = colours[:, -1] = (50.0, 150.0, 160.0)
    # Tiles over 60% of the board, plain and premium squares alike, as dark as no square.
    tiled = np.zeros((n + 2, n + 2), bool)
    tiled[1:-1, 1:-1] = rng.random((n, n)) < 0.6
    colours[tiled] = (20.0, 128.0, 128.0)
    empty = ~tiled
    assert shift_by_read_premiums(empty, colours, n) == (0, 0)
    # The same board with the grid found a row down and a column left: the squares round it
    # hold what the board shows there.
    grown = np.pad(colours, ((1, 1), (1, 1), (0, 0)), mode="edge")
    grown_empty = np.pad(empty, 1, constant_values=True)
    off = np.s_[2 : 2 + n + 2, 0 : n + 2]
    assert shift_by_read_premiums(grown_empty[off], grown[off], n) == (-1, 1)
    # Found two columns right, with two squares read round it: two columns back.
    wider = np.pad(colours, ((3, 3), (3, 3), (0, 0)), mode="edge")
    wider_empty = np.pad(empty, 3, constant_values=True)
    two_off = np.s_[2 : 2 + n + 4, 4 : 4 + n + 4]
    assert shift_by_read_premiums(wider_empty[two_off], wider[two_off], n) == (0, -2)


def test_a_board_whose_empty_half_holds_a_grid_of_half_size_squares_is_read_whole():
    # A game's words in one half of an Upwords board: the empty half's lines stand out more
    # than the tiled half's, and 10 squares of half the size fit it, meeting every other line.
    rules = RULESETS["upwords-10"]
    rows = ["...FINK...", "...OD.....", "..MELA....", ".COSEC....", "NOH.SH....",
            "UTU.T.....", "GERT......", ".D.O......", "...Y......", "...O......"]  # fmt: skip
    tiles = {(r, c): t for r, row in enumerate(rows) for c, t in enumerate(row) if t != "."}
    photo = render(8_300_022, rules, tiles, newer=False)
    reading = read(photo.jpeg, rules.size)
    assert _corners_off(photo, reading, rules.size) < 1 / 3
    occupancy, letters = wrong(reading, tiles)
    assert occupancy == [] and len(letters) <= 1, (occupancy, letters)


# A folding board's half (in its grid's squares: the grid is 0 to 1 across and down), as its
# outline is found: its frame, half a square wide, and the hinge across the middle.
FRAME = 0.5 / 15
TOP_HALF = [(-FRAME, -FRAME), (1 + FRAME, -FRAME), (1 + FRAME, 0.5), (-FRAME, 0.5)]
LEFT_HALF = [(-FRAME, -FRAME), (0.5, -FRAME), (0.5, 1 + FRAME), (-FRAME, 1 + FRAME)]


@pytest.mark.parametrize("seed,half", [(8_300_001, TOP_HALF), (8_300_005, LEFT_HALF)])
def test_a_folding_board_of_which_one_half_s_outline_is_found_is_read_whole(
    seed, half, monkeypatch
):
    # A folding board's hinge is an edge from frame to frame: on a cloth of its frame's
    # colour, one half's outline may be all that is found (an Indian board on a bedsheet).
    # Doubled across its hinge, that outline holds the whole grid.
    import cv2
    import numpy as np

    assert printing(seed).fold is not None
    rng = random.Random(seed)
    tiles = random_tiles(rng, CROSSWORD, rng.uniform(0.0, 0.5))
    photo = render(seed, CROSSWORD, tiles)
    rgb = decode(photo.jpeg)
    drawn = np.array(photo.corners, np.float32) * rgb.shape[1] / _width(photo.jpeg)
    unit = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32)
    to_photo = cv2.getPerspectiveTransform(unit, drawn)
    outline = cv2.perspectiveTransform(np.array([half], np.float32), to_photo)[0]
    monkeypatch.setattr(grid, "find_outlines", lambda *args, **kwargs: ([outline], []))
    reading = reader.read_image(rgb, CROSSWORD.size)
    assert _corners_off(photo, reading, CROSSWORD.size) < 1 / 3
    occupancy, letters = wrong(reading, tiles)
    # A letter or so the network misreads anyway: the grid is what the hinge moves.
    assert len(occupancy) <= 2 and len(letters) <= max(1, len(tiles) // 20), (occupancy, letters)


@pytest.mark.parametrize("seed", [8_600_008, 8_600_068])
def test_an_empty_wooden_board_whose_lines_do_not_show_is_found_by_its_premium_squares(seed):
    # The wood's grain runs along one way of the grid's lines and hides them: no regular grid
    # is seen in any outline, but the premium squares lie as on every 15 x 15 board.
    photo = render(seed, CROSSWORD, {}, "wooden")
    reading = read(photo.jpeg, 15)
    assert _corners_off(photo, reading, 15) < 1 / 3
    assert not any(any(row) for row in reading.squares())


@pytest.mark.parametrize(
    "seed,design",
    # A pink premium square washed out at a glare's edge, beside squares read only partly as
    # tiles; blurred "2L" printings read surely as tiles seen turned, and as no letter.
    [(8_600_025, "red"), (8_600_243, "wooden")],
)
def test_an_empty_board_s_printings_read_partly_as_tiles_read_empty(seed, design):
    photo = render(seed, CROSSWORD, {}, design)
    assert not any(any(row) for row in read(photo.jpeg, 15).squares())


def test_an_empty_board_whose_grid_fits_a_square_out_is_found_where_it_lies():
    photo = render(8_500_028, CROSSWORD, {}, "wooden")
    reading = read(photo.jpeg, CROSSWORD.size)
    assert _corners_off(photo, reading, CROSSWORD.size) < 1 / 3
    assert reading.squares() == [[""] * 15 for _ in range(15)]


def test_a_dark_board_on_a_dark_table_with_a_hand_at_its_edge_is_found():
    # Grey Upwords on brown wood, the grain as coarse as its squares, a hand over its frame.
    rules, tiles, photo = _seeded(8_000_019, "upwords-8")
    reading = read(photo.jpeg, rules.size)
    assert _corners_off(photo, reading, rules.size) < 1 / 3
    occupancy, letters = wrong(reading, tiles)
    assert occupancy == []
    assert len(letters) <= len(tiles) // 20, letters


def test_a_square_in_a_glare_is_no_tile():
    # The glare washes a wooden board's square (K12) out to a plain pale face, a blank's, with
    # no tile beside it.
    rules, tiles, photo = _seeded(8_000_000, "crossword-classic")
    assert (11, 10) not in tiles
    reading = read(photo.jpeg, rules.size)
    assert reading.squares()[11][10] == ""
    occupancy, _ = wrong(reading, tiles)
    # Elsewhere only a blank's plain face may be read as a wooden square's, or the other way
    # round (what the reader tells least surely: docs/performance.md).
    squares = reading.squares()
    assert [sq for sq in occupancy if "?" not in (tiles.get(sq), squares[sq[0]][sq[1]])] == []


@pytest.mark.parametrize(
    "seed,ruleset",
    [(8_200_000, "crossword-classic"), (8_200_001, "upwords-10"), (8_200_004, "crossword-classic")],
)
def test_tiles_laid_facing_each_player_are_each_read_their_own_way_up(seed, ruleset):
    # Each tile laid facing one of the board's four sides: the board's way up is the one
    # most tiles read in, and each other tile takes its letter from the turn it reads in.
    rules = RULESETS[ruleset]
    rng = random.Random(seed)
    tiles = random_tiles(rng, rules, rng.uniform(0.0, 0.5))
    photo = render(seed, rules, tiles, facing=True, newer=False)
    reading = read(photo.jpeg, rules.size)
    # The render's way up is one of the four: the one the squares agree with.
    occupancy, letters = min(
        (wrong(reading.turned(turn), tiles) for turn in range(4)),
        key=lambda found: len(found[0]) + len(found[1]),
    )
    assert len(occupancy) <= rules.size**2 // 50, occupancy
    assert len(letters) <= len(tiles) // 6, letters  # all turned one way: more than half


def test_a_tile_seen_turned_takes_its_letter_from_the_turn_it_reads_in_and_printing_does_not():
    import numpy as np

    n = 3
    upright = np.zeros((n, n, reader.OUTPUTS), np.float32)
    upright[:, :, 0] = 1
    turns = [np.array(np.rot90(upright, turn)) for turn in range(4)]
    k, h = reader.CLASSES.index("K"), reader.CLASSES.index("H")

    def put(square, turn, chances):
        # ``square`` as the board lies in turn 0, its reading in ``turn``.
        r, c = square
        spot = [(r, c), (n - 1 - c, r), (n - 1 - r, n - 1 - c), (c, n - 1 - r)][turn]
        turns[turn][spot] = chances

    def seen(letter=None, turned=0.0, empty=0.0):
        chances = np.zeros(reader.OUTPUTS, np.float32)
        chances[reader.TURNED], chances[0] = turned, empty
        if letter is not None:
            chances[letter] = 1 - turned - empty
        return chances

    # A K laid facing the board's right side (A1): seen turned but in turn 1.
    for turn in range(4):
        put((0, 0), turn, seen(k) if turn == 1 else seen(turned=0.95))
    # A premium's printing (C3): seen turned, as an H in turn 3, and partly empty in turn 1.
    for turn in range(4):
        put((2, 2), turn, [seen(turned=0.9), seen(h, empty=0.6), seen(turned=0.5, empty=0.4),
                           seen(h, turned=0.1)][turn])  # fmt: skip
    # An H laid on its side seen from low down (C1): partly empty upside down.
    for turn in range(4):
        put((0, 2), turn, [seen(turned=0.9), seen(turned=0.5, empty=0.4), seen(h, empty=0.2),
                           seen(turned=0.8, empty=0.1)][turn])  # fmt: skip
    printed = np.zeros((n, n), bool)
    printed[2, 2] = True  # C3 a premium square, C1 plain
    mixed = each_tile_its_way(turns, printed)
    assert mixed[0][0, 0].argmax() == k
    assert mixed[0][2, 2].argmax() == reader.TURNED
    # The same square in turn 2's reading (the board upside down): C3, still the K.
    assert mixed[2][2, 2].argmax() == k and mixed[2][0, 0].argmax() == reader.TURNED
    # A square read upright is left as it was.
    assert (mixed[0][1, 1] == turns[0][1, 1]).all()
    # The H reads surely enough on a square that prints nothing; as printing, if it may be.
    assert mixed[0][0, 2].argmax() == h
    assert each_tile_its_way(turns)[0][0, 2].argmax() == reader.TURNED


def test_a_group_of_blanks_alone_reads_empty_and_one_beside_a_letter_does_not():
    # A glare's white on a glossy board reads as a patch of blanks: no play leaves one.
    import numpy as np

    chances = np.zeros((5, 5, reader.OUTPUTS), np.float32)
    chances[:, :, 0] = 1
    blank, f, a = (reader.CLASSES.index(x) for x in "?FA")
    patch = [(0, 0), (0, 1), (1, 0), (1, 1)]
    beside_a_letter = [(3, 3), (3, 4), (4, 4)]
    for square in patch + beside_a_letter:
        chances[square] = 0
        chances[square][blank] = 0.9
        chances[square][0] = 0.1
    chances[4, 3] = 0
    chances[4, 3][a] = 1.0
    # Two doubtful letters side by side (a first play read poorly) are left to the proposal.
    for square in [(3, 0), (4, 0)]:
        chances[square] = 0
        chances[square][f] = 0.5
        chances[square][0] = 0.1
        chances[square][blank] = 0.4
    stray_tiles_are_empty(chances)
    assert all(chances[square].argmax() == 0 for square in patch)
    assert all(chances[square].argmax() == blank for square in beside_a_letter)
    assert chances[3, 0].argmax() == f and chances[4, 0].argmax() == f


def test_a_lone_blank_or_doubtful_letter_reads_empty_and_a_sure_one_or_one_in_a_word_does_not():
    import numpy as np

    chances = np.zeros((5, 5, reader.OUTPUTS), np.float32)
    chances[:, :, 0] = 1
    blank, f, a = (reader.CLASSES.index(x) for x in "?FA")
    # A lone blank (A1), a lone doubtful F (E5), a lone sure F (A5), a blank beside an A (C3).
    for square, letter, sure in [((0, 0), blank, 0.9), ((4, 4), f, 0.6), ((0, 4), f, 0.8),
                                 ((2, 2), blank, 0.9), ((2, 3), a, 1.0)]:  # fmt: skip
        chances[square] = 0
        chances[square][letter] = sure
        chances[square][0] = 1 - sure if letter == a else 0.1
    stray_tiles_are_empty(chances)
    assert chances[0, 0].argmax() == 0 and chances[4, 4].argmax() == 0
    assert chances[0, 0, 0] == pytest.approx(1.0) and chances[0, 0, 1:].sum() == 0
    assert chances[0, 4].argmax() == f
    assert chances[2, 2].argmax() == blank and chances[2, 3].argmax() == a


def test_a_printing_read_partly_as_a_turned_tile_is_empty_and_an_i_is_not():
    # Each square as read in the four turns (turned back to turn 0's squares): empty, the
    # letter I, a turned tile. A premium's printing reads partly as empty every way round; an
    # I (alike upright and upside down, its value aside) reads surely as a tile some way round.
    import numpy as np

    i = reader.CLASSES.index("I")
    reads = {
        (1, 1): [(0.30, 0.10, 0.50), (0.40, 0.05, 0.45), (0.35, 0.10, 0.50), (0.45, 0.05, 0.40)],
        (2, 3): [(0.05, 0.30, 0.33), (0.52, 0.01, 0.30), (0.36, 0.20, 0.04), (0.04, 0.01, 0.81)],
    }
    turns = [np.zeros((5, 5, reader.OUTPUTS), np.float32) for _ in range(4)]
    for turn, chances in enumerate(turns):
        back = np.rot90(chances, -turn)  # a view: turn 0's squares
        back[:, :, 0] = 1
        for square, seen in reads.items():
            empty, letter, turned = seen[turn]
            back[square] = 0
            back[square][0], back[square][i], back[square][reader.TURNED] = empty, letter, turned
    labels_are_empty(turns)
    upright = turns[0][:, :, : reader.TURNED]
    assert upright[1, 1].argmax() == 0 and turns[0][1, 1, reader.TURNED] == 0
    assert upright[2, 3].argmax() == i


def test_squares_read_as_blanks_past_the_two_a_set_has_take_their_next_reading():
    # Four squares read as plain faces in words: a set has two blanks, so the two read least
    # surely are an empty square (B1) and a faint L (D4) the photo shows.
    import numpy as np

    chances = np.zeros((5, 5, reader.OUTPUTS), np.float32)
    chances[:, :, 0] = 1
    blank, l_ = reader.CLASSES.index("?"), reader.CLASSES.index("L")
    for square, sure, other, rest in [((0, 0), 0.9, 0, 0.1), ((2, 2), 0.8, 0, 0.2),
                                      ((0, 1), 0.5, 0, 0.4), ((3, 3), 0.45, l_, 0.4)]:  # fmt: skip
        chances[square] = 0
        chances[square][blank], chances[square][other] = sure, rest
        chances[square][reader.TURNED] = 1 - sure - rest
    as_many_blanks_as_a_set_has(chances, 2)
    assert chances[0, 0].argmax() == blank and chances[2, 2].argmax() == blank
    assert chances[0, 1].argmax() == 0 and chances[3, 3].argmax() == l_
    assert chances[0, 1, blank] == 0 and chances[0, 1].sum() == pytest.approx(1.0)
    # A board of a set without blanks (Upwords) keeps none; two or fewer are left as read.
    before = chances.copy()
    as_many_blanks_as_a_set_has(chances, 2)
    assert (chances == before).all()
    as_many_blanks_as_a_set_has(chances, 0)
    assert chances[0, 0].argmax() == 0 and chances[2, 2].argmax() == 0


def test_a_rendered_board_holds_no_more_blanks_than_a_set():
    rules = RULESETS["crossword-classic"]
    counts = [
        list(random_tiles(random.Random(seed), rules, 0.5).values()).count("?")
        for seed in range(8_300_000, 8_300_040)
    ]
    assert max(counts) == 2
    drawn = [
        list(random_tiles(random.Random(seed), rules, 0.5, blanks=None).values()).count("?")
        for seed in range(8_300_000, 8_300_040)
    ]
    assert max(drawn) > 2  # as training draws them: a plain face is what tells a tile


@pytest.mark.parametrize(
    "seed,ruleset",
    [(8_700_000, "crossword-classic"), (8_700_009, "crossword-classic"), (8_700_034, "upwords-10")],
)
def test_a_board_filling_the_photo_is_found_by_its_grid_s_bent_outline(seed, ruleset):
    # The photo cropped to the grid and a little more: the frame, merged with the table's
    # edges or cut off, gives no outline; the grid's does, its sides bent by the lens so that
    # its straight sides meet its edge only in their middles.
    _read_filling(seed, ruleset)


@pytest.mark.parametrize(
    "seed,ruleset", [(8_700_000, "crossword-classic"), (8_700_002, "upwords-10")]
)
def test_a_board_whose_corner_just_leaves_the_photo_is_found(seed, ruleset):
    # Cropped as above, then the tip of the grid's topmost corner cut off (a board filling the
    # photo, its frame at the photo's edge): the least quadrilateral round what shows puts that
    # corner a few pixels past the photo's edge.
    _read_filling(seed, ruleset, tip=0.008)


def _read_filling(seed, ruleset, tip=None):
    """Read the validation render for ``seed`` cut down to its grid and 9% more (with ``tip``,
    its top cut that share of the grid's side below the grid's topmost corner), and check its
    squares are read right."""
    import numpy as np

    rules, tiles, photo = _seeded(seed, ruleset)
    rgb = decode(photo.jpeg)
    corners = np.array(photo.corners) * rgb.shape[1] / _width(photo.jpeg)
    margin = 0.09 * np.ptp(corners, axis=0).max()
    (x0, y0), (x1, y1) = corners.min(axis=0) - margin, corners.max(axis=0) + margin
    if tip is not None:
        y0 = corners[:, 1].min() + tip * np.ptp(corners, axis=0).max()
    x0, y0 = max(int(x0), 0), max(int(y0), 0)
    cropped = np.ascontiguousarray(rgb[y0 : int(y1), x0 : int(x1)])
    reading = reader.read_image(cropped, rules.size)
    occupancy, letters = wrong(reading, tiles)
    assert len(occupancy) <= 1 and len(letters) <= len(tiles) // 20, (occupancy, letters)


@pytest.mark.parametrize(
    "seed,ruleset,view",
    [
        (8_100_079, "upwords-8", "dim"),
        (8_100_103, "upwords-8", "dim"),
        (8_100_010, "upwords-10", "steep"),
    ],
)
def test_a_dark_photo_or_one_taken_from_well_to_the_side_is_read(seed, ruleset, view):
    # Each was not found: in a dark photo the board's edge against the table falls below the
    # edges' thresholds until the photo is brightened as a phone would expose it (seen from
    # well to the side, the far rows slivers, this one is dark too). Such photos read less
    # surely than others: most squares and letters, not all.
    rules, tiles, photo = _seeded(seed, ruleset, **{view: True})
    reading = read(photo.jpeg, rules.size)
    occupancy, letters = wrong(reading, tiles)
    assert len(occupancy) <= 2 and len(letters) <= len(tiles) * 0.15, (occupancy, letters)


def test_a_dark_photo_is_brightened_to_find_the_board_and_a_lit_one_is_left():
    import numpy as np

    dark = np.full((40, 40, 3), 35, np.uint8)
    dark[:, 20:] = 70
    brightened = grid._exposed(dark)
    assert np.percentile(brightened, 95) == grid.EXPOSED
    assert brightened[0, 0, 0] == 70  # the same gain everywhere: edges keep their share
    lit = np.full((40, 40, 3), 180, np.uint8)
    assert grid._exposed(lit) is lit
    # A dark photo whose board is found as it is is not looked at brightened.
    rules, _, photo = _seeded(8_100_000, "crossword-classic")
    darkened = (decode(photo.jpeg) * 0.5).astype(np.uint8)
    assert np.percentile(darkened, 95) < grid.EXPOSED  # dark
    with mock.patch.object(grid, "_exposed", wraps=grid._exposed) as exposed:
        assert grid.find_grid(darkened, rules.size) is not None
    exposed.assert_not_called()


def test_a_training_board_is_seen_steeply_in_the_dark_or_from_low_only_when_asked():
    import numpy as np

    from scorekeeper.photo.train import board_cuts

    plain, classes = board_cuts(3_000_005)
    again, _ = board_cuts(3_000_005, steep=0.0, dim=0.0)
    harder, harder_classes = board_cuts(3_000_005, steep=1.0, dim=1.0)
    assert np.array_equal(plain, again)  # the default run draws the committed weights' boards
    assert np.array_equal(classes, harder_classes) and not np.array_equal(plain, harder)
    low, low_classes = board_cuts(3_000_005, low=1.0)
    assert np.array_equal(classes, low_classes) and not np.array_equal(plain, low)
    # A fifth of the boards are seen from low down (this one among them).
    assert np.array_equal(board_cuts(3_000_001)[0], board_cuts(3_000_001, low=1.0)[0])
    assert not np.array_equal(board_cuts(3_000_001)[0], board_cuts(3_000_001, low=0.0)[0])


def test_a_training_board_lays_tiles_facing_each_side_only_when_asked_and_labels_them_so():
    import numpy as np

    from scorekeeper.photo.train import LAID, as_seen, board_cuts

    upright, classes = board_cuts(3_000_004, facing=0.0)
    assert (classes < LAID).all()  # every tile laid facing the board's foot
    faced, labels = board_cuts(3_000_004, facing=1.0)
    assert np.array_equal(labels % LAID, classes) and not np.array_equal(faced, upright)
    ways = np.bincount(labels[classes > 0] // LAID, minlength=4)
    assert ways.min() > 0 and ways.sum() == (classes > 0).sum(), ways
    # The default run lays none so: it draws the committed weights' boards.
    assert np.array_equal(board_cuts(3_000_004)[0], upright)
    # A tile laid a quarter turn anticlockwise reads as its letter once its cut is turned
    # three more, and as seen turned otherwise, unless its letter looks the same so turned.
    f, o, n, blank = (reader.CLASSES.index(letter) for letter in "FON?")
    seen = reader.TURNED
    assert as_seen([f + LAID] * 4, [0, 1, 2, 3]).tolist() == [seen, seen, seen, f]
    assert as_seen([o + LAID] * 4, [0, 1, 2, 3]).tolist() == [o, o, o, o]
    assert as_seen([n + LAID] * 4, [0, 1, 2, 3]).tolist() == [seen, n, seen, n]
    assert as_seen([0, f, blank], [2, 0, 1]).tolist() == [0, f, blank]


_WORDS = [
    ((7, 3), 0, "QUARTZES"),
    ((5, 5), 1, "CHAIN"),
    ((2, 10), 1, "JOKERS"),
    ((12, 1), 0, "FLOWED"),
]


@pytest.mark.parametrize("seed,tops", [(8_150_005, (-0.45, 0.0)), (8_150_004, (0.0, -0.5))])
def test_tiles_whose_tops_are_seen_half_a_square_off_are_read_where_they_stand(seed, tops):
    # Seen from low down, a tile's top (its letter) lies up to half a square towards the far
    # side: read where the squares are, each letter reads as its neighbour's or not at all.
    from scorekeeper.photo import flat

    tiles = {
        (r + k * down, c + k * (1 - down)): letter
        for (r, c), down, word in _WORDS
        for k, letter in enumerate(word)
    }
    photo = render(seed, CROSSWORD, tiles, steep=True, tops=tops, newer=False)
    occupancy, letters = wrong(read(photo.jpeg, 15), tiles)
    # At least 80% of the 23 letters (seen so low, a letter is a sliver) ...
    assert len(occupancy) <= 1 and len(letters) <= 4, (occupancy, letters)
    with mock.patch.object(flat, "TOWARDS", ()):
        off_occupancy, off_letters = wrong(read(photo.jpeg, 15), tiles)
    # ... and read where the squares are, twice as many wrong.
    wrong_there = len(off_occupancy) + len(off_letters)
    assert wrong_there >= max(5, 2 * (len(occupancy) + len(letters))), "tops seen off squares"


def test_tiles_whose_tops_are_seen_two_thirds_of_a_square_off_are_read_better_there():
    # From a webcam at the table's edge, a tall tile is seen as its side and its face over a
    # square and a half, the face about two thirds of a square towards the far side: cut
    # where the tops are looked for, four such boards read at most half as many squares
    # wrong as cut where the squares are.
    from scorekeeper.photo import flat

    tiles = {
        (r + k * down, c + k * (1 - down)): letter
        for (r, c), down, word in _WORDS
        for k, letter in enumerate(word)
    }
    looked_for, where_they_are = 0, 0
    for seed, tops in [
        (8_160_000, (0.0, -0.7)),
        (8_160_001, (0.65, 0.0)),
        (8_160_002, (-0.7, 0.0)),
        (8_160_003, (0.0, 0.65)),
    ]:
        photo = render(seed, CROSSWORD, tiles, steep=True, tops=tops)
        occupancy, letters = wrong(read(photo.jpeg, 15), tiles)
        looked_for += len(occupancy) + len(letters)
        with mock.patch.object(flat, "TOWARDS", ()):
            occupancy, letters = wrong(read(photo.jpeg, 15), tiles)
        where_they_are += len(occupancy) + len(letters)
    assert 2 * looked_for <= where_they_are, (looked_for, where_they_are)


def test_the_far_side_is_the_way_the_board_is_seen_smaller():
    import numpy as np

    from scorekeeper.photo.flat import far_side

    # The top edge seen shorter than the bottom one: the far side is up (y down).
    trapezoid = np.array([(300, 100), (700, 100), (900, 400), (100, 400)], np.float32)
    way, squeezed = far_side(trapezoid, 15)
    assert way == pytest.approx(-np.pi / 2) and squeezed < 0.94
    # The board seen from its right: the right edge shorter.
    turned = np.array([(100, 100), (400, 300), (400, 700), (100, 900)], np.float32)
    assert far_side(turned, 15)[0] == pytest.approx(0.0)
    # Seen from straight above, no part is seen smaller.
    square = np.array([(100, 100), (700, 100), (700, 700), (100, 700)], np.float32)
    assert far_side(square, 15)[1] == pytest.approx(1.0)


@pytest.mark.parametrize("size", [15, 10, 8])
@pytest.mark.parametrize("across", [True, False])
def test_a_pad_ruled_one_way_on_a_striped_cloth_is_no_board(size, across):
    # Lines evenly spaced one way only, in a four-cornered outline, on a cloth striped the
    # same way: a board's grid shows its lines both ways (the network reads letters into
    # stripes, so the tiles read there could not vouch for one).
    import cv2
    import numpy as np

    image = np.full((900, 1200, 3), 120, np.uint8)
    for at in range(0, 1200, 50):
        stripe = ((0, at), (1199, at + 16)) if across else ((at, 0), (at + 16, 899))
        cv2.rectangle(image, *stripe, (200, 190, 170), -1)
    cv2.rectangle(image, (300, 200), (800, 650), (90, 60, 40), -1)
    for at in range(0, 450, 50):
        line = ((300, 200 + at), (800, 200 + at)) if across else ((300 + at, 200), (300 + at, 650))
        cv2.line(image, *line, (230, 230, 230), 2)
    noisy = image + np.random.default_rng(0).normal(0, 8, image.shape)
    with pytest.raises(PhotoError, match="No board was found"):
        read(encode(noisy.clip(0, 255).astype(np.uint8), 90), size)
