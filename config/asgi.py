"""The ASGI application gunicorn serves (config/gunicorn.conf.py, uvicorn's worker).

Screens' streams of changes (``/games/<id>/events``, ``/clubs/<slug>/events``) are served by
Django's ASGI handler: each waits in the event loop, thousands to a process. Every other
request goes to the WSGI application, run whole in one of ``THREADS`` threads (``Pages``):
Django's ASGI handler would hop between the loop and a thread for each of the (synchronous)
middleware, costing a page or a turn a third more CPU than under WSGI.
"""

import asyncio
import contextvars
import io
import logging
import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from django.core.handlers.asgi import ASGIHandler
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger("django.request")
STREAMS = re.compile(r"^/(games/[^/]+|clubs/[^/]+)/events$")


class StreamsHandler(ASGIHandler):
    """Django's ASGI handler without the thread of its own each request would keep for its
    life: Django runs a request in a ``ThreadSensitiveContext``, where the synchronous parts
    (the middleware, the signals, the view's first read) get a thread made for that request;
    a stream is a request that lasts minutes, so a thousand open screens held a thousand
    threads (and their memory). Here those parts take turns on asgiref's one shared thread
    instead: they are brief, once per stream opened, and that thread keeps its database
    connection as a request's thread does."""

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] != "http":
            raise ValueError(f"Only HTTP is served here, not {scope['type']}.")
        await self.handle(scope, receive, send)


class Pages:
    """The WSGI application under ASGI, each request run whole in one of ``threads`` threads:
    its body handed over with it, its answer handed back whole, one crossing each way between
    the loop and the thread. a2wsgi's ``WSGIMiddleware``, which this was before, crosses four
    times a request (the body read, the status, the content, its end), each a wait for the
    loop: under load, with the loop busy sending to thousands of screens, those waits were a
    turn's slowest part. What must go by parts still does: a body that comes in several (an
    upload) goes to a2wsgi, which reads it as the app asks; a streamed answer (an export, a
    static file) is sent from its thread part by part."""

    def __init__(self, app: Any, threads: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="WSGI")
        self.by_parts = WSGIMiddleware(app, workers=threads)
        self.by_parts.executor = self.executor  # one pool of threads for both

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.by_parts(scope, receive, send)
        first = await receive()
        if first["type"] != "http.request":
            return  # the client left before its request came
        if first.get("more_body"):
            return await self.by_parts(scope, _replayed(first, receive), send)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[tuple[dict[str, Any], bytes] | None] = loop.create_future()
        environ = build_environ(scope, io.BytesIO(first.get("body", b"")))  # type: ignore[arg-type]
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


def _replayed(first: dict[str, Any], receive: Any) -> Any:
    """``receive`` with the message already read given back first."""
    pending = [first]

    async def replay() -> dict[str, Any]:
        return pending.pop() if pending else await receive()

    return replay


django.setup(set_prefix=False)
streams = StreamsHandler()
pages = Pages(get_wsgi_application(), threads=int(os.environ.get("THREADS", "4")))


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    if scope["type"] == "http" and not STREAMS.match(scope.get("path", "")):
        await pages(scope, receive, send)
    else:
        await streams(scope, receive, send)
