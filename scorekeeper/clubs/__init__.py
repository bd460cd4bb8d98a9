"""The club subject: who plays for a club and who directs it. Nothing here sees a request.

``access`` fetches a club and checks who may act on it in one call (``access_club_as_director``),
and holds the one check of who directs a club (``directs``); ``membership`` who plays for a
club (the roster, invitations to be a player, accounts made or linked for players, a new club);
``club_settings`` a club's usual rules, names and directors (and invitations to direct).

May import: ``referee``, ``scorekeeper.models``, ``scorekeeper.invisible``, ``scorekeeper.live``
and each other. Never imports ``api``, ``web``, ``http``, ``records`` or ``stats``.
"""
