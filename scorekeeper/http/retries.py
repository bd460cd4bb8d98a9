"""Answers kept for retries: the store behind the ``Idempotency-Key`` (``middleware.Idempotency``).

A request with a key takes its slot (the key, the path and the caller, digested) before it is
answered, and its answer is kept in the slot for ``KEEP_SECONDS``, in a table of its own
(``KeptAnswer``) that nothing else writes to, so unrelated traffic never pushes an answer out
early. Expired answers are deleted a few at a time by the requests that take slots, and all at
once by ``manage.py sweep``.

Bounds: an answer is kept whole up to ``ANSWER_MAX_BYTES``; a larger one is kept as a stand-in
that says so (the request is never run again). A caller keeps at most ``CALLER_MAX_ANSWERS``
answers and ``CALLER_MAX_BYTES`` bytes at once; beyond, its keyed requests are refused until
some expire.

A slot taken by a request that never answered (its worker killed) is taken over after
``HOLD_SECONDS``: the request then runs again, and what it changed the first time, if that was
committed, is found by the domain under the same slot (``Turn.retry_slot``) and answered, not
applied again.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from http.cookies import SimpleCookie
from typing import Any

from django.db import connection, transaction
from django.db.models import Min
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from scorekeeper.models import KeptAnswer

KEEP_SECONDS = 24 * 3600
# A request runs at most gunicorn's timeout (30 s); a slot held longer was left by one that died.
HOLD_SECONDS = 60
# A turn's or a new game's answer is a few kB; a search listing thousands of plays is not kept.
ANSWER_MAX_BYTES = 256 * 1024
CALLER_MAX_ANSWERS = 5_000  # a game's whole log (2,000 entries), twice over, in a day
CALLER_MAX_BYTES = 32 * 1024 * 1024
SWEEP_CHANCE = 0.01  # a slot taken sometimes deletes some expired answers ...
SWEEP_BATCH = 500  # ... this many at most, in the same transaction
REPLAYED_HEADERS = ("Location", "Cache-Control", "Vary")
# The status codes whose answers are kept: the request was authorized and its route exists, and
# the answer (done, or refused by the rules) would be the same again.
KEPT_REFUSALS = frozenset({400, 409, 422})


@dataclass(frozen=True)
class Slot:
    slot: str
    caller: str
    body: str


def retry_slot(request: HttpRequest) -> str | None:
    """The slot the request's Idempotency-Key took (``middleware.Idempotency``), for the view
    to hand to the domain, which records it with what it changes; None without a key."""
    return getattr(request, "retry_slot", None)


def kept(status: int) -> bool:
    """Whether an answer with this status is kept for retries: not a refusal of who is asking
    (401, 403), of where (404, 405), of the request's size or rate (413, 429), nor an error."""
    return status < 400 or status in KEPT_REFUSALS


@dataclass(frozen=True)
class SlotHeld:
    """What a slot holds: the body's digest, and the answer, or (``status`` None) a claim,
    ``held`` while its holder may still be answering."""

    body: str
    status: int | None
    content: bytes
    headers: dict[str, Any]
    held: bool


def find(slot: Slot) -> SlotHeld | None:
    """The slot's answer or claim, unless expired."""
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            _statements(connection.vendor).find,
            [_time(now - timedelta(seconds=HOLD_SECONDS)), slot.slot, _time(now)],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    body, status, content, headers, held = row
    return SlotHeld(body, status, bytes(content), json.loads(headers), bool(held))


def caller_full_for(slot: Slot) -> int | None:
    """None while the caller keeps fewer answers, and bytes, than a caller may; else the
    seconds until the first of them expires."""
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(_statements(connection.vendor).counted, [slot.caller, _time(now)])
        answers, size = cursor.fetchone()
    if answers < CALLER_MAX_ANSWERS and size < CALLER_MAX_BYTES:
        return None
    mine = KeptAnswer.objects.filter(caller=slot.caller, expires__gt=now)
    first: datetime = mine.aggregate(first=Min("expires"))["first"]
    return max(1, math.ceil((first - now).total_seconds()))


def claim(slot: Slot) -> bool:
    """Take the slot for this request: True if it was free, expired, or left by a request
    that died with the same body; False if another request holds it or answered it."""
    now = timezone.now()
    values = [
        slot.slot, slot.caller, slot.body, _FIELDS["content"].get_db_prep_save(b"", connection),
        "{}", 0, _time(now), _time(now + timedelta(seconds=KEEP_SECONDS)),
    ]  # fmt: skip
    stale = _time(now - timedelta(seconds=HOLD_SECONDS))
    # In a transaction: on SQLite a write queues for the lock as its transaction begins.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_statements(connection.vendor).claim, [*values, _time(now), stale])
        taken = cursor.fetchone() is not None
        if taken and random.random() < SWEEP_CHANCE:
            _sweep(now, SWEEP_BATCH)
    return taken


