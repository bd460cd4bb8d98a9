"""A weekend's event on one server, open loop: ``python -m bench event``.

    .venv/bin/python -m bench event [--seconds 60] [--every 20] [--phones 300] [--ends 12]

The server is config/gunicorn.conf.py as ``make serve`` runs it (uvicorn workers, two a core)
on a throwaway database (bench/server.py's ``served``), no rate limits. Its event
(bench/event_setup.py): 300 players in 3 divisions, 24 rounds, 7 played (typed-in results)
and round 8 paired by Swiss: 150 tables, each with its game. Then, for ``--seconds`` (60: a
bounded run, each table's turns at the real rate, one per 20 s on average):
  - the 150 tables enter turns (a one-tile exchange), open loop, each timed from its moment,
    with their scorer pages' streams of events open; ``--ends`` of them end their game at a
    moment drawn in the window;
  - ``--phones`` phones hold the event's page open with its stream, look at the page again
    every 30 s on average (``If-None-Match``: a 304 while the event is unchanged), and fetch
    its live part for each ``refresh`` the stream brings, 100-400 ms later, naming the version
    the stream told of, as live.js does;
  - ``/healthz`` is asked twice a second.

The figures (goals in bench/goals.py):
  event_turn_p99_ms       a turn at a table, from its moment to its answer
  event_page_p99_ms       the event page and its part as the phones asked for them
  event_page_bytes        the event page (its HTML), and its live part (event_part_bytes)
  event_end_p99_ms        a game's end (its commit) to the new standings at each phone (and in
                          the details, to its news at each phone: end_heard_p50/p99_ms)
  event_pairing_ms        pairing a round of 300 players in one division (Swiss and King of
                          the Hill, rounds 21 and 30; the slowest), the core alone, no server
  event_page_ratio        the event page (drawn, no ETag) against /healthz, medians of 40
                          each asked one after the other before the load
Each on SQLite and, where PostgreSQL and Redis answer (bench/server.py's ``live_databases``), on
PostgreSQL with Redis (the figures' names ending ``_postgresql``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.server import HARNESS, ROOT, live_databases, served
from bench.stats import percentile, rounded
from bench.transport import call

PLAYERS, ROUNDS, PLAYED, DIVISIONS, TABLES = 300, 24, 7, 3, 150


def pairing_ms(players: int = PLAYERS) -> float:
    """The slowest of pairing a round of ``players`` in one division, Swiss and King of the
    Hill, after 20 and 29 rounds of seeded results: the event rules' ``pair_round`` alone."""
    from referee.events import Bout, Competitor, Rules, pair_round

    draw = random.Random(players)
    field = [Competitor(i, f"P{i}", 1000 + draw.randrange(1000)) for i in range(1, players + 1)]
    slowest = 0.0
    for rounds in (20, 29):
        results: list[Any] = []
        for number in range(1, rounds + 1):
            ids = [p.id for p in field]
            draw.shuffle(ids)
            results += [
                Bout(number, a, b, 300 + draw.randrange(200), 300 + draw.randrange(200))
                for a, b in zip(ids[::2], ids[1::2], strict=True)
            ]
        for method in ("swiss", "koth"):
            began = time.perf_counter()
            pair_round(method, field, results, Rules(rounds=30), rounds + 1)
            slowest = max(slowest, (time.perf_counter() - began) * 1000)
    return round(slowest)


