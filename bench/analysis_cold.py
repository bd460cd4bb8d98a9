"""The first analysis on a fresh server: what building a word list's structures costs it.

    LEXICON_DIR=../shared/lexica .venv/bin/python -m bench analysis-cold [--lexicon CSW21]
        [--workers 4] [--requests 12]

gunicorn as ``make serve`` runs it (config/gunicorn.conf.py), with ``--workers`` workers, a
fresh SQLite database and an empty ``LEXICON_CACHE_DIR`` (nothing compiled yet), no rate
limits. ``--requests`` clients ask for the same analysis at once, each asking again a second
after every 503, until each has its answer; meanwhile /healthz is asked every 0.2 s, as a
stand-in for a page. Printed as one JSON line:

  ready_s         from the first request until every client has its answer
  worker_cpu_s    CPU time of the workers, summed, from start to the last answer (the
                  server's start-up, the same each run, included)
  worker_peak_mb  the largest peak resident size of a worker (VmHWM)
  builders        workers whose peak resident size grew by more than 100 MB
  worker_boots    workers started, replacements included (a worker that misses gunicorn's
                  timeout while it builds is killed and replaced)
  page_p50_ms / page_max_ms  /healthz while the clients wait
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time

from bench import procs
from bench.server import served
from bench.transport import call

BUILT_MB = 100  # a worker that grew by more than this built the structures itself


def workers_cpu_seconds(master: int) -> float:
    """The CPU time of the master's workers, those replaced included."""
    alive = sum(procs.cpu_seconds(pid) for pid in procs.children(master))
    return alive + procs.cpu_seconds(master, reaped=True)


def peak_mb(pid: int) -> float:
    return procs.status_kb(pid, "VmHWM") / 1024


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lexicon", default="CSW21")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--requests", type=int, default=12)
    args = parser.parse_args(argv)
    env: dict[str, str | None] = {
        "WEB_CONCURRENCY": str(args.workers),
        "LOG_LEVEL": "WARNING",
        "LEXICON_DIR": os.environ.get("LEXICON_DIR"),
    }
    # An empty lexicon cache: the first analysis builds the structures, as on a fresh server.
    with served("analysis-cold-", None, env, compile_lexicon=False, extra=()) as run_on:
        server, master = run_on.server, run_on.pgid
        assert master is not None
        pids = procs.children(master)
        before = {pid: peak_mb(pid) for pid in pids}
        board: list[list[list[str]]] = [[[] for _ in range(15)] for _ in range(15)]
        body = {
            "ruleset": "crossword-classic",
            "lexicon": args.lexicon,
            "board": board,
            "rack": "AEINRST",
            "limit": 5,
        }
        done = threading.Event()
        pages: list[float] = []

        def page() -> None:
            while not done.is_set():
                started = time.perf_counter()
                call(server.port, "GET", "/healthz", timeout=30)
                pages.append((time.perf_counter() - started) * 1000)
                time.sleep(0.2)

        def client() -> None:
            while call(server.port, "POST", "/api/analysis/", body, timeout=120)[0] == 503:
                time.sleep(1)

        started = time.perf_counter()
        watcher = threading.Thread(target=page)
        watcher.start()
        clients = [threading.Thread(target=client) for _ in range(args.requests)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        ready = time.perf_counter() - started
        done.set()
        watcher.join()
        cpu = workers_cpu_seconds(master)
        peaks = {pid: peak_mb(pid) for pid in pids}
        boots = server.worker_boots()
    print(
        json.dumps(
            {
                "lexicon": args.lexicon,
                "workers": args.workers,
                "requests": args.requests,
                "ready_s": round(ready, 1),
                "worker_cpu_s": round(cpu, 1),
                "worker_peak_mb": round(max(peaks.values())),
                "builders": sum(peaks[pid] - before[pid] > BUILT_MB for pid in pids),
                "page_p50_ms": round(statistics.median(pages), 1),
                "page_max_ms": round(max(pages), 1),
                "worker_boots": boots,
            }
        )
    )