def keep(slot: Slot, response: HttpResponse) -> None:
    """Keep the answer in the slot the request took, for ``KEEP_SECONDS`` from now."""
    content = bytes(response.content)
    headers: dict[str, Any] = {h: response[h] for h in REPLAYED_HEADERS if response.has_header(h)}
    headers["Content-Type"] = response.get("Content-Type", "application/json")
    headers["cookies"] = {
        name: {"value": morsel.value, **{k: v for k, v in morsel.items() if v}}
        for name, morsel in response.cookies.items()
    }
    status = response.status_code
    size = len(content) + len(json.dumps(headers))
    if size > ANSWER_MAX_BYTES:
        status, headers = 409, {"Content-Type": "application/json"}
        content = json.dumps(
            {"error": {"code": "answer_not_kept", "message": TOO_LARGE.format(size=size)}}
        ).encode()
        size = len(content)
    expires = _time(timezone.now() + timedelta(seconds=KEEP_SECONDS))
    stored = _FIELDS["content"].get_db_prep_save(content, connection)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            _statements(connection.vendor).keep,
            [status, stored, json.dumps(headers), size, expires, slot.slot],
        )


TOO_LARGE = (
    "This request was answered already, and its answer ({size:,} bytes) was too large to keep "
    "for retries: send it again with a new Idempotency-Key if it changed nothing."
)


def release(slot: Slot) -> None:
    """Let the slot go unanswered: the request's answer is not kept."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_statements(connection.vendor).release, [slot.slot])


def resend(answer: SlotHeld) -> HttpResponse:
    """The kept answer, as it was first given."""
    headers = dict(answer.headers)
    cookies = headers.pop("cookies", {})
    response = HttpResponse(
        bytes(answer.content), status=answer.status, content_type=headers.pop("Content-Type")
    )
    for name, value in headers.items():
        response[name] = value
    jar: SimpleCookie = SimpleCookie()
    for name, morsel in cookies.items():
        jar[name] = morsel.pop("value")
        for attribute, value in morsel.items():
            jar[name][attribute] = value
    response.cookies = jar
    response["Idempotent-Replayed"] = "true"
    return response


def sweep() -> int:
    """Delete every expired answer; how many."""
    with transaction.atomic():
        deleted, _ = KeptAnswer.objects.filter(expires__lte=timezone.now()).delete()
    return deleted


# Statements built once: every keyed request runs three or four of them.
_FIELDS = {f.attname: f for f in KeptAnswer._meta.concrete_fields}
_CLAIMED = ("slot", "caller", "body", "content", "headers", "size", "started", "expires")


def _time(moment: datetime) -> Any:
    return _FIELDS["started"].get_db_prep_save(moment, connection)


@dataclass(frozen=True)
class _Statements:
    find: str
    counted: str
    claim: str
    keep: str
    release: str


@cache
def _statements(vendor: str) -> _Statements:
    table = connection.ops.quote_name(KeptAnswer._meta.db_table)
    marks = ", ".join(["%s"] * len(_CLAIMED))
    taken_over = ", ".join(f"{name} = excluded.{name}" for name in _CLAIMED[1:])
    return _Statements(
        find=f"SELECT body, status, content, headers, started > %s FROM {table} "
        "WHERE slot = %s AND expires > %s",
        counted=f"SELECT COUNT(*), COALESCE(SUM(size), 0) FROM {table} "
        "WHERE caller = %s AND expires > %s",
        # One statement: two requests for one slot never both take it.
        claim=f"INSERT INTO {table} ({', '.join(_CLAIMED)}, status) VALUES ({marks}, NULL) "
        f"ON CONFLICT (slot) DO UPDATE SET {taken_over}, status = NULL "
        f"WHERE {table}.expires <= %s "
        f"OR ({table}.status IS NULL AND {table}.started <= %s AND {table}.body = excluded.body) "
        "RETURNING slot",
        keep=f"UPDATE {table} SET status = %s, content = %s, headers = %s, size = %s, "
        "expires = %s WHERE slot = %s",
        release=f"DELETE FROM {table} WHERE slot = %s AND status IS NULL",
    )


def _sweep(now: datetime, batch: int) -> None:
    expired = KeptAnswer.objects.filter(expires__lte=now).values_list("slot", flat=True)
    KeptAnswer.objects.filter(slot__in=list(expired[:batch])).delete()


__all__ = [
    "KEEP_SECONDS",
    "SlotHeld",
    "Slot",
    "caller_full_for",
    "claim",
    "find",
    "keep",
    "kept",
    "release",
    "resend",
    "retry_slot",
    "sweep",
]
