"""Where the board is in a photo: its outline, and the grid of squares in it.

The board is found as one of the photo's largest four-cornered outlines (its frame, or its grid
where it has no frame or the frame is cut off; the least quadrilateral round each, so that a
lens's bent edges or a corner lost in a glare still give four corners; one holding a grid also
doubled across each side, as a folding board's hinge may outline one half alone), its view
straightened to a square (a perspective warp), and the grid found inside it by the regular
lines its squares make (on a 15 × 15 board whose lines don't show, by where its premium squares
lie); a dark photo in which no board is found is looked at again brightened. The grid is
then moved onto its own lines: each line is looked for in each row of squares near where the
corners put it, and the view that best fits what was found is kept; a grid whose last strip of
squares no line crosses, while one does beyond its first, is moved a square back onto the board
(its lines fit as well a square out on a plain frame), and a 15 × 15 grid is moved onto where
its premium squares stand out from its plain ones.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from scorekeeper.photo.premiums import (
    PREMIUM_FIT,
    PREMIUM_SIZE,
    grid_by_premiums,
    onto_the_premiums,
)
from scorekeeper.photo.squares import Floats

NEAR_EDGE = 2.0  # pixels (of the 800 an outline is looked for in) a side may stray from its edge
BENT_EDGE = 0.01  # ... or, as a lens bows it, this share of its length
EXPOSED = 140.0  # the brightest twentieth of a photo a phone exposed for the board (0-255)
MAX_GAIN = 3.0
OUT_OF_FRAME = 0.02  # how far past the photo's edge an outline's corner may lie, of its side
REGULAR = 0.25  # a grid's lines meet less edge than its squares' middles beyond that: no grid

Image = npt.NDArray[np.uint8]
Quad = npt.NDArray[np.float32]  # four corners: TL, TR, BR, BL


def _order(points: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """Four points as top-left, top-right, bottom-right, bottom-left: clockwise round their
    centre (on screen), from the one nearest the top-left."""
    pts = points.reshape(4, 2).astype(np.float32)
    centre = pts.mean(axis=0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]
    first = int((pts[:, 0] + pts[:, 1]).argmin())
    return np.asarray(np.roll(pts, -first, axis=0), np.float32)


def _support(distance: Floats, quad: Quad, bent: bool = False) -> tuple[float, float]:
    """How much of a quadrilateral's outline lies on the photo's edges (``distance`` from
    each pixel to the nearest): the least share of its four sides and the next (a shadow or a
    table's blotch follows one or two sides, a board three or four: a hand or a rack at its
    edge may hide much of the fourth). ``bent``: a side may stray from its edge by more the
    longer it is, as the straight sides round a lens's bowed edges do (they touch them only
    in their middles)."""
    shares = []
    limit = [distance.shape[1] - 1, distance.shape[0] - 1]
    for i in range(4):
        start, end = quad[i], quad[(i + 1) % 4]
        points = start + (end - start) * np.linspace(0.05, 0.95, 30)[:, None]
        xy = np.clip(points.round().astype(int), 0, limit)
        bow = BENT_EDGE * float(np.linalg.norm(end - start)) if bent else 0.0
        near = max(NEAR_EDGE, bow)
        shares.append(float((distance[xy[:, 1], xy[:, 0]] <= near).mean()))
    least, next_least = sorted(shares)[:2]
    return least, next_least


def _plausible(quad: npt.NDArray[np.float32]) -> bool:
    """Whether four points can be a board seen at a slant: a convex four-sided shape whose
    sides differ at most threefold, its corners between 30° and 150°."""
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    if min(sides) < max(sides) / 3:
        return False
    for i in range(4):
        a, b = quad[i - 1] - quad[i], quad[(i + 1) % 4] - quad[i]
        cos = float(a @ b) / (float(np.linalg.norm(a) * np.linalg.norm(b)) + 1e-6)
        if abs(cos) > 0.87:
            return False
    return bool(cv2.isContourConvex(quad.reshape(-1, 1, 2)))


def find_outlines(
    rgb: Image, keep: int = 6, brightened: bool = False
) -> tuple[list[Quad], list[Quad]]:
    """The photo's largest four-cornered outlines that its edges follow on all four sides
    (the board's frame, or its grid, among them), best first; and those its edges follow
    only as a lens bows them (a grid's outline where the frame is cut off), best first.
    ``brightened``: in the photo brightened as a phone exposes one (``_exposed``)."""
    scale = 800 / max(rgb.shape[:2])
    small = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    area = small.shape[0] * small.shape[1]
    found: list[tuple[float, Quad]] = []
    bowed: list[tuple[float, Quad]] = []
    lab = cv2.cvtColor(_exposed(small) if brightened else small, cv2.COLOR_RGB2LAB)
    for blur in (5, 9, -11, -21):
        # A table's grain blurs away before the board's straight edges do (a median, the
        # negative size, keeps the edges sharper still; the widest leaves a coarse grain
        # beside a board as dark as it only the board's outline); a board as dark as the
        # table still differs from it in colour, so each of L, a and b gives edges.
        channels = [
            cv2.GaussianBlur(lab[:, :, i], (blur, blur), 0)
            if blur > 0
            else cv2.medianBlur(lab[:, :, i], -blur)
            for i in range(3)
        ]
        for low, high in ((15, 45), (30, 90)):
            edges = np.zeros(small.shape[:2], np.uint8)
            for channel in channels:
                edges |= cv2.Canny(channel, low, high)
            edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
            # Chebyshev: a side within NEAR_EDGE pixels of an edge in both directions.
            distance = cv2.distanceTransform(255 - edges, cv2.DIST_C, 3)
            contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
            for contour in contours:
                hull = cv2.convexHull(contour)
                hull_area = cv2.contourArea(hull)
                if hull_area < 0.05 * area or hull_area > 0.97 * area:
                    continue
                # The least quadrilateral around the outline: a lens's bent edges or a
                # corner lost in a glare still give the board's four corners.
                poly = cv2.approxPolyN(hull, 4, ensure_convex=True)
                if poly is None or len(poly.reshape(-1, 2)) != 4:
                    continue
                quad = _order(poly)
                if not _plausible(quad) or cv2.contourArea(quad) > 1.25 * hull_area:
                    continue
                # The whole board is in the photo: an outline on its border is not it.
                if not _in_frame(quad, small.shape):
                    continue
                for bent, into in ((False, found), (True, bowed)):
                    least, next_least = _support(np.asarray(distance, np.float32), quad, bent)
                    if least > 0.15 and next_least > 0.25:
                        into.append((cv2.contourArea(quad) * ((least + next_least) / 2) ** 2, quad))
                        break
    return _best(found, scale, keep), _best(bowed, scale, keep)


def _in_frame(quad: Quad, shape: tuple[int, ...]) -> bool:
    """Whether the quadrilateral lies in a photo of ``shape``: a corner may lie just past its
    edge (``OUT_OF_FRAME`` of its side), as a board filling the photo may lose a corner's tip."""
    slack = OUT_OF_FRAME * max(shape[:2])
    return bool(
        quad.min() > -slack
        and quad[:, 0].max() < shape[1] + slack
        and quad[:, 1].max() < shape[0] + slack
    )


def _exposed(rgb: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The photo brightened as a phone exposes one (its brightest twentieth at ``EXPOSED``,
    at most ``MAX_GAIN`` times): the edges' thresholds are for such a photo, and a dark one's
    board edge can fall below them."""
    bright = float(np.percentile(rgb, 95))
    if bright >= EXPOSED:
        return rgb
    gain = min(EXPOSED / max(bright, 1.0), MAX_GAIN)
    return np.asarray(np.clip(rgb.astype(np.float32) * gain, 0, 255), np.uint8)


def _best(found: list[tuple[float, Quad]], scale: float, keep: int) -> list[Quad]:
    """The ``keep`` best-scored outlines, each once, in the photo's pixels."""
    found.sort(key=lambda item: -item[0])
    outlines: list[Quad] = []
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
    # No line counts for more than the grid's inside shows: the board's edge against the
    # table, far stronger than a grid line, would pull the grid a square out onto the frame.
    cap = float(np.percentile(smooth[int(length * 0.2) : int(length * 0.8)], 95))
    smooth = np.minimum(smooth, cap)
    starts = np.arange(0, int(length * 0.16), dtype=np.float32)[:, None, None]
    ends = np.arange(int(length * 0.84), length, dtype=np.float32)[None, :, None]
    pitch = (ends - starts) / n
    steps = np.arange(n + 1, dtype=np.float32)[None, None, :]
    lines = smooth[np.clip((starts + steps * pitch).round().astype(int), 0, length - 1)]
    middles = smooth[
        np.clip((starts + (steps[..., :-1] + 0.5) * pitch).round().astype(int), 0, length - 1)
    ]
    # Nor does a square's middle that is plainer than the grid's: a span a square out on the
    # frame, its middle a plain strip, would seem more regular than the board's tiled squares.
    floor = float(np.percentile(smooth[int(length * 0.2) : int(length * 0.8)], 50))
    # A span of half the board's squares at half their size (a board's empty half, whose
    # lines stand out more than its tiled half's) meets every second line only: where every
    # other line meets half as much edge as the rest, only those count.
    even, odd = lines[..., 0::2].mean(axis=2), lines[..., 1::2].mean(axis=2)
    halved = np.minimum(even, odd) < 0.5 * np.maximum(even, odd)
    lines_met = np.where(halved, np.minimum(even, odd), lines.mean(axis=2))
    score = lines_met - np.maximum(middles, floor).mean(axis=2)
    i, j = np.unravel_index(int(score.argmax()), score.shape)
    contrast = float(score[i, j]) / (float(smooth.mean()) + 1e-6)
    return float(starts[i, 0, 0]), float(ends[0, j, 0]), contrast


def find_grid(rgb: Image, n: int) -> Quad | None:
    """The grid's corners in the photo (TL, TR, BR, BL), or None when no board is seen: of
    the outlines found (those its edges follow only as a lens bows them too: the grid's own
    where the frame is cut off), the one holding the most regular grid of ``n`` squares a
    side. A dark photo in which none is seen is looked at again brightened: a board's edge
    against a dark table may show only then."""
    corners = _grid_in(rgb, n, brightened=False)
    if corners is None and float(np.percentile(rgb, 95)) < EXPOSED:
        corners = _grid_in(rgb, n, brightened=True)
    return corners


def _grid_in(rgb: Image, n: int, brightened: bool) -> Quad | None:
    side = 300
    square = np.array([(0, 0), (side, 0), (side, side), (0, side)], np.float32)
    best, best_contrast = None, REGULAR
    outlines, bowed = find_outlines(rgb, brightened=brightened)
    # Each with whether its four sides lie on the photo's edges (not bowed, nor doubled).
    tried = [(outline, True) for outline in outlines] + [(outline, False) for outline in bowed]
    for outline, edged in tried:
        forward = cv2.getPerspectiveTransform(outline, square)
        flat = cv2.warpPerspective(rgb, forward, (side + 1, side + 1), flags=cv2.INTER_AREA)
        gray = cv2.cvtColor(flat, cv2.COLOR_RGB2GRAY).astype(np.float32)
        across = np.abs(cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)).mean(axis=0)
        down = np.abs(cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)).mean(axis=1)
        x0, x1, across_contrast = _grid_span(across, n)
        y0, y1, down_contrast = _grid_span(down, n)
        contrast = min(across_contrast, down_contrast)
        if edged and contrast > REGULAR:
            # A folding board's hinge is an edge from frame to frame: one half's outline, a
            # grid in it, may be all of the board found; doubled across a side, it is whole.
            tried += [(doubled, False) for doubled in _doubled(outline, rgb.shape)]
        if contrast > best_contrast:
            grid = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float32)
            best = cv2.perspectiveTransform(grid, np.linalg.inv(forward))[0]
            best_contrast = contrast
    if best is None and n == PREMIUM_SIZE:
        # No lines show (a wooden board's grain along them): its premium squares may, and
        # place the grid better than lines that aren't there would move it.
        for candidates in (outlines[:3], bowed[:3]):
            found = [grid_by_premiums(rgb, outline, n) for outline in candidates]
            corners, fit = max(found, key=lambda item: item[1], default=(None, 0.0))
            if fit >= PREMIUM_FIT:
                return corners
        return None
    return None if best is None else refine_grid(rgb, np.asarray(best, np.float32), n)


