"""An event's live part answered in the event loop, before Django, when a phone names the
version its stream told it of (``/tournaments/<id>/standings?v=<version>``, as
``static/js/live.js`` asks after each ``refresh``) and this process holds that version or a
later one in memory (``event_parts.latest``).

After a game of a big event ends, hundreds of phones ask for the new part within a second.
The part is public, the same for every phone, and drawn once a version; through Django each
request would cost the middleware, the URL's resolving, a read of the event's version and two
hops between the event loop and a thread, and the turns and ``/healthz`` would wait behind
them. Here such a request is answered from memory in the loop, with the headers Django's would
carry, its 304 too. The answer is never older than the version the phone names, which its
stream had from the record; a version this process doesn't hold yet is read once in a
reading thread, however many phones ask for it meanwhile; anything else (no ``v``, a
version not there yet, a bad host, a plain-HTTP request to be redirected, a client past its
count) goes to Django as before.

Each client's answers here are counted in this process, in the event pages' windows
(``RATE_LIMIT_EVENT_PAGES`` a minute, more for a shared address): a client past its count
goes to Django's path, whose shared count refuses it. So one client gets at most that many
answers a minute from each worker's memory, each costing a dictionary read.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from config.clients import forwarded_client, tables_behind
from scorekeeper.live.stream import read_apart
from scorekeeper.web import event_parts

log = logging.getLogger(__name__)
PATH = re.compile(r"^/tournaments/([0-9]{1,12})/standings$")
VERSION = re.compile(rb"(?:^|&)v=([0-9]{1,12})(?:&|$)")
# How long a version read from the record is taken for the event's latest without reading it
# again (an event deleted meanwhile is served no longer than this by the other processes).
TRUSTED_SECONDS = 60.0
WINDOW_SECONDS = 60  # the event pages' window (``limits.KINDS``)
COUNTED_MOST = 100_000  # clients counted in a window; past that, Django's path counts them

Send = Callable[[dict[str, Any]], Awaitable[None]]

_counts: dict[str, int] = {}
_window = {"at": -1}
_reading: dict[int, asyncio.Future[None]] = {}  # an event's version being read, by event


def asked_version(scope: dict[str, Any]) -> tuple[int, int] | None:
    """(the event, the version named) of a GET of an event's part with ``v=``, else None."""
    if scope.get("method") != "GET":
        return None
    found = PATH.match(scope.get("path", ""))
    if found is None:
        return None
    version = VERSION.search(scope.get("query_string", b""))
    if version is None:
        return None
    return int(found.group(1)), int(version.group(1))


async def answer(scope: dict[str, Any], send: Send) -> bool:
    """Answer ``scope``'s request here if it is a part this process can answer from memory
    (True), else leave it to Django (False)."""
    asked = asked_version(scope)
    if asked is None:
        return False
    headers = scope.get("headers", [])
    if not _host_allowed(headers) or _to_redirect(scope, headers):
        return False
    if not _counted(scope, headers):  # counted first: no read for a client past its count
        return False
    tournament_id, version = asked
    latest = event_parts.latest(tournament_id)
    if not _current(latest, version):
        await _read_latest(tournament_id)
        latest = event_parts.latest(tournament_id)
        if not _current(latest, version):
            return False  # not there yet (or no such event): Django's path says what is
    assert latest is not None
    secure = _secure(scope, headers)
    await send_part(send, latest.part, tournament_id, headers, _site_headers(secure, scope["path"]))
    return True


def _current(latest: event_parts.Latest | None, version: int) -> bool:
    return (
        latest is not None
        and latest.part.version >= version
        and time.monotonic() - latest.read_at < TRUSTED_SECONDS
    )


async def _read_latest(tournament_id: int) -> None:
    """The event's version read from the record and its part taken into memory, once however
    many requests wait for it."""
    reading = _reading.get(tournament_id)
    if reading is None:
        reading = asyncio.ensure_future(read_apart(lambda: event_parts.read_latest(tournament_id)))
        _reading[tournament_id] = reading
        reading.add_done_callback(lambda _: _reading.pop(tournament_id, None))
    try:
        await asyncio.shield(reading)
    except Exception:  # noqa: BLE001 - Django's path answers it, and says what went wrong
        log.warning("An event's version was not read for its part.", exc_info=True)


