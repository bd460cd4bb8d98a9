"""``python -m bench [PART] [options]``: the whole suite, or one part of it.

    python -m bench                       every figure, one JSON object last (make bench)
    python -m bench compare --base REV    this checkout against REV, run alternately
    python -m bench lighthouse            the pages in Chromium, as Lighthouse sees them
    python -m bench http|capacity|imports|writers|long-log|event|movegen|analysis-cold|photo
                                          one part, with its options
    python -m bench board-weight URL [LOADS]   a board page's bytes, DOM nodes, main-thread times
    python -m bench photo-real DIR        the board read from real photos, each with its truth

``python -m bench PART --help`` says each part's options.
"""

from __future__ import annotations

import importlib
import sys

PARTS = {
    "suite": "bench.run",
    "compare": "bench.compare",
    "lighthouse": "bench.lighthouse",
    "http": "bench.http_load",
    "capacity": "bench.capacity",
    "imports": "bench.import_load",
    "writers": "bench.sqlite_writers",
    "long-log": "bench.long_log",
    "event": "bench.event",
    "movegen": "bench.movegen",
    "analysis-cold": "bench.analysis_cold",
    "board-weight": "bench.board_weight",
    "photo": "bench.photo",
    "photo-real": "bench.photo_real",
}


def main(argv: list[str]) -> None:
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return
    part = argv[0] if argv and not argv[0].startswith("-") else "suite"
    if part not in PARTS:
        sys.exit(f"no part {part!r} of the benchmark; the parts: {', '.join(PARTS)}")
    rest = argv[1:] if argv and argv[0] == part else argv
    importlib.import_module(PARTS[part]).main(rest)


if __name__ == "__main__":
    main(sys.argv[1:])
