"""Changes pushed to the screens: a game's news carried from the process that commits it to
every process that serves a screen of it, the moment the transaction commits.

``hub`` carries the news: in this process alone by default (``make run`` needs nothing), or
through Redis pub/sub when ``REDIS_URL`` is set, so every worker and every server gets every
change. ``news`` says what a change is (one event per log entry, numbered as the log is) and
finds what a screen missed; ``stream`` is the Server-Sent Events stream a screen keeps open;
``marks`` is where the processes mark the games their screens show, so that a change's part
is drawn once, where it commits.

May import: ``scorekeeper.models`` and each other. Never imports ``game``, ``api``, ``web``,
``records`` or ``stats``: the domain calls ``news.announce`` and knows nothing of who listens.
"""
