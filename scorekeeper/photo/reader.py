"""Reading a board from a photo: where the board is, and what each square holds.

The board is found as the photo's largest four-cornered outline (its frame, or its grid where
it has no frame), its view straightened to a square (a perspective warp), and the grid found
inside it by the regular lines its squares make. Each square is then cut out with a little of
its neighbours (a tile half off its square still shows most of itself there) and read by a
small network (``model.onnx``, trained by ``scorekeeper.photo.train`` on made-up photos): empty,
a letter, or a blank. Which way up the board lies is unknown, so the tiles are read in the
four turns and the turn whose letters read most surely is kept.

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

MODEL = Path(__file__).with_name("model.onnx")
CLASSES = ["", *"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "?"]  # "" empty, "?" a blank showing no letter
# The network's one more answer: a tile seen sideways or upside down, which tells the way up.
TURNED = len(CLASSES)
OUTPUTS = TURNED + 1
SQUARE = 24  # pixels a square in the straightened board
CONTEXT = 4  # pixels of the neighbours around each square's cut
CUT = SQUARE + 2 * CONTEXT
MAX_PIXELS = 40_000_000  # a phone's 12 MP photo, three times over: past that, refused unread
MAX_BYTES = 8 * 1024 * 1024
WORK_SIDE = 1600  # the photo is read at most this many pixels a side

Floats = npt.NDArray[np.float32]
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

    def turned(self, turn: int) -> Reading:
        """The reading as if the board lay ``turn`` quarter turns from the way it reads best."""
        if not self.turns:
            return self
        shift = (turn - self.turn) % 4
        corners = [self.corners[(i + shift) % 4] for i in range(4)]
        return Reading(self.size, self.turns[turn], corners, self.turns, turn)

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


def _order(points: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """Four points as top-left, top-right, bottom-right, bottom-left."""
    pts = points.reshape(4, 2).astype(np.float32)
    total, diff = pts.sum(axis=1), np.diff(pts, axis=1).ravel()
    return np.array(
        [pts[total.argmin()], pts[diff.argmin()], pts[total.argmax()], pts[diff.argmax()]],
        np.float32,
    )


def _support(edges: Image, quad: npt.NDArray[np.float32]) -> float:
    """How much of a quadrilateral's outline lies on the photo's edges: the least share of
    its four sides (a shadow or a table's blotch follows one or two sides, a board all four)."""
    shares = []
    for i in range(4):
        start, end = quad[i], quad[(i + 1) % 4]
        points = start + (end - start) * np.linspace(0.05, 0.95, 30)[:, None]
        limit = [edges.shape[1] - 1, edges.shape[0] - 1]
        xy = np.clip(points.round().astype(int), 0, limit)
        shares.append(float((edges[xy[:, 1], xy[:, 0]] > 0).mean()))
    return min(shares)


def find_outlines(rgb: Image, keep: int = 6) -> list[npt.NDArray[np.float32]]:
    """The photo's largest four-cornered outlines that its edges follow on all four sides
    (the board's frame, or its grid, among them), best first."""
    scale = 800 / max(rgb.shape[:2])
    small = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    area = small.shape[0] * small.shape[1]
    found: list[tuple[float, npt.NDArray[np.float32]]] = []
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB)
    for blur in (5, 9):
        # A table's grain blurs away before the board's straight edges do; a board as dark
        # as the table still differs from it in colour, so each of L, a and b gives edges.
        channels = [cv2.GaussianBlur(lab[:, :, i], (blur, blur), 0) for i in range(3)]
        for low, high in ((15, 45), (30, 90)):
            edges = np.zeros(small.shape[:2], np.uint8)
            for channel in channels:
                edges |= cv2.Canny(channel, low, high)
            edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
            near = cv2.dilate(edges, np.ones((5, 5), np.uint8))
            contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
            for contour in contours:
                hull = cv2.convexHull(contour)
                hull_area = cv2.contourArea(hull)
                if hull_area < 0.05 * area or hull_area > 0.97 * area:
                    continue
                perimeter = cv2.arcLength(hull, True)
                for epsilon in (0.02, 0.04, 0.06):
                    poly = cv2.approxPolyDP(hull, epsilon * perimeter, True)
                    if len(poly) == 4:
                        quad = _order(poly)
                        # The whole board is in the photo: an outline on its border is not it.
                        inside = (
                            (quad.min() > 3)
                            and (quad[:, 0].max() < small.shape[1] - 4)
                            and (quad[:, 1].max() < small.shape[0] - 4)
                        )
                        support = _support(np.asarray(near, np.uint8), quad)
                        score = cv2.contourArea(quad) * support**2
                        if inside and support > 0.5:
                            found.append((score, quad))
                        break
    found.sort(key=lambda item: -item[0])
    outlines: list[npt.NDArray[np.float32]] = []
    for _, quad in found:
        # The same outline found at another blur or threshold is one candidate.
        if all(np.abs(quad - other * scale).max() > 6 for other in outlines):
            outlines.append(np.asarray(quad / scale, np.float32))
        if len(outlines) == keep:
            break
    return outlines


