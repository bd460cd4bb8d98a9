"""Analysis: every legal play from a position and a rack, best first ("what could I have
played?"), for the API and the review on a game's page. The engine's move generator
(``referee/movegen.py``) does the work; this module reads and checks the input, and keeps
requests from waiting on a word list's first build.

A list's structures (a DAWG and a GADDAG) are built once per machine and cached on disk;
``manage.py lexicons --analysis`` builds them at deploy time. A request that finds them missing
starts the build in the background and is answered 503 with Retry-After, instead of holding a
worker for the half minute the largest lists take; when another process is building them
already, that background thread waits for its file and maps it (``referee.lexicon``).

Every search has a bounded cost, whoever asks: it stops after ``ANALYSIS_MAX_PLAYS`` legal
plays or ``ANALYSIS_MAX_MS`` milliseconds (two blanks on a board of scattered tiles have
millions of plays) and says it is incomplete, and at most ``ANALYSIS_CONCURRENCY`` searches
run at once in a process: one more is answered 503 at once (``Busy``), so turns and pages
never wait behind searches.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings

from referee import (
    HONOUR_ID,
    Board,
    Budget,
    Found,
    InputError,
    Move,
    RefereeError,
    RuleOptions,
    Ruleset,
    UnknownLexicon,
    get_library,
    get_ruleset,
    search,
    tile_in_set,
)

log = logging.getLogger(__name__)
DEFAULT_LIMIT = 20
MAX_LIMIT = 1000  # plays in one answer; ``count`` says how many there are
RETRY_SECONDS = 60
BUSY_RETRY_SECONDS = 2
PLAYS_PER_UNIT = 25_000  # a search is one request of the rate limit per so many plays looked at
_building: set[str] = set()  # lists this process builds; one process of the machine at a time
_building_lock = threading.Lock()
_slots = threading.BoundedSemaphore(max(1, settings.ANALYSIS_CONCURRENCY))


class Preparing(RefereeError):
    """The word list's structures are being built: ask again in a minute."""

    retry_after = RETRY_SECONDS


class Busy(RefereeError):
    """Every search slot of this process is taken: ask again in a moment."""

    retry_after = BUSY_RETRY_SECONDS


def budget() -> Budget:
    """What one search may cost, from the settings."""
    return Budget(plays=settings.ANALYSIS_MAX_PLAYS, seconds=settings.ANALYSIS_MAX_MS / 1000)


def cost_units(found: Found) -> int:
    """What a search counts against the analysis rate limit: one request, and one more for
    every ``PLAYS_PER_UNIT`` plays it looked at."""
    return 1 + found.count // PLAYS_PER_UNIT


@contextmanager
def _slot() -> Iterator[None]:
    if not _slots.acquire(blocking=False):
        raise Busy(
            "analysis_busy",
            "Other searches for plays are running on this server right now: "
            f"try again in {BUSY_RETRY_SECONDS} seconds.",
        )
    try:
        yield
    finally:
        _slots.release()


def read_board(rows: Any, ruleset: Ruleset) -> Board:
    """A board in the API's form (rows of squares, each its tiles bottom to top, a blank as
    its lowercase letter), checked against the ruleset: size, tiles, heights, the set."""
    size = ruleset.size
    if not isinstance(rows, list) or len(rows) != size:
        raise InputError("bad_board", f"A {ruleset.name} board is {size} rows of {size} squares.")
    squares = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != size:
            raise InputError("bad_board", f"Row {r + 1} must have {size} squares.")
        for square in row:
            if not isinstance(square, list) or not all(isinstance(t, str) for t in square):
                raise InputError("bad_board", "Each square is a list of its tiles, bottom first.")
            if len(square) > ruleset.max_height:
                raise InputError(
                    "bad_board",
                    f"A square holds at most {ruleset.max_height} tile"
                    f"{'s' if ruleset.max_height > 1 else ''} in {ruleset.name}.",
                )
            squares.append(tuple(ruleset.tile(t) for t in square))
    board = Board(size, squares)
    on_board = Counter(tile_in_set(t) for stack in squares for t in stack)
    over = sorted(t for t, n in on_board.items() if n > ruleset.tiles.get(t, 0))
    if over:
        shown = ", ".join(ruleset.display(t) for t in over)
        raise InputError("bad_board", f"The board holds more {shown} than the set has.")
    return board