def _doubled(outline: Quad, shape: tuple[int, ...]) -> list[Quad]:
    """The outline doubled across each of its sides, where that lies in the photo."""
    unit = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32)
    back = cv2.getPerspectiveTransform(unit, outline)
    out = []
    for x0, y0, x1, y1 in ((-1, 0, 1, 1), (0, 0, 2, 1), (0, -1, 1, 1), (0, 0, 1, 2)):
        wide = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float32)
        quad = np.asarray(cv2.perspectiveTransform(wide, back)[0], np.float32)
        if _in_frame(quad, shape) and _plausible(quad):
            out.append(quad)
    return out


def _ridges(gray: Floats, axis: int, d: int) -> Floats:
    """How much each pixel stands out from both sides along ``axis`` (a line does; an edge
    between two colours, stepping only one way, does not)."""
    ahead, behind = np.roll(gray, -d, axis=axis), np.roll(gray, d, axis=axis)
    ridge = np.abs(2 * gray - ahead - behind) - np.abs(ahead - behind)
    return np.asarray(np.maximum(ridge, 0), np.float32)


def _line_peaks(
    bands: Floats, pitch: float, start: float, lines: range, reach: float
) -> tuple[Floats, Floats]:
    """For each line ``k`` of ``lines`` (nominally at ``start + k * pitch``) and each band (a
    row of ``bands``), where the line's peak lies within ``reach`` of it, and its height."""
    width = bands.shape[1]
    where = np.zeros((len(lines), len(bands)), np.float32)
    height = np.zeros_like(where)
    for i, k in enumerate(lines):
        centre = start + k * pitch
        lo, hi = int(max(0, centre - reach)), int(min(width, centre + reach + 1))
        if hi - lo < 3:
            where[i], height[i] = centre, 0.0
            continue
        window = bands[:, lo:hi]
        top = window.argmax(axis=1)
        where[i] = lo + top
        height[i] = window.max(axis=1)
    return where, height


