"""A game's record in other formats: the JSON record (``json_record``: every row, to copy a
game between servers), GCG out (``gcg_export``, through ``referee``'s one GCG writer) and GCG
in (``gcg_import``, entered through the domain's ``draft_game`` like any other game), and
whether a record is of a game already here (``duplicates``).

May import: ``referee``, ``scorekeeper.models``, ``scorekeeper.invisible`` and
``scorekeeper.games``. Never imports ``api`` or ``web``, which serve these formats.
"""
