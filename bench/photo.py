"""Benchmark of the board read from a photo (scorekeeper/photo): part of the suite, or alone as
``python -m bench photo [--boards N] [--plays N]``.

On made-up photos (``scorekeeper.photo.render``) from seeds the network was never trained on
(training uses ``seed * 1_000_000 + i`` for a seed below 9; these start at 9_000_000):

  photo_found_share          photos in which the board was found at all
  photo_occupancy_accuracy   squares read right as tile or empty (boards found)
  photo_letter_accuracy      tiles read as a tile whose letter is read right
  photo_filling_*            the same three of the same photos cut down to the grid and 9% more
                             (the board filling the photo, its frame cut off or nearly)
  photo_cut_*                the same three of those cut down further, the tip of the grid's
                             topmost corner off the photo (its frame at the photo's edge)
  photo_facing_*             the same three of the same boards with each tile laid facing one
                             of the board's four sides (as players lay theirs), in the way up
                             whose squares agree best
  photo_steep_*              the same three of the same boards seen from well to the side
                             (40° to 60° from above: the far rows a sliver)
  photo_dim_*                the same three of the same boards in a dark room (a dark, grainy
                             photo, smeared by the phone's noise reduction)
  photo_played_*             the same three of boards of seeded self-played games (crossword
                             and Upwords, 4 to 25 plays in): every tile in a word, as on a real
                             board (the boards above hold tiles at random, some alone)
  photo_low_*                the same three of those boards seen from well to the side and low
                             down: the tiles' tops seen 0.3 to 0.75 of a square towards the far
                             side, as tall tiles are from a chair at the table
  photo_empty_share          empty boards (each design in turn) read empty on every square
  photo_top1_share           plays of seeded self-played games whose photo proposes that play
                             first (crossword-classic and Upwords, CSW21 else the largest list)
  photo_read_ms_median/p90   decoding, finding and reading one photo (one core)
  photo_propose_ms_median    reading and ranking the legal plays of one photo in a game

The held-out photos also letter their tiles in fonts the network never saw in training.
These are rendered photos: real ones (other boards, lights, lenses) will read worse.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import time
from typing import Any

from bench.movegen import CACHE, self_play
from bench.server import lexicon_library
from bench.stats import percentile
from referee import RULESETS, Board, RuleOptions, Ruleset, compile_lexicon

HELD_OUT = 9_000_000
EMPTY_DESIGNS = ["red", "green", "deluxe", "wooden", "upwords", "white", "vintage", "tournament"]
RULESETS_READ = ["crossword-classic", "crossword-classic", "upwords-10", "upwords-8"]


def _tiles_of(board: Board) -> dict[tuple[int, int], str]:
    """What a photo of ``board`` shows: each square's top tile, a blank as a blank tile."""
    shown = {}
    for r, c, stack in board.squares():
        if stack:
            top = stack[-1]
            shown[(r, c)] = "?" if top.islower() else top
    return shown


def _crop_to_grid(jpeg: bytes, corners: list[tuple[float, float]], tip: bool = False) -> Any:
    """The photo cut down to the grid and 9% of its width more on each side: a board filling
    the photo, its frame cut off or nearly; with ``tip``, its top cut just below the grid's
    topmost corner (0.8% of the grid's side), which falls off the photo."""
    import io

    import numpy as np
    from PIL import Image

    from scorekeeper.photo.reader import decode

    rgb = decode(jpeg)
    # The corners are in the render's pixels; a render longer than the reader's WORK_SIDE
    # is decoded smaller.
    with Image.open(io.BytesIO(jpeg)) as header:
        points = np.array(corners) * rgb.shape[1] / header.size[0]
    margin = 0.09 * float(np.ptp(points, axis=0).max())
    (x0, y0), (x1, y1) = points.min(axis=0) - margin, points.max(axis=0) + margin
    if tip:
        y0 = points[:, 1].min() + 0.008 * float(np.ptp(points, axis=0).max())
    return np.ascontiguousarray(rgb[max(int(y0), 0) : int(y1), max(int(x0), 0) : int(x1)])


