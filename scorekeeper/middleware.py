"""Request-level concerns: JSON errors under /api/, rate limits, logging refused requests, and a
busy database answered 503."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.signals import setting_changed
from django.db import DatabaseError, OperationalError, connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import render
from django.urls import Resolver404, ResolverMatch, resolve

from config.logs import mask
from scorekeeper import retries
from scorekeeper.game.domain import GameNotFound
from scorekeeper.game.refusals import message_of
from scorekeeper.limits import (
    Limit,
    client_address,
    count_refused_secret,
    limit_for,
    refusal,
    spend,
    units_for,
)
from scorekeeper.web.scorer_link import cookie_name

MESSAGES = {
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "This method is not allowed here."),
    413: ("too_large", "The request body is too large."),
    500: ("server_error", "Something went wrong on our side."),
}


class ContentSecurityPolicy(CSPMiddleware):
    """django-csp's middleware, with the policy built once rather than for every answer (a
    turn spent some 6% of its CPU building the same header). Built as django-csp builds it,
    from the settings, and again when they change; an answer or request that brings its own
    (a view's ``csp_update``, a nonce asked for) has it built as django-csp does."""

    SETTINGS = ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY")
    OWN = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro",
           "_csp_replace_ro")  # fmt: skip
    _built: dict[bool, str] = {}  # the policy of the settings, report-only or not

    def process_response(self, request: HttpRequest, response: Any) -> Any:
        own = getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, name, None) is not None for name in self.OWN
        )
        if own or (response.status_code in (404, 500) and settings.DEBUG):
            return super().process_response(request, response)
        for report_only, header, exempt, setting in (
            (False, HEADER, "_csp_exempt", self.SETTINGS[0]),
            (True, HEADER_REPORT_ONLY, "_csp_exempt_ro", self.SETTINGS[1]),
        ):
            policy = self._built.get(report_only)
            if policy is None:
                policy = self._built[report_only] = build_policy(report_only=report_only)
            if not policy or header in response or getattr(response, exempt, False):
                continue
            prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response


def _forget_policies(*, setting: str, **_: Any) -> None:
    if setting in ContentSecurityPolicy.SETTINGS:
        ContentSecurityPolicy._built.clear()


setting_changed.connect(_forget_policies)


class Compression(GZipMiddleware):
    """Pages and the API's answers gzipped for a client that takes it (a scorer page's HTML
    is an eighth of its size so), with Django's guard against BREACH (random bytes in each
    answer's header); never a screen's stream of events, each of which must reach the
    screen the moment it is sent."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


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
log = logging.getLogger("scorekeeper.requests")


class RateLimit:
    """Per-client limits (``scorekeeper.limits``): a request over its limit is answered 429
    with Retry-After, and nothing else happens."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = limit_for(request)
        if limit:
            retry = spend(request, limit, units_for(request, limit))
            if retry is not None:
                return self.refuse(request, limit, retry)
        response = self.get_response(request)
        if limit:  # a scorer's secret that proved wrong counts against the address
            count_refused_secret(request, response.status_code)
        return response

    def refuse(self, request: HttpRequest, limit: Limit, retry: int) -> HttpResponse:
        message = refusal(limit, retry, request)
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
_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")  # printable ASCII, no spaces


