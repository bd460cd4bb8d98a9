"""The HTTP edge, which the pages (``web``) and the JSON API (``api``) both stand on and
neither owns: ``middleware`` (JSON errors, Idempotency-Key, 404/503 pages, the security
headers), ``limits`` (rate limits shared by every worker), ``retries`` (the answers kept for an
Idempotency-Key's retries), ``refusals`` (the one table from what the domain refuses to a status,
a code and a sentence) and ``links`` (a game's scorer addresses, and the name of the cookie that
keeps its secret).

May import: ``referee``, ``scorekeeper.models``, ``scorekeeper.games``, ``scorekeeper.clubs``,
``scorekeeper.events`` and ``config``. Never imports ``scorekeeper.api`` or ``scorekeeper.web``.
"""
