"""The load generator of bench/capacity.py, one process of it: asyncio (uvloop where
installed), raw HTTP/1.1.

    echo '{"port": 8123, "games": [...], "turns": true, "seconds": 20}' \
        | python -m bench.capacity_load

It opens one screen per game, unless ``"screens": false`` (a stream of events,
``/games/<id>/events?part=live``, parsed as it arrives; each turn comes with the live part,
which is fetched only for one that doesn't, after a spread moment, as live.js does),
says ``{"ready": n}`` on stdout, waits for a line on stdin, then (with ``turns``) sends each
table's turns on a Poisson schedule fixed in advance (open loop: each timed from its moment)
for ``seconds``, and prints one JSON object: the turns' latencies, the deliveries' delays
(arrival minus the event's commit time), what each screen heard, the errors, its own CPU.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from bench import transport
from bench.procs import cpu_seconds
from bench.transport import HOST, Pool, header

TURN_EVERY = 20.0  # seconds between a table's turns, on average
CONNECT_BATCH = 200  # screens connecting at once while a step opens


class Stream(asyncio.Protocol):
    """One screen's open event stream: parses chunked Server-Sent Events as they arrive."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.buffer = bytearray()
        self.head_done = False
        self.text = bytearray()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        arrived = time.time()
        self.buffer += data
        if not self.head_done:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = int(self.buffer[9:12])
            if status != 200:
                self.screen.fail(f"stream answered {status}")
                return
            del self.buffer[: end + 4]
            self.head_done = True
        while True:  # chunks
            line_end = self.buffer.find(b"\r\n")
            if line_end < 0:
                break
            size = int(bytes(self.buffer[:line_end]).split(b";")[0] or b"0", 16)
            if len(self.buffer) < line_end + 2 + size + 2:
                break
            self.text += self.buffer[line_end + 2 : line_end + 2 + size]
            del self.buffer[: line_end + 2 + size + 2]
            if size == 0:
                self.screen.ended()
        while (end := self.text.find(b"\n\n")) >= 0:
            block = bytes(self.text[:end])
            del self.text[: end + 2]
            self.screen.event(block, arrived)

    def connection_lost(self, exc: Exception | None) -> None:
        self.screen.lost()


class Screen:
    def __init__(self, run: Generator, table: Table) -> None:
        self.run, self.table = run, table
        self.ready = asyncio.get_running_loop().create_future()
        self.heard: set[int] = set()
        self.last_id: int | None = None  # the last event's id (its entry)
        self.retry_ms = 2000  # what the stream said (``retry:``)
        self.reopening = False  # its stream lost, not open again yet
        self.etag = ""
        self.closing = False
        self.transport: asyncio.Transport | None = None

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        opened, _ = await loop.create_connection(lambda: Stream(self), HOST, self.run.port)
        self.transport = opened
        since = [f"Last-Event-ID: {self.last_id}"] if self.last_id is not None else []
        path = f"/games/{self.table.id}/events?part=live"
        opened.write(transport.get(path, "Accept: text/event-stream", *since))
        await asyncio.wait_for(self.ready, 30)

    async def reopen(self) -> None:
        """As a browser's EventSource does when its stream is lost: again after the stream's
        ``retry``, with the last event's id."""
        while not self.closing:
            await asyncio.sleep(self.retry_ms / 1000)
            try:
                await self.open()
            except (TimeoutError, OSError):
                continue
            self.run.reconnects += 1
            self.reopening = False
            self.run.reopened.append(time.monotonic())
            return

    def event(self, block: bytes, arrived: float) -> None:
        kind = data = None
        for line in block.split(b"\n"):
            if line.startswith(b"event: "):
                kind = line[7:]
            elif line.startswith(b"id: "):
                self.last_id = int(line[4:])
            elif line.startswith(b"retry: "):
                self.retry_ms = int(line[7:])
            elif line.startswith(b"data: "):
                data = line[6:]
        if kind == b"ready":
            if not self.ready.done():
                self.ready.set_result(None)
        elif kind == b"turn" and data is not None:
            news = json.loads(data)
            self.heard.add(news["entry"])
            if self.run.measuring:
                self.run.deliveries.append((arrived - news["at"]) * 1000)
            # The live part comes with the event; as live.js does, a screen fetches it only
            # when it doesn't (an entry caught up from the record), after a moment: 150 ms
            # and up to 500 more.
            if self.run.fetch and "part" not in news:
                delay = 0.15 + random.random() * 0.5
                asyncio.get_running_loop().call_later(
                    delay, lambda: asyncio.ensure_future(self.fetch())
                )
        elif kind == b"reload":
            self.fail("told to reload")

    async def fetch(self) -> None:
        """The live part again, as live.js fetches it for each change."""
        extra = [f"If-None-Match: {self.etag}"] if self.etag else []
        raw = transport.get(f"/games/{self.table.id}/watch/live", "HX-Request: true", *extra)
        try:
            status, head, _ = await self.run.pool.request(raw)
        except Exception as error:  # noqa: BLE001 - counted, the run goes on
            self.run.errors.append(f"fetch: {error!r}")
            return
        if status not in (200, 304):
            self.run.errors.append(f"fetch answered {status}")
        self.etag = header(head, b"etag") or self.etag

    def fail(self, text: str) -> None:
        if not self.closing:
            self.run.errors.append(f"screen of {self.table.id}: {text}")
        if not self.ready.done():
            self.ready.set_exception(RuntimeError(text))

    def lost(self) -> None:
        if self.closing:
            return
        if self.run.reconnect and self.ready.done():
            self.reopening = True
            self.run.lost.append(time.monotonic())
            asyncio.ensure_future(self.reopen())
        else:
            self.fail("connection lost")

    def ended(self) -> None:
        """The server ended the stream: with ``reconnect``, the connection's loss reopens it."""
        if not self.run.reconnect:
            self.fail("the stream ended")

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()


