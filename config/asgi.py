"""The ASGI application gunicorn serves (config/gunicorn.conf.py, uvicorn's worker).

Screens' streams of changes (``/games/<id>/events``, ``/clubs/<slug>/events``) are served by
Django's ASGI handler: each waits in the event loop, thousands to a process. Every other
request goes to the WSGI application, run whole in one of ``THREADS`` threads (a2wsgi's
``WSGIMiddleware``): Django's ASGI handler would hop between the loop and a thread for each of
the (synchronous) middleware, costing a page or a turn a third more CPU than under WSGI.
"""

import os
import re

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

STREAMS = re.compile(r"^/(games/[^/]+|clubs/[^/]+)/events$")

streams = get_asgi_application()
pages = WSGIMiddleware(
    get_wsgi_application(),  # type: ignore[arg-type]  # a WSGI application, as Django types it
    workers=int(os.environ.get("THREADS", "4")),
)


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    if scope["type"] == "http" and not STREAMS.match(scope.get("path", "")):
        await pages(scope, receive, send)
    else:
        await streams(scope, receive, send)
