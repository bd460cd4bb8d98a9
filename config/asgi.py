"""The ASGI application gunicorn serves (config/gunicorn.conf.py, uvicorn's worker).

Screens' streams of changes (``/games/<id>/events``, ``/clubs/<slug>/events``,
``/tournaments/<id>/events``) are served by
Django's ASGI handler: each waits in the event loop, thousands to a process. Every other
request goes to the WSGI application, run whole in one of ``THREADS`` threads (``Pages``),
since Django's ASGI handler would hop between the loop and a thread for each of the
(synchronous) middleware (docs/performance.md); but an event's live part that this process
holds in memory, asked for by the version a phone's stream told it of, is answered in the loop
(``scorekeeper.web.event_early``).
"""

import asyncio
import contextvars
import io
import json
import logging
import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from a2wsgi.wsgi import build_environ
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.core.wsgi import get_wsgi_application

from config import clients

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger("django.request")
STREAMS = re.compile(r"^/(games/[^/]+|clubs/[^/]+|tournaments/[0-9]+)/events$")


class StreamsHandler(ASGIHandler):
    """Django's ASGI handler without the thread of its own each request would keep for its
    life: Django runs a request in a ``ThreadSensitiveContext``, where the synchronous parts
    (the middleware, the signals, the view's first read) get a thread made for that request;
    a stream is a request that lasts minutes, so each open screen would hold a thread (and
    its memory). Here those parts take turns on asgiref's one shared thread
    instead: they are brief, once per stream opened, and that thread keeps its database
    connection as a request's thread does."""

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] != "http":
            raise ValueError(f"Only HTTP is served here, not {scope['type']}.")
        await self.handle(scope, receive, send)


class Pages:
    """The WSGI application under ASGI, each request run whole in one of ``threads`` threads:
    its body read first, in the event loop, within its bounds (``read_body``), then handed over
    with it, and its answer handed back whole, one crossing each way between the loop and the
    thread, since each crossing waits for a loop that may be busy sending to thousands of
    screens, and a body read from the thread would let a client sending a byte at a time
    hold it. A streamed answer (an export, a static file) is sent from its thread part by part."""

    def __init__(self, app: Any, threads: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="WSGI")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body = await read_body(scope, receive, send)
        if body is not None:
            await self.answer(scope, body, send)

    async def answer(self, scope: Any, body: bytes, send: Any) -> None:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[tuple[dict[str, Any], bytes] | None] = loop.create_future()
        environ = build_environ(scope, io.BytesIO(body))  # type: ignore[arg-type]
        run = contextvars.copy_context().run
        self.executor.submit(run, self.respond, environ, loop, answer, send)
        whole = await answer
        if whole is not None:
            start, content = whole
            await send(start)
            await send({"type": "http.response.body", "body": content})

    def respond(
        self,
        environ: Any,
        loop: asyncio.AbstractEventLoop,
        answer: asyncio.Future[tuple[dict[str, Any], bytes] | None],
        send: Callable[[dict[str, Any]], Any],
    ) -> None:
        """In a thread: the app's answer handed to the loop as soon as it is whole, then the
        request closed (what Django does when a response is closed, a turn's news sent among
        it, comes after the answer is on its way). The loop is woken once, for the answer (or
        the app's error, which the server answers 500 for); an error closing the request
        after it was answered is logged. A streamed answer is sent from here, part by part,
        each waiting for the loop, and ``answer`` set (to None) once it is all sent."""
        started: list[dict[str, Any]] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None):  # type: ignore[no-untyped-def]
            started[:] = [
                {
                    "type": "http.response.start",
                    "status": int(status.split(" ", 1)[0]),
                    "headers": [
                        (name.strip().lower().encode("latin1"), value.strip().encode("latin1"))
                        for name, value in headers
                    ],
                }
            ]
            return lambda chunk: sent(
                {"type": "http.response.body", "body": chunk, "more_body": True}
            )

        def sent(message: dict[str, Any]) -> None:
            asyncio.run_coroutine_threadsafe(send(message), loop).result()

        iterable = None
        try:
            iterable = self.app(environ, start_response)
            if not getattr(iterable, "streaming", False):
                whole = (started[0], b"".join(iterable))
                loop.call_soon_threadsafe(_answered, answer, whole)
                return
            sent(started[0])
            for chunk in iterable:
                sent({"type": "http.response.body", "body": chunk, "more_body": True})
            sent({"type": "http.response.body", "body": b""})
            loop.call_soon_threadsafe(_answered, answer, None)
        except BaseException as error:
            loop.call_soon_threadsafe(_failed, answer, error)
            if not isinstance(error, Exception):
                raise
        finally:
            try:
                getattr(iterable, "close", lambda: None)()
            except Exception:
                log.exception("A request's close failed after it was answered.")


