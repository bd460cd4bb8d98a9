"""The Django app: games, players, turns and results, clubs, and the pages and API over them.

One app (the models are one connected graph), in packages by job:

- ``game``: the domain, the one path that changes a game; sees no request.
- ``records``: a game's record in other formats (JSON, GCG out and in).
- ``stats``: rankings, club standings, charts.
- ``tournaments``: a tournament's pairings, standings, ratings and ``.t`` file, as plain
  Python with no Django import.
- ``api``: the JSON API.  ``web``: the pages.  The two never import each other.

Beside them, Django's fixed places (``models``, ``admin``, ``apps``, ``urls``,
``migrations``, ``management``) and what every request passes through: ``middleware``,
``limits`` (rate limits), ``retries`` (answers kept for an Idempotency-Key's retries) and
``invisible`` (what a name may not hold).
"""