def _gray_view(
    rgb: Image, corners: npt.NDArray[np.float32], ideal: npt.NDArray[np.float32], side: int
) -> tuple[npt.NDArray[np.float64], Floats]:
    """The photo warped so that ``corners`` land on ``ideal``, in grey, a little blurred; and
    that warp."""
    forward = cv2.getPerspectiveTransform(corners, ideal)
    flat = cv2.warpPerspective(rgb, forward, (side, side), flags=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(cv2.cvtColor(flat, cv2.COLOR_RGB2GRAY).astype(np.float32), (0, 0), 1)
    return np.asarray(forward, np.float64), np.asarray(gray, np.float32)


def refine_grid(rgb: Image, corners: npt.NDArray[np.float32], n: int) -> npt.NDArray[np.float32]:
    """The grid's corners moved onto its lines: the lines are found one by one, in each row
    (or column) of squares, near where the corners put them, and the view that best fits
    them kept (a corner found a little off, a lens's bend spread over the whole grid)."""
    pitch, margin = 20.0, 2
    side = int(pitch * (n + 2 * margin))
    ideal = np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32) * pitch + margin * pitch
    current = np.asarray(corners, np.float32)
    for _ in range(3):
        forward, gray = _gray_view(rgb, current, ideal, side)
        points_ideal, points_found = [], []
        for axis in (1, 0):
            ridges = _ridges(gray, axis, 3)
            if axis == 0:
                ridges = ridges.T
            # Band b: the rows of square row b, summed (axis 1: vertical lines, across x).
            rows = ridges[int(margin * pitch) : int((margin + n) * pitch)]
            bands = rows.reshape(n, int(pitch), -1).sum(axis=1)
            bands = np.asarray(cv2.blur(bands, (3, 1)), np.float32)
            where, height = _line_peaks(bands, pitch, margin * pitch, range(n + 1), pitch * 0.3)
            keep = height > 0.5 * np.median(height)
            for k in range(n + 1):
                for b in range(n):
                    if keep[k, b]:
                        along = (margin + b + 0.5) * pitch
                        at = (margin + k) * pitch
                        found = float(where[k, b])
                        if axis == 1:
                            points_ideal.append((at, along))
                            points_found.append((found, along))
                        else:
                            points_ideal.append((along, at))
                            points_found.append((along, found))
        if len(points_ideal) < 8:
            break
        fit, _ = cv2.findHomography(
            np.array(points_ideal, np.float32),
            np.array(points_found, np.float32),
            cv2.RANSAC,
            pitch * 0.15,
        )
        if fit is None:
            break
        moved = cv2.perspectiveTransform(ideal[None], fit)[0]
        current = cv2.perspectiveTransform(moved[None], np.linalg.inv(forward))[0]
    moved = _onto_the_grid(rgb, np.asarray(current, np.float32), n)
    return onto_the_premiums(rgb, moved, n) if n == PREMIUM_SIZE else moved


