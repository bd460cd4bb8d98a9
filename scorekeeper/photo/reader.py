"""Reading a board from a photo: where the board is (``grid``), and what each square holds.

Each square is cut out with a little of its neighbours (a tile half off its square still
shows most of itself there), the cuts moved
towards the far side where the tiles' tops are seen there (``flat``), and read by a small
network (``model.onnx``, trained by ``scorekeeper.photo.train`` on made-up photos): empty, a
letter, a blank, or a tile seen turned. On a 15 × 15 board the squares round the grid are read
too, and the grid moved a square where the squares read as empty fit the premium squares'
pattern only there (tiles, which stand out from a board as its premiums do, left out). Which
way up the board lies is unknown, so the squares that may hold a tile are read in the four
turns and the turn whose letters read most surely is kept; a tile seen turned that way
(players lay their tiles facing themselves) takes its letter from the turn it reads best in.
A square that reads as no letter any way round but partly as empty every way round is a
premium square's printing, read as empty, and so are squares read as tiles that no play
leaves (a lone tile read doubtfully, a group of blanks alone: a glare's white), and squares
read as blanks past the two a set has (the two read most surely kept). A square read as
empty beside a tile that has the tiles' colour, not its kind's, is a tile, and one read as a
blank that has its kind's colour is empty (``colours``).

Bounded: the photo's size is read from its header and refused past ``MAX_PIXELS`` before it is
decoded; it is read at most ``WORK_SIDE`` pixels a side.
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.photo.colours import as_coloured, by_colour, cut_colours, square_kinds
from scorekeeper.photo.flat import (
    CONTEXT,
    ROOM,
    SQUARE,
    for_network,
    seen_at,
    straighten,
    tops,
    turned_cuts,
)
from scorekeeper.photo.grid import find_grid
from scorekeeper.photo.premiums import PREMIUM_SIZE, onto_the_read_premiums
from scorekeeper.photo.squares import (
    CLASSES,
    OUTPUTS,
    TURNED,
    Floats,
    as_many_blanks_as_a_set_has,
    each_tile_its_way,
    labels_are_empty,
    stray_tiles_are_empty,
    way_up,
)

MODEL = Path(__file__).with_name("model.onnx")
MAX_PIXELS = 40_000_000  # a phone's 12 MP photo, three times over: past that, refused unread
MAX_BYTES = 8 * 1024 * 1024
WORK_SIDE = 1600  # the photo is read at most this many pixels a side
# The most blanks a set of a board's size has: the crossword game's two (Upwords has none).
BLANKS = {PREMIUM_SIZE: 2}

Image = npt.NDArray[np.uint8]


class PhotoError(Exception):
    """A photo that can't be read, in a sentence for the person who took it."""


@dataclass(frozen=True)
class Reading:
    """What a photo shows: per square (row, col), the chance of each of ``CLASSES``."""

    size: int
    chances: Floats  # size × size × len(CLASSES), the board the way up it reads best
    corners: list[tuple[float, float]]  # the grid's corners in the photo: TL, TR, BR, BL
    turns: tuple[Floats, ...] = ()  # the chances in each quarter turn (0-3), when read
    turn: int = 0  # which of them ``chances`` is
    # The chances in each turn with every tile read as if laid facing that turn's way up
    # (``turns`` reads each tile the way up it lies): a first play's tiles all face its player.
    one_way: tuple[Floats, ...] = ()

    def turned(self, turn: int) -> Reading:
        """The reading as if the board lay ``turn`` quarter turns from the way it reads best."""
        if not self.turns:
            return self
        shift = (turn - self.turn) % 4
        corners = [self.corners[(i + shift) % 4] for i in range(4)]
        return Reading(self.size, self.turns[turn], corners, self.turns, turn, self.one_way)

    def facing_one_way(self) -> Reading:
        """The reading with every tile read as laid facing the board's way up."""
        if not self.one_way:
            return self
        return Reading(self.size, self.one_way[self.turn], self.corners, self.one_way, self.turn)

    def squares(self) -> list[list[str]]:
        best = self.chances[:, :, :TURNED].argmax(axis=2)
        return [[CLASSES[int(best[r, c])] for c in range(self.size)] for r in range(self.size)]

    def confidence(self) -> list[list[float]]:
        top = self.chances[:, :, :TURNED].max(axis=2)
        return [[round(float(top[r, c]), 3) for c in range(self.size)] for r in range(self.size)]


