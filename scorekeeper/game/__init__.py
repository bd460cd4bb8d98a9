"""What is left here of the old domain package: a club's events (``tournaments``,
``event_version`` the one number every change to an event's pages moves on, ``event_files``
its standings as CSV) and the HTTP edge's ``refusals`` and ``links``, each on its way to a
subject of its own; the game itself is ``scorekeeper.games``, the clubs ``scorekeeper.clubs``.

May import: ``referee``, ``scorekeeper.models``, ``scorekeeper.invisible``,
``scorekeeper.live``, ``scorekeeper.games``, ``scorekeeper.clubs``, ``scorekeeper.tournaments``
(the plain core) and each other. Never imports ``api``, ``web``, ``records`` or ``stats``.
"""