class Idempotency:
    """``Idempotency-Key`` on the API's POSTs and the scorer page's turns (``honours_keys``):
    the same key again gets the first answer, and nothing is applied twice (a client retrying
    after a lost answer, a double send, the scorer page sending a turn it kept offline).

    A key belongs to its caller (``caller_of``): the game's token when the request carries
    one, else the client's address and this browser's cookies. The key, the path and the
    caller make the request's slot, in which its answer is kept for a day with a digest of the
    body, the answer's redirect and cookies (the scorer page's messages travel in a cookie),
    in a store of its own (``scorekeeper.retries``). The same caller with the same key and body
    gets the kept answer; with another body, a 422. Anyone else using the same key makes a
    request of their own, answered as if the key were new and told nothing of the other's. A
    request whose twin is still being answered gets 409: retry in a moment. Only answers of
    routes that exist, to callers they accept, are kept (``retries.kept``).

    The slot goes to the view (``retries.retry_slot``), which hands it to the domain: a
    request run again after its first died (``retries.HOLD_SECONDS``) finds what that one
    committed.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get("Idempotency-Key")
        if key is None or request.method != "POST" or not honours_keys(request):
            return self.get_response(request)
        if not _KEY.match(key):
            return _api_error(
                400, "bad_idempotency_key", "An Idempotency-Key is 1 to 255 printable characters."
            )
        try:
            body = hashlib.sha256(request.body).hexdigest()
        except RequestDataTooBig:
            return _api_error(413, "too_large", too_large_message())
        slot = slot_of(request, key, body)
        try:
            refusal = self.take(slot)
        except OperationalError as error:
            if database_busy(error):
                return busy_response(request)
            raise
        if refusal is not None:
            return refusal
        request.retry_slot = slot.slot  # type: ignore[attr-defined]
        response: HttpResponse | None = None
        try:
            response = self.get_response(request)
            return response
        finally:
            settle(slot, response)

    @staticmethod
    def take(slot: retries.Slot) -> HttpResponse | None:
        """Take the request's slot (None), or the answer instead: the kept one, or why not."""
        for _ in range(2):  # once more if another request took the slot first
            answer = retries.find(slot)
            if answer is not None and answer.body != slot.body:
                return _api_error(
                    422, "idempotency_key_reused",
                    "This Idempotency-Key was used for a different request.",
                )  # fmt: skip
            if answer is not None and answer.status is not None:
                return retries.replay(answer)
            if answer is not None and answer.held:
                return _in_progress()
            full_for = None if answer is not None else retries.caller_full_for(slot)
            if full_for is not None:
                response = _api_error(
                    429, "idempotency_keys_full",
                    f"This caller has {retries.CALLER_MAX_ANSWERS:,} answers, or "
                    f"{retries.CALLER_MAX_BYTES // 2**20} MB, kept for retries, the most kept: "
                    "send the request without an Idempotency-Key, or later.",
                )  # fmt: skip
                response["Retry-After"] = str(full_for)
                return response
            if retries.claim(slot):
                return None
        return _in_progress()


def _in_progress() -> JsonResponse:
    return _api_error(
        409, "idempotency_in_progress",
        "A request with this Idempotency-Key is still being answered: retry shortly.",
    )  # fmt: skip


def settle(slot: retries.Slot, response: HttpResponse | None) -> None:
    """Keep the answer in its slot, or let the slot go: the answer is not kept (``kept``), or
    the request never answered. A store that fails here loses the answer, not the request's
    change: a retry finds the change (``retry_slot``)."""
    try:
        if response is not None and retries.kept(response.status_code) and not response.streaming:
            retries.keep(slot, response)
        else:
            retries.release(slot)
    except DatabaseError:
        log.warning("retry answer not kept", exc_info=True)


def slot_of(request: HttpRequest, key: str, body: str) -> retries.Slot:
    """The request's slot: its key, path and caller, digested (and the body's digest), and
    whose bounds it counts against: the caller's, or without credentials its address's (a
    client can make up cookies, not addresses)."""
    caller = caller_of(request)
    # A page's answer depends on what was asked for: a redirect, or JSON for its script.
    asked = "" if request.path.startswith("/api/") else request.headers.get("Accept", "")
    bounded = caller[:2] if caller[0] == "client" else caller
    # JSON keeps the parts apart: no key, path and caller run together into another's.
    return retries.Slot(
        slot=hashlib.sha256(json.dumps([key, request.path, asked, *caller]).encode()).hexdigest(),
        caller=hashlib.sha256(json.dumps(bounded).encode()).hexdigest(),
        body=body,
    )


def honours_keys(request: HttpRequest) -> bool:
    """Where an Idempotency-Key counts: the API's routes, and the scorer page's turn, which its
    script sends with a key (``static/js/offline.js``), so a turn retried after a lost answer,
    or kept while offline and sent later, is entered once. A path that is no route takes no
    slot."""
    if request.path.startswith("/api/"):
        try:
            resolve(request.path_info)
        except Resolver404:
            return False
        return True
    return _scorer_turn(request) is not None


def _scorer_turn(request: HttpRequest) -> ResolverMatch | None:
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    return match if match.url_name in ("turn", "turn_link") else None


