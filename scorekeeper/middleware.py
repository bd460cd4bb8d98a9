"""Request-level concerns: JSON errors under /api/, rate limits, logging refused requests, and a
busy database answered 503."""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from config.logs import mask

MESSAGES = {
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "This method is not allowed here."),
    413: ("too_large", "The request body is too large."),
    500: ("server_error", "Something went wrong on our side."),
}


class PermissionsPolicy:
    """The Permissions-Policy header on every answer (settings.PERMISSIONS_POLICY)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


class ApiJsonErrors:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            request.path.startswith("/api/")
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            code, message = MESSAGES.get(
                response.status_code, ("http_error", f"HTTP {response.status_code}.")
            )
            if response.status_code == 405 and response.get("Allow"):
                message = f"Use {response['Allow']} here."
            json = JsonResponse(
                {"error": {"code": code, "message": message}}, status=response.status_code
            )
            if response.get("Allow"):
                json["Allow"] = response["Allow"]
            return json
        return response


# Rate limits ---------------------------------------------------------------------------------
# A turn from the scorer's page: /games/<id>/score/turn, or at the link's older address.
_TURN_PATHS = re.compile(r"^/(api/games/[^/]+/turns/|games/[^/]+/score/(?:[^/]+/)?turn)$")
_GAME_PATHS = ("/api/games/", "/games/new")
_IMPORT_PATHS = ("/api/games/import", "/games/import")
_ROSTER_PATH = re.compile(r"^/clubs/[^/]+/roster$")
log = logging.getLogger("scorekeeper.requests")


def client_address(request: HttpRequest) -> str:
    """Who sent the request. Behind ``TRUSTED_PROXIES`` proxies, each of which appends the
    address it was reached from to X-Forwarded-For, the client is that many entries from the
    right: what stands further left was written by the client and proves nothing."""
    proxies = settings.TRUSTED_PROXIES
    if proxies:
        hops = [h.strip() for h in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
        hops = [h for h in hops if h]
        if len(hops) >= proxies:
            return hops[-proxies]
    return str(request.META.get("REMOTE_ADDR", "unknown"))


@dataclass(frozen=True)
class Limit:
    name: str
    what: str  # for the refusal: "Too many <what> from this device"
    per: int  # at most ``per`` requests ...
    window: int  # ... in this many seconds


def _scope(request: HttpRequest) -> Limit | None:
    if request.method != "POST":
        if request.method == "GET" and request.path == "/judge/" and "words" in request.GET:
            return Limit("judge", "word-judge lookups", settings.RATE_LIMIT_JUDGE, 60)
        return None
    path = request.path
    if _TURN_PATHS.match(path):
        return Limit("turns", "turns", settings.RATE_LIMIT_TURNS, 60)
    if path == "/api/analysis/":
        return Limit("analysis", "analyses", settings.RATE_LIMIT_JUDGE, 60)
    if path in _IMPORT_PATHS:
        return Limit("imports", "game imports", settings.RATE_LIMIT_IMPORTS, 60)
    if path in _GAME_PATHS:
        return Limit("games", "new games", settings.RATE_LIMIT_GAMES, 3600)
    if path == settings.LOGIN_PATH or path.startswith("/admin/login"):
        return Limit("logins", "sign-in attempts", settings.RATE_LIMIT_LOGINS, 3600)
    # Anyone signed in may make a club, and its directors accounts for its players: neither
    # may become a way to make accounts without end.
    if path == "/clubs/new" or (
        _ROSTER_PATH.match(path) and request.POST.get("change") == "account"
    ):
        return Limit("accounts", "new clubs and accounts", settings.RATE_LIMIT_ACCOUNTS, 3600)
    return None


class RateLimit:
    """Per-client limits, counted in fixed windows: turns, word-judge lookups and imports a
    minute; new games, sign-in attempts, and new clubs and accounts an hour.

    The counters live in Django's cache, which every app server shares (Redis or the
    database in production). If the cache is down the request goes through: a lost limit
    is better than a lost turn.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = _scope(request)
        if limit and limit.per > 0:
            now = time.time()
            window = int(now // limit.window)
            key = f"rate:{limit.name}:{client_address(request)}:{window}"
            try:
                cache.add(key, 0, timeout=limit.window + 30)
                count = cache.incr(key)
            except Exception:  # noqa: BLE001 - any cache failure: count nothing, serve the request
                log.warning("rate limit cache unavailable", exc_info=True)
                count = 0
            if count > limit.per:
                retry = int(limit.window - now % limit.window) + 1
                return self.refuse(request, limit, retry)
        return self.get_response(request)

    def refuse(self, request: HttpRequest, limit: Limit, retry: int) -> HttpResponse:
        span = "a minute" if limit.window == 60 else "an hour"
        wait = f"{retry} s" if retry < 120 else f"{retry // 60} minutes"
        message = (
            f"Too many {limit.what} from this device: at most {limit.per} {span}. "
            f"Try again in {wait}."
        )
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(
                {"error": {"code": "rate_limited", "message": message}}, status=429
            )
        else:
            response = render(request, "429.html", {"message": message}, status=429)
        response["Retry-After"] = str(retry)
        response["X-Error-Code"] = "rate_limited"
        return response


# Idempotency ---------------------------------------------------------------------------------
IDEMPOTENCY_SECONDS = 24 * 3600
_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")  # printable ASCII, no spaces


class Idempotency:
    """``Idempotency-Key`` on the API's POSTs: the same key again gets the first answer, and
    nothing is applied twice (a client retrying after a lost answer, a double send).

    Answers are kept for a day in the shared cache, keyed by the key, the address, the caller's
    token and the request's body; the same key with another body is refused (422). A request
    whose twin is still being answered gets 409: retry in a moment.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get("Idempotency-Key")
        if key is None or request.method != "POST" or not request.path.startswith("/api/"):
            return self.get_response(request)
        if not _KEY.match(key):
            return _api_error(
                400, "bad_idempotency_key", "An Idempotency-Key is 1 to 255 printable characters."
            )
        caller = hashlib.sha256(
            "\n".join((key, request.path, request.headers.get("Authorization", ""))).encode()
        ).hexdigest()
        body = hashlib.sha256(request.body).hexdigest()
        stored_key, lock_key = f"idem:{caller}", f"idem-lock:{caller}"
        try:
            stored = cache.get(stored_key)
            if stored is None and not cache.add(lock_key, 1, timeout=60):
                return _api_error(
                    409, "idempotency_in_progress",
                    "A request with this Idempotency-Key is still being answered: retry shortly.",
                )  # fmt: skip
        except Exception:  # noqa: BLE001 - without the cache, answer as if there were no key
            log.warning("idempotency cache unavailable", exc_info=True)
            return self.get_response(request)
        if stored is not None:
            if stored["body"] != body:
                return _api_error(
                    422, "idempotency_key_reused",
                    "This Idempotency-Key was used for a different request.",
                )  # fmt: skip
            response = HttpResponse(
                stored["content"], status=stored["status"], content_type=stored["type"]
            )
            response["Idempotent-Replayed"] = "true"
            return response
        try:
            response = self.get_response(request)
            if response.status_code < 500 and not response.streaming:
                cache.set(
                    stored_key,
                    {
                        "body": body,
                        "status": response.status_code,
                        "type": response.get("Content-Type", "application/json"),
                        "content": response.content,
                    },
                    timeout=IDEMPOTENCY_SECONDS,
                )
            return response
        finally:
            cache.delete(lock_key)


def _api_error(status: int, code: str, message: str) -> JsonResponse:
    response = JsonResponse({"error": {"code": code, "message": message}}, status=status)
    response["X-Error-Code"] = code
    return response


# Logging refused requests ------------------------------------------------------------------
class RefusedRequestLog:
    """One structured log line for every request answered with a 4xx or 5xx."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code >= 400:
            level = logging.ERROR if response.status_code >= 500 else logging.WARNING
            log.log(
                level,
                "refused request",
                extra={
                    "method": request.method,
                    # Scorer links carry the game's secret: never write it to a log.
                    "path": mask(request.path),
                    "status": response.status_code,
                    "code": response.get("X-Error-Code", ""),
                    "client": client_address(request),
                },
            )
        return response


# A busy database -----------------------------------------------------------------------------
BUSY_RETRY_SECONDS = 2
BUSY_MESSAGE = "The database is busy: nothing was entered. Try again in a moment."


def database_busy(error: BaseException) -> bool:
    """SQLite's write lock was still held when the busy timeout ran out."""
    return isinstance(error, OperationalError) and "database is locked" in str(error)


def busy_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON under /api/, a page elsewhere. Nothing was changed (the
    write never began)."""
    if request.path.startswith("/api/"):
        response: HttpResponse = _api_error(503, "database_busy", BUSY_MESSAGE)
    else:
        response = render(request, "503.html", {"message": BUSY_MESSAGE}, status=503)
        response["X-Error-Code"] = "database_busy"
    response["Retry-After"] = str(BUSY_RETRY_SECONDS)
    return response


class DatabaseBusy:
    """A page whose write waited out SQLite's busy timeout answers 503, not 500 (the API's
    views answer the same through their own exception handler)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return busy_response(request) if database_busy(exception) else None
