"""The load generator of bench/http_load.py, in its own process: asyncio, raw HTTP/1.1.

    echo '{"port": 8123, "clients": 50, ...}' | python -m bench.loadgen

Each client is one coroutine with one keep-alive connection, sending a request, waiting for its
answer, then sending the next (a closed loop). It sets up its own games through the API, then
runs the phases one after another, each a warm-up and then a measured window:

  trivial  GET /ping, the smallest JSON view: the stack's own limit
  turns    POST /api/games/<id>/turns/ with expected_turn, round-robin over the client's own
           games (no 409s): the Hasbro plays, then one-tile exchanges
  poll     GET /games/<id>/watch/live with If-None-Match set to the current ETag (304 expected)
  trivial_end  GET /ping again, to see how much the machine drifted in the meantime

A phase counts the requests that complete inside its window. Every request has one outcome; the
latency of a request that had to reconnect (say a worker recycled by gunicorn's max_requests
closed its keep-alive connection) runs from the first send to the answer; a turn sent again
that finds it had landed (409) counts as landed once, and is reported. The client's own CPU time and
the whole machine's busy time (/proc/stat) are measured over each window.

The last line of stdout is one JSON object with the figures of every phase.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections import Counter
from typing import Any

from bench import transport
from bench.procs import machine_ticks, server_ticks, worker_connections
from bench.stats import percentile
from bench.transport import Connection, header

CONNECT_RETRIES = 5
SETUP_TIMEOUT = 60.0  # seconds for the whole setup (creating games, fetching ETags)
PHASE_GRACE = 15.0  # seconds a phase may run past its window before its clients are cancelled


# The clients -------------------------------------------------------------------------------------
class Client:
    def __init__(self, index: int, port: int) -> None:
        self.index = index
        self.port = port
        self.conn: Connection | None = None
        self.games: list[dict[str, Any]] = []
        self.reconnects = 0

    async def connect(self) -> Connection:
        return await transport.connect(self.port)

    async def request(self, raw: bytes) -> tuple[int, bytes, bytes, bool]:
        """Send ``raw``; on a lost connection reconnect and send it again. The last item says
        whether it was sent more than once."""
        for attempt in range(CONNECT_RETRIES + 1):
            try:
                if self.conn is None or self.conn.closed:
                    if self.conn is not None:
                        self.reconnects += 1
                    self.conn = await self.connect()
                status, head, body = await self.conn.send(raw)
                return status, head, body, attempt > 0
            except (ConnectionError, OSError):
                if self.conn is not None:
                    self.conn.close()
                if attempt == CONNECT_RETRIES:
                    raise
                await asyncio.sleep(0.02 * (attempt + 1))
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


class Phase:
    """Counts what completes inside the window [start, end]."""

    def __init__(self, name: str, start: float, end: float) -> None:
        self.name = name
        self.start, self.end = start, end
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.failures: list[str] = []  # unexpected answers, warm-up included
        self.failed = 0
        self.resent_landed = 0  # turns sent again after a lost connection and found landed
        self.connection_errors = 0
        self.cancelled = 0

    def record(self, started: float, done: float, status: int) -> None:
        if self.start <= done <= self.end:
            self.latencies.append(done - started)
            self.statuses[status] += 1

    def fail(self, text: str) -> None:
        self.failed += 1
        if len(self.failures) < 5:
            self.failures.append(text)


class Turns:
    """One client's turns: its games in turn, each the Hasbro plays, then one-tile exchanges."""

    def __init__(self, client: Client, plays: list[list[dict[str, Any]]]) -> None:
        self.client = client
        self.plays = plays
        self.at = 0

    def body(self, number: int) -> dict[str, Any]:
        if number <= len(self.plays):
            return {"action": "play", "tiles": self.plays[number - 1], "expected_turn": number}
        return {"action": "exchange", "count": 1, "expected_turn": number}

    def next(self) -> tuple[bytes, dict[str, Any]]:
        game = self.client.games[self.at % len(self.client.games)]
        self.at += 1
        raw = transport.post(
            f"/api/games/{game['id']}/turns/", self.body(game["next"]), game["token"]
        )
        return raw, game

    async def done(
        self, game: dict[str, Any], status: int, body: bytes, resent: bool, phase: Phase
    ) -> None:
        if status == 201:
            game["next"] += 1
            return
        if status == 409 and resent:
            # The first copy landed before its connection was lost: applied once, not twice.
            phase.resent_landed += 1
            game["next"] += 1
            return
        phase.fail(f"turn {game['next']} of {game['id']}: {status} {body[:200]!r}")
        status, _, state, _ = await self.client.request(transport.get(f"/api/games/{game['id']}/"))
        if status == 200:
            game["next"] = json.loads(state)["turn_number"] + 1


