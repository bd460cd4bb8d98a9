"""Request-level concerns: JSON errors under /api/, rate limits, logging refused requests."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

MESSAGES = {
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "This method is not allowed here."),
    413: ("too_large", "The request body is too large."),
    500: ("server_error", "Something went wrong on our side."),
}


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
_TURN_PATHS = re.compile(r"^/(api/games/[^/]+/turns/|games/[^/]+/score/[^/]+/turn)$")
_SECRET_IN_PATH = re.compile(r"(/score/)[^/]+")
log = logging.getLogger("scorekeeper.requests")


def client_address(request: HttpRequest) -> str:
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return str(forwarded).split(",")[0].strip()
    return str(request.META.get("REMOTE_ADDR", "unknown"))


_IMPORT_PATHS = ("/api/games/import", "/games/import")


def _scope(request: HttpRequest) -> tuple[str, int] | None:
    if request.method == "POST" and _TURN_PATHS.match(request.path):
        return "turns", settings.RATE_LIMIT_TURNS
    if request.method == "POST" and request.path in _IMPORT_PATHS:
        return "imports", settings.RATE_LIMIT_IMPORTS
    if request.method == "GET" and request.path == "/judge/" and "words" in request.GET:
        return "judge", settings.RATE_LIMIT_JUDGE
    return None


class RateLimit:
    """Per-client limits on turn submissions and word-judge lookups, counted per minute.

    The counters live in Django's cache, which every app server shares (Redis or the
    database in production). If the cache is down the request goes through: a lost limit
    is better than a lost turn.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        scope = _scope(request)
        if scope and scope[1] > 0:
            name, limit = scope
            now = time.time()
            window = int(now // 60)
            key = f"rate:{name}:{client_address(request)}:{window}"
            try:
                cache.add(key, 0, timeout=90)
                count = cache.incr(key)
            except Exception:  # noqa: BLE001 - any cache failure: count nothing, serve the request
                log.warning("rate limit cache unavailable", exc_info=True)
                count = 0
            if count > limit:
                retry = int(60 - now % 60) + 1
                return self.refuse(request, name, limit, retry)
        return self.get_response(request)

    def refuse(self, request: HttpRequest, name: str, limit: int, retry: int) -> HttpResponse:
        what = {"turns": "turns", "imports": "game imports"}.get(name, "word-judge lookups")
        message = (
            f"Too many {what} from this device: at most {limit} a minute. Try again in {retry} s."
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
                    "path": _SECRET_IN_PATH.sub(r"\1***", request.path),
                    "status": response.status_code,
                    "code": response.get("X-Error-Code", ""),
                    "client": client_address(request),
                },
            )
        return response
