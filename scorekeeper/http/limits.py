"""Per-client rate limits, shared by every worker process and every app server.

Counted in fixed windows: turns (corrections and their previews among them), word-judge
lookups, analyses, earlier boards, event pages and imports a minute; new games,
sign-in attempts, and new clubs and accounts an hour. The count must hold across processes
(gunicorn runs several workers) and be exact under concurrent requests, so it is one atomic
increment in an engine every process shares: Redis (``INCR``) when the cache is Redis
(``CACHE_URL=redis://…``), otherwise the database, one row per client, limit and window, added
to by a single upsert (``INSERT … ON CONFLICT DO UPDATE … RETURNING``, which SQLite and
PostgreSQL both run atomically). If that engine is down the request goes through: a lost limit
is better than a lost turn. Each process deletes the database's counts of ended windows at most
once a minute (``sweep``), so the table holds the current windows' rows and a minute's more.

A request counts one, unless its cost varies: an import counts by the size of its body
(``units_for``), and a search for plays counts one when it arrives and then what it cost
beyond that (``analysis.cost_units``), through ``spend``; so does a correction, by the later
turns it scored again (``spend_beyond``).
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpRequest

from config.clients import client_of, tables_behind
from referee import GCG_MAX_SIZE as MAX_SIZE
from scorekeeper.http.links import cookie_name
from scorekeeper.http.refusals import TooMany
from scorekeeper.models import RateCount

log = logging.getLogger("scorekeeper.requests")

# A turn from the scorer's page: /games/<id>/score/turn, or at the link's older address.
_TURN_PATHS = re.compile(r"^/(api/games/[^/]+/turns/|games/[^/]+/score/(?:[^/]+/)?turn)$")
# A correction from the scorer's page and its preview, which replay the log from the turn
# corrected: they count as turns (the API's corrections are turns already).
_CORRECTION_PATHS = re.compile(r"^/games/[^/]+/score/(?:[^/]+/)?correct(?:-preview)?$")
# The pages that show a game as it stood before an earlier turn: the correction page, and a
# game's page at an earlier turn (``?turn=``).
_CORRECT_PAGE = re.compile(r"^/games/[^/]+/score/(?:[^/]+/)?correct$")
_GAME_PAGE = re.compile(r"^/games/[^/]+/$")
_GAME_PATHS = ("/api/games/", "/games/new")
# A photo read for a game's play counts as a search for plays.
_PHOTO_PATHS = re.compile(r"^/(api/games/[^/]+/photo|games/[^/]+/score/(?:[^/]+/)?photo)$")
_IMPORT_PATHS = ("/api/games/import", "/games/import")
_ROSTER_PATH = re.compile(r"^/clubs/[^/]+/roster$")
# The director's costly actions, each with a bucket of its own: pairing a round, late entries,
# and making an event (from its form or the API, with its players or from a .t file).
_PAIRING_PATHS = re.compile(r"^/(api/tournaments/\d+/rounds/|tournaments/\d+/pair)$")
_ENTRY_PATHS = re.compile(r"^/(api/tournaments/\d+/players/|tournaments/\d+/add)$")
_EVENT_PATHS = re.compile(
    r"^/(api/clubs/[^/]+/tournaments/(?:import)?|clubs/[^/]+/tournaments/new)$"
)
# An event's public page, its live part and a player's scorecard.
_EVENT_PAGES = re.compile(r"^/tournaments/[0-9]+/(?:standings|players/[0-9]+)?$")
SWEEP_SECONDS = 60  # each process deletes the counts of ended windows once in so many seconds


@dataclass(frozen=True)
class Limit:
    name: str
    what: str  # for the refusal: "Too many <what> from this device"
    per: int  # at most ``per`` requests (or units of cost) ...
    window: int  # ... in this many seconds


def client_address(request: HttpRequest) -> str:
    """Who sent the request, behind ``TRUSTED_PROXIES`` proxies (``config.clients.client_of``)."""
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    peer = str(request.META.get("REMOTE_ADDR", "unknown"))
    return client_of([forwarded], peer, settings.TRUSTED_PROXIES)


# A game named in the path (its turns, corrections and pages), and the secret an older scorer
# link carries in it.
_GAME_PATH = re.compile(r"^/(?:api/)?games/([0-9a-fA-F-]{32,36})/(?:score/([^/]+)/)?")
# The limits a table's scorer spends on its own game: counted for the game, not the address.
_GAME_LIMITS = frozenset({"turns", "replays"})


def client_key(request: HttpRequest, limit: Limit) -> str:
    """Who a request is counted as against ``limit``: its address; but a table's scorer (the
    request presents a secret for the game its path names: the API's token, the scorer
    page's cookie or link) is counted with that game and secret for what it spends on it, so
    the tables behind one address (a venue's Wi-Fi) don't share one bucket. Nothing is read to
    say so: a secret that turns out wrong is counted against the address afterwards
    (``count_refused_secret``), and a scorer is refused while the address is past its limit,
    so a flood of made-up secrets stays bounded by the address's."""
    address = client_address(request)
    if limit.name in _GAME_LIMITS:
        presented = _presented(request)
        if presented is not None:
            game, secret = presented
            digest = hashlib.sha256(secret.encode()).hexdigest()[:16]
            return f"{address}/{game}/{digest}"
    return address


def _presented(request: HttpRequest) -> tuple[str, str] | None:
    """The game the path names and the secret the request presents for it, if any."""
    found = _GAME_PATH.match(request.path)
    if found is None:
        return None
    try:
        game_id = uuid.UUID(found.group(1))
    except ValueError:
        return None
    parts = request.headers.get("Authorization", "").split()
    for secret in (
        parts[1] if len(parts) == 2 and parts[0].lower() == "bearer" else "",
        found.group(2) or "",
        request.COOKIES.get(cookie_name(game_id), ""),
    ):
        if secret:
            return game_id.hex, secret
    return None


def allowance(request: HttpRequest, limit: Limit, key: str) -> int:
    """``limit.per`` for this client: as many times more for an address that tables share
    (``SHARED_ADDRESSES``), unless it is counted for one game."""
    if key != client_address(request):
        return limit.per
    return limit.per * max(1, tables_behind(key, settings.SHARED_ADDRESSES))


def analysis_limit() -> Limit:
    """Searches for plays: the API's and a finished game's review, counted by their cost
    (``analysis.cost_units``), with the word judge's allowance."""
    return Limit("analysis", "analyses", settings.RATE_LIMIT_JUDGE, 60)


def limit_for(request: HttpRequest) -> Limit | None:
    """The limit a request counts against as it arrives, if any."""
    path = request.path
    if request.method != "POST":
        if request.method == "GET" and path == "/judge/" and "words" in request.GET:
            return Limit("judge", "word-judge lookups", settings.RATE_LIMIT_JUDGE, 60)
        if request.method == "GET" and (
            _CORRECT_PAGE.match(path) or (_GAME_PAGE.match(path) and "turn" in request.GET)
        ):
            return Limit("replays", "earlier boards", settings.RATE_LIMIT_REPLAYS, 60)
        if request.method == "GET" and _EVENT_PAGES.match(path):
            return Limit("event_pages", "event pages", settings.RATE_LIMIT_EVENT_PAGES, 60)
        return None
    if _TURN_PATHS.match(path) or _CORRECTION_PATHS.match(path):
        return Limit("turns", "turns", settings.RATE_LIMIT_TURNS, 60)
    if path == "/api/analysis/" or path == "/api/boards/read" or _PHOTO_PATHS.match(path):
        return analysis_limit()
    if path in _IMPORT_PATHS:
        return Limit("imports", "game imports", settings.RATE_LIMIT_IMPORTS, 60)
    if path in _GAME_PATHS:
        return Limit("games", "new games", settings.RATE_LIMIT_GAMES, 3600)
    if path == settings.LOGIN_PATH or path.startswith("/admin/login"):
        return Limit("logins", "sign-in attempts", settings.RATE_LIMIT_LOGINS, 3600)
    if _PAIRING_PATHS.match(path):
        return Limit("pairings", "rounds paired", settings.RATE_LIMIT_PAIRINGS, 60)
    if _ENTRY_PATHS.match(path):
        return Limit("entries", "late entries", settings.RATE_LIMIT_ENTRIES, 60)
    if _EVENT_PATHS.match(path):
        return Limit("events", "new events", settings.RATE_LIMIT_EVENTS, 3600)
    # Anyone signed in may make a club (from its form or the API), and its directors accounts
    # for its players: neither may become a way to make accounts without end.
    if path in ("/clubs/new", "/api/clubs/") or (
        _ROSTER_PATH.match(path) and request.POST.get("change") == "account"
    ):
        return Limit("accounts", "new clubs and accounts", settings.RATE_LIMIT_ACCOUNTS, 3600)
    return None


IMPORT_BYTES_PER_UNIT = 50_000  # an import counts one more for every so many bytes sent


def units_for(request: HttpRequest, limit: Limit) -> int:
    """What a request counts against ``limit`` as it arrives: one, and for an import one more
    for every ``IMPORT_BYTES_PER_UNIT`` bytes of its body (a record's cost grows with it)."""
    if limit.name != "imports":
        return 1
    try:
        size = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        size = 0
    # A body larger than any record is refused unread (413), not counted past that size.
    return 1 + min(max(size, 0), MAX_SIZE) // IMPORT_BYTES_PER_UNIT


def spend(request: HttpRequest, limit: Limit, units: int = 1) -> int | None:
    """Count ``units`` against this client's ``limit`` in the current window: None while the
    client stays within it, else the seconds until the window ends."""
    if limit.per <= 0 or units <= 0:
        return None
    return _counted(request, limit, units)


def _counted(request: HttpRequest, limit: Limit, units: int) -> int | None:
    """Add ``units`` to the client's count (a scorer's also reads its address's, in the same
    statement): the seconds until the window ends if past the limit, else None."""
    now = time.time()
    window = int(now // limit.window)
    expires = (window + 1) * limit.window
    address, key = client_address(request), client_key(request, limit)
    names = {key: f"rate:{limit.name}:{key}:{window}"}
    if key != address:
        names[address] = f"rate:{limit.name}:{address}:{window}"
    try:
        if len(names) == 1:
            counts = {names[key]: _add(names[key], units, expires)}
        else:
            counts = _add_each({names[key]: units, names[address]: 0}, expires)
    except Exception:  # noqa: BLE001 - any failure of the counter: count nothing, serve it
        log.warning("rate limit counter unavailable", exc_info=True)
        return None
    # Counting nothing asks whether the client is past the limit already.
    past = counts[names[key]] >= allowance(request, limit, key) + (1 if units else 0)
    if key != address:  # the address's own count: its requests without a good secret
        past = past or counts[names[address]] >= allowance(request, limit, address)
    return int(expires - now) + 1 if past else None


def count_refused_secret(request: HttpRequest, status: int) -> None:
    """A scorer's request refused for its secret (401, 403, 404): counted against its address,
    as a request without a secret is (the first ``spend`` counted it for the game)."""
    limit = limit_for(request)
    if (
        limit is None
        or limit.per <= 0
        or status not in (401, 403, 404)
        or client_key(request, limit) == client_address(request)
    ):
        return
    now = time.time()
    window = int(now // limit.window)
    name = f"rate:{limit.name}:{client_address(request)}:{window}"
    try:
        _add(name, 1, (window + 1) * limit.window)
    except Exception:  # noqa: BLE001 - any failure of the counter: count nothing
        log.warning("rate limit counter unavailable", exc_info=True)


def paired_games_limit() -> Limit:
    """The games pairing makes: a round makes many at once, so they count in a bucket of
    their own, by the games made, with room for a big event's rounds."""
    return Limit("paired_games", "games made by pairing", settings.RATE_LIMIT_PAIRED_GAMES, 3600)


def check_paired_games(request: HttpRequest) -> None:
    """Refuse a pairing (``TooMany``, a 429 with its wait) from a client whose pairings have
    made their hour's games already; the games a pairing makes are counted once it has made
    them (``count_paired_games``), so the pairing that crosses the limit is the last."""
    limit = paired_games_limit()
    retry = _over(request, limit)
    if retry is not None:
        raise TooMany(refusal(limit, retry, request), retry)


def count_paired_games(request: HttpRequest, games: int) -> None:
    spend(request, paired_games_limit(), games)


def _over(request: HttpRequest, limit: Limit) -> int | None:
    """The seconds until ``limit``'s window ends if this client is past it, else None."""
    if limit.per <= 0:
        return None
    return _counted(request, limit, 0)


RESCORED_PER_UNIT = 50  # a correction counts one more for every so many later turns rescored


def spend_beyond(request: HttpRequest, rescored: int) -> None:
    """Count against the limit a correction counted against as it arrived (the turns') one
    more for every ``RESCORED_PER_UNIT`` later turns it scored again: its cost grows with
    them, and the next request pays."""
    limit = limit_for(request)
    if limit is not None:
        spend(request, limit, rescored // RESCORED_PER_UNIT)


def refusal(limit: Limit, retry: int, request: HttpRequest | None = None) -> str:
    """The sentence for a client over ``limit`` (the ``request``'s: its own allowance, for
    an address that tables share)."""
    span = "a minute" if limit.window == 60 else "an hour"
    wait = f"{retry} s" if retry < 120 else f"{retry // 60} minutes"
    most = limit.per if request is None else allowance(request, limit, client_key(request, limit))
    return f"Too many {limit.what} from this device: at most {most} {span}. Try again in {wait}."


def _add(name: str, units: int, expires: float) -> int:
    """Add ``units`` to the counter ``name`` (made if new) and return its total, atomically."""
    return _add_each({name: units}, expires)[name]


def _add_each(units: dict[str, int], expires: float) -> dict[str, int]:
    """Add to each counter named its ``units`` (made if new) and return their totals,
    atomically, in one statement."""
    if settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        for name in units:
            cache.add(name, 0, timeout=int(expires - time.time()) + 30)
        return {name: int(cache.incr(name, n)) for name, n in units.items()}
    table = RateCount._meta.db_table
    until = datetime.fromtimestamp(expires, tz=UTC)
    rows = ", ".join(["(%s, %s, %s)"] * len(units))
    # In a transaction: on SQLite a write queues for the lock as its transaction begins.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (name, count, expires) VALUES {rows} "
            f"ON CONFLICT (name) DO UPDATE SET count = {table}.count + excluded.count "
            "RETURNING name, count",
            [value for name, n in units.items() for value in (name, n, until)],
        )
        counts = {name: int(count) for name, count in cursor.fetchall()}
    if _sweep_due():
        sweep()
    return counts


_swept = {"slot": -1}  # the last SWEEP_SECONDS slot of the clock in which this process swept
_sweeping = threading.Lock()


def _sweep_due() -> bool:
    """Whether this count also sweeps: the first of each ``SWEEP_SECONDS`` slot of the clock in
    this process (a clock set back starts a new slot too), whichever thread comes first."""
    slot = int(time.time() // SWEEP_SECONDS)
    with _sweeping:
        if slot == _swept["slot"]:
            return False
        _swept["slot"] = slot
        return True


def sweep() -> int:
    """Delete the counters of windows that have ended, in one statement; how many."""
    ended = datetime.fromtimestamp(time.time(), tz=UTC)
    try:
        # In a transaction: on SQLite the delete queues for the write lock like the counts.
        with transaction.atomic():
            deleted, _ = RateCount.objects.filter(expires__lt=ended).delete()
    except Exception:  # noqa: BLE001 - a sweep missed is made at the next one; the count stands
        log.warning("rate limit counters not swept", exc_info=True)
        return 0
    return deleted


__all__ = [
    "SWEEP_SECONDS",
    "Limit",
    "analysis_limit",
    "allowance",
    "check_paired_games",
    "client_address",
    "client_key",
    "count_refused_secret",
    "count_paired_games",
    "limit_for",
    "refusal",
    "spend",
    "spend_beyond",
    "sweep",
    "units_for",
]
