"""The pages: request in, response out. ``table`` (home, new game, the scorer's page, preview,
turn, the spectator screen), ``managing`` (correct a turn, abandon, who starts, hand over, QR
codes), ``history`` (past games, a game's log, replay, chart and review), ``rankings``
(rankings and players' pages), ``records`` (upload and download records), ``clubs`` and
``invitations``, ``director`` (a club night's live tables), ``live`` (the streams of
changes the screens keep open), ``live_parts`` (the spectator's live part, drawn once a change
and shared by a server's workers); ``scorer_link`` (the scorer's secret in a cookie),
``event_parts`` (an event's public parts, drawn once a version of the event),
``your_games`` (the games this browser keeps), ``offline`` (the service worker that keeps
the scorer page for a reload offline), ``forms``, ``presenters`` (what a page shows
of a game), ``shortcuts`` and ``ops`` (health check).

Every change goes through ``scorekeeper.games.domain``. May import: ``referee``,
``scorekeeper.models``, ``scorekeeper.games``, ``scorekeeper.clubs``, ``scorekeeper.events``,
``scorekeeper.records``, ``scorekeeper.stats``, ``scorekeeper.live`` and ``scorekeeper.http``.
Never imports ``scorekeeper.api``, not even through another module.
"""
