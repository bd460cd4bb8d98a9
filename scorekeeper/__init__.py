"""The Django app: games, players, turns and results, clubs, and the pages and API over them.

One app (the models are one connected graph), in packages by subject:

- ``games``: the game, and the one door that changes one; sees no request.
- ``clubs``: who plays for a club and who directs it.
- ``game``: a club's events.
- ``records``: a game's record in other formats (JSON, GCG out and in).
- ``stats``: rankings, club standings, charts.
- ``tournaments``: a tournament's pairings, standings, ratings and ``.t`` file, as plain
  Python with no Django import.
- ``http``: the edge every request passes through (middleware, rate limits, answers kept for
  an Idempotency-Key's retries, refusals, the scorer's links).
- ``api``: the JSON API.  ``web``: the pages.  The two never reach each other.

Beside them, Django's fixed places (``models``, ``admin``, ``apps``, ``urls``,
``migrations``, ``management``) and ``invisible`` (what a name may not hold).
"""