def _answered(answer: asyncio.Future[Any], whole: Any) -> None:
    if not answer.done():
        answer.set_result(whole)


def _failed(answer: asyncio.Future[Any], error: BaseException) -> None:
    if not answer.done():
        answer.set_exception(error)


def _replayed(body: bytes, receive: Any) -> Any:
    """``receive`` with the body already read given back first, whole."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> dict[str, Any]:
        return pending.pop() if pending else await receive()

    return replay


# A request's body and a client's streams --------------------------------------------------------
async def read_body(scope: Any, receive: Any, send: Any) -> bytes | None:
    """The request's body, read in the event loop: at most ``DATA_UPLOAD_MAX_MEMORY_SIZE``
    bytes (413, refused before a byte is read when Content-Length says more), and whole within
    ``REQUEST_BODY_SECONDS`` (408). So a client sending its body a byte at a time holds no
    thread, and nothing it sends is written to disk. None when the request was answered here
    (refused) or the client left."""
    from scorekeeper.http.middleware import too_large_message

    cap = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    for name, value in scope["headers"]:
        if name == b"content-length" and value.strip().isdigit() and int(value) > cap:
            await _refuse(scope, send, 413, "too_large", too_large_message())
            return None
    parts: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(settings.REQUEST_BODY_SECONDS):
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return None  # the client left
                part = message.get("body", b"")
                size += len(part)
                if size > cap:
                    # The rest is read and dropped (as much again at most), so a client still
                    # sending reads the refusal rather than a reset connection.
                    while message.get("more_body") and size <= 2 * cap:
                        message = await receive()
                        size += len(message.get("body", b""))
                    await _refuse(scope, send, 413, "too_large", too_large_message())
                    return None
                parts.append(part)
                if not message.get("more_body"):
                    return parts[0] if len(parts) == 1 else b"".join(parts)
    except TimeoutError:
        await _refuse(
            scope, send, 408, "body_too_slow", "The request's body did not arrive in time."
        )
        return None


async def _refuse(scope: Any, send: Any, status: int, code: str, message: str) -> None:
    """A refusal from the loop, before the application has the request: JSON under /api/, a
    sentence elsewhere; the connection closed after it, its descriptor freed at once (what
    the client still sends is not read)."""
    if scope.get("path", "").startswith("/api/"):
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        kind = b"application/json"
    else:
        body, kind = (message + "\n").encode(), b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", b"%d" % len(body)),
               (b"x-error-code", code.encode()), (b"connection", b"close")]  # fmt: skip
    if status == 429:
        headers.append((b"retry-after", b"60"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def live(scope: Any, body: bytes, receive: Any, send: Any) -> None:
    """A screen's stream, if its client holds fewer than ``CLIENT_MAX_STREAMS`` (counted
    across the server's workers, by the client the proxies name: ``config.clients``)."""
    cap = settings.CLIENT_MAX_STREAMS
    if not cap:
        await streams(scope, _replayed(body, receive), send)
        return
    peer = (scope.get("client") or ("unknown",))[0]
    client = clients.forwarded_client(scope["headers"], peer, settings.TRUSTED_PROXIES)
    cap = clients.room_for(cap, clients.STREAMS_A_TABLE, client, settings.SHARED_ADDRESSES)
    table = clients.counts()
    cells = table.cells_of("streams", client)
    if not table.take(cells, cap):
        message = f"At most {cap} live streams a client: this page polls instead."
        await _refuse(scope, send, 429, "too_many_streams", message)
        return
    try:
        await streams(scope, _replayed(body, receive), send)
    finally:
        table.add(cells, -1)


django.setup(set_prefix=False)
from scorekeeper.web import event_early  # noqa: E402 - once Django is set up

streams = StreamsHandler()
pages = Pages(get_wsgi_application(), threads=int(os.environ.get("THREADS", "4")))


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    if scope["type"] != "http":
        return await streams(scope, receive, send)
    body = await read_body(scope, receive, send)
    if body is None:
        return
    if STREAMS.match(scope.get("path", "")):
        await live(scope, body, receive, send)
    elif not await event_early.answer(scope, send):
        await pages.answer(scope, body, send)
