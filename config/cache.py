"""The cache in the database, the default (``CACHE_URL`` unset or ``db``): Django's, with each
write in a transaction.

Django's database cache deletes keys (a key let go, an expired key found on a read) by a
statement outside a transaction. On SQLite every writer queues for the write lock as its
transaction begins (``config.sqlite``); a statement outside one would skip the queue and, when
the lock is taken, sleep in SQLite's busy handler, and make the queued writer behind it sleep
there too.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache.backends import db
from django.db import router, transaction


class DatabaseCache(db.DatabaseCache):
    def _base_delete_many(self, keys: Sequence[str]) -> bool:
        if not keys:
            return False
        with transaction.atomic(using=router.db_for_write(self.cache_model_class)):
            return bool(super()._base_delete_many(keys))  # type: ignore[misc]

    def clear(self) -> None:
        with transaction.atomic(using=router.db_for_write(self.cache_model_class)):
            super().clear()
