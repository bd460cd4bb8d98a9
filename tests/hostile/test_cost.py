"""A bounded cost: the most expensive analysis anyone can ask for stops within its budget.

The position is the attacker's: two blanks on a rack, on a board of tiles scattered every
twelfth square, with a word list where nearly every arrangement of the rack is a word — more
than a million legal plays, which took the unbounded search 10 to 20 seconds and half a
gigabyte. Times are the server thread's CPU time, with a bound far above what the budget
allows, so a slow machine doesn't fail it and an unbounded search does.
"""

from __future__ import annotations

import itertools
import time

import pytest

from referee import get_library, reset_library

pytestmark = pytest.mark.django_db

# Every arrangement of two to six of A E R S T: about 20,000 words, built in a second or two.
WIDE = ["".join(p) for n in range(2, 7) for p in itertools.product("AERST", repeat=n)]


@pytest.fixture
def wide(settings, tmp_path):
    folder = tmp_path / "lexica"  # the hostile suite's folder: WIDE beside CLUB
    (folder / "WIDE.txt").write_text("\n".join(WIDE) + "\n")
    reset_library()
    get_library().get("WIDE").prepare_analysis()


def scattered(letters: str = "AERSTAERSTAERSTAER") -> list[list[list[str]]]:
    board: list[list[list[str]]] = [[[] for _ in range(15)] for _ in range(15)]
    for k, i in enumerate(range(0, 225, 12)):
        board[i // 15][i % 15] = [letters[k % len(letters)]]
    return board


@pytest.mark.parametrize("limit", [1, None])
def test_the_worst_analysis_stops_within_its_budget(hostile, wide, settings, limit):
    body = {"ruleset": "crossword-classic", "lexicon": "WIDE", "board": scattered(),
            "rack": "??ESTAR", "limit": limit}  # fmt: skip
    started = time.thread_time()
    response = hostile.post("/api/analysis/", body, content_type="application/json")
    spent = time.thread_time() - started
    assert response.status_code == 200, response.content
    data = response.json()
    assert not data["complete"] and data["count"] <= settings.ANALYSIS_MAX_PLAYS
    assert data["note"].startswith(f"More than {data['count']:,} plays")
    assert len(data["plays"]) == (1 if limit == 1 else 1000)
    assert spent < 2.0, f"{spent:.2f} s of server CPU"


def test_an_empty_board_with_every_play_asked_for_is_bounded_too(hostile, wide):
    body = {"ruleset": "crossword-classic", "lexicon": "WIDE",
            "board": [[[] for _ in range(15)] for _ in range(15)], "rack": "??ESTAR", "limit": None}  # fmt: skip
    started = time.thread_time()
    response = hostile.post("/api/analysis/", body, content_type="application/json")
    spent = time.thread_time() - started
    assert response.status_code == 200 and len(response.json()["plays"]) == 1000
    assert len(response.content) < 2_000_000  # was 55 MB
    assert spent < 2.0, f"{spent:.2f} s of server CPU"