def _as_laid(reading: Any, shown: dict[tuple[int, int], str]) -> list[list[str]]:
    """The reading's squares in the way up whose tiles lie where ``shown`` has them: with
    tiles facing every side, the way up the reader chose may be any of the four."""
    readings = [reading.turned(turn) for turn in range(4)] if len(reading.turns) == 4 else [reading]

    def agreeing(squares: list[list[str]]) -> int:
        return sum(bool(squares[r][c]) == ((r, c) in shown) for r, c in _every(len(squares)))

    return max((r.squares() for r in readings), key=agreeing)


def _every(size: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(size) for c in range(size)]


class _Tally:
    """Boards found, and squares and letters read right, over the boards read."""

    def __init__(self) -> None:
        self.found = self.squares = self.occupancy = self.tiles = self.letters = 0

    def add(self, read_squares: list[list[str]], shown: dict[tuple[int, int], str]) -> None:
        self.found += 1
        size = len(read_squares)
        for r in range(size):
            for c in range(size):
                truth = shown.get((r, c), "")
                got = read_squares[r][c]
                self.squares += 1
                self.occupancy += bool(truth) == bool(got)
                if truth:
                    self.tiles += 1
                    self.letters += got == (truth[0] if truth != "?" else "?")

    def figures(self, prefix: str, boards: int) -> dict[str, float]:
        return {
            f"{prefix}_found_share": round(self.found / boards, 3),
            f"{prefix}_occupancy_accuracy": round(self.occupancy / max(self.squares, 1), 4),
            f"{prefix}_letter_accuracy": round(self.letters / max(self.tiles, 1), 4),
        }


