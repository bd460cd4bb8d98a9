"""Capacity, open loop: how many live tables one server serves within the goals.

    .venv/bin/python -m bench capacity [--steps 250,500,1000,...] [--seconds 20] [--restart S]

(``make bench`` runs it, on SQLite, and on PostgreSQL with Redis when
DATABASE_URL is a PostgreSQL URL and Redis answers on REDIS_URL or 127.0.0.1:6379.) The server
is config/gunicorn.conf.py as ``make serve`` runs it: uvicorn workers (ASGI), two a core, on a
throwaway database (bench/server.py's ``served``), no rate limits, max_requests off.

A table is a game with two screens (the TV's spectator screen and a player's phone), each with
its stream of events open (``/games/<id>/events?part=live``), which brings each turn with the
screen's live part; as static/js/live.js does, a screen fetches the part
(``/games/<id>/watch/live``, with its ETag) only for a turn that came without it. Each table
enters a turn (a one-tile exchange, with ``expected_turn``) at random times, one per 20 s on
average (a Poisson process), on a schedule fixed before the step starts: a turn is sent at its
moment whether or not earlier answers came back (open loop), and its latency runs from that
moment to its answer. A table's turns go one after another (the next waits for the last, as at a
real table), on a pool of keep-alive connections.

The window starts once every screen is open and the server has finished opening them (it
rests: ``settle``), as at a club, where screens open one by one as tables sit down: the turns
are measured against the screens' steady load, not against the opening of thousands at once.

Stepping up the table count, a step passes when, over its measured window:
  turn p99 <= 50 ms, update delivery p99 <= 1 s (from the commit, the event's ``at``, to the
  event arriving at the screen), every screen heard every turn of its table, and no request
  failed. ``capacity_tables`` is the largest passing step.

With ``--restart S``, S seconds into each window one worker is replaced as gunicorn replaces
it (SIGTERM: after ``max_requests``, or in a restart): its screens lose their streams and open
them again as a browser's EventSource does, after the stream's ``retry:`` and with their
``Last-Event-ID`` (``reconnects``; ``lost_s`` and ``reopened_s``: the least, median and most
moment, in seconds into the window; ``reopening``: still waiting at the end). The turns'
figures then show what the other tables feel while they do (``turns_over_50_ms``,
``turn_max_ms``).

Reported besides: the server's CPU per turn at each step (gunicorn's processes, and
PostgreSQL's backends, all in: the turn, the fan-out, the screens' fetches), the generator's own
CPU, the delivery p50/p99, the server's memory per connected screen, and how fast the machine
was as the step began (``machine_ms``: a fixed loop of pure Python; lower is faster).

The load generator runs in its own processes (bench/capacity_load.py), asyncio with uvloop where
installed, screens split over two of them (each process may hold at most RLIMIT_NOFILE sockets).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

from bench import procs
from bench.goals import GOALS
from bench.procs import group_rss_kb, machine_ms, server_ticks
from bench.server import HARNESS, served
from bench.stats import percentile, rounded, spread
from bench.transport import HOST, call, create_game

STEPS = (50, 100, 200, 300, 500, 1000, 2000, 3000, 5000, 7500, 10000)
WINDOW = 20.0  # seconds measured per step
SCREENS = 2  # per table
SETTLED_CORES = 0.5  # the server at rest once its screens are open (``settle``)
SETTLE_LIMIT = 60.0
# A step passes within the goals of a turn's and an update's p99 (bench/goals.py).
TURN_P99_MS = GOALS["p99_turn_ms"][1]
DELIVERY_P99_MS = GOALS["delivery_p99_ms"][1]


# The orchestration -------------------------------------------------------------------------------
def create_games(port: int, count: int) -> list[dict[str, Any]]:
    """``count`` games through the API (four at a time)."""

    def make(_: int) -> dict[str, Any]:
        game = create_game(port)
        return {"id": game["id"], "token": game["token"], "entry": 0}

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(make, range(count)))


def turn_cpu_ms(
    port: int, games: list[dict[str, Any]], pgid: int | None, marker: str | None
) -> float:
    """The server's CPU per turn with nothing else running: one turn (a one-tile exchange)
    on each game, one after another on one keep-alive connection; every screen closed. The
    median of three such rounds (the machine's speed moves from one second to the next)."""
    conn = HTTPConnection(HOST, port, timeout=30)

    def turn(game: dict[str, Any]) -> None:
        body = {"action": "exchange", "count": 1, "expected_turn": game["entry"] + 1}
        path = f"/api/games/{game['id']}/turns/"
        status, _ = call(port, "POST", path, body, game["token"], conn=conn)
        if status != 201:
            raise RuntimeError(f"a turn answered {status}")
        game["entry"] += 1

    for game in games[:20]:  # warm up
        turn(game)
    measured = games[20:]
    rounds = []
    for _ in range(3):
        ticks0 = server_ticks(pgid, marker)
        for game in measured:
            turn(game)
        ticks1 = server_ticks(pgid, marker)
        rounds.append((sum(ticks1) - sum(ticks0)) / procs.HZ * 1000 / len(measured))
    conn.close()
    return round(sorted(rounds)[1], 2)


def replace_a_worker(pgid: int) -> None:
    """Stop one of the server's workers as gunicorn does to replace it (``max_requests``, a
    restart): SIGTERM, its requests finished, its screens' streams cut when it goes; the
    master starts another. Its screens open their streams again, elsewhere."""
    workers = procs.children(pgid)
    if workers:
        os.kill(min(workers), signal.SIGTERM)


def settle(pgid: int | None, marker: str | None) -> float:
    """Seconds from the screens' opening to the server's rest, waited for before the window: a
    screen is open once its stream said ``ready``, and the server may still be reading, for
    the last ones, what they missed (``GameStream.catch_up``). Rest: a second in which the
    server used less than ``SETTLED_CORES`` (at rest with every screen open, 4,000 tables
    cost it 0.08 of a core: keep-alives, the workers' watch of the record). At most
    ``SETTLE_LIMIT`` seconds."""
    began = time.monotonic()
    before = sum(server_ticks(pgid, marker))
    while time.monotonic() - began < SETTLE_LIMIT:
        time.sleep(1.0)
        now = sum(server_ticks(pgid, marker))
        if (now - before) / procs.HZ < SETTLED_CORES:
            break
        before = now
    return round(time.monotonic() - began, 1)


def step(
    port: int,
    games: list[dict[str, Any]],
    seconds: float,
    pgid: int | None,
    marker: str | None,
    seed: int,
    restart: float | None = None,
) -> dict[str, Any]:
    """One step: the tables' screens open in two generator processes, each holding one screen
    of every table, and the turns are sent from a third (a table's scorer is a phone of its
    own: its turns don't wait behind a screen's events in the generator), then the window."""
    roles = [(True, False), (True, False), (False, True)]  # (screens, turns) of each process
    generators: list[subprocess.Popen[str]] = []
    outcomes: list[Path] = []
    rss_before = group_rss_kb(pgid)
    for screens, sends in roles:
        handle, named = tempfile.mkstemp(prefix="capacity-", suffix=".json")
        os.close(handle)
        outcomes.append(Path(named))
        config: dict[str, Any] = {
            "result": named,
            "port": port,
            "games": games,
            "screens": screens,
            "turns": sends,
            "seconds": seconds,
            "seed": seed,
            "reconnect": restart is not None,
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "bench.capacity_load"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=HARNESS,
        )
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(config) + "\n")
        proc.stdin.flush()
        generators.append(proc)
    opened = []
    for proc in generators:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        said = json.loads(line) if line.strip() else {"error": "the generator said nothing"}
        if "ready" not in said:
            for p in generators:
                p.kill()
            raise RuntimeError(f"screens did not open: {said}")
        opened.append(said)
    rss_open = group_rss_kb(pgid)
    settle_s = settle(pgid, marker)
    ticks0 = server_ticks(pgid, marker)
    for proc in generators:
        assert proc.stdin is not None
        proc.stdin.write("start\n")
        proc.stdin.flush()
    if restart is not None and pgid:
        time.sleep(restart)
        replace_a_worker(pgid)
    results: list[dict[str, Any]] = []
    for proc, outcome in zip(generators, outcomes, strict=True):
        # Each result comes in a file: through the pipe, one past 64 kB came cut short.
        proc.communicate(timeout=seconds + 120)
        text = outcome.read_text()
        outcome.unlink()
        results.append(json.loads(text) if text else {"error": "the generator said nothing"})
    ticks1 = server_ticks(pgid, marker)
    server_s = (sum(ticks1) - sum(ticks0)) / procs.HZ
    errors = [e for r in results for e in r.get("errors", [])]
    if any("error" in r for r in results):
        errors += [r["error"] for r in results if "error" in r]
    scorers = results[-1]
    turns = scorers.get("turn_ms", [])
    deliveries = [d for r in results for d in r.get("deliveries", [])]
    landed = {
        g["id"]: scorers.get("entries", {}).get(g["id"], g["entry"]) - g["entry"] for g in games
    }
    missed = sum(
        max(0, landed[table] - count)
        for r in results
        for table, count in r.get("heard", {}).items()
    )
    error_count = sum(r.get("error_count", 0) for r in results) + sum(
        1 for r in results if "error" in r
    )
    for game in games:  # where each table's log stands now
        game["entry"] = scorers.get("entries", {}).get(game["id"], game["entry"])
    opened_screens = sum(r.get("screens", 0) for r in results)
    figures: dict[str, Any] = {
        "tables": len(games),
        "screens": opened_screens,
        "turns": len(turns),
        "scheduled": scorers.get("scheduled", 0),
        "turn_p50_ms": rounded(percentile(turns, 0.50)),
        "turn_p99_ms": rounded(percentile(turns, 0.99)),
        "delivery_p50_ms": rounded(percentile(deliveries, 0.50)),
        "delivery_p99_ms": rounded(percentile(deliveries, 0.99)),
        "deliveries": len(deliveries),
        "missed": missed,
        "errors": error_count,
        "error_sample": errors[:3],
        "server_cpu_s": round(server_s, 2),
        "server_cpu_per_turn_ms": round(server_s * 1000 / len(turns), 2) if turns else None,
        "generator_cpu_s": round(sum(r.get("cpu_s", 0) for r in results), 2),
        "screens_open_s": max(o["open_s"] for o in opened),
        "settle_s": settle_s,
        "reconnects": sum(r.get("reconnects", 0) for r in results),
        "reopening": sum(r.get("reopening", 0) for r in results),
        "lost_s": spread([t for r in results for t in r.get("lost_s", [])]),
        "reopened_s": spread([t for r in results for t in r.get("reopened_s", [])]),
        "waiting_retry_ms": spread([t for r in results for t in r.get("waiting_retry_ms", [])]),
        "turns_over_50_ms": sum(1 for t in turns if t > TURN_P99_MS),
        "turn_max_ms": round(max(turns), 1) if turns else None,
        "rss_per_screen_kb": round((rss_open - rss_before) / opened_screens, 1)
        if opened_screens
        else None,
    }
    figures["passed"] = bool(
        turns
        and error_count == 0
        and missed == 0
        and figures["turn_p99_ms"] is not None
        and figures["turn_p99_ms"] <= TURN_P99_MS
        and figures["delivery_p99_ms"] is not None
        and figures["delivery_p99_ms"] <= DELIVERY_P99_MS
    )
    return figures


