"""The load generator of bench/event.py, one process: asyncio, raw HTTP/1.1.

    echo '{"port": 8123, "event": 1, "tables": [...], "phones": 300, ...}' \
        | python -m bench.event_load

Opens each table's scorer stream (``/games/<id>/events``) and each phone's event page (with
its ETag) and the event's stream (``/tournaments/<id>/events``), says ``{"ready": n}``, waits
for a line on stdin, then for ``seconds``: each table enters turns (a one-tile exchange) on a
Poisson schedule fixed in advance, one per ``every`` seconds on average (open loop: each timed
from its moment), and ``ends`` of them end their game at a moment drawn in the window; each
phone looks at the event page again now and then (``If-None-Match``), and for each
``refresh`` its stream brings it fetches the live part after 100-400 ms, naming the version
the stream told of (``?v=``), as static/js/live.js does; ``/healthz`` is asked twice a
second. Prints one JSON object to the result file.
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
from bench.capacity_load import Stream
from bench.procs import cpu_seconds
from bench.transport import HOST, Connection, connect, header

LOOK_AGAIN = 30.0  # seconds between a phone's looks at the event page, on average


class Listening:
    """An open stream of events (a scorer's or a phone's): what it heard, as ``Stream`` says."""

    def __init__(self, run: Run, path: str, on_event: Any = None) -> None:
        self.run, self.path, self.on_event = run, path, on_event
        self.ready = asyncio.get_running_loop().create_future()
        self.closing = False
        self.transport: asyncio.Transport | None = None
        self.heard = 0

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        opened, _ = await loop.create_connection(lambda: Stream(self), HOST, self.run.port)  # type: ignore[arg-type]
        self.transport = opened
        opened.write(transport.get(self.path, "Accept: text/event-stream"))
        await asyncio.wait_for(self.ready, 60)

    def event(self, block: bytes, arrived: float) -> None:
        kind, data = None, None
        for line in block.split(b"\n"):
            if line.startswith(b"event: "):
                kind = line[7:]
            elif line.startswith(b"data: "):
                data = line[6:]
        if kind == b"ready":
            if not self.ready.done():
                self.ready.set_result(None)
            return
        if kind in (b"turn", b"refresh"):
            self.heard += 1
        if self.on_event is not None and kind is not None:
            self.on_event(kind, json.loads(data) if data else {}, arrived)

    def fail(self, text: str) -> None:
        if not self.closing:
            self.run.errors.append(f"{self.path}: {text}")
        if not self.ready.done():
            self.ready.set_exception(RuntimeError(text))

    def lost(self) -> None:
        self.fail("connection lost")

    def ended(self) -> None:
        self.fail("the stream ended")

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()


class Phone:
    """A player's phone on the event's page: its page and part with their ETags, its stream."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.page_etag = ""
        self.part_etag = ""
        self.conn: Connection | None = None
        self.busy = asyncio.Lock()
        self.stream: Listening | None = None

    async def get(self, path: str, etag: str) -> tuple[int, bytes, bytes, float]:
        extra = ["Accept-Encoding: gzip", *([f"If-None-Match: {etag}"] if etag else [])]
        async with self.busy:
            began = time.monotonic()
            for attempt in range(2):  # again on a new connection if the server closed it
                if self.conn is None or self.conn.closed:
                    self.conn = await connect(self.run.port)
                try:
                    sent = self.conn.send(transport.get(path, *extra))
                    status, head, body = await asyncio.wait_for(sent, 30)
                except transport.ConnectionLost:
                    if attempt:
                        raise
                    continue
                except TimeoutError:
                    self.conn.close()
                    raise
                return status, head, body, (time.monotonic() - began) * 1000
            raise AssertionError("unreachable")

    async def look(self) -> None:
        """The event's page, as a phone opens it again: a 304 while nothing changed."""
        status, head, body, ms = await self.get(f"/tournaments/{self.run.event}/", self.page_etag)
        self.run.note_page(status, ms, len(body), "page")
        if status == 200:
            self.page_etag = header(head, b"etag") or ""

    async def open(self) -> None:
        await self.look()
        version = self.page_etag.strip('W/"').split(".")[1]  # the page's: "<event>.<version>..."
        path = f"/tournaments/{self.run.event}/events?seen={version}"
        self.stream = Listening(self.run, path, self.heard)
        await self.stream.open()

    def heard(self, kind: bytes, data: dict[str, Any], arrived: float) -> None:
        if kind != b"refresh":
            return
        at, version = data.get("at"), data.get("version")
        if at is not None and self.run.measuring:
            self.run.heard.append((arrived - at) * 1000)
        delay = 0.05 + random.random() * 0.2  # as live.js waits (EVENT_DEBOUNCE_MS, _SPREAD_MS)
        asyncio.get_running_loop().call_later(
            delay, lambda: asyncio.ensure_future(self.fetch_part(at, version))
        )

    async def fetch_part(self, at: float | None, version: int | None) -> None:
        try:
            path = f"/tournaments/{self.run.event}/standings"
            if version is not None:  # the version the stream told of, as live.js names it
                path += f"?v={version}"
            status, head, body, ms = await self.get(path, self.part_etag)
        except Exception as error:  # noqa: BLE001 - counted, the run goes on
            self.run.errors.append(f"part: {error!r}")
            return
        self.run.note_page(status, ms, len(body), "part")
        if status == 200:
            self.part_etag = header(head, b"etag") or ""
            if at is not None and self.run.measuring:
                self.run.reached.append((time.time() - at) * 1000)


class Table:
    def __init__(self, game: dict[str, Any]) -> None:
        self.id, self.token, self.entry = game["id"], game["token"], game.get("entry", 0)
        self.over = False
        self.lock = asyncio.Lock()