def _crossings(gray: Floats, axis: int, n: int, pitch: float, margin: int) -> Floats:
    """How strongly the grid's inner lines across ``axis`` show in each strip of squares
    along it, from the strip one square before the grid to the one after (``n + 2``): the
    median over the lines of each one's peak in that strip. A frame's strip has none."""
    ridges = _ridges(gray, axis, 3)
    if axis == 0:
        ridges = ridges.T
    strips = ridges[int((margin - 1) * pitch) : int((margin + n + 1) * pitch)]
    bands = strips.reshape(n + 2, int(pitch), -1).sum(axis=1)
    bands = np.asarray(cv2.blur(bands, (3, 1)), np.float32)
    lines = range(1, n)
    where, height = _line_peaks(bands, pitch, margin * pitch, lines, pitch * 0.3)
    # A peak off the grid's line is no crossing (a check cloth's stripes lie anywhere).
    nominal = (margin + np.array(lines, np.float32))[:, None] * pitch
    height = np.where(np.abs(where - nominal) <= 0.15 * pitch, height, 0)
    return np.asarray(np.median(height, axis=0), np.float32)


def _onto_the_grid(rgb: Image, corners: npt.NDArray[np.float32], n: int) -> npt.NDArray[np.float32]:
    """The grid moved a whole square along an axis where its last strip of squares is
    crossed by no line and the strip beyond its first is: a frame as plain as a square (a
    deluxe board's dark one) lets a grid of lines fit one square out onto it."""
    pitch, margin = 20.0, 2
    side = int(pitch * (n + 2 * margin))
    ideal = np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32) * pitch + margin * pitch
    current = corners
    for _ in range(2):
        forward, gray = _gray_view(rgb, current, ideal, side)
        shift = [0, 0]
        # Lines across x (horizontal ones, axis 0) cross the strips of columns: x's shift.
        for axis, along in ((0, 0), (1, 1)):
            strips = _crossings(gray, axis, n, pitch, margin)
            before, first, last, after = strips[0], strips[1], strips[n], strips[n + 1]
            inner = float(np.median(strips[1 : n + 1])) + 1e-6
            if (strips[1 : n + 1] > 0).mean() < 0.75:
                continue  # the grid's lines hardly show: nothing to tell its edge by
            if before > 0.3 * inner and last < 0.35 * before:
                shift[along] = -1
            elif after > 0.3 * inner and first < 0.35 * after:
                shift[along] = 1
        if shift == [0, 0]:
            break
        moved = ideal + np.array(shift, np.float32) * pitch
        current = cv2.perspectiveTransform(moved[None], np.linalg.inv(forward))[0]
    return np.asarray(current, np.float32)