def setup(env: dict[str, str]) -> dict[str, Any]:
    """The event, made in the server's database (bench/event_setup.py)."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.event_setup"]
        + [str(n) for n in (PLAYERS, ROUNDS, PLAYED, DIVISIONS)],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(HARNESS)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the event was not made:\n{done.stdout}{done.stderr}")
    made: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return made


def page_ratio(port: int, event: int, times: int = 40) -> tuple[float, float]:
    """(the event page's median ms / /healthz's, the page's first draw in ms), asked one at a
    time, alternately, with no ETag."""
    from http.client import HTTPConnection

    conn = HTTPConnection("127.0.0.1", port, timeout=30)
    began = time.monotonic()
    call(port, "GET", f"/tournaments/{event}/", conn=conn)
    first = (time.monotonic() - began) * 1000
    page: list[float] = []
    health: list[float] = []
    for _ in range(times):
        for path, into in ((f"/tournaments/{event}/", page), ("/healthz", health)):
            began = time.monotonic()
            status, _ = call(port, "GET", path, conn=conn)
            into.append((time.monotonic() - began) * 1000)
            if status != 200:
                raise RuntimeError(f"{path} answered {status}")
    conn.close()
    return round(statistics.median(page) / statistics.median(health), 1), round(first, 1)


def run(
    database_url: str | None = None,
    redis_url: str | None = None,
    seconds: float = 60,
    every: float = 20,
    phones: int = 300,
    ends: int = 12,
    say: Any = print,
) -> dict[str, Any]:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    env: dict[str, str | None] = {
        "PUSH_MAX_STREAMS": "100000",
        "PUSH_STREAM_SECONDS": "3600",
        "RATE_LIMIT_EVENT_PAGES": "0",  # every phone is 127.0.0.1 here
        "REDIS_URL": redis_url,
        "CACHE_URL": redis_url,  # with Redis, the shared cache is there too
        "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY"),
    }
    try:
        with served("bench-event-", database_url, env) as run_on:
            where = run_on.database.description + (" + Redis" if redis_url else "")
            made = setup(run_on.server.env)
            ratio, first_ms = page_ratio(run_on.port, made["event"])
            say(
                f"event ({where}): round 8 of {PLAYERS} players paired in "
                f"{made['pair_round_ms']} ms (3 divisions, 150 games made); the page drawn in "
                f"{first_ms} ms, then {ratio}x /healthz"
            )
            handle, named = tempfile.mkstemp(prefix="event-", suffix=".json")
            os.close(handle)
            config = {
                "result": named, "port": run_on.port, "event": made["event"],
                "tables": made["tables"], "phones": phones, "seconds": seconds,
                "every": every, "ends": ends, "seed": 1,
            }  # fmt: skip
            load = subprocess.Popen(
                [sys.executable, "-m", "bench.event_load"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=HARNESS,
            )
            assert load.stdin is not None and load.stdout is not None
            load.stdin.write(json.dumps(config) + "\n")
            load.stdin.flush()
            line = load.stdout.readline()
            if "ready" not in line:
                load.kill()
                raise RuntimeError(f"the pages did not open: {line!r}")
            load.stdin.write("start\n")
            load.stdin.flush()
            try:
                load.communicate(timeout=seconds + 180)
            except subprocess.TimeoutExpired:
                load.kill()  # nothing of the run is left behind
                load.communicate()
                raise
            text = Path(named).read_text()
            Path(named).unlink()
            result: dict[str, Any] = (
                json.loads(text) if text else {"error_count": 1, "errors": ["no result"]}
            )
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    figures = {
        "event_turn_p99_ms": rounded(percentile(result.get("turn_ms", []), 0.99)),
        "event_page_p99_ms": rounded(percentile(result.get("page_ms", []), 0.99)),
        "event_page_bytes": result.get("page_bytes", {}).get("page"),
        "event_part_bytes": result.get("page_bytes", {}).get("part"),
        "event_end_p99_ms": rounded(percentile(result.get("reached_ms", []), 0.99)),
        "event_page_ratio": ratio,
    }
    details = {
        "database": where,
        "turns": len(result.get("turn_ms", [])),
        "turn_p50_ms": rounded(percentile(result.get("turn_ms", []), 0.5)),
        "pages": len(result.get("page_ms", [])),
        "page_p50_ms": rounded(percentile(result.get("page_ms", []), 0.5)),
        **{
            f"{what}_p99_ms": rounded(percentile(ms, 0.99))
            for what, ms in result.get("ms_by_what", {}).items()
        },
        "statuses": result.get("statuses"),
        "ends": result.get("ends"),
        "end_deliveries": len(result.get("reached_ms", [])),
        "end_p50_ms": rounded(percentile(result.get("reached_ms", []), 0.5)),
        "end_heard_p50_ms": rounded(percentile(result.get("heard_ms", []), 0.5)),
        "end_heard_p99_ms": rounded(percentile(result.get("heard_ms", []), 0.99)),
        "healthz_p99_ms": rounded(percentile(result.get("healthz_ms", []), 0.99)),
        "scorer_events": result.get("scorer_events"),
        "phone_refreshes": result.get("phone_refreshes"),
        "errors": result.get("error_count"),
        "error_sample": result.get("errors", [])[:3],
        "generator_cpu_s": result.get("cpu_s"),
        "pair_round_ms": made["pair_round_ms"],
        "page_first_ms": first_ms,
        "seconds": seconds,
        "every": every,
        "phones": phones,
    }
    say(f"event ({where}): {json.dumps({**figures, **details})}")
    return {**figures, "details": details}


def measure(
    seconds: float = 60.0,
    every: float = 20.0,
    phones: int = 300,
    ends: int = 12,
    sqlite_only: bool = False,
) -> dict[str, Any]:
    """Every figure of the event bench: the pairing, then a run on each database."""
    figures: dict[str, Any] = {"event_pairing_ms": pairing_ms()}
    print(f"event: a round of {PLAYERS} in one division pairs in {figures['event_pairing_ms']} ms")
    runs = live_databases()[:1] if sqlite_only else live_databases()
    for name, url, redis in runs:
        found = run(url, redis, seconds, every, phones, ends)
        suffix = "" if name == "sqlite" else f"_{name}"
        figures.update({f"{key}{suffix}": value for key, value in found.items()})
    return figures


def main(argv: list[str] | None = None) -> None:
    from bench.goals import goals_met

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=20.0, help="seconds between a table's turns")
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--ends", type=int, default=12, help="games that end in the window")
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.seconds, args.every, args.phones, args.ends, args.sqlite_only)
    figures["goals_met"] = goals_met(figures)
    print(json.dumps(figures))
