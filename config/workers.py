"""gunicorn's worker for the ASGI application (config/gunicorn.conf.py), and the connection
protocol it serves with: the bounds that hold before any request reaches the application."""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from config import clients

REASONS = {
    408: "Request Timeout",
    429: "Too Many Requests",
    431: "Request Header Fields Too Large",
    503: "Service Unavailable",
}


class _Refused(Exception):
    """Raised from a parser callback to stop reading a request that is refused."""


class Protocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with the bounds a server facing the open internet needs:

    - a client (by address; ``config.clients``) holds at most ``CLIENT_MAX_CONNECTIONS`` open
      connections across the server's workers (more for an address tables share,
      ``SHARED_ADDRESSES``): one more is answered 429 with a sentence and closed at once;
    - a process holds at most as many connections as its descriptors allow with room to spare
      (``clients.connection_room``): one more is answered 503 and closed, so the process never
      runs out of descriptors for its database and its word lists;
    - a request's head (its line and headers) arrives within ``REQUEST_HEAD_SECONDS`` of the
      connection or of its first byte (408), in at most ``REQUEST_HEAD_BYTES`` bytes and
      ``REQUEST_HEADERS`` headers (431).

    The body's own bounds (size and deadline) are kept by the application, in the event loop,
    before any thread is given to the request (``config.asgi``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counted: tuple[int, ...] | None = None
        self.head_timer: asyncio.TimerHandle | None = None
        self.in_head = True
        self.head_bytes = 0  # received while the head is incomplete
        self.header_count = 0
        self.head_size = 0  # of the line and headers parsed so far
        self.refusal: tuple[int, str] | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > clients.connection_room():
            self.refuse(503, "This server has no room for another connection: try again soon.")
            return
        cap = settings.CLIENT_MAX_CONNECTIONS
        if cap and not settings.TRUSTED_PROXIES and self.client:
            address = self.client[0]
            cap = clients.room_for(
                cap, clients.CONNECTIONS_A_TABLE, address, settings.SHARED_ADDRESSES
            )
            table = clients.counts()
            cells = table.cells_of("connections", address)
            if not table.take(cells, cap):
                self.refuse(
                    429,
                    f"At most {cap} open connections from one address: close some first, or, "
                    "for a venue whose tables share one address, ask the server's operator to "
                    "name it in SHARED_ADDRESSES.",
                )
                return
            self.counted = cells
        self.start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted is not None:
            clients.counts().add(self.counted, -1)
            self.counted = None
        self.stop_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.in_head:
            self.head_bytes += len(data)
        super().data_received(data)
        if self.in_head and self.head_bytes > settings.REQUEST_HEAD_BYTES:
            self.refuse(431, "The request's line and headers are too long.")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.in_head, self.header_count, self.head_size = True, 0, 0
        self.start_head_timer()

    def on_url(self, url: bytes) -> None:
        self.head_size += len(url)
        self.check_head()
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.header_count += 1
        self.head_size += len(name) + len(value) + 4
        self.check_head()
        super().on_header(name, value)

    def check_head(self) -> None:
        """The head read so far is within its bounds, or the parser stops here."""
        if self.header_count > settings.REQUEST_HEADERS:
            self.refusal = (431, "The request has too many headers.")
            raise _Refused
        if self.head_size > settings.REQUEST_HEAD_BYTES:
            self.refusal = (431, "The request's line and headers are too long.")
            raise _Refused

    def on_headers_complete(self) -> None:
        self.in_head, self.head_bytes = False, 0
        self.stop_head_timer()
        super().on_headers_complete()

    def send_400_response(self, msg: str) -> None:
        if self.refusal is not None:  # the parser stopped because we refused the request
            self.refuse(*self.refusal)
        else:
            super().send_400_response(msg)

    def start_head_timer(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(settings.REQUEST_HEAD_SECONDS, self.head_late)

    def stop_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_late(self) -> None:
        self.head_timer = None
        if self.in_head:
            self.refuse(408, "The request's headers did not arrive in time.")

    def refuse(self, status: int, text: str) -> None:
        """Answer ``status`` with ``text`` and close the connection."""
        if self.transport.is_closing():
            return
        self.stop_head_timer()
        body = (text + "\n").encode()
        head = [
            f"HTTP/1.1 {status} {REASONS[status]}",
            "content-type: text/plain; charset=utf-8",
            f"content-length: {len(body)}",
            "connection: close",
        ]
        if status in (429, 503):
            head.append("retry-after: 10")
        self.transport.write("\r\n".join(head).encode() + b"\r\n\r\n" + body)
        self.transport.close()


class Worker(UvicornWorker):  # type: ignore[misc]  # uvicorn_worker has no types
    """uvicorn's gunicorn worker, serving with ``Protocol`` and stopping within gunicorn's
    ``graceful_timeout``. A worker that stops (replaced after ``max_requests``, or in a
    restart) finishes its requests; but uvicorn's own waits for every open connection to end,
    and a screen's stream doesn't: it waited until the master killed it for its silence
    (``timeout``, 30 s, logged as a worker timeout), its screens held meanwhile. This one
    waits ``graceful_timeout`` seconds at most, then ends the streams (their screens open
    them again elsewhere, each after a wait of its own, and catch up from their
    ``Last-Event-ID``) and exits by itself."""

    CONFIG_KWARGS = {"loop": "auto", "http": Protocol}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout

    def run(self) -> None:
        # The row of the shared counts its master gave it (config/gunicorn.conf.py, pre_fork).
        clients.counts().row = getattr(self, "client_row", 0)
        super().run()
