"""The first analysis on a fresh server: what building a word list's structures costs it.

    LEXICON_DIR=/work/shared/lexica .venv/bin/python bench/analysis_cold.py [--lexicon CSW21]
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
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from config.server import Gunicorn, free_port  # noqa: E402 - after the path is set

BUILT_MB = 100  # a worker that grew by more than this built the structures itself


def ask(port: int, body: bytes) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("POST", "/api/analysis/", body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def workers(master: int) -> list[int]:
    pids: list[int] = []
    for task in Path(f"/proc/{master}/task").iterdir():
        pids += [int(pid) for pid in (task / "children").read_text().split()]
    return pids


def cpu_seconds(pid: int, children: bool = False) -> float:
    """A process's CPU time, or (``children``) that of its children it has reaped."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    first = 13 if children else 11  # cutime, cstime; utime, stime
    return (int(fields[first]) + int(fields[first + 1])) / os.sysconf("SC_CLK_TCK")


def workers_cpu_seconds(master: int) -> float:
    """The CPU time of the master's workers, those replaced included."""
    return sum(cpu_seconds(pid) for pid in workers(master)) + cpu_seconds(master, children=True)


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lexicon", default="CSW21")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--requests", type=int, default=12)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="analysis-cold-"))
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{scratch / 'db.sqlite3'}",
        "LEXICON_CACHE_DIR": str(scratch / "cache"),
        "LEXICON_USER_DIR": str(scratch / "lexica"),
        "SECRET_KEY": "bench-only",
        "DEBUG": "0",
        "SECURE": "0",
        "WEB_CONCURRENCY": str(args.workers),
        "RATE_LIMIT_JUDGE": "0",
        "LOG_LEVEL": "WARNING",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    server = Gunicorn(env, free_port(), scratch / "gunicorn.log")
    server.start()
    assert server.process is not None
    try:
        pids = workers(server.process.pid)
        before = {pid: peak_mb(pid) for pid in pids}
        board: list[list[list[str]]] = [[[] for _ in range(15)] for _ in range(15)]
        body = json.dumps(
            {
                "ruleset": "crossword-classic",
                "lexicon": args.lexicon,
                "board": board,
                "rack": "AEINRST",
                "limit": 5,
            }  # fmt: skip
        ).encode()
        done = threading.Event()
        pages: list[float] = []

        def page() -> None:
            while not done.is_set():
                started = time.perf_counter()
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                conn.close()
                pages.append((time.perf_counter() - started) * 1000)
                time.sleep(0.2)

        def client() -> None:
            while ask(server.port, body) == 503:
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
        cpu = workers_cpu_seconds(server.process.pid)
        peaks = {pid: peak_mb(pid) for pid in pids}
        boots = server.worker_boots()
    finally:
        server.stop()
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


if __name__ == "__main__":
    main()
