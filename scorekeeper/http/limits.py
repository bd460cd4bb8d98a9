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

Each view declares the limit its requests count against where it is defined (``limited``,
read once the request's URL is resolved: ``limit_for``); a view that counts only some
requests says which (``when``).

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
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpRequest
from django.urls import Resolver404, ResolverMatch, resolve
from ninja.operation import PathView

from config.clients import client_of, tables_behind
from referee import GCG_MAX_SIZE as MAX_SIZE
from scorekeeper.http.links import cookie_name
from scorekeeper.http.refusals import TooMany
from scorekeeper.models import RateCount

log = logging.getLogger("scorekeeper.requests")

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


# A game's id as the API's path names it (its views check it later).
_GAME_ID = re.compile(r"[0-9a-fA-F-]{32,36}")
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
    """The game the request's route names and the secret the request presents for it, if
    any: the API's token, the secret in an older scorer link, the scorer page's cookie."""
    match = resolved(request)
    named_game = None if match is None else match.kwargs.get("game_id")
    if match is None or named_game is None:
        return None
    if isinstance(named_game, uuid.UUID):
        game_id = named_game
    elif _GAME_ID.fullmatch(str(named_game)):
        try:
            game_id = uuid.UUID(str(named_game))
        except ValueError:
            return None
    else:
        return None
    parts = request.headers.get("Authorization", "").split()
    for secret in (
        parts[1] if len(parts) == 2 and parts[0].lower() == "bearer" else "",
        str(match.kwargs.get("token") or ""),
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
    return named("analysis")


class Kind(NamedTuple):
    """A limit a view may declare (``limited``)."""

    what: str  # what a refusal calls the requests
    setting: str  # the setting of how many


# The limits a view may declare: counted in windows of a minute, and of an hour.
PER_MINUTE = {
    "turns": Kind("turns", "RATE_LIMIT_TURNS"),
    "replays": Kind("earlier boards", "RATE_LIMIT_REPLAYS"),
    "judge": Kind("word-judge lookups", "RATE_LIMIT_JUDGE"),
    "analysis": Kind("analyses", "RATE_LIMIT_JUDGE"),
    "event_pages": Kind("event pages", "RATE_LIMIT_EVENT_PAGES"),
    "imports": Kind("game imports", "RATE_LIMIT_IMPORTS"),
    "pairings": Kind("rounds paired", "RATE_LIMIT_PAIRINGS"),
    "entries": Kind("late entries", "RATE_LIMIT_ENTRIES"),
}
PER_HOUR = {
    "games": Kind("new games", "RATE_LIMIT_GAMES"),
    "logins": Kind("sign-in attempts", "RATE_LIMIT_LOGINS"),
    "events": Kind("new events", "RATE_LIMIT_EVENTS"),
    "accounts": Kind("new clubs and accounts", "RATE_LIMIT_ACCOUNTS"),
}
KINDS = {**PER_MINUTE, **PER_HOUR}


def named(name: str) -> Limit:
    """The limit called ``name`` (one of ``KINDS``), with the settings' allowance."""
    what, setting = KINDS[name]
    return Limit(name, what, getattr(settings, setting), 60 if name in PER_MINUTE else 3600)


@dataclass(frozen=True)
class Declared:
    """A view's limit: its ``method``'s requests count against ``name``, those ``when``
    accepts if it is given."""

    name: str
    method: str
    when: Callable[[HttpRequest], bool] | None


ATTRIBUTE = "rate_limits"  # the view function's attribute holding its ``Declared`` limits

View = TypeVar("View", bound=Callable[..., Any])


def limited(
    name: str, *, method: str = "POST", when: Callable[[HttpRequest], bool] | None = None
) -> Callable[[View], View]:
    """Declare on a view (a Django view or an API operation's function) the limit its
    ``method``'s requests count against as they arrive (``when`` it accepts them, if given);
    a view may declare one a method. The view is returned as it is, marked."""
    if name not in KINDS:
        raise ValueError(f"no limit called {name!r}")

    def mark(view: View) -> View:
        declared = (*getattr(view, ATTRIBUTE, ()), Declared(name, method, when))
        setattr(view, ATTRIBUTE, declared)
        return view

    return mark


# Views that are not the app's own, by their URLs' names: Django's admin sign-in, and the
# referee's word judge (the engine's page, which knows nothing of the app); a lookup counts,
# not the page's form.
_NOT_OURS = {
    "admin:login": (Declared("logins", "POST", None),),
    "judge": (Declared("judge", "GET", lambda request: "words" in request.GET),),
}


def declared(match: ResolverMatch, method: str) -> tuple[Declared, ...]:
    """The limits the view ``match`` resolved to declares: for the API, those of the function
    of the operation for ``method`` (Django Ninja resolves a path to one view for all its
    methods, a closure over the path's ``PathView``)."""
    if match.view_name in _NOT_OURS:
        return _NOT_OURS[match.view_name]
    view = match.func
    for cell in getattr(view, "__closure__", None) or ():
        held = cell.cell_contents
        if isinstance(held, PathView):
            operations = [each for each in held.operations if method in each.methods]
            return getattr(operations[0].view_func, ATTRIBUTE, ()) if operations else ()
    return getattr(view, ATTRIBUTE, ())


_RESOLVED = "_limits_resolved"  # the request's attribute keeping its match, once resolved here


def resolved(request: HttpRequest) -> ResolverMatch | None:
    """The view the request goes to: Django's match once it has resolved the request, else
    resolved here, once a request (the limits count before Django's own resolving); None for
    no route."""
    if request.resolver_match is not None:
        return request.resolver_match
    if not hasattr(request, _RESOLVED):
        try:
            match: ResolverMatch | None = resolve(request.path_info)
        except Resolver404:
            match = None
        setattr(request, _RESOLVED, match)
    found: ResolverMatch | None = getattr(request, _RESOLVED)
    return found


def limit_for(request: HttpRequest) -> Limit | None:
    """The limit a request counts against as it arrives, if any: the one its view declares
    for its method (``limited``)."""
    match = resolved(request)
    if match is None:
        return None
    for each in declared(match, str(request.method)):
        if each.method == request.method and (each.when is None or each.when(request)):
            return named(each.name)
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
    "declared",
    "limit_for",
    "limited",
    "named",
    "refusal",
    "spend",
    "spend_beyond",
    "sweep",
    "units_for",
]