async def run_phase(
    name: str,
    clients: list[Client],
    make: Any,
    warmup: float,
    duration: float,
    max_per_client: int,
    server: tuple[int | None, str | None] = (None, None),
) -> dict[str, Any]:
    """Every client runs ``make(client)`` until the window closes or it has sent its maximum."""
    loop = asyncio.get_running_loop()
    start = loop.time() + warmup  # the event loop's clock, for the sampler's sleeps
    end = start + duration
    now = time.perf_counter()  # the requests' clock
    phase = Phase(name, now + warmup, now + warmup + duration)
    samples: dict[str, Any] = {}

    async def sample() -> None:
        await asyncio.sleep(max(0.0, start - loop.time()))
        samples["cpu0"], samples["ticks0"] = time.process_time(), machine_ticks()
        samples["server0"] = server_ticks(*server)
        samples["workers"] = worker_connections(server[0], clients[0].port)
        await asyncio.sleep(max(0.0, end - loop.time()))
        samples["cpu1"], samples["ticks1"] = time.process_time(), machine_ticks()
        samples["server1"] = server_ticks(*server)

    completed: dict[int, int] = {}  # requests completed in the window, by client

    async def one(client: Client) -> None:
        work = make(client)
        completed[client.index] = 0
        for _ in range(max_per_client):
            now = time.perf_counter()
            if now >= phase.end:
                return
            raw, context = work.next()
            try:
                status, _, body, resent = await client.request(raw)
            except (ConnectionError, OSError) as error:
                phase.connection_errors += 1
                phase.fail(f"{name}: {error!r}")
                continue
            done = time.perf_counter()
            phase.record(now, done, status)
            if phase.start <= done <= phase.end:
                completed[client.index] += 1
            await work.done(context, status, body, resent, phase)

    reconnects = sum(c.reconnects for c in clients)
    tasks = {asyncio.ensure_future(one(c)): c for c in clients}
    sampler = asyncio.ensure_future(sample())
    finished, pending = await asyncio.wait(tasks, timeout=warmup + duration + PHASE_GRACE)
    for task in pending:
        task.cancel()
        tasks[task].close()  # its request was cut off mid-answer: start afresh
        phase.cancelled += 1
    if pending:
        await asyncio.wait(pending, timeout=1)
    for task in finished:
        if task.exception() is not None:
            phase.fail(f"{name}: client crashed: {task.exception()!r}")
    if not sampler.done():
        await asyncio.wait([sampler], timeout=1)
    sampler.cancel()

    latencies = sorted(phase.latencies)
    count = len(latencies)
    window = phase.end - phase.start
    cpu = samples.get("cpu1", 0.0) - samples.get("cpu0", 0.0)
    busy0, total0 = samples.get("ticks0", (0, 0))
    busy1, total1 = samples.get("ticks1", (0, 0))
    hz = os.sysconf("SC_CLK_TCK")
    app0, db0 = samples.get("server0", (0, 0))
    app1, db1 = samples.get("server1", (0, 0))
    per_request = 1000 / hz / count if count else float("nan")
    spread = sorted(completed.values()) or [0]
    return {
        "requests": count,
        # how evenly the clients were served: requests completed by the least and most served
        "per_client": {"min": spread[0], "median": spread[len(spread) // 2], "max": spread[-1]},
        "worker_connections": samples.get("workers", []),
        "per_s": count / window,
        "p50_ms": seconds_to_ms(percentile(latencies, 0.50)),
        "p99_ms": seconds_to_ms(percentile(latencies, 0.99)),
        "max_ms": (latencies[-1] * 1000) if latencies else float("nan"),
        "statuses": {str(k): v for k, v in sorted(phase.statuses.items())},
        "failed": phase.failed,
        "failures": phase.failures,
        "connection_errors": phase.connection_errors,
        "cancelled": phase.cancelled,
        "resent_landed": phase.resent_landed,
        "reconnects": sum(c.reconnects for c in clients) - reconnects,
        "client_cpu": cpu / window,  # of one core
        "machine_busy": (busy1 - busy0) / (total1 - total0) if total1 > total0 else None,
        # CPU per request, in ms: gunicorn (master and workers), and the database's backends
        "server_cpu_ms": (app1 - app0) * per_request if server[0] else None,
        "db_cpu_ms": (db1 - db0) * per_request if server[1] else None,
    }


def seconds_to_ms(value: float | None) -> float:
    return float("nan") if value is None else value * 1000


class Simple:
    """One fixed request; ``ok`` is the expected status."""

    def __init__(self, raw_for: Any, ok: int) -> None:
        self.raw_for = raw_for
        self.ok = ok
        self.at = 0

    def next(self) -> tuple[bytes, None]:
        self.at += 1
        return self.raw_for(self.at), None

    async def done(self, _: None, status: int, body: bytes, resent: bool, phase: Phase) -> None:
        if status != self.ok:
            phase.fail(f"{status} (expected {self.ok}): {body[:200]!r}")


async def setup(clients: list[Client], config: dict[str, Any]) -> dict[str, Any]:
    """Each client creates its own games, one after another (its players are shared by them)."""
    failures: list[str] = []

    async def create(client: Client) -> None:
        for _ in range(config["games_per_client"]):
            body = {
                "ruleset": "upwords-10",
                "lexicon": config["lexicon"],
                "players": [f"Ann {client.index}", f"Ben {client.index}"],
                "challenge_mode": "auto",
            }
            status, _, answer, _ = await client.request(transport.post("/api/games/", body))
            if status != 201:
                failures.append(f"create: {status} {answer[:300]!r}")
                return
            game = json.loads(answer)
            client.games.append({"id": game["id"], "token": game["token"], "next": 1})

    started = time.perf_counter()
    # Connect one client at a time, as devices arrive, not all in the same millisecond: a burst
    # of connections is accepted mostly by whichever worker wakes first, and stays there.
    for client in clients:
        client.conn = await asyncio.wait_for(client.connect(), SETUP_TIMEOUT)
        await asyncio.sleep(config.get("connect_gap", 0.01))
    await asyncio.wait_for(asyncio.gather(*(create(c) for c in clients)), SETUP_TIMEOUT)
    return {
        "games": sum(len(c.games) for c in clients),
        "seconds": time.perf_counter() - started,
        "failures": failures,
    }


async def fetch_etags(clients: list[Client]) -> list[str]:
    failures: list[str] = []

    async def fetch(client: Client) -> None:
        for game in client.games:
            status, head, body, _ = await client.request(
                transport.get(f"/games/{game['id']}/watch/live")
            )
            etag = header(head, b"etag")
            if status != 200 or not etag:
                failures.append(f"watch/live: {status}, ETag {etag!r}: {body[:200]!r}")
            game["etag"] = etag or '"none"'

    await asyncio.wait_for(asyncio.gather(*(fetch(c) for c in clients)), SETUP_TIMEOUT)
    return failures


async def main(config: dict[str, Any]) -> dict[str, Any]:
    clients = [Client(i, config["port"]) for i in range(config["clients"])]
    warmup, duration, cap = config["warmup"], config["duration"], config["max_per_client"]
    server = (config.get("server_pgid"), config.get("db_marker"))
    result: dict[str, Any] = {"clients": len(clients), "warmup_s": warmup, "window_s": duration}
    try:
        result["setup"] = await setup(clients, config)
        if result["setup"]["failures"] or not all(c.games for c in clients):
            result["error"] = "setup failed"
            return result
        phases: dict[str, Any] = {}

        def ping(client: Client) -> Simple:
            raw = transport.get("/ping")
            return Simple(lambda _: raw, 200)

        phases["trivial"] = await run_phase("trivial", clients, ping, warmup, duration, cap, server)
        phases["turns"] = await run_phase(
            "turns", clients, lambda c: Turns(c, config["plays"]), warmup, duration, cap, server
        )
        result["turns_per_game"] = {
            "min": min(g["next"] - 1 for c in clients for g in c.games),
            "max": max(g["next"] - 1 for c in clients for g in c.games),
        }
        result["etag_failures"] = await fetch_etags(clients)

        def poll(client: Client) -> Simple:
            raws = [
                transport.get(f"/games/{g['id']}/watch/live", f"If-None-Match: {g['etag']}")
                for g in client.games
            ]
            return Simple(lambda at: raws[at % len(raws)], 304)

        phases["poll"] = await run_phase("poll", clients, poll, warmup, duration, cap, server)
        # The trivial view again: the machine's other load may have changed in the meantime.
        phases["trivial_end"] = await run_phase(
            "trivial_end", clients, ping, warmup, duration, cap, server
        )
        result["phases"] = phases
        result["reconnects"] = sum(c.reconnects for c in clients)
        return result
    finally:
        for client in clients:
            client.close()


if __name__ == "__main__":
    # The settings come on stdin: in argv they would show in this process's command line,
    # where server_ticks looks for the database's name.
    settings = json.loads(sys.stdin.read())
    started_cpu = time.process_time()
    output = asyncio.run(main(settings))
    output["client_cpu_s_total"] = time.process_time() - started_cpu
    print(json.dumps(output))
