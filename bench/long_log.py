"""A long game's turns: what a turn, a challenge, an undo and a correction cost at entry 2,000
against entry 20, and the board at an earlier turn.

    .venv/bin/python -m bench long-log [--rounds 7]

(``make bench`` runs it too.) On a throwaway SQLite database, two Letter UP games
stored as an import stores them (an opening play, then one-tile exchanges): one of 20 entries,
one as long as the log's cap (2,000) leaves room for the rounds. Each round, on each game,
through ``scorekeeper.games.domain.act`` in this process (no HTTP): a play, a challenge of
it, the undo of the challenge, a correction of the play, the undo of the correction; and the
game's page at its middle turn (``?turn=``) through Django's test client. Reported: the
median of each, in milliseconds of CPU (this process's, SQLite's work included), at both
lengths and their ratio; then, once, a correction of the first turn of the long game (every
later entry scored again: the one cost that grows with the log) and how long it held the
write lock (of the clock).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.inprocess import lock_holds, setup_django

SHORT = 20
ENTRIES_A_ROUND = 5  # a play, a challenge, an undo, a correction, an undo
HOUSE = [(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")]  # 8D


def _game(entries: int, lexicon: str) -> Any:
    from scorekeeper.games import domain

    draft = domain.draft_game(
        ruleset="letterup-classic", players=["Ann", "Ben"], lexicon=lexicon, challenge_mode="manual"
    )
    draft.enter("play", tiles=HOUSE)
    for _ in range(entries - 1):
        draft.enter("exchange", count=1)
    return draft.save()


def _ms(fn: Callable[[], Any]) -> float:
    """The CPU time ``fn`` takes in this process, which runs SQLite too: on a machine shared
    with other work, the time it waits for a core is not the request's cost."""
    began = time.process_time()
    fn()
    return (time.process_time() - began) * 1000


def _round(game: Any, page: str, client: Any) -> dict[str, float]:
    """One round on ``game``: each request's cost (ms). It leaves the game as it found it."""
    from scorekeeper.games import domain

    began = time.process_time()
    played = domain.act(game.pk, domain.TurnCommand("play", notation="H8 .XAM"))
    times = {"turn": (time.process_time() - began) * 1000}
    number = played.turn.number
    times["challenge"] = _ms(lambda: domain.act(game.pk, domain.TurnCommand("challenge")))
    times["undo"] = _ms(lambda: domain.act(game.pk, domain.TurnCommand("undo")))
    times["correction"] = _ms(
        lambda: domain.act(
            game.pk, domain.TurnCommand("correct", target=number, notation="H8 .XAMS")
        )
    )
    domain.act(game.pk, domain.TurnCommand("undo"))  # the correction, and with it the play
    times["replay_page"] = _ms(lambda: client.get(page))
    return times


def _rounds(game: Any, rounds: int) -> dict[str, float]:
    """The median cost (ms) of each kind of request on ``game``, over ``rounds``."""
    from django.test import Client

    client = Client()
    page = f"/games/{game.pk}/?turn={game.last_entry_number // 2}"
    times: dict[str, list[float]] = {}
    for _ in range(rounds):
        for name, ms in _round(game, page, client).items():
            times.setdefault(name, []).append(ms)
    return {name: round(statistics.median(found), 2) for name, found in times.items()}


def run(rounds: int = 7) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-long-log-") as folder:
        setup_django(Path(folder) / "db.sqlite3", RATE_LIMIT_REPLAYS="0")
        import logging

        logging.disable(logging.WARNING)  # the static files this process never collected
        from django.conf import settings
        from django.core.management import call_command

        from referee import HONOUR_ID
        from scorekeeper.games import domain
        from scorekeeper.games.word_policy import resolve_lexicon

        call_command("migrate", verbosity=0)
        try:
            lexicon, _ = resolve_lexicon(settings.DEFAULT_LEXICON)
        except Exception:  # noqa: BLE001 - no list installed: challenges are judged by none
            lexicon = HONOUR_ID
        # As long as the log keeps, with the rounds' entries and the last correction.
        long = _game(domain.LOG_CAP - ENTRIES_A_ROUND * rounds - 1, lexicon)
        short = _game(SHORT, lexicon)
        _rounds(short, 1)  # warm up: the lexicon, the statements built once
        at = {"short": _rounds(short, rounds), "long": _rounds(long, rounds)}
        held = lock_holds()
        first = _ms(
            lambda: domain.act(
                long.pk, domain.TurnCommand("correct", target=1, notation="8D HOUSES")
            )
        )
        entries = long.turns.count()
    figures: dict[str, Any] = {"rounds": rounds, "entries": entries}
    for name in ("turn", "challenge", "undo", "correction", "replay_page"):
        low, high = at["short"][name], at["long"][name]
        figures[f"{name}_ms_at_20"] = low
        figures[f"{name}_ms_at_2000"] = high
        figures[f"{name}_ratio"] = round(high / low, 2) if low else None
    figures["correction_first_ms_at_2000"] = round(first, 1)
    figures["correction_first_hold_ms"] = round(max(held, default=0.0), 1)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    figures = run(parser.parse_args(argv).rounds)
    said = ", ".join(
        f"{name} {figures[f'{name}_ms_at_20']} → {figures[f'{name}_ms_at_2000']} ms"
        for name in ("turn", "challenge", "undo", "correction", "replay_page")
    )
    print(
        f"long log, entry 20 → {figures['entries']:,} (medians of {figures['rounds']}): {said}; "
        f"a correction of the first turn {figures['correction_first_ms_at_2000']} ms, the write "
        f"lock held {figures['correction_first_hold_ms']} ms of it"
    )
    print(json.dumps(figures))