def _grid_span(profile: Floats, n: int) -> tuple[float, float, float]:
    """Where the grid's first and last lines lie along one axis of the straightened board:
    the span whose ``n + 1`` evenly spaced lines meet the most edge; and how much more edge
    its lines meet than the middles of its squares (as a share of the mean)."""
    length = len(profile)
    smooth = np.convolve(profile, np.ones(3, np.float32) / 3, mode="same")
    starts = np.arange(0, int(length * 0.16), dtype=np.float32)[:, None, None]
    ends = np.arange(int(length * 0.84), length, dtype=np.float32)[None, :, None]
    pitch = (ends - starts) / n
    steps = np.arange(n + 1, dtype=np.float32)[None, None, :]
    lines = smooth[np.clip((starts + steps * pitch).round().astype(int), 0, length - 1)]
    middles = smooth[
        np.clip((starts + (steps[..., :-1] + 0.5) * pitch).round().astype(int), 0, length - 1)
    ]
    score = lines.mean(axis=2) - middles.mean(axis=2)
    i, j = np.unravel_index(int(score.argmax()), score.shape)
    contrast = float(score[i, j]) / (float(smooth.mean()) + 1e-6)
    return float(starts[i, 0, 0]), float(ends[0, j, 0]), contrast


def find_grid(rgb: Image, n: int) -> npt.NDArray[np.float32] | None:
    """The grid's corners in the photo (TL, TR, BR, BL), or None when no board is seen: of
    the outlines found, the one holding the most regular grid of ``n`` squares a side."""
    side = 300
    square = np.array([(0, 0), (side, 0), (side, side), (0, side)], np.float32)
    best, best_contrast = None, 0.25  # less regular than that is no grid
    for outline in find_outlines(rgb):
        forward = cv2.getPerspectiveTransform(outline, square)
        flat = cv2.warpPerspective(rgb, forward, (side + 1, side + 1), flags=cv2.INTER_AREA)
        gray = cv2.cvtColor(flat, cv2.COLOR_RGB2GRAY).astype(np.float32)
        across = np.abs(cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)).mean(axis=0)
        down = np.abs(cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)).mean(axis=1)
        x0, x1, across_contrast = _grid_span(across, n)
        y0, y1, down_contrast = _grid_span(down, n)
        contrast = min(across_contrast, down_contrast)
        if contrast > best_contrast:
            grid = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float32)
            best = cv2.perspectiveTransform(grid, np.linalg.inv(forward))[0]
            best_contrast = contrast
    return None if best is None else np.asarray(best, np.float32)


def straighten(rgb: Image, corners: npt.NDArray[np.float32], n: int) -> Image:
    """The grid seen from above, ``SQUARE`` pixels a square with ``CONTEXT`` around. Its light
    is left as it is: a balance on the board's brightest part would make a sparse board's
    empty squares look like tiles; the network learned every light the renderer draws."""
    side = n * SQUARE
    target = np.array([(0, 0), (side, 0), (side, side), (0, side)], np.float32) + CONTEXT
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), target)
    flat = cv2.warpPerspective(
        rgb,
        matrix,
        (side + 2 * CONTEXT, side + 2 * CONTEXT),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(flat, np.uint8)


def cuts(flat: Image, n: int) -> Floats:
    """Each square's cut, n·n × 3 × CUT × CUT, scaled for the network, row by row."""
    out = np.empty((n * n, 3, CUT, CUT), np.float32)
    for r in range(n):
        for c in range(n):
            cut = flat[r * SQUARE : r * SQUARE + CUT, c * SQUARE : c * SQUARE + CUT]
            out[r * n + c] = cut.transpose(2, 0, 1)
    return out / 255.0 - 0.5


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
    flat = straighten(rgb, corners, n)
    turns: list[Floats] = []
    best, chosen = -np.inf, 0
    for turn in range(4):
        # np.rot90 turns anticlockwise: turn k shows the board as if the photo were turned.
        chances = classify(cuts(np.ascontiguousarray(np.rot90(flat, turn)), n))
        turns.append(chances.reshape(n, n, OUTPUTS))
        # Lettered tiles tell the way up (an empty square or a blank reads the same any way).
        best_class = chances.argmax(axis=1)
        lettered = (best_class >= 1) & (best_class <= 26) | (best_class == TURNED)
        if not lettered.any():
            break
        # The way up is the one whose tiles least look turned, and read most surely.
        upright = chances[lettered]
        sureness = float((upright[:, 1:27].max(axis=1) - upright[:, TURNED]).sum())
        if sureness > best + 1e-6:
            best, chosen = sureness, turn
    outline = [(float(x), float(y)) for x, y in corners]
    reading = Reading(n, turns[0], outline, tuple(turns), 0)
    # The photo's corner ``chosen`` steps round is the grid's top-left, read that way up.
    return reading.turned(chosen)
