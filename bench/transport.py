"""The benchmark's HTTP client, shared by every driver: raw HTTP/1.1 keep-alive connections on
asyncio for the load generators (closed loop: bench/loadgen.py; open loop:
bench/capacity_load.py), and one blocking call for setting up and for light work.

It parses only what the server sends (Content-Length or chunked bodies), so that the generator
costs little beside the server it measures; no Django import.
"""

from __future__ import annotations

import asyncio
import http.client
import json
from typing import Any

HOST = "127.0.0.1"
Answer = tuple[int, bytes, bytes]  # status, head, body


class ConnectionLost(ConnectionError):
    pass


class Connection(asyncio.Protocol):
    """One HTTP/1.1 keep-alive connection, one request at a time."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiter: asyncio.Future[Answer] | None = None
        self.closed = False

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.waiter is not None:
            self._parse()

    def eof_received(self) -> bool:
        return False  # close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(ConnectionLost("the server closed the connection"))

    # Requests
    def send(self, raw: bytes) -> asyncio.Future[Answer]:
        if self.closed or self.transport is None:
            raise ConnectionLost("the connection is closed")
        self.waiter = self.loop.create_future()
        self.transport.write(raw)
        return self.waiter

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    def _parse(self) -> None:
        buffer = self.buffer
        end = buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = bytes(buffer[:end])
        lower = head.lower()
        status = int(head[9:12])
        start = end + 4
        if status in (204, 304) or status < 200:
            length = 0
        else:
            at = lower.find(b"\r\ncontent-length:")
            if at >= 0:
                stop = lower.find(b"\r\n", at + 2)
                length = int(lower[at + 17 : stop if stop >= 0 else len(lower)])
            elif b"\r\ntransfer-encoding: chunked" in lower:
                chunked = dechunk(buffer, start)
                if chunked is None:
                    return
                body, used = chunked
                del buffer[:used]
                self._answer(status, head, body, lower)
                return
            else:
                raise ValueError("a response with neither Content-Length nor chunked encoding")
        if len(buffer) < start + length:
            return
        body = bytes(buffer[start : start + length])
        del buffer[: start + length]
        self._answer(status, head, body, lower)

    def _answer(self, status: int, head: bytes, body: bytes, lower: bytes) -> None:
        if b"\r\nconnection: close" in lower:
            self.close()
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result((status, head, body))


async def connect(port: int) -> Connection:
    loop = asyncio.get_running_loop()
    _, conn = await loop.create_connection(lambda: Connection(loop), HOST, port)
    return conn


class Pool:
    """Keep-alive connections for requests, one request at a time each; grows as needed, and
    sends a request again on a fresh connection when the server closed an idle one."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[Connection] = []

    async def request(self, raw: bytes) -> Answer:
        for attempt in range(3):
            while self.idle and self.idle[-1].closed:  # the server closed it (keep-alive ended)
                self.idle.pop()
            conn = self.idle.pop() if self.idle and attempt == 0 else await connect(self.port)
            try:
                status, head, body = await conn.send(raw)
            except ConnectionLost:
                if attempt == 2:
                    raise
                continue
            if not conn.closed:
                self.idle.append(conn)
            return status, head, body
        raise AssertionError("unreachable")


def dechunk(buffer: bytearray, start: int) -> tuple[bytes, int] | None:
    """A chunked body from ``start``: (body, bytes used), or None while it is incomplete."""
    body = bytearray()
    at = start
    while True:
        line_end = buffer.find(b"\r\n", at)
        if line_end < 0:
            return None
        size = int(bytes(buffer[at:line_end]).split(b";")[0], 16)
        chunk_start = line_end + 2
        if size == 0:
            trailer_end = buffer.find(b"\r\n\r\n", line_end)
            if buffer[chunk_start : chunk_start + 2] == b"\r\n":
                return bytes(body), chunk_start + 2
            if trailer_end < 0:
                return None
            return bytes(body), trailer_end + 4
        if len(buffer) < chunk_start + size + 2:
            return None
        body += buffer[chunk_start : chunk_start + size]
        at = chunk_start + size + 2


def header(head: bytes, name: bytes) -> str | None:
    """A header's value in a response's head (``name`` in lower case), None if absent."""
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == name:
            return value.strip().decode("latin-1")
    return None


def get(path: str, *extra: str) -> bytes:
    """A GET request's bytes, with ``extra`` header lines."""
    lines = "".join(f"{line}\r\n" for line in extra)
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n{lines}\r\n".encode()


def post(path: str, body: Any, token: str | None = None) -> bytes:
    """A POST request's bytes: ``body`` as JSON, with the game's bearer token if given."""
    data = json.dumps(body, separators=(",", ":")).encode()
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        f"{auth}Content-Length: {len(data)}\r\n\r\n"
    ).encode() + data


def turn(game: dict[str, Any], expected: int | None = None) -> bytes:
    """A one-tile exchange on ``game`` (``id``, ``token``): the benchmark's usual turn."""
    body: dict[str, Any] = {"action": "exchange", "count": 1}
    if expected is not None:
        body["expected_turn"] = expected
    return post(f"/api/games/{game['id']}/turns/", body, game["token"])


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    token: str = "",
    timeout: float = 60,
    conn: http.client.HTTPConnection | None = None,
) -> tuple[int, bytes]:
    """One blocking request with a JSON body: (status, body). On ``conn`` (kept open, the
    caller's) when given, else on a connection of its own."""
    own = conn is None
    conn = conn or http.client.HTTPConnection(HOST, port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        if own:
            conn.close()


def create_game(port: int, lexicon: str = "CSW19", **options: Any) -> dict[str, Any]:
    """A new Upwords game through the API: its answer (``id``, ``token``, ...)."""
    body = {"ruleset": "upwords-10", "lexicon": lexicon, "players": ["Ann", "Ben"], **options}
    status, data = call(port, "POST", "/api/games/", body)
    if status != 201:
        raise RuntimeError(f"a game was not made: {status} {data[:300]!r}")
    answer: dict[str, Any] = json.loads(data)
    return answer
