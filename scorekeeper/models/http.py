"""What the HTTP edge keeps in the database: rate-limit counts and kept answers. Not game
state."""

from __future__ import annotations

from django.db import models


class RateCount(models.Model):
    """One client's requests of one kind in one window of a rate limit
    (``scorekeeper.http.limits``), shared by every worker and server that uses this database.
    Not game state."""

    name = models.CharField(max_length=200, primary_key=True)  # rate:<limit>:<client>:<window>
    count = models.PositiveIntegerField(default=0)
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.name} = {self.count}"


class KeptAnswer(models.Model):
    """The answer to a request sent with an Idempotency-Key, kept for its retries for a day
    (``scorekeeper.http.retries``); ``status`` is null while the request is being answered. Not
    game state."""

    slot = models.CharField(max_length=64, primary_key=True)  # key, path and caller, digested
    caller = models.CharField(max_length=64)  # whose bounds it counts against, digested
    body = models.CharField(max_length=64)  # the request body's digest
    status = models.PositiveSmallIntegerField(null=True)
    content = models.BinaryField(default=b"")
    headers = models.TextField(default="{}")  # JSON: the replayed headers, and cookies by name
    size = models.PositiveIntegerField(default=0)  # bytes the answer takes, counted per caller
    started = models.DateTimeField()  # when the request holding the slot began
    expires = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["caller", "expires"], name="kept_answer_caller")]

    def __str__(self) -> str:
        return f"{self.slot[:12]} {self.status or 'in progress'}"
