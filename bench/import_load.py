"""Turns on one game while others import the largest game records: does a turn wait?

    .venv/bin/python -m bench imports [--seconds 8] [--importers 2] [--rate 10]

(``make bench`` runs it too.) The server is the production one, as in
bench/http_load.py: gunicorn with config/gunicorn.conf.py (two workers), DEBUG off, on a
throwaway database (PostgreSQL when DATABASE_URL is set, else a fresh SQLite file), rate limits
off. ``importers`` clients each send the largest record an import takes
(``bench.sequences.largest_gcg_record``: 2,000 entries, about 160 kB with a note on
every line), one after another, to
``POST /api/games/import``. Meanwhile turns (one-tile exchanges) are sent to other games on a
fixed schedule, ``rate`` a second round-robin over a few Upwords games (open loop: a turn is sent at
its moment whether or not the ones before it were answered), and each is timed from its
scheduled moment, so time spent waiting behind an import counts.

  turn_ms_during_import  99th percentile latency of those turns (a refused or failed turn
                         counts with the time it took to fail)
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bench.sequences import largest_gcg_record
from bench.server import served
from bench.stats import percentile, rounded
from bench.transport import call, create_game

ENTRIES = 2000  # the most entries a game's log keeps (scorekeeper.games.domain.LOG_CAP)
TURN_GAMES = 5  # games the turns go round
DRAIN_TIMEOUT = 25.0  # seconds to wait for turns still unanswered when the window closes


def measure(port: int, seconds: float, importers: int, rate: float) -> dict[str, Any]:
    """Run the importers and the scheduled turns; the turns' latencies and what the imports
    answered."""
    games = [create_game(port, "honour") for _ in range(TURN_GAMES)]
    record = largest_gcg_record(ENTRIES)
    # Each import a record of its own: the same record again is refused (409) at once.
    copies = itertools.count(1)
    stop = threading.Event()
    imports: list[tuple[int, float]] = []

    def importer() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            try:
                gcg = largest_gcg_record(ENTRIES, next(copies))
                status, _ = call(port, "POST", "/api/games/import", {"gcg": gcg})
            except OSError:
                status = 0
            imports.append((status, time.perf_counter() - start))

    turns: list[tuple[int, float]] = []
    lock = threading.Lock()

    def turn(game: dict[str, Any], scheduled: float) -> None:
        try:
            status, _ = call(
                port, "POST", f"/api/games/{game['id']}/turns/",
                {"action": "exchange", "count": 1}, game["token"],
            )  # fmt: skip
        except OSError:
            status = 0
        with lock:
            turns.append((status, time.perf_counter() - scheduled))

    threads = [threading.Thread(target=importer, daemon=True) for _ in range(importers)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # the imports under way before the first turn
    pool = ThreadPoolExecutor(max_workers=64)
    start = time.perf_counter()
    count = int(seconds * rate)
    for index in range(count):
        scheduled = start + index / rate
        delay = scheduled - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        pool.submit(turn, games[index % len(games)], scheduled)
    deadline = time.perf_counter() + DRAIN_TIMEOUT
    while len(turns) < count and time.perf_counter() < deadline:
        time.sleep(0.05)
    stop.set()
    pool.shutdown(wait=False, cancel_futures=True)
    for thread in threads:
        thread.join(timeout=DRAIN_TIMEOUT)
    with lock:
        answered = list(turns)
    latencies = [ms * 1000 for _, ms in answered]
    statuses: dict[str, int] = {}
    for status, _ in answered:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    import_statuses: dict[str, int] = {}
    for status, _ in imports:
        import_statuses[str(status)] = import_statuses.get(str(status), 0) + 1
    return {
        "turns_sent": count,
        "turns_answered": len(answered),
        "turn_statuses": statuses,
        "turn_ms_median": round(statistics.median(latencies), 1) if latencies else None,
        "turn_ms_p99": rounded(percentile(latencies, 0.99)),
        "turn_ms_max": round(max(latencies), 1) if latencies else None,
        "imports": len(imports),
        "import_statuses": import_statuses,
        "import_s_median": round(statistics.median(s for _, s in imports), 2) if imports else None,
        "record_bytes": len(record.encode()),
    }


def run(
    seconds: float = 8.0, importers: int = 2, rate: float = 10.0, say: Any = print
) -> dict[str, Any]:
    """Start the server, measure, stop it; ``turn_ms_during_import`` and the details."""
    with served("bench-import-", os.environ.get("DATABASE_URL"), compile_lexicon=False) as run_on:
        database = run_on.database
        result = measure(run_on.port, seconds, importers, rate)
    unanswered = result["turns_sent"] - result["turns_answered"]
    say(
        f"import load: {importers} clients importing {ENTRIES:,}-entry records "
        f"({result['record_bytes']:,} bytes; {result['imports']} imports, "
        f"{result['import_statuses']}, median {result['import_s_median']} s each) on "
        f"{database.description}; {result['turns_sent']} turns on other games at {rate:g}/s: "
        f"p50 {result['turn_ms_median']} ms, p99 {result['turn_ms_p99']} ms, "
        f"max {result['turn_ms_max']} ms, answers {result['turn_statuses']}"
        + (f", {unanswered} unanswered after {DRAIN_TIMEOUT:g} s" if unanswered else "")
    )
    return {"turn_ms_during_import": result["turn_ms_p99"], "import_load": result}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=8.0, help="how long turns are sent")
    parser.add_argument("--importers", type=int, default=2, help="clients importing at once")
    parser.add_argument("--rate", type=float, default=10.0, help="turns a second")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.seconds, args.importers, args.rate)))
