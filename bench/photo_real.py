"""The board read from real photos: ``python -m bench photo-real DIR``.

Real photos can't be made here, so they are not in the repository: this reads a folder of
them, each ``NAME.jpg`` (or ``.jpeg``, ``.png``) beside ``NAME.txt`` (or with ``--truth``, its
``NAME.txt`` in another folder), what the board shows as written by hand: one line per row,
top to bottom as the photo shows the board, one character per square:

    .   an empty square
    A-Z a tile of that letter (a blank showing a letter: that letter)
    ?   a blank showing no letter, or a tile face down
    *   a tile whose letter the reader has no class for (another language's: Ł, Ż)
    #   a tile whose letter can't be told from the photo (an upside-down M or W)

Each photo is shrunk as the scorer page does (1,600 pixels a side, JPEG) and read; a photo
whose board is not found counts every square and letter wrong. It prints each photo's wrong
squares (``row,col:truth>read``) and one JSON object last: the share of squares read right as
tile or empty, of letters read right (``*`` and ``#`` tiles left out), boards found, and the
read time (median, p90). The way up the board is read in is the one whose squares agree
best (a photo may show the board from any side).

``bench/real_boards/`` holds what the boards of public photos taken by others show, its
``SOURCES.md`` naming every photo's repository, commit and path: fetch them into a folder
under those names and read it with ``--truth bench/real_boards``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from bench.photo import _as_laid
from bench.stats import percentile

MAX_SIDE = 1600  # static/js/photo.js's MAX_SIDE


def _as_sent(path: Path) -> bytes:
    """The photo as the scorer page sends it: at most ``MAX_SIDE`` a side, a JPEG."""
    import cv2

    image = cv2.imread(str(path))
    if image is None:
        raise SystemExit(f"{path}: not an image")
    scale = min(1.0, MAX_SIDE / max(image.shape[:2]))
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return bytes(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes())


def _truth(path: Path) -> list[str]:
    rows = path.read_text().split()
    size = len(rows)
    if size not in (8, 10, 15) or any(len(row) != size for row in rows):
        raise SystemExit(f"{path}: {size} rows; 8, 10 or 15 rows of as many squares are needed")
    return rows


def _letter_only(wrong: str) -> bool:
    """Whether a wrong square (``r,c:truth>read``) is right as tile or empty."""
    want, got = wrong.split(":")[1].split(">")
    return (want == ".") == (got == ".")


def run(folder: Path, truths: Path | None = None) -> dict[str, Any]:
    """The shares of ``folder``'s photos read right, each against its ``NAME.txt`` beside it
    or in ``truths``."""
    from scorekeeper.photo.reader import PhotoError, read

    squares = squares_right = letters = letters_right = found = 0
    found_squares = found_squares_right = found_letters = found_letters_right = 0
    times = []
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in {".jpg", ".jpeg", ".png"})

    def truth_of(photo: Path) -> Path:
        return truths / f"{photo.stem}.txt" if truths else photo.with_suffix(".txt")

    photos = [p for p in photos if truth_of(p).exists()]
    for photo in photos:
        truth = _truth(truth_of(photo))
        data = _as_sent(photo)
        start = time.perf_counter()
        try:
            reading = read(data, len(truth))
        except PhotoError:
            reading = None
        times.append((time.perf_counter() - start) * 1000)
        # In the way up that agrees best with the truth on tile or empty.
        tiles = {
            (r, c): want for r, row in enumerate(truth) for c, want in enumerate(row) if want != "."
        }
        read_squares = _as_laid(reading, tiles) if reading is not None else None
        found += read_squares is not None
        wrong = []
        for r, row in enumerate(truth):
            for c, want in enumerate(row):
                got = read_squares[r][c] if read_squares else None
                squares += 1
                right = got is not None and (want == ".") == (got == "")
                squares_right += right
                if want.isalpha() or want == "?":
                    letters += 1
                    letters_right += got == want
                if not right or ((want.isalpha() or want == "?") and got != want):
                    wrong.append(f"{r},{c}:{want}>{got or '.'}")
        if read_squares is None:
            print(f"{photo.name}: not found")
            continue
        print(f"{photo.name}: {len(wrong)} wrong" + (f": {' '.join(wrong)}" if wrong else ""))
        found_squares += len(truth) ** 2
        found_squares_right += len(truth) ** 2 - sum(1 for w in wrong if not _letter_only(w))
        found_letters += sum(want.isalpha() or want == "?" for row in truth for want in row)
        found_letters_right += sum(
            want == read_squares[r][c]
            for r, row in enumerate(truth)
            for c, want in enumerate(row)
            if want.isalpha() or want == "?"
        )
    if not photos:
        raise SystemExit(f"{folder}: no photo with its NAME.txt beside it or in --truth")
    return {
        "real_photos": len(photos),
        "real_found_share": round(found / len(photos), 3),
        "real_occupancy_accuracy": round(squares_right / squares, 4),
        "real_letter_accuracy": round(letters_right / max(letters, 1), 4),
        # The same two over the boards found.
        "real_found_occupancy_accuracy": round(found_squares_right / max(found_squares, 1), 4),
        "real_found_letter_accuracy": round(found_letters_right / max(found_letters, 1), 4),
        "real_read_ms_median": round(statistics.median(times), 1),
        "real_read_ms_p90": round(percentile(times, 0.9) or 0.0, 1),
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench photo-real",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("folder", type=Path, help="photos, each with its NAME.txt beside it")
    parser.add_argument(
        "--truth",
        type=Path,
        help="a folder of the NAME.txt files instead (bench/real_boards/*: what the boards of "
        "the photos its SOURCES.md names show)",
    )
    args = parser.parse_args(argv)
    from bench.procs import machine

    print(f"machine: {machine()}")
    print(json.dumps(run(args.folder, args.truth)))
