"""The JSON API (django-ninja, mounted at ``/api/``, documented at ``/api/docs``):
``endpoints`` holds the routes (``tournaments`` a club's events', ``clubs`` its settings,
``photos`` a photo's reading), ``schemas`` the typed bodies they take and give, and
``serialize`` builds those answers from a game.

May import: ``referee``, ``scorekeeper.models``, ``scorekeeper.game``, ``scorekeeper.records``,
``scorekeeper.limits``, ``scorekeeper.retries`` and ``scorekeeper.middleware``. Never imports
``scorekeeper.web``: a piece both need belongs in ``game``.
"""

# The tournaments' routes join the API as their module loads: whoever imports the API has them.
from scorekeeper.api import clubs, endpoints, events, photos  # noqa: E402, F401