class Table:
    def __init__(self, game: dict[str, Any]) -> None:
        self.id = game["id"]
        self.token = game["token"]
        self.entry = self.start = game.get("entry", 0)
        self.lock = asyncio.Lock()


class Generator:
    def __init__(self, config: dict[str, Any]) -> None:
        self.port = config["port"]
        self.fetch = config.get("fetch", True)
        self.reconnect = config.get("reconnect", False)  # screens reopen lost streams
        self.reconnects = 0
        self.lost: list[float] = []  # when streams were lost (time.monotonic)
        self.reopened: list[float] = []
        self.pool = Pool(self.port)
        self.errors: list[str] = []
        self.deliveries: list[float] = []
        self.turn_ms: list[float] = []
        self.measuring = False

    async def turn(self, table: Table, at: float) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, at - loop.time()))
        async with table.lock:
            raw = transport.turn({"id": table.id, "token": table.token}, table.entry + 1)
            try:
                status, _, answer = await self.pool.request(raw)
            except Exception as error:  # noqa: BLE001 - counted
                self.errors.append(f"turn: {error!r}")
                return
            done = loop.time()
            if status != 201:
                self.errors.append(f"turn answered {status}: {answer[:200]!r}")
                return
            table.entry += 1
            self.turn_ms.append((done - at) * 1000)


async def generate(config: dict[str, Any]) -> dict[str, Any]:
    """One step, in one generator process: this process's screens of ``games`` and, if
    ``turns``, the tables' turns. Says "ready" on stdout once its screens are open, then waits
    for a line on stdin (the start) before the window."""
    run = Generator(config)
    loop = asyncio.get_running_loop()
    tables = [Table(game) for game in config["games"]]
    screens: list[Screen] = []
    opened = time.monotonic()
    for first in range(0, len(tables) if config.get("screens", True) else 0, CONNECT_BATCH):
        batch = [Screen(run, table) for table in tables[first : first + CONNECT_BATCH]]
        screens += batch
        results = await asyncio.gather(*(s.open() for s in batch), return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        if failed:
            return {"error": f"{len(failed)} screens did not open: {failed[0]!r}"}
    print(json.dumps({"ready": len(screens), "open_s": round(time.monotonic() - opened, 2)}))
    sys.stdout.flush()
    await loop.run_in_executor(None, sys.stdin.readline)  # the start
    cpu0 = cpu_seconds()
    start = loop.time()
    began = time.monotonic()
    window = config["seconds"]
    rng = random.Random(config.get("seed", 1))
    tasks = []
    if config["turns"]:
        for table in tables:
            at = start + rng.expovariate(1 / TURN_EVERY)
            while at < start + window:
                tasks.append(loop.create_task(run.turn(table, at)))
                at += rng.expovariate(1 / TURN_EVERY)
    run.measuring = True
    await asyncio.sleep(window)
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=60) if tasks else None
    await asyncio.sleep(2.0)  # the last turns' news
    run.measuring = False
    cpu = cpu_seconds() - cpu0
    # What each screen heard of its table's turns in the window (the orchestrator compares it
    # with what landed).
    heard = {s.table.id: sum(1 for e in s.heard if e > s.table.start) for s in screens}
    for screen in screens:
        screen.close()
    return {
        "screens": len(screens),
        "turns": len(run.turn_ms),
        "scheduled": len(tasks),
        "turn_ms": run.turn_ms,
        "deliveries": run.deliveries,
        "heard": heard,
        "errors": run.errors[:20],
        "error_count": len(run.errors),
        "cpu_s": round(cpu, 2),
        "reconnects": run.reconnects,
        "reopening": sum(1 for s in screens if s.reopening),  # at the end, still waiting
        "lost_s": [round(t - began, 1) for t in run.lost],
        "reopened_s": [round(t - began, 1) for t in run.reopened],
        "waiting_retry_ms": [s.retry_ms for s in screens if s.reopening],
        "entries": {t.id: t.entry for t in tables} if config["turns"] else {},
    }


def generator_main() -> None:
    config = json.loads(sys.stdin.readline())
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(generate(config))
    Path(config["result"]).write_text(json.dumps(result))


if __name__ == "__main__":
    generator_main()