def bearer_token(request: HttpRequest) -> str | None:
    """The token of ``Authorization: Bearer <token>``, read in one form whatever its spelling
    (the scheme in any case, any whitespace around and between); None without one."""
    parts = request.headers.get("Authorization", "").split()
    if len(parts) == 2 and parts[0].lower() == "bearer":
        return parts[1]
    return None


def caller_of(request: HttpRequest) -> tuple[str, ...]:
    """Who an Idempotency-Key belongs to: the credentials the request carries (a game's
    token, or on the scorer page the game's secret, in its cookie or its address), else where
    it comes from: the client's address and this browser's session and CSRF cookies, when it
    has them. A key is never shared between two callers, so nobody can read another's
    answer, or plant one, by guessing the key they will use."""
    authorization = request.headers.get("Authorization", "")
    if authorization:
        token = bearer_token(request)
        return ("bearer", token) if token else ("authorization", " ".join(authorization.split()))
    turn = None if request.path.startswith("/api/") else _scorer_turn(request)
    if turn is not None:
        game_id = turn.kwargs["game_id"]
        secret = turn.kwargs.get("token") or request.COOKIES.get(cookie_name(game_id), "")
        if secret:
            return ("scorer", str(game_id), secret)
    return (
        "client",
        client_address(request),
        request.COOKIES.get(settings.SESSION_COOKIE_NAME, ""),
        request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""),
    )


def too_large_message() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / (1024 * 1024)
    return f"The request body is too large: at most {limit:g} MB."


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
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")  # reads: run again whole on a new connection


# PostgreSQL's codes for a connection it ended: an administrator's or a crash's shutdown, or
# not yet taking connections (the 08 class is every other connection failure).
_LOST_STATES = ("57P01", "57P02", "57P03")
_LOST = "scorekeeper.connection_lost"  # in request.META: the request's connection was lost


def database_busy(error: BaseException) -> bool:
    """The database can't serve the request now, and nothing was entered: SQLite's write lock
    was still held when the busy timeout ran out, or the connection was lost (PostgreSQL ends
    the transaction of a connection it loses)."""
    if isinstance(error, OperationalError) and "database is locked" in str(error):
        return True
    return connection_lost(error)


def connection_lost(error: BaseException) -> bool:
    """Whether ``error`` is psycopg's for a connection gone (a backend terminated, a restart,
    a cut network): by its code, or by having none, as psycopg's own connection errors do."""
    if not isinstance(error, OperationalError) or not hasattr(error.__cause__, "sqlstate"):
        return False  # SQLite's errors carry no sqlstate
    state = getattr(error.__cause__, "sqlstate", "")
    return state is None or str(state).startswith("08") or state in _LOST_STATES


def busy_response(request: HttpRequest, error: BaseException | None = None) -> HttpResponse:
    """503 with Retry-After: JSON under /api/, a page elsewhere. Nothing was changed (the
    write never began, or its transaction ended with the connection)."""
    if error is not None and connection_lost(error):
        request.META[_LOST] = True
        connection.close()  # what comes next (this page, the session) opens a new one
    if request.path.startswith("/api/"):
        response: HttpResponse = _api_error(503, "database_busy", BUSY_MESSAGE)
    else:
        response = render(request, "503.html", {"message": BUSY_MESSAGE}, status=503)
        response["X-Error-Code"] = "database_busy"
    response["Retry-After"] = str(BUSY_RETRY_SECONDS)
    return response


class DatabaseBusy:
    """A page whose write waited out SQLite's busy timeout, or whose connection was lost,
    answers 503, not 500 (the API's views answer the same through their own exception
    handler); a read that lost its connection is run once more, on a new one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.META.pop(_LOST, False) and request.method in SAFE_METHODS:
            response = self.get_response(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return busy_response(request, exception) if database_busy(exception) else None


class GameNotFoundPage:
    """A page asked for a game that doesn't exist: the 404 page, saying so (the API answers
    the same refusal as JSON through its own exception handler); a table's game taken away
    with its round (an old QR code) says what happened and where the table's game is now."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, GameNotFound):
            from scorekeeper.web.events import replaced_game_page  # the pages import this

            replaced = replaced_game_page(request, exception.args[0] if exception.args else "")
            if replaced is not None:
                return replaced
            raise Http404(message_of(exception))
        return None