def read_figures(boards: int) -> dict[str, Any]:
    from scorekeeper.photo.reader import PhotoError, read, read_image
    from scorekeeper.photo.render import random_tiles, render

    whole, filling, cut, facing, steep, dim = (_Tally() for _ in range(6))
    times = []
    for i in range(boards):
        seed = HELD_OUT + i
        rng = random.Random(seed)
        ruleset = RULESETS[RULESETS_READ[i % len(RULESETS_READ)]]
        shown = random_tiles(rng, ruleset, rng.uniform(0.0, 0.5))
        photo = render(seed, ruleset, shown)
        start = time.perf_counter()
        try:
            reading = read(photo.jpeg, ruleset.size)
        except PhotoError:
            reading = None
        times.append((time.perf_counter() - start) * 1000)
        if reading is not None:
            whole.add(reading.squares(), shown)
        with contextlib.suppress(PhotoError):
            cropped = read_image(_crop_to_grid(photo.jpeg, photo.corners), ruleset.size)
            filling.add(cropped.squares(), shown)
        with contextlib.suppress(PhotoError):
            tipless = read_image(_crop_to_grid(photo.jpeg, photo.corners, tip=True), ruleset.size)
            cut.add(tipless.squares(), shown)
        with contextlib.suppress(PhotoError):
            laid = read(render(seed, ruleset, shown, facing=True).jpeg, ruleset.size)
            facing.add(_as_laid(laid, shown), shown)
        for tally, steep_view in ((steep, True), (dim, False)):
            with contextlib.suppress(PhotoError):
                seen = render(seed, ruleset, shown, steep=steep_view, dim=not steep_view)
                tally.add(read(seen.jpeg, ruleset.size).squares(), shown)
    empty = 0
    empties = len(EMPTY_DESIGNS) * max(boards // 20, 1)
    for i in range(empties):
        design = EMPTY_DESIGNS[i % len(EMPTY_DESIGNS)]
        ruleset = RULESETS["upwords-10" if design == "upwords" else "crossword-classic"]
        photo = render(HELD_OUT + 900_000 + i, ruleset, {}, design)
        with contextlib.suppress(PhotoError):  # a board not found is not read empty
            empty += not any(any(row) for row in read(photo.jpeg, ruleset.size).squares())
    return {
        "photo_boards": boards,
        "photo_empty_share": round(empty / empties, 3),
        **whole.figures("photo", boards),
        **filling.figures("photo_filling", boards),
        **cut.figures("photo_cut", boards),
        **facing.figures("photo_facing", boards),
        **steep.figures("photo_steep", boards),
        **dim.figures("photo_dim", boards),
        "photo_read_ms_median": round(statistics.median(times), 1),
        "photo_read_ms_p90": round(percentile(times, 0.9) or 0.0, 1),
    }


def played_figures(boards: int, lexicon: Any, start: int = HELD_OUT + 600_000) -> dict[str, Any]:
    """The read figures of boards of self-played games, photographed from seeds ``start`` on."""
    from scorekeeper.photo.reader import PhotoError, read
    from scorekeeper.photo.render import low_tops, render

    played, low = _Tally(), _Tally()
    for i in range(boards):
        ruleset = RULESETS[RULESETS_READ[i % len(RULESETS_READ)]]
        # The last board ``self_play`` lists (it lists each before its play): 4 to 25 plays in.
        board = self_play(ruleset, lexicon, 700 + i, 5 + i * 7 % 22)[-1][1]
        shown = _tiles_of(board)
        with contextlib.suppress(PhotoError):
            photo = render(start + i, ruleset, shown)
            played.add(read(photo.jpeg, ruleset.size).squares(), shown)
        # Seen from low down: the tiles' tops 0.3 to 0.75 of a square towards the far side.
        tops = low_tops(random.Random(start + i))
        with contextlib.suppress(PhotoError):
            photo = render(start + i, ruleset, shown, steep=True, tops=tops)
            low.add(read(photo.jpeg, ruleset.size).squares(), shown)
    return {**played.figures("photo_played", boards), **low.figures("photo_low", boards)}


def propose_figures(plays: int, lexicon: Any) -> dict[str, Any]:
    from scorekeeper.photo.propose import propose
    from scorekeeper.photo.reader import PhotoError, read
    from scorekeeper.photo.render import render

    cases: list[tuple[Ruleset, Board, Board]] = []
    seed = 0
    while len(cases) < plays and seed < plays * 4:
        ruleset = RULESETS["crossword-classic" if seed % 3 else "upwords-10"]
        history = self_play(ruleset, lexicon, 500 + seed, 3 + seed % 6)
        last = None
        for (_, before, _), (_, after, _) in zip(history, history[1:], strict=False):
            if before != after:
                last = (ruleset, before, after)
        if last is not None:
            cases.append(last)
        seed += 1
    first = 0
    times = []
    for i, (ruleset, before, after) in enumerate(cases):
        photo = render(HELD_OUT + 500_000 + i, ruleset, _tiles_of(after))
        start = time.perf_counter()
        try:
            found = propose(read(photo.jpeg, ruleset.size), before, ruleset,
                            RuleOptions.defaults(ruleset), lexicon)  # fmt: skip
        except PhotoError:
            times.append((time.perf_counter() - start) * 1000)
            continue
        times.append((time.perf_counter() - start) * 1000)
        if found.plays:
            made = after.copy()
            proposed = before.copy()
            for r, c, t in found.plays[0].tiles:
                proposed.place(r, c, t)
            first += proposed == made
    return {
        "photo_plays": len(cases),
        "photo_top1_share": round(first / max(len(cases), 1), 3),
        "photo_propose_ms_median": round(statistics.median(times), 1) if times else None,
    }


def run(boards: int = 40, plays: int = 20) -> dict[str, Any]:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(prefix="bench-lexica-") as cache:
        library = lexicon_library(Path(cache))
        infos = {info.id: info for info in library.infos()}
        chosen = "CSW21" if "CSW21" in infos else sorted(infos)[0]
        CACHE.mkdir(parents=True, exist_ok=True)
        lexicon = compile_lexicon(infos[chosen].path, CACHE, chosen)
        figures = read_figures(boards)
        figures.update(played_figures(boards, lexicon))
        figures.update(propose_figures(plays, lexicon))
    figures["photo_lexicon"] = chosen
    return figures


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench photo", description=__doc__)
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--plays", type=int, default=20)
    args = parser.parse_args(argv)
    from bench.procs import machine

    print(f"machine: {machine()}")
    figures = run(args.boards, args.plays)
    print(json.dumps(figures))
