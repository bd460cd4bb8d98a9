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
from http.cookies import SimpleCookie
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Min, Sum
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


def find(slot: Slot) -> KeptAnswer | None:
    """The slot's answer or claim, unless expired."""
    return KeptAnswer.objects.filter(slot=slot.slot, expires__gt=timezone.now()).first()


def held(answer: KeptAnswer) -> bool:
    """Whether an unanswered slot is still held by a live request (else its holder died)."""
    return answer.started > timezone.now() - timedelta(seconds=HOLD_SECONDS)


def caller_full_for(slot: Slot) -> int | None:
    """None while the caller keeps fewer answers, and bytes, than a caller may; else the
    seconds until the first of them expires."""
    now = timezone.now()
    mine = KeptAnswer.objects.filter(caller=slot.caller, expires__gt=now)
    counted = mine.aggregate(answers=Count("slot"), size=Sum("size"), first=Min("expires"))
    if counted["answers"] < CALLER_MAX_ANSWERS and (counted["size"] or 0) < CALLER_MAX_BYTES:
        return None
    first: datetime = counted["first"]
    return max(1, math.ceil((first - now).total_seconds()))


def claim(slot: Slot) -> bool:
    """Take the slot for this request: True if it was free, expired, or left by a request
    that died with the same body; False if another request holds it or answered it."""
    now = timezone.now()
    table = connection.ops.quote_name(KeptAnswer._meta.db_table)
    fields = {f.attname: f for f in KeptAnswer._meta.concrete_fields}
    values = {
        "slot": slot.slot,
        "caller": slot.caller,
        "body": slot.body,
        "content": b"",
        "headers": {},
        "size": 0,
        "started": now,
        "expires": now + timedelta(seconds=KEEP_SECONDS),
    }
    names = list(values)
    prepared = [fields[n].get_db_prep_save(values[n], connection) for n in names]
    stale = fields["started"].get_db_prep_save(now - timedelta(seconds=HOLD_SECONDS), connection)
    expired = fields["expires"].get_db_prep_save(now, connection)
    taken_over = ", ".join(f"{n} = excluded.{n}" for n in names if n != "slot")
    # One statement: two requests for one slot never both take it.
    sql = (
        f"INSERT INTO {table} ({', '.join(names)}, status) "
        f"VALUES ({', '.join(['%s'] * len(names))}, NULL) "
        f"ON CONFLICT (slot) DO UPDATE SET {taken_over}, status = NULL "
        f"WHERE {table}.expires <= %s "
        f"OR ({table}.status IS NULL AND {table}.started <= %s AND {table}.body = excluded.body) "
        "RETURNING slot"
    )
    # In a transaction: on SQLite a write queues for the lock as its transaction begins.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, [*prepared, expired, stale])
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
    with transaction.atomic():
        KeptAnswer.objects.filter(slot=slot.slot).update(
            status=status,
            content=content,
            headers=headers,
            size=size,
            expires=timezone.now() + timedelta(seconds=KEEP_SECONDS),
        )


TOO_LARGE = (
    "This request was answered already, and its answer ({size:,} bytes) was too large to keep "
    "for retries: send it again with a new Idempotency-Key if it changed nothing."
)


def release(slot: Slot) -> None:
    """Let the slot go unanswered: the request's answer is not kept."""
    with transaction.atomic():
        KeptAnswer.objects.filter(slot=slot.slot, status__isnull=True).delete()


def replay(answer: KeptAnswer) -> HttpResponse:
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


def _sweep(now: datetime, batch: int) -> None:
    expired = KeptAnswer.objects.filter(expires__lte=now).values_list("slot", flat=True)
    KeptAnswer.objects.filter(slot__in=list(expired[:batch])).delete()


__all__ = [
    "KEEP_SECONDS",
    "Slot",
    "caller_full_for",
    "claim",
    "find",
    "held",
    "keep",
    "kept",
    "release",
    "replay",
    "retry_slot",
    "sweep",
]