class Run:
    def __init__(self, config: dict[str, Any]) -> None:
        self.port: int = config["port"]
        self.event: int = config["event"]
        self.config = config
        self.errors: list[str] = []
        self.turn_ms: list[float] = []
        self.page_ms: list[float] = []
        self.ms_by_what: dict[str, list[float]] = {}  # the page's looks and the part's fetches
        self.page_bytes: dict[str, int] = {}
        self.statuses: dict[str, int] = {}
        self.reached: list[float] = []
        self.heard: list[float] = []  # a game's end to its news at each phone
        self.healthz_ms: list[float] = []
        self.ends_sent = 0
        self.measuring = False

    def note_page(self, status: int, ms: float, size: int, what: str) -> None:
        key = f"{what} {status}"
        self.statuses[key] = self.statuses.get(key, 0) + 1
        if status not in (200, 304):
            self.errors.append(f"{what} answered {status}")
            return
        if self.measuring:
            self.page_ms.append(ms)
            self.ms_by_what.setdefault(what, []).append(ms)
        if status == 200:
            self.page_bytes[what] = max(self.page_bytes.get(what, 0), size)

    async def turn(self, table: Table, action: str, pool: transport.Pool) -> None:
        async with table.lock:
            if table.over:
                return
            body: dict[str, Any] = {"action": action, "expected_turn": table.entry + 1}
            if action == "exchange":
                body["count"] = 1
            raw = transport.post(f"/api/games/{table.id}/turns/", body, table.token)
            began = time.monotonic()
            try:
                status, _, data = await asyncio.wait_for(pool.request(raw), 30)
            except Exception as error:  # noqa: BLE001
                self.errors.append(f"turn: {error!r}")
                return
            if status != 201:
                self.errors.append(f"turn answered {status}: {data[:120]!r}")
                return
            table.entry = max(table.entry + 1, json.loads(data).get("number", 0))
            if action == "finish":
                table.over = True
                self.ends_sent += 1
        self.turn_ms.append((time.monotonic() - began) * 1000)

    async def at(self, moment: float, job: Any) -> None:
        await asyncio.sleep(max(0.0, moment - time.monotonic()))
        await job()

    async def main(self) -> dict[str, Any]:
        config = self.config
        draw = random.Random(config.get("seed", 1))
        tables = [Table(game) for game in config["tables"]]
        scorers = [Listening(self, f"/games/{t.id}/events") for t in tables]
        phones = [Phone(self) for _ in range(config["phones"])]
        opened = time.monotonic()
        for batch in range(0, len(scorers), 50):
            await asyncio.gather(*(s.open() for s in scorers[batch : batch + 50]))
        for batch in range(0, len(phones), 25):
            await asyncio.gather(*(p.open() for p in phones[batch : batch + 25]))
        print(json.dumps({"ready": len(scorers) + len(phones),
                          "open_s": round(time.monotonic() - opened, 1)}), flush=True)  # fmt: skip
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

        seconds, every = config["seconds"], config["every"]
        start = time.monotonic()
        self.measuring = True
        cpu0 = cpu_seconds()
        pool = transport.Pool(self.port)
        jobs = []
        enders = draw.sample(tables, min(config["ends"], len(tables)))
        for table in tables:
            moment = start + draw.expovariate(1 / every)
            end_at = start + seconds * draw.uniform(0.15, 0.75) if table in enders else None
            while moment < start + seconds:
                if end_at is not None and moment >= end_at:
                    break
                jobs.append(self.at(moment, lambda t=table: self.turn(t, "exchange", pool)))
                moment += draw.expovariate(1 / every)
            if end_at is not None:
                jobs.append(self.at(end_at, lambda t=table: self.turn(t, "finish", pool)))
        for phone in phones:
            moment = start + draw.expovariate(1 / LOOK_AGAIN)
            while moment < start + seconds:
                jobs.append(self.at(moment, phone.look))
                moment += draw.expovariate(1 / LOOK_AGAIN)
        probing = asyncio.Lock()

        async def healthz() -> None:
            began = time.monotonic()  # from its moment: a probe waiting for the last counts
            async with probing:
                conn = await connect(self.port)
                try:
                    status, _, _ = await asyncio.wait_for(conn.send(transport.get("/healthz")), 30)
                finally:
                    conn.close()
            if status == 200:
                self.healthz_ms.append((time.monotonic() - began) * 1000)

        moment = start
        while moment < start + seconds:
            jobs.append(self.at(moment, healthz))
            moment += 0.5
        for failed in await asyncio.gather(*jobs, return_exceptions=True):
            if isinstance(failed, BaseException):
                self.errors.append(f"{type(failed).__name__}: {failed}")
        await asyncio.sleep(2.0)  # the last end's pages fetched
        self.measuring = False
        cpu = cpu_seconds() - cpu0
        for listening in scorers + [p.stream for p in phones if p.stream]:
            listening.close()
        return {
            "turn_ms": self.turn_ms,
            "page_ms": self.page_ms,
            "ms_by_what": self.ms_by_what,
            "page_bytes": self.page_bytes,
            "statuses": self.statuses,
            "reached_ms": self.reached,
            "heard_ms": self.heard,
            "healthz_ms": self.healthz_ms,
            "ends": self.ends_sent,
            "scorer_events": sum(s.heard for s in scorers),
            "phone_refreshes": sum(p.stream.heard for p in phones if p.stream),
            "errors": self.errors[:20],
            "error_count": len(self.errors),
            "cpu_s": round(cpu, 2),
            "elapsed_s": round(time.monotonic() - start, 1),
        }


def main() -> None:
    config = json.loads(sys.stdin.readline())
    result = asyncio.run(Run(config).main())
    Path(config["result"]).write_text(json.dumps(result))


if __name__ == "__main__":
    main()