async def send_part(
    send: Send,
    part: event_parts.LivePart,
    tournament_id: int,
    headers: list[tuple[bytes, bytes]],
    site: list[tuple[bytes, bytes]],
) -> None:
    """The part, as ``web.events.standings_part`` and the middleware answer it."""
    from scorekeeper.web.events import part_etag

    etag = f'"{part_etag(tournament_id, part.version)}"'.encode()
    named = _header(headers, b"if-none-match")
    said = [(b"etag", etag), (b"cache-control", b"no-cache"), *site]
    if named is not None and _matches(named, etag):
        await send({"type": "http.response.start", "status": 304, "headers": said})
        await send({"type": "http.response.body", "body": b""})
        return
    gzipped = b"gzip" in (_header(headers, b"accept-encoding") or b"")
    body = part.gzipped if gzipped else part.html.encode()
    said += [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"vary", b"Accept-Encoding"),
        *([(b"content-encoding", b"gzip")] if gzipped else []),
    ]
    await send({"type": "http.response.start", "status": 200, "headers": said})
    await send({"type": "http.response.body", "body": body})


def _site_headers(secure: bool, path: str) -> list[tuple[bytes, bytes]]:
    """What the site's middleware adds to every page (security, framing, CSP, permissions)."""
    from scorekeeper.http.middleware import ContentSecurityPolicy

    said = []
    if secure and settings.SECURE_HSTS_SECONDS:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        said.append(("strict-transport-security", hsts))
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        said.append(("x-content-type-options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        said.append(("referrer-policy", settings.SECURE_REFERRER_POLICY))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        said.append(("cross-origin-opener-policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    said.append(("x-frame-options", getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()))
    said += [(header, policy) for header, policy, _ in ContentSecurityPolicy.policies(path)]
    said.append(("permissions-policy", settings.PERMISSIONS_POLICY))
    return [(name.lower().encode(), value.encode("latin-1")) for name, value in said]


def _matches(named: bytes, etag: bytes) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (weakly, as Django compares), or is ``*``."""
    for each in named.split(b","):
        each = each.strip()
        if each == b"*" or each.removeprefix(b"W/") == etag:
            return True
    return False


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> bytes | None:
    for key, value in headers:
        if key == name:
            return value
    return None


def _host_allowed(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether Django would take the request's Host (else it answers 400 itself)."""
    host = (_header(headers, b"host") or b"").decode("latin-1")
    domain, _ = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return bool(domain) and validate_host(domain, allowed)


def _secure(scope: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether Django would take the request for HTTPS (``SECURE_PROXY_SSL_HEADER``)."""
    if scope.get("scheme") == "https":
        return True
    proxied = settings.SECURE_PROXY_SSL_HEADER
    if not proxied:
        return False
    name, value = proxied
    said = _header(headers, name.removeprefix("HTTP_").lower().replace("_", "-").encode())
    return said is not None and said.decode("latin-1").split(",")[0].strip() == value


def _to_redirect(scope: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> bool:
    return bool(settings.SECURE_SSL_REDIRECT) and not _secure(scope, headers)


def _counted(scope: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> bool:
    """Count the request against its client in this process: whether it is within the event
    pages' allowance (always, with no limit)."""
    per = settings.RATE_LIMIT_EVENT_PAGES
    if per <= 0:
        return True
    window = int(time.time() // WINDOW_SECONDS)
    if window != _window["at"]:
        _counts.clear()
        _window["at"] = window
    peer = (scope.get("client") or ("unknown",))[0]
    client = forwarded_client(headers, peer, settings.TRUSTED_PROXIES)
    count = _counts.get(client, 0)
    if count == 0 and len(_counts) >= COUNTED_MOST:
        return False
    if count >= per * max(1, tables_behind(client, settings.SHARED_ADDRESSES)):
        return False
    _counts[client] = count + 1
    return True


__all__ = ["answer", "asked_version", "send_part"]
