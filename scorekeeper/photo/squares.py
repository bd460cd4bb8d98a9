"""What the squares' readings say together, once each is read in the board's four turns:
which way up the board lies, each tile's own way up, and readings that no play leaves.

Each square's reading is the network's chance of each of ``CLASSES`` and of ``TURNED`` (a tile
seen sideways or upside down); ``turns[k]`` is the board read as if the photo were turned ``k``
quarter turns anticlockwise (``np.rot90``).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float32]

CLASSES = ["", *"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "?"]  # "" empty, "?" a blank showing no letter
# The network's one more answer: a tile seen sideways or upside down, which tells the way up.
TURNED = len(CLASSES)
OUTPUTS = TURNED + 1


def labels_are_empty(turns: list[Floats]) -> None:
    """A square that reads as no letter surely any way round, and partly as empty every way
    round, yet partly as a turned tile, shows an empty square's printing ("DW", a star), not
    a tile: its turned chance is made empty's, in place (a tile laid askew reads as its letter
    one way round; an I, alike upright and upside down, reads surely as a tile, if not as an
    I, some way round)."""
    back = [np.rot90(chances, -turn) for turn, chances in enumerate(turns)]
    letter = np.max([b[:, :, 1:27].max(axis=2) for b in back], axis=0)
    empty = np.min([b[:, :, 0] for b in back], axis=0)
    for turn, chances in enumerate(turns):
        printed = np.rot90((letter < 0.5) & (empty > 0.1), turn)
        chances[printed, 0] += chances[printed, TURNED]
        chances[printed, TURNED] = 0


BLANK = CLASSES.index("?")
LONE_SURE = 0.7  # how sure a lone tile's letter must be to be believed


def stray_tiles_are_empty(chances: Floats) -> None:
    """Squares read as tiles that no play can have left are read as empty, in place: a lone
    tile (none beside it) read as a blank or its letter not surely (``LONE_SURE``), and a group
    of tiles side by side all read as blanks. Every word has two letters or more and touches
    the rest, and a set has two blanks, so these are a premium square's printing or a glare's
    white read as tiles. A lone sure letter is left: it names a square the photo can't square
    with a play."""
    # A square reads as a tile as ``Reading.squares`` has it, not one only partly so (a
    # glare's edge) nor a premium's printing seen partly as a turned tile.
    read = chances[:, :, :TURNED].argmax(axis=2)
    tile = read != 0
    count, groups = cv2.connectedComponents(tile.astype(np.uint8), connectivity=4)
    sizes = np.bincount(groups.ravel(), minlength=count)
    lettered = np.unique(groups[tile & (read != BLANK)])
    # Sure of a letter, not of a tile seen turned: a printing seen so reads as no letter.
    doubtful = (read == BLANK) | (chances[:, :, 1:27].max(axis=2) < LONE_SURE)
    lone = tile & (sizes[groups] == 1) & doubtful
    blanks_alone = tile & ~np.isin(groups, lettered)
    stray = lone | blanks_alone
    chances[stray, 0] = chances[stray].sum(axis=1)
    chances[stray, 1:] = 0


def as_many_blanks_as_a_set_has(chances: Floats, blanks: int) -> None:
    """Of the squares read as a blank showing no letter, only the ``blanks`` read most surely
    so stay blanks; the rest take their next likeliest reading, in place. A set has no more
    blanks than that (two in the crossword game, none in Upwords or Letter UP), so the rest
    are an empty square's plain face, or a letter the photo shows faintly."""
    read = chances[:, :, :TURNED].argmax(axis=2)
    rows, cols = np.nonzero(read == BLANK)
    if len(rows) <= blanks:
        return
    extra = np.argsort(-chances[rows, cols, BLANK], kind="stable")[blanks:]
    rows, cols = rows[extra], cols[extra]
    chances[rows, cols, BLANK] = 0
    chances[rows, cols] /= chances[rows, cols].sum(axis=1, keepdims=True) + 1e-9


TILE_EVERY_WAY = 0.25  # the most a tile may read as empty in any turn to take another's letter
# ... unless it reads at least this surely as a letter in its own turn, on a square that prints
# nothing: seen from low down, a tile laid on its side can read as an empty square turned.
SURE_LETTER = 0.7


def each_tile_its_way(
    turns: list[Floats], printed: npt.NDArray[np.bool_] | None = None
) -> list[Floats]:
    """The four turns' readings with each tile read the way up it lies: players lay their
    tiles facing themselves, so a square read as a tile seen turned takes its reading from
    the turn in which it reads most surely as a letter (its place and the board's way up are
    unchanged; the way up was chosen from the readings as they were). ``printed`` (n × n, the
    same any way round) marks the squares that print a premium: only those can show printing."""
    # Each turn's reading turned back to turn 0's squares, and how surely each square reads
    # as an upright letter there.
    back = [np.rot90(chances, -turn) for turn, chances in enumerate(turns)]
    upright = np.stack([b[:, :, 1:27].max(axis=2) - b[:, :, TURNED] for b in back])
    best = np.take_along_axis(np.stack(back), upright.argmax(axis=0)[None, :, :, None], 0)[0]
    # A tile reads as a tile whichever way round; a premium square's printing, seen turned
    # as a row of letters, reads partly as empty some way round.
    a_tile_every_way = np.max([b[:, :, 0] for b in back], axis=0) < TILE_EVERY_WAY
    if printed is None:
        printed = np.ones(a_tile_every_way.shape, bool)
    a_sure_letter = ~printed & (best[:, :, 1:27].max(axis=2) >= SURE_LETTER)
    mixed = []
    for turn, chances in enumerate(back):
        seen_turned = chances.argmax(axis=2) == TURNED
        take = seen_turned & (upright.max(axis=0) > 0) & (a_tile_every_way | a_sure_letter)
        chances = np.where(take[:, :, None], best, chances)
        mixed.append(np.ascontiguousarray(np.rot90(chances, turn)))
    return mixed


def way_up(turns: list[Floats]) -> int:
    """The turn whose lettered tiles least look turned, and read most surely (an empty square
    or a blank reads the same any way), stray tiles (``stray_tiles_are_empty``) left out."""
    best, chosen = -np.inf, 0
    for turn, chances in enumerate(turns):
        chances = chances.copy()
        stray_tiles_are_empty(chances)
        flat_chances = chances.reshape(-1, OUTPUTS)
        best_class = flat_chances.argmax(axis=1)
        lettered = (best_class >= 1) & (best_class <= 26) | (best_class == TURNED)
        if not lettered.any():
            continue
        tiles = flat_chances[lettered]
        sureness = float((tiles[:, 1:27].max(axis=1) - tiles[:, TURNED]).sum())
        if sureness > best + 1e-6:
            best, chosen = sureness, turn
    return chosen
