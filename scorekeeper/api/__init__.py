"""The JSON API (django-ninja, mounted at ``/api/``, documented at ``/api/docs``):
``endpoints`` holds the routes (``tournaments`` a club's events', ``clubs`` its settings,
``photos`` a photo's reading), ``schemas`` the typed bodies they take and give, and
``serialize`` builds those answers from a game.

May import: ``referee``, ``scorekeeper.models``, ``scorekeeper.games``, ``scorekeeper.clubs``,
``scorekeeper.events``, ``scorekeeper.records`` and ``scorekeeper.http``. Never
imports ``scorekeeper.web``, not even through another module: a piece both need belongs in a
subject (``games``, ``clubs``, ``events``) or in ``http``.
"""

# The tournaments' routes join the API as their module loads: whoever imports the API has them.
from scorekeeper.api import clubs, endpoints, events, photos  # noqa: E402, F401
