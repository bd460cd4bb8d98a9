"""SQLite's write lock: turns from several processes at once, each on games of its own.

    .venv/bin/python -m bench writers [--processes 4] [--seconds 10]

(``make bench`` runs it too.) SQLite lets one transaction write at a time, so on
SQLite every table's turns take turns at one lock (``config.sqlite``); how long each turn holds
it bounds how many turns a second the whole server can write, whatever its cores. Each process
enters one-tile exchanges through ``scorekeeper.games.domain.act`` one after another (closed
loop, no HTTP), on a throwaway database; reported: the turns written a second by all of them,
their latency p50/p99, and how long a turn held the lock (p50/p90, from the writers' queue
letting it in to its commit), alone and with the others.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.inprocess import lock_holds, setup_django
from bench.stats import percentile

GAMES = 10  # per process


def _turns(games: list[str], start: float, seconds: float) -> tuple[list[float], list[float]]:
    """Exchanges on ``games`` in turn from ``start`` for ``seconds``: each one's latency and
    each hold of the lock, in ms."""
    from django.db import connection

    from scorekeeper.games import domain

    holds = lock_holds()
    connection.close()
    latencies: list[float] = []
    entries = dict.fromkeys(games, 1)
    while time.time() < start:
        time.sleep(0.001)
    done = 0
    while time.time() < start + seconds:
        game = games[done % len(games)]
        began = time.perf_counter()
        domain.act(game, domain.TurnCommand("exchange", count=1, expected_turn=entries[game]))
        latencies.append((time.perf_counter() - began) * 1000)
        entries[game] += 1
        done += 1
    connection.close()
    return latencies, holds


def _process(database: Path, games: list[str], ready: Any, seconds: float, out: Any) -> None:
    setup_django(database)
    from scorekeeper.games import domain  # noqa: F401 - loaded before the clock starts

    # Every process starts its turns when the last one is set up, however long that took.
    ready.wait()
    out.put(_turns(games, time.time(), seconds))


def _ms(values: list[float], fraction: float) -> float | None:
    found = percentile(values, fraction)
    return None if found is None else round(found, 2)


def run(processes: int = 4, seconds: float = 10.0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-sqlite-") as folder:
        database = Path(folder) / "db.sqlite3"
        setup_django(database)
        from django.core.management import call_command
        from django.db import connection

        from scorekeeper.games import domain

        call_command("migrate", verbosity=0)
        made = [
            str(domain.check_create_game(ruleset="letterup-classic", players=["Ann", "Ben"]).pk)
            for _ in range(processes * GAMES + GAMES)
        ]
        alone, made = made[:GAMES], made[GAMES:]
        _, held_alone = _turns(alone, time.time(), min(seconds, 3.0))
        connection.close()
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        ready = context.Barrier(processes + 1)
        workers = [
            context.Process(
                target=_process,
                args=(database, made[i * GAMES : (i + 1) * GAMES], ready, seconds, results),
            )
            for i in range(processes)
        ]
        for worker in workers:
            worker.start()
        ready.wait(timeout=300)
        latencies: list[float] = []
        holds: list[float] = []
        for _ in workers:
            some, held = results.get(timeout=seconds + 120)
            latencies += some
            holds += held
        for worker in workers:
            worker.join()
    return {
        "processes": processes,
        "sqlite_turns_per_s": round(len(latencies) / seconds),
        "turn_p50_ms": _ms(latencies, 0.5),
        "turn_p99_ms": _ms(latencies, 0.99),
        "hold_alone_p50_ms": _ms(held_alone, 0.5),
        "sqlite_hold_p50_ms": _ms(holds, 0.5),
        "hold_p90_ms": _ms(holds, 0.9),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    figures = run(args.processes, args.seconds)
    print(
        f"SQLite writers: {figures['processes']} processes, {figures['sqlite_turns_per_s']} "
        f"turns/s, p50/p99 {figures['turn_p50_ms']}/{figures['turn_p99_ms']} ms; the lock held "
        f"{figures['hold_alone_p50_ms']} ms a turn alone, {figures['sqlite_hold_p50_ms']}/"
        f"{figures['hold_p90_ms']} ms (p50/p90) with the others"
    )
    print(json.dumps(figures))