def run(
    steps: tuple[int, ...] = STEPS,
    seconds: float = WINDOW,
    database_url: str | None = None,
    redis_url: str | None = None,
    say: Any = print,
    restart: float | None = None,
) -> dict[str, Any]:
    """Step up the tables until a step fails; the figures of every step, and the capacity.
    With ``restart``: that many seconds into each window, one worker is replaced
    (``replace_a_worker``) and its screens reconnect."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    results: list[dict[str, Any]] = []
    # Workers as make serve has them (two a core) unless WEB_CONCURRENCY says.
    env: dict[str, str | None] = {
        "PUSH_MAX_STREAMS": "100000",
        "PUSH_STREAM_SECONDS": "3600",
        "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY"),
        "REDIS_URL": redis_url,
    }
    try:
        with served("bench-capacity-", database_url, env) as run_on:
            port, pgid, database = run_on.port, run_on.pgid, run_on.database
            marker = database.marker
            where = database.description + (" + Redis" if redis_url else "")
            games: list[dict[str, Any]] = create_games(port, 220)
            cpu_ms = turn_cpu_ms(port, games, pgid, marker)
            say(f"capacity ({where}): a turn costs the server {cpu_ms} ms of CPU")
            for number, tables in enumerate(steps):
                if tables * (SCREENS // 2) + 1000 > hard:
                    say(f"capacity: {tables} tables need more sockets than {hard}: stopped")
                    break
                games += create_games(port, tables - len(games))
                speed = machine_ms()
                figures = step(
                    port, games[:tables], seconds, pgid, marker, seed=number + 1, restart=restart
                )
                figures["machine_ms"] = speed
                results.append(figures)
                say(
                    f"capacity ({where}): {tables} tables, {figures['turns']} turns: turn p50/p99 "
                    f"{figures['turn_p50_ms']}/{figures['turn_p99_ms']} ms, delivery p50/p99 "
                    f"{figures['delivery_p50_ms']}/{figures['delivery_p99_ms']} ms, "
                    f"missed {figures['missed']}, errors {figures['errors']}, server CPU "
                    f"{figures['server_cpu_per_turn_ms']} ms a turn (all in), generator CPU "
                    f"{figures['generator_cpu_s']} s, {figures['rss_per_screen_kb']} kB a "
                    f"screen, machine {speed} ms: {'passed' if figures['passed'] else 'FAILED'}"
                    + (f" {figures['error_sample']}" if figures["error_sample"] else "")
                )
                if not figures["passed"]:
                    break
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    passed = [r for r in results if r["passed"]]
    best = passed[-1] if passed else None
    return {
        "capacity_tables": best["tables"] if best else 0,
        "turn_cpu_ms": cpu_ms,
        "delivery_p50_ms": best["delivery_p50_ms"] if best else None,
        "delivery_p99_ms": best["delivery_p99_ms"] if best else None,
        "screen_rss_kb": best["rss_per_screen_kb"] if best else None,
        "steps": results,
        "database": where,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default=",".join(map(str, STEPS)))
    parser.add_argument("--seconds", type=float, default=WINDOW)
    parser.add_argument("--redis", default=None, help="a Redis URL for the fan-out")
    parser.add_argument(
        "--restart", type=float, default=None, help="seconds into each window to replace a worker"
    )
    args = parser.parse_args(argv)
    steps = tuple(int(s) for s in args.steps.split(","))
    result = run(
        steps, args.seconds, os.environ.get("DATABASE_URL"), args.redis, restart=args.restart
    )
    print(json.dumps(result))
