"""What is left here of the old domain package: a club's events (``tournaments``,
``event_version`` the one number every change to an event's pages moves on, ``event_files``
its standings as CSV), the club rules (``membership``, ``club_settings``, ``directing``) and
the HTTP edge's ``refusals`` and ``links``, each on its way to a subject of its own; the game
itself is ``scorekeeper.games``.

May import: ``referee``, ``scorekeeper.models``, ``scorekeeper.invisible``,
``scorekeeper.live``, ``scorekeeper.games``, ``scorekeeper.tournaments`` (the plain core) and
each other. Never imports ``api``, ``web``, ``records`` or ``stats``.
"""