def decode(data: bytes) -> Image:
    """The photo as RGB, at most ``WORK_SIDE`` a side; ``PhotoError`` if it is no image, or
    bigger than ``MAX_PIXELS`` (a decompression bomb is refused from its header, undecoded)."""
    from PIL import Image as PILImage
    from PIL import UnidentifiedImageError

    if len(data) > MAX_BYTES:
        raise PhotoError(f"The photo is over {MAX_BYTES // (1024 * 1024)} MB: send a smaller one.")
    try:
        with PILImage.open(io.BytesIO(data)) as header:
            width, height = header.size
            kind = header.format
    except PILImage.DecompressionBombError:
        raise PhotoError(
            f"The photo has more pixels than the {MAX_PIXELS // 1_000_000} million the reader "
            "takes: send a smaller one."
        ) from None
    except (UnidentifiedImageError, OSError, ValueError):
        raise PhotoError("That file is not a photo the reader knows (JPEG, PNG or WebP).") from None
    if kind not in {"JPEG", "PNG", "WEBP", "MPO"}:
        raise PhotoError("That file is not a photo the reader knows (JPEG, PNG or WebP).")
    if width * height > MAX_PIXELS:
        raise PhotoError(
            f"The photo is {width} × {height} pixels, more than the "
            f"{MAX_PIXELS // 1_000_000} million the reader takes: send a smaller one."
        )
    # A JPEG is decoded at a half, quarter or eighth of its size when that is enough.
    flag = cv2.IMREAD_COLOR
    if kind in {"JPEG", "MPO"}:
        longest = max(width, height)
        for factor, reduced in (
            (8, cv2.IMREAD_REDUCED_COLOR_8),
            (4, cv2.IMREAD_REDUCED_COLOR_4),
            (2, cv2.IMREAD_REDUCED_COLOR_2),
        ):
            if longest // factor >= WORK_SIDE:
                flag = reduced
                break
    bgr = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if bgr is None:
        raise PhotoError("The photo could not be decoded: it may be cut short.")
    scale = WORK_SIDE / max(bgr.shape[:2])
    if scale < 1:
        bgr = cv2.resize(bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))


_lock = threading.Lock()


@cache
def _session() -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    # One thread: the server's workers share the machine, and a board is small work.
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(MODEL), options, providers=["CPUExecutionProvider"])


def classify(batch: Floats) -> Floats:
    """The chance of each class for each cut."""
    with _lock:
        session = _session()
    logits = session.run(None, {"cuts": batch})[0].astype(np.float32)
    logits -= logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True), np.float32)


def read(data: bytes, n: int) -> Reading:
    """Read an ``n`` × ``n`` board from a photo's bytes; ``PhotoError`` when there is none."""
    return read_image(decode(data), n)


def read_image(rgb: Image, n: int) -> Reading:
    corners = find_grid(rgb, n)
    if corners is None:
        raise PhotoError(
            "No board was found in the photo: take it from above, the whole board in the frame."
        )
    wide = straighten(rgb, corners, n, ROOM)
    seen = seen_at(wide, n)
    upright = classify(for_network(seen)).reshape(n, n, OUTPUTS)
    if n == PREMIUM_SIZE:
        shifted = onto_the_read_premiums(rgb, corners, n, upright, classify)
        if shifted is not None:
            corners = shifted
            wide = straighten(rgb, corners, n, ROOM)
            seen = seen_at(wide, n)
            upright = classify(for_network(seen)).reshape(n, n, OUTPUTS)
    offsets = tops(wide, corners, n, upright, classify)
    if offsets is not None:
        seen = seen_at(wide, n, offsets)
        upright = classify(for_network(seen)).reshape(n, n, OUTPUTS)
    coloured_tiles, coloured_empty = by_colour(upright, cut_colours(seen, SQUARE, CONTEXT))
    if offsets is not None and np.hypot(offsets[:, :, 0], offsets[:, :, 1]).max() > SQUARE / 4:
        # Seen from low down, a tall tile's side fills the square beyond it with its colour; a
        # top moved less stays short of the middle half a square's colour is taken from.
        coloured_tiles[:] = False
    # Only a square that may hold a tile reads differently turned: the rest keep their reading.
    tiled = upright[:, :, 0] < 0.9
    best_class = upright.argmax(axis=2)
    if not (((best_class >= 1) & (best_class <= 26)) | (best_class == TURNED)).any():
        # No lettered tile: nothing tells the way up, and nothing reads otherwise turned.
        turns: list[Floats] = [upright]
    else:
        turns = []
        for turn in range(4):
            # np.rot90 turns anticlockwise: turn k shows the board as if the photo were turned.
            chances = np.array(np.rot90(upright, turn))
            which = np.rot90(tiled, turn)
            if turn and which.any():
                chances[which] = classify(for_network(turned_cuts(seen, turn)[which]))
            turns.append(chances)
        labels_are_empty(turns)
    chosen = way_up(turns)
    one_way: list[Floats] = []
    if len(turns) == 4:
        one_way = [chances.copy() for chances in turns]
        turns = each_tile_its_way(turns, square_kinds(n) > 0)
    for turn, chances in enumerate(turns + one_way):
        as_coloured(chances, np.rot90(coloured_tiles, turn % 4), np.rot90(coloured_empty, turn % 4))
        stray_tiles_are_empty(chances)
        as_many_blanks_as_a_set_has(chances, BLANKS.get(n, 0))
    outline = [(float(x), float(y)) for x, y in corners]
    reading = Reading(n, turns[0], outline, tuple(turns), 0, tuple(one_way))
    # The photo's corner ``chosen`` steps round is the grid's top-left, read that way up.
    return reading.turned(chosen)
