"""The ASGI application gunicorn serves (config/gunicorn.conf.py, uvicorn's worker).

Screens' streams of changes (``/games/<id>/events``, ``/clubs/<slug>/events``) are served by
Django's ASGI handler: each waits in the event loop, thousands to a process. Every other
request goes to the WSGI application, run whole in one of ``THREADS`` threads (a2wsgi's
``WSGIMiddleware``): Django's ASGI handler would hop between the loop and a thread for each of
the (synchronous) middleware, costing a page or a turn a third more CPU than under WSGI.
"""

import os
import re

import django
from a2wsgi import WSGIMiddleware
from django.core.handlers.asgi import ASGIHandler
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

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


django.setup(set_prefix=False)
streams = StreamsHandler()
pages = WSGIMiddleware(
    get_wsgi_application(),  # type: ignore[arg-type]  # a WSGI application, as Django types it
    workers=int(os.environ.get("THREADS", "4")),
)


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    if scope["type"] == "http" and not STREAMS.match(scope.get("path", "")):
        await pages(scope, receive, send)
    else:
        await streams(scope, receive, send)
