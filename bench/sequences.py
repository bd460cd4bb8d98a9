"""Plain data the tests and the benchmark share, with no Django import (the benchmark's load
generator runs without settings): RULES.md §3's worked Upwords sequence as API tiles, and the
largest GCG record an import takes."""

from __future__ import annotations

from typing import Any

# RULES.md §3's worked sequence as API tiles, with each turn's score.
HASBRO: list[tuple[list[tuple[int, int, str]], int]] = [
    ([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")], 8),
    ([(5, 6, "E"), (6, 6, "A"), (7, 6, "R")], 8),
    ([(5, 5, "N"), (5, 7, "T")], 10),
    ([(4, 3, "W")], 5),
    ([(4, 6, "L"), (7, 6, "P")], 12),
    ([(7, 5, "S"), (7, 6, "N"), (7, 7, "A"), (7, 8, "C"), (7, 9, "K")], 14),
    ([(2, 8, "P"), (3, 8, "L"), (4, 8, "U"), (5, 8, "S")], 16),
]


def tiles(triples: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    return [{"row": r, "col": c, "letter": t} for r, c, t in triples]


def largest_gcg_record(entries: int = 2000, copy: int = 0) -> str:
    """A GCG record as large as an import takes: ``entries`` log entries (2,000 is the log's
    cap), an opening play then time penalties (a turn line no rule limits), each line with a
    note; about 160 kB. The stored game: Ann 66, Bo minus one point a line. A ``copy`` other
    than 0 names its players after it ("Ann 3"), so that it is not the same record again."""
    ann, bo = ("Ann", "Bo") if not copy else (f"Ann {copy}", f"Bo {copy}")
    lines = [f"#player1 ann {ann}", f"#player2 bo {bo}", ">ann: AEINRST 8D RETAINS +66 66"]
    lines.append("#note the opening: a note of the kind annotated records carry on every turn")
    for number in range(1, entries):
        lines.append(f">bo: (time) -1 {-number}")
        lines.append(f"#note turn {number}: a note of the kind annotated records carry")
    return "\n".join(lines) + "\n"