def lexicon_named(lexicon_id: object) -> Any:
    if not isinstance(lexicon_id, str) or lexicon_id.strip().lower() == HONOUR_ID:
        raise InputError("no_word_list", "Finding plays needs a word list, not the honour system.")
    try:
        return get_library().get(lexicon_id.strip())
    except UnknownLexicon as error:
        raise InputError("unknown_lexicon", str(error)) from None


def _ensure_ready(lexicon: Any) -> None:
    if lexicon.analysis_ready():
        return
    with _building_lock:
        start = lexicon.id not in _building
        _building.add(lexicon.id)
    if start:

        def build() -> None:
            try:
                lexicon.prepare_analysis()
            except Exception:  # noqa: BLE001 - logged; the next request tries again
                log.exception("building the analysis structures of %s failed", lexicon.id)
            finally:
                with _building_lock:
                    _building.discard(lexicon.id)

        threading.Thread(target=build, name=f"analysis-{lexicon.id}", daemon=True).start()
    raise Preparing(
        "analysis_preparing",
        f"{lexicon.id} is being prepared for analysis (once, for about half a minute): "
        f"try again in a minute.",
    )


def prepared_lexicon(lexicon_id: object) -> Any:
    """The word list ``lexicon_id`` names, its structures ready for the move generator
    (``Preparing`` while they are built)."""
    words = lexicon_named(lexicon_id)
    _ensure_ready(words)
    return words


# A photo's reading (scorekeeper.games.photos) takes a search's slot too.
search_slot = _slot


def analyse(
    ruleset: str,
    lexicon: str,
    board: Any,
    rack: str,
    limit: int | None = DEFAULT_LIMIT,
    options: RuleOptions | None = None,
) -> Found:
    """The legal plays ``rack`` has on ``board``: how many, and the best ``limit`` (None: up
    to ``MAX_LIMIT``), within the budget. Raises ``Busy`` when this process is already running
    its share of searches, ``Preparing`` while the list's structures are built."""
    rules = get_ruleset(ruleset)
    position = read_board(board, rules)
    words = lexicon_named(lexicon)
    if not isinstance(rack, str) or not rack.strip():
        raise InputError("bad_rack", "Give the rack's letters (? for a blank).")
    _ensure_ready(words)
    shown = MAX_LIMIT if limit is None else min(limit, MAX_LIMIT)
    with _slot():
        return search(
            position,
            rules,
            options or RuleOptions.defaults(rules),
            words,
            rack.strip(),
            limit=shown,
            budget=budget(),
        )


def incomplete_note(found: Found) -> str:
    """What to say when the budget ran out before every play was found."""
    return (
        f"More than {found.count:,} plays: these are the best of the first {found.count:,} "
        "found. Give a blank as the letter it stands for, or fewer tiles, to see them all."
    )


def best_play(game: Any, rack: str) -> Move | None:
    """The best play ``rack`` has on a game's board now, or None when it can't be known (an
    honour game, a rack that isn't one, a list still being prepared, every search slot busy,
    a search over its budget, no legal play)."""
    if game.lexicon == HONOUR_ID or not rack.strip():
        return None
    rules = get_ruleset(game.ruleset)
    try:
        found = analyse(
            rules.id, game.lexicon, game.board, rack, 1, RuleOptions.from_dict(game.options, rules)
        )
    except RefereeError:
        return None
    # A search cut short may have missed the best: say nothing rather than something wrong.
    return found.moves[0] if found.moves and found.complete else None
